"""Every error the library raises derives from one root, HandRummyError."""

from __future__ import annotations

import enum
import functools
import random
import subprocess
import sys
from collections.abc import Callable

import pytest

import hand_rummy as hr
from hand_rummy import envs, openspiel, tournament
from hand_rummy.bots import Choice, GreedyBot, RandomBot, play_round
from hand_rummy.errors import StrictValues
from hand_rummy.testing import random_action


@pytest.mark.parametrize(
    "make",
    [
        lambda: hr.parse_card("ZZ"),
        lambda: hr.build("canasta"),
        lambda: hr.Meld.of("7H 8H", roles={5: "9H"}),
        lambda: hr.Card(hr.Rank.SEVEN, None),
        lambda: hr.RoundEnd.of([("", True), ("KS", True)], went_out=1),
        lambda: hr.Round.deal(hr.rulesets.gulf, players=2, seed=0),
        lambda: hr.Round.deal(hr.rulesets.romme, players=2, seed=0).apply(hr.DrawStock()),
        lambda: play_round(hr.Round.deal(hr.rulesets.romme, players=2, seed=0), [RandomBot()]),
        lambda: hr.rulesets.levant.with_(match=hr.rules.MatchPolicy(length=0)),
        lambda: hr.Round.deal(hr.rulesets.romme, players=2, seed=0).replace(turns=1),
    ],
)
def test_errors_share_one_root(make: object) -> None:
    """A caller can catch every refusal and every bad input with one except clause."""
    with pytest.raises(hr.HandRummyError):
        make()  # type: ignore[operator]


@pytest.mark.parametrize("field", ["ace", "ace_low", "ace_wrapped", "court", "wild"])
def test_a_card_worth_less_than_nothing_toward_an_opening_is_refused(field: str) -> None:
    """A meld's opening value never falls as cards are added; a negative value would make
    it, so the rules refuse one (zero stays allowed)."""
    with pytest.raises(hr.InvalidStateError, match=f"{field} must be 0 or more, not -1"):
        hr.rules.OpeningValues(**{field: -1})
    assert getattr(hr.rules.OpeningValues(**{field: 0}), field) == 0


def test_replace_changes_only_the_fields_named() -> None:
    game = hr.Round.deal(hr.rulesets.romme, players=2, seed=0)
    other = game.replace(turn=1 - game.turn, reshuffles=2)
    assert type(other) is hr.Round
    assert (other.turn, other.reshuffles) == (1 - game.turn, 2)
    assert game.reshuffles == 0 and game.turn != other.turn  # the original is untouched
    for field in ("hands", "stock", "discards", "table", "phase", "history", "finder"):
        assert getattr(other, field) is getattr(game, field)


def test_the_testing_module_without_hypothesis_names_the_extra() -> None:
    """As the other extras do: MissingExtraError, which is both HandRummyError and ImportError."""
    code = (
        "import sys\n"
        "sys.modules['hypothesis'] = None\n"
        "from hand_rummy.extras import MissingExtraError\n"
        "try:\n"
        "    import hand_rummy.testing\n"
        "except MissingExtraError as error:\n"
        "    print(isinstance(error, ImportError), error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout == (
        "True hand_rummy.testing needs hypothesis: install the test extra "
        "(pip install 'hand-rummy[test]')\n"
    )


def test_hand_value_refuses_a_hand_no_deal_could_give() -> None:
    # two packs hold two K♠; with the 8♣ turned as the indicator only one 8♣ is left to hold
    # (the referee's hand_value refuses the same hands)
    levant = hr.MeldRules.of(hr.rulesets.levant, "8C")
    assert hr.hand_value("KS KS 8C", levant) == 28
    with pytest.raises(hr.InvalidStateError, match="hold 3 × K♠, but the deck has only 2"):
        hr.hand_value("KS KS KS", levant)
    with pytest.raises(hr.InvalidStateError, match="hold 3 × 8♣, but the deck has only 2"):
        hr.hand_value("8C 8C", levant)


def test_a_seat_given_a_count_for_its_hand_is_told_how_to_hide_it() -> None:
    """A bare count stands for a hidden hand in ``Position.players``; given to a seat as its
    hand, it used to fail with "cards must be Iterable, not int"."""
    with pytest.raises(hr.InvalidStateError, match=r"PositionSeat\(hand_size=9\)"):
        hr.PositionSeat(9)  # type: ignore[arg-type]
    assert hr.PositionSeat(hand_size=9).hand_size == 9


# --- wrong usage found by the misuse audit: each is refused with the library's own error ---


def test_a_card_built_from_letters_is_refused_by_name() -> None:
    with pytest.raises(hr.InvalidStateError, match="a card's rank must be a Rank and its suit"):
        hr.Card(hr.Rank.SEVEN, "H")  # type: ignore[arg-type]
    assert hr.Card(hr.Rank.SEVEN, hr.Suit.HEARTS) == hr.parse_card("7H")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("two", 2), "the number of packs must be int, not str"),
        ((-1, 2), "the number of packs must be from 0 to 8, not -1"),
        ((2, -5), "the number of jokers must be from 0 to 16, not -5"),
    ],
)
def test_build_deck_refuses_a_count_that_is_no_count(
    args: tuple[object, object], message: str
) -> None:
    with pytest.raises(hr.InvalidStateError, match=message):
        hr.build_deck(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize("demoted", [["0"], "0", [None], [0.5], [True]])
def test_a_meld_s_demoted_positions_must_be_whole_numbers(demoted: object) -> None:
    with pytest.raises(hr.InvalidStateError, match="demoted"):
        hr.Meld.of("7H 8H 9H", demoted=demoted)  # type: ignore[arg-type]
    assert hr.Meld.of("7H 8H 9H", demoted=[1]).demoted == frozenset({1})


_SEVENS = (hr.Card.parse("7H"), hr.Card.parse("7S"), hr.Card.parse("7D"))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cards": ["7H", "7S", "7D"]}, "a meld's cards must be tuple, not list"),
        ({"cards": "7H 7S 7D"}, "a meld's cards must be tuple, not str"),
        # cards without a length: the roles' default counted them before any check ran
        ({"cards": 7}, "a meld's cards must be tuple, not int"),
        ({"cards": None}, "a meld's cards must be tuple, not NoneType"),
        ({"cards": iter(_SEVENS)}, "a meld's cards must be tuple, not tuple_iterator"),
        ({"cards": (7, 7, 7)}, "each card of a meld must be Card, not int"),
        ({"cards": _SEVENS, "roles": ["7C", None, None]}, "roles must be tuple, not list"),
        ({"cards": _SEVENS, "roles": ("7C", None, None)}, "role must be Card, not str"),
        ({"cards": _SEVENS, "demoted": [0]}, "demoted positions must be frozenset, not list"),
        ({"cards": _SEVENS, "demoted": {0}}, "demoted positions must be frozenset, not set"),
    ],
)
def test_a_meld_built_field_by_field_has_its_fields_checked(
    fields: dict[str, object], message: str
) -> None:
    """A meld built by its constructor instead of Meld.of took any field, and a lay-down of
    it failed inside the judge with a TypeError (a list of card strings) or AttributeError."""
    with pytest.raises(hr.InvalidStateError, match=message):
        hr.Meld(**fields)  # type: ignore[arg-type]
    assert hr.Meld(_SEVENS, (None, None, None), frozenset()) == hr.Meld.of("7H 7S 7D")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ((1.0, 0, "meld", "run"), "number must be int, not float"),
        ((1, "0", "meld", "run"), "owner must be int, not str"),
        ((1, 0, "7H 8H 9H", "run"), "meld must be Meld, not str"),
        ((1, 0, "meld", "run"), "kind must be MeldKind, not str"),
    ],
)
def test_a_table_meld_has_its_fields_checked(fields: tuple[object, ...], message: str) -> None:
    meld = hr.Meld.of("7H 8H 9H")
    given = tuple(meld if field == "meld" else field for field in fields)
    with pytest.raises(hr.InvalidStateError, match=message):
        hr.TableMeld(*given)  # type: ignore[arg-type]


def test_build_reads_variants_from_a_generator_once() -> None:
    """The names were checked in one pass and applied in another: a generator came out empty."""
    assert hr.build("levant", (v for v in ["opening_71"])).title == "levant+opening_71"


def test_the_catalogues_of_presets_and_variants_cannot_be_changed() -> None:
    """build() and the referee read them: a preset removed or replaced by mistake changed the
    rules of the whole process."""
    with pytest.raises(TypeError):
        hr.PRESETS["romme"] = hr.rulesets.levant  # type: ignore[index]
    with pytest.raises(TypeError):
        del hr.VARIANTS["opening_71"]  # type: ignore[attr-defined]
    assert not hasattr(hr.PRESETS, "pop") and not hasattr(hr.VARIANTS, "update")
    assert hr.build("romme") == hr.PRESETS["romme"] == hr.rulesets.romme


def test_variants_for_an_unknown_preset_is_refused() -> None:
    with pytest.raises(hr.UnknownRulesError, match="unknown rules 'levnat'; did you mean 'levant'"):
        hr.variants_for("levnat")


def test_with_refuses_an_unknown_field_or_a_wrong_policy() -> None:
    levant = hr.rulesets.levant
    with pytest.raises(hr.InvalidStateError, match="a ruleset has no field 'openning'"):
        levant.with_(openning=hr.rules.FixedOpening(71))
    with pytest.raises(hr.InvalidStateError, match="opening must be an OpeningThreshold"):
        levant.with_(opening="71")
    with pytest.raises(hr.InvalidStateError, match="deck must be DeckPolicy, not int"):
        levant.with_(deck=3)
    with pytest.raises(hr.InvalidStateError, match="packs must be int, not str"):
        hr.rules.DeckPolicy(packs="2")  # type: ignore[arg-type]
    assert levant.with_(opening=hr.rules.FixedOpening(71)).opening.required(0, 0, ()) == 71


@pytest.mark.parametrize("seat", [-1, 2, "0"])
def test_hand_size_and_best_opening_refuse_a_seat_that_is_not_there(seat: object) -> None:
    """seat -1 read the last hand and seat 2 raised IndexError; "0" a TypeError."""
    game = hr.Round.deal(hr.rulesets.romme, players=2, seed=0)
    for ask in (game.hand_size, game.best_opening):
        with pytest.raises(hr.InvalidStateError, match="seat"):
            ask(seat)  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError, match="seat"):
        hr.PlayerView.of(game, seat)  # type: ignore[arg-type]


def test_match_new_checks_its_dealer_deals_and_custom_length() -> None:
    romme = hr.rulesets.romme
    with pytest.raises(hr.InvalidStateError, match="a deal needs the field 'stock'"):
        hr.Match.new(romme, 2, 0, deals=[{"hands": ["7H", "8H"]}])
    with pytest.raises(hr.InvalidStateError, match="the deals must be a list of deals"):
        hr.Match.new(romme, 2, 0, deals="abc")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError, match=r"a deal .*must be Mapping, not int"):
        hr.Match.new(romme, 2, 0, deals=[5])  # type: ignore[list-item]
    with pytest.raises(hr.InvalidStateError, match="custom_length must be bool, not str"):
        hr.Match.new(romme, 2, 0, custom_length="yes")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError, match="the dealer must be int, not str"):
        hr.Match.new(romme, 2, 0, dealer="1")  # type: ignore[arg-type]


def test_bots_check_their_arguments() -> None:
    game = hr.Round.deal(hr.rulesets.romme, players=2, seed=0)
    with pytest.raises(hr.InvalidStateError, match="the seed must be int, not str"):
        RandomBot("x")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError, match="flat_discards must be bool, not str"):
        GreedyBot(flat_discards="no")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError, match=r"the view .* must be PlayerView, not Round"):
        RandomBot().choose(game)  # type: ignore[arg-type]
    with pytest.raises(
        hr.InvalidStateError, match=r"the decision .* must be Choice, not PlayerView"
    ):
        GreedyBot().decide(game.view(game.turn))  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidStateError, match="the round must be Round, not str"):
        Choice(0, game="round")  # type: ignore[arg-type]


def test_a_bot_asked_after_the_round_says_the_round_is_over() -> None:
    done = play_round(
        hr.Round.deal(hr.rulesets.romme, players=2, seed=3), [RandomBot(1), RandomBot(2)]
    )
    with pytest.raises(hr.InvalidStateError, match="no legal action: the round is over"):
        GreedyBot().choose(done.view(0))


def test_lay_off_refuses_a_context_that_is_not_one() -> None:
    rules = hr.MeldRules.of(hr.rulesets.levant, "8C")
    run = hr.judge_meld(hr.Meld.of("7H AC 9H"), rules).meld
    with pytest.raises(
        hr.InvalidStateError, match=r"the context .* must be LayoffContext, not str"
    ):
        hr.lay_off(run, "10H", rules, context="going_out")  # type: ignore[arg-type]


def test_env_refuses_an_option_it_does_not_take() -> None:
    pytest.importorskip("pettingzoo")
    with pytest.raises(hr.InvalidStateError, match=r"unknown option 'seed' .*reset\(seed=\.\.\.\)"):
        envs.env("classic", players=2, seed=1)
    with pytest.raises(hr.InvalidStateError, match=r"unknown option 'colour' .*episode"):
        envs.raw_env("classic", players=2, colour="red")


def test_openspiel_load_game_checks_the_players_before_openspiel_does() -> None:
    pytest.importorskip("pyspiel")
    with pytest.raises(hr.InvalidStateError, match="the number of players must be int, not str"):
        openspiel.load_game("classic", players="2")  # type: ignore[arg-type]


def test_tournament_run_and_parse_bots_check_their_arguments() -> None:
    with pytest.raises(tournament.TournamentError, match="run\\(\\) plays a Tournament"):
        tournament.run("classic")  # type: ignore[arg-type]
    with pytest.raises(tournament.BotLoadError, match="the number of seats must be int, not str"):
        tournament.parse_bots("random", "2")  # type: ignore[arg-type]


def test_a_deck_too_large_to_play_is_refused_with_its_limit() -> None:
    """The misuse audit: ``build_deck(10**7, 0)`` ran out of memory, and a ruleset's deck had
    no upper bound."""
    with pytest.raises(hr.InvalidStateError, match="packs must be from 0 to 8, not 10000000"):
        hr.build_deck(10**7, 0)
    with pytest.raises(hr.InvalidStateError, match="jokers must be at most 16, not 17"):
        hr.rules.DeckPolicy(packs=2, jokers=17)
    assert len(hr.build_deck(8, 16)) == 8 * 52 + 16


def test_a_seed_of_more_than_40_digits_is_refused_everywhere() -> None:
    """A seed of 5,000 digits was taken by Round.deal and then broke every document written
    of the round (Python writes no integer of more than 4,300 digits), and Match.new and the
    tournament raised a bare ValueError. 40 digits is what the referee reads in a document."""
    from hand_rummy.deals import fill_deal  # noqa: PLC0415
    from hand_rummy.search import SearchBot  # noqa: PLC0415
    from hand_rummy.serialize import dumps, loads  # noqa: PLC0415

    classic = hr.rulesets.classic
    largest = 10**40 - 1
    game = hr.Round.deal(classic, 2, -largest)
    assert loads(dumps(game)) == game
    for seed in (10**40, -(10**40), 10**5000):
        refused = "the seed has at most 40 digits, not about "
        for make in (
            functools.partial(hr.Round.deal, classic, 2, seed),
            functools.partial(hr.Match.new, classic, 2, seed),
            functools.partial(fill_deal, classic, 2, seed=seed),
            functools.partial(GreedyBot, seed),
            functools.partial(SearchBot, iterations=1, seed=seed),
        ):
            with pytest.raises(hr.InvalidStateError, match=refused):
                make()
        with pytest.raises(tournament.TournamentError, match="the seed has at most 40 digits"):
            tournament.Tournament("classic", players=2, bots="greedy", matches=1, seed=seed)


@pytest.mark.parametrize("seed", [1.5, "abc", None, True, 10**40])
def test_from_deal_checks_its_seed_as_deal_does(seed: object) -> None:
    """from_deal took any seed, and loads() then refused the document dumps() wrote of it."""
    classic = hr.rulesets.classic
    *hands, stock, _ = hr.Round.deal(classic, 2, seed=1).start
    with pytest.raises(hr.InvalidStateError, match=r"the seed (must be int|has at most 40 digits)"):
        hr.Round.from_deal(classic, list(hands), list(stock), seed=seed)  # type: ignore[arg-type]


def test_a_document_s_seed_of_more_than_40_digits_is_refused() -> None:
    """round_from_json read a seed of any length, where Round.deal refuses one of 41 digits."""
    from hand_rummy import serialize  # noqa: PLC0415

    text = serialize.dumps(hr.Round.deal(hr.rulesets.classic, 2, seed=1))
    assert serialize.loads(text.replace('"seed": 1,', f'"seed": {10**40 - 1},')).seed
    for digits in (41, 60):
        long_seed = text.replace('"seed": 1,', '"seed": ' + "9" * digits + ",")
        with pytest.raises(hr.InvalidStateError, match=r"^seed: .*at most 40 digits"):
            serialize.loads(long_seed)
    doc = serialize.round_to_json(hr.Round.deal(hr.rulesets.classic, 2, seed=1))
    doc["seed"] = 10**5000
    with pytest.raises(hr.InvalidStateError, match=r"^seed: .*at most 40 digits, not about 5,001"):
        serialize.round_from_json(doc)


HUGE = 10**5000  # past the 4,300 digits Python writes as text


def _huge_calls() -> dict[str, Callable[[], object]]:
    from hand_rummy import encoding, svg, text  # noqa: PLC0415
    from hand_rummy.deals import fill_deal  # noqa: PLC0415
    from hand_rummy.observation import observe  # noqa: PLC0415
    from hand_rummy.search import SearchBot  # noqa: PLC0415

    classic = hr.rulesets.classic
    game = hr.Round.deal(classic, players=2, seed=1)
    view = game.view(game.turn)
    space = encoding.ActionSpace.of(classic, 2)
    played = game
    rng = random.Random(3)
    while not played.table:  # a meld on the table, where the mover may lay off
        played = played.apply(random_action(played, rng))
    card = played.hand(played.turn)[0]
    quick = functools.partial(tournament.Tournament, "classic", bots=["greedy"])
    return {
        "Round.view": lambda: game.view(HUGE),
        "Round.view(-)": lambda: game.view(-HUGE),
        "Round.hand": lambda: game.hand(HUGE),
        "Round.check(seat=)": lambda: game.check(hr.DrawStock(), seat=HUGE),
        "Round.deal(players=)": lambda: hr.Round.deal(classic, players=HUGE, seed=1),
        "Round.deal(dealer=)": lambda: hr.Round.deal(classic, 2, seed=1, dealer=HUGE),
        "fill_deal(dealer=)": lambda: fill_deal(classic, 2, seed=1, dealer=HUGE),
        "apply(LayOff)": lambda: played.apply(hr.LayOff(HUGE, card)),
        "apply(Exchange)": lambda: played.apply(hr.Exchange(HUGE, (card,))),
        "dumps(LayOff)": lambda: __import__("hand_rummy.serialize").serialize.dumps(
            hr.LayOff(HUGE, card)
        ),
        "Match.new(length=)": lambda: hr.Match.new(classic, 2, 1, length=HUGE),
        "Match.new(players=)": lambda: hr.Match.new(classic, HUGE, 1),
        "MatchPolicy(length=)": lambda: hr.rules.MatchPolicy(length=HUGE),
        "ActionSpace.of": lambda: encoding.ActionSpace.of(classic, HUGE),
        "ActionSpace.describe": lambda: space.describe(HUGE),
        "ActionSpace.decode": lambda: space.decode(HUGE, view),
        "ActionSpace.walk": lambda: space.walk([HUGE], view),
        "Tournament(players=)": lambda: quick(players=HUGE, matches=1),
        "Tournament(matches=)": lambda: quick(players=2, matches=HUGE),
        "Tournament(rounds=)": lambda: quick(players=2, matches=1, rounds=HUGE),
        "Tournament(time_limit=)": lambda: quick(players=2, matches=1, time_limit=HUGE),
        "run(workers=)": lambda: tournament.run(quick(players=2, matches=1), workers=HUGE),
        "svg.table(width=)": lambda: svg.table([], width=HUGE),
        "svg.card(scale=)": lambda: svg.card("7H", scale=HUGE),
        "observe(totals=)": lambda: observe(view, totals=(HUGE, 0), rounds=1),
        "observe(rounds=)": lambda: observe(view, totals=(0, 0), rounds=HUGE),
        "Position(hand_size=)": lambda: hr.Round.from_position(
            hr.Position(
                classic, players=[hr.PositionSeat("AC", HUGE), 14], turn=0, phase=hr.Phase.DRAW
            )
        ),
        "Position(turn=)": lambda: hr.Round.from_position(
            hr.Position(classic, players=[13, 14], turn=HUGE, phase=hr.Phase.DRAW)
        ),
        "build_deck": lambda: hr.build_deck(HUGE, 0),
        "DeckPolicy": lambda: hr.rules.DeckPolicy(packs=HUGE),
        "Meld.of(roles=)": lambda: hr.Meld.of("7H 8H 9H", roles={HUGE: "8H"}),
        "SearchBot(seconds=)": lambda: SearchBot(seconds=HUGE),
        "SearchBot(margin=)": lambda: SearchBot(margin=HUGE),
        "text.seat_name": lambda: text.seat_name(HUGE),
    }


@pytest.mark.parametrize("name", list(_huge_calls()))
def test_a_number_too_long_to_write_is_refused_by_its_size(name: str) -> None:
    """The checks compared a range and then wrote the number into the message: Python's
    ValueError (4,300 digits) or an OverflowError from float() escaped instead."""
    call = _huge_calls()[name]
    if name == "text.seat_name":  # no range to check: the name says how long the number is
        assert call() == "seat a number of about 5,001 digits"
        return
    with pytest.raises(hr.HandRummyError) as refused:
        call()
    assert "a number of about 5,001 digits" in str(refused.value) or (
        name == "Round.view(-)" and "a negative number of about 5,001" in str(refused.value)
    )


def test_number_writes_the_digits_or_the_size() -> None:
    from hand_rummy.errors import number, shown  # noqa: PLC0415

    assert number(12) == "12"
    assert number(-(10**40) + 1) == "-" + "9" * 40
    assert number(10**40) == "a number of about 41 digits"
    assert number(-HUGE) == "a negative number of about 5,001 digits"
    assert number(1234567, grouped=True) == "1,234,567"
    assert number(1.5) == "1.5"
    assert shown(HUGE) == "a number of about 5,001 digits"
    assert shown("2") == "'2'"


def test_a_match_lasts_at_most_ten_thousand_custom_or_not() -> None:
    """length=10**5000 with custom_length=True was taken, and the match then could not be
    printed or written."""
    from hand_rummy import serialize  # noqa: PLC0415

    classic = hr.rulesets.classic
    longest = hr.Match.new(classic, 2, 1, length=10_000, custom_length=True)
    assert serialize.loads(serialize.dumps(longest)) == longest
    for length in (10_001, HUGE):
        with pytest.raises(hr.InvalidStateError, match="a match lasts at most 10,000"):
            hr.Match.new(classic, 2, 1, length=length, custom_length=True)
        with pytest.raises(hr.InvalidStateError, match="a match lasts at most 10,000"):
            hr.rules.MatchPolicy(end=hr.rules.MatchEnd.PENALTY_LIMIT, length=length)
    doc = serialize.match_to_json(longest)
    doc["length"] = 10_001
    with pytest.raises(hr.InvalidStateError, match=r"^length: 10001 is out of range"):
        serialize.match_from_json(doc)


def _raised(make: Callable[[], object]) -> hr.HandRummyError:
    try:
        make()
    except hr.HandRummyError as error:
        return error
    raise AssertionError("nothing was raised")


def test_errors_pickle_and_copy_with_their_fields() -> None:
    """An error raised in a worker process must reach the caller as itself: most errors'
    constructors do not take their own ``args`` (an IllegalActionError is made from a
    verdict), which pickle and copy would call them with."""
    import copy  # noqa: PLC0415
    import pickle  # noqa: PLC0415

    from hand_rummy.bots import EndlessPlayError  # noqa: PLC0415
    from hand_rummy.melds import meld_points  # noqa: PLC0415
    from hand_rummy.referee import LimitError, QuestionError  # noqa: PLC0415

    levant = hr.MeldRules.of(hr.rulesets.levant, indicator="8C")
    game = hr.Round.deal(hr.rulesets.gulf, 4, seed=2)
    errors = [
        _raised(lambda: hr.parse_card("1OH")),
        _raised(lambda: game.apply(hr.Discard.of("AS"))),
        _raised(lambda: meld_points(hr.Meld.of("6H 5H AC"), levant)),
        _raised(lambda: hr.build("levant", ["no_such_variant"])),
        _raised(lambda: hr.Round.deal(hr.rulesets.levant, 9, seed=1)),
        _raised(lambda: play_round(game, [RandomBot(s) for s in range(4)], max_decisions=3)),
        QuestionError("BAD_FIELD", "'cards' must be a list"),
        LimitError("depth", "arrays nest too deep"),
    ]
    kinds = [type(error) for error in errors]
    assert kinds[:3] == [hr.CardParseError, hr.IllegalActionError, hr.AmbiguousMeldError]
    assert EndlessPlayError in kinds
    for error in errors:
        for again in (pickle.loads(pickle.dumps(error)), copy.deepcopy(error), copy.copy(error)):
            assert type(again) is type(error)
            assert again.args == error.args and str(again) == str(error)
            assert again.__dict__.keys() == error.__dict__.keys()
            for name, value in vars(error).items():
                assert getattr(again, name) == value, name


def _library_enums() -> list[type[enum.Enum]]:
    """Every enum defined in a module of the library that the core imports."""
    found = {
        value
        for name, module in list(sys.modules.items())
        if name == "hand_rummy" or name.startswith("hand_rummy.")
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, enum.Enum)
        and value.__module__.startswith("hand_rummy")
    }
    return sorted(found, key=lambda e: (e.__module__, e.__qualname__))


@pytest.mark.parametrize("kind", _library_enums(), ids=lambda e: e.__qualname__)
def test_an_enum_refuses_a_value_it_lacks_with_the_librarys_error(kind: type[enum.Enum]) -> None:
    """hr.Rank("7") raised Python's bare ValueError; the library's enums raise its own error
    (still a ValueError), naming the values there are."""
    assert issubclass(kind, StrictValues)
    first = next(iter(kind))
    assert kind(first.value) is first
    for wrong in ("no such value", -12345, None):
        with pytest.raises(hr.InvalidStateError, match=f"is no {kind.__name__}; the values are"):
            kind(wrong)
