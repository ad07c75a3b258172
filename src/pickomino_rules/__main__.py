"""``python -m pickomino_rules`` and the ``pickomino`` command: the CLI, or why it is missing.

The command line needs the ``cli`` extra (click and rich). Without it, the command says
which extra to install in one line instead of failing with a traceback.
"""

from __future__ import annotations

import sys

from pickomino_rules.errors import MissingExtraError

__all__ = ["main"]


def main() -> None:
    """Run the ``pickomino`` command line."""
    try:
        from pickomino_rules.cli import main as run  # noqa: PLC0415 (it needs the extra)
    except MissingExtraError as error:
        print(f"error: {error}", file=sys.stderr)  # noqa: T201 (click is what is missing)
        sys.exit(1)
    run()


if __name__ == "__main__":
    main()
