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
import os
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
from pickomino_rules._engine import compiled_backend
from pickomino_rules.actions import Roll, Steal, Stop, Take
from pickomino_rules.errors import PickominoError
from pickomino_rules.positions import Position, PositionError
from pickomino_rules.records import GameRecord, RecordError
from pickomino_rules.result import result
from support import as_in_a_terminal, reaped

if TYPE_CHECKING:
    from collections.abc import Callable

COMPILED = compiled_backend() is not None
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


# Hand-built states: every field replaced by junk, on both backends, in a subprocess

HAND_BUILT = r"""
import random, resource, signal, sys
resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))  # unbounded = a failure


class Hang(Exception):
    pass


def hang(*_):
    raise Hang("no answer within 2 s")


signal.signal(signal.SIGALRM, hang)
from pickomino_rules import (
    Phase, RollOutcome, apply, chance_outcomes, is_terminal, legal_actions, new_game, playout,
    sample_chance, scores, validate,
)
from pickomino_rules._engine import ACTIVE
from pickomino_rules.bots import random_bot

JUNK = [
    None, -3, 0, 1, 99, 2**70, -(2**70), 1.5, float("nan"), True, "x", b"", [], [1], {}, (),
    (-3,), (99,), (2**70,), (0,), (8,), (3, 3), (1, 2, 3, 4, 5, 6), (0,) * 6, (9,) * 6,
    (-1, 0, 0, 0, 0, 0), (21,), (21, 21), (40,), ((),), ((21,), ()), ((),) * 8,
    [(21,), ()], Phase.ROLL, Phase.CHOOSE, Phase.DECIDE, Phase.TURN_OVER, Phase.GAME_OVER,
    "roll", RollOutcome.parse("11111111"), RollOutcome.parse("w"), object(),
]
FIELDS = (
    "grill", "face_down", "stacks", "player", "phase", "in_hand", "roll", "set_aside", "parts"
)
ALLOWED = ("PickominoError", "ValueError", "TypeError")

def allowed(error):
    names = {kind.__name__ for kind in type(error).__mro__}
    return any(name in names for name in ALLOWED)

rng = random.Random(int(sys.argv[1]))
calls = raised = 0
bad = []
for variant in ("classic", "extended"):
    rules, start = new_game(variant, players=3)
    reached = [after for _, after in playout(rules, start, random_bot, random.Random(3))]
    reached = reached[:: max(1, len(reached) // 60)]
    for _ in range(int(sys.argv[2])):
        base = rng.choice(reached)
        changes = {field: rng.choice(JUNK) for field in rng.sample(FIELDS, rng.choice((1, 1, 2)))}
        if rng.random() < 0.3:  # a sound field from another state of the game
            field = rng.choice(FIELDS)
            changes[field] = getattr(rng.choice(reached), field)
        try:
            state = base.replace(**changes)
        except Exception as error:
            if not allowed(error):
                bad.append(f"replace {changes!r}: {type(error).__name__}: {error}")
            continue
        moves = legal_actions(rules, base)
        for name, call in (
            ("legal_actions", lambda: legal_actions(rules, state)),
            ("apply", lambda: apply(rules, state, rng.choice(moves)) if moves else None),
            ("sample_chance", lambda: sample_chance(rules, state, random.Random(1))),
            ("chance_outcomes", lambda: chance_outcomes(rules, state)),
            ("is_terminal", lambda: is_terminal(rules, state)),
            ("scores", lambda: scores(rules, state)),
            ("validate", lambda: validate(rules, state)),
        ):
            calls += 1
            signal.setitimer(signal.ITIMER_REAL, 2)
            try:
                call()
            except Exception as error:
                raised += 1
                if not allowed(error):
                    bad.append(f"{name} after {changes!r}: {type(error).__name__}: {error}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
print(ACTIVE.name, calls, "calls,", raised, "raised a clear error,", len(bad), "raw")
for line in bad[:20]:
    print(line)
sys.exit(1 if bad else 0)
"""


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_hand_built_states_give_clear_errors_never_a_hang_or_a_raw_error(pure: bool) -> None:
    """States changed field by field into junk (as ``GameState.replace`` allows).

    Every public transition answers or raises a PickominoError, ValueError or TypeError, in
    bounded time and memory, on both backends; the subprocess catches a crash or a hang.
    """
    environment = os.environ | {"PICKOMINO_PURE": "1" if pure else "0"}
    done = subprocess.run(  # noqa: S603 (our own interpreter and code)
        [sys.executable, "-c", HAND_BUILT, "7", "600"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("pure" if pure else ("pure", "compiled")[COMPILED])
    assert " 0 raw" in done.stdout
