"""Every rule option is bounded by its declared range, on every path a value comes in by.

A hostile tester found that ``low_tile_worms`` took any integer: the picture drew one shape per
worm (10^30 grew a server to 21 GB) and the batch's int16 scores would have wrapped round. Each
option now declares its range (``Option.range``); these tests check that the built-ins declare
theirs, that a value outside is refused by name wherever it comes from (the library, records,
positions, the command line, the web API), that the docs, ``pickomino variants`` and the OpenAPI
document show the declared ranges, that the batch's integer widths hold everything the ranges
allow, and that games play at both ends of every range on the engine under test (the suite runs
once per engine in CI: compiled, and ``PICKOMINO_PURE=1``) and in the batch.
"""

from __future__ import annotations

import io
import json
import random
import re
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

import attrs
import numpy as np
import pytest
from batch_replay import THOROUGH
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from pickomino_rules import (
    Phase,
    available_variants,
    get_rules,
    get_variant,
    legal_actions,
    new_game,
    playout,
    register_variant,
    scores,
)
from pickomino_rules.batch import BatchRulesError
from pickomino_rules.batch._check import Replay
from pickomino_rules.batch._rules import MOST_DICE, MOST_TILE_WORMS, batch_rules
from pickomino_rules.batch_bots import greedy_actions
from pickomino_rules.batch_plugin import BatchTwin
from pickomino_rules.bots import random_bot
from pickomino_rules.encoding import Encoding
from pickomino_rules.errors import InvalidOptionError, InvalidSetupError, brief
from pickomino_rules.plugin import (
    BOOLEAN,
    UNDECLARED,
    Components,
    FaceRange,
    IntRange,
    Option,
    OptionRange,
    RuleModule,
    TupleRange,
    Variant,
    boolean,
    compose,
)
from pickomino_rules.positions import Position, PositionOptionError
from pickomino_rules.records import GameRecord, RecordOptionError
from pickomino_rules.registry import unregister_variant
from pickomino_rules.svg import draw
from pickomino_rules.terminal import render_table
from pickomino_rules.variants.classic import CLASSIC_OPTIONS, classic_components, classic_modules
from pickomino_rules.variants.grilled_worms import TOKENS
from pickomino_rules.variants.low_tiles import MOST_LOW_TILE_WORMS, low_tiles
from pickomino_rules.variants.specialists.apple import APPLE_WORMS

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

BUILT_IN = ("classic", "extended", "extrawurm")
DOCS = Path(__file__).resolve().parents[2] / "docs"
OUT_OF_RANGE = [  # low_tile_worms values a hostile request may send (JSON reads 30 digits)
    MOST_LOW_TILE_WORMS + 1,
    -1,
    10**4,
    10**6,
    10**29,
    (0, MOST_LOW_TILE_WORMS + 1),
    [-(10**20), 1],
]
HUGE = [10**30, 10**5000, (1, -(10**5000))]  # what only a program can pass
RANGE_WORDS = f"from 0 to {MOST_LOW_TILE_WORMS}"  # what every refusal must say
LARGEST_PICTURE = 100_000  # characters: a 7-player table draws in about 20,000
LARGEST_TABLE_TEXT = 20_000  # characters of the terminal's table at 120 columns


# ---------------------------------------------------------------------- strategies


def _ends(declared: OptionRange | None) -> st.SearchStrategy[object]:
    """A value at an end of ``declared``: each item of a tuple at either end of its own."""
    assert declared is not None
    if isinstance(declared, TupleRange):
        items = st.sampled_from(declared.item.ends())
        lengths = st.sampled_from(sorted({declared.min_length, declared.max_length}))
        return lengths.flatmap(lambda n: st.tuples(*[items] * n))
    return st.sampled_from(declared.ends())


def option_ends(variant: str) -> st.SearchStrategy[dict[str, object]]:
    """Options with every value at an end of its range."""
    options = get_variant(variant).options
    return st.fixed_dictionaries({option.name: _ends(option.range) for option in options})


def highest(variant: str) -> dict[str, object]:
    """Every option at the high end of its range."""
    found = {}
    for option in get_variant(variant).options:
        assert option.range is not None
        found[option.name] = option.range.ends()[-1]
    return found


def largest_score(rules: Rules) -> int:
    """The most worms a player can hold under ``rules`` (E14): tiles, grilled worms, apple."""
    names = {module.name for module in rules.modules}
    return (
        sum(rules.worms.values())
        + (TOKENS if "grilled_worms" in names else 0)
        + (APPLE_WORMS if "apple" in names else 0)
    )


# ---------------------------------------------------------------------- declarations


@pytest.mark.parametrize("variant", BUILT_IN)
def test_every_built_in_option_declares_a_range_its_default_and_ends_fit(variant: str) -> None:
    for option in get_variant(variant).options:
        assert isinstance(option.range, OptionRange), option.name
        assert option.range is not UNDECLARED, option.name
        ends = option.range.ends()
        assert len(ends) == 2, option.name
        for value in (option.default, *ends):
            option.range.check(option.value(value))
        rules = get_rules(variant, {option.name: ends[-1]})
        assert rules.options[option.name] == option.value(ends[-1])


def test_the_range_kinds_check_describe_and_give_their_ends() -> None:
    pair = TupleRange(IntRange(0, 9), 2, 2, one_for_all=True)
    assert pair.ends() == ((0, 0), (9, 9))
    pair.check((0, 9))
    for bad in ((0, 10), (1,), (1, 2, 3), 5, (True, 1), "12"):
        with pytest.raises(ValueError, match="from 0 to 9"):
            pair.check(bad)
    assert BOOLEAN.ends() == (False, True)
    with pytest.raises(ValueError, match="true or false"):
        BOOLEAN.check(1)
    faces = TupleRange(FaceRange(), 6, 6)
    faces.check((1, 2, 3, 4, 5, 6))
    with pytest.raises(ValueError, match="a face"):
        faces.check((1, 2, 3, 4, 5, 7))
    assert faces.ends() == ((1,) * 6, (6,) * 6)
    with pytest.raises(ValueError, match="from -3 to 3"):
        IntRange(-3, 3).check(10**5000)  # quoted briefly, never as 5,000 digits
    for bad_declaration in (
        lambda: IntRange(5, 1),
        lambda: IntRange(0, 10**3 + 0.5),  # type: ignore[arg-type]
        lambda: TupleRange(IntRange(0, 1), 3, 2),
        lambda: TupleRange("0-9", 1, 2),  # type: ignore[arg-type]
        lambda: Option("x", 0, "doc", "X1"),  # neither a converter nor a range
        lambda: Option("x", 0, "doc", "X1", range=range(3)),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidSetupError):
            bad_declaration()


def test_a_default_outside_its_range_is_refused_when_the_variant_is_made() -> None:
    option = Option("bonus", 7, "worms per take", "H1", range=IntRange(0, 5))
    with pytest.raises(InvalidSetupError, match=r"refuses its default.*from 0 to 5"):
        Variant("mine", "", (option,), lambda _options: [classic_components()])


def test_an_option_declared_without_a_range_still_works_within_the_default_bound() -> None:
    def whole(value: object) -> object:  # a converter of before 0.2, checking no bound
        if not isinstance(value, int):
            raise TypeError("expected a whole number")
        return value

    with pytest.warns(DeprecationWarning, match="without a range.*is deprecated: use"):
        legacy = Option("bonus", 1, "worms per take", "H1", whole)
    assert legacy.range is UNDECLARED
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a yes-or-no option converted by boolean: no warning
        flag = Option("hot", default=False, doc="a flag", rule="H2", convert=boolean)
    assert flag.range is BOOLEAN
    variant = Variant("legacy", "", (*CLASSIC_OPTIONS, legacy, flag), classic_modules)
    assert variant.resolve_options({"bonus": -1000})["bonus"] == -1000
    for bad in (1001, 10**30):
        with pytest.raises(InvalidOptionError, match="from -1000 to 1000"):
            variant.resolve_options({"bonus": bad})
    with pytest.raises(InvalidOptionError, match=r"(?i)true or false"):
        variant.resolve_options({"hot": 1})


def test_a_users_option_with_a_range_needs_no_converter() -> None:
    bonus = Option("bonus", 1, "worms per exact take", "H1", range=IntRange(0, 5))
    variant = Variant("ranged", "", (*CLASSIC_OPTIONS, bonus), classic_modules)
    assert variant.resolve_options({"bonus": 5})["bonus"] == 5
    for bad in (6, -1, True, "2", 2.0):
        with pytest.raises(InvalidOptionError, match=r"'bonus' .*from 0 to 5"):
            variant.resolve_options({"bonus": bad})


def test_the_low_tiles_module_refuses_worms_outside_the_range_when_composed_directly() -> None:
    with pytest.raises(InvalidOptionError, match=RANGE_WORDS):
        low_tiles(worms=(1, 10**30))


# ---------------------------------------------------------------------- every path


@pytest.mark.parametrize("value", [*OUT_OF_RANGE, *HUGE], ids=brief)
def test_a_value_outside_the_range_is_refused_by_the_library_naming_the_range(
    value: object,
) -> None:
    for variant in ("extended", "extrawurm"):
        with pytest.raises(InvalidOptionError, match=RANGE_WORDS) as error:
            get_rules(variant, {"low_tile_worms": value})
        assert len(str(error.value)) < 300
        with pytest.raises(InvalidOptionError, match=RANGE_WORDS):
            new_game(variant, players=2, options={"low_tile_worms": value})
        with pytest.raises(InvalidOptionError, match=RANGE_WORDS):
            batch_rules(variant, {"low_tile_worms": value})


@pytest.mark.parametrize("value", OUT_OF_RANGE, ids=repr)
def test_records_and_positions_refuse_a_value_outside_the_range(value: object) -> None:
    with pytest.raises(RecordOptionError, match=RANGE_WORDS):
        GameRecord.start("extended", 2, {"low_tile_worms": value})
    record = json.loads(GameRecord.start("extended", 2).to_json())
    record["options"]["low_tile_worms"] = value
    with pytest.raises(RecordOptionError, match=RANGE_WORDS):
        GameRecord.from_json(json.dumps(record))
    rules, state = new_game("extended", players=2)
    position = json.loads(Position(rules, state).to_json())
    position["options"]["low_tile_worms"] = value
    with pytest.raises(PositionOptionError, match=RANGE_WORDS):
        Position.from_json(json.dumps(position))
    line = str(Position(rules, state)).replace(
        "extended", "extended" + json.dumps({"low_tile_worms": value}, separators=(",", ":")), 1
    )
    with pytest.raises(PositionOptionError, match=RANGE_WORDS):
        Position.parse(line)
    # each is the library's option error too, as from ``new_game`` (and a ValueError)
    for refused in (RecordOptionError, PositionOptionError):
        assert issubclass(refused, InvalidOptionError)
        assert issubclass(refused, ValueError)


@pytest.mark.parametrize("value", ["10", "1000000000000000000000000000000", "[0,10]", "-1"])
def test_the_command_line_refuses_a_value_outside_the_range_in_one_line(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    from pickomino_rules.cli import main  # noqa: PLC0415 (the cli extra)

    argv = ["simulate", "--variant", "extended", "-o", f"low_tile_worms={value}", "--games", "1"]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_.value.code == 2
    assert RANGE_WORDS in err
    assert "Traceback" not in out + err
    assert len((out + err).strip().splitlines()) == 1


@pytest.mark.parametrize("value", OUT_OF_RANGE, ids=repr)
def test_the_web_api_refuses_a_value_outside_the_range(value: object) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient  # noqa: PLC0415 (the web extra)

    from pickomino_rules.web import create_app  # noqa: PLC0415

    client = TestClient(create_app(), base_url="http://127.0.0.1")
    for path, fields in (
        ("/api/start", {"variant": "extended", "players": 2}),
        ("/api/new", {"variant": "extended", "players": 2, "seats": [None, None]}),
    ):
        body = json.dumps({**fields, "options": {"low_tile_worms": value}})
        answer = client.post(path, content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 400, path
        assert len(answer.content) < 1000
        assert RANGE_WORDS in answer.json()["error"]


# ---------------------------------------------------------------------- shown where declared


def _docs_values() -> dict[str, set[str]]:
    """Each option's "values" cell in the docs' option tables, by option name."""
    found: dict[str, set[str]] = {}
    for page in ("variants.md", "rules-model.md"):
        lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
        column = None
        for line in lines:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if line.startswith("| option |"):
                column = cells.index("values") if "values" in cells else None
            elif column is not None and line.startswith("| `"):
                found.setdefault(cells[0].strip("`"), set()).add(cells[column])
            elif not line.startswith("|"):
                column = None
    return found


def test_the_docs_show_each_option_s_declared_range() -> None:
    shown = _docs_values()
    for variant in BUILT_IN:
        for option in get_variant(variant).options:
            assert option.range is not None
            assert shown.get(option.name) == {option.range.describe()}, option.name
    page = (DOCS / "variants.md").read_text(encoding="utf-8")
    for variant in BUILT_IN:
        for option in get_variant(variant).options:
            assert option.range is not None
            printed = f"{variant} {option.name} {option.rule} {option.default!r} - "
            assert printed + option.range.describe() + "\n" in page


def test_pickomino_variants_shows_each_range(capsys: pytest.CaptureFixture[str]) -> None:
    from pickomino_rules.cli import main  # noqa: PLC0415 (the cli extra)

    with pytest.raises(SystemExit) as exit_:
        main(["variants"])
    out, _ = capsys.readouterr()
    assert exit_.value.code in (0, None)
    for variant in BUILT_IN:
        for option in get_variant(variant).options:
            assert option.range is not None
            assert f"values: {option.range.describe()}" in out


def test_the_openapi_document_gives_each_option_its_range() -> None:
    pytest.importorskip("starlette")
    jsonschema = pytest.importorskip("jsonschema")
    from pickomino_rules.web._openapi import openapi  # noqa: PLC0415 (the web extra)

    document = openapi()
    schemas = document["components"]["schemas"]
    start = document["paths"]["/api/start"]["post"]["requestBody"]["content"]
    field = start["application/json"]["schema"]["properties"]["options"]
    resolver = {"components": {"schemas": schemas}, **field}
    for variant in available_variants():
        properties = schemas[f"Options.{variant}"]["properties"]
        for option in get_variant(variant).options:
            assert option.range is not None
            schema = properties[option.name]
            assert {k: v for k, v in schema.items() if k not in ("description", "default")} == (
                option.range.schema()
            )
            jsonschema.validate(schema["default"], schema)
    worms = schemas["Options.extended"]["properties"]["low_tile_worms"]
    for good in (0, MOST_LOW_TILE_WORMS, [0, MOST_LOW_TILE_WORMS]):
        jsonschema.validate(good, worms)
        jsonschema.validate({"low_tile_worms": good}, resolver)
    for bad in OUT_OF_RANGE:
        body = json.loads(json.dumps(bad))
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(body, worms)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"low_tile_worms": body}, resolver)


# ---------------------------------------------------------------------- the batch's widths


@pytest.mark.parametrize("variant", BUILT_IN)
def test_the_batch_s_integer_widths_hold_everything_the_ranges_allow(variant: str) -> None:
    """The largest score, count and total any option in range makes fits the batch's dtypes."""
    rules = batch_rules(variant, highest(variant))
    dice = sum(rules.components.most_dice or rules.components.dice)
    replay = Replay(2, rules.components.max_players, highest(variant), variant=variant)
    table = replay.batch.table
    step = replay.batch.step(greedy_actions(replay.batch, np.random.default_rng(0)))
    assert largest_score(rules) <= np.iinfo(step.scores.dtype).max
    assert sum(rules.worms.values()) <= MOST_TILE_WORMS
    assert dice <= min(np.iinfo(table.set_aside.dtype).max, np.iinfo(table.in_hand.dtype).max)
    assert dice <= MOST_DICE
    assert len(rules.tiles) <= np.iinfo(table.heights.dtype).max
    assert max(rules.tiles) <= np.iinfo(table.stacks.dtype).max
    assert 5 * dice <= max(rules.tiles) + np.iinfo(table.set_aside.dtype).max  # C7's totals
    for arrays in table.parts.values():  # the grilled worms' and specialists' counts and seats
        for array in arrays.values():
            if array.dtype.kind == "i":
                most = max(TOKENS, len(rules.tiles), rules.components.max_players)
                assert most <= np.iinfo(array.dtype).max


def test_the_batch_refuses_rules_whose_worms_would_pass_its_score_width() -> None:
    module = RuleModule(name="heavy", configure=_thousand_worms, batch=BatchTwin)  # 16,000
    batch_rules(compose(classic_components(), module, name="heavy"))
    heavier = attrs.evolve(module, configure=lambda c: _thousand_worms(c, 1100))
    with pytest.raises(BatchRulesError, match="16,383 worms"):
        batch_rules(compose(classic_components(), heavier, name="heavy"))


# ---------------------------------------------------------------------- playing at the ends

FAST = 12 if not THOROUGH else 300


def _picture_checked(rules: Rules, state: GameState) -> None:
    picture = draw(rules, state)
    assert len(picture) <= LARGEST_PICTURE
    ET.fromstring(picture)  # noqa: S314 (our own output)


def _table_text(rules: Rules, state: GameState) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(render_table(rules, state))
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def _table_checked(rules: Rules, state: GameState) -> None:
    text = _table_text(rules, state)
    assert 0 < len(text) <= LARGEST_TABLE_TEXT


def _round_trips(rules: Rules, state: GameState) -> None:
    position = Position(rules, state)
    assert Position.from_json(position.to_json()) == position
    assert Position.parse(str(position)) == position


@settings(max_examples=FAST, deadline=None)
@given(
    variant=st.sampled_from(BUILT_IN).flatmap(lambda v: st.tuples(st.just(v), option_ends(v))),
    players=st.integers(2, 7),
    seed=st.integers(0, 2**32 - 1),
)
def test_games_play_at_both_ends_of_every_range(
    variant: tuple[str, dict[str, object]], players: int, seed: int
) -> None:
    """Scores, observations, pictures, the terminal's table, positions and records."""
    name, options = variant
    rules, state = new_game(name, players=players, options=options)
    encoding = Encoding.of(rules, players)
    most = largest_score(rules)
    moves = 0
    for moves, (_, after) in enumerate(playout(rules, state, random_bot, random.Random(seed)), 1):
        state = after
        if moves % 97 == 1:  # a sample of the game's states, each checked every way
            observation = encoding.observe(state, state.player)
            assert np.isfinite(observation).all()
            if state.phase is not Phase.ROLL:  # a chance node's outcomes are not actions
                assert encoding.legal_mask(state).sum() == len(legal_actions(rules, state))
            _picture_checked(rules, state)
            _table_checked(rules, state)
            _round_trips(rules, state)
        if moves >= 3000:
            break
    assert all(0 <= worms <= most for worms in scores(rules, state))
    _picture_checked(rules, state)
    _table_checked(rules, state)
    _round_trips(rules, state)
    record = GameRecord.play(name, players, seed=seed % 1000, options=options)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    assert again.final_state() == record.final_state()
    assert all(0 <= worms <= most for worms in scores(rules, record.final_state()))


@settings(max_examples=FAST // 3, deadline=None)
@given(
    variant=st.sampled_from(BUILT_IN).flatmap(lambda v: st.tuples(st.just(v), option_ends(v))),
    players=st.integers(2, 7),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_batch_plays_at_both_ends_of_every_range_as_the_reference(
    variant: tuple[str, dict[str, object]], players: int, seed: int
) -> None:
    """Row for row against the reference engine: states, legal sets, observations, scores."""
    name, options = variant
    replay = Replay(2, players, options, seed=seed, variant=name)
    rng = np.random.default_rng(seed)
    steps = 0
    while replay.finished < 2 and (THOROUGH or steps < 300):
        replay.step(greedy_actions(replay.batch, rng))
        steps += 1
        replay.check_rows(observations=steps % 16 == 0)
    most = largest_score(replay.rules)
    for state in replay.states:
        assert all(0 <= worms <= most for worms in scores(replay.rules, state))


def test_a_picture_stays_the_same_size_however_many_worms_a_tile_carries() -> None:
    sizes = set()
    for worms in range(5, MOST_LOW_TILE_WORMS + 1):
        rules, state = new_game("extended", players=7, options={"low_tile_worms": worms})
        sizes.add(len(draw(rules, state)))
    assert len(sizes) == 1  # past four, one worm and the count: the same size
    heavy = RuleModule(name="heavy", configure=_thousand_worms)
    register_variant(
        Variant("heavy_tiles", "", (), lambda _options: [classic_components(), heavy]),
        replace=True,
    )
    try:
        rules, state = new_game("heavy_tiles", players=7)
        classic, start = new_game("classic", players=7)
        assert len(draw(rules, state)) <= len(draw(classic, start)) + 16 * 80
        assert re.search(r"1000\u00d7", draw(rules, state))
        # the terminal's table too: one worm and the count, as many lines as classic's
        heavy_text, classic_text = (
            _table_text(r, s) for r, s in ((rules, state), (classic, start))
        )
        assert "~\u00d71000" in heavy_text
        assert "~~~~~" not in heavy_text
        assert heavy_text.count("\n") == classic_text.count("\n")  # the grill on one line
    finally:
        unregister_variant("heavy_tiles")


def _thousand_worms(components: Components, worms: int = 1000) -> Components:
    return attrs.evolve(components, worms=tuple((tile, worms) for tile, _ in components.worms))


@settings(max_examples=FAST // 3, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_scores_past_256_count_exactly_on_the_engine_under_test(players: int, seed: int) -> None:
    """A user's tiles of 1,000 worms each (within the default bound): every score exact.

    The compiled kernel once freed the small integers' cache for scores above 256.
    """
    heavy = RuleModule(name="heavy", configure=_thousand_worms, batch=BatchTwin)
    rules = compose(classic_components(), heavy, name="heavy")
    _, state = new_game(rules, players=players)
    encoding = Encoding.of(rules, players)
    for moves, (_, after) in enumerate(playout(rules, state, random_bot, random.Random(seed)), 1):
        state = after
        if moves % 50 == 0:
            assert scores(rules, state) == tuple(1000 * len(stack) for stack in state.stacks)
            assert np.isfinite(encoding.observe(state, state.player)).all()
        if moves >= 2000:
            break
    assert scores(rules, state) == tuple(1000 * len(stack) for stack in state.stacks)


def test_the_batch_counts_scores_past_256_as_the_reference() -> None:
    """Row for row with the reference (``Replay.step`` compares each game's final scores)."""
    heavy = RuleModule(name="heavy", configure=_thousand_worms, batch=BatchTwin)
    rules = compose(classic_components(), heavy, name="heavy")
    replay = Replay(2, 3, variant=rules, seed=5)
    rng = np.random.default_rng(5)
    most = 0
    while replay.finished < 2:
        most = max(most, *(max(scores(rules, state)) for state in replay.states))
        replay.step(greedy_actions(replay.batch, rng))
        replay.check_rows()
    assert most > 2 * 256
