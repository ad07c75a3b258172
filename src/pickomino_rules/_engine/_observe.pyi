from collections.abc import Mapping
from typing import Any

from pickomino_rules._engine.observation import Layout
from pickomino_rules.rules import Rules
from pickomino_rules.state import GameState

def observe_into(
    layout: Layout,
    rules: Rules,
    state: GameState,
    me: int,
    out: Any,  # noqa: ANN401
) -> None: ...
def mask_into(layout: Layout, rules: Rules, state: GameState, out: Any) -> None: ...  # noqa: ANN401

MIRRORS: Mapping[str, Any]
