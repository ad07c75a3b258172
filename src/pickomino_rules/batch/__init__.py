"""Thousands of games in lockstep with numpy, step for step the reference rules.

[`BatchGames`][pickomino_rules.batch.BatchGames] holds N games of one variant (``classic``,
``extended``, ``extrawurm`` with any options, 2 to 7 players, or yours) as a struct of arrays:
the grill, the stacks, the dice, the phase, the player to move and the variant's parts of every
game. One call to [`step`][pickomino_rules.batch.BatchGames.step] plays one decision in every
game, given as numbers of the action space of [`Encoding`][pickomino_rules.encoding.Encoding];
the dice that follow are rolled at once, from one seeded numpy ``Generator`` for the whole
batch (each die uniform over its six sides, so every roll has its exact probability). After a
step every game waits for a decision or is over.

It runs the rules' own hooks, each over many games at once: every rule module brings a
vectorised twin ([`pickomino_rules.batch_plugin`][pickomino_rules.batch_plugin]). Rules with a
module that brings none play per row through the reference engine instead, more slowly, as
[`BatchGames.path`][pickomino_rules.batch.BatchGames.path] says (with a
[`BatchPerRowWarning`][pickomino_rules.batch.BatchPerRowWarning] naming the module). For rules
no module changes (plain classic) a compiled loop plays the core turn. It is a declared mirror
of the reference engine ([`apply`][pickomino_rules.game.apply]), which stays the definition:
the test suite drives both side by side with the same dice and actions and compares every
state, every legal set and every result; [`check_twins`][pickomino_rules.batch.check_twins]
does the same for your variant. Any row converts to a
[`GameState`][pickomino_rules.state.GameState] and back
([`state`][pickomino_rules.batch.BatchGames.state],
[`set_state`][pickomino_rules.batch.BatchGames.set_state]).

Examples:
    >>> import numpy as np
    >>> from pickomino_rules.batch import BatchGames
    >>> games = BatchGames(4, players=2, seed=1)
    >>> games.phases.tolist()  # every game has rolled and waits for a face to be taken
    ['choose', 'choose', 'choose', 'choose']
    >>> mask = games.legal_mask()
    >>> actions = np.argmax(mask, axis=1)  # the first legal action of each game
    >>> outcome = games.step(actions)
    >>> games.phases.tolist()
    ['decide', 'decide', 'decide', 'decide']
    >>> str(games.state(0).phase), games.state(0).total == int(games.totals[0])
    ('Phase.DECIDE', True)
"""

from pickomino_rules.batch._check import check_twins
from pickomino_rules.batch._engine import BatchGames
from pickomino_rules.batch._results import BatchArrays, BatchStep
from pickomino_rules.batch._rules import (
    BatchActionError,
    BatchArgumentError,
    BatchPerRowWarning,
    BatchRulesError,
    batch_rules,
)
from pickomino_rules.batch._tables import (  # noqa: F401 (kept where they were, see below)
    ACT_ROLL,
    ACT_STEAL,
    ACT_STOP,
    CHOOSE,
    DECIDE,
    DICE,
    FIRST_TILE,
    GAME_OVER,
    PHASE_CHOOSE,
    PHASE_DECIDE,
    PHASE_GAME_OVER,
    PHASE_ROLL,
    ROLL,
    TILES,
)

__all__ = [
    "BatchActionError",
    "BatchArgumentError",
    "BatchArrays",
    "BatchGames",
    "BatchPerRowWarning",
    "BatchRulesError",
    "BatchStep",
    "batch_rules",
    "check_twins",
]
# Importable from here as before, though not listed: the phase codes and their deprecated
# names, the action numbers of the classic encoding and the classic set-up's sizes.
