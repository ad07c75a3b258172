"""Positions: JSON and the position line round-trip every reachable state of every variant,
and anything malformed or impossible is refused with PositionError."""

from __future__ import annotations

import copy
import json
import pickle
from typing import TYPE_CHECKING

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pickomino_rules import (
    GameState,
    InvalidStateError,
    PartKey,
    Phase,
    RuleModule,
    Rules,
    Variant,
    available_variants,
    compose,
    get_rules,
    get_variant,
    legal_actions,
    new_game,
    register_variant,
    unregister_variant,
)
from pickomino_rules.bots import greedy_bot
from pickomino_rules.positions import Position, PositionError
from pickomino_rules.records import GameRecord, RecordError
from pickomino_rules.testing import random_game
from pickomino_rules.variants.classic import classic_components

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pickomino_rules.rules import StateFn

VARIANTS = available_variants()
_EXTENDED_START = str(Position(*new_game("extended", players=2)))


@st.composite
def reachable(draw: st.DrawFn) -> Position:
    """A state somewhere in a seeded random game of a registered variant."""
    rules = get_rules(draw(st.sampled_from(VARIANTS)))
    low = rules.components.min_players
    players = draw(st.integers(low, low + 2))
    history = random_game(rules, players, draw(st.integers(0, 40)))
    state, _ = history[draw(st.integers(0, len(history) - 1))]
    return Position(rules, state)


@given(reachable())
def test_json_round_trips_every_reachable_state(position: Position) -> None:
    again = Position.from_json(position.to_json())
    assert again.state == position.state
    assert again.rules is position.rules
    assert again.state.layout is position.rules.layout  # typed back, fits the rules


@given(reachable())
def test_position_line_round_trips_every_reachable_state(position: Position) -> None:
    line = str(position)
    assert "\n" not in line
    assert Position.parse(line).state == position.state
    assert Position.parse(line, position.rules).state == position.state


def _states_in(variant: str, phase: Phase, pending: bool = False) -> list[Position]:
    rules = get_rules(variant)
    found = []
    for seed in range(30):
        for state, _ in random_game(rules, 3, seed):
            if state.phase is phase and (not pending or rules.pending_actions is not None):
                found.append(Position(rules, state))
    return found


@pytest.mark.parametrize(
    ("variant", "phase"),
    [("classic", Phase.ROLL), ("classic", Phase.CHOOSE), ("extended", Phase.TURN_OVER)],
)
def test_chance_nodes_and_pending_choices_round_trip(variant: str, phase: Phase) -> None:
    positions = _states_in(variant, phase)
    assert positions, f"no {phase} state in the sample"
    for position in positions[:50]:
        assert Position.parse(str(position)).state == position.state
        assert Position.from_json(position.to_json()).state == position.state


def test_variant_parts_are_typed_back_into_their_classes() -> None:
    """The reported bug: cattrs gave dicts, and legal_actions then failed."""
    position = _states_in("extended", Phase.TURN_OVER)[0]
    again = Position.from_json(position.to_json())
    for key, part in zip(position.rules.layout.parts, again.state.parts, strict=True):
        assert type(part) is key.kind
    assert legal_actions(again.rules, again.state) == legal_actions(position.rules, position.state)


def test_options_travel_with_the_position() -> None:
    rules, state = new_game("classic", players=2, options={"short_game": True})
    line = str(Position(rules, state))
    assert line.startswith('classic{"short_game":true} ')
    assert Position.parse(line).rules is rules
    rules, state = new_game("extended", players=2, options={"golden_die_faces": "1234ww"})
    for text in (str(Position(rules, state)), Position(rules, state).to_json()):
        loaded = Position.parse(text) if "{" not in text[:1] else Position.from_json(text)
        assert loaded.rules is rules


def _valid() -> Position:
    rules, state = new_game("extended", players=2)
    return Position(rules, state)


def _mutated(change: dict[str, object]) -> str:
    data = _valid().to_dict()
    data["state"].update(change)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{", "not valid JSON"),
        ("[" * 50_000 + "]" * 50_000, "nested too deeply"),
        ('{"format": 1' + "0" * 4400 + "}", "digits"),
        ('{"format": 1, "format": 2}', "twice"),
        ("x" * 200_000, "limit"),
        ("[]", "this is not a Pickomino position: it holds a JSON list, not an object"),
        ('{"format": "other"}', 'its "format" is "other", not "pickomino_rules.position/1"'),
        ("{}", 'it has no "format" field'),
        ("a position", "this is not a Pickomino position: not valid JSON"),
        (
            GameRecord.play("classic", 2, seed=1).to_json(),
            "not a Pickomino position: it is a Pickomino game record",
        ),
        (json.dumps({**_valid().to_dict(), "extra": 1}), "unknown field"),
        (json.dumps({**_valid().to_dict(), "variant": "nope"}), "nope"),
        (json.dumps({**_valid().to_dict(), "options": {"short_game": 1}}), "short_game"),
        (_mutated({"player": "0"}), "state.player"),
        (_mutated({"player": True}), "state.player"),
        (_mutated({"phase": "dance"}), "state.phase"),
        (_mutated({"grill": [21, "x"]}), "state.grill"),
        (_mutated({"stacks": [[], [99]]}), "99"),
        (_mutated({"stacks": [[]]}), "players"),
        (_mutated({"roll": "xyz"}), "roll"),
        (_mutated({"roll": "1111"}), "roll"),
        (_mutated({"set_aside": [9, 0, 0, 0, 0, 0]}), "dice"),
        (_mutated({"parts": {}}), "parts"),
        (_mutated({"extra": 1}), "unknown"),
        (
            _mutated({"parts": {**_valid().to_dict()["state"]["parts"], "weasel": {"used": 1}}}),
            "weasel",
        ),
        (
            _mutated(
                {
                    "parts": {
                        **_valid().to_dict()["state"]["parts"],
                        "grilled_worms": {"supply": 9, "held": [0, 0]},
                    }
                }
            ),
            "tokens",
        ),
    ],
)
def test_bad_json_is_refused_with_a_clear_error(text: str, says: str) -> None:
    with pytest.raises(PositionError, match=says):
        Position.from_json(text)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("", "8 fields"),
        ("classic 21-36 - -/- 0r 8 -", "8 fields"),
        ("nope 21-36 - -/- 0r 8 - -", "nope"),
        ('classic{"short_game":1} 21-36 - -/- 0r 8 - -', "short_game"),
        ("classic{oops 21-36 - -/- 0r 8 - -", "not JSON"),
        ("classic 21-3x - -/- 0r 8 - -", "grill"),
        ("classic 21-999999999999 - -/- 0r 8 - -", "range"),
        ("classic 36-21 - -/- 0r 8 - -", "range"),
        ("classic 21-36 - -/- 0x 8 - -", "turn"),
        ("classic 21-36 - -/- r 8 - -", "turn"),
        ("classic 21-36 - -/- 0r eight - -", "in hand"),
        ("classic 21-36 - -/- 0r 8 q -", "set aside"),
        ("classic 21-36 - -/- 0c 8 - 123", "roll"),
        ("classic 21-36 - -/- 0c 8 - 1234567z", "roll"),
        ("classic 21-35 - -/- 0r 8 - -", "36 are nowhere"),
        ("classic 21-36 - -/- 0r 8 - - extra=1", "parts"),
        ("extended 11,13,21-36 - -/- 0r 8,0 - -", "parts"),
        ("extended 11,13,21-36 - -/- 0r 8,0 - - weasel=[true] weasel=[true]", "one name"),
        (_EXTENDED_START.replace("weasel=[false]", "weasel=[]"), "expected a list of 1"),
        (_EXTENDED_START.replace("weasel=[false]", "weasel=[false,7]"), "expected a list of 1"),
    ],
)
def test_bad_lines_are_refused_with_a_clear_error(line: str, says: str) -> None:
    with pytest.raises(PositionError, match=says):
        Position.parse(line)


def test_a_line_of_other_rules_is_refused() -> None:
    rules = get_rules("classic", {"short_game": True})
    with pytest.raises(PositionError, match="not of"):
        Position.parse("classic 21-36 - -/- 0r 8 - -", rules)


def test_not_a_string_is_refused() -> None:
    with pytest.raises(PositionError, match="string"):
        Position.parse(42)  # type: ignore[arg-type]


def test_each_problem_of_an_impossible_position_is_led_by_its_field() -> None:
    with pytest.raises(PositionError) as caught:
        Position.from_json(_mutated({"set_aside": [3, 0, 0, 0, 0, 0], "stacks": [[21], []]}))
    assert sorted(p.split(":", 1)[0] for p in caught.value.problems) == ["dice", "tiles"]
    assert all(problem in str(caught.value) for problem in caught.value.problems)
    with pytest.raises(PositionError) as caught:  # one that cannot be read: one problem
        Position.from_json(_mutated({"phase": "dance"}))
    assert caught.value.problems == (str(caught.value),)


def test_position_errors_are_value_errors_and_distinct_from_state_errors() -> None:
    assert issubclass(PositionError, ValueError)
    assert not issubclass(PositionError, InvalidStateError)


def test_a_record_starts_from_a_position_and_replays() -> None:
    rules = get_rules("extended")
    history = random_game(rules, 3, 5)
    start, _ = history[len(history) // 2]
    record = GameRecord.from_position(Position(rules, start), seed=3)
    moves = [str(move) for _, move in history[len(history) // 2 : -1]]
    record = record.extended(moves)
    again = GameRecord.from_json(record.to_json())
    assert again.position == str(Position(rules, start))
    assert again.initial()[1] == start
    assert again.final_state() == history[-1][0]


def test_a_record_with_a_bad_position_is_refused() -> None:
    record = GameRecord.play("classic", players=2, bots=greedy_bot, seed=1)
    data = json.loads(record.to_json())
    data["position"] = "classic 21-36 - -/- 9r 8 - -"
    with pytest.raises(RecordError, match="position"):
        GameRecord.from_json(json.dumps(data))
    data["position"] = "classic 21-36 - -/-/- 0r 8 - -"
    with pytest.raises(RecordError, match="players"):
        GameRecord.from_json(json.dumps(data))


@given(reachable())
def test_states_and_rules_pickle_and_copy_as_values(position: Position) -> None:
    state = pickle.loads(pickle.dumps(position.state))  # noqa: S301 (our own data)
    assert state == position.state
    assert state.layout is position.rules.layout  # the layout comes back interned
    assert pickle.loads(pickle.dumps(position.rules)) is position.rules  # noqa: S301
    assert copy.deepcopy(position.state) is position.state
    assert copy.deepcopy(position.rules) is position.rules


def test_rules_outside_the_registry_refuse_to_pickle() -> None:
    rules = compose(classic_components(), name="mine")
    with pytest.raises(TypeError, match="registered variant"):
        pickle.dumps(rules)


def test_a_position_naming_an_undeclared_specialist_is_a_position_error() -> None:
    """Found by the fuzz suite: validation asked a hook that read the broken part."""
    rules, state = new_game("extended", players=3)
    line = str(Position(rules, state)).replace('"golden_die"', '"olden_die"')
    with pytest.raises(PositionError, match="cannot read this state: UnknownSpecialistError"):
        Position.parse(line)


@attrs.frozen
class _Tally:
    """A third-party part with what cattrs' own tuple strategy cannot read back."""

    count: int
    _note: str = "n"  # a private name: __init__ takes it as ``note``
    label: str = attrs.field(default="", kw_only=True)
    doubled: int = attrs.field(init=False)  # derived: not written, rebuilt on reading

    @doubled.default
    def _double(self) -> int:
        return 2 * self.count


_TALLY = PartKey("tally", _Tally)


def _tally_setup(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    return _TALLY.set(rules, inner(rules, state), _Tally(3, "x", label="y"))


@pytest.fixture
def tally_variant() -> Iterator[str]:
    from pickomino_rules.variants.classic import classic_modules  # noqa: PLC0415

    register_variant(
        Variant(
            name="tally",
            doc="Classic with a tally part.",
            options=get_variant("classic").options,
            build=lambda options: [
                *classic_modules(options),
                RuleModule(name="tally", part=_TALLY, setup=_tally_setup),
            ],
        )
    )
    yield "tally"
    unregister_variant("tally")


def test_a_part_with_derived_private_and_keyword_fields_round_trips(tally_variant: str) -> None:
    rules, state = new_game(tally_variant, players=2)
    position = Position(rules, state)
    line = str(position)
    assert 'tally=[3,"x","y"]' in line  # the fields __init__ takes, not the derived one
    for read in (Position.parse(line), Position.from_json(position.to_json())):
        assert read.state == state
        assert read.state.parts[0].doubled == 6


@pytest.mark.parametrize("data", ["[3]", '[3,"x","y",6]', "3", '{"count":3}'])
def test_a_part_list_of_the_wrong_length_is_refused(tally_variant: str, data: str) -> None:
    rules, state = new_game(tally_variant, players=2)
    line = str(Position(rules, state)).replace('tally=[3,"x","y"]', f"tally={data}")
    with pytest.raises(PositionError, match=r"part 'tally': _Tally: expected a list of 3 values"):
        Position.parse(line)
