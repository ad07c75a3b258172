"""Vectorised bots: one decision for every game of a batch at once.

A vectorised bot is a callable ``bot(games, rng) -> actions``: given a
[`BatchGames`][pickomino_rules.batch.BatchGames] and a numpy ``Generator``, it returns one
action number per game (shape (N,)); rows where the game is over may hold anything. It is the
batch form of a [`Bot`][pickomino_rules.game.Bot] of the same name: ``greedy`` chooses exactly
what [`greedy_bot`][pickomino_rules.bots.greedy_bot] chooses in every state (the tests check
it move for move), ``random`` draws uniformly among the legal actions as
[`random_bot`][pickomino_rules.bots.random_bot] does (with other random numbers).

``simulate(..., engine="batch")`` and the vector environment find them by the bot's name
(`get_vector_bot`); register your own with `register_vector_bot`.

Examples:
    >>> import numpy as np
    >>> from pickomino_rules.batch import BatchGames
    >>> games = BatchGames(3, seed=7)
    >>> actions = greedy_actions(games, np.random.default_rng(0))
    >>> bool(games.legal_mask()[np.arange(3), actions].all())
    True
"""

from pickomino_rules.batch._bots import (
    VECTOR_BOTS,
    UnknownVectorBotError,
    VectorBot,
    get_vector_bot,
    greedy_actions,
    random_actions,
    register_vector_bot,
)

__all__ = [
    "VECTOR_BOTS",
    "UnknownVectorBotError",
    "VectorBot",
    "get_vector_bot",
    "greedy_actions",
    "random_actions",
    "register_vector_bot",
]
