"""The rules engine, rule by rule (RULES §2, §3, §5), on small custom dungeons."""
from dataclasses import FrozenInstanceError, replace

import pytest

from scoundrel_solver.scoundrel.cards import JOKER, full_pack, parse_card, parse_cards
from scoundrel_solver.scoundrel.deal import deal
from scoundrel_solver.scoundrel.rules import Rules, RulesError
from scoundrel_solver.scoundrel.state import AVOID, BARE, WEAPON_MODE, Hero, IllegalMove, PositionError, State, Take

C = parse_card


def cards(text):
    return tuple(parse_cards(text))


def hero(state, i=0):
    h = state.heroes[i]
    return (h.health, h.weapon, h.last_kill)


def play_immortal(state, pick=lambda s: s.legal_actions()):
    """Play to the end, keeping every hero's health huge so nobody ever dies.

    Returns the list of rooms as (leader, cards at deal, final?, faced?) and the end state.
    Only for checking the room structure, which does not depend on health.
    """
    rooms = []
    big = 10**6

    def inflate(s):
        return replace(s, heroes=tuple(replace(h, health=big) for h in s.heroes))

    state = inflate(state)
    rooms.append([state.leader, state.room, state.final_room, None])
    while not state.finished:
        before = state.rooms_done
        actions = [a for a in pick(state) if not (a is AVOID)]
        action = actions[0]
        state = inflate(state.play(action))
        assert not state.dead
        if state.rooms_done != before:
            rooms[-1][3] = True
            if not state.finished:
                rooms.append([state.leader, state.room, state.final_room, None])
    return rooms, state


# --------------------------------------------------------------------- options
def test_rules_defaults():
    assert Rules() == Rules(mode="solo", flee="classic", durability="strict", deck_size=52)
    assert Rules().durability == "strict" and not Rules().lenient
    assert Rules(mode="coop").durability == "lenient" and Rules(mode="coop").lenient
    assert Rules(mode="coop", durability="strict").durability == "strict"
    assert Rules(durability="lenient").lenient
    assert Rules(mode="coop").heroes == 2 and Rules().heroes == 1
    assert Rules(mode="coop", deck_size="54").deck_size == 54


@pytest.mark.parametrize("kwargs", [
    {"mode": "duo"}, {"flee": "never"}, {"durability": "soft"}, {"deck_size": 53},
    {"mode": "coop", "deck_size": 44}, {"deck_size": "many"}, {"deck_size": None},
])
def test_rules_rejects_unknown_options(kwargs):
    with pytest.raises(RulesError):
        Rules(**kwargs)


def test_state_is_immutable_and_hashable(new):
    s = new("2S 3S 4S 5S 6S")
    t = s.play(Take(C("2S"), BARE))
    assert s.room == cards("2S 3S 4S 5S") and s.heroes[0].health == 20
    assert t != s
    assert hash(s) == hash(new("2S 3S 4S 5S 6S")) and s == new("2S 3S 4S 5S 6S")
    with pytest.raises(FrozenInstanceError):
        s.taken = 3  # type: ignore[misc]


# ---------------------------------------------------------------- room dealing
def test_first_room_and_carried_card_is_leftmost(new, run):
    s = new("2S 3S 4S 5S 6H 7H 8H 9H")
    assert s.room == cards("2S 3S 4S 5S") and s.dungeon == cards("6H 7H 8H 9H")
    assert not s.final_room and s.to_take == 3 and s.taken == 0
    s = run(s, "3Sb")
    assert s.room == cards("2S 4S 5S") and s.taken == 1 and s.to_take == 2
    s = run(s, "5Sb 2Sb")
    assert hero(s) == (10, 0, None)
    # the 4th card stays leftmost; new cards come to its right in dealing order
    assert s.room == cards("4S 6H 7H 8H") and s.dungeon == cards("9H")
    assert s.taken == 0 and s.rooms_done == 1 and not s.final_room


def test_carried_card_keeps_its_place_whichever_is_left(new, run):
    s = run(new("2S 3S 4S 5S 6H 7H 8H 9H"), "2Sb 3Sb 4Sb")
    assert s.room == cards("5S 6H 7H 8H")


def test_final_room_all_cards_must_be_taken(new, run):
    s = new("2H 3H 4H 5H 6H 7H 8H")           # 7 cards: second room is final with 4
    s = run(s, "2H 3H 4H")
    assert s.room == cards("5H 6H 7H 8H") and s.dungeon == ()
    assert s.final_room and s.to_take == 4
    assert not s.can_avoid() and AVOID not in s.legal_actions()
    with pytest.raises(IllegalMove, match="final room cannot be avoided"):
        s.play(AVOID)
    s = run(s, "5H 6H 7H")
    assert not s.finished and s.room == cards("8H") and s.to_take == 1
    assert s.rooms_done == 1                   # still in the same room, nothing refilled
    s = run(s, "8H")
    assert s.finished and s.won and s.room == () and s.rooms_done == 2


def test_short_final_room(new, run):
    s = new("9D 2S 3S 4S 5S")                  # 5 cards: final room of 2
    assert not s.final_room and s.can_avoid()
    s = run(s, "9D 4Sw 3Sw")
    assert s.room == cards("2S 5S") and s.final_room and s.to_take == 2
    assert not s.can_avoid()
    s = run(s, "2Sw")
    assert not s.finished
    s = run(s, "5Sb")
    assert s.won and s.score == 15


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_dungeon_of_at_most_four_cards_is_one_final_room(new, n):
    s = new(" ".join(["2H", "3H", "4H", "5H"][:n]))
    assert s.final_room and s.to_take == n and s.dungeon == () and len(s.room) == n
    assert not s.can_avoid()


def test_solo_44_final_room_holds_two_cards():
    for seed in (0, 42, 7):
        rooms, end = play_immortal(State.new(deal(seed)))
        assert [len(r[1]) for r in rooms] == [4] * 14 + [2]
        assert [r[2] for r in rooms] == [False] * 14 + [True]
        assert end.won


@pytest.mark.parametrize("size,faced,final_len", [(52, 17, 4), (50, 17, 2), (54, 18, 3)])
def test_coop_final_room(size, faced, final_len):
    rules = Rules(mode="coop", deck_size=size)
    rooms, end = play_immortal(State.new(deal(42, rules), rules))
    assert len(rooms) == faced
    assert [len(r[1]) for r in rooms] == [4] * (faced - 1) + [final_len]
    assert [r[2] for r in rooms] == [False] * (faced - 1) + [True]
    # the leader alternates room after room
    assert [r[0] for r in rooms] == [i % 2 for i in range(faced)]
    assert end.won


def expected_room_sizes(n):
    if n <= 4:
        return [n]
    rest = n - 4
    sizes = [4]
    while rest > 3:
        sizes.append(4)
        rest -= 3
    sizes.append(1 + rest)
    return sizes


@pytest.mark.parametrize("mode", ["solo", "coop"])
def test_every_custom_dungeon_size(mode):
    rules = Rules(mode=mode)
    pool = [c for c in full_pack() if rules.card_allowed(c)] + ([JOKER] if mode == "coop" else [])
    assert len(pool) == (44 if mode == "solo" else 54)
    for n in range(1, len(pool) + 1):
        deck = pool[:n]
        rooms, end = play_immortal(State.new(deck, rules))
        assert [len(r[1]) for r in rooms] == expected_room_sizes(n), n
        assert end.won and end.cards_left() == 0


# ----------------------------------------------------------------------- avoid
def test_avoid_puts_row_under_dungeon_leftmost_first(new, run):
    s = new("2S 3S 4S 5S 6H 7H 8H 9H TH")
    s = s.play(AVOID)
    assert s.room == cards("6H 7H 8H 9H")
    assert s.dungeon == cards("TH 2S 3S 4S 5S")
    assert s.avoided_last and s.taken == 0 and s.rooms_done == 1
    assert hero(s) == (20, 0, None)
    s = run(s, "7H 8H 9H")
    # the leftmost avoided card is the first of them to come back
    assert s.room == cards("6H TH 2S 3S") and s.dungeon == cards("4S 5S")
    assert not s.avoided_last


def test_avoid_only_before_taking(new, run):
    s = run(new("2S 3S 4S 5S 6S 7S"), "2Sb")
    assert not s.can_avoid()
    with pytest.raises(IllegalMove, match="already taken"):
        s.play(AVOID)


def test_flee_classic(new, run):
    s = new("2H 3H 4H 5H 6H 7H 8H 9H TH 2D")
    assert s.can_avoid() and s.legal_actions()[0] is AVOID
    s = s.play(AVOID)
    assert not s.can_avoid() and AVOID not in s.legal_actions()
    with pytest.raises(IllegalMove, match="previous room was avoided"):
        s.play(AVOID)
    s = run(s, "6H 7H 8H")
    assert s.can_avoid()                        # a faced room re-enables avoiding
    s = s.play(AVOID)
    assert s.avoided_last


def test_flee_easy_allows_consecutive_avoids_and_cycles(new):
    start = new("2H 3H 4H 5H 6S 7S 8S 9S", flee="easy")
    s = start.play(AVOID)
    assert s.room == cards("6S 7S 8S 9S") and s.dungeon == cards("2H 3H 4H 5H")
    assert s.can_avoid()
    s = s.play(AVOID)
    assert s.room == start.room and s.dungeon == start.dungeon   # back where we began
    assert s.can_avoid() and s.avoided_last


def test_flee_hard_never(new):
    s = new("2H 3H 4H 5H 6S 7S 8S 9S", flee="hard")
    assert not s.can_avoid() and AVOID not in s.legal_actions()
    with pytest.raises(IllegalMove, match="hard flee"):
        s.play(AVOID)


@pytest.mark.parametrize("flee", ["classic", "easy", "hard"])
def test_coop_avoid_never_twice_same_leader(new, run, flee):
    s = new("2H 3H 4H 5H 2S 3S 4S 5S 6H 7H 8H 9H", mode="coop", flee=flee)
    assert s.leader == 0 and s.can_avoid()       # the solo flee option plays no part
    s = s.play(AVOID)
    assert s.room == cards("2S 3S 4S 5S")
    assert s.leader == 0 and not s.can_avoid()   # the same hero leads and must face it
    with pytest.raises(IllegalMove, match="previous room was avoided"):
        s.play(AVOID)
    s = run(s, "2Sb 3Sb 4Sb")
    assert hero(s, 0) == (11, 0, None) and hero(s, 1) == (20, 0, None)
    assert s.leader == 1 and s.can_avoid()
    s = s.play(AVOID)
    assert s.leader == 1 and s.room == cards("9H 2H 3H 4H")


def test_coop_leader_alternates_after_facing(new, run):
    s = new("2H 3H 4H 5H 6H 7H 8H 9H TH 2D", mode="coop")
    assert s.leader == 0 and s.partner == 1
    s = run(s, "2H 3H 4H")
    assert s.leader == 1 and s.partner == 0
    s = run(s, "6H 7H 8H")
    assert s.leader == 0
    assert s.final_room and s.room == cards("5H 9H TH 2D")


# --------------------------------------------------------------------- potions
def test_only_first_potion_in_room_heals(new, run):
    s = new("KS 5H 6H 2S 4H 3S 2C")
    s = run(s, "KSb")
    assert hero(s) == (7, 0, None)
    s = run(s, "5H")
    assert hero(s) == (12, 0, None) and s.potion_used[0]
    s = run(s, "6H")
    assert hero(s) == (12, 0, None)             # second potion: discarded without effect
    assert s.room == cards("2S 4H 3S 2C") and not s.potion_used[0]
    s = run(s, "4H")
    assert hero(s) == (16, 0, None)             # a new room: the first potion heals again


def test_potion_capped_at_20(new, run):
    s = run(new("3S TH 2S 4S 5S"), "3Sb TH")
    assert hero(s) == (20, 0, None)
    s = run(new("TH 2S 4S 5S"), "TH")
    assert hero(s) == (20, 0, None)


def test_coop_potions_per_hero(new, run, with_heroes):
    base = with_heroes(new("5H 6H 7H 2S 3S", mode="coop"), (5, 0, None), (10, 0, None))
    s = run(base, "5H")
    assert hero(s, 0)[0] == 10
    s = run(s, "6H>")                           # the partner's own first potion heals
    assert hero(s, 1)[0] == 16
    s = run(s, "7H")                            # the leader's second: no effect
    assert hero(s, 0)[0] == 10 and hero(s, 1)[0] == 16
    s = run(base, "6H> 5H")                     # giving first does not spend the leader's potion
    assert hero(s, 0)[0] == 10 and hero(s, 1)[0] == 16
    assert s.potion_used == (True, True)
    s = run(base, "7H> 5H 6H")
    assert hero(s, 0)[0] == 10 and hero(s, 1)[0] == 17


# --------------------------------------------------------------------- weapons
def test_weapon_replacement_resets_last_kill(new, run):
    s = run(new("5D 4S 3D KS 2C"), "5D")
    assert hero(s) == (20, 5, None)
    s = run(s, "4Sw")
    assert hero(s) == (20, 5, 4)
    s = run(s, "3D")                            # weaker weapon still replaces the old one
    assert hero(s) == (20, 3, None)
    assert s.room == cards("KS 2C") and s.final_room
    assert Take(C("KS"), WEAPON_MODE) in s.legal_actions()
    s = run(s, "KSw")
    assert hero(s) == (10, 3, 13)
    s = run(s, "2Cw")
    assert hero(s) == (10, 3, 2) and s.won and s.score == 10


def test_stronger_weapon_replaces_too(new, run):
    s = run(new("2D 2S 9D 3S 4S"), "2D 2Sw 9D")
    assert hero(s) == (20, 9, None)


def test_fresh_weapon_fights_anything(new, run):
    s = run(new("2D AS KS 5S 6S"), "2D")
    assert s.heroes[0].can_use_weapon(14, lenient=False)
    s = run(s, "ASw")
    assert hero(s) == (8, 2, 14)
    s = run(s, "KSw")                           # 13 < 14
    assert hero(s) == (-3, 2, 13) and s.dead


@pytest.mark.parametrize("durability,equal_ok", [("strict", False), ("lenient", True)])
def test_durability(new, run, durability, equal_ok):
    s = run(new("5D 6S 6C 7S 2C 3C", durability=durability), "5D 6Sw")
    assert hero(s) == (19, 5, 6)
    actions = s.legal_actions()
    assert (Take(C("6C"), WEAPON_MODE) in actions) == equal_ok
    assert Take(C("7S"), WEAPON_MODE) not in actions
    assert Take(C("7S"), BARE) in actions and Take(C("6C"), BARE) in actions
    with pytest.raises(IllegalMove, match="last kill is 6"):
        s.play(Take(C("7S"), WEAPON_MODE))
    if equal_ok:
        t = run(s, "6Cw")
        assert hero(t) == (18, 5, 6)
    else:
        with pytest.raises(IllegalMove, match=r"6Cw is illegal in room 1 .*last kill is 6.*below"):
            run(s, "6Cw")
        t = run(s, "6C")                        # no mode given: bare-handed, as the weapon can't
        assert hero(t) == (13, 5, 6)


def test_default_durability_by_mode(new, run, with_heroes):
    solo = run(new("5D 6S 6C 2C 3C"), "5D 6Sw")
    assert Take(C("6C"), WEAPON_MODE) not in solo.legal_actions()
    coop = run(new("5D 6S 6C 2C 3C", mode="coop"), "5D 6Sw")
    assert Take(C("6C"), WEAPON_MODE) in coop.legal_actions()
    strict = run(new("5D 6S 6C 2C 3C", mode="coop", durability="strict"), "5D 6Sw")
    assert Take(C("6C"), WEAPON_MODE) not in strict.legal_actions()


def test_weapon_use_without_weapon_is_illegal(new):
    s = new("5S 6S 7S 8S 9S")
    with pytest.raises(IllegalMove, match="no weapon"):
        s.play(Take(C("5S"), WEAPON_MODE))
    assert s.resolve(Take(C("5S"))) == Take(C("5S"), BARE)


def test_weapon_absorbs_all_damage_when_stronger(new, run):
    s = run(new("9D 9S 4S 2C 3C"), "9D 9Sw")
    assert hero(s) == (20, 9, 9)


def test_fight_mode_only_for_monsters(new):
    s = new("5H 5D 5S 6S 7S")
    for card in ("5H", "5D"):
        with pytest.raises(IllegalMove, match="only applies to monsters"):
            s.play(Take(C(card), BARE))
    with pytest.raises(IllegalMove, match="must be w or b"):
        s.play(Take(C("5S"), "x"))


def test_card_not_in_room(new):
    s = new("5H 5D 5S 6S 7S")
    with pytest.raises(IllegalMove, match="7S is not in the room"):
        s.play(Take(C("7S"), BARE))
    with pytest.raises(IllegalMove, match="not an action"):
        s.play("5S")


# ------------------------------------------------------------------ game end
def test_death_ends_game_at_once(new, run):
    s = run(new("KS QS AS 5H 9C 2D"), "KSb")
    assert not s.finished and s.score is None
    s = run(s, "QSb")
    assert s.dead and s.finished and not s.won
    assert hero(s) == (-5, 0, None)
    assert s.legal_actions() == [] and not s.can_avoid()
    assert s.room == cards("AS 5H")             # the room was not completed
    with pytest.raises(IllegalMove, match="game is already over"):
        s.play(Take(C("5H")))
    # lost: health minus the monsters left in the room (AS) and the dungeon (9C)
    assert s.score == -5 - 14 - 9


def test_death_at_exactly_zero(new, run):
    s = run(new("KS 7S 2H 3H 4H"), "KSb 7Sb")
    assert s.dead and hero(s)[0] == 0 and s.score == 0


def test_death_in_final_room_is_a_loss(new, run):
    s = run(new("KS 7C 2S"), "KSb 2Sb")
    assert not s.finished and hero(s)[0] == 5
    s = run(s, "7Cb")
    assert s.finished and s.dead and not s.won and s.room == ()
    assert s.score == -2


def test_won_game_refuses_moves(new, run):
    s = run(new("2S 3H"), "2Sb 3H")
    assert s.won and s.legal_actions() == []
    with pytest.raises(IllegalMove, match="already over"):
        s.play(AVOID)


@pytest.mark.parametrize("line,score", [
    ("2Sb 5H", 25),      # 18 -> 20 with a potion as the last card: 20 + 5
    ("3H 5H", 25),       # the 5H did not heal (second potion, full health) but still counts
    ("5H 3H", 23),
    ("3H", 23),
    ("TH", 30),          # the maximum
    ("5D 3Sw", 20),      # full health but last card not a potion
    ("5Sb 3H", 18),      # last card a potion but health below 20
    ("6Sb 5H", 19),
    ("5Sb 3H 5H", 18),   # the 5H is the second potion: no heal, health 18, no bonus
    ("2D 2Sw 5H", 25),
])
def test_solo_win_score(new, run, line, score):
    deck = " ".join(t[:2] for t in line.split())
    s = run(new(deck), line)
    assert s.won and s.score == score


def test_solo_win_bonus_needs_the_potion_last_in_the_game(new, run):
    s = run(new("5H 2S 3S 4S 2D 3D"), "5H 2Sb 3Sb")   # potion first, health 15
    s = run(s, "2D 3D 4Sb")
    assert s.won and s.score == 11


def test_solo_loss_counts_only_monsters(new, run):
    s = run(new("AS KS 9H 9D QC 2S TH"), "ASb KSb")
    assert s.dead and hero(s)[0] == -7
    assert s.monsters_left() == 12 + 2
    assert s.score == -7 - 14


def test_coop_scores(new, run, with_heroes):
    s = run(new("2S 3S 4S 5H", mode="coop"), "2Sb 3Sb> 4Sb 5H")
    assert s.won and hero(s, 0)[0] == 19 and hero(s, 1)[0] == 17 and s.score == 36
    s = run(new("5H", mode="coop"), "5H")
    assert s.won and s.score == 40             # no potion bonus in co-op
    lost = with_heroes(new("KH QS JK 2D 9C AD JH 3H", mode="coop"), (13, 0, None), (20, 0, None))
    lost = run(lost, "KHb")
    assert lost.dead and lost.score == -(12 + 15 + 9 + 14 + 11)


def test_coop_partner_death_loses_at_once(new, run, with_heroes):
    s = with_heroes(new("KS 2S 3S 4S 5S 6S", mode="coop"), (20, 0, None), (10, 0, None))
    s = run(s, "KSb>")
    assert s.dead and s.finished and hero(s, 0)[0] == 20 and hero(s, 1)[0] == -3
    assert s.score == -(2 + 3 + 4 + 5 + 6)


# ------------------------------------------------------------------- help card
def test_help_card_once_per_room(new, run):
    s = new("2H 3H 4H 5H 6H 7H 8H 9H", mode="coop")
    s = run(s, "2H>")
    assert s.help_used
    assert not any(getattr(a, "help", False) for a in s.legal_actions())
    with pytest.raises(IllegalMove, match="help card of this room was already given"):
        run(s, "3H>")
    s = run(s, "3H 4H")
    assert not s.help_used and s.leader == 1
    assert any(getattr(a, "help", False) for a in s.legal_actions())


def test_help_card_at_any_point_of_the_order(new, run):
    s = run(new("2S 3S 4S 5S 6S 7S 8S", mode="coop"), "2Sb 3Sb 4Sb>")
    assert hero(s, 0)[0] == 15 and hero(s, 1)[0] == 16


def test_help_card_in_final_room(new, run):
    s = run(new("2H 3H 4H 5S 6S 7S 2S", mode="coop"), "2H 3H 4H")
    assert s.final_room and s.leader == 1 and s.to_take == 4
    s = run(s, "5Sb 6Sb>")
    assert hero(s, 1)[0] == 15 and hero(s, 0)[0] == 14
    with pytest.raises(IllegalMove, match="already given"):
        run(s, "7Sb>")
    s = run(s, "7Sb 2Sb")
    assert s.won and hero(s, 1)[0] == 6 and s.score == 20


def test_help_card_not_in_solo(new):
    s = new("2H 3H 4H 5H 6H")
    assert not any(getattr(a, "help", False) for a in s.legal_actions())
    with pytest.raises(IllegalMove, match="no partner"):
        s.play(Take(C("2H"), None, True))


def test_help_weapon_equips_partner(new, run, with_heroes):
    s = with_heroes(new("TD 2S 3S 4S 5S", mode="coop"), (20, 3, 2), (20, 7, 5))
    s = run(s, "TD>")
    assert hero(s, 1) == (20, 10, None) and hero(s, 0) == (20, 3, 2)


def test_help_monster_uses_partner_weapon(new, run, with_heroes):
    s = with_heroes(new("9S 2S 3S 4S 5S", mode="coop"), (20, 0, None), (20, 7, None))
    actions = s.legal_actions()
    assert Take(C("9S"), WEAPON_MODE, True) in actions
    assert Take(C("9S"), WEAPON_MODE, False) not in actions
    with pytest.raises(IllegalMove, match="no weapon"):
        run(s, "9Sw")
    assert s.resolve(Take(C("9S"), None, True)) == Take(C("9S"), WEAPON_MODE, True)
    t = run(s, "9Sw>")
    assert hero(t, 1) == (18, 7, 9) and hero(t, 0) == (20, 0, None)
    t = run(s, "9Sb>")
    assert hero(t, 1) == (11, 7, None)


def test_help_monster_respects_partner_durability(new, run, with_heroes):
    s = with_heroes(new("9S 8S 3S 4S 5S", mode="coop", durability="strict"),
                    (20, 9, None), (20, 7, 9))
    with pytest.raises(IllegalMove, match="last kill is 9"):
        run(s, "9Sw>")
    assert hero(run(s, "9Sw"), 0) == (20, 9, 9)  # the leader's own fresh weapon may
    assert hero(run(s, "8Sw>"), 1) == (19, 7, 8)


def test_legal_actions_coop_lists_help_variants(new, with_heroes):
    s = with_heroes(new("9S 5H 5D 4S 2C", mode="coop"), (20, 0, None), (20, 7, None))
    acts = {str(a) for a in s.legal_actions()}
    assert acts == {"avoid", "9Sb", "9Sw>", "9Sb>", "5H", "5H>", "5D", "5D>", "4Sb", "4Sw>", "4Sb>"}


# --------------------------------------------------------------------- jokers
def test_jokers(new, run):
    s = new("JK 2H JK 3H 2S 3S", mode="coop")
    assert s.room == (JOKER, C("2H"), JOKER, C("3H"))
    jk = [a for a in s.legal_actions() if getattr(a, "card", None) is JOKER]
    assert len(jk) == 2                          # b and b>; the two jokers are one choice
    s = run(s, "JKb")
    assert hero(s, 0)[0] == 5 and s.room == (C("2H"), JOKER, C("3H"))
    assert s.monsters_left() == 15 + 2 + 3
    s = run(s, "JKb>")
    assert hero(s, 1)[0] == 5


def test_jokers_with_weapon(new, run):
    s = run(new("TD JK JK 2S 3S", mode="coop", durability="strict"), "TD JKw")
    assert hero(s) == (15, 10, 15)
    assert Take(JOKER, WEAPON_MODE) not in s.legal_actions()   # strict: 15 is not below 15
    s2 = run(new("TD JK JK 2S 3S", mode="coop"), "TD JKw JKw")
    assert hero(s2) == (10, 10, 15)


# ------------------------------------------------------------- custom dungeons
@pytest.mark.parametrize("mode,text,match", [
    ("solo", "2S 3S 2S", "duplicate card 2S"),
    ("coop", "KH 2S KH", "duplicate card KH"),
    ("solo", "2S KH", "KH is not in the solo deck"),
    ("solo", "2S AD", "AD is not in the solo deck"),
    ("solo", "2S JK", "JK is not in the solo deck"),
    ("coop", "JK 2S JK JK", "more than two jokers"),
])
def test_invalid_custom_dungeons(mode, text, match):
    with pytest.raises(PositionError, match=match):
        State.new(cards(text), Rules(mode=mode))


@pytest.mark.parametrize("mode", ["solo", "coop"])
def test_dungeon_size_limits(mode):
    with pytest.raises(PositionError, match="1 to 54"):
        State.new((), Rules(mode=mode))
    deck = tuple(full_pack()[:52]) + (JOKER, JOKER, C("2S"))
    with pytest.raises(PositionError, match="got 55"):
        State.new(deck, Rules(mode="coop"))
    with pytest.raises(PositionError):
        State.new(("2S",), Rules(mode=mode))    # not a Card


def test_largest_custom_dungeons():
    coop = State.new(tuple(full_pack()[:52]) + (JOKER, JOKER), Rules(mode="coop"))
    assert coop.cards_left() == 54
    solo = State.new(Rules().base_order(), Rules())
    assert solo.cards_left() == 44


def test_custom_dungeon_deck_size_option_does_not_restrict(new):
    # deck_size only picks the pack of numbered deals (documented in Rules.card_allowed)
    s = new("AH AD JK 2S", mode="coop", deck_size=50)
    assert s.final_room and len(s.room) == 4


def test_position_error_is_value_error():
    assert issubclass(PositionError, ValueError) and issubclass(IllegalMove, ValueError)


# ------------------------------------------------------------ Anna and Ben
def test_anna_and_ben_worked_example(run):
    rules = Rules(mode="coop")
    start = State.new(cards("TD KH 6H 4S 2C 5C 3H 7S 8S 9S"), rules)
    # Anna (hero 1) leads with 9 health and an 8♦ whose last kill is the Q♣ (12);
    # Ben (hero 2) has 17 health and no weapon.
    s = replace(start, heroes=(Hero(9, 8, 12), Hero(17)), leader=0)
    assert s.room == cards("TD KH 6H 4S")
    # fighting the K♥ would kill Anna: bare 13 >= 9, and her weapon (last kill 12) can't take 13
    assert Take(C("KH"), WEAPON_MODE) not in s.legal_actions()
    assert run(s, "KHb").dead
    s = run(s, "TD>")
    assert hero(s, 1) == (17, 10, None)         # Ben equips the fresh 10♦
    s = run(s, "6H")
    assert hero(s, 0) == (15, 8, 12)
    s = run(s, "4Sb")
    assert hero(s, 0) == (11, 8, 12)            # bare-handed, so the 8♦ still works up to 12
    assert s.heroes[0].can_use_weapon(12, lenient=True)
    assert not s.heroes[0].can_use_weapon(13, lenient=True)
    # the K♥ stays; Ben leads the next room, three new cards join it
    assert s.leader == 1
    assert s.room == cards("KH 2C 5C 3H")
    assert Take(C("KH"), WEAPON_MODE) in s.legal_actions()
    s = run(s, "KHw")
    assert hero(s, 1) == (14, 10, 13)           # loses only 13 - 10 = 3
    assert hero(s, 0) == (11, 8, 12)


@pytest.mark.parametrize("size", [52.7, 52.0, True, "5_2", "+52", 1e400, float("nan"), None, [52]])
def test_a_deck_size_that_is_no_whole_number_is_refused(size):
    """int() would read 52.7 as 52 (a silent other answer) and 1e400 as an OverflowError."""
    with pytest.raises(RulesError, match="unknown deck size"):
        Rules(mode="coop", deck_size=size)


def test_a_deck_size_may_be_written_as_digits():
    assert Rules(mode="coop", deck_size=" 54 ").deck_size == 54 and Rules(mode="coop", deck_size=50).deck_size == 50
