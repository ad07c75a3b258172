"""One or more tests for every extended rule (E1-E14) and option (O4-O6) of RULES.md."""

from __future__ import annotations

import pickle
import random
from fractions import Fraction

import pytest

from pickomino_rules import (
    Face,
    GameState,
    IllegalActionError,
    InvalidOptionError,
    Phase,
    Roll,
    Rules,
    Steal,
    Stop,
    apply,
    chance_outcomes,
    compose,
    legal_actions,
    new_game,
    play,
    result,
    scores,
)
from pickomino_rules.bots import random_bot
from pickomino_rules.variants.classic import classic_modules
from pickomino_rules.variants.extended import EXTENDED
from pickomino_rules.variants.grilled_worms import (
    GRILLED_WORMS,
    GrilledWorms,
    RobGrilledWorm,
    grilled_worms,
)
from pickomino_rules.variants.specialists import (
    CAN,
    HEN,
    SPECIALISTS,
    WEASEL,
    KeepSpecialist,
    Place,
    SkipWeasel,
    Specialist,
    UseWeasel,
)
from pickomino_rules.variants.specialists.placement import UnknownSpecialistError
from support import check_invariants, run

ALL_TILES = (11, 13, *range(21, 37))


def table(  # noqa: PLR0913 (a table is laid out by keyword)
    *,
    players: int = 3,
    grill: tuple[int, ...] | None = None,
    stacks: tuple[tuple[int, ...], ...] | None = None,
    specialists: dict[str, Place] | None = None,
    tokens: tuple[int, ...] | None = None,
    options: dict[str, object] | None = None,
    variant: str = "extended",
) -> tuple[Rules, GameState]:
    """An extended game at player 0's turn start, laid out as given.

    Tiles not on the grill or in a stack are face down. Specialists not named stay
    where set-up put them (when their tile is still on the grill) or leave the game.
    """
    rules, state = new_game(variant, players=players, options=options)
    stacks = stacks or ((),) * players
    held = {tile for stack in stacks for tile in stack}
    if grill is None:
        grill = tuple(t for t in rules.tiles if t not in held)
    out = tuple(t for t in rules.tiles if t not in held and t not in grill)
    state = state.replace(grill=grill, stacks=stacks, face_down=out)
    places = SPECIALISTS.get(rules, state)
    for spec, place in zip(places.specs, places.places, strict=True):
        if place.tile not in grill:
            places = places.moved(spec, Place())
    for name, place in (specialists or {}).items():
        places = places.moved(specialist(rules, state, name), place)
    state = SPECIALISTS.set(rules, state, places)
    if tokens is not None:
        state = GRILLED_WORMS.set(rules, state, GrilledWorms(7 - sum(tokens), tokens))
    state = state.replace(in_hand=rules.turn_dice(rules, state))
    if not grill:
        state = state.replace(phase=Phase.GAME_OVER, in_hand=())
    check_invariants(rules, state)
    return rules, state


def specialist(rules: Rules, state: GameState, name: str) -> Specialist:
    spec = SPECIALISTS.get(rules, state).named(name)
    assert spec is not None, f"no specialist {name!r} in play"
    return spec


def where(rules: Rules, state: GameState, name: str) -> Place:
    return SPECIALISTS.get(rules, state).place(specialist(rules, state, name))


def tokens(rules: Rules, state: GameState) -> GrilledWorms:
    return GRILLED_WORMS.get(rules, state)


# E1, E2 -------------------------------------------------------------------------------


def test_e1_eighteen_tiles_seven_tokens_six_specialists() -> None:
    rules, state = new_game("extended", players=2)
    assert rules.tiles == ALL_TILES
    assert rules.worms_of(11) == rules.worms_of(13) == 1
    assert tokens(rules, state) == GrilledWorms(7, (0, 0))
    names = [spec.name for spec in SPECIALISTS.get(rules, state).specs]
    assert sorted(names) == ["apple", "can", "crow", "golden_die", "hen", "weasel"]


def test_e2_specialists_start_on_their_tiles() -> None:
    rules, state = new_game("extended", players=4)
    starts = {name: where(rules, state, name).tile for name in ("can", "hen", "crow")}
    starts |= {name: where(rules, state, name).tile for name in ("weasel", "golden_die", "apple")}
    assert starts == {"can": 11, "hen": 21, "crow": 23, "weasel": 25, "golden_die": 27, "apple": 29}
    text = str(state)
    assert "can on 11" in text
    assert "grilled worms: supply 7" in text


# E3, O4 -------------------------------------------------------------------------------


def test_e3_low_tiles_need_an_exact_total() -> None:
    rules, state = table(grill=(11, 13, 30))
    state = run(rules, state, ["ww222333", "take w", "roll", "222333", "take 3"])  # 10 + 9 = 19
    assert legal_actions(rules, state) == (Roll(), Stop())
    busted = apply(rules, state, Stop())  # 13 and 11 are never "the next lower tile"
    assert busted.stacks[0] == ()
    rules, state = table(grill=(11, 13, 30))
    state = run(rules, state, ["w2224444", "take w", "roll", "2224444", "take 2"])  # 5 + 6 = 11
    state = apply(rules, state, Stop())
    assert state.stacks[0] == (11,)


def test_e3_low_tiles_are_never_stolen() -> None:
    rules, state = table(grill=(21, 30), stacks=((), (13,), ()))
    state = run(rules, state, ["ww133333", "take w", "roll", "133333", "take 1"])  # 10 + 1 = 11
    state = run(rules, state, ["roll", "23333", "take 2"])  # 13: only on player 1's stack
    assert state.total == 13
    assert Steal(1) not in legal_actions(rules, state)
    with pytest.raises(IllegalActionError):
        apply(rules, state, Steal(1))


def test_e3_o4_nobody_holds_11_and_13() -> None:
    for exclusive, takes in ((True, False), (False, True)):
        rules, state = table(
            grill=(13, 30), stacks=((11,), (), ()), options={"exclusive_low_tiles": exclusive}
        )
        state = run(rules, state, ["ww133333", "take w", "roll", "133333", "take 1"])
        state = run(rules, state, ["roll", "23333", "take 2", "stop"])
        assert (13 in state.stacks[0]) is takes


# E4 -----------------------------------------------------------------------------------


def test_e4_two_ones_earn_a_grilled_worm_from_the_supply() -> None:
    rules, state = table()
    state = run(rules, state, ["11234555", "take 1"])
    assert tokens(rules, state) == GrilledWorms(6, (1, 0, 0))
    state = run(rules, state, ["roll", "1ww2w4"])
    assert tokens(rules, state).held == (1, 0, 0)  # a single 1 earns nothing (not taken yet)
    rules, state = table()
    state = run(rules, state, ["12345555", "take 1"])
    assert tokens(rules, state).held == (0, 0, 0)


def test_e4_tokens_are_kept_even_when_the_turn_busts() -> None:
    rules, state = table()
    state = run(rules, state, ["11234555", "take 1", "roll", "111111"])  # nothing new: bust
    assert state.player == 1
    assert tokens(rules, state).held == (1, 0, 0)


def test_e4_empty_supply_choose_an_opponent_to_rob() -> None:
    rules, state = table(players=4, tokens=(0, 3, 4, 0))
    state = run(rules, state, ["11234555", "take 1"])
    assert legal_actions(rules, state) == (RobGrilledWorm(1), RobGrilledWorm(2))
    with pytest.raises(IllegalActionError):
        apply(rules, state, RobGrilledWorm(3))
    assert "chooses whom to rob" in str(state)
    state = apply(rules, state, RobGrilledWorm(2))
    assert tokens(rules, state) == GrilledWorms(0, (1, 3, 3, 0))
    assert state.phase is Phase.DECIDE


def test_e4_empty_supply_single_holder_is_robbed_automatically() -> None:
    rules, state = table(players=3, tokens=(0, 7, 0))
    state = run(rules, state, ["11234555", "take 1"])
    assert tokens(rules, state) == GrilledWorms(0, (1, 6, 0))
    rules, state = table(players=3, tokens=(7, 0, 0))  # nobody else has one: nothing happens
    state = run(rules, state, ["11234555", "take 1"])
    assert tokens(rules, state) == GrilledWorms(0, (7, 0, 0))


def test_e4_e11_hen_owner_cannot_be_robbed() -> None:
    rules, state = table(players=3, tokens=(0, 3, 4), specialists={"hen": Place(owner=2)})
    state = run(rules, state, ["11234555", "take 1"])  # only player 1 is fair game
    assert tokens(rules, state) == GrilledWorms(0, (1, 2, 4))
    rules, state = table(players=3, tokens=(0, 0, 7), specialists={"hen": Place(owner=2)})
    state = run(rules, state, ["11234555", "take 1"])
    assert tokens(rules, state) == GrilledWorms(0, (0, 0, 7))


# E5 -----------------------------------------------------------------------------------


def test_e5_taking_a_tile_gains_its_specialist() -> None:
    rules, state = new_game("extended", players=2)
    state = run(rules, state, ["wwwww114", "take w", "stop"])  # 25: the weasel's tile
    assert state.stacks[0] == (25,)
    assert where(rules, state, "weasel") == Place(owner=0)
    assert "weasel with player 0" in str(state)


def test_e5_stealing_gains_the_victims_specialist() -> None:
    rules, state = table(
        grill=(21, 22), stacks=((), (29,), ()), specialists={"apple": Place(owner=1)}
    )
    state = run(rules, state, ["wwwww444", "take w", "roll", "412", "take 4", "steal 1"])
    assert state.stacks[:2] == ((29,), ())
    assert where(rules, state, "apple") == Place(owner=0)


def test_e5_a_second_specialist_means_choosing_one() -> None:
    rules, state = table(specialists={"can": Place(owner=0)})
    state = run(rules, state, ["wwwww114", "take w", "stop"])  # 25 carries the weasel
    assert state.phase is Phase.TURN_OVER
    assert state.player == 0
    assert legal_actions(rules, state) == (KeepSpecialist("can"), KeepSpecialist("weasel"))
    state = apply(rules, state, KeepSpecialist("weasel"))
    assert where(rules, state, "weasel") == Place(owner=0)
    assert where(rules, state, "can") == Place(tile=11)  # back to the grill (E6)
    assert state.player == 1
    assert state.phase is Phase.ROLL


# E6, E13 ------------------------------------------------------------------------------


def test_e6_busting_returns_the_specialist_to_the_lowest_free_tile() -> None:
    rules, state = table(
        grill=(13, 22, 24, 30), stacks=((26,), (), ()), specialists={"apple": Place(owner=0)}
    )
    state = run(rules, state, ["55555444", "take 5", "stop"])
    assert state.grill == (13, 22, 24, 26)  # 26 returned, 30 turned
    assert where(rules, state, "apple") == Place(tile=13)


def test_e6_every_grill_tile_occupied_the_specialist_leaves() -> None:
    rules, state = table(
        grill=(21, 23, 26),
        stacks=((), (), ()),
        specialists={"hen": Place(tile=21), "crow": Place(tile=23), "apple": Place(owner=0)},
    )
    state = SPECIALISTS.set(
        rules, state, SPECIALISTS.get(rules, state).moved(WEASEL, Place(tile=26))
    )
    state = run(rules, state, ["55555444", "take 5", "stop"])  # bust, no tile to return
    assert where(rules, state, "apple") == Place()
    assert "apple out of the game" in str(state)


def test_e13_specialist_on_a_turned_tile_moves() -> None:
    rules, state = table(
        grill=(21, 28, 30), stacks=((26,), (), ()), specialists={"golden_die": Place(tile=30)}
    )
    state = run(rules, state, ["55555444", "take 5", "stop"])  # 26 back, 30 turned
    assert 30 in state.face_down
    assert where(rules, state, "golden_die") == Place(tile=26)  # 21 carries the hen


def test_e2_e5_a_table_finds_each_specialist_by_value() -> None:
    rules, state = new_game("extended", players=2)
    start = SPECIALISTS.get(rules, state)
    assert start.place(Specialist("hen", start=21)) == Place(tile=21)  # an equal copy
    for unknown in (Specialist("hen", start=22), Specialist("fox", start=21)):
        with pytest.raises(UnknownSpecialistError, match="no composed module declares"):
            start.place(unknown)
    moved = start.moved(HEN, Place(owner=1)).moved(CAN, Place(owner=1))
    assert moved.owned_by(1) == (CAN, HEN)  # in the table's order, by starting tile
    assert moved.owned_by(0) == ()
    assert start.owned_by(1) == ()  # the first table is unchanged
    assert [spec.name for spec, _ in moved.on_tiles()] == [
        "crow",
        "weasel",
        "golden_die",
        "apple",
    ]
    assert all(moved.place(spec) == Place(tile=tile) for spec, tile in moved.on_tiles())
    assert pickle.loads(pickle.dumps(moved)).owned_by(1) == (CAN, HEN)  # noqa: S301 (our own data)


# E7, E14 ------------------------------------------------------------------------------


def test_e7_e14_score_is_tiles_tokens_and_apple() -> None:
    rules, state = table(
        grill=(),
        stacks=((21, 36), (33, 34), (13,)),
        tokens=(1, 0, 3),
        specialists={"apple": Place(owner=2)},
    )
    assert scores(rules, state) == (5 + 1, 8, 1 + 3 + 3)
    assert result(rules, state).winners == (1,)


def test_e14_game_ends_when_no_tile_is_left_including_low_tiles() -> None:
    rules, state = table(grill=(11,), stacks=((), (), ()))
    state = run(rules, state, ["w3334444", "take w", "roll", "3334444", "take 3", "stop"])  # 14
    assert state.phase is Phase.ROLL  # a bust: 11 is taken only with exactly 11
    assert state.grill == (11,)
    rules, state = table(grill=(11,), stacks=((), (), ()))
    state = run(rules, state, ["w3214444", "take w", "roll", "3214444", "take 3"])
    state = run(rules, state, ["roll", "214444", "take 2", "roll", "14444", "take 1"])
    assert state.total == 11
    state = apply(rules, state, Stop())
    assert state.phase is Phase.GAME_OVER
    assert state.stacks[0] == (11,)


# E8, O6 -------------------------------------------------------------------------------


def test_e8_golden_die_owner_rolls_nine_dice() -> None:
    rules, state = table(specialists={"golden_die": Place(owner=0)})
    assert state.in_hand == (8, 1)
    outcomes = chance_outcomes(rules, state)
    assert sum(p for _, p in outcomes) == 1
    assert len(outcomes) == 1287 * 2
    golden_worm = sum(p for o, p in outcomes if o.counts[1][Face.WORM - 1])
    assert golden_worm == Fraction(1, 2)
    for dice in ((3, 1), (0, 1), (1, 1)):
        assert sum(p for _, p in chance_outcomes(rules, state.replace(in_hand=dice))) == 1


def test_e8_golden_die_forced_stop_only_after_nine_dice() -> None:
    rules, state = table(specialists={"golden_die": Place(owner=0)})
    state = run(rules, state, ["wwwwwwww golden:1", "take w"])
    assert state.in_hand == (0, 1)
    assert legal_actions(rules, state)[0] == Roll()  # the ninth die is still to roll
    state = run(rules, state, ["roll", "golden:1", "take 1"])
    assert state.in_hand == (0, 0)
    assert state.total == 41
    assert legal_actions(rules, state) == (Stop(),)


def test_e8_golden_die_is_set_aside_with_its_face() -> None:
    rules, state = table(specialists={"golden_die": Place(owner=0)})
    state = run(rules, state, ["1234555w golden:w", "take w"])
    assert state.set_aside[Face.WORM - 1] == 2
    assert state.in_hand == (7, 0)
    assert state.total == 10


def test_o6_golden_die_faces_option() -> None:
    rules, state = table(
        specialists={"golden_die": Place(owner=0)}, options={"golden_die_faces": "wwwwww"}
    )
    outcomes = chance_outcomes(rules, state)
    assert len(outcomes) == 1287
    assert all(o.counts[1][Face.WORM - 1] == 1 for o, _ in outcomes)
    with pytest.raises(InvalidOptionError, match="six sides"):
        new_game("extended", options={"golden_die_faces": "11www"})
    with pytest.raises(InvalidOptionError, match="golden_die_faces"):
        new_game("extended", options={"golden_die_faces": "11wwwx"})


# E9 -----------------------------------------------------------------------------------


def test_e9_can_stands_in_for_a_missing_worm() -> None:
    rules, state = table(grill=(21, 30), specialists={"can": Place(owner=0)})
    state = run(rules, state, ["55552222", "take 5"])  # 20 + can 5 = 25 -> next lower 21
    assert legal_actions(rules, state)[-1] == Stop()
    state = apply(rules, state, Stop())
    assert state.stacks[0] == (21,)


def test_e9_can_is_not_used_with_a_worm_die() -> None:
    rules, state = table(grill=(21, 25, 30), specialists={"can": Place(owner=0)})
    state = run(rules, state, ["w5552222", "take w", "roll", "5552222", "take 5"])
    assert state.total == 20  # the can adds nothing: 20 claims nothing
    state = apply(rules, state, Stop())
    assert state.stacks[0] == ()


def test_e9_without_the_can_no_worm_busts() -> None:
    rules, state = table(grill=(21, 30), specialists={"can": Place(owner=1)})
    state = run(rules, state, ["55552222", "take 5", "stop"])
    assert state.stacks[0] == ()


# E10 ----------------------------------------------------------------------------------


def test_e10_weasel_rerolls_once_per_turn() -> None:
    rules, state = table(specialists={"weasel": Place(owner=0)})
    state = run(rules, state, ["12345555"])
    assert UseWeasel() in legal_actions(rules, state)
    state = apply(rules, state, UseWeasel())
    assert state.phase is Phase.ROLL
    assert state.in_hand == (8, 0)
    state = run(rules, state, ["wwwww123"])
    assert UseWeasel() not in legal_actions(rules, state)  # once per turn
    state = run(rules, state, ["take w", "stop"])  # takes 25 and keeps the weasel
    assert where(rules, state, "weasel") == Place(owner=0)
    state = run(rules, state, ["55552222", "take 5", "stop"])  # player 1
    state = run(rules, state, ["55552222", "take 5", "stop"])  # player 2
    state = run(rules, state, ["12345555"])
    assert UseWeasel() in legal_actions(rules, state)  # ready again next turn


def test_e10_weasel_after_a_busting_roll() -> None:
    rules, state = table(specialists={"weasel": Place(owner=0)})
    state = run(rules, state, ["55552222", "take 5", "roll", "5555"])  # would bust
    assert state.phase is Phase.CHOOSE
    assert legal_actions(rules, state) == (UseWeasel(), SkipWeasel())
    rerolled = run(rules, apply(rules, state, UseWeasel()), ["2345"])
    assert rerolled.phase is Phase.CHOOSE
    assert rerolled.in_hand == (4, 0)
    busted = apply(rules, state, SkipWeasel())
    assert busted.player == 1
    assert busted.phase is Phase.ROLL


def test_e10_other_players_have_no_weasel() -> None:
    rules, state = table(specialists={"weasel": Place(owner=1)})
    state = run(rules, state, ["12345555"])
    assert UseWeasel() not in legal_actions(rules, state)


# E11 ----------------------------------------------------------------------------------


def test_e11_stealing_from_the_hen_owner_takes_the_hen() -> None:
    rules, state = table(
        grill=(21, 22), stacks=((), (27,), ()), specialists={"hen": Place(owner=1)}
    )
    state = run(rules, state, ["wwwww333", "take w", "roll", "112", "take 1"])  # 27
    state = apply(rules, state, Steal(1))
    assert state.stacks[:2] == ((), (27,))  # the tile stays
    assert where(rules, state, "hen") == Place(owner=0)


def test_e11_hen_owner_busting_returns_the_hen_not_the_tile() -> None:
    rules, state = table(
        grill=(21, 30), stacks=((26,), (), ()), specialists={"hen": Place(owner=0)}
    )
    state = run(rules, state, ["55552222", "take 5", "stop"])
    assert state.stacks[0] == (26,)
    assert state.grill == (21, 30)  # nothing turned
    assert where(rules, state, "hen") == Place(tile=21)


def test_e11_hen_owner_busting_with_no_tile_keeps_the_hen() -> None:
    rules, state = table(grill=(21, 30), specialists={"hen": Place(owner=0)})
    state = run(rules, state, ["55552222", "take 5", "stop"])
    assert where(rules, state, "hen") == Place(owner=0)
    assert state.grill == (21, 30)


# E12 ----------------------------------------------------------------------------------


def test_e12_crow_tile_taken_moves_the_crow_and_pays_a_token() -> None:
    rules, state = table(grill=(13, 23, 30), specialists={"crow": Place(tile=23)})
    state = run(rules, state, ["wwww3222", "take w", "roll", "3222", "take 3"])  # 23
    state = apply(rules, state, Stop())
    assert state.stacks[0] == (23,)
    assert where(rules, state, "crow") == Place(tile=13)
    assert tokens(rules, state).held == (1, 0, 0)


def test_e12_crow_with_empty_supply_robs_like_e4() -> None:
    rules, state = table(grill=(23, 30), tokens=(0, 4, 3), specialists={"crow": Place(tile=23)})
    state = run(rules, state, ["wwww3222", "take w", "roll", "3222", "take 3", "stop"])
    assert state.phase is Phase.TURN_OVER
    assert legal_actions(rules, state) == (RobGrilledWorm(1), RobGrilledWorm(2))
    state = apply(rules, state, RobGrilledWorm(1))
    assert tokens(rules, state).held == (1, 3, 3)
    assert state.player == 1


# Composition --------------------------------------------------------------------------


def test_a_la_carte_classic_with_grilled_worms_only() -> None:
    options = {"flip_on_empty_bust": False, "short_game": False, "optional_steal": True}
    rules = compose(*classic_modules(options), grilled_worms(), name="classic+grilled")
    _, state = new_game(rules, players=2)
    assert rules.tiles == tuple(range(21, 37))
    state = run(rules, state, ["11w23455", "take 1"])
    assert tokens(rules, state).held == (1, 0)
    final = play(rules, state, random_bot, random.Random(4))
    assert final.phase is Phase.GAME_OVER


def test_a_la_carte_extended_without_the_weasel() -> None:
    modules = [m for m in EXTENDED.build(EXTENDED.resolve_options()) if m.name != "weasel"]
    rules = compose(*modules, name="no weasel")
    _, state = new_game(rules, players=3)
    names = [spec.name for spec in SPECIALISTS.get(rules, state).specs]
    assert "weasel" not in names
    assert where(rules, state, "apple") == Place(tile=29)
    for seed in range(3):
        final = play(rules, state, random_bot, random.Random(seed))
        check_invariants(rules, final)


def test_o5_low_tile_worms() -> None:
    rules, _ = new_game("extended", options={"low_tile_worms": (0, 2)})
    assert (rules.worms_of(11), rules.worms_of(13)) == (0, 2)
    rules, _ = new_game("extended", options={"low_tile_worms": 3})
    assert (rules.worms_of(11), rules.worms_of(13)) == (3, 3)
    for bad in (-1, (1, 2, 3), "1", True):
        with pytest.raises(InvalidOptionError, match="low_tile_worms"):
            new_game("extended", options={"low_tile_worms": bad})


def test_extrawurm_has_no_apple() -> None:
    rules, state = new_game("extrawurm", players=2)
    names = [spec.name for spec in SPECIALISTS.get(rules, state).specs]
    assert "apple" not in names
    assert len(names) == 5


@pytest.mark.parametrize("variant", ["extended", "extrawurm"])
def test_e14_scores_add_up_over_random_games(variant: str) -> None:
    rules, start = new_game(variant, players=4)
    for seed in range(4):
        final = play(rules, start, random_bot, random.Random(seed))
        table = SPECIALISTS.get(rules, final)
        held = GRILLED_WORMS.get(rules, final).held
        for player, stack in enumerate(final.stacks):
            expected = sum(rules.worms_of(tile) for tile in stack) + held[player]
            apple = table.named("apple")
            expected += 3 * (apple is not None and table.place(apple).owner == player)
            assert scores(rules, final)[player] == expected


def test_e11_story_tells_a_hen_robbery() -> None:
    from pickomino_rules import parse_move  # noqa: PLC0415
    from pickomino_rules.story import turns  # noqa: PLC0415

    rules, state = table(
        grill=(21, 22), stacks=((), (27,), ()), specialists={"hen": Place(owner=1)}
    )
    script = ["wwwww333", "take w", "roll", "112", "take 1", "steal 1"]
    (turn,) = turns(rules, state, [parse_move(rules, move) for move in script])
    assert turn.outcome == "robs player 1, whose tile stays"
    assert str(turn).startswith("player 0: [333wwwww] take w roll [112] take 1 steal 1")
