"""The champion: a learned chance to win, fed to the exact turn solver as its turn value."""

from __future__ import annotations

import itertools
import pickle
import random
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import pytest

from pickomino_rules import (
    Phase,
    RollOutcome,
    apply,
    get_rules,
    is_terminal,
    legal_actions,
    new_game,
    play,
)
from pickomino_rules.bots import UnknownBotError, bot_supports, check_bot_supports, get_bot
from pickomino_rules.encoding import Encoding
from pickomino_rules.errors import InvalidSetupError
from pickomino_rules.learned import (
    InvalidWinModelError,
    WinModel,
    champion_bot,
    load_win_model,
    shipped_win_model,
    table_features,
)
from pickomino_rules.learned.fit import GAMES
from pickomino_rules.positions import Position
from pickomino_rules.solver import solve_turn

if TYPE_CHECKING:
    from pathlib import Path

    from pickomino_rules.rules import Rules
    from pickomino_rules.solver import TurnValue
    from pickomino_rules.state import GameState

SHIPPED = [(variant, players) for variant, players in GAMES]
LATE = "classic 28,30 36,35,34,33,32,31 27,23,26,25,29,22,21,24/- 0d 2 455www -"
"""Two tiles left: one turn deep rolls on, four turns deep stops (a game the search found)."""
EXTENDED_LATE = (
    "extended 11,23 36,35,34,33,31,24 13,32,27,26/28,29,21,30,22,25 0d 3,0 1134w - "
    'grilled_worms=[0,[5,2],null,[]] weasel=[true] specialists=[[["can",11],["hen",21],'
    '["crow",23],["weasel",25],["golden_die",27],["apple",29]],[[11,null],'
    "[null,null],[null,null],[null,0],[null,null],[null,null]],null]"
)
"""Extended, two tiles left: one turn deep rolls on, two turns deep stops (a margin game)."""


def _tables(variant: str, players: int, games: int, seed: int) -> list[GameState]:
    """Tables between turns of random games (where the model is meant to be asked)."""
    rules, start = new_game(variant, players=players)
    rng, found = random.Random(seed), []
    for _ in range(games):
        state = start
        while state.phase is not Phase.GAME_OVER:
            before = state.player
            if state.phase is Phase.ROLL:
                state = apply(rules, state, rules.chance_table(state.in_hand).sample(rng))
            else:
                state = apply(rules, state, rng.choice(legal_actions(rules, state)))
            if state.player != before and state.phase is not Phase.GAME_OVER:
                found.append(state)
    return found


@pytest.mark.parametrize(("variant", "players"), SHIPPED)
def test_a_model_is_shipped_for_each_game_the_fit_builds(variant: str, players: int) -> None:
    model = load_win_model(variant, players)
    rules = get_rules(variant)
    assert (model.variant, model.players) == (variant, players)
    assert shipped_win_model(rules, players) is model
    assert bot_supports(get_bot("champion"), rules, players)
    assert model.about["command"].startswith("python -m pickomino_rules.learned.fit")
    assert model.about["seed"] == 1


def test_a_model_pickles_for_worker_processes_and_values_the_same() -> None:
    model = load_win_model("extended", 2)  # options holding tuples, and nested about
    rules = get_rules("extended")
    model.win_probabilities(rules, _tables("extended", 2, games=1, seed=2)[0])  # caches filled
    again = pickle.loads(pickle.dumps(model))  # noqa: S301 (our own bytes)
    assert dict(again.about) == dict(model.about)
    for state in _tables("extended", 2, games=1, seed=3)[::9]:
        assert np.array_equal(
            again.win_probabilities(rules, state), model.win_probabilities(rules, state)
        )


@pytest.mark.parametrize(("variant", "players"), SHIPPED)
def test_chances_are_a_distribution_that_follows_the_seats(variant: str, players: int) -> None:
    model = load_win_model(variant, players)
    rules = get_rules(variant)
    for state in _tables(variant, players, games=2, seed=players)[::7]:
        chances = model.win_probabilities(rules, state)
        assert chances.shape == (players,)
        assert np.all(chances > 0)
        assert chances.sum() == pytest.approx(1.0)
        for mover in range(players):
            start = state.replace(player=mover)
            assert model.turn_value(rules, start, state, None) == pytest.approx(chances[mover])


def test_a_finished_game_is_scored_exactly() -> None:
    rules = get_rules("classic")
    model = load_win_model("classic", 2)
    state = _tables("classic", 2, games=1, seed=3)[-1]
    over = state.replace(grill=(), phase=Phase.GAME_OVER, stacks=((30, 36), (21,)))
    assert list(model.win_probabilities(rules, over)) == [1.0, 0.0]
    assert model.turn_value(rules, over.replace(player=1), over, None) == 0.0
    shared = over.replace(stacks=((), ()))  # tied players without tiles share the win (C13)
    assert list(model.win_probabilities(rules, shared)) == [0.5, 0.5]


def test_a_big_lead_late_is_nearly_a_win_and_a_big_deficit_nearly_a_loss() -> None:
    rules = get_rules("classic")
    model = load_win_model("classic", 2)
    late = new_game("classic", players=2)[1].replace(
        grill=(21, 22), face_down=tuple(range(23, 31)), stacks=((31, 32, 33, 34, 35, 36), ())
    )
    assert model.win_probabilities(rules, late)[0] > 0.95
    assert model.win_probabilities(rules, late.replace(player=1))[0] > 0.95
    behind = late.replace(stacks=((), (31, 32, 33, 34, 35, 36)))
    assert model.win_probabilities(rules, behind)[0] < 0.05


def test_features_read_the_table_from_the_seat_to_move() -> None:
    rules = get_rules("classic")
    encoding = Encoding.of(rules, 2)
    state = new_game("classic", players=2)[1].replace(
        grill=(21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32), stacks=((33, 36), (35,))
    )
    mine = table_features(rules, encoding, encoding.observe(state, 0))[0]
    theirs = table_features(rules, encoding, encoding.observe(state.replace(player=1), 1))[0]
    assert mine[:2] == pytest.approx([0.8, 0.4])  # worms: 8 and 4, scaled by 10
    assert theirs[:2] == pytest.approx([0.4, 0.8])
    assert mine[12] == pytest.approx(0.4) == -theirs[12]  # the lead over seat 1
    grill_worms = sum(rules.worms[t] for t in state.grill)
    assert mine[14] == pytest.approx(grill_worms / 20)


@pytest.mark.parametrize(("variant", "players"), SHIPPED)
def test_the_champion_plays_legal_games(variant: str, players: int) -> None:
    rules, state = new_game(variant, players=players)
    rng = random.Random(players)
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROLL:
            state = apply(rules, state, rules.chance_table(state.in_hand).sample(rng))
            continue
        move = champion_bot(rules, state, rng)
        assert move in legal_actions(rules, state)
        state = apply(rules, state, move)


def test_other_games_are_refused_with_what_is_shipped() -> None:
    rules, state = new_game("classic", players=5)
    assert not bot_supports(get_bot("champion"), rules, 5)
    with pytest.raises(InvalidWinModelError, match="no win model is shipped for 5-player classic"):
        champion_bot(rules, state, random.Random(0))
    short = get_rules("classic", {"short_game": True})
    assert not bot_supports(get_bot("champion"), short, 2)
    with pytest.raises(InvalidWinModelError, match="fitted with other options"):
        champion_bot(short, new_game(short, players=2)[1], random.Random(0))
    model = load_win_model("classic", 2)
    with pytest.raises(InvalidWinModelError, match="3-player classic"):
        model.win_probabilities(rules, new_game("classic", players=3)[1])


def test_a_model_survives_its_file_and_bad_files_are_refused(tmp_path: Path) -> None:
    model = load_win_model("classic", 2)
    path = tmp_path / "model.npz"
    model.save(path)
    again = WinModel.load(path)
    rules = get_rules("classic")
    for state in _tables("classic", 2, games=1, seed=5)[::5]:
        assert np.array_equal(
            again.win_probabilities(rules, state), model.win_probabilities(rules, state)
        )
    assert dict(again.about) == dict(model.about)
    (tmp_path / "text.npz").write_text("not numpy")
    with pytest.raises(InvalidWinModelError):
        WinModel.load(tmp_path / "text.npz")
    weights, bias = model.layers[0]
    with pytest.raises(InvalidWinModelError, match="features"):
        WinModel.of("classic", 2, model.options, [(weights[:, :-1], bias)], {})
    with pytest.raises(InvalidWinModelError, match="do not chain"):
        WinModel.of(
            "classic", 2, model.options, [(weights, bias), (np.ones((2, 5)), np.ones(2))], {}
        )


def test_a_reply_value_is_the_opponents_best_reply_turn_seen_from_the_mover() -> None:
    rules = get_rules("classic")
    model = load_win_model("classic", 2)
    reply = model.reply_value()
    for state in _tables("classic", 2, games=1, seed=9)[::9][:4]:
        start = state.replace(player=1 - state.player)
        wanted = 1.0 - solve_turn(rules, state, model.turn_value).value
        assert reply(rules, start, state, None) == pytest.approx(wanted)
        assert reply(rules, start, state, None) == pytest.approx(wanted)  # remembered
    over = state.replace(grill=(), phase=Phase.GAME_OVER, stacks=((30,), (21,)))
    assert reply(rules, over.replace(player=0), over, None) == 1.0
    with pytest.raises(InvalidWinModelError, match="two players"):
        load_win_model("classic", 3).reply_value()


def test_a_look_ahead_plays_each_further_turn_exactly_for_its_players_chance() -> None:
    rules = get_rules("classic")
    model = load_win_model("classic", 2)

    def chance(state: GameState, turns: int) -> float:
        """The chance of the player to move, written out turn by turn (the model at the end)."""
        if turns == 0:
            return float(model.win_probabilities(rules, state)[state.player])

        def value(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:
            if is_terminal(rules, end):
                return model.turn_value(rules, start, end, total)
            return 1.0 - chance(end, turns - 1)

        return solve_turn(rules, state, value).value

    late = [t for t in _tables("classic", 2, games=6, seed=5) if len(t.grill) <= 3]
    assert len(late) >= 3
    for turns in (1, 2, 3):
        ahead = model.lookahead_value(turns)
        for end in late[:3]:
            start = end.replace(player=1 - end.player)
            wanted = 1.0 - chance(end, turns - 1)
            assert ahead(rules, start, end, None) == pytest.approx(wanted)
            assert ahead(rules, start, end, None) == pytest.approx(wanted)  # remembered
    assert model.lookahead_value(1) == model.turn_value
    assert load_win_model("classic", 3).lookahead_value(1) is not None  # one turn: any table


@pytest.mark.parametrize("turns", [0, -1, True, 2.0, "2", None])
def test_a_look_ahead_takes_a_whole_number_of_turns(turns: object) -> None:
    with pytest.raises(ValueError, match="whole number of turns"):
        load_win_model("classic", 2).lookahead_value(turns)  # type: ignore[arg-type]
    with pytest.raises(InvalidWinModelError, match="two players"):
        load_win_model("classic", 3).lookahead_value(3)


def _late_turns(tiles: int) -> list[tuple[GameState, GameState]]:
    """(start, end) of turns of random games that start with ``tiles`` tiles or fewer."""
    tables = _tables("classic", 2, games=8, seed=5)
    turns = itertools.pairwise(tables)  # (a game's last and the next's first: filtered out)
    return [
        (start, end)
        for start, end in turns
        if len(start.grill) <= tiles and len(end.grill) <= len(start.grill) and end != start
    ]


def test_an_endgame_value_looks_further_only_from_its_number_of_tiles() -> None:
    rules = get_rules("classic")
    model = load_win_model("classic", 2)
    value, deep = model.endgame_value(3, tiles=2), model.lookahead_value(3)
    turns = _late_turns(tiles=2)[:4]
    assert len(turns) == 4
    differs = 0
    for start, end in turns:
        assert value(rules, start, end, None) == deep(rules, start, end, None)
        # the same end after a turn that began with a third tile: one turn deep
        earlier = start.replace(grill=tuple(sorted((*start.grill, 36))))
        assert value(rules, earlier, end, None) == model.turn_value(rules, earlier, end, None)
        differs += deep(rules, earlier, end, None) != model.turn_value(rules, earlier, end, None)
    assert differs  # so the two cases are told apart
    assert model.endgame_value(1, tiles=16)(rules, start, end, None) == model.turn_value(
        rules, start, end, None
    )


@pytest.mark.parametrize("tiles", [0, -1, True, 2.0, "2", None, [2]])
def test_an_endgame_starts_at_a_whole_number_of_tiles(tiles: object) -> None:
    model = load_win_model("classic", 2)
    with pytest.raises(ValueError, match="whole number of tiles"):
        model.endgame_value(4, tiles)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="whole number of turns"):
        model.endgame_value(0, 2)
    with pytest.raises(InvalidWinModelError, match="two players"):
        load_win_model("classic", 3).endgame_value(2, 2)


def test_a_tiered_value_looks_as_far_as_the_fewest_tiles_it_names_allow() -> None:
    rules = get_rules("classic")
    model = load_win_model("classic", 2)
    value = model.tiered_value({2: 2, 1: 3})  # in any order
    looks = {1: model.lookahead_value(3), 2: model.lookahead_value(2), 3: model.turn_value}
    seen = dict.fromkeys(looks, 0)
    for start, end in _late_turns(tiles=3):
        left = len(start.grill)
        if seen[left] < 2:
            assert value(rules, start, end, None) == looks[left](rules, start, end, None), left
            seen[left] += 1
    assert seen == dict.fromkeys(looks, 2)
    one_tier = model.tiered_value({2: 4})
    endgame = model.endgame_value(4, tiles=2)
    for start, end in _late_turns(tiles=3)[:6]:
        assert one_tier(rules, start, end, None) == endgame(rules, start, end, None)
    start, end = _late_turns(tiles=16)[0]
    assert model.tiered_value({})(rules, start, end, None) == model.turn_value(
        rules, start, end, None
    )


@pytest.mark.parametrize(
    ("tiers", "wanted"),
    [
        ({0: 2}, "whole number of tiles"),
        ({True: 2}, "whole number of tiles"),
        ({"1": 2}, "whole number of tiles"),
        ({1: 3, 2: 0}, "whole number of turns"),
        ({1: 2.0}, "whole number of turns"),
    ],
)
def test_a_tiered_value_takes_whole_numbers(tiers: dict[Any, Any], wanted: str) -> None:
    with pytest.raises(ValueError, match=wanted):
        load_win_model("classic", 2).tiered_value(tiers)
    with pytest.raises(InvalidWinModelError, match="two players"):
        load_win_model("classic", 3).tiered_value({1: 2})


def test_the_shipped_models_say_how_their_champions_play_as_the_recipes_do() -> None:
    for variant, players in SHIPPED:
        model = load_win_model(variant, players)
        recipe = GAMES[variant, players]
        assert model.about["reply"] is recipe.reply
        assert model.about["endgame"] == recipe.endgame_about()
        assert model.about["rounds"] == len(recipe.rounds) - 1
        assert len(model.layers) == len(recipe.rounds[-1].hidden) + 1
    assert GAMES["classic", 2].endgame is not None  # the end is searched deeper there


def test_the_champion_plays_for_the_value_its_models_about_names() -> None:
    from pickomino_rules.learned import _champion_of  # noqa: PLC0415 (the bot of a model)

    rules = get_rules("classic")
    model = load_win_model("classic", 2)
    turns = _late_turns(tiles=2)[:3]
    asked: dict[str, tuple[dict[str, Any], TurnValue]] = {
        "nothing": ({}, model.turn_value),
        "the reply": ({"reply": True}, model.reply_value()),
        "an endgame": ({"endgame": {"turns": 3, "tiles": 2}}, model.lookahead_value(3)),
        "tiers": (
            {"endgame": [{"turns": 2, "tiles": 1}, {"turns": 4, "tiles": 2}]},
            model.tiered_value({1: 2, 2: 4}),
        ),
        "no endgame": ({"endgame": None, "reply": False}, model.turn_value),
    }
    seen = {}
    for name, (about, value) in asked.items():
        champion = _champion_of(WinModel.of("classic", 2, model.options, model.layers, about))
        seen[name] = [champion.value(rules, start, end, None) for start, end in turns]
        assert seen[name] == [value(rules, start, end, None) for start, end in turns], name
    assert len({tuple(values) for values in seen.values()}) == 4  # each look tells apart


@pytest.mark.parametrize(
    "about",
    [
        {"endgame": [4, 2]},
        {"endgame": {"turns": 4}},
        {"endgame": {"turns": 4, "tiles": 2, "depth": 1}},
        {"endgame": {"turns": 0, "tiles": 2}},
        {"endgame": {"turns": 4, "tiles": True}},
        {"endgame": {"turns": 4, "tiles": 2}, "reply": True},
        {"endgame": []},
        {"endgame": "turns 4, tiles 2"},
        {"endgame": [{"turns": 3, "tiles": 1}, {"turns": 2, "tiles": 1}]},
        {"endgame": [{"turns": 3, "tiles": 1}, [2, 2]]},
        {"endgame": [{"turns": 3, "tiles": 1}, {"turns": 2, "tiles": 2.0}]},
        {"endgame": [{"turns": 3, "tiles": 1}, {"turns": 2, "tiles": True}]},
        {"endgame": [{"turns": 3, "tiles": 1}, {"turns": 0, "tiles": 2}]},
        {"endgame": [{"turns": 3, "tiles": 1}], "reply": True},
    ],
)
def test_a_model_whose_about_names_no_champion_is_refused(about: dict[str, object]) -> None:
    model = load_win_model("classic", 2)
    asked = WinModel.of("classic", 2, model.options, model.layers, about)
    with pytest.raises(InvalidWinModelError, match="endgame"):
        asked.champion_value()


def test_a_refused_endgame_is_quoted_briefly() -> None:
    model = load_win_model("classic", 2)
    endgame = [{"turns": 2, "tiles": 1}] * 100_000  # each number of tiles named once, not so
    asked = WinModel.of("classic", 2, model.options, model.layers, {"endgame": endgame})
    with pytest.raises(InvalidWinModelError, match="endgame") as refused:
        asked.champion_value()
    assert len(str(refused.value)) < 300


def test_a_model_for_more_players_cannot_ask_its_champion_to_look_further() -> None:
    model = load_win_model("classic", 3)
    for about in ({"reply": True}, {"endgame": {"turns": 2, "tiles": 2}}):
        asked = WinModel.of("classic", 3, model.options, model.layers, about)
        with pytest.raises(InvalidWinModelError, match="two players"):
            asked.champion_value()


def test_the_champion_plays_the_turn_its_model_values_most() -> None:
    model = load_win_model("classic", 2)
    rules, state = new_game("classic", players=2)
    state = apply(rules, state, RollOutcome.parse("1223wwww"))
    wanted = solve_turn(rules, state, model.turn_value)  # 16 tiles: one turn deep
    assert champion_bot(rules, state, random.Random(0)) == wanted.best_action(state)
    late = Position.parse(LATE).state
    deep = solve_turn(rules, late, model.lookahead_value(4)).best_action(late)
    assert deep != solve_turn(rules, late, model.turn_value).best_action(late)
    assert champion_bot(rules, late, random.Random(0)) == deep


def test_the_extended_champion_looks_further_the_fewer_tiles_are_left() -> None:
    model = load_win_model("extended", 2)
    assert model.about["endgame"] == [{"turns": 3, "tiles": 1}, {"turns": 2, "tiles": 2}]
    position = Position.parse(EXTENDED_LATE)  # two tiles: through the opponent's reply
    rules, state = position.rules, position.state
    deep = solve_turn(rules, state, model.lookahead_value(2)).best_action(state)
    assert deep != solve_turn(rules, state, model.turn_value).best_action(state)
    assert champion_bot(rules, state, random.Random(0)) == deep


@pytest.mark.parametrize("variant", ["classic", "extended", "extrawurm"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fast_features_mirror_the_observation(variant: str, players: int) -> None:
    from pickomino_rules.learned._value import _Game, _table_row  # noqa: PLC0415 (the mirror)

    rules = get_rules(variant)
    encoding = Encoding.of(rules, players)
    game = _Game.of(rules, encoding)
    assert game.plain == (variant == "classic")  # the others have parts of their own
    tables = _tables(variant, players, games=3, seed=players)
    assert len(tables) > 50
    for state in tables:
        fast = _table_row(game, state)
        slow = table_features(rules, encoding, encoding.observe(state, state.player))[0]
        assert fast.shape == slow.shape
        assert np.abs(fast - slow).max() < 1e-12


def test_hints_and_the_analysis_value_moves_as_the_champion_plays_them() -> None:
    from pickomino_rules.cli._analyse import champion_chances  # noqa: PLC0415 (the command's)
    from pickomino_rules.records import GameRecord  # noqa: PLC0415
    from pickomino_rules.terminal import hint_lines  # noqa: PLC0415

    position = Position.parse(LATE)
    rules, state = position.rules, position.state
    deep = solve_turn(rules, state, load_win_model("classic", 2).lookahead_value(4))
    best = str(deep.best_action(state))  # the champion's move: one turn deep would roll
    marked = [line.split()[0] for line in hint_lines(rules, state) if "best for the game" in line]
    assert marked == [best]
    chances = champion_chances(GameRecord.from_position(position))
    assert chances is not None
    assert solve_turn(rules, state, chances).action_values() == deep.action_values()


def test_check_bot_supports_names_the_game_and_only_options_that_differ() -> None:
    check_bot_supports("champion", get_rules("classic"), 2)  # shipped: no error
    check_bot_supports("greedy", get_rules("extended"), 5)  # plays any game
    with pytest.raises(InvalidSetupError, match=r"'champion' does not play 5-player extended$"):
        check_bot_supports("champion", get_rules("extended"), 5)
    short = get_rules("classic", {"short_game": True})
    with pytest.raises(InvalidSetupError, match=r"2-player classic with these options$"):
        check_bot_supports("champion", short, 2)
    with pytest.raises(UnknownBotError):
        check_bot_supports("no-such-bot", short, 2)


STALL = (
    "extended 11,13 36,35,34,33,32,31,28,27,30,26,29,22,24,23,21,25 -/- 0c 8,0 - 222244ww "
    'grilled_worms=[0,[7,0],null,[]] weasel=[false] specialists=[[["can",11],["hen",21],'
    '["crow",23],["weasel",25],["golden_die",27],["apple",29]],[[null,null],[null,null],'
    "[null,null],[13,null],[null,null],[null,null]],null]"
)
"""Only 11 and 13 left (O4: nobody may hold both), empty stacks, 7 grilled worms to 0: a
bust turns nothing (C10). The champion of 0.2 busted here turn after turn (from a game of
its own against itself that ran over a million moves)."""


def test_c10_e4_the_champion_counts_a_turn_moving_no_tile_no_better_than_a_fair_share() -> None:
    from pickomino_rules.learned._value import _no_tile_moved  # noqa: PLC0415 (the test)

    position = Position.parse(STALL)
    rules, start = position.rules, position.state
    model = load_win_model("extended", 2)
    value = model.champion_value()
    passed = start.replace(phase=Phase.ROLL, roll=None, player=1)  # a bust: nothing moves
    assert _no_tile_moved(start, passed)
    played = model._played_value()  # noqa: SLF001 (the value before the cap)
    assert played(rules, start, passed, None) > 0.5
    assert value(rules, start, passed, None) == 0.5
    # a grilled worm robbed (E4) and a bust: no tile moved either
    worms = start.parts[0]
    robbed = passed.replace(parts=(attrs.evolve(worms, held=(6, 1)), *start.parts[1:]))
    assert _no_tile_moved(start, robbed)
    assert played(rules, start, robbed, None) > 0.5
    assert value(rules, start, robbed, None) == 0.5
    # the player behind keeps his own estimate of a pass: below his fair share already
    behind = passed.replace(player=0)
    trailer = start.replace(player=1)
    assert value(rules, trailer, behind, None) == played(rules, trailer, behind, None) < 0.5
    # a turn that moves something is valued as before
    took = passed.replace(grill=(13,), stacks=((11,), ()))
    assert not _no_tile_moved(start, took)
    assert value(rules, start, took, None) == played(rules, start, took, None)


def test_c10_the_champion_leading_on_a_table_that_could_repeat_plays_for_a_tile() -> None:
    position = Position.parse(STALL)
    rules, state = position.rules, position.state
    shipped = load_win_model("extended", 2)
    about = {"endgame": {"turns": 3, "tiles": 2}}  # the champion of 0.2 looked this far here
    model = WinModel.of("extended", 2, shipped.options, shipped.layers, about)
    before = solve_turn(rules, state, model._played_value())  # noqa: SLF001 (uncapped)
    assert before.outcome_distribution()["bust"] > 0.99  # passing kept its lead, for ever
    after = solve_turn(rules, state, model.champion_value()).outcome_distribution()
    assert after["takes 11"] + after["takes 13"] > 0.5
    shipped_after = solve_turn(rules, state, shipped.champion_value()).outcome_distribution()
    assert shipped_after["takes 11"] + shipped_after["takes 13"] > 0.5


def test_c10_two_champions_end_a_game_that_used_to_run_for_ever() -> None:
    rules, state = new_game("extended", players=2)
    champion = get_bot("champion")
    final = play(rules, state, champion, random.Random(5), max_moves=20_000)
    assert is_terminal(rules, final)
