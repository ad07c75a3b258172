"""Check an installed pickomino_rules (a wheel or an sdist's build), as a user would get it.

Run with the interpreter of the environment to check, from anywhere:

    python .ci/check_install.py --engine compiled   # or pure

It fails (exit 1, one line a problem) unless the package comes from that environment's
site-packages, its version agrees with the distribution's metadata, the engine in use is the
one expected, the files a wheel must carry are there (the variants, py.typed, the kernel's
.pyi, the licence) and games of every built-in variant play to the end.
"""

from __future__ import annotations

import argparse
import random
import sys
from importlib import metadata
from pathlib import Path


def main() -> int:
    """Check the installation; the exit code says whether it passed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=("compiled", "pure"), required=True)
    args = parser.parse_args()

    import pickomino_rules
    from pickomino_rules import new_game, play, result
    from pickomino_rules.about import installation
    from pickomino_rules.bots import greedy_bot
    from pickomino_rules.records import GameRecord

    problems = []
    home = Path(pickomino_rules.__file__).resolve().parent
    if "site-packages" not in home.parts:
        problems.append(f"pickomino_rules is imported from {home}, not from an installation")
    distribution = metadata.distribution("pickomino_rules")
    if distribution.version != pickomino_rules.__version__:
        problems.append(
            f"metadata says {distribution.version}, __version__ {pickomino_rules.__version__}"
        )
    info = installation()
    if info.engine != args.engine:
        problems.append(f"engine {info.engine} ({info.engine_reason}), expected {args.engine}")
    files = {str(file) for file in distribution.files or ()}
    wanted = (
        "pickomino_rules/py.typed",
        "pickomino_rules/_engine/_kernel.pyi",
        "pickomino_rules/variants/extended.py",
        "pickomino_rules/variants/specialists/weasel.py",
    )
    problems.extend(f"the installation lacks {file}" for file in wanted if file not in files)
    if not any(Path(file).name == "LICENSE" for file in files):
        problems.append("the installation carries no LICENSE")
    for variant in ("classic", "extended", "extrawurm"):
        rules, state = new_game(variant, players=3)
        final = play(rules, state, greedy_bot, random.Random(1))
        print(variant, result(rules, final))
    record = GameRecord.play("extended", 2, bots=[greedy_bot, greedy_bot], seed=7)
    if record.library != pickomino_rules.__version__:
        problems.append(f"a record stores version {record.library}")
    print("\n".join(info.lines()))
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
