"""What a worker does: play a chunk of a run's games, on the reference or the batch engine."""

from __future__ import annotations

import hashlib
import random
import signal
import threading
import time
import traceback
from typing import TYPE_CHECKING, Literal

import attrs

from pickomino_rules.bots import get_bot
from pickomino_rules.game import MAX_GAME_MOVES, UnfinishedGameError, new_game, playout
from pickomino_rules.registry import get_variant
from pickomino_rules.result import result
from pickomino_rules.simulation._results import (
    GameFailure,
    GameSummary,
    MoveTimeLimitError,
)
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import numpy as np
    from numpy.typing import NDArray

    from pickomino_rules.actions import Action
    from pickomino_rules.batch import BatchGames
    from pickomino_rules.game import Bot
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState


Engine = Literal["reference", "batch"]
"""Which engine plays a simulation's games (see `simulate`)."""
ENGINES: tuple[Engine, ...] = ("reference", "batch")
"""The engines: the reference engine, one game at a time, or the batch engine
([`pickomino_rules.batch`][pickomino_rules.batch]), a chunk of games in lockstep."""

Seating = Literal["fixed", "rotate", "shuffle"]
"""A seating name (see `SEATINGS`)."""
SEATINGS: tuple[Seating, ...] = ("fixed", "rotate", "shuffle")
"""How the bots sit: always in the order given, rotated one seat per game, or shuffled
per game (seeded)."""


def game_seats(seating: Seating, seed: int, index: int, players: int) -> tuple[int, ...]:
    """The line-up entry sitting at each seat in game ``index``.

    Examples:
        >>> game_seats("rotate", 0, 1, 3)
        (1, 2, 0)
        >>> game_seats("fixed", 0, 1, 3)
        (0, 1, 2)
    """
    order = list(range(players))
    if seating == "rotate":
        shift = index % players
        order = order[shift:] + order[:shift]
    elif seating == "shuffle":
        random.Random(f"{seed}:{index}:seats").shuffle(order)
    return tuple(order)


@attrs.frozen
class Setup:
    """What every game of a run shares: a picklable description."""

    variant: str
    options: dict[str, object]
    players: int
    lineup: tuple[str, ...]
    seating: Seating
    seed: int
    move_time_limit: float | None
    engine: Engine = "reference"
    max_moves: int | None = MAX_GAME_MOVES

    def table(self) -> tuple[Rules, list[Bot]]:
        """The rules and the line-up's bots (time-limited if asked), in this process."""
        rules = get_variant(self.variant).rules(self.options)
        bots = [get_bot(name) for name in self.lineup]
        if self.move_time_limit is not None:
            bots = [time_limited(bot, self.move_time_limit) for bot in bots]
        return rules, bots


@attrs.frozen
class Chunk:
    """Games ``start`` to ``stop - 1`` of a run: one task for an executor."""

    setup: Setup
    start: int
    stop: int


Outcome = GameSummary | GameFailure


def play_chunk(chunk: Chunk) -> list[Outcome]:
    """Play a chunk's games (in a worker): each one's summary or failure."""
    if chunk.setup.engine == "batch":
        return play_batch(chunk)
    rules, bots = chunk.setup.table()
    return [play_game(chunk.setup, rules, bots, i) for i in range(chunk.start, chunk.stop)]


_GAME_OVER = Phase.GAME_OVER  # an enum member read off its class costs ~10x a global (3.11)


def play_game(setup: Setup, rules: Rules, bots: Sequence[Bot], index: int) -> Outcome:
    order = game_seats(setup.seating, setup.seed, index, setup.players)
    seats = tuple(setup.lineup[entry] for entry in order)
    seed = f"{setup.seed}:{index}"
    _, state = new_game(rules, players=setup.players)
    player = state.player
    moves = turns = 0
    try:
        # Played once: a turn ends where the dice pass on or the game ends (C11, C12).
        seated = [bots[entry] for entry in order]
        for _, after in playout(rules, state, seated, random.Random(seed), setup.max_moves):
            state = after
            moves += 1
            if state.player != player or state.phase is _GAME_OVER:
                turns += 1
                player = state.player
    except Exception as error:  # noqa: BLE001 (any bot error fails only its game)
        unfinished = isinstance(error, UnfinishedGameError)
        seat = None if unfinished or state.phase is Phase.ROLL else state.player
        text = f"{type(error).__name__}: {error}"
        details = "".join(traceback.format_exception(error))
        return GameFailure(index, seed, seats, seat, moves, text, details)
    outcome = result(rules, state)
    return GameSummary(index, seed, seats, order, outcome.scores, outcome.winners, turns, moves)


BATCH_WIDTH = 4096
"""Most games a chunk plays at once; a finished game's row takes the chunk's next game."""

NARROWEST = 32
"""Fewest rows a chunk's batch is narrowed to once its last games are the only ones left."""


def play_batch(chunk: Chunk) -> list[Outcome]:  # noqa: C901, PLR0915 (one lockstep loop)
    """Play a chunk's games in lockstep on the batch engine, with the bots' vectorised forms.

    The chunk's dice and the bots' draws come from numpy generators seeded by the run's
    seed and the chunk's first game, so a chunk replays exactly; its games' ``seed`` names
    that chunk.
    """
    import numpy as np  # noqa: PLC0415 (the batch extra)

    from pickomino_rules.batch import BatchGames  # noqa: PLC0415
    from pickomino_rules.batch_bots import get_vector_bot  # noqa: PLC0415

    setup, start, count = chunk.setup, chunk.start, chunk.stop - chunk.start
    seed = f"{setup.seed}:batch:{start}"
    entropy = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:16], "big")
    dice, draws = (np.random.default_rng(s) for s in np.random.SeedSequence(entropy).spawn(2))
    width = min(count, BATCH_WIDTH)

    def batch(size: int) -> BatchGames:
        return BatchGames(
            size,
            setup.players,
            variant=setup.variant,
            options=setup.options,
            seed=dice,
            auto_reset=False,
        )

    games = batch(width)
    names = sorted(set(setup.lineup))
    bots = [get_vector_bot(name) for name in names]
    orders = [
        game_seats(setup.seating, setup.seed, i, setup.players) for i in range(start, chunk.stop)
    ]
    entry_bot = np.array([names.index(name) for name in setup.lineup])
    seat_bot = entry_bot[np.array(orders)]  # each game's bot (index into names) by seat
    game_of_row = np.arange(width)  # the chunk's game each row plays
    waiting = width  # the chunk's next game to start
    outcomes: list[Outcome | None] = [None] * count
    retired = np.zeros(width, dtype=bool)  # rows of unfinished games with none left to start
    # Moves and turns each row's game played before the batch was last narrowed.
    moves_before = np.zeros(width, dtype=np.int64)
    turns_before = np.zeros(width, dtype=np.int64)
    try:
        while not (games.over | retired).all():
            playing = seat_bot[game_of_row, games.to_move]
            actions = np.zeros(width, dtype=np.int64)
            for number, bot in enumerate(bots):
                chosen = playing == number
                if chosen.any():
                    actions[chosen] = bot(games, draws)[chosen]
            done = games.step(actions, active=~retired) if retired.any() else games.step(actions)
            ended = np.flatnonzero(done.terminated)
            for row in ended.tolist():
                game = int(game_of_row[row])
                outcomes[game] = GameSummary(
                    start + game,
                    seed,
                    tuple(setup.lineup[entry] for entry in orders[game]),
                    orders[game],
                    tuple(done.scores[row].tolist()),
                    tuple(np.flatnonzero(done.winners[row]).tolist()),
                    int(turns_before[row] + done.turns[row]),
                    int(moves_before[row] + done.moves[row]),
                )
            if setup.max_moves is not None:  # games past the limit fail, as with the engine
                played = moves_before + games.moves
                cut = np.flatnonzero(~(done.terminated | retired) & (played >= setup.max_moves))
                for row in cut.tolist():
                    game = int(game_of_row[row])
                    seats = tuple(setup.lineup[entry] for entry in orders[game])
                    error = UnfinishedGameError(setup.max_moves, games.state(row))
                    text = f"{type(error).__name__}: {error}"
                    outcomes[game] = GameFailure(start + game, seed, seats, None, error.moves, text)
                ended = np.union1d(ended, cut)
                refill = ended[: count - waiting]
                retired[np.setdiff1d(cut, refill)] = True  # no game is left to start there
            else:
                refill = ended[: count - waiting]
            if refill.size:
                game_of_row[refill] = np.arange(waiting, waiting + refill.size)
                moves_before[refill] = turns_before[refill] = 0
                waiting += refill.size
                games.reset(refill)
            going = np.flatnonzero(~(games.over | retired))
            if waiting == count and NARROWEST <= going.size * 4 <= width:
                # A step costs every row's work, finished or not: the longest games of a
                # chunk go on in a batch of their rows alone (their states carried over).
                moves_before = moves_before[going] + games.moves[going]
                turns_before = turns_before[going] + games.turns[going]
                games, game_of_row, width = (
                    _narrowed(games, going, batch),
                    game_of_row[going],
                    going.size,
                )
                retired = np.zeros(width, dtype=bool)
    except Exception as error:  # noqa: BLE001 (a vectorised bot's error fails the unfinished games)
        text = f"{type(error).__name__}: {error}"
        details = "".join(traceback.format_exception(error))
        for game, outcome in enumerate(outcomes):
            if outcome is None:
                seats = tuple(setup.lineup[entry] for entry in orders[game])
                outcomes[game] = GameFailure(start + game, seed, seats, None, None, text, details)
    return [outcome for outcome in outcomes if outcome is not None]


def _narrowed(
    games: BatchGames, rows: NDArray[np.intp], batch: Callable[[int], BatchGames]
) -> BatchGames:
    """A batch made by ``batch`` holding the games of ``rows`` of ``games``, in that order."""
    narrow = batch(len(rows))
    for row, state in enumerate(games.states(rows)):
        narrow.set_state(row, state)
    return narrow


def time_limited(bot: Bot, limit: float) -> Bot:
    """``bot`` stopped by SIGALRM after ``limit`` seconds.

    Off the main thread, where no signal can interrupt it, the time is checked afterwards.
    """

    def timed(rules: Rules, state: GameState, rng: random.Random) -> Action:
        if threading.current_thread() is not threading.main_thread():
            started = time.perf_counter()
            action = bot(rules, state, rng)
            if time.perf_counter() - started > limit:
                raise MoveTimeLimitError(f"took more than the limit of {limit:g} s for a move")
            return action

        def expired(_signal: int, _frame: object) -> None:
            raise MoveTimeLimitError(f"took more than the limit of {limit:g} s for a move")

        previous = signal.signal(signal.SIGALRM, expired)
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            return bot(rules, state, rng)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    return timed
