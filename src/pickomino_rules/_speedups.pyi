# Types of the compiled hot path (_speedups.pyx); see game._use_compiled.

import random
from collections.abc import Callable

from pickomino_rules.actions import Action
from pickomino_rules.dice import RollOutcome
from pickomino_rules.rules import Rules
from pickomino_rules.state import Claim, GameState

def legal_actions(rules: Rules, state: GameState) -> tuple[Action | RollOutcome, ...]: ...
def apply(rules: Rules, state: GameState, move: Action | RollOutcome) -> GameState: ...
def sample_chance(rules: Rules, state: GameState, rng: random.Random) -> RollOutcome: ...
def stop_claims(rules: Rules, state: GameState) -> tuple[Claim, ...]: ...
def takes(rules: Rules) -> bool: ...
def bind(
    pure_legal: Callable[..., object],
    pure_apply: Callable[..., object],
    pure_sample: Callable[..., object],
    pure_claims: Callable[..., object],
    pure_decide_actions: Callable[..., object],
    stop_claim: Callable[..., object],
) -> bool: ...
