"""hand-rummy: the rules of Hand (Levant, Gulf, the app's variants) and German Rommé.

The library answers three questions exactly: is this legal, what is legal
now, and what does it score.

>>> import hand_rummy as hr
>>> rules = hr.MeldRules.of(hr.rulesets.levant, "8C")
>>> verdict = hr.judge_meld(hr.Meld.of("7H AC 9H"), rules)
>>> verdict.ok, verdict.meld.describe()
(True, '7♥ A♣(=8♥) 9♥')
"""

from hand_rummy.actions import (
    Action,
    ClaimRedeal,
    Discard,
    DrawStock,
    Exchange,
    LayDown,
    LayOff,
    PassRedeal,
    TakeDiscard,
)
from hand_rummy.bots import Bot, Choice, GreedyBot, RandomBot
from hand_rummy.cards import (
    CARDS,
    JOKER,
    NATURAL_CARDS,
    Card,
    PhysicalCard,
    Rank,
    Suit,
    build_deck,
    format_cards,
    parse_card,
    parse_cards,
)
from hand_rummy.deals import fill_deal
from hand_rummy.errors import (
    AmbiguousMeldError,
    CardParseError,
    HandRummyError,
    IllegalActionError,
    InvalidStateError,
    UnknownRulesError,
)
from hand_rummy.finder import FoundMeld, MeldFinder
from hand_rummy.legal import LegalActions
from hand_rummy.match import Match
from hand_rummy.melds import Meld, MeldJudgement, MeldRules, judge_meld, meld_points
from hand_rummy.opening import OpeningJudgement, judge_opening
from hand_rummy.position import Position, PositionMeld, PositionSeat, PositionTurn
from hand_rummy.round import (
    Ending,
    Obligation,
    Outcome,
    Phase,
    PlayerView,
    Round,
    TableMeld,
    TurnState,
)
from hand_rummy.rules import PRESETS, VARIANTS, MeldKind, Ruleset, Variant, build, variants_for
from hand_rummy.rules import presets as rulesets
from hand_rummy.scoring import (
    PlayerEnd,
    PlayerScore,
    RoundEnd,
    RoundScore,
    ScoreBasis,
    ScoreFactor,
    TeamScore,
    card_penalty,
    hand_value,
    score_round,
)
from hand_rummy.table import ExchangeResult, LayoffContext, LayoffResult, exchange, lay_off
from hand_rummy.verdict import Citation, Code, Topic, Verdict, Violation

__version__ = "0.1.0.dev0"

__all__ = [
    "CARDS",
    "JOKER",
    "NATURAL_CARDS",
    "PRESETS",
    "VARIANTS",
    "Action",
    "AmbiguousMeldError",
    "Bot",
    "Card",
    "CardParseError",
    "Choice",
    "Citation",
    "ClaimRedeal",
    "Code",
    "Discard",
    "DrawStock",
    "Ending",
    "Exchange",
    "ExchangeResult",
    "FoundMeld",
    "GreedyBot",
    "HandRummyError",
    "IllegalActionError",
    "InvalidStateError",
    "LayDown",
    "LayOff",
    "LayoffContext",
    "LayoffResult",
    "LegalActions",
    "Match",
    "Meld",
    "MeldFinder",
    "MeldJudgement",
    "MeldKind",
    "MeldRules",
    "Obligation",
    "OpeningJudgement",
    "Outcome",
    "PassRedeal",
    "Phase",
    "PhysicalCard",
    "PlayerEnd",
    "PlayerScore",
    "PlayerView",
    "Position",
    "PositionMeld",
    "PositionSeat",
    "PositionTurn",
    "RandomBot",
    "Rank",
    "Round",
    "RoundEnd",
    "RoundScore",
    "Ruleset",
    "ScoreBasis",
    "ScoreFactor",
    "Suit",
    "TableMeld",
    "TakeDiscard",
    "TeamScore",
    "Topic",
    "TurnState",
    "UnknownRulesError",
    "Variant",
    "Verdict",
    "Violation",
    "__version__",
    "build",
    "build_deck",
    "card_penalty",
    "exchange",
    "fill_deal",
    "format_cards",
    "hand_value",
    "judge_meld",
    "judge_opening",
    "lay_off",
    "meld_points",
    "parse_card",
    "parse_cards",
    "rulesets",
    "score_round",
    "variants_for",
]
