"""The SVG pictures rendered by a real browser: headless Chromium takes a screenshot of each.

A drawing that parses as XML can still show nothing (a wrong namespace, a
shape drawn outside the view box, a colour that never applies). Here Chromium
draws a few pictures and the screenshots are read pixel by pixel: each must
hold more than one colour, a heart must bring red pixels and a spade none.

Without Chromium the tests are skipped, unless ``HR_REQUIRE_CHROMIUM`` is set
(``.ci/run`` installs Debian's ``chromium`` package and sets it): then they
fail. ``HR_CHROMIUM`` names another browser binary to use.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
import xml.etree.ElementTree as ET
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import hand_rummy as hr
from hand_rummy import svg

Pixel = tuple[int, int, int]


def _browser() -> str | None:
    chosen = os.environ.get("HR_CHROMIUM")
    if chosen:
        return chosen
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


BROWSER = _browser()


@pytest.fixture
def browser() -> str:
    """The Chromium binary; the test is skipped without one, or fails where CI requires it."""
    if BROWSER is None:
        if os.environ.get("HR_REQUIRE_CHROMIUM"):
            pytest.fail(
                "HR_REQUIRE_CHROMIUM is set but no Chromium was found at /usr/bin/chromium "
                "or on PATH (install Debian's chromium package, or set HR_CHROMIUM)"
            )
        pytest.skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
    return BROWSER


def screenshot(browser: str, picture: str, tmp_path: Path) -> list[list[Pixel]]:
    """Chromium's screenshot of ``picture`` as rows of RGB pixels."""
    # shown as a web page shows it, in an <img>: a broken drawing is then an empty box or a
    # broken-image icon, never Chromium's view of the XML source
    (tmp_path / "picture.svg").write_text(picture, encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text(
        '<!DOCTYPE html><html><body style="margin:0;background:#ffffff">'
        '<img src="picture.svg" alt=""></body></html>',
        encoding="utf-8",
    )
    shot = tmp_path / "shot.png"
    root = ET.fromstring(picture)
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    # headless Chromium crops very small windows badly: never ask for less than 500 x 400
    size = f"{max(int(width) + 20, 500)},{max(int(height) + 20, 400)}"
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                f"--user-data-dir={profile}",
                f"--screenshot={shot}",
                f"--window-size={size}",
                page.as_uri(),
            ],
            capture_output=True,
            timeout=120,
            check=False,
        )
    assert shot.exists(), f"no screenshot (exit {done.returncode}): {done.stderr[-2000:]!r}"
    return read_png(shot.read_bytes())


def read_png(data: bytes) -> list[list[Pixel]]:
    """Decode an 8-bit RGB or RGBA PNG (what Chromium writes) without any imaging library."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat = 8, b""
    width = height = depth = colour = 0
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    channels = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[list[Pixel]] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        if kind:
            _unfilter(kind, line, previous, channels)
        rows.append([(line[x], line[x + 1], line[x + 2]) for x in range(0, stride, channels)])
        previous = line
    return rows


def _unfilter(kind: int, line: bytearray, previous: bytearray, channels: int) -> None:
    """Undo one scanline's PNG filter (1 Sub, 2 Up, 3 Average, 4 Paeth), in place."""
    for i in range(len(line)):
        left = line[i - channels] if i >= channels else 0
        up = previous[i]
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 0xFF
        else:
            corner = previous[i - channels] if i >= channels else 0
            guess = left + up - corner
            pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
            nearest = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
            line[i] = (line[i] + nearest) & 0xFF


def colours(rows: list[list[Pixel]]) -> Counter[Pixel]:
    return Counter(p for row in rows for p in row)


def near(p: Pixel, colour: str, within: int = 50) -> bool:
    """Whether the pixel is ``colour`` (``#rrggbb``) give or take ``within`` per channel."""
    want = (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
    return all(abs(a - b) <= within for a, b in zip(p, want))


def count(found: Counter[Pixel], colour: str) -> int:
    return sum(n for p, n in found.items() if near(p, colour))


GAME = hr.Round.deal(hr.rulesets.levant, players=4, seed=7)
LEVANT = hr.MeldRules.of(hr.rulesets.levant, "8C")
RUN = hr.judge_meld(hr.Meld.of("7H AC 9H"), LEVANT).meld
assert RUN is not None

RED, BLACK, PURPLE, GOLD = "#c8102e", "#1b1b1b", "#6a1b9a", "#b8860b"

DRAWINGS: dict[str, tuple[Callable[[], str], Callable[[Counter[Pixel]], bool]]] = {
    # name: (the drawing, what its pixels must show)
    "heart": (lambda: svg.card("7H"), lambda c: count(c, RED) > 100 and not count(c, PURPLE)),
    "spade": (lambda: svg.card("KS"), lambda c: count(c, BLACK) > 100 and not count(c, RED)),
    "joker": (lambda: svg.card("JK"), lambda c: count(c, PURPLE) > 100 and not count(c, RED)),
    "meld": (
        lambda: svg.meld(hr.TableMeld(1, 0, RUN, hr.MeldKind.RUN)),
        lambda c: count(c, RED) > 200 and count(c, BLACK) > 100 and count(c, GOLD) > 50,
    ),
    "view": (
        lambda: svg.view(GAME.view(0)),
        lambda c: len(c) > 20 and count(c, RED) > 500 and count(c, "#2e5c99") > 500,
    ),
}


@pytest.mark.parametrize("name", list(DRAWINGS))
def test_chromium_draws_the_picture(name: str, browser: str, tmp_path: Path) -> None:
    draw, expected = DRAWINGS[name]
    rows = screenshot(browser, draw(), tmp_path)
    found = colours(rows)
    assert len(found) > 1, "the screenshot is one flat colour"
    assert expected(found), f"{name}: the pixels do not show what the drawing should"


def test_the_png_reader_reads_a_known_image() -> None:
    # a 2 x 1 RGB image, one red and one white pixel, filtered with "Sub"
    scanline = bytes([1, 255, 0, 0, 0, 255, 255])
    header = struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0)

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(scanline))
        + chunk(b"IEND", b"")
    )
    assert read_png(png) == [[(255, 0, 0), (255, 255, 255)]]
