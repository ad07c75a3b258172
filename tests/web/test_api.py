"""The web app's JSON API, through Starlette's test client: games, hints, and the guards."""

from __future__ import annotations

import itertools
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

from pickomino_rules import RollOutcome, apply, legal_actions, new_game, parse_move
from pickomino_rules.positions import Position
from pickomino_rules.records import GameRecord
from pickomino_rules.solver import solve_turn
from pickomino_rules.web import MAX_BODY_BYTES, create_app

ORIGIN = "http://127.0.0.1"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=ORIGIN)


def _post(client: TestClient, path: str, body: object, **headers: str) -> Any:
    return client.post(
        path, content=json.dumps(body), headers={"content-type": "application/json", **headers}
    )


def test_the_setup_names_every_variant_with_its_options_and_every_bot(client: TestClient) -> None:
    answer = client.get("/api/setup").json()
    variants = {v["name"]: v for v in answer["variants"]}
    assert set(variants) >= {"classic", "extended", "extrawurm"}
    assert variants["classic"]["players"] == [2, 7]
    assert {o["rule"] for o in variants["extended"]["options"]} >= {"O1", "O4", "O6"}
    bots = {b["name"]: b for b in answer["bots"]}
    assert set(bots) >= {"random", "greedy", "optimal", "champion", "ppo"}
    assert bots["greedy"]["plays"]["extended"] == [2, 3, 4, 5, 6, 7]
    assert bots["ppo"]["plays"] == {"classic": [2], "extended": [2], "extrawurm": []}
    assert bots["champion"]["plays"]["classic"] == [2, 3, 4]
    assert bots["champion"]["plays"]["extended"] == [2, 3, 4]


def test_a_whole_game_against_a_bot_ends_and_its_record_replays(client: TestClient) -> None:
    game = _post(
        client, "/api/new", {"variant": "classic", "players": 2, "seats": [None, "greedy"]}
    ).json()
    for _ in range(2000):
        view = game["view"]
        if view["over"]:
            break
        if view["bots"][view["player"]] is None:
            assert view["legal"]
            game = _post(
                client, "/api/move", {"record": game["record"], "move": view["legal"][0]}
            ).json()
        else:
            game = _post(client, "/api/bot", {"record": game["record"]}).json()
            assert game["played"]
    assert game["view"]["over"]
    record = GameRecord.from_json(json.dumps(game["record"]))  # the library reads it back
    rules, final = record.rules, record.final_state()
    assert list(record.bots or ()) == [None, "greedy"]
    assert game["view"]["scores"] == [sum(rules.worms[t] for t in stack) for stack in final.stacks]
    assert game["view"]["winners"]


def test_a_record_saved_by_the_library_is_shown_read_only(client: TestClient) -> None:
    record = GameRecord.play("extended", 2, seed=3).seated(bots=[None, "greedy"])
    for cut in (len(record.moves) // 2, len(record.moves) // 2 + 1):
        half = attrs.evolve(record, moves=record.moves[:cut])
        saved = json.loads(half.to_json())
        answer = _post(client, "/api/view", {"record": saved}).json()
        assert answer["sealed"] is False
        assert answer["record"] == saved  # as it came: no dice rolled for it
        rules, state = half.rules, half.final_state()
        assert answer["view"]["line"] == str(Position(rules, state))
        waits = isinstance(parse_move(rules, record.moves[cut]), RollOutcome)
        legal = [] if waits else [str(a) for a in legal_actions(rules, state)]
        assert answer["view"]["legal"] == legal
        refused = _post(client, "/api/move", {"record": saved, "move": "roll"})
        assert refused.status_code == 409
        assert "pickomino play --resume" in refused.json()["error"]


def test_a_move_applies_it_and_rolls_the_next_dice_on_the_server(client: TestClient) -> None:
    game = _post(
        client, "/api/new", {"variant": "classic", "players": 2, "seats": [None, None]}
    ).json()
    assert game["view"]["phase"] == "choose"  # the first roll is made already
    take = game["view"]["legal"][0]
    after = _post(client, "/api/move", {"record": game["record"], "move": take}).json()
    assert after["record"]["moves"][: len(game["record"]["moves"])] == game["record"]["moves"]
    assert after["record"]["moves"][len(game["record"]["moves"])] == take
    if after["view"]["phase"] == "decide":
        rolled = _post(client, "/api/move", {"record": after["record"], "move": "roll"}).json()
        assert len(rolled["record"]["moves"]) == len(after["record"]["moves"]) + 2  # roll + dice


def test_undo_takes_back_to_the_person_s_last_decision(client: TestClient) -> None:
    game = _post(
        client, "/api/new", {"variant": "classic", "players": 2, "seats": [None, "greedy"]}
    ).json()
    first = game["record"]["moves"]
    moved = _post(
        client, "/api/move", {"record": game["record"], "move": game["view"]["legal"][0]}
    ).json()
    undone = _post(client, "/api/undo", {"record": moved["record"]}).json()
    assert undone["record"]["moves"] == first
    nothing = _post(client, "/api/undo", {"record": undone["record"]})
    assert nothing.status_code == 409


def test_a_hint_values_every_move_as_the_solver_does(client: TestClient) -> None:
    rules, state = new_game("classic", players=2)
    roll = rules.chance_table(state.in_hand).outcomes[7]
    state = apply(rules, state, roll[0] if isinstance(roll, tuple) else roll)
    position = Position(rules, state)
    answer = _post(client, "/api/hint", {"position": str(position)}).json()
    expected = solve_turn(rules, state).action_values()
    assert {entry["move"]: entry["worms"] for entry in answer["moves"]} == {
        str(move): value for move, value in expected.items()
    }
    assert all(0 <= entry["win"] <= 1 for entry in answer["moves"])  # a model ships for this
    wins = [entry["win"] for entry in answer["moves"]]
    assert wins == sorted(wins, reverse=True)


def test_a_hint_values_the_decision_to_roll_again_or_stop(client: TestClient) -> None:
    position = Position.parse("classic 21-36 - -/- 0d 2 w55555 -")  # 30 set aside, 2 dice left
    answer = _post(client, "/api/hint", {"position": str(position)}).json()
    expected = solve_turn(position.rules, position.state).action_values()
    assert {entry["move"]: entry["worms"] for entry in answer["moves"]} == {
        str(move): value for move, value in expected.items()
    }
    assert {entry["move"] for entry in answer["moves"]} == {"roll", "stop"}  # stop: take 30


@pytest.mark.parametrize(
    ("path", "body", "status", "says"),
    [
        ("/api/new", {"variant": "nope", "players": 2}, 400, "no variant"),
        ("/api/new", {"variant": "classic", "players": 9}, 400, "players"),
        (
            "/api/new",
            {"variant": "classic", "players": 2, "seats": [None, "os:system"]},
            400,
            "no bot",
        ),
        (
            "/api/new",
            {
                "variant": "classic",
                "players": 2,
                "seats": [None, "pickomino_rules.bots:random_bot"],
            },
            400,
            "no bot",
        ),
        (
            "/api/new",
            {"variant": "classic", "players": 3, "seats": [None, "ppo", "greedy"]},
            400,
            "does not play",
        ),
        (
            "/api/new",
            {"variant": "classic", "players": 2, "options": {"flip_on_empty_bust": "yes"}},
            400,
            "flip_on_empty_bust",
        ),
        ("/api/new", {"variant": "classic", "players": 2, "colour": "red"}, 400, "unknown field"),
        ("/api/new", [1, 2], 400, "JSON object"),
        ("/api/view", {"record": {"variant": "classic"}}, 400, "record"),
        ("/api/move", {"record": None, "move": "take 1"}, 400, "record"),
        ("/api/hint", {"position": "classic 21-36 - -/- 0r 8 - -x"}, 400, "position"),
        ("/api/hint", {"position": "classic 21-36 - -/- 0r 8 - -"}, 409, "no decision"),
    ],
)
def test_bad_requests_get_a_4xx_that_says_what_is_wrong(
    client: TestClient, path: str, body: object, status: int, says: str
) -> None:
    answer = _post(client, path, body)
    assert answer.status_code == status
    assert says in answer.json()["error"]


def test_an_illegal_move_is_refused_and_the_game_is_unchanged(client: TestClient) -> None:
    game = _post(
        client, "/api/new", {"variant": "classic", "players": 2, "seats": [None, None]}
    ).json()
    for move in ("stop", "take 9", 7, "roll"):
        answer = _post(client, "/api/move", {"record": game["record"], "move": move})
        assert answer.status_code in {400, 409}
        assert "move" in answer.json()["error"]
    again = _post(client, "/api/view", {"record": game["record"]}).json()
    assert again["view"] == game["view"]


def test_a_bot_does_not_move_for_a_person_nor_after_the_end(client: TestClient) -> None:
    game = _post(
        client, "/api/new", {"variant": "classic", "players": 2, "seats": [None, "greedy"]}
    ).json()
    answer = _post(client, "/api/bot", {"record": game["record"]})
    assert answer.status_code == 409
    assert "person" in answer.json()["error"]


def test_malformed_and_oversized_bodies_are_refused(client: TestClient) -> None:
    json_type = {"content-type": "application/json"}
    assert client.post("/api/new", content=b'{"variant": ', headers=json_type).status_code == 400
    twice = b'{"variant": "classic", "variant": "extended", "players": 2}'
    answer = client.post("/api/new", content=twice, headers=json_type)
    assert answer.status_code == 400
    assert "twice" in answer.json()["error"]
    huge = b'{"variant": "' + b"x" * (MAX_BODY_BYTES + 10) + b'"}'
    answer = client.post("/api/new", content=huge, headers=json_type)
    assert answer.status_code == 413
    form = client.post(
        "/api/new",
        content=b"variant=classic",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert form.status_code == 415


def test_a_local_server_answers_only_to_its_own_names() -> None:
    app = create_app()
    for base in ("http://127.0.0.1", "http://localhost:8000", "http://[::1]:8000"):
        assert TestClient(app, base_url=base).get("/api/setup").status_code == 200, base
    rebound = TestClient(app, base_url="http://attacker.example")  # DNS rebinding
    assert rebound.get("/api/setup").status_code == 400
    assert rebound.get("/").status_code == 400


def test_writes_from_pages_of_other_origins_are_refused(client: TestClient) -> None:
    body = {"variant": "classic", "players": 2}
    assert _post(client, "/api/new", body, origin=ORIGIN).status_code == 200
    for other in ("http://attacker.example", "http://127.0.0.1:9999", "null"):
        answer = _post(client, "/api/new", body, origin=other)
        assert answer.status_code == 403, other
    assert (
        client.get("/api/setup", headers={"origin": "http://attacker.example"}).status_code == 200
    )


def test_the_page_and_its_files_are_served_with_a_strict_policy(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert 'src="app.js"' in page.text
    for path, kind in (
        ("/app.js", "javascript"),
        ("/advisor.js", "javascript"),
        ("/style.css", "css"),
    ):
        answer = client.get(path)
        assert answer.status_code == 200
        assert kind in answer.headers["content-type"]
        addresses = set(re.findall(r"https?://[^\s\"')]+", answer.text))
        assert addresses <= {"http://www.w3.org/2000/svg"}  # a name, not a place: nothing fetched
    assert client.get("/../pyproject.toml").status_code == 404
    assert client.get("/static/app.js").status_code == 404


def test_concurrent_clients_do_not_interfere(server: str) -> None:
    import httpx2  # noqa: PLC0415 (the test extra)

    def one(bot: str) -> GameRecord:
        with httpx2.Client(base_url=server, timeout=60) as http:
            new = {"variant": "classic", "players": 2, "seats": [bot, "greedy"]}
            game = http.post("/api/new", json=new).json()
            while not game["view"]["over"]:
                game = http.post("/api/bot", json={"record": game["record"]}).json()
        return GameRecord.from_json(json.dumps(game["record"]))

    bots = ["greedy", "random", "greedy", "random"]
    with ThreadPoolExecutor(len(bots)) as pool:
        records = list(pool.map(one, bots))
    for bot, record in zip(bots, records, strict=True):
        assert list(record.bots or ()) == [bot, "greedy"]
        assert record.final_state().grill == ()  # each game whole, checked move by move
    assert len({record.moves for record in records}) == len(records)


def test_an_analysis_values_each_decision_as_the_library_does(client: TestClient) -> None:
    from pickomino_rules.analysis import analyse_record  # noqa: PLC0415 (numpy)

    record = GameRecord.play("classic", 2, seed=4)
    answer = _post(client, "/api/analyse", {"record": json.loads(record.to_json())}).json()
    valued = [d for d in analyse_record(record).decisions if d.valued]
    assert [(d["played"], d["best"], d["cost"]) for d in answer["decisions"]] == [
        (d.played, d.best, d.cost) for d in valued
    ]
    assert answer["decisions"][0]["line"] == str(Position(record.rules, valued[0].state))
    turns = [point["turn"] for point in answer["chances"]]
    assert turns == sorted(turns)
    assert turns[0] == 1
    assert all(abs(sum(point["chances"]) - 1) < 1e-9 for point in answer["chances"])
    assert answer["chances"][-1]["chances"] in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])


def test_a_long_record_is_analysed_in_windows_that_make_up_the_whole_analysis(
    client: TestClient,
) -> None:
    from pickomino_rules.analysis import analyse  # noqa: PLC0415 (numpy)
    from pickomino_rules.learned import shipped_win_model  # noqa: PLC0415
    from pickomino_rules.web._api import MAX_ANALYSED_MOVES  # noqa: PLC0415

    whole = GameRecord.play("extended", 2, seed=40)  # greedy bots, 2,557 moves
    record = attrs.evolve(whole, moves=whole.moves[:2500])
    body = json.loads(record.to_json())
    windows, start = [], 0
    while start is not None:
        answer = _post(client, "/api/analyse", {"record": body, "start": start})
        assert answer.status_code == 200, answer.text
        windows.append(answer.json())
        start = windows[-1]["next"]
    assert len(windows) >= -(-len(record.moves) // MAX_ANALYSED_MOVES) > 1
    starts = [0, *(w["next"] for w in windows[:-1])]
    assert all(0 < b - a <= MAX_ANALYSED_MOVES for a, b in itertools.pairwise(starts))
    rules, first = record.initial()
    model = shipped_win_model(rules, 2)
    assert model is not None
    expected = analyse(
        rules, first, [parse_move(rules, m) for m in record.moves], chances=model.champion_value()
    )
    got = [d for w in windows for d in w["decisions"]]
    assert [
        (d["turn"], d["player"], d["played"], d["best"], d["cost"], d["best_for_game"]) for d in got
    ] == [
        (d.turn, d.player, d.played, d.best, d.cost, d.best_for_game)
        for d in expected.decisions
        if d.valued
    ]
    assert [d["chance_cost"] for d in got] == [
        d.chance_cost for d in expected.decisions if d.valued
    ]
    turns = [point["turn"] for w in windows for point in w["chances"]]
    assert turns == list(range(1, len(turns) + 1))  # each turn once, numbered in the game
    assert turns[-1] == expected.decisions[-1].turn


def test_an_analysis_window_starts_at_a_turn_of_the_record(client: TestClient) -> None:
    record = GameRecord.play("classic", 2, seed=4)
    body = json.loads(record.to_json())
    for start in (-1, len(record.moves) + 1, "3", True):
        answer = _post(client, "/api/analyse", {"record": body, "start": start})
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("start: a move's index, 0 to ")
    answer = _post(client, "/api/analyse", {"record": body, "start": 1})  # within turn 1
    assert answer.status_code == 400
    assert "not a turn's first" in answer.json()["error"]
    answer = _post(client, "/api/analyse", {"record": body, "start": len(record.moves)}).json()
    assert answer["decisions"] == []
    assert answer["next"] is None


def test_a_record_longer_than_the_web_reads_is_refused_before_it_is_read(
    client: TestClient,
) -> None:
    from pickomino_rules.web._api import MAX_RECORD_MOVES  # noqa: PLC0415

    record = GameRecord.start("classic", 2, {"flip_on_empty_bust": False})  # busts for ever
    long = attrs.evolve(record, moves=("11111111", "take 1", "stop") * (MAX_RECORD_MOVES // 3 + 1))
    for path in ("/api/view", "/api/undo", "/api/bot", "/api/analyse"):
        answer = _post(client, path, {"record": json.loads(long.to_json())})
        assert answer.status_code == 413, path
        assert f"at most {MAX_RECORD_MOVES:,}" in answer.json()["error"]
    legal = attrs.evolve(long, moves=long.moves[:MAX_RECORD_MOVES])  # the longest read
    assert _post(client, "/api/view", {"record": json.loads(legal.to_json())}).status_code == 200


def test_a_file_that_is_no_game_record_is_refused_in_one_sentence(client: TestClient) -> None:
    position = Position(*new_game("classic", players=2)).to_dict()
    for path in ("/api/view", "/api/analyse"):
        answer = _post(client, path, {"record": position})
        assert answer.status_code == 400
        error = answer.json()["error"]
        assert error == "This file is not a Pickomino game record: it is a Pickomino position"
    answer = _post(client, "/api/view", {"record": {"variant": "classic"}}).json()
    assert answer["error"].startswith("This file is not a Pickomino game record: it has no ")
    assert "record: this" not in answer["error"]


def test_a_position_is_drawn(client: TestClient) -> None:
    rules, state = new_game("extended", players=3)
    answer = _post(client, "/api/draw", {"position": str(Position(rules, state))}).json()
    assert answer["svg"].startswith("<svg")
    assert answer["line"] == str(Position(rules, state))


def test_a_fresh_table_is_a_game_s_start_with_its_tiles_and_dice(client: TestClient) -> None:
    answer = _post(client, "/api/start", {"variant": "extended", "players": 3}).json()
    rules, state = new_game("extended", players=3)
    assert answer["position"] == Position(rules, state).to_dict()
    assert answer["kinds"] == ["white", "golden"]
    assert answer["tiles"] == {str(tile): rules.worms_of(tile) for tile in rules.tiles}
    drawn = _post(client, "/api/draw", {"position": answer["position"]}).json()
    assert drawn["line"] == answer["line"]
    refused = _post(client, "/api/start", {"variant": "extended", "players": 9})
    assert refused.status_code == 400


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda s: s | {"stacks": [[21], []]}, "tiles"),  # 21 twice: grill and stack
        (lambda s: s | {"grill": s["grill"][1:]}, "tiles"),  # 11 nowhere
        (lambda s: s | {"player": 5}, "turn"),
        (lambda s: s | {"set_aside": [3, 0, 0, 0, 0, 0]}, "dice"),
        (lambda s: s | {"stacks": [[], "21"]}, "tiles"),  # malformed, not only impossible
        (
            lambda s: s | {"parts": s["parts"] | {"grilled_worms": {"supply": 99}}},
            "part:grilled_worms",
        ),
        (
            lambda s: s | {"grill": [t for t in s["grill"] if t != 21], "stacks": [[21], []]},
            "part:specialists",  # the hen sat on 21
        ),
    ],
)
def test_an_impossible_table_is_refused_at_the_field_at_fault(
    client: TestClient, change: Any, field: str
) -> None:
    position = Position(*new_game("extended", players=2)).to_dict()
    position["state"] = change(position["state"])
    for path in ("/api/draw", "/api/hint"):
        answer = _post(client, path, {"position": position})
        assert answer.status_code == 400
        problems = answer.json()["problems"]
        assert problems
        assert problems[0]["field"] == field, problems
        assert problems[0]["message"].split(": ", 1)[1] in answer.json()["error"]


def test_dice_that_cannot_be_rolled_are_refused_at_the_dice(client: TestClient) -> None:
    position = str(Position(*new_game("classic", players=2)))
    answer = _post(client, "/api/hint", {"position": position, "roll": "12x"})
    assert answer.status_code == 400
    assert [p["field"] for p in answer.json()["problems"]] == ["dice"]


def test_the_openapi_description_is_valid_and_lists_every_call(client: TestClient) -> None:
    from openapi_spec_validator import validate  # noqa: PLC0415 (the test extra)

    from pickomino_rules.web._api import ENDPOINTS  # noqa: PLC0415

    document = client.get("/api/openapi.json").json()
    validate(document)
    paths = {getattr(route, "path", "") for route in create_app().routes}
    routes = {path for path in paths if path.startswith("/api/")}
    assert set(document["paths"]) == routes - {"/api/openapi.json"}
    for endpoint in ENDPOINTS:
        body = document["paths"][endpoint.path]["post"]["requestBody"]
        schema = body["content"]["application/json"]["schema"]
        assert schema["required"] == list(endpoint.required)
        assert set(schema["properties"]) == {*endpoint.required, *endpoint.optional}
        unknown = _post(client, endpoint.path, {"nonsense": 1})  # what it says is what is checked
        assert unknown.status_code == 400
        assert ", ".join(schema["properties"]) in unknown.json()["error"]


_WRONG: tuple[object, ...] = (5, 1.5, True, "ab", [], [5], {}, {"a": 1}, None)


def _bodies(record: dict[str, Any]) -> list[tuple[str, str, object, dict[str, Any]]]:
    """Each call's valid body with one field given each value of the wrong type."""
    position = str(Position(*new_game("classic", players=2)))
    valid: dict[str, dict[str, Any]] = {
        "/api/new": {
            "variant": "classic",
            "players": 2,
            "options": {},
            "seats": [None, "greedy"],
            "names": ["A", "B"],
        },
        "/api/view": {"record": record},
        "/api/move": {"record": record, "move": "stop"},
        "/api/bot": {"record": record},
        "/api/undo": {"record": record},
        "/api/hint": {"position": position, "roll": "12345www"},
        "/api/start": {"variant": "classic", "players": 2, "options": {}},
        "/api/draw": {"position": position, "names": ["A", "B"]},
        "/api/hand": {"position": position},
        "/api/analyse": {"record": record, "start": 0},
    }  # fmt: skip
    from pickomino_rules.web._api import ENDPOINTS  # noqa: PLC0415

    for endpoint in ENDPOINTS:  # every call and field is tried
        assert set(valid[endpoint.path]) == {*endpoint.required, *endpoint.optional}
    return [
        (path, field, wrong, body | {field: wrong})
        for path, body in valid.items()
        for field in body
        for wrong in _WRONG
        if _json_type(wrong) not in _declared(field)
    ]


def _json_type(value: object) -> str:
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}
    return "null" if value is None else kinds.get(type(value), "object")


def _declared(field: str) -> set[str]:
    from pickomino_rules.web._api import FIELDS  # noqa: PLC0415

    kind = FIELDS[field].get("type", "object")
    return {kind} if isinstance(kind, str) else set(kind)


def test_wrong_types_anywhere_in_a_body_are_a_4xx_naming_the_field(client: TestClient) -> None:
    new = {"variant": "classic", "players": 2, "seats": [None, "greedy"]}
    record = _post(client, "/api/new", new).json()["record"]
    for path, field, wrong, body in _bodies(record):
        answer = _post(client, path, body)
        if wrong is None and field in {"options", "seats", "names"}:
            continue  # null: the default
        assert 400 <= answer.status_code < 500, (path, field, wrong, answer.status_code)
        error = answer.json()["error"]
        named = {"variant": "variant", "players": "players", "seats": "seat", "move": "move"}
        assert named.get(field, field) in error, (path, field, wrong, error)


def test_names_are_a_list_of_strings(client: TestClient) -> None:
    for names in (5, "ab", ["A", 5], {"A": 1}):
        body = {"variant": "classic", "players": 2, "names": names}
        answer = _post(client, "/api/new", body)
        assert answer.status_code == 400, names
        assert answer.json()["error"].startswith("names:")
    named = _post(client, "/api/new", {"variant": "classic", "players": 2, "names": ["Ann", "Bo"]})
    assert named.json()["view"]["names"] == ["Ann", "Bo"]


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    body = {"variant": "classic", "players": 2}
    answers = {
        "page": client.get("/"),
        "json": client.get("/api/setup"),
        "api": _post(client, "/api/new", body),
        "400": _post(client, "/api/new", {"variant": 5, "players": 2}),
        "403": _post(client, "/api/new", body, origin="http://attacker.example"),
        "404": client.get("/nothing"),
        "405": client.get("/api/new"),
        "413": _post(client, "/api/new", {"variant": "x" * MAX_BODY_BYTES}),
        "415": client.post("/api/new", content=b"variant=classic"),
        "host": TestClient(create_app(), base_url="http://attacker.example").get("/"),
    }
    for kind, answer in answers.items():
        assert "default-src 'self'" in answer.headers.get("content-security-policy", ""), kind
        assert answer.headers["x-content-type-options"] == "nosniff", kind
        assert answer.headers["referrer-policy"] == "no-referrer", kind


def test_a_write_with_two_origins_or_another_scheme_is_refused(client: TestClient) -> None:
    body = json.dumps({"variant": "classic", "players": 2}).encode()
    for origins in (
        [ORIGIN, "http://attacker.example"],
        ["http://attacker.example", ORIGIN],
        [ORIGIN, ORIGIN],
        ["https://127.0.0.1"],
        ["ftp://127.0.0.1"],
    ):
        headers = [("content-type", "application/json"), *(("origin", o) for o in origins)]
        answer = client.post("/api/new", content=body, headers=headers)
        assert answer.status_code in {400, 403}, origins


def test_a_record_the_server_dealt_is_refused_once_its_dice_are_changed(
    client: TestClient,
) -> None:
    game = _post(client, "/api/new", {"variant": "classic", "players": 2, "seats": [None, None]})
    record = game.json()["record"]
    assert record["library"].split("+seal.", 1)[1]  # sealed, in a field the library reads
    assert GameRecord.from_json(json.dumps(record)).moves == tuple(record["moves"])
    for changed in (
        record | {"moves": [*record["moves"][:-1], "wwwwwwww"]},
        record | {"bots": [None, "greedy"]},
        record | {"library": record["library"].replace("+seal.", "+seal.0")[:-1]},
    ):
        for path, body in (("/api/move", {"move": "take 1"}), ("/api/bot", {})):
            answer = _post(client, path, {"record": changed, **body})
            assert answer.status_code == 409, (path, changed)
            assert "not rolled by this server" in answer.json()["error"]
    another = TestClient(create_app(), base_url=ORIGIN)  # another key: another server
    assert _post(another, "/api/view", {"record": record}).json()["sealed"] is False
