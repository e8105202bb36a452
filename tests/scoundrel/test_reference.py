"""The pure-Python reference solver: hand-checked optima, properties and limits.

The reference is the specification the core is tested against, so it is itself checked
against hand arguments (in the comments), against a memo-free brute force on tiny
dungeons, and for internal consistency (the line replays to the score; the score is the
best one-step continuation).
"""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.scoundrel.cards import JOKER, full_pack, parse_cards
from scoundrel_solver.scoundrel.notation import format_line, replay
from scoundrel_solver.scoundrel.reference import memo_key, solve_reference
from scoundrel_solver.scoundrel.rules import Rules
from scoundrel_solver.scoundrel.search import solve
from scoundrel_solver.scoundrel.state import AVOID, Avoid, State, Take


def new(cards: str, **rules) -> State:
    return State.new(tuple(parse_cards(cards)), Rules(**rules))


def solved(cards: str, **rules):
    """``(score, line text)`` of an exact solve of a fresh custom dungeon."""
    out = solve_reference(new(cards, **rules))
    assert out["exact"] and out["limit"] is None
    check_line(new(cards, **rules), out)
    return out["score"], format_line(out["line"])


def check_line(state: State, out: dict) -> None:
    """The line replays from ``state`` (rooms split where the notation splits them) to the score."""
    states = replay(state, out["line"])
    assert states[-1].finished
    assert states[-1].score == out["score"]
    for room in out["line"]:
        assert room, "empty room in the line"
        assert all(isinstance(a, (Take, Avoid)) for a in room)
        assert not any(isinstance(a, Avoid) for a in room) or room == [AVOID]
        assert all(a.mode is not None for a in room if isinstance(a, Take) and a.card.is_monster)


def brute_force(state: State, chain=frozenset()) -> int:
    """Optimal score by plain recursion over every line, no memo.

    ``chain`` holds the (room, dungeon) positions met since the last take: avoiding back
    to one of them only repeats a loop (avoids change nothing but the card order), so
    such lines are skipped and the recursion terminates under the easy flee rule too.
    """
    if state.finished:
        return state.score
    here = chain | {(state.room, state.dungeon)}
    best = None
    for action in state.legal_actions():
        child = state.play(action)
        if isinstance(action, Avoid):
            if (child.room, child.dungeon) in here:
                continue
            value = brute_force(child, here)
        else:
            value = brute_force(child)
        best = value if best is None else max(best, value)
    return best


# ---------------------------------------------------------------- hand-checked solo

def test_equip_then_kill():
    # final room of 2: 5D then 3S with the weapon takes no damage: 20.
    # (3S bare first would cost 3.)  The last card is a monster, so no bonus.
    assert solved("5D 3S") == (20, "5D 3Sw")


def test_single_final_room_with_weapon_and_potion():
    # 2D, 9C with the weapon (7 damage, 13), 3S with it (1 damage, 12), 4H heals to 16.
    # Damage is at least (9-2)+(3-2) = 8 and one potion heals 4, so 16 is the most;
    # the bonus needs health 20 at the end, out of reach.
    assert solved("4H 3S 9C 2D")[0] == 16


def test_potion_bonus_at_full_health():
    # 5S bare (15), then 5H heals to 20 and is the last card at full health: 20 + 5.
    assert solved("5S 5H") == (25, "5Sb 5H")
    # A lone potion: 20 + 10 = 30, the maximum score.
    assert solved("TH") == (30, "TH")


def test_potion_bonus_counts_a_potion_that_did_not_heal():
    # Both potions at full health; the second one is the room's second potion and heals
    # nothing, but it is the last card at full health: 20 + 9 beats 9H-then-5H (25).
    assert solved("5H 9H") == (29, "5H 9H")


def test_no_bonus_below_full_health():
    # 4S costs 4 (16); one potion heals at most 3 (19) -- the second potion of the room
    # has no effect -- so the game ends below 20 and earns no bonus.
    assert solved("2H 3H 4S")[0] == 19


def test_loss_score_counts_untaken_monsters():
    # No weapon, no potion, all four must be taken: KS + QS = 25 kills (health -5);
    # whatever the order, score = 20 - total damage so far - monsters left
    # = 20 - 46 = -26 (each bare fight moves its value from "left" to "damage").
    assert solved("KS QS JS TS")[0] == -26
    # Fighting everything bare costs 20 - 41 = -21; each weapon kill saves 2.  Strict:
    # the two aces are equal, so at most two weapon kills (an ace, then KS): -17, and
    # it is reached by dying on the second weapon kill (2D, ASw -> 8, KSw -> -3).
    assert solved("AS AC KS 2D") == (-17, "2D ASw KSw")


def test_strict_and_lenient_durability():
    # 5D kills 3S for free; strict forbids using it on the equal 3C (3 damage), lenient allows it.
    assert solved("5D 3S 3C", durability="strict") == (17, "5D 3Sw 3Cb")
    assert solved("5D 3S 3C", durability="lenient") == (20, "5D 3Sw 3Cw")


def test_hard_flee_forbids_the_saving_avoid():
    # Room KS QS JS 2C, TD below.  Facing the room takes 3 of its monsters bare: at least
    # 2 + 11 + 12 = 25 damage, death.  Dying at once on the second card (KS, QS: -5) with
    # JS and 2C left (13) gives -18, the best loss (every later death adds damage and
    # removes as much from "left", no weapon is reachable before dying).
    # Avoiding deals TD KS QS JS: TD, KSw (3), QSw (2), then JSw (1), 2Cw (0): 20 - 6 = 14,
    # the most possible (each monster costs at least value - 10).
    assert solved("KS QS JS 2C TD", flee="hard")[0] == -18
    assert solved("KS QS JS 2C TD", flee="classic") == (14, "avoid | TD KSw QSw | JSw 2Cw")
    assert solved("KS QS JS 2C TD", flee="easy")[0] == 14


def test_easy_flee_cycle():
    # Cards TC 9C 9D KC TH AC.  Each avoid rotates the six cards by four, so the rooms
    # cycle with period 3.  Two avoids deal 9D KC TH AC: 9D, ACw (5), KCw (4), keep TH;
    # final room TH TC 9C: TCw (1), 9Cw (0), TH heals the 10 back and is the last card
    # at full health: 30, the maximum.
    # Classic can't score 30: that needs every monster killed by 9D in the order
    # AC KC TC 9C, and TH last.  Facing the first room means taking 3 of TC 9C 9D KC
    # (two monsters before AC); avoiding once must face TH AC TC 9C with 9D unseen.
    score, line = solved("TC 9C 9D KC TH AC", flee="easy")
    assert (score, line) == (30, "avoid | avoid | 9D ACw KCw | TCw 9Cw TH")
    assert solved("TC 9C 9D KC TH AC", flee="classic")[0] < 30
    # Every state on the cycle has the same value: solve from after 1, 2 and 3 avoids.
    state = new("TC 9C 9D KC TH AC", flee="easy")
    for n in range(1, 4):
        state = state.play(AVOID)
        out = solve_reference(state)
        assert out["score"] == 30
        check_line(state, out)
    # After three avoids the room is back to the start (the line again avoids twice).
    assert format_line(solve_reference(state)["line"]) == line


def test_easy_flee_cycle_prefers_fewest_avoids_on_ties():
    # Five monsters worth 20 in all: every line dies on the last card and scores 0, so
    # every action ties.  Avoiding is possible forever under easy, but the line must
    # stop: on a tie the reference takes rather than avoids round the cycle.
    out = solve_reference(new("2S 3S 4S 5S 6S", flee="easy"))
    check_line(new("2S 3S 4S 5S 6S", flee="easy"), out)
    assert out["score"] == 0
    assert format_line(out["line"]) == "2Sb 3Sb 4Sb | 5Sb 6Sb"
    # Off the cycle the tie goes to the first legal action, which is avoid.
    assert solved("2S 3S 4S 5S 6S", flee="classic") == (0, "avoid | 6Sb 2Sb 3Sb | 4Sb 5Sb")


# ---------------------------------------------------------------- hand-checked co-op

def test_coop_help_card_saves_the_leader():
    # The leader takes both aces; alone they kill (28 > 20).  Giving one to the partner:
    # 6 + 6 = 12.  Among equal lines the first in legal order: ASb, then ACb to the partner.
    assert solved("AS AC", mode="coop") == (12, "ASb ACb>")


def test_coop_loss_dies_on_the_last_card():
    # Three monsters, 41 in all, one help card: the leader fights two of them, at least
    # 13 + 14 = 27, and dies.  A lost co-op game scores minus the monsters left, so the
    # best is to die on the last card: 0.
    assert solved("AS AC KS", mode="coop") == (0, "ASb ACb> KSb")


def test_coop_durability():
    # Co-op defaults to lenient: 5D kills both threes for free (40).  Strict: one three
    # costs 3 whoever fights it (the partner has no weapon): 37.
    assert solved("5D 3S 3C", mode="coop") == (40, "5D 3Sw 3Cw")
    assert solved("5D 3S 3C", mode="coop", durability="strict")[0] == 37


def test_coop_avoid_then_same_leader_faces():
    # Facing KS QS JS TS unarmed: the leader fights two of them bare (>= 21) and dies.
    # After the avoid hero 1 still leads and faces 9D KS QS JS (no second avoid), and
    # hero 2 leads the final room.
    assert solved("KS QS JS TS 9D", mode="coop") == (21, "avoid | 9D KSw QSw | JSb TSw>")
    state = new("KS QS JS TS 9D", mode="coop").play(AVOID)
    assert AVOID not in state.legal_actions()
    assert brute_force(new("KS QS JS TS 9D", mode="coop")) == 21


# ------------------------------------------------------------------------- API

def test_finished_state():
    state = new("TH").play(Take(parse_cards("TH")[0]))
    out = solve_reference(state)
    assert out == {"score": 30, "line": [], "nodes": 0, "exact": True, "limit": None}


def test_mid_room_line_starts_with_the_rest_of_the_room():
    state = new("4H 3S 9C 2D 7C").play(Take(parse_cards("2D")[0]))
    out = solve_reference(state)
    check_line(state, out)
    assert out["line"][0] and len(out["line"][0]) == 2   # two more takes end room 1


def test_memo_key_ignores_bookkeeping_only():
    start = new("KS QS JS 2C TD")
    assert memo_key(replace(start, rooms_done=7, last_card=parse_cards("5H")[0])) == memo_key(start)
    for flee, matters in (("classic", True), ("easy", False), ("hard", False)):
        avoided = replace(new("KS QS JS 2C TD", flee=flee), avoided_last=True)
        fresh = replace(avoided, avoided_last=False)
        # classic: "the previous room was avoided" forbids avoiding, so it stays in the key
        assert (memo_key(avoided) != memo_key(fresh)) == matters
        # mid-room it never matters
        take = avoided.legal_actions()[-1]
        assert memo_key(avoided.play(take)) == memo_key(fresh.play(take))


def test_solve_entry_point_uses_the_reference():
    result = solve(parse_cards("KS QS JS 2C TD"), Rules(), engine="reference")
    assert (result.score, result.exact, result.won) == (14, True, True)
    assert result.line_text == "avoid | TD KSw QSw | JSw 2Cw"


def test_deterministic():
    state = new("7C JS JC 8D TH QC 4H 2S", flee="easy")
    assert solve_reference(state) == solve_reference(state)


# ---------------------------------------------------------------------- limits

DEAL12 = "TC 4H 9H 5D AS AC 8D 7S 3S 7D 9D 2C"   # solo seed 0, first 12 cards


def test_max_nodes_one_is_not_exact():
    out = solve_reference(new(DEAL12), max_nodes=1)
    assert out["exact"] is False and out["limit"] == "nodes"
    assert out["nodes"] <= 1
    assert out["score"] is None and out["line"] == []


def test_node_limit_returns_a_replayable_best_line():
    state = new(DEAL12, flee="easy")
    out = solve_reference(state, max_nodes=300)
    assert out["exact"] is False and out["limit"] == "nodes" and out["nodes"] == 300
    assert out["score"] is not None
    check_line(state, out)


def test_time_limit():
    out = solve_reference(new(DEAL12, flee="easy"), timeout=0.05)
    assert out["exact"] is False and out["limit"] == "time"
    if out["score"] is not None:
        check_line(new(DEAL12, flee="easy"), out)


def test_limits_large_enough_are_exact():
    out = solve_reference(new("KS QS JS 2C TD"), max_nodes=10**6, timeout=60)
    assert out["exact"] and out["limit"] is None and out["score"] == 14
    assert out["nodes"] == solve_reference(new("KS QS JS 2C TD"))["nodes"]


# ------------------------------------------------------------------ properties

SOLO_CARDS = Rules().base_order()
COOP_CARDS = [c for c in full_pack() if c is not JOKER] + [JOKER, JOKER]

# Per-option size caps keep the default run fast; `-m slow` runs the full sizes.
FAST_CAP = {"classic": 10, "easy": 9, "hard": 12, "coop": 7}
FULL_CAP = {"classic": 12, "easy": 12, "hard": 12, "coop": 8}


@st.composite
def dungeons(draw, caps):
    mode = draw(st.sampled_from(["solo", "coop"]))
    durability = draw(st.sampled_from(["strict", "lenient"]))
    if mode == "solo":
        flee = draw(st.sampled_from(["classic", "easy", "hard"]))
        rules = Rules(mode="solo", flee=flee, durability=durability)
        pool, cap = SOLO_CARDS, caps[flee]
    else:
        rules = Rules(mode="coop", durability=durability, deck_size=draw(st.sampled_from([52, 50, 54])))
        pool, cap = COOP_CARDS, caps["coop"]
    n = draw(st.integers(1, cap))
    picks = draw(st.permutations(range(len(pool))))[:n]
    return State.new(tuple(pool[i] for i in picks), rules)


def child_value(state: State) -> int:
    return state.score if state.finished else solve_reference(state)["score"]


def check_consistency(state: State) -> None:
    out = solve_reference(state)
    assert out["exact"] and out["limit"] is None and out["nodes"] >= 1
    check_line(state, out)
    # one step: the score is the best child value, and the line's first action is the
    # first action in legal order attaining it -- except that on an easy-flee avoid
    # cycle a take wins a tie against avoid (fewest avoids)
    values = {a: child_value(state.play(a)) for a in state.legal_actions()}
    assert out["score"] == max(values.values())
    best = [a for a in state.legal_actions() if values[a] == out["score"]]
    if state.rules.can_avoid_after_avoid() and len(best) > 1 and best[0] is AVOID:
        best = best[1:]
    assert out["line"][0][0] == best[0]


PROPS = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check_along_line(state: State, k: int) -> None:
    """Check the start, then a state ``k`` steps along its optimal line (mid-room,
    after an avoid, with ``rooms_done`` and ``last_card`` set): optimal play keeps the
    value, so it must solve to the same score."""
    out = solve_reference(state)
    check_line(state, out)
    states = [s for s in replay(state, out["line"]) if not s.finished]
    later = states[k % len(states)]
    assert solve_reference(later)["score"] == out["score"]
    check_consistency(later)


@PROPS
@given(dungeons(FAST_CAP), st.integers(0, 50))
def test_line_replays_and_one_step_consistency(state, k):
    check_along_line(state, k)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dungeons({"classic": 6, "easy": 6, "hard": 6, "coop": 6}))
def test_agrees_with_brute_force(state):
    assert solve_reference(state)["score"] == brute_force(state)


@pytest.mark.slow
@pytest.mark.skipif("'slow' not in (config.getoption('-m') or '')", reason="slow: run with -m slow")
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(dungeons(FULL_CAP), st.integers(0, 50))
def test_full_size_consistency(state, k):
    check_along_line(state, k)

