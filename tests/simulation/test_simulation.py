"""Simulations: seeded, exact totals, the same whatever the executor; faults contained."""

from __future__ import annotations

import csv
import json
import os
import random
import signal
import sys
import threading
import time
import tracemalloc
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pickomino_rules.bots import BOTS, UnknownBotError, get_bot, greedy_bot, register_bot
from pickomino_rules.errors import InvalidSetupError, MissingExtraError, install_command
from pickomino_rules.files import SaveError
from pickomino_rules.game import new_game, play
from pickomino_rules.plugin import RuleModule, Variant
from pickomino_rules.registry import register_variant, unregister_variant
from pickomino_rules.result import scores
from pickomino_rules.simulation import (
    SEATINGS,
    GameExport,
    GameSummary,
    SimulationError,
    SimulationInterrupted,
    dask_executor,
    game_seats,
    simulate,
    wilson_interval,
)
from pickomino_rules.variants.classic import classic_components

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from pickomino_rules.actions import Action
    from pickomino_rules.rules import Rules
    from pickomino_rules.simulation import Seating
    from pickomino_rules.state import GameState


def _raising(rules: Rules, state: GameState, rng: random.Random) -> Action:
    if rng.random() < 0.004:
        msg = "the bot gave up"
        raise ArithmeticError(msg)
    return greedy_bot(rules, state, rng)


def _exiting(rules: Rules, state: GameState, rng: random.Random) -> Action:
    """Like ``_raising`` (the same draws), but it kills its process."""
    if rng.random() < 0.004:
        os._exit(3)
    return greedy_bot(rules, state, rng)


class _Unpicklable(Exception):  # noqa: N818 (named for what the test is about)
    def __init__(self) -> None:
        super().__init__("cannot travel")
        self.handle = lambda: None  # lambdas do not pickle


def _unpicklable(rules: Rules, state: GameState, rng: random.Random) -> Action:
    if state.total > 20:
        raise _Unpicklable
    return greedy_bot(rules, state, rng)


def _slow(rules: Rules, state: GameState, rng: random.Random) -> Action:
    if state.total > 20:
        time.sleep(30)
    return greedy_bot(rules, state, rng)


def _a_bit_slow(rules: Rules, state: GameState, rng: random.Random) -> Action:
    if state.total > 20:
        time.sleep(0.3)
    return greedy_bot(rules, state, rng)


def _illegal(rules: Rules, state: GameState, rng: random.Random) -> Action:
    from pickomino_rules.actions import Steal  # noqa: PLC0415

    return Steal(5) if state.total > 25 else greedy_bot(rules, state, rng)


TEST_BOTS = {
    "test-raising": _raising,
    "test-exiting": _exiting,
    "test-unpicklable": _unpicklable,
    "test-slow": _slow,
    "test-a-bit-slow": _a_bit_slow,
    "test-illegal": _illegal,
}


@pytest.fixture(autouse=True, scope="module")
def _test_bots() -> Iterator[None]:
    """The faulty bots, registered before any worker starts (forked workers see them)."""
    for name, bot in TEST_BOTS.items():
        register_bot(name, bot, replace=True)
    yield
    for name in TEST_BOTS:
        BOTS.pop(name, None)


SETUP: dict[str, Any] = {"players": 3, "bots": ["greedy", "random"], "games": 30, "seed": 9}


@pytest.mark.parametrize("seating", SEATINGS)
def test_results_do_not_depend_on_the_executor_or_chunking(seating: Seating) -> None:
    base = simulate("classic", **SETUP, seating=seating)
    parallel = simulate("classic", **SETUP, seating=seating, jobs=2, chunk_size=4)
    with ThreadPoolExecutor(max_workers=3) as pool:
        threaded = simulate("classic", **SETUP, seating=seating, executor=pool, chunk_size=7)
    assert base == parallel == threaded
    assert sum(base.wins) == sum(base.seat_wins) == 30
    assert base.bots == ("greedy", "random", "greedy")
    assert base.complete


def test_seats_rotate_so_that_every_bot_sits_everywhere() -> None:
    assert [game_seats("rotate", 0, index, 3) for index in range(4)] == [
        (0, 1, 2),
        (1, 2, 0),
        (2, 0, 1),
        (0, 1, 2),
    ]
    shuffled = {game_seats("shuffle", 5, index, 4) for index in range(40)}
    assert len(shuffled) > 10
    assert all(sorted(order) == [0, 1, 2, 3] for order in shuffled)
    assert game_seats("shuffle", 5, 3, 4) == game_seats("shuffle", 5, 3, 4)
    games: list[GameSummary] = []
    simulate("classic", players=2, bots=["greedy", "random"], games=6, on_game=games.append)
    assert [game.seats for game in games] == [("greedy", "random"), ("random", "greedy")] * 3


def test_totals_are_the_sum_of_the_games() -> None:
    games: list[GameSummary] = []
    outcome = simulate("classic", **SETUP, seating="shuffle", on_game=games.append)
    assert [game.index for game in games] == list(range(30))
    for entry in range(3):
        assert outcome.score_totals[entry] == sum(
            game.scores[game.lineup.index(entry)] for game in games
        )
        assert outcome.wins[entry] == sum(
            Fraction(1, len(game.winners))
            for game in games
            if game.lineup.index(entry) in game.winners
        )
    assert sum(outcome.draws) == sum(len(game.winners) for game in games if len(game.winners) > 1)
    assert outcome.move_total == sum(game.moves for game in games)
    assert outcome.longest_game == max(game.moves for game in games)


def test_a_game_summary_replays_from_its_seed() -> None:
    games: list[GameSummary] = []
    simulate("classic", players=2, bots=["greedy", "random"], games=3, seed=4, on_game=games.append)
    rules, state = new_game("classic", players=2)
    for game in games:
        bots = [get_bot(name) for name in game.seats]
        final = play(rules, state, bots, random.Random(game.seed))
        assert scores(rules, final) == game.scores


def test_a_different_seed_gives_different_games() -> None:
    first = simulate("classic", players=2, bots=["random"], games=10, seed=1)
    second = simulate("classic", players=2, bots=["random"], games=10, seed=2)
    assert first.move_total != second.move_total


def test_progress_counts_every_game() -> None:
    seen: list[int] = []
    simulate("classic", players=2, games=12, seed=0, progress=seen.append)
    assert seen == [1] * 12  # one game at a time in this process
    seen.clear()
    with ThreadPoolExecutor(max_workers=2) as pool:
        simulate("classic", players=2, games=12, executor=pool, chunk_size=5, progress=seen.append)
    assert sorted(seen) == [2, 5, 5]


def test_greedy_beats_random_clearly() -> None:
    outcome = simulate("classic", players=2, bots=["greedy", "random"], games=60, seed=3)
    low, _ = outcome.win_interval(0)
    assert low > 0.8
    assert outcome.mean_score(0) > outcome.mean_score(1)
    assert isinstance(outcome.wins[0], Fraction)


def test_bad_arguments() -> None:
    with pytest.raises(UnknownBotError):
        simulate(bots=["nobody"], games=1)
    with pytest.raises(InvalidSetupError):
        simulate(players=1, games=1)
    with pytest.raises(InvalidSetupError, match="3 bots named for 2 seats"):
        simulate(players=2, bots=["greedy", "random", "optimal"], games=1)  # one would not play
    with pytest.raises(ValueError, match="at least 1"):
        simulate(games=0)
    with pytest.raises(ValueError, match="at least 1"):
        simulate(jobs=0)
    with pytest.raises(ValueError, match="seating"):
        simulate(seating="random")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not both"), ThreadPoolExecutor() as pool:
        simulate(jobs=2, executor=pool)
    with pytest.raises(ValueError, match="positive"):
        simulate(move_time_limit=0)
    with pytest.raises(ValueError, match="at least one bot"):
        simulate(bots=[])


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson_interval(30, 100)
    assert low < 0.3 < high
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0


# Faults


def test_a_failing_bot_stops_the_run_naming_the_game_and_keeping_the_finished_ones() -> None:
    with pytest.raises(SimulationError) as caught:
        simulate("classic", players=2, bots=["test-raising", "greedy"], games=200, seed=1)
    failure = caught.value.failure
    assert failure.error == "ArithmeticError: the bot gave up"
    assert failure.seat is not None
    assert failure.seats[failure.seat] == "test-raising"
    assert failure.seed == f"1:{failure.index}"
    assert "Traceback" in failure.details
    assert str(failure) in str(caught.value)
    assert f"game {failure.index} " in str(failure)
    partial = caught.value.result
    assert partial.games == failure.index  # in this process, in game order
    assert partial.requested == 200
    assert not partial.complete


def test_keep_going_counts_failures_the_same_everywhere() -> None:
    setup: dict[str, Any] = {"bots": ["test-raising", "greedy"], "games": 120, "seed": 2}
    here = simulate("classic", **setup, keep_going=True)
    there = simulate("classic", **setup, keep_going=True, jobs=2, chunk_size=9)
    assert here == there
    assert 0 < len(here.failures) < 120
    assert here.games + len(here.failures) == 120
    assert [failure.index for failure in here.failures] == sorted(
        failure.index for failure in here.failures
    )


def test_a_lost_worker_is_replaced_and_its_game_found() -> None:
    setup: dict[str, Any] = {"games": 80, "seed": 3, "keep_going": True}
    raised = simulate("classic", bots=["test-raising", "greedy"], **setup)
    lost = simulate("classic", bots=["test-exiting", "greedy"], jobs=2, chunk_size=6, **setup)
    assert raised.failures, "the seed must make some games fail"
    assert [f.index for f in lost.failures] == [f.index for f in raised.failures]
    assert all(f.moves is None and "BrokenProcessPool" in f.error for f in lost.failures)
    assert "could not be played: BrokenProcessPool" in str(lost.failures[0])
    assert (lost.games, lost.wins[1], lost.score_totals) == (
        raised.games,
        raised.wins[1],
        raised.score_totals,
    )


def test_a_lost_worker_stops_the_run_without_keep_going() -> None:
    raised = simulate("classic", bots=["test-raising", "greedy"], games=80, seed=3, keep_going=True)
    with pytest.raises(SimulationError) as caught:
        simulate("classic", bots=["test-exiting", "greedy"], games=80, seed=3, jobs=2)
    assert caught.value.failure.index in {failure.index for failure in raised.failures}


def test_a_run_that_stops_early_leaves_no_pool_thread_behind() -> None:
    # A pool thread still closing its pipes at interpreter exit races Python's own exit
    # hook, which then prints "OSError: Bad file descriptor" after our clean error.
    with pytest.raises(SimulationError):
        simulate("classic", bots=["test-raising", "greedy"], games=200, seed=1, jobs=2)
    left = [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]
    assert left == []


def test_a_broken_executor_not_ours_ends_the_run() -> None:
    with ProcessPoolExecutor(max_workers=2) as pool, pytest.raises(SimulationError) as caught:
        simulate("classic", bots=["test-exiting"], games=80, seed=3, executor=pool, keep_going=True)
    assert "executor is broken" in caught.value.failure.error


def test_an_unpicklable_error_keeps_its_text() -> None:
    with pytest.raises(SimulationError) as caught:
        simulate("classic", bots=["test-unpicklable"], games=4, jobs=2)
    assert caught.value.failure.error == "_Unpicklable: cannot travel"


def test_an_illegal_move_fails_its_game() -> None:
    outcome = simulate("classic", bots=["test-illegal"], games=3, keep_going=True)
    assert len(outcome.failures) == 3
    assert all("IllegalActionError" in failure.error for failure in outcome.failures)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_move_time_limit_stops_a_slow_bot(jobs: int) -> None:
    started = time.perf_counter()
    with pytest.raises(SimulationError) as caught:
        simulate("classic", bots=["test-slow"], games=4, jobs=jobs, move_time_limit=0.2)
    assert time.perf_counter() - started < 20  # the bot would sleep 30 s
    assert caught.value.failure.error.startswith("MoveTimeLimitError: took more than")


def test_a_move_time_limit_off_the_main_thread_is_checked_after_the_move() -> None:
    with ThreadPoolExecutor(max_workers=2) as pool, pytest.raises(SimulationError) as caught:
        simulate("classic", bots=["test-a-bit-slow"], games=2, executor=pool, move_time_limit=0.1)
    assert "MoveTimeLimitError" in caught.value.failure.error


def test_an_interrupt_returns_the_finished_games() -> None:
    def interrupt_after_five(_done: int) -> None:
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt

    calls: list[int] = []
    with pytest.raises(SimulationInterrupted) as caught:
        simulate("classic", games=50, progress=interrupt_after_five)
    assert caught.value.result.games == 5
    assert isinstance(caught.value, KeyboardInterrupt)


def test_ctrl_c_inside_the_executor_waits_until_its_call_returns() -> None:
    """Ctrl-C that comes while the executor's own code runs stops the run after that code.

    Cut short inside it, a real pool can be left stuck (a future's lock held, a started
    worker unrecorded), and the interpreter's exit then waits on it for ever.
    """

    class Interrupted(ThreadPoolExecutor):
        entered = 0
        returned = 0

        def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
            Interrupted.entered += 1
            if Interrupted.entered == 3:
                signal.raise_signal(signal.SIGINT)  # Ctrl-C, at this very moment
            future = super().submit(*args, **kwargs)
            Interrupted.returned += 1
            return future

    # as in a terminal: a shell without job control may have started us with SIGINT ignored
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with Interrupted(max_workers=2) as pool, pytest.raises(SimulationInterrupted):
            simulate("classic", games=200, executor=pool, chunk_size=2)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert Interrupted.entered >= 3
    assert Interrupted.returned == Interrupted.entered


def test_work_is_handed_out_lazily_with_bounded_memory() -> None:
    """A run of 10**9 games allocates nothing up front; at most ``max_pending`` chunks out."""

    class Counting(ThreadPoolExecutor):
        submitted: list[Future[Any]] = []  # noqa: RUF012 (one pool per test)
        most = 0

        def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
            # Chunks out = submitted and not done, as the submitting thread sees them (a done
            # callback runs in the worker after the waiter wakes, so counting there races).
            out = sum(not future.done() for future in Counting.submitted) + 1
            Counting.most = max(Counting.most, out)
            future = super().submit(*args, **kwargs)
            Counting.submitted.append(future)
            return future

    def stop_soon(_done: int) -> None:
        finished.append(_done)
        if len(finished) == 40:
            raise KeyboardInterrupt

    finished: list[int] = []
    tracemalloc.start()
    with Counting(max_workers=2) as pool, pytest.raises(SimulationInterrupted) as caught:
        simulate(
            "classic", games=10**9, executor=pool, chunk_size=2, max_pending=6, progress=stop_soon
        )
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert Counting.most <= 6
    assert caught.value.result.games >= 80
    assert peak < 20_000_000


# Export


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_export_writes_every_game_in_order(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"games{suffix}"
    games: list[GameSummary] = []

    def both(game: GameSummary) -> None:
        games.append(game)
        export(game)

    with GameExport(path, players=3) as export:
        simulate("classic", **SETUP, jobs=2, chunk_size=4, on_game=both)
    if suffix == ".csv":
        rows = list(csv.DictReader(path.open()))
        assert [int(row["game"]) for row in rows] == list(range(30))
        assert [int(rows[5][f"worms_{seat}"]) for seat in range(3)] == list(games[5].scores)
        assert [rows[5][f"bot_{seat}"] for seat in range(3)] == list(games[5].seats)
    else:
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        assert lines == [game.to_dict() for game in games]


def test_export_after_an_interrupt_keeps_the_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("old\n")
    with GameExport(path, players=2) as export, pytest.raises(SimulationInterrupted):
        simulate("classic", games=50, on_game=export, progress=_interrupt_at(7))
    assert [json.loads(line)["game"] for line in path.read_text().splitlines()] == list(range(7))


def _interrupt_at(count: int) -> Callable[[int], None]:
    done: list[int] = []

    def progress(games: int) -> None:
        done.append(games)
        if sum(done) >= count:
            raise KeyboardInterrupt

    return progress


def test_export_refuses_bad_targets(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="export format"):
        GameExport(tmp_path / "games.txt", players=2)
    with pytest.raises(SaveError, match="no folder"):
        GameExport(tmp_path / "missing" / "games.csv", players=2)


# Dask


def test_a_dask_cluster_gives_the_same_results(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    expected = simulate("classic", **SETUP, seating="shuffle")
    # Dask's workers start with this process's sys.path, where pytest's doctest collection put
    # src/ first; there pickomino_rules.variants is missing (the install maps it). Workers
    # should import the installed package, as they do outside pytest.
    source = (Path(__file__).parents[2] / "src").resolve()
    monkeypatch.setattr(sys, "path", [p for p in sys.path if Path(p).resolve() != source])
    # A real LocalCluster of two worker processes on the loopback interface.
    with dask_executor("local", workers=2) as (executor, threads):
        assert threads == 2
        on_dask = simulate("classic", **SETUP, seating="shuffle", executor=executor, chunk_size=4)
        batch_on_dask = simulate("classic", **BATCH, executor=executor, chunk_size=BATCH_CHUNK)
    assert on_dask == expected
    assert batch_on_dask == simulate("classic", **BATCH, chunk_size=BATCH_CHUNK)


def test_a_simulation_on_dask_names_the_extra_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    with (
        pytest.raises(MissingExtraError, match="needs the 'dask' extra") as raised,
        dask_executor("local"),
    ):
        pass
    assert install_command("dask") in str(raised.value)


# The batch engine

BATCH: dict[str, Any] = {
    "players": 3,
    "bots": ["greedy", "random"],
    "games": 300,
    "seed": 4,
    "engine": "batch",
}
BATCH_CHUNK = 70


def test_batch_results_do_not_depend_on_the_executor() -> None:
    base = simulate("classic", **BATCH, chunk_size=BATCH_CHUNK)
    parallel = simulate("classic", **BATCH, chunk_size=BATCH_CHUNK, jobs=2)
    with ThreadPoolExecutor(max_workers=3) as pool:
        threaded = simulate("classic", **BATCH, chunk_size=BATCH_CHUNK, executor=pool)
    assert base == parallel == threaded
    assert base.complete
    assert sum(base.wins) == sum(base.seat_wins) == 300


def test_batch_games_refill_rows_and_match_the_reference_statistics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Few rows for many games (rows take the next game), and the same play as the reference.

    Same bots, other dice: the mean length and the win rates must agree within sampling error.
    """
    monkeypatch.setattr("pickomino_rules.simulation._workers.BATCH_WIDTH", 16)
    games = 600
    lineup: dict[str, Any] = {"players": 2, "bots": ["greedy", "greedy"], "games": games, "seed": 2}
    batch = simulate("classic", **lineup, engine="batch")
    reference = simulate("classic", **lineup)
    assert batch.games == games
    assert batch.complete
    assert batch.mean_moves == pytest.approx(reference.mean_moves, rel=0.05)
    assert batch.mean_turns == pytest.approx(reference.mean_turns, rel=0.05)
    for seat in range(2):  # the first player's edge, measured both ways
        low, high = reference.win_interval(0)
        assert abs(batch.seat_win_rate(seat) - reference.seat_win_rate(seat)) < 0.1
        assert low - 0.1 < batch.win_rate(0) < high + 0.1


def test_the_longest_games_go_on_in_a_narrower_batch_and_count_every_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once a chunk's last games are started, the long ones move to a batch of their own rows.

    Their moves and turns before the move still count (the lengths and the games cut at
    ``max_moves`` agree with the reference engine's), and their states carry over.
    """
    from pickomino_rules.simulation import _workers  # noqa: PLC0415

    narrowed: list[int] = []
    real = _workers._narrowed  # noqa: SLF001 (counting the real narrowing, not replacing it)

    def counting(games: Any, rows: Any, batch: Any) -> Any:
        narrowed.append(len(rows))
        return real(games, rows, batch)

    monkeypatch.setattr(_workers, "_narrowed", counting)
    monkeypatch.setattr(_workers, "NARROWEST", 4)
    lineup: dict[str, Any] = {"players": 3, "bots": ["greedy", "random"], "games": 600, "seed": 3}
    batch = simulate("classic", **lineup, engine="batch")
    played: list[GameSummary] = []
    reference = simulate("classic", **lineup, on_game=played.append)
    assert len(narrowed) >= 2, narrowed  # 600 rows, then ever fewer
    assert batch.complete
    assert batch.mean_moves == pytest.approx(reference.mean_moves, rel=0.05)
    assert batch.mean_turns == pytest.approx(reference.mean_turns, rel=0.05)
    for entry in range(2):
        low, high = reference.win_interval(entry)
        assert low - 0.08 < batch.win_rate(entry) < high + 0.08
    moves = sorted(summary.moves for summary in played)
    limit = moves[len(moves) * 9 // 10]  # about a tenth of the games run past it
    cut = simulate("classic", **lineup, engine="batch", max_moves=limit, keep_going=True)
    cut_reference = simulate("classic", **lineup, max_moves=limit, keep_going=True)
    assert 0.04 < len(cut.failures) / 600 < 0.16, len(cut.failures)
    assert abs(len(cut.failures) - len(cut_reference.failures)) < 0.06 * 600


def test_batch_seats_follow_the_seating(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    with GameExport(path, 3) as export:
        simulate("classic", **BATCH, seating="shuffle", chunk_size=BATCH_CHUNK, on_game=export)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [row["game"] for row in rows] == list(range(300))
    for row in rows:
        order = game_seats("shuffle", 4, row["game"], 3)
        assert tuple(row["seats"]) == tuple(BATCH["bots"][entry % 2] for entry in order)
    greedy_wins = sum(
        1 for row in rows for seat in row["winners"] if row["seats"][seat] == "greedy"
    )
    assert greedy_wins > 0.9 * 300  # the greedy bots do win: the bots sit where the seats say


def test_the_batch_engine_refuses_what_it_cannot_play() -> None:
    from pickomino_rules.batch import BatchRulesError  # noqa: PLC0415
    from pickomino_rules.batch_bots import UnknownVectorBotError  # noqa: PLC0415

    untwinned = Variant(
        name="untwinned",
        doc="classic with a module whose batch twin is not one",
        options=(),
        build=lambda _options: [
            classic_components(),
            RuleModule(name="mine", batch=lambda: 42),  # type: ignore[arg-type, return-value]
        ],
    )
    register_variant(untwinned)
    try:
        with pytest.raises(BatchRulesError, match="'mine': its batch twin is int"):
            simulate("untwinned", players=2, games=2, engine="batch")
    finally:
        unregister_variant("untwinned")
    with pytest.raises(UnknownVectorBotError, match="optimal"):
        simulate("classic", players=2, bots=["optimal"], games=2, engine="batch")
    with pytest.raises(ValueError, match="move_time_limit"):
        simulate("classic", players=2, games=2, engine="batch", move_time_limit=1.0)
    with pytest.raises(ValueError, match="engine"):
        simulate("classic", players=2, games=2, engine="turbo")  # type: ignore[arg-type]


def test_a_failing_vectorised_bot_fails_the_unfinished_games() -> None:
    from pickomino_rules.batch_bots import VECTOR_BOTS, register_vector_bot  # noqa: PLC0415

    calls = []

    def flaky(games: Any, rng: Any) -> Any:
        calls.append(1)
        if len(calls) > 40:
            raise RuntimeError("out of ideas")
        return VECTOR_BOTS["greedy"](games, rng)

    register_vector_bot("flaky", flaky)
    register_bot("flaky", greedy_bot, replace=True)
    try:
        with pytest.raises(SimulationError, match="out of ideas") as caught:
            simulate("classic", players=2, bots=["flaky"], games=50, engine="batch")
        assert caught.value.failure.index == 0
        done = simulate(
            "classic", players=2, bots=["flaky"], games=50, engine="batch", keep_going=True
        )
        assert done.games == 0
        assert len(done.failures) == 50
    finally:
        VECTOR_BOTS.pop("flaky")
        BOTS.pop("flaky")
