"""Many games between bots: win rates with confidence intervals, scores, lengths.

Game ``i`` of a simulation with seed ``s`` is played with ``random.Random(f"{s}:{i}")``
whatever process plays it, and the totals are exact (fractions for shared wins), so
the results are identical for the same seed however the games are spread over
workers: in this process, over ``jobs`` worker processes, or on any
``concurrent.futures.Executor`` (such as a Dask cluster's ``client.get_executor()``).

Games are handed out lazily, a bounded number of chunks at a time, so memory does not
grow with the number of games; each game's summary can be streamed out in game order
(``on_game``), and the bots change seats from game to game (``seating``) so that no bot
always plays first.

Faults are contained. A bot that raises, breaks the time limit or plays an illegal move
fails its game, reported as a [`GameFailure`][pickomino_rules.simulation.GameFailure]
with the game's index, seed, seats and the original error text; a worker process that
dies is replaced, and the games it held are replayed one at a time to find the one
that killed it. By default the first failure stops the run
([`SimulationError`][pickomino_rules.simulation.SimulationError]); with
``keep_going`` the failed games are counted and the rest are played. Ctrl-C stops the
run within moments, stops the workers and raises
[`SimulationInterrupted`][pickomino_rules.simulation.SimulationInterrupted] with the
games finished so far. Either way the finished games are kept.

A [`tournament`][pickomino_rules.simulation.tournament] plays every table of distinct bots
and rates them (Bradley-Terry on the Elo scale, with 95% intervals).

Examples:
    >>> from pickomino_rules.simulation import simulate
    >>> result = simulate("classic", players=2, bots=["greedy", "random"], games=20, seed=1)
    >>> result.games, result.bots
    (20, ('greedy', 'random'))
    >>> result == simulate("classic", players=2, bots=["greedy", "random"], games=20, seed=1)
    True
"""

from pickomino_rules._processes import max_jobs
from pickomino_rules.simulation._executors import dask_executor
from pickomino_rules.simulation._export import EXPORT_FORMATS, GameExport
from pickomino_rules.simulation._ratings import Rating, bradley_terry
from pickomino_rules.simulation._results import (
    GameFailure,
    GameSummary,
    MoveTimeLimitError,
    SimulationError,
    SimulationInterrupted,
    SimulationResult,
    wilson_interval,
)
from pickomino_rules.simulation._runner import simulate
from pickomino_rules.simulation._tournament import TournamentResult, tournament
from pickomino_rules.simulation._workers import ENGINES, SEATINGS, Engine, Seating, game_seats

__all__ = [
    "ENGINES",
    "EXPORT_FORMATS",
    "SEATINGS",
    "Engine",
    "GameExport",
    "GameFailure",
    "GameSummary",
    "MoveTimeLimitError",
    "Rating",
    "Seating",
    "SimulationError",
    "SimulationInterrupted",
    "SimulationResult",
    "TournamentResult",
    "bradley_terry",
    "dask_executor",
    "game_seats",
    "max_jobs",
    "simulate",
    "tournament",
    "wilson_interval",
]
