"""pickomino_rules: the rules of Pickomino (Heckmeck am Bratwurmeck) as a library.

An immutable game state, pure transitions with explicit chance, and variants as
plug-ins composed from rule hooks.

Examples:
    >>> import random
    >>> from pickomino_rules import new_game, play, result
    >>> from pickomino_rules.bots import greedy_bot
    >>> rules, state = new_game("classic", players=3)
    >>> final = play(rules, state, greedy_bot, random.Random(2026))
    >>> sum(len(stack) for stack in final.stacks) + len(final.face_down)
    16
"""

from pickomino_rules.actions import Action, AgainstPlayer, Roll, Steal, Stop, Take
from pickomino_rules.dice import WHITE, ChanceTable, DieKind, Face, RollOutcome, chance_table
from pickomino_rules.errors import (
    ArgumentTypeError,
    CompositionError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    InvalidRollError,
    InvalidSetupError,
    InvalidStateError,
    PickominoError,
    RulesMismatchError,
    UnknownVariantError,
)
from pickomino_rules.game import (
    MAX_GAME_MOVES,
    Bot,
    Move,
    UnfinishedGameError,
    apply,
    chance_outcomes,
    claim_of_stop,
    decisions,
    is_terminal,
    legal_actions,
    new_game,
    parse_move,
    play,
    playout,
    sample_chance,
    step,
    stop_claim,
    stop_claims,
    stop_outcomes,
)
from pickomino_rules.plugin import Option, RuleModule, Variant, compose
from pickomino_rules.registry import (
    available_variants,
    get_rules,
    get_variant,
    register_variant,
    unregister_variant,
)
from pickomino_rules.result import GameResult, result, scores
from pickomino_rules.rules import Components, Rules
from pickomino_rules.state import Claim, GameState, Layout, PartKey, Phase
from pickomino_rules.validation import validate

__version__ = "0.2.0.dev0"
"""The library's version: the one source (pyproject reads it; records store it)."""

__all__ = [
    "MAX_GAME_MOVES",
    "WHITE",
    "Action",
    "AgainstPlayer",
    "ArgumentTypeError",
    "Bot",
    "ChanceTable",
    "Claim",
    "Components",
    "CompositionError",
    "DieKind",
    "Face",
    "GameResult",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionError",
    "InvalidRollError",
    "InvalidSetupError",
    "InvalidStateError",
    "Layout",
    "Move",
    "Option",
    "PartKey",
    "Phase",
    "PickominoError",
    "Roll",
    "RollOutcome",
    "RuleModule",
    "Rules",
    "RulesMismatchError",
    "Steal",
    "Stop",
    "Take",
    "UnfinishedGameError",
    "UnknownVariantError",
    "Variant",
    "apply",
    "available_variants",
    "chance_outcomes",
    "chance_table",
    "claim_of_stop",
    "compose",
    "decisions",
    "get_rules",
    "get_variant",
    "is_terminal",
    "legal_actions",
    "new_game",
    "parse_move",
    "play",
    "playout",
    "register_variant",
    "result",
    "sample_chance",
    "scores",
    "step",
    "stop_claim",
    "stop_claims",
    "stop_outcomes",
    "unregister_variant",
    "validate",
]
