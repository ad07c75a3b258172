"""The champion without the cap where nobody holds a tile: the champion of 0.2, to pair with.

``WinModel.champion_value`` caps a turn that moves no tile, while nobody holds one, at a fair
share for the player ahead (see "Games that end" on the docs page "How strong is it"). This
bot plays the shipped model's value without that cap, as 0.2 did, for a paired check of
what the cap changes::

    python -m pickomino_rules.research.paired uncapped_champion:uncapped_champion \\
        --base champion --opponent margin --games 2000 --seed 2026 --seed 3

(run from ``benchmarks/``, or with it on ``PYTHONPATH``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from pickomino_rules.bots import OptimalBot
from pickomino_rules.learned import shipped_win_model

if TYPE_CHECKING:
    import random

    from pickomino_rules import Action, GameState, Rules


@cache
def _bot(rules: Rules, players: int) -> OptimalBot:
    model = shipped_win_model(rules, players)
    if model is None:
        msg = f"no win model ships for {players}-player {rules.name}"
        raise ValueError(msg)
    endgame = model.about.get("endgame")
    if endgame is None:  # as WinModel.champion_value reads the about, without the cap
        return OptimalBot(model.reply_value() if model.about.get("reply") else model.turn_value)
    return OptimalBot(model.endgame_value(endgame["turns"], endgame["tiles"]))


def uncapped_champion(rules: Rules, state: GameState, rng: random.Random) -> Action:
    """The shipped model's champion, with no cap where nobody holds a tile (0.2's)."""
    return _bot(rules, state.players)(rules, state, rng)
