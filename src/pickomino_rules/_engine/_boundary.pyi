from pickomino_rules.rules import Rules

class View:
    rules: Rules
    core_roll_actions: bool
    core_set_aside: bool
    core_stop_total: bool
    core_claims: bool
    core_take_tile: bool
    core_bust: bool
    turn_on_row: bool

def view(rules: Rules) -> View: ...
def on_rows(rules: Rules) -> bool: ...
def declined() -> int: ...
def fallbacks() -> dict[str, int]: ...
def reset_declined() -> None: ...
