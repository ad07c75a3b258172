"""Each finished game written to a CSV or JSON-lines file, for analysis elsewhere."""

from __future__ import annotations

import csv
import io
import json
from pathlib import PurePath
from typing import TYPE_CHECKING, Self

from pickomino_rules.files import AtomicWriter

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from types import TracebackType

    from pickomino_rules.simulation._results import GameSummary


EXPORT_FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
"""Export file suffixes and the format each one means."""


class GameExport:
    """Writes each finished game's summary to a CSV or JSON-lines file, for analysis elsewhere.

    Pass it as ``simulate(..., on_game=export)``. Rows come in game order, one per
    game: CSV columns ``game, seed, turns, moves``, then ``bot_i``, ``worms_i`` and
    ``won_i`` (1 for a winner, tied or not) for each seat ``i``; a JSON line holds
    [`GameSummary.to_dict`][pickomino_rules.simulation.GameSummary.to_dict]. The file is
    written atomically (see [`AtomicWriter`][pickomino_rules.files.AtomicWriter]) when the
    export is closed, also after an interrupted or failed run: what was written is whole
    games.

    Args:
        path: The file; its suffix picks the format (see `EXPORT_FORMATS`).
        players: Players per game (the CSV's columns).

    Raises:
        SaveError: The file cannot be written there.
        ValueError: An unknown suffix.

    Examples:
        >>> import pathlib, tempfile
        >>> from pickomino_rules.simulation import simulate
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "games.csv"
        >>> with GameExport(path, players=2) as export:
        ...     result = simulate(players=2, bots=["greedy", "random"], games=3, on_game=export)
        >>> print(path.read_text().splitlines()[0])
        game,seed,turns,moves,bot_0,bot_1,worms_0,worms_1,won_0,won_1
        >>> len(path.read_text().splitlines())
        4
    """

    def __init__(self, path: str | Path, players: int) -> None:
        suffix = PurePath(path).suffix.lower()
        if suffix not in EXPORT_FORMATS:
            msg = f"cannot tell the export format of {path} (use {', '.join(EXPORT_FORMATS)})"
            raise ValueError(msg)
        self.format = EXPORT_FORMATS[suffix]
        self.players = players
        self._file = AtomicWriter(path)
        if self.format == "csv":
            seats = range(players)
            self._row(
                ["game", "seed", "turns", "moves"]
                + [f"{column}_{seat}" for column in ("bot", "worms", "won") for seat in seats]
            )

    def __call__(self, game: GameSummary) -> None:
        """Write one game."""
        if self.format == "jsonl":
            self._file.write(json.dumps(game.to_dict(), separators=(",", ":")) + "\n")
            return
        self._row(
            [game.index, game.seed, game.turns, game.moves, *game.seats, *game.scores]
            + [int(seat in game.winners) for seat in range(self.players)]
        )

    def _row(self, values: Sequence[object]) -> None:
        line = io.StringIO()
        csv.writer(line, lineterminator="\n").writerow(values)
        self._file.write(line.getvalue())

    def close(self) -> None:
        """Save the file: it replaces any earlier one."""
        self._file.commit()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
