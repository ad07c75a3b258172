"""Game records: JSON round trips, exact replays, and clear errors for bad input."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pickomino_rules import available_variants, new_game
from pickomino_rules.bots import random_bot
from pickomino_rules.positions import Position
from pickomino_rules.records import (
    FORMAT,
    MAX_MOVES,
    MAX_RECORD_BYTES,
    GameRecord,
    RecordError,
    SaveError,
    load_record,
    save_record,
)

if TYPE_CHECKING:
    from pathlib import Path


def recorded(variant: str, seed: int, players: int = 3) -> GameRecord:
    return GameRecord.play(variant, players=players, bots=random_bot, seed=seed)


@pytest.mark.parametrize("variant", available_variants())
@settings(max_examples=5)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5))
def test_round_trip_replays_to_the_same_final_state(variant: str, seed: int, players: int) -> None:
    record = recorded(variant, seed, players)
    loaded = GameRecord.from_json(record.to_json())
    assert loaded == record
    assert loaded.final_state() == record.final_state()
    # and the replay equals the game as it was played, without any record involved
    rules, state = new_game(variant, players=players)
    from pickomino_rules import play  # noqa: PLC0415

    assert play(rules, state, random_bot, random.Random(seed)) == loaded.final_state()


def test_record_carries_setup_seed_version_and_every_move() -> None:
    record = GameRecord.play("extended", players=2, seed=4, options={"low_tile_worms": 2})
    data = json.loads(record.to_json())
    assert data["format"] == FORMAT
    assert data["variant"] == "extended"
    assert data["options"]["low_tile_worms"] == [2, 2]
    assert data["seed"] == 4
    assert data["library"]
    assert len(data["moves"]) == len(record.moves) > 10
    assert record.final_state().grill == ()


def test_save_and_load_a_file(tmp_path: Path) -> None:
    record = recorded("classic", 1)
    path = tmp_path / "game.json"
    save_record(record, path)
    assert load_record(path) == record


def tampered(change: object) -> str:
    data = json.loads(recorded("classic", 2).to_json())
    change(data)  # type: ignore[operator]
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(variant="chess"), "variant: unknown variant 'chess'"),
        (lambda d: d["options"].update(short_game="yes"), "options: option 'short_game'"),
        (lambda d: d["options"].update(colour=1), "options: variant 'classic' has no option"),
        (lambda d: d.update(players=8), "set-up: classic needs 2 to 7 players"),
        (lambda d: d.update(players="3"), "expected int @ record.players"),
        (lambda d: d.update(first_player=5), "set-up: first_player"),
        (lambda d: d.update(extra=1), "extra fields found (extra)"),
        (lambda d: d.pop("moves"), "required field missing @ record.moves"),
        (lambda d: d.update(moves="roll"), "record.moves"),
        (
            lambda d: d.update(format="chess/1"),
            'this is not a Pickomino game record: its "format" is "chess/1", not',
        ),
        (lambda d: d["moves"].__setitem__(0, "w" * 9), "move 1 ('wwwwwwwww'): "),
        (lambda d: d["moves"].__setitem__(1, "take 9"), "move 2 ('take 9'): not a die face"),
        (
            lambda d: d["moves"].__setitem__(2, "steal 1"),
            "move 3 ('steal 1'): steal 1 is not legal",
        ),
        (lambda d: d["moves"].insert(3, "stop"), "move 4 ('stop')"),
        (lambda d: d["moves"].append("roll"), "C12: the game is over"),
    ],
)
def test_bad_records_are_rejected_with_the_place(change: object, message: str) -> None:
    with pytest.raises(RecordError) as error:
        GameRecord.from_json(tampered(change))
    assert message in str(error.value)


def test_truncated_and_non_json_text_is_rejected() -> None:
    text = recorded("classic", 3).to_json()
    for broken in (text[: len(text) // 2], "", "[]", "null", "{not json}"):
        with pytest.raises(RecordError):
            GameRecord.from_json(broken)


def test_unreadable_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError):
        load_record(tmp_path / "binary.json")


def test_an_unfinished_game_is_a_valid_record() -> None:
    record = recorded("classic", 5)
    partial = GameRecord.from_json(
        json.dumps(json.loads(record.to_json()) | {"moves": list(record.moves[:10])})
    )
    assert partial.final_state() == record.states()[10]


def _valid_text() -> str:
    return GameRecord.play("classic", players=2, seed=4).to_json()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"format": ' + "9" * 5000 + "}", "a number of 5000 digits at line 1, column 12"),
        (b'{"format": "\xff"}', "not UTF-8"),
        ('{"format": "a", "format": "b"}', "appears twice"),
        (b"\x00\x01", "not valid JSON"),
        (42, "expected JSON text"),
    ],
)
def test_hostile_records_are_record_errors(text: object, says: str) -> None:
    with pytest.raises(RecordError, match=says) as error:
        GameRecord.from_json(text)  # type: ignore[arg-type]
    assert len(str(error.value)) < 300


def test_records_over_the_limits_are_refused_early() -> None:
    data = json.loads(_valid_text())
    data["moves"] = ["roll"] * (MAX_MOVES + 1)
    with pytest.raises(RecordError, match="more than the limit"):
        GameRecord.from_json(json.dumps(data))
    data = json.loads(_valid_text())
    data["moves"][3] = "take " + "w" * 10_000_000
    with pytest.raises(RecordError, match="larger than the limit"):
        GameRecord.from_json(json.dumps(data))
    data["moves"][3] = "take " + "w" * 1000
    with pytest.raises(RecordError, match="longer than") as error:
        GameRecord.from_json(json.dumps(data))
    assert len(str(error.value)) < 200  # the move is quoted as a short excerpt


def test_a_huge_file_is_not_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (MAX_RECORD_BYTES + 10))
    with pytest.raises(RecordError, match="larger than the limit"):
        load_record(path)


def test_a_failed_save_leaves_the_old_record_whole(tmp_path: Path) -> None:
    """A real failure: the file-size limit (ulimit -f) stops the write half way."""
    path = tmp_path / "game.json"
    old = GameRecord.play("classic", players=2, seed=1)
    save_record(old, path)
    before = path.read_bytes()
    script = (
        "import resource, sys\n"
        "from pickomino_rules.records import GameRecord, SaveError, save_record\n"
        "big = GameRecord.play('classic', players=4, seed=2, bots=__import__("
        "'pickomino_rules.bots', fromlist=['x']).random_bot)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        "try:\n"
        "    save_record(big, sys.argv[1])\n"
        "except SaveError as error:\n"
        "    print('refused:', error)\n"
    )
    done = subprocess.run(  # noqa: S603 (our own interpreter)
        [sys.executable, "-c", script, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "refused: cannot save to" in done.stdout, done.stderr
    assert path.read_bytes() == before  # the old record is untouched
    assert load_record(path) == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary left


def test_save_writes_and_replaces_atomically(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = GameRecord.play("classic", players=2, seed=1)
    second = GameRecord.play("classic", players=3, seed=2)
    save_record(first, path)
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()  # as a new file would be
    path.chmod(0o640)
    save_record(second, path)
    assert path.stat().st_mode & 0o777 == 0o640  # a replaced file keeps its permissions
    assert load_record(path) == second
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    with pytest.raises(SaveError, match="no folder"):
        save_record(first, tmp_path / "missing" / "x.json")
    with pytest.raises(SaveError, match="not a regular file"):
        save_record(first, "/dev/null")


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"\x89PNG\r\n\x1a\n", "not UTF-8 text (byte 0)"),
        (b"a shopping list\n", "not valid JSON (line 1, column 1): Expecting value"),
        (b"", "not valid JSON (line 1, column 1): Expecting value"),
        (b"[1, 2]", "it holds a JSON list, not an object"),
        (b"null", "it holds null, not an object"),
        (b'{"name": "Ann"}', 'it has no "format" field (it would be "pickomino_rules.record/1")'),
        (b'{"format": 1}', 'its "format" is a JSON number, not "pickomino_rules.record/1"'),
        (
            Position(*new_game("classic", players=2)).to_json().encode(),
            "it is a Pickomino position",
        ),
    ],
)
def test_a_file_that_is_no_record_is_said_to_be_none_in_words(
    tmp_path: Path, content: bytes, says: str
) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(content)
    with pytest.raises(RecordError) as error:
        load_record(path)
    assert str(error.value) == f"{path}: this file is not a Pickomino game record: {says}"
    with pytest.raises(RecordError) as error:  # the same words for text, the web app's
        GameRecord.from_json(content)
    assert str(error.value) == f"this is not a Pickomino game record: {says}"


def test_a_record_of_another_layout_is_said_to_be_one() -> None:
    data = json.loads(recorded("classic", 2).to_json()) | {"format": "pickomino_rules.record/2"}
    with pytest.raises(RecordError) as error:
        GameRecord.from_json(json.dumps(data))
    assert str(error.value) == (
        'this is a Pickomino game record of another layout, "pickomino_rules.record/2": '
        'this version reads "pickomino_rules.record/1" (a newer pickomino_rules may read it)'
    )


def test_a_damaged_record_is_bad_json_rather_than_no_record() -> None:
    text = recorded("classic", 3).to_json()
    with pytest.raises(RecordError) as error:
        GameRecord.from_json(text[: len(text) // 2])
    assert str(error.value).startswith("not valid JSON (line ")
