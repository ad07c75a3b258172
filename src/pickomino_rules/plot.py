"""Charts of a simulation: win rates with confidence intervals, and score distributions.

Needs the ``plot`` extra (matplotlib). The command line draws the same chart with
``pickomino simulate --plot FILE``.

Examples:
    >>> from pickomino_rules.simulation import simulate
    >>> outcome = simulate("classic", 2, bots=("greedy", "random"), games=40)
    >>> figure = plot_simulation(outcome)
    >>> [axes.get_title() for axes in figure.axes]
    ['Win rate (95% interval)', 'Final worms']
"""

from __future__ import annotations

import io
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from pickomino_rules.errors import MissingExtraError, PickominoError
from pickomino_rules.files import AtomicWriter, check_save_target

try:
    import matplotlib as mpl
    from matplotlib.figure import Figure
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("charts of simulations", "plot") from None

if TYPE_CHECKING:
    from pickomino_rules.simulation import SimulationResult

__all__ = ["PLOT_FORMATS", "PlotError", "check_plot_path", "plot_simulation", "save_plot"]

PLOT_FORMATS = (".png", ".svg", ".pdf")
"""The file types a chart is saved as, by the file name's suffix."""

_COLOURS = ("#1b6ca8", "#d1495b", "#edae49", "#00798c", "#66a182", "#8d6a9f", "#2e4057")


class PlotError(PickominoError, ValueError):
    """A chart that cannot be drawn or saved as asked: a file type not in `PLOT_FORMATS`."""


def check_plot_path(path: str | Path) -> Path:
    """Check, before the work that fills it, that a chart can be saved at ``path``.

    Raises:
        PlotError: The suffix is not one of `PLOT_FORMATS`.
        SaveError: The folder is missing or not writable.
    """
    if PurePath(path).suffix.lower() not in PLOT_FORMATS:
        msg = f"{str(path)!r} is not a {', '.join(PLOT_FORMATS)} file"
        raise PlotError(msg)
    return check_save_target(path)


def plot_simulation(outcome: SimulationResult) -> Figure:
    """Draw a simulation's results as a matplotlib figure of two panels.

    Left, each line-up entry's win rate with its 95% Wilson interval and a dashed line at
    an even share (one in ``players``); right, the distribution of each entry's final
    worms, with its mean marked. The figure is not shown: display it in a notebook,
    or save it with `save_plot`.

    Args:
        outcome: What [`simulate`][pickomino_rules.simulation.simulate] returned.
    """
    figure = Figure(figsize=(10, 4.2), layout="constrained")
    wins, scores = figure.subplots(1, 2, width_ratios=(2, 3))
    entries = range(len(outcome.bots))
    labels = _labels(outcome.bots)
    colours = [_COLOURS[entry % len(_COLOURS)] for entry in entries]

    rates = [outcome.win_rate(entry) for entry in entries]
    intervals = [outcome.win_interval(entry) for entry in entries]
    # max(0, ...): at a rate of 0 or 1 the interval's end differs by a rounding error
    below = [max(0.0, rate - low) for rate, (low, _) in zip(rates, intervals, strict=True)]
    above = [max(0.0, high - rate) for rate, (_, high) in zip(rates, intervals, strict=True)]
    wins.bar(labels, rates, color=colours, yerr=[below, above], capsize=6, alpha=0.85)
    wins.axhline(1 / outcome.players, color="grey", linestyle="--", linewidth=1)
    wins.annotate(
        "even share",
        (1, 1 / outcome.players),
        xycoords=("axes fraction", "data"),
        xytext=(-4, 3),
        textcoords="offset points",
        ha="right",
        color="grey",
    )
    wins.set_ylim(0, min(1.0, max(high for _, high in intervals) * 1.15 + 0.02))
    wins.yaxis.set_major_formatter(mpl.ticker.PercentFormatter(1.0, decimals=0))
    wins.set_title("Win rate (95% interval)")
    wins.tick_params(axis="x", labelrotation=20 if len(labels) > 3 else 0)

    for entry in entries:
        shares = outcome.score_distribution(entry)
        if not shares:
            continue
        worms = range(min(shares), max(shares) + 1)
        scores.step(
            list(worms),
            [shares.get(w, 0.0) for w in worms],
            where="mid",
            color=colours[entry],
            linewidth=1.8,
            label=labels[entry],
        )
        scores.axvline(outcome.mean_score(entry), color=colours[entry], linestyle=":")
    scores.set_title("Final worms")
    scores.set_xlabel("worms at the end of a game (dotted: mean)")
    scores.set_ylabel("share of games")
    scores.yaxis.set_major_formatter(mpl.ticker.PercentFormatter(1.0, decimals=0))
    scores.legend(frameon=False)

    played = (
        f"{outcome.games} games"
        if outcome.complete
        else (f"{outcome.games} of {outcome.requested} games")
    )
    figure.suptitle(
        f"{outcome.variant}, {outcome.players} players, {played}, seed {outcome.seed}, "
        f"seats {outcome.seating}"
    )
    return figure


def _labels(bots: tuple[str, ...]) -> list[str]:
    """The bots' names, numbered where one bot holds several entries of the line-up."""
    return [
        f"{name} #{bots[: entry + 1].count(name)}" if bots.count(name) > 1 else name
        for entry, name in enumerate(bots)
    ]


def save_plot(outcome: SimulationResult, path: str | Path) -> Path:
    """Draw `plot_simulation`'s chart and save it; the suffix picks the format.

    The file is replaced atomically: a failed save leaves an earlier file whole.

    Returns:
        The path saved to.

    Raises:
        PlotError: The suffix is not one of `PLOT_FORMATS`.
        SaveError: The file cannot be written.
    """
    target = check_plot_path(path)
    drawn = io.BytesIO()
    with mpl.rc_context({"svg.fonttype": "none"}):  # SVG text stays text: searchable, smaller
        plot_simulation(outcome).savefig(drawn, format=target.suffix.lower()[1:], dpi=120)
    with AtomicWriter(target, binary=True) as out:
        out.write(drawn.getvalue())
    return target
