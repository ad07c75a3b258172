"""Game records: JSON round trips, exact replays, and clear errors for bad input."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pickomino_rules import available_variants, new_game
from pickomino_rules.bots import random_bot
from pickomino_rules.records import FORMAT, GameRecord, RecordError, load_record, save_record

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
        (lambda d: d.update(format="chess/1"), "format: expected"),
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
