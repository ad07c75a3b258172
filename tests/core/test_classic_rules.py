"""One or more tests for every classic rule (C1-C13) and option (O1-O3) of RULES.md."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pickomino_rules import (
    Face,
    GameState,
    IllegalActionError,
    InvalidOptionError,
    InvalidSetupError,
    Phase,
    Roll,
    RollOutcome,
    Rules,
    Steal,
    Stop,
    Take,
    UnknownVariantError,
    apply,
    chance_outcomes,
    legal_actions,
    new_game,
    result,
    scores,
)
from support import run


def table(  # noqa: PLR0913 (a table is laid out by keyword)
    *,
    players: int = 3,
    grill: tuple[int, ...] | None = None,
    stacks: tuple[tuple[int, ...], ...] | None = None,
    face_down: tuple[int, ...] = (),
    options: dict[str, object] | None = None,
    player: int = 0,
) -> tuple[Rules, GameState]:
    """A classic game at the start of ``player``'s turn with the tiles placed as given."""
    rules, state = new_game("classic", players=players, options=options, first_player=player)
    stacks = stacks or ((),) * players
    held = {tile for stack in stacks for tile in stack} | set(face_down)
    if grill is None:
        grill = tuple(tile for tile in rules.tiles if tile not in held)
    return rules, state.replace(grill=grill, stacks=stacks, face_down=face_down)


# C1 -----------------------------------------------------------------------------------


def test_c1_sixteen_tiles_with_their_worms() -> None:
    rules, _ = new_game("classic")
    assert rules.tiles == tuple(range(21, 37))
    assert [rules.worms_of(t) for t in (21, 24, 25, 28, 29, 32, 33, 36)] == [1, 1, 2, 2, 3, 3, 4, 4]


def test_c1_eight_dice_each_face_one_sixth() -> None:
    rules, state = new_game("classic")
    assert state.in_hand == (8,)
    one_die = rules.chance_table((1,))
    assert sorted(str(o) for o in one_die.outcomes) == ["1", "2", "3", "4", "5", "w"]
    assert set(one_die.probabilities) == {Fraction(1, 6)}


def test_c1_a_worm_counts_five_points() -> None:
    rules, state = new_game("classic")
    state = run(rules, state, ["wwwww111", "take w"])
    assert state.total == 25
    assert Face.WORM.points == 5


# C2 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_c2_two_to_seven_players_all_tiles_face_up(players: int) -> None:
    rules, state = new_game("classic", players=players)
    assert state.grill == rules.tiles
    assert state.stacks == ((),) * players
    assert state.face_down == ()


@pytest.mark.parametrize("players", [0, 1, 8, -2, 2.0, "3", True])
def test_c2_wrong_player_counts_are_rejected(players: object) -> None:
    with pytest.raises(InvalidSetupError, match="2 to 7 players"):
        new_game("classic", players=players)  # type: ignore[arg-type]


def test_c2_first_player_chosen_by_caller_default_zero() -> None:
    assert new_game("classic", players=4)[1].player == 0
    assert new_game("classic", players=4, first_player=3)[1].player == 3
    with pytest.raises(InvalidSetupError, match="first_player"):
        new_game("classic", players=4, first_player=4)


def test_c2_unknown_variant_and_bad_options_are_rejected() -> None:
    with pytest.raises(UnknownVariantError, match="unknown variant 'clasic'"):
        new_game("clasic")
    with pytest.raises(InvalidOptionError, match="no option 'shortgame'"):
        new_game("classic", options={"shortgame": True})
    with pytest.raises(InvalidOptionError, match="short_game"):
        new_game("classic", options={"short_game": "yes"})


# C3 -----------------------------------------------------------------------------------


def test_c3_a_turn_starts_with_a_roll_of_all_eight_dice() -> None:
    rules, state = new_game("classic")
    assert state.phase is Phase.ROLL
    assert state.is_chance
    outcomes = chance_outcomes(rules, state)
    assert all(sum(o.dice) == 8 for o, _ in outcomes)
    with pytest.raises(IllegalActionError, match="C3"):
        apply(rules, state, Roll())
    with pytest.raises(IllegalActionError, match="C3"):
        apply(rules, state, RollOutcome.parse("1234"))


# C4 -----------------------------------------------------------------------------------


def test_c4_all_dice_of_the_chosen_face_are_set_aside() -> None:
    rules, state = new_game("classic")
    state = run(rules, state, ["44412355", "take 4"])
    assert state.set_aside == (0, 0, 0, 3, 0, 0)
    assert state.in_hand == (5,)
    assert state.phase is Phase.DECIDE


def test_c4_only_faces_shown_and_not_yet_set_aside() -> None:
    rules, state = new_game("classic")
    state = run(rules, state, ["44412355", "take 4", "roll", "4w123"])
    assert [str(a) for a in legal_actions(rules, state)] == ["take 1", "take 2", "take 3", "take w"]
    with pytest.raises(IllegalActionError, match="C4: 4s were already set aside"):
        apply(rules, state, Take(Face.FOUR))
    with pytest.raises(IllegalActionError, match="C4: no die of the roll shows 5"):
        apply(rules, state, Take(Face.FIVE))
    with pytest.raises(IllegalActionError, match="C4"):
        apply(rules, state, Stop())


# C5 -----------------------------------------------------------------------------------


def test_c5_a_roll_of_only_used_faces_busts_at_once() -> None:
    rules, state = table(stacks=((22, 30), (), ()))
    state = run(rules, state, ["44412355", "take 4", "roll", "w4444", "take w"])
    assert state.phase is Phase.DECIDE  # a worm was new
    state = run(rules, state, ["roll", "4w44"])
    # Bust: 30 back to the grill; 36 turned face down; next player's roll.
    assert state.stacks[0] == (22,)
    assert 30 in state.grill
    assert state.face_down == (36,)
    assert state.player == 1
    assert state.phase is Phase.ROLL


# C6 -----------------------------------------------------------------------------------


def test_c6_no_roll_when_all_dice_are_set_aside() -> None:
    rules, state = new_game("classic")
    state = run(rules, state, ["wwwwwwww", "take w"])
    assert legal_actions(rules, state) == (Stop(),)
    with pytest.raises(IllegalActionError, match="C6: no dice are left"):
        apply(rules, state, Roll())


def test_c6_no_roll_when_all_six_faces_are_set_aside() -> None:
    rules, state = new_game("classic")
    state = run(rules, state, ["11234w55", "take 5", "roll", "11234w", "take w", "roll", "11234"])
    state = run(rules, state, ["take 4", "roll", "1123", "take 3", "roll", "112", "take 2"])
    state = run(rules, state, ["roll", "15", "take 1"])
    assert state.in_hand == (1,)  # one die left, but every face is used
    assert legal_actions(rules, state) == (Stop(),)
    with pytest.raises(IllegalActionError, match="C6: all six faces"):
        apply(rules, state, Roll())


def test_c6_roll_again_rolls_only_the_dice_not_set_aside() -> None:
    rules, state = new_game("classic")
    state = run(rules, state, ["44412355", "take 4", "roll"])
    assert state.phase is Phase.ROLL
    assert state.in_hand == (5,)
    assert all(sum(o.dice) == 5 for o, _ in chance_outcomes(rules, state))


# C7 -----------------------------------------------------------------------------------


def test_c7_stop_at_any_time_takes_the_tile_of_the_total() -> None:
    rules, state = new_game("classic")
    state = run(rules, state, ["wwww1111", "take w", "stop"])  # 20: only 21+ exist
    assert state.stacks[0] == ()  # no tile below 21: bust with an empty stack
    state = run(rules, state, ["wwwww111", "take w", "stop"])  # player 1: 25
    assert state.stacks[1] == (25,)


def test_c7_a_stop_without_a_worm_busts() -> None:
    rules, state = table(stacks=((), (26,), ()), player=1)
    state = run(rules, state, ["55555444", "take 5"])
    assert state.total == 25
    assert legal_actions(rules, state) == (Roll(), Stop())
    state = apply(rules, state, Stop())
    assert state.stacks[1] == ()
    assert state.grill[-1] == 35
    assert state.face_down == (36,)


# C8 -----------------------------------------------------------------------------------


def test_c8_exact_grill_tile_is_the_only_claim() -> None:
    rules, state = table(stacks=((), (27,), ()), grill=tuple(t for t in range(21, 37) if t != 27))
    state = run(rules, state, ["55555www", "take 5", "roll", "www", "take w"])  # 25 + 15 = 40
    assert state.total == 40
    rules, state = table(stacks=((), (), (27,)))
    state = run(rules, state, ["wwwww221", "take w"])
    assert state.total == 25
    assert legal_actions(rules, state) == (Roll(), Stop())
    state = apply(rules, state, Stop())
    assert state.stacks[0] == (25,)


def test_c8_steal_is_optional_and_next_lower_is_the_alternative() -> None:
    grill = (21, 22, 23, 24, 25, 26, 28, 29, 30)
    rules, state = table(stacks=((), (27,), ()), grill=grill, face_down=(31, 32, 33, 34, 35, 36))
    state = run(rules, state, ["wwwww221", "take w", "roll", "213", "take 1"])  # 25 + 1 = 26
    assert state.total == 26
    assert legal_actions(rules, state) == (Roll(), Stop())  # 26 on the grill: exact
    rules, state = table(stacks=((), (27,), ()), grill=grill, face_down=(31, 32, 33, 34, 35, 36))
    state = run(rules, state, ["wwwww221", "take w", "roll", "213", "take 2"])  # 25 + 2 = 27
    assert state.total == 27
    assert legal_actions(rules, state) == (Roll(), Stop(), Steal(1))
    stolen = apply(rules, state, Steal(1))
    assert stolen.stacks == ((27,), (), ())
    declined = apply(rules, state, Stop())
    assert declined.stacks == ((26,), (27,), ())


def test_c8_when_the_steal_is_the_only_claim_stopping_takes_it() -> None:
    rules, state = table(stacks=((), (27,), ()), grill=(28, 29), face_down=tuple(range(21, 27)))
    state = state.replace(face_down=(*state.face_down, *range(30, 37)))
    state = run(rules, state, ["wwwww221", "take w", "roll", "213", "take 2"])  # 27, no lower
    assert state.total == 27
    assert legal_actions(rules, state) == (Roll(), Stop(), Steal(1))
    stopped = apply(rules, state, Stop())
    assert stopped.stacks == ((27,), (), ())
    assert stopped == apply(rules, state, Steal(1))


def test_c8_own_top_tile_never_counts_and_no_claim_means_bust() -> None:
    rules, state = table(stacks=((27,), (), ()), grill=(28, 29), face_down=tuple(range(30, 37)))
    held = (21, 22, 23, 24, 25, 26)
    state = state.replace(stacks=((*held, 27), (), ()))
    state = run(rules, state, ["wwwww221", "take w", "roll", "213", "take 2"])  # 27
    assert legal_actions(rules, state) == (Roll(), Stop())  # no claim: stopping busts
    busted = apply(rules, state, Stop())
    assert busted.stacks[0] == held
    assert busted.grill == (27, 28)
    assert busted.face_down[-1] == 29


def test_c8_steal_impossible_is_refused_with_the_rule() -> None:
    rules, state = table(stacks=((), (27,), ()))
    state = run(rules, state, ["wwwww221", "take w"])
    with pytest.raises(IllegalActionError, match="C8: tile 25 is on the grill"):
        apply(rules, state, Steal(1))
    rules, state = table(stacks=((), (27,), (26,)), grill=(21, 22))
    state = run(rules, state, ["wwwww221", "take w"])
    with pytest.raises(IllegalActionError, match="C8: the top tile of player 1 is not 25"):
        apply(rules, state, Steal(1))
    with pytest.raises(IllegalActionError, match="C8: player 0 is not an opponent"):
        apply(rules, state, Steal(0))


# C9 -----------------------------------------------------------------------------------


def test_c9_taken_tiles_go_on_top_and_only_the_top_can_be_stolen() -> None:
    rules, state = table(stacks=((), (25, 31), ()), grill=(21, 22, 23, 24))
    state = state.replace(face_down=tuple(t for t in range(26, 37) if t != 31))
    state = run(rules, state, ["wwwww221", "take w"])  # 25 is under 31: not visible
    assert legal_actions(rules, state) == (Roll(), Stop())
    state = apply(rules, state, Stop())
    assert state.stacks == ((24,), (25, 31), ())
    assert state.top(1) == 31


# C10 ----------------------------------------------------------------------------------


def test_c10_bust_returns_top_tile_and_turns_the_highest() -> None:
    rules, state = table(stacks=((22, 25), (), ()), grill=(21, 23, 24, 26, 27, 28))
    state = state.replace(face_down=tuple(range(29, 37)))
    state = run(rules, state, ["55555444", "take 5", "stop"])
    assert state.stacks[0] == (22,)
    assert state.grill == (21, 23, 24, 25, 26, 27)
    assert state.face_down[-1] == 28


def test_c10_returned_tile_that_is_highest_stays_face_up() -> None:
    rules, state = table(stacks=((22, 30), (), ()), grill=(21, 23, 24, 25))
    state = state.replace(face_down=(26, 27, 28, 29, 31, 32, 33, 34, 35, 36))
    state = run(rules, state, ["55555444", "take 5", "stop"])
    assert state.grill == (21, 23, 24, 25, 30)
    assert state.face_down == (26, 27, 28, 29, 31, 32, 33, 34, 35, 36)


def test_c10_bust_with_empty_stack_turns_nothing() -> None:
    rules, state = table()
    state = run(rules, state, ["55555444", "take 5", "stop"])
    assert state.grill == rules.tiles
    assert state.face_down == ()
    assert state.player == 1


# C11 ----------------------------------------------------------------------------------


def test_c11_play_passes_to_the_next_player_wrapping_around() -> None:
    rules, state = new_game("classic", players=3, first_player=1)
    seen = [state.player]
    for _ in range(4):
        state = run(rules, state, ["55555444", "take 5", "stop"])
        seen.append(state.player)
    assert seen == [1, 2, 0, 1, 2]


# C12 ----------------------------------------------------------------------------------


def test_c12_game_ends_when_the_grill_is_empty_after_the_turn() -> None:
    rules, state = table(stacks=(tuple(range(22, 31)), (), ()), grill=(21,))
    state = state.replace(face_down=tuple(range(31, 37)))
    state = run(rules, state, ["wwww1111", "take w", "roll", "1111", "take 1"])  # 24
    assert state.phase is Phase.DECIDE
    final = apply(rules, state, Stop())
    assert final.grill == ()
    assert final.phase is Phase.GAME_OVER
    assert legal_actions(rules, final) == ()
    with pytest.raises(IllegalActionError, match="C12: the game is over"):
        apply(rules, final, Roll())


def test_c12_a_bust_that_turns_the_last_tile_ends_the_game() -> None:
    rules, state = table(stacks=((22,), (), ()), grill=(21,), face_down=tuple(range(23, 37)))
    state = run(rules, state, ["55555444", "take 5", "stop"])  # 22 back; 22 highest: stays
    assert state.grill == (21, 22)
    assert state.phase is Phase.ROLL
    rules, state = table(stacks=((21,), (), ()), grill=(36,), face_down=tuple(range(22, 36)))
    state = run(rules, state, ["55555444", "take 5", "stop"])  # 21 back, 36 turned
    assert state.grill == (21,)
    assert state.face_down[-1] == 36


# C13 ----------------------------------------------------------------------------------


def test_c13_most_worms_wins() -> None:
    rules, state = table(stacks=((21, 36), (33, 34), (22,)), grill=())
    outcome = result(rules, state)
    assert scores(rules, state) == (5, 8, 1)
    assert outcome.ranking == (1, 0, 2)
    assert outcome.winners == (1,)


def test_c13_tie_goes_to_the_highest_tile() -> None:
    rules, state = table(stacks=((21, 36), (33, 22), (25,)), grill=())
    outcome = result(rules, state)
    assert outcome.scores == (5, 5, 2)
    assert outcome.winners == (0,)
    assert outcome.ranking == (0, 1, 2)


def test_c13_tied_players_without_tiles_share_the_win() -> None:
    rules, state = table(stacks=((), (), ()), grill=())
    assert result(rules, state).winners == (0, 1, 2)


# O1-O3 --------------------------------------------------------------------------------


def test_o1_flip_on_empty_bust() -> None:
    rules, state = table(options={"flip_on_empty_bust": True})
    state = run(rules, state, ["55555444", "take 5", "stop"])
    assert state.face_down == (36,)
    rules, state = table(options={"flip_on_empty_bust": False})
    state = run(rules, state, ["55555444", "take 5", "stop"])
    assert state.face_down == ()


def test_o2_short_game_turns_the_returned_highest_tile() -> None:
    layout = {"stacks": ((22, 30), (), ()), "grill": (21, 23, 24, 25)}
    out = (26, 27, 28, 29, 31, 32, 33, 34, 35, 36)
    rules, state = table(options={"short_game": True}, face_down=out, **layout)  # type: ignore[arg-type]
    state = run(rules, state, ["55555444", "take 5", "stop"])
    assert state.grill == (21, 23, 24, 25)
    assert state.face_down[-1] == 30
    rules, state = table(options={"short_game": True}, stacks=((22, 25), (), ()), grill=(21, 30))
    state = state.replace(face_down=tuple(t for t in range(23, 37) if t not in (25, 30)))
    state = run(rules, state, ["55555444", "take 5", "stop"])  # not the highest: as C10
    assert state.grill == (21, 25)
    assert state.face_down[-1] == 30


def test_o3_optional_steal_off_makes_stealing_mandatory() -> None:
    grill = (21, 22, 23, 24, 25, 26, 28)
    for optional in (True, False):
        rules, state = table(
            stacks=((), (27,), ()), grill=grill, options={"optional_steal": optional}
        )
        state = state.replace(face_down=tuple(range(29, 37)))
        state = run(rules, state, ["wwwww221", "take w", "roll", "213", "take 2"])
        assert legal_actions(rules, state) == (Roll(), Stop(), Steal(1))
        stopped = apply(rules, state, Stop())
        if optional:  # a stop declines the steal and takes the next lower tile (C8)
            assert stopped.stacks == ((26,), (27,), ())
        else:  # the steal is the only claim, so a stop takes it (C8, O3 off)
            assert stopped.stacks == ((27,), (), ())
            assert stopped == apply(rules, state, Steal(1))
