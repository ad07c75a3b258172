"""`pickomino variants`: the registered variants and their options."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from pickomino_rules.cli._common import (
    new_console,
)
from pickomino_rules.registry import available_variants, get_variant
from pickomino_rules.strict_json import jsonable

if TYPE_CHECKING:
    from rich.console import Console

    from pickomino_rules.plugin import Option


@click.command("variants")
def list_variants() -> None:
    """List the registered variants and their options, with the values each accepts."""
    console = new_console()
    variants = [(name, get_variant(name)) for name in available_variants()]
    shared = (
        [
            option
            for option in variants[0][1].options
            if all(option in variant.options for _, variant in variants)
        ]
        if len(variants) > 1
        else []
    )
    if shared:
        console.print("[bold]options of every variant[/]")
        for option in shared:
            _print_option(console, option)
    for name, variant in variants:
        console.print(f"[bold]{name}[/]: {variant.doc.strip().splitlines()[0]}")
        own = [option for option in variant.options if option not in shared]
        for option in own:
            _print_option(console, option)
        if shared and not own:
            console.print("  (the options of every variant)", style="dim")


def _print_option(console: Console, option: Option) -> None:
    default = json.dumps(jsonable(option.default), separators=(",", ":"))  # pastes as one word
    console.print(f"  -o {option.name}={default}  ({option.rule}) {option.doc}", markup=False)
    if option.range is not None:
        console.print(f"      values: {option.range.describe()}", style="dim", markup=False)
