"""The compiled twins of the encoding's observation and mask, against the pure reference.

``_observe.observe_into`` and ``_observe.mask_into`` mirror ``_engine.observation`` (named in
``_observe.MIRRORS``; ``tests/engine/test_kernel_mirror.py`` checks the map). Here both
fill the observation of every seat and the mask at every state of random games of every
variant and option set, and must agree value for value.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from pickomino_rules import Phase, available_variants, get_rules, new_game
from pickomino_rules._engine import PURE, compiled_backend, observation
from pickomino_rules.encoding import Encoding
from pickomino_rules.plugin import _compose
from support import option_sets

COMPILED = compiled_backend()
GAMES = 40 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 4  # per case


CASES = [
    (variant, options) for variant in available_variants() for options in option_sets(variant)[:2]
]


@pytest.mark.skipif(COMPILED is None, reason="the compiled kernel was not built")
@pytest.mark.parametrize(("variant", "options"), CASES)
def test_the_compiled_observation_and_mask_are_the_pure_ones(
    variant: str, options: dict[str, object]
) -> None:
    assert COMPILED is not None
    registered = get_rules(variant, options)
    for seed in range(GAMES):
        players = 2 + seed % 3
        # the pure reference runs the pure engine's rules; the twin the compiled engine's
        pure = _compose(registered.modules, registered.name, registered.options, PURE)
        rules = _compose(registered.modules, registered.name, registered.options, COMPILED)
        layout = Encoding.of(rules, players)._layout  # noqa: SLF001 (the layout under test)
        size, actions = len(Encoding.of(rules, players).observation_high), len(layout.numbers)
        rng = random.Random(seed)
        state = new_game(rules, players=players)[1]
        seen = 0
        while state.phase is not Phase.GAME_OVER or seen == 0:
            twin = state.replace()  # (the same values, to be read by each engine's rules)
            for me in range(players):
                expected = [0.0] * size
                observation.observe_into(layout, pure, twin, me, expected)
                found = np.zeros(size, dtype=np.float32)
                COMPILED.observe_into(layout, rules, state, me, found)
                assert found.tolist() == np.array(expected, dtype=np.float32).tolist(), me
            marks = [0] * actions
            observation.mask_into(layout, pure, twin, marks)
            mask = np.zeros(actions, dtype=np.int8)
            COMPILED.mask_into(layout, rules, state, mask)
            assert mask.tolist() == marks
            seen += 1
            if state.phase is Phase.GAME_OVER:
                break
            if state.phase is Phase.ROLL:
                move: object = COMPILED.sample_chance(rules, state, rng)
            else:
                move = rng.choice(COMPILED.legal_actions(rules, state))
            state = COMPILED.apply(rules, state, move)


@pytest.mark.skipif(COMPILED is None, reason="the compiled kernel was not built")
def test_the_twins_refuse_a_buffer_of_the_wrong_kind() -> None:
    assert COMPILED is not None
    rules, state = new_game("classic", players=2)
    layout = Encoding.of(rules, 2)._layout  # noqa: SLF001
    with pytest.raises(TypeError, match="float32"):
        COMPILED.observe_into(layout, rules, state, 0, np.zeros(91, dtype=np.float64))
    with pytest.raises(IndexError):
        COMPILED.observe_into(layout, rules, state, 0, np.zeros(3, dtype=np.float32))
