"""Who plays: bots named on the command line or given from Python, and the seats they take.

An :class:`Entrant` is a bot by name with a way to make fresh copies of it:
a *factory*, called with a seed for every match. The factory is one of

* a built-in name: ``greedy`` (:class:`~hand_rummy.bots.GreedyBot`) or
  ``random`` (:class:`~hand_rummy.bots.RandomBot`);
* a reference ``package.module:Name`` to a class or a function in an
  importable module (``Name`` may be dotted: ``module:Outer.Inner``);
* the name of an entry point in the group ``hand_rummy.bots`` that another
  installed package registers (``[project.entry-points."hand_rummy.bots"]``
  in its ``pyproject.toml``: ``mybot = "mypackage.bots:MyBot"``);
* from Python, any callable: a class, a function, a :func:`functools.partial`.

The factory is called with the seed as the keyword ``seed`` when it takes
one, as its one positional argument when it takes any, and with no argument
otherwise; what it returns must have a ``choose(view)`` method (see
:mod:`hand_rummy.bots`).

References are kept as text and looked up again in each worker process, so a
tournament that names its bots this way can always be sent to workers; a
callable must be picklable (defined at the top level of a module).

>>> e = entrant("greedy")
>>> e.name, e.make(3)
('greedy', GreedyBot(seed=3))
>>> entrant("hand_rummy.bots:RandomBot").make(5)
RandomBot(seed=5)
>>> [e.name for e in parse_bots("greedy, random", seats=4)]
['greedy', 'random']
>>> seat_bots(("greedy", "random"), 3), seat_bots(("greedy", "random"), 3, turn=1)
(('greedy', 'random', 'greedy'), ('random', 'greedy', 'random'))
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from hand_rummy.errors import HandRummyError, shown

if TYPE_CHECKING:
    from hand_rummy.bots import Bot

__all__ = [
    "BUILTIN_BOTS",
    "ENTRY_POINT_GROUP",
    "BotFactory",
    "BotLoadError",
    "Entrant",
    "entrant",
    "installed_bots",
    "parse_bots",
    "resolve",
    "seat_bots",
]

BotFactory = Callable[..., "Bot"]
"""A callable that makes a bot: a class or a function, called with the seed (see above)."""

BUILTIN_BOTS = {
    "greedy": "hand_rummy.bots:GreedyBot",
    "random": "hand_rummy.bots:RandomBot",
}
"""The bots every installation knows, by name, and the class each name refers to."""

ENTRY_POINT_GROUP = "hand_rummy.bots"
"""The entry-point group in which other packages register bots by name."""

_T = TypeVar("_T")


class BotLoadError(HandRummyError):
    """A bot that cannot be found, imported or made; the message says which and why."""


def installed_bots() -> dict[str, str]:
    """The bots other installed packages register (entry-point name: its target)."""
    points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    return {point.name: point.value for point in points}


def _known() -> str:
    names = [*BUILTIN_BOTS, *sorted(set(installed_bots()) - set(BUILTIN_BOTS))]
    return ", ".join(names)


def _import_target(reference: str) -> object:
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise BotLoadError(f"bot {reference!r}: write a reference as package.module:Name")
    try:
        target: object = importlib.import_module(module_name)
    except ImportError as err:
        raise BotLoadError(f"bot {reference!r}: cannot import {module_name!r} ({err})") from None
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise BotLoadError(
                f"bot {reference!r}: module {module_name!r} has no {attribute!r}"
            ) from None
    return target


@functools.lru_cache(maxsize=256)
def resolve(reference: str) -> BotFactory:
    """The factory a bot name or reference stands for: a built-in name, an entry point in
    :data:`ENTRY_POINT_GROUP`, or ``package.module:Name``. Raises :class:`BotLoadError`."""
    text = reference.strip()
    builtin = BUILTIN_BOTS.get(text.lower())
    if builtin is not None:
        target = _import_target(builtin)
    elif ":" in text:
        target = _import_target(text)
    else:
        points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        point = next((p for p in points if p.name == text), None)
        if point is None:
            shown = text or "(empty)"
            raise BotLoadError(
                f"unknown bot {shown!r}; the bots are {_known()}, or name your own as "
                "package.module:Class"
            )
        try:
            target = point.load()
        except Exception as err:
            raise BotLoadError(
                f"bot {text!r} (entry point {point.value}): cannot load it: "
                f"{type(err).__name__}: {err}"
            ) from None
    if not callable(target):
        kind = type(target).__name__
        raise BotLoadError(f"bot {reference!r} is a {kind}, not a class or a function")
    return target


def _call(factory: BotFactory, seed: int) -> Any:
    """``factory`` called with the seed as it takes it (keyword, positional or not at all)."""
    try:
        params = list(inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature: try the seed
        return factory(seed)
    if any(p.name == "seed" and p.kind is not p.POSITIONAL_ONLY for p in params):
        return factory(seed=seed)
    kinds = inspect.Parameter
    positional = (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD, kinds.VAR_POSITIONAL)
    if any(p.kind in positional for p in params):
        return factory(seed)
    return factory()


def _name_of(factory: object) -> str:
    qualname = getattr(factory, "__qualname__", None)
    if isinstance(qualname, str):
        return qualname
    inner = getattr(factory, "func", None)  # a functools.partial
    return _name_of(inner) if inner is not None else repr(factory)


@attrs.frozen
class Entrant:
    """A bot in a tournament: its name (as results show it) and how to make one.

    ``factory`` is a name or reference (text, looked up when a bot is made) or
    a callable. Two entrants with the same name are the same bot.
    """

    name: str
    factory: str | BotFactory = attrs.field(eq=False)

    def __attrs_post_init__(self) -> None:
        # the name goes into every results line, which the reader takes back as text
        if not isinstance(self.name, str) or not self.name.strip():
            raise BotLoadError(f"a bot's name is a non-empty text, not {shown(self.name)}")
        if not (isinstance(self.factory, str) or callable(self.factory)):
            raise BotLoadError(
                f"bot {self.name!r}: its factory is a name, a reference or a callable, "
                f"not {shown(self.factory)}"
            )

    def load(self) -> BotFactory:
        """The factory itself (a reference is looked up, once per process)."""
        return resolve(self.factory) if isinstance(self.factory, str) else self.factory

    def make(self, seed: int) -> Bot:
        """A fresh bot, seeded with ``seed``; raises :class:`BotLoadError` when the factory
        cannot be loaded or makes something that is not a bot."""
        bot = _call(self.load(), seed)
        if not callable(getattr(bot, "choose", None)):
            raise BotLoadError(
                f"bot {self.name!r} made a {type(bot).__name__}, which has no choose(view) method"
            )
        return bot  # type: ignore[no-any-return]


def entrant(value: Entrant | str | BotFactory) -> Entrant:
    """An :class:`Entrant` from an entrant, a name or reference, or a factory.

    A name or reference is checked now (so a typo fails before any match);
    built-in names are read in lower case. A factory is named by its qualified
    name (``MyBot``); give an ``Entrant("name", factory)`` for another name.
    """
    if isinstance(value, Entrant):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in BUILTIN_BOTS:
            text = text.lower()
        resolve(text)
        return Entrant(text, text)
    if not callable(value):
        raise BotLoadError(f"a bot is given by name or as a class or function, not {value!r}")
    return Entrant(_name_of(value), value)


def parse_bots(text: str, seats: int, *, what: str = "--bots") -> tuple[Entrant, ...]:
    """The bots of a comma list, checked: at most one per seat (a shorter list is repeated
    round the table, see :func:`seat_bots`). Raises :class:`BotLoadError` naming ``what``."""
    if not isinstance(text, str):
        raise BotLoadError(f"{what}: the bots are a comma list of names, not {type(text).__name__}")
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise BotLoadError(f"{what}: the number of seats must be int, not {type(seats).__name__}")
    names = [n.strip() for n in text.split(",")]
    try:
        entrants = tuple(entrant(n) for n in names)
    except BotLoadError as err:
        raise BotLoadError(f"{what}: {err}") from None
    if len(entrants) > seats:
        raise BotLoadError(
            f"{what}: {len(entrants)} bots for {seats} seats; give at most one name per seat "
            "(a shorter list is repeated round the table)"
        )
    return entrants


def seat_bots(names: Sequence[_T], seats: int, turn: int = 0) -> tuple[_T, ...]:
    """The bot at each of ``seats`` seats: ``names`` repeated round the table, turned by
    ``turn`` places."""
    return tuple(names[(seat + turn) % len(names)] for seat in range(seats))
