import random
from collections.abc import Mapping
from typing import Any

from pickomino_rules._engine.steps import Move
from pickomino_rules.actions import Action
from pickomino_rules.dice import RollOutcome
from pickomino_rules.rules import Rules
from pickomino_rules.state import Claim, GameState

def legal_actions(rules: Rules, state: GameState) -> tuple[Move, ...]: ...
def apply(rules: Rules, state: GameState, move: Move) -> GameState: ...
def sample_chance(rules: Rules, state: GameState, rng: random.Random) -> RollOutcome: ...
def stop_claims(rules: Rules, state: GameState) -> tuple[Claim, ...]: ...
def stop_outcomes(rules: Rules, state: GameState) -> tuple[tuple[Action, GameState], ...]: ...

MIRRORS: Mapping[str, Any]
ON_ROWS: Mapping[str, str]
