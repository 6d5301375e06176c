"""A small client of the Chrome DevTools protocol over a pipe, with the standard library only.

Chromium started with ``--remote-debugging-pipe`` reads protocol messages
(JSON, each ended by a NUL byte) from its file descriptor 3 and writes its
answers and events to descriptor 4. No port is opened, so nothing else on
the machine can talk to the browser and no port can be taken already. Bash
(whose redirections, unlike dash's, take descriptors above 9) puts the two
pipe ends on descriptors 3 and 4 before it runs the browser.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import subprocess
import tempfile
import time
from types import TracebackType
from typing import Any

FLAGS = (
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
    "--window-size=1200,900",
)


class DevToolsError(RuntimeError):
    pass


def _above_nine(fd: int) -> int:
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class Browser:
    """Headless Chromium driven over the DevTools pipe; use it as a context manager."""

    def __init__(self, binary: str, timeout: float = 60) -> None:
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory()
        to_browser, self._out = os.pipe()
        self._in, from_browser = os.pipe()
        # the browser's ends move above 9, so that putting them on 3 and 4 overwrites neither
        to_browser, from_browser = (_above_nine(fd) for fd in (to_browser, from_browser))
        # descriptor 3 reads our messages, 4 carries the answers; then the shell execs
        script = (
            f'exec 3<&{to_browser} 4>&{from_browser} {to_browser}<&- {from_browser}>&-; exec "$@"'
        )
        self.process = subprocess.Popen(
            [
                "bash",
                "-c",
                script,
                "bash",
                binary,
                *FLAGS,
                "--remote-debugging-pipe",
                f"--user-data-dir={self._profile.name}",
                "about:blank",
            ],
            pass_fds=(to_browser, from_browser),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next = 0
        self.session: str | None = None

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(DevToolsError, OSError):
            self.send("Browser.close", session=False)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        for fd in (self._in, self._out):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._profile.cleanup()

    # --- the protocol ---------------------------------------------------------------

    def send(
        self, method: str, params: dict[str, Any] | None = None, *, session: bool = True
    ) -> Any:
        """Send one command and wait for its answer (events on the way are dropped)."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session and self.session is not None:
            message["sessionId"] = self.session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            answer = self._read(deadline)
            if answer.get("id") != self._next:
                continue
            if "error" in answer:
                raise DevToolsError(f"{method}: {answer['error']}")
            return answer.get("result", {})

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DevToolsError("the browser did not answer in time")
            ready, _, _ = select.select([self._in], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise DevToolsError(f"the browser closed the pipe (exit {self.process.poll()})")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        found: dict[str, Any] = json.loads(message)
        return found

    # --- pages ------------------------------------------------------------------------

    def open(self, url: str) -> None:
        """Open ``url`` in a new tab and talk to that tab from now on."""
        target = self.send("Target.createTarget", {"url": url}, session=False)["targetId"]
        attached = self.send(
            "Target.attachToTarget", {"targetId": target, "flatten": True}, session=False
        )
        self.session = attached["sessionId"]

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        found = self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in found:
            raise DevToolsError(f"{expression}: {found['exceptionDetails']}")
        return found["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30) -> Any:
        """Poll until ``expression`` is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except DevToolsError:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise DevToolsError(f"never true: {expression}")
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        """A real mouse click (pressed and released) in the middle of the element."""
        box = self.evaluate(
            f"(function(){{var e=document.querySelector({json.dumps(selector)});"
            "e.scrollIntoView({block:'center'});var r=e.getBoundingClientRect();"
            "return [r.left+r.width/2, r.top+r.height/2];})()"
        )
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            )

    def press(self, key: str, code: int) -> None:
        """A key pressed and released, as the keyboard sends it (``ArrowRight``, 39)."""
        for kind in ("rawKeyDown", "keyUp"):
            self.send(
                "Input.dispatchKeyEvent",
                {"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code},
            )
