"""Learned bots, played with numpy alone: a trained policy and the game-playing champion.

A [`PolicyBot`][pickomino_rules.learned.PolicyBot] is a policy network read from a ``.npz``
file: the observation of the player to move in, the best legal action out. Playing needs
numpy only (the ``solver`` extra); training one needs the ``train`` extra (sb3-contrib and
PyTorch): ``python -m pickomino_rules.learned.train`` (see the docs page "Train an agent").

The package ships two, played by the bot ``ppo``, each in its own game: MaskablePPO trained
against ``greedy`` in 2-player classic, and in 2-player extended a network that first imitated
``margin`` (behaviour cloning and DAgger), then trained on with MaskablePPO against ``greedy``.
``ppo`` plays those two games only ([`bot_supports`][pickomino_rules.bots.bot_supports] says
so; [`shipped_policy`][pickomino_rules.learned.shipped_policy] finds a game's policy); how each
was made is in its ``about``.

The ``champion`` bot plays for the game, not the turn: it solves each turn exactly
([`solve_turn`][pickomino_rules.solver.solve_turn]) for the chance to win the game that a
[`WinModel`][pickomino_rules.learned.WinModel] estimates for the table the turn leaves. Its
models, fitted by self-play with scikit-learn (``python -m pickomino_rules.learned.fit``, the
``fit`` extra), ship for 2-, 3- and 4-player classic and extended (see the docs page
"How strong is it").

Examples:
    >>> from pickomino_rules.learned import load_policy
    >>> bot = load_policy()
    >>> bot.variant, bot.players, bot.about["seed"]
    ('classic', 2, 1)
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from pickomino_rules.bots import OptimalBot
from pickomino_rules.learned._policy import InvalidPolicyError, PolicyBot
from pickomino_rules.learned._value import InvalidWinModelError, WinModel, table_features
from pickomino_rules.validation import check_shape

if TYPE_CHECKING:
    import random

    from pickomino_rules.actions import Action
    from pickomino_rules.game import Move
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = [
    "SHIPPED_POLICY",
    "InvalidPolicyError",
    "InvalidWinModelError",
    "PolicyBot",
    "WinModel",
    "champion_bot",
    "champion_chances",
    "load_policy",
    "load_win_model",
    "ppo_bot",
    "shipped_policy",
    "shipped_win_model",
    "table_features",
]

SHIPPED_POLICY = "ppo-classic-2.npz"
"""The file name of the shipped policy, inside this package."""


@cache
def load_policy(name: str = SHIPPED_POLICY) -> PolicyBot:
    """A policy shipped in this package, by file name (``ppo``'s classic one by default).

    Raises:
        FileNotFoundError: No such file in the package.
    """
    with resources.as_file(resources.files(__name__) / name) as path:
        return PolicyBot.load(path)


@cache
def _shipped_policies() -> tuple[PolicyBot, ...]:
    files = resources.files(__name__)
    names = sorted(f.name for f in files.iterdir() if f.name.startswith("ppo-"))
    return tuple(load_policy(name) for name in names)


def shipped_policy(rules: Rules, players: int) -> PolicyBot | None:
    """The shipped policy trained for exactly this game (rules, options, players), if any.

    Examples:
        >>> from pickomino_rules import get_rules
        >>> shipped_policy(get_rules("extended"), 2).about["opponent"]
        'greedy'
        >>> shipped_policy(get_rules("classic"), 3) is None
        True
    """
    return next((p for p in _shipped_policies() if p.supports(rules, players)), None)


def ppo_bot(rules: Rules, state: GameState, rng: random.Random) -> Action:
    """The shipped policy of this game (2-player classic or extended), loaded at its first move.

    Raises:
        InvalidPolicyError: No policy is shipped for this game.
        InvalidStateError: The state is malformed.
    """
    check_shape(rules, state)
    policy = shipped_policy(rules, state.players)
    if policy is None:
        for other in _shipped_policies():
            if (other.variant, other.players) == (rules.name, state.players):
                other(rules, state, rng)  # raises, naming the options that differ
        shipped = " and ".join(f"{p.players}-player {p.variant}" for p in _shipped_policies())
        msg = f"the shipped policies play {shipped}, not {state.players}-player {rules.name}"
        raise InvalidPolicyError(msg)
    return policy(rules, state, rng)


def _supports(rules: Rules, players: int) -> bool:
    return shipped_policy(rules, players) is not None


ppo_bot.supports = _supports  # type: ignore[attr-defined]


def load_win_model(variant: str, players: int) -> WinModel:
    """The win model shipped for ``players``-player ``variant`` (fitted with default options).

    Raises:
        InvalidWinModelError: None is shipped for that game.
    """
    models = _shipped_models()
    found = next((m for m in models if (m.variant, m.players) == (variant, players)), None)
    if found is None:
        shipped = ", ".join(f"{m.variant}-{m.players}" for m in models)
        msg = f"no win model is shipped for {players}-player {variant} (shipped: {shipped})"
        raise InvalidWinModelError(msg)
    return found


@cache
def _shipped_models() -> tuple[WinModel, ...]:
    files = resources.files(__name__)
    names = sorted(f.name for f in files.iterdir() if f.name.startswith("champion-"))
    models = []
    for name in names:
        with resources.as_file(files / name) as path:
            models.append(WinModel.load(path))
    return tuple(models)


def shipped_win_model(rules: Rules, players: int) -> WinModel | None:
    """The shipped win model fitted on exactly this game (rules, options, players), if any."""
    return next((m for m in _shipped_models() if m.supports(rules, players)), None)


def champion_chances(rules: Rules, state: GameState) -> dict[Move, float] | None:
    """The champion's chance to win the game after each legal move of this turn's decision.

    Each move is valued as the champion plays the rest of the turn, by the shipped
    [`WinModel`][pickomino_rules.learned.WinModel] of this game (what hints, the advisor and
    the analysis show beside each move's expected worms). None where no model ships.

    Raises:
        NoTurnDecisionError: ``state`` is no decision of a turn (the dice are to be rolled,
            or the game is over).

    Examples:
        >>> from pickomino_rules import new_game, apply, RollOutcome
        >>> rules, state = new_game("classic", players=2)
        >>> state = apply(rules, state, RollOutcome.parse("1134455w"))
        >>> chances = champion_chances(rules, state)
        >>> sorted(str(move) for move in chances), all(0 < p < 1 for p in chances.values())
        (['take 1', 'take 3', 'take 4', 'take 5', 'take w'], True)
    """
    from pickomino_rules.solver import solve_turn  # noqa: PLC0415 (the solver extra's numpy)

    model = shipped_win_model(rules, state.players)
    if model is None:
        return None
    return solve_turn(rules, state, model.champion_value()).action_values()


@cache
def _champion_of(model: WinModel) -> OptimalBot:
    """The champion for ``model``: it plays for the turn value its model's about names."""
    return OptimalBot(model.champion_value())


def champion_bot(rules: Rules, state: GameState, rng: random.Random) -> Action:
    """Plays each turn for the best chance of winning the game (the ``champion`` bot).

    The exact turn solver maximises the shipped [`WinModel`][pickomino_rules.learned.WinModel]'s
    chance to win after the turn, or after a few more turns played exactly near the end of
    the game, as the model's ``about`` says
    ([`WinModel.champion_value`][pickomino_rules.learned.WinModel.champion_value]): in
    2-player classic it looks four turns ahead when two tiles or fewer are left on the grill,
    in 2-player extended two turns with two tiles left and three with one.
    It plays the games a model is shipped for
    ([`bot_supports`][pickomino_rules.bots.bot_supports] says which).

    Raises:
        InvalidWinModelError: No model is shipped for this game.
        InvalidStateError: The state is malformed.
    """
    check_shape(rules, state)
    model = shipped_win_model(rules, state.players)
    if model is None:
        load_win_model(rules.name, state.players)  # raises, naming what is shipped
        msg = f"the shipped {rules.name} model was fitted with other options"
        raise InvalidWinModelError(msg)
    return _champion_of(model)(rules, state, rng)


def _champion_supports(rules: Rules, players: int) -> bool:
    return shipped_win_model(rules, players) is not None


champion_bot.supports = _champion_supports  # type: ignore[attr-defined]
