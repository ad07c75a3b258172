"""The core runs on attrs and cattrs alone; every other part names the extra it needs.

Each test runs Python in a fresh process in which the extras' packages cannot be imported
(``sys.modules[name] = None`` makes ``import name`` raise ImportError), as on a machine where
only ``pip install pickomino_rules`` ran. CI also installs the core alone into an empty
virtual environment and plays a game there (``.ci/run``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from pickomino_rules.errors import install_command

ROOT = Path(__file__).resolve().parents[2]
EXTRAS_PACKAGES = (
    "numpy",
    "click",
    "rich",
    "matplotlib",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "starlette",
    "uvicorn",
)
BLOCK = f"import sys; sys.modules.update(dict.fromkeys({EXTRAS_PACKAGES!r}))\n"


def run_without_extras(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 (our own interpreter and code)
        [sys.executable, "-c", BLOCK + textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_core_plays_records_and_simulates_without_any_extra() -> None:
    done = run_without_extras(
        """
        import random
        from pickomino_rules import new_game, play, result
        from pickomino_rules.bots import greedy_bot, random_bot
        from pickomino_rules.positions import Position
        from pickomino_rules.records import GameRecord
        from pickomino_rules.simulation import simulate
        from pickomino_rules.story import turns
        for variant in ("classic", "extended"):
            rules, state = new_game(variant, players=3)
            final = play(rules, state, [greedy_bot, random_bot, greedy_bot], random.Random(1))
            print(variant, result(rules, final).winners)
        record = GameRecord.play("extended", 2, bots=[greedy_bot, random_bot], seed=7)
        assert GameRecord.from_json(record.to_json()) == record
        assert record.final_state().phase.name == "GAME_OVER"
        rules, state = record.initial()
        assert Position.parse(str(Position(rules, state))).state == state
        outcome = simulate("classic", 2, bots=("greedy", "random"), games=4)
        print("simulated", outcome.games)
        for name in ("numpy", "click", "rich", "matplotlib"):
            assert sys.modules[name] is None, name
        """
    )
    assert done.returncode == 0, done.stderr
    assert "simulated 4" in done.stdout


@pytest.mark.parametrize(
    ("code", "extra"),
    [
        ("import pickomino_rules.solver", "solver"),
        ("import pickomino_rules.analysis", "solver"),
        ("import pickomino_rules.encoding", "rl"),
        ("import pickomino_rules.envs.gymnasium", "rl"),
        ("import pickomino_rules.envs.gymnasium_vector", "rl"),
        ("import pickomino_rules.envs.pettingzoo", "rl"),
        ("import pickomino_rules.envs.openspiel", "openspiel"),
        ("import pickomino_rules.batch", "batch"),
        ("import pickomino_rules.batch_bots", "batch"),
        ("import pickomino_rules.cli", "cli"),
        ("import pickomino_rules.terminal", "cli"),
        ("import pickomino_rules.plot", "plot"),
        ("import pickomino_rules.web", "web"),
        (
            (
                "from pickomino_rules import new_game, play\n"
                "from pickomino_rules.bots import optimal_bot\n"
                "import random\n"
                "play(*new_game('classic', players=2), optimal_bot, random.Random(0))"
            ),
            "solver",
        ),
    ],
)
def test_a_part_without_its_extra_names_the_extra(code: str, extra: str) -> None:
    attempt = "\n".join(
        [
            "from pickomino_rules.errors import MissingExtraError",
            "try:",
            textwrap.indent(code, "    "),
            "except MissingExtraError as error:",
            "    assert isinstance(error, ImportError)",
            "    print(error.extra, error)",
        ]
    )
    done = run_without_extras(attempt)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{extra} "), done.stdout
    assert install_command(extra) in done.stdout  # a command that adds it to this install


def test_the_command_without_its_extra_says_what_to_install() -> None:
    done = run_without_extras(
        "import runpy; runpy.run_module('pickomino_rules', run_name='__main__')", "play"
    )
    assert done.returncode == 1
    assert done.stderr == (
        f"error: the pickomino command needs the 'cli' extra: {install_command('cli')}\n"
    )
    assert "Traceback" not in done.stderr


def test_the_declared_dependencies_are_the_core_and_the_documented_extras() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {re.split(r"[<>=\[ ]", requirement)[0] for requirement in project["dependencies"]}
    assert core == {"attrs", "cattrs"}
    page = (ROOT / "docs" / "install.md").read_text()
    assert "needs only `attrs` and `cattrs`" in page
    for extra in project["optional-dependencies"]:
        assert f"| `{extra}` |" in page, f"docs/install.md does not list the {extra!r} extra"


def test_no_page_or_message_tells_users_to_install_from_the_package_index() -> None:
    """The package is not on the index: 'pip install "pickomino_rules[x]"' would fail."""
    from_index = re.compile(r"install [\"']?pickomino_rules\[")
    texts = [*(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]
    texts += [*(ROOT / "src").rglob("*.py"), *(ROOT / "variants").rglob("*.py")]
    # errors.install_command says it only where pip recorded an install from an index
    texts.remove(ROOT / "src" / "pickomino_rules" / "errors.py")
    found = [str(path) for path in texts if from_index.search(path.read_text())]
    assert not found, f"these tell users to install from the package index: {found}"


class _Installed:
    """A distribution as importlib.metadata gives it, with a PEP 610 record (or none).

    A source tree's own egg-info (no record) may stand first on the path: the installed one
    with the record still says where the package came from.
    """

    def __init__(self, direct_url: str | None) -> None:
        self.direct_url = direct_url

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return self.direct_url


@pytest.mark.parametrize(
    ("direct_url", "command"),
    [
        (
            '{"url": "file:///home/ann/pickomino", "dir_info": {"editable": true}}',
            "pip install -e '/home/ann/pickomino[rl]' --config-settings editable_mode=strict",
        ),
        ('{"url": "file:///tmp/my%20clone", "dir_info": {}}', "pip install '/tmp/my clone[rl]'"),
        (
            (
                '{"url": "file:///w/dist/pickomino_rules-0.2.0-cp311-cp311-linux_x86_64.whl",'
                ' "archive_info": {}}'
            ),
            "pip install '/w/dist/pickomino_rules-0.2.0-cp311-cp311-linux_x86_64.whl[rl]'",
        ),
        (None, "pip install 'pickomino_rules[rl]'"),  # from a package index: no record
        ("not json", "pip install 'pickomino_rules[rl]'"),
    ],
)
def test_the_install_command_names_where_the_package_came_from(
    monkeypatch: pytest.MonkeyPatch, direct_url: str | None, command: str
) -> None:
    found = [_Installed(None), _Installed(direct_url)]
    monkeypatch.setattr(metadata, "distributions", lambda name: found if name else [])
    assert install_command("rl") == command


def test_a_source_tree_never_installed_is_told_to_install_the_checkout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(metadata, "distributions", lambda name: [])  # noqa: ARG005
    assert install_command("cli").startswith("pip install -e '.[cli]'")
