"""The ``pickomino`` command line: play, simulate, replay, list variants.

Built with click (commands, options, help) and rich (colours, tables, progress).
Every error a user can cause ends in one ``error: ...`` line on stderr and a
non-zero exit code, never a traceback: 1 for a failure (a bad file, an illegal record, a
failed save, a failed game in a simulation), 2 for a usage error (a bad argument, or a game
the arguments name that the rules refuse: players, options, a bot that does not play it),
130 when stopped by Ctrl-C or the end of input, 143 when stopped by SIGTERM.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from pickomino_rules import __version__
from pickomino_rules.errors import InvalidSetupError, MissingExtraError, PickominoError

try:
    import click
    import rich  # noqa: F401 (the extra's other half: checked here, used by the commands)
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the pickomino command", "cli") from None

from pickomino_rules.cli._analyse import analyse
from pickomino_rules.cli._common import EXIT_USAGE, fail, stop_code, terminate_as_interrupt
from pickomino_rules.cli._info import info
from pickomino_rules.cli._play import play
from pickomino_rules.cli._replay import replay
from pickomino_rules.cli._serve import serve
from pickomino_rules.cli._simulate import simulate
from pickomino_rules.cli._tournament import tournament
from pickomino_rules.cli._variants import list_variants
from pickomino_rules.terminal import render_table

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["cli", "main", "render_table"]

_HELP = """Pickomino (Heckmeck am Bratwurmeck) in the terminal: play, simulate, replay.

\b
Examples:
  pickomino play --players 3                  you (player 0) against two greedy bots
  pickomino play --watch --seed 7             bots only, turn by turn
  pickomino simulate --bots greedy,random --games 1000 --jobs 2
  pickomino tournament --games 1000 --jobs 2  every bot against every other, rated
  pickomino replay game.json
  pickomino analyse game.json                 the cost of every move, by the turn solver
  pickomino serve                             play and get hints in the browser
  pickomino variants                          variants and their options
  pickomino info                              version, engine, extras, variants, bots
"""
# "\b" (a backspace character) keeps click from re-wrapping the examples into one paragraph.


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, help=_HELP)
@click.version_option(__version__, prog_name="pickomino")
def cli() -> None:
    """The ``pickomino`` command group: play, simulate, replay, analyse and variants."""


for command in (play, simulate, tournament, replay, analyse, serve, list_variants, info):
    cli.add_command(command)


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point: run the CLI; turn errors into one line."""
    try:
        with terminate_as_interrupt():
            code = cli.main(
                args=list(argv) if argv is not None else None,
                prog_name="pickomino",
                standalone_mode=False,
            )
    except (click.exceptions.Abort, KeyboardInterrupt):
        fail("stopped", stop_code())
    except click.UsageError as error:
        fail(error.format_message(), EXIT_USAGE)
    except click.ClickException as error:
        fail(error.format_message(), error.exit_code)
    except InvalidSetupError as error:  # the arguments name a game the rules refuse
        fail(str(error), EXIT_USAGE)
    except (PickominoError, ValueError, OSError) as error:
        fail(str(error))
    sys.exit(code if isinstance(code, int) else 0)
