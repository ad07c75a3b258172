"""What the API tells a person about a game: the log of turns, each move's effect, both
objectives of the hint and the analysis, and the players' names in the pictures."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

from pickomino_rules import apply, legal_actions, parse_move
from pickomino_rules.actions import Steal, Stop
from pickomino_rules.bots import get_bot
from pickomino_rules.positions import Position
from pickomino_rules.records import GameRecord
from pickomino_rules.state import GameState, Phase
from pickomino_rules.story import turns
from pickomino_rules.web import create_app

ORIGIN = "http://127.0.0.1"
NAMES = ["you", "Ann", "Bob"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=ORIGIN)


def _post(client: TestClient, path: str, body: object) -> Any:
    return client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})


def _view(client: TestClient, record: GameRecord) -> dict[str, Any]:
    answer = _post(client, "/api/view", {"record": json.loads(record.to_json())})
    assert answer.status_code == 200, answer.text
    return answer.json()["view"]  # type: ignore[no-any-return]


def test_the_log_is_every_turn_in_the_storys_words_with_the_rules_at_work(
    client: TestClient,
) -> None:
    record = GameRecord.play("extended", 3, seed=5).seated(NAMES)
    log = _view(client, record)["log"]
    rules, start = record.initial()
    moves = [parse_move(rules, m) for m in record.moves]
    told = list(turns(rules, start, moves))
    assert [entry["text"] for entry in log] == [
        turn.describe(names=NAMES.__getitem__, rules=rules) for turn in told
    ]
    assert [entry["player"] for entry in log] == [turn.player for turn in told]
    for entry, turn in zip(log, told, strict=True):
        mine = turn.player
        lost = len(turn.after.stacks[mine]) < len(turn.before.stacks[mine])
        if lost:  # a bust that returned a tile: told, with its rule
            assert "bust" in entry["events"]
            assert "C10" in entry["rules"]
        if len(turn.after.face_down) > len(turn.before.face_down):
            assert "face down" in entry["events"]
        gained = len(turn.after.stacks[mine]) > len(turn.before.stacks[mine])
        if gained:
            assert {"take", "steal"} & set(entry["events"])
            assert "C8" in entry["rules"]
    hen = [e for e in log if "the hen" in e["text"].split(" -> ")[1]]
    apple = [e for e in log if "the apple" in e["text"].split(" -> ")[1]]
    assert hen
    assert apple
    assert all("E11" in e["rules"] for e in hen)
    assert all("E7" in e["rules"] for e in apple)
    assert all(e["done"] for e in log)


def test_the_turn_being_played_is_told_so_far_and_the_log_survives_undo(
    client: TestClient,
) -> None:
    game = _post(
        client, "/api/new", {"variant": "classic", "players": 2, "seats": [None, "greedy"]}
    ).json()
    assert game["view"]["names"][0] == "player 0"  # no names given: the library's
    for _ in range(400):  # play first moves until two turns are told and yours has a decision
        view = game["view"]
        done = [e for e in view["log"] if e["done"]]
        current = [e for e in view["log"] if not e["done"]]
        mine = view["bots"][view["player"]] is None
        if len(done) >= 2 and current and mine and " take " in current[0]["text"]:
            break
        path, body = (
            ("/api/bot", {})
            if view["bots"][view["player"]]
            else ("/api/move", {"move": view["legal"][0]})
        )
        game = _post(client, path, {"record": game["record"], **body}).json()
    assert current[0]["text"].endswith("…")
    assert current[0]["player"] == view["player"]
    undone = _post(client, "/api/undo", {"record": game["record"]}).json()
    assert [e for e in undone["view"]["log"] if e["done"]][: len(done)] == done


def _first(records: list[GameRecord], wanted: Any) -> tuple[GameRecord, GameState, Any]:
    for record in records:
        for index, state in enumerate(record.states()):
            if state.phase is Phase.ROLL:
                continue
            found = wanted(record.rules, state)
            if found is not None:
                return attrs.evolve(record, moves=record.moves[:index]), state, found
    raise AssertionError("no such state")


def test_each_move_says_what_it_does_found_by_playing_it(client: TestClient) -> None:
    games = [GameRecord.play("classic", 2, seed=seed).seated(NAMES[:2]) for seed in range(30)]

    def bust_with_tile(rules: Any, state: Any) -> int | None:
        stop = next((a for a in legal_actions(rules, state) if isinstance(a, Stop)), None)
        if stop is None:
            return None
        mine = state.stacks[state.player]
        after = apply(rules, state, stop)
        return mine[-1] if len(after.stacks[state.player]) < len(mine) else None

    def steal(rules: Any, state: Any) -> Steal | None:
        return next((a for a in legal_actions(rules, state) if isinstance(a, Steal)), None)

    cut, state, tile = _first(games, bust_with_tile)
    moves = {m["move"]: m for m in _view(client, cut)["moves"]}
    assert moves["stop"]["does"].startswith(f"bust: returns {tile}")
    assert moves["stop"]["rules"] == ["C10"]
    assert set(moves) == {str(a) for a in legal_actions(cut.rules, state)}
    cut, state, action = _first(games, steal)
    moves = {m["move"]: m for m in _view(client, cut)["moves"]}
    taken = apply(cut.rules, state, action).stacks[state.player][-1]
    assert moves[str(action)]["does"] == f"steals {taken} from {NAMES[action.victim]}"


def test_a_specialists_move_and_holder_name_its_rule(client: TestClient) -> None:
    games = [GameRecord.play("extended", 3, seed=seed).seated(NAMES) for seed in range(10)]
    cut, _, _ = _first(games, lambda r, s: "weasel" in map(str, legal_actions(r, s)) or None)
    view = _view(client, cut)
    weasel = next(m for m in view["moves"] if m["move"] == "weasel")
    assert "E10" in weasel["rules"]
    held = {
        item["text"]: item
        for part in view["parts"]
        for item in part["items"]
        if "weasel" in item["text"]
    }
    (item,) = held.values()
    assert "E10" in item["rules"]
    assert "weasel" in item["about"].lower()


def test_the_hint_marks_the_best_for_the_turn_and_for_the_game(client: TestClient) -> None:
    record = GameRecord.play("classic", 2, seed=3)
    for state in record.states()[1:80]:
        if state.phase is Phase.ROLL:
            continue
        moves = _post(client, "/api/hint", {"position": str(Position(record.rules, state))})
        ranked = moves.json()["moves"]
        worms = [m["worms"] for m in ranked]
        wins = [m["win"] for m in ranked]
        assert worms == sorted(worms, reverse=True)  # as the CLI lists them
        assert [m["best"] for m in ranked] == [w >= max(worms) - 1e-9 for w in worms]
        assert [m["best_for_game"] for m in ranked] == [w >= max(wins) - 1e-9 for w in wins]


def test_the_analysis_counts_each_objectives_mistakes_against_its_own_best(
    client: TestClient,
) -> None:
    bots = [get_bot("champion"), get_bot("optimal")]
    record = GameRecord.play("classic", 2, bots=bots, seed=1).seated(["you", "Opt"])
    answer = _post(client, "/api/analyse", {"record": json.loads(record.to_json())}).json()
    assert answer["names"] == ["you", "Opt"]
    decisions = answer["decisions"]
    champion = [d for d in decisions if d["player"] == 0]
    optimal = [d for d in decisions if d["player"] == 1]
    assert not any(d["game_mistake"] for d in champion)  # it plays for the game
    assert any(d["mistake"] for d in champion)  # which costs worms this turn at times
    assert not any(d["mistake"] for d in optimal)  # it plays for this turn's worms
    for d in decisions:  # a mistake always costs something by its own objective
        assert d["mistake"] == (d["cost"] > 0.005)
        assert d["game_mistake"] == (d["chance_cost"] > 0.01)
        assert d["best_for_game"] is not None
        assert d["win"] is not None


def test_the_pictures_name_the_players(client: TestClient) -> None:
    record = GameRecord.play("classic", 2, seed=3).seated(["you", "Ann"])
    assert ">you<" in _view(client, record)["svg"]
    assert "player 0" not in _view(client, record)["svg"]
    line = str(Position(record.rules, record.states()[40]))
    drawn = _post(client, "/api/draw", {"position": line, "names": ["you", "Ann"]})
    assert "Ann" in drawn.json()["svg"]
    assert "player 1" not in drawn.json()["svg"]
    bad = _post(client, "/api/draw", {"position": line, "names": ["you"]})
    assert bad.status_code == 400
    assert "names" in bad.json()["error"]
