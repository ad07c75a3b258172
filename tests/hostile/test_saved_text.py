"""Saved games and positions from anyone: refused in linear time, with a short message.

A service loads records and positions users send it. Whatever the text (as large as the
limits allow, as deep, as odd in its numbers or as mangled as a fuzzer makes it), loading it
answers or raises the module's own error (`RecordError`, `PositionError`), in time linear in
its size, with a message of about 300 characters that never echoes the input whole.
"""

from __future__ import annotations

import json
import os
from functools import cache
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pickomino_rules import new_game
from pickomino_rules.errors import MAX_MESSAGE
from pickomino_rules.positions import MAX_POSITION_CHARS, Position, PositionError
from pickomino_rules.records import MAX_RECORD_BYTES, GameRecord, RecordError
from pickomino_rules.strict_json import MAX_DEPTH, MAX_DIGITS, load_json
from support import answered_within

if TYPE_CHECKING:
    from collections.abc import Callable

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
MANGLINGS = 5_000 if THOROUGH else 200
"""Mangled records and positions tried (each kind): 200 in a default run."""

LONGEST_MESSAGE = MAX_MESSAGE + 100
"""The library's words around an abbreviated quote: never the input whole."""


def refused(load: Callable[[], object], error: type[Exception]) -> str:
    """The first line of the error ``load`` raises, checked short."""
    with answered_within(60), pytest.raises(error) as raised:
        load()
    message = str(raised.value)
    assert len(message) <= LONGEST_MESSAGE, f"a message of {len(message)} characters"
    return message


@cache
def record_json() -> str:
    """A whole seeded game of the specialists edition, as saved."""
    return GameRecord.play("extended", 3, seed=4).to_json()


@cache
def position_texts() -> tuple[str, str]:
    """A mid-game position of the specialists edition: its line and its JSON."""
    states = GameRecord.play("extended", 3, seed=4).states()
    rules, _ = new_game("extended", players=3)
    position = Position(rules, states[len(states) // 2])
    return str(position), position.to_json()


# The worst documents the size limits admit.


def _many_keys(count: int) -> str:
    return "{" + ",".join(f'"k{index}":0' for index in range(count)) + "}"


def test_an_object_of_every_key_the_limit_admits_loads_in_linear_time() -> None:
    """340,000 keys in 4 MB: the duplicate-key check once took hours on this."""
    text = _many_keys(340_000)
    assert len(text) < MAX_RECORD_BYTES
    with answered_within(60):
        assert len(load_json(text, MAX_RECORD_BYTES)) == 340_000  # type: ignore[arg-type]
    refused(lambda: GameRecord.from_json(text), RecordError)


def test_a_duplicate_key_is_named_once_among_many() -> None:
    text = _many_keys(300_000)[:-1] + ',"k7":1}'
    message = refused(lambda: GameRecord.from_json(text), RecordError)
    assert "'k7' appears twice" in message


@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_nesting_as_deep_as_the_limit_admits_is_refused_by_depth(opening: str) -> None:
    deep = opening * (MAX_RECORD_BYTES // len(opening) // 2)
    message = refused(lambda: GameRecord.from_json(deep), RecordError)
    assert "not valid JSON" in message or "nested too deeply" in message
    closed = "[" * 40 + "]" * 40
    assert "nested too deeply" in refused(lambda: load_json(closed, 100), ValueError)
    assert load_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, 100) is not None


def test_a_number_longer_than_the_limit_is_refused_unparsed() -> None:
    long_number = "9" * 90_000
    message = refused(lambda: load_json(f"[{long_number}]", MAX_RECORD_BYTES), ValueError)
    assert f"the limit is {MAX_DIGITS}" in message
    data = json.loads(record_json())
    data["seed"] = 10**40
    refused(lambda: GameRecord.from_json(json.dumps(data)), RecordError)


def test_text_beyond_the_limit_is_refused_before_it_is_read() -> None:
    refused(lambda: GameRecord.from_json(" " * (MAX_RECORD_BYTES + 1)), RecordError)
    refused(lambda: Position.parse("x" * (MAX_POSITION_CHARS + 1)), PositionError)
    refused(lambda: Position.from_json(b"\xff" * 10), PositionError)


# Positions: the line format.


IN_HAND = 5
"""The line's field of the dice in hand (``8,0``: eight white dice, no golden one)."""

MANGLED_FIELDS = {
    "an Arabic-Indic digit (int() reads it)": (IN_HAND, "\u0665,0"),
    "a fullwidth digit": (IN_HAND, "\uff15,0"),
    "90,000 digits": (IN_HAND, "9" * 90_000 + ",0"),
    "a negative count": (IN_HAND, "-1,0"),
    "a part nested 5,000 deep": (-1, "weasel=" + "[" * 5_000 + "]" * 5_000),
    "a part of unbalanced brackets": (-1, "weasel=[false]]]"),
    "a part as an empty object": (-1, "weasel={}"),
    "a part as an object": (-1, 'weasel={"used": false}'),
    "a part of two values": (-1, "weasel=[false, false]"),
    "a part of a long number": (-1, "weasel=[" + "1" * 40 + "]"),
    "a part as a string": (-1, 'weasel="x"'),
}


@pytest.mark.parametrize("change", MANGLED_FIELDS.values(), ids=MANGLED_FIELDS)
def test_a_mangled_position_line_is_a_position_error(change: tuple[int, str]) -> None:
    line, _ = position_texts()
    fields = line.split(" ")
    index, new = change
    if index < 0:  # the weasel's part: replaced where it stands among the parts
        index = next(at for at, field in enumerate(fields) if field.startswith("weasel="))
    fields[index] = new
    refused(lambda: Position.parse(" ".join(fields)), PositionError)


def test_a_part_given_in_the_wrong_shape_in_json_is_a_position_error() -> None:
    _, text = position_texts()
    data = json.loads(text)
    shape: object
    for shape in ([False], "x", None, {"used": [[[[]]]]}, {"used": False, "extra": 1}):
        data["state"]["parts"]["weasel"] = shape
        refused(lambda data=data: Position.from_json(json.dumps(data)), PositionError)  # type: ignore[misc]
    data["state"]["parts"] = [False]
    refused(lambda: Position.from_dict(data), PositionError)


def test_a_record_whose_position_nests_too_deeply_is_a_record_error() -> None:
    data = json.loads(record_json())
    line, _ = position_texts()
    data["position"] = line.replace("weasel=[false]", "weasel=" + "[" * 3_000 + "]" * 3_000)
    refused(lambda: GameRecord.from_json(json.dumps(data)), RecordError)


# Messages never echo the input whole.


@pytest.mark.parametrize("field", ["variant", "moves", "names", "position", "format"])
def test_a_record_field_a_megabyte_long_gets_a_short_message(field: str) -> None:
    data = json.loads(record_json())
    huge = "x" * 1_000_000
    data[field] = [huge] if field in {"moves", "names"} else huge
    refused(lambda: GameRecord.from_json(json.dumps(data)), RecordError)


def test_a_move_of_a_megabyte_is_refused_with_a_short_message() -> None:
    data = json.loads(record_json())
    data["moves"][3] = "keep " + "4" * 1_000_000
    refused(lambda: GameRecord.from_json(json.dumps(data)), RecordError)


# Whatever a fuzzer does to a saved text.


def _mangled(text: str, edits: list[tuple[int, int, str]]) -> str:
    for at, cut, inserted in edits:
        where = at % (len(text) + 1)
        text = text[:where] + inserted + text[where + cut :]
    return text


edits = st.lists(
    st.tuples(
        st.integers(0, 10**6),
        st.integers(0, 12),
        st.one_of(
            st.text(max_size=6),
            st.sampled_from(['"', ",", "[", "]", "{", "}", "null", "-", "9" * 40, "٣", "\\u0000"]),
        ),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=MANGLINGS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=edits)
def test_a_mangled_record_loads_or_is_a_record_error(changes: list[tuple[int, int, str]]) -> None:
    text = _mangled(record_json(), changes)
    with answered_within(60):
        try:
            record = GameRecord.from_json(text)
        except RecordError as error:
            assert len(str(error)) <= LONGEST_MESSAGE  # noqa: PT017 (any mangling: raised or not)
            return
    record.final_state()  # a record that loads replays (it was checked move by move)


@settings(max_examples=MANGLINGS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=edits, form=st.sampled_from(["line", "json"]))
def test_a_mangled_position_loads_or_is_a_position_error(
    changes: list[tuple[int, int, str]], form: str
) -> None:
    line, text = position_texts()
    mangled = _mangled(line if form == "line" else text, changes)
    with answered_within(60):
        try:
            position = (Position.parse if form == "line" else Position.from_json)(mangled)
        except PositionError as error:
            assert len(str(error)) <= LONGEST_MESSAGE  # noqa: PT017 (any mangling: raised or not)
            return
    assert Position.parse(str(position)) == position  # what loads writes itself back
