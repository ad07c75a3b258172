"""`pickomino info`: the version, Python, the engine in use, extras, variants and bots."""

from __future__ import annotations

import json

import click

from pickomino_rules.about import installation


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead.")
def info(as_json: bool) -> None:
    """The version, the engine in use, extras, variants and bots.

    The engine is the compiled kernel or the pure-Python reference, with the reason; each
    variant and bot says where it comes from. Paste it into a bug report.
    """
    report = installation()
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
        return
    for line in report.lines():
        click.echo(line)
