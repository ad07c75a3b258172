"""Fuzzing the edges: whatever comes in, a specific error or a correct answer, never a crash.

Mutated and generated records and positions must load or raise ``RecordError`` /
``PositionError``; public functions given arguments of any type must answer or raise one
of the library's errors; the command line, signalled at a random moment, must end with
one line and a documented exit code. Small budgets here; ``HYPOTHESIS_PROFILE=thorough``
runs many more examples.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pickomino_rules import (
    RollOutcome,
    apply,
    chance_outcomes,
    legal_actions,
    new_game,
    parse_move,
    sample_chance,
)
from pickomino_rules.actions import Roll, Steal, Stop, Take
from pickomino_rules.errors import PickominoError
from pickomino_rules.positions import Position, PositionError
from pickomino_rules.records import GameRecord, RecordError
from pickomino_rules.result import result
from support import as_in_a_terminal, reaped

if TYPE_CHECKING:
    from collections.abc import Callable

RECORD = GameRecord.play("extended", players=3, seed=11)
RECORD_TEXT = RECORD.to_json()

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**40), 10**40)
    | st.floats(allow_nan=True)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=30,
)


def _mutate(text: str, data: st.DataObject) -> str | bytes:
    """One of the ways a file gets damaged or forged."""
    kind = data.draw(st.sampled_from(["cut", "flip", "splice", "value", "nest", "bytes"]))
    if kind == "cut":
        return text[: data.draw(st.integers(0, len(text)))]
    if kind == "flip":
        at = data.draw(st.integers(0, len(text) - 1))
        return text[:at] + data.draw(st.characters()) + text[at + 1 :]
    if kind == "splice":
        at = data.draw(st.integers(0, len(text)))
        return text[:at] + data.draw(st.text(max_size=30)) + text[at:]
    if kind == "nest":
        depth = data.draw(st.integers(1, 5000))
        return text.replace('"moves": [', '"moves": ' + "[" * depth, 1)
    if kind == "bytes":
        raw = text.encode()
        at = data.draw(st.integers(0, len(raw)))
        return raw[:at] + data.draw(st.binary(min_size=1, max_size=8)) + raw[at:]
    document = json.loads(text)
    field = data.draw(st.sampled_from(sorted(document)))
    if field == "moves" and data.draw(st.booleans()):
        moves = document["moves"]
        at = data.draw(st.integers(0, len(moves) - 1))
        moves[at] = data.draw(json_values | st.text(max_size=12))
    else:
        document[field] = data.draw(json_values)
    return json.dumps(document)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_damaged_record_loads_or_is_a_record_error(data: st.DataObject) -> None:
    text = _mutate(RECORD_TEXT, data)
    try:
        record = GameRecord.from_json(text)
    except RecordError as error:
        assert len(str(error)) < 2_000  # noqa: PT017 (loading may succeed) an excerpt, never the input
        return
    record.final_state()  # what loads, replays


@settings(max_examples=60)
@given(document=json_values)
def test_any_json_document_loads_or_is_a_record_error(document: object) -> None:
    with pytest.raises(RecordError):
        GameRecord.from_json(json.dumps(document))


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_damaged_position_parses_or_is_a_position_error(data: st.DataObject) -> None:
    rules, state = new_game("extended", players=3)
    for move in RECORD.moves[: data.draw(st.integers(0, 60))]:
        state = apply(rules, state, parse_move(rules, move))
    position = Position(rules, state)
    line = str(position)
    at = data.draw(st.integers(0, len(line)))
    damaged = (
        line[:at] + data.draw(st.text(max_size=12)) + line[at + data.draw(st.integers(0, 5)) :]
    )
    try:
        parsed = Position.parse(damaged)
    except PositionError as error:
        assert len(str(error)) < 2_000  # noqa: PT017 (parsing may succeed)
    else:
        assert str(Position.parse(str(parsed))) == str(parsed)
    document = json.loads(position.to_json())
    field = data.draw(st.sampled_from(sorted(document)))
    document[field] = data.draw(json_values)
    with contextlib.suppress(PositionError):
        Position.from_json(json.dumps(document))


anything = st.one_of(
    json_values,
    st.binary(max_size=8),
    st.sampled_from([Roll(), Stop(), Take(6), Steal(1), RollOutcome.parse("12345w"), object()]),
    st.builds(lambda n: new_game("classic", players=n)[1], st.integers(2, 4)),
    st.builds(lambda: new_game("extended")[0]),
)


@settings(max_examples=200)
@given(first=anything, second=anything, third=anything)
def test_public_functions_answer_or_raise_a_library_error(
    first: Any, second: Any, third: Any
) -> None:
    rules, state = new_game("classic")
    calls: list[Callable[[], object]] = [
        lambda: apply(rules, state, first),
        lambda: apply(rules, first, second),
        lambda: apply(first, state, Roll()),
        lambda: legal_actions(rules, first),
        lambda: legal_actions(first, second),
        lambda: chance_outcomes(rules, first),
        lambda: sample_chance(rules, first, third),
        lambda: new_game(first),
        lambda: new_game("classic", players=first),
        lambda: new_game("classic", options=first),
        lambda: parse_move(rules, first),
        lambda: result(rules, first),
        lambda: RollOutcome.parse(first),
        lambda: Take(first),
        lambda: Steal(first),
        lambda: Position.parse(first),
        lambda: Position(first, second),
        lambda: GameRecord.from_json(first),
    ]
    for call in calls:
        with contextlib.suppress(PickominoError):
            call()
    assert new_game("classic") == (rules, state)  # nothing shared was changed


STARTUP = 1.5
"""Seconds a fresh interpreter takes to import the command line, with room to spare."""


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    how=st.sampled_from([signal.SIGINT, signal.SIGTERM]),
    after=st.floats(0.0, 2.0),
    command=st.sampled_from(
        [
            ("simulate", "--games", "100000", "--jobs", "2"),
            ("simulate", "--games", "100000"),
            ("play", "--watch", "--players", "4"),
        ]
    ),
)
def test_a_signal_at_any_moment_ends_the_command_cleanly(
    how: signal.Signals, after: float, command: tuple[str, ...]
) -> None:
    process = subprocess.Popen(  # noqa: S603 (our own interpreter and entry point)
        [sys.executable, "-c", "from pickomino_rules.cli import main; main()", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        preexec_fn=as_in_a_terminal,  # noqa: PLW1509 (only signal() runs before exec)
    )
    with reaped(process, group=True):
        time.sleep(STARTUP + after)  # the interpreter's own start-up is not ours to guard
        process.send_signal(how)
        _, err = process.communicate(timeout=60)
    assume(process.returncode != 0)  # a game can end before the signal comes
    assert "Traceback" not in err
    expected = {signal.SIGINT: {130}, signal.SIGTERM: {143, -signal.SIGTERM}}[how]
    assert process.returncode in expected, err
    if err:
        assert err.startswith("error: ") or process.returncode < 0, err
