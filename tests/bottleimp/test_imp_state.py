"""The rules engine: who wins a trick, Lopaka's rule, following, turn order, setup steps, scores."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.bottleimp import (TABLES, BasePass, Discard, IllegalMove, Pass, Play, Reveal, Rules, State,
                                        deal, follow, lopaka_rule, trick_winner)
from scoundrel_solver.bottleimp.position import position_from_dict

from imp_games import ALL_RULES, random_game

CLASSIC = TABLES["classic"]


# ------------------------------------------------------------ trick winner
@pytest.mark.parametrize("cards, price, expected", [
    ((24, 20, 32), 19, (2, None)),        # nothing below the price: the highest, whatever its suit
    ((24, 17, 32), 19, (1, 17)),          # 17 below the price buys the bottle
    ((3, 12, 5), 14, (1, 12)),            # the highest of those below the price
    ((30, 15, 12), 13, (2, 12)),          # only 12 is below 13
    ((33, 21, 2, 1), 3, (2, 2)),          # four cards (Glitzerhaus); 2 and 1 below 3
    ((20, 4), 5, (1, 4)),
    ((37,), 19, (0, None)),
])
def test_trick_winner(cards, price, expected):
    assert trick_winner(cards, price) == expected


# -------------------------------------------------------------- Lopaka's rule
@pytest.mark.parametrize("hand, trick, price, expected, why", [
    ((12, 17, 18, 32, 36), (24, 20), 19, 32, "the seed's example: must follow blue; 17 and 32 both win"),
    ((3, 12, 36), (), 19, 36, "leading: his highest card"),
    ((3, 12, 36), (), 5, 36, "leading: his highest card whatever the price"),
    ((3, 14, 21), (35,), 10, 14, "following red, 14 and 21 cannot win: his lowest legal card"),
    ((3, 22, 36), (24,), 19, 36, "void in blue: 3 (below the price) and 36 (highest) win; the higher"),
    ((10, 13, 27), (30, 15), 19, 10, "15 lies below the price and beats all his blue cards: lowest"),
    ((13, 17, 34), (30, 12), 19, 17, "below the price: 13 and 17 beat 12, 34 does not; the higher"),
    ((4, 6, 34), (30,), 8, 34, "4 and 6 win below the price 8, 34 wins as the highest; he plays 34"),
    ((6, 10), (20, 4), 5, 6, "4 below the price 5 wins the trick whatever he plays: lowest"),
    ((1, 2), (37,), 3, 2, "both below the price win; the highest winner buys the bottle"),
])
def test_lopaka_rule(hand, trick, price, expected, why):
    assert lopaka_rule(hand, trick, price, CLASSIC) == expected, why


def late_lopaka_trick():
    """Trick 10 of a Lopaka round: price 5 (A holds the bottle); A has led 30 (blue)."""
    return position_from_dict({
        "type": "imp-position", "variant": "lopaka", "cards": "classic",
        "hands": {"A": [36], "L": [27, 34], "B": [4, 13]}, "devil": [2, 17, 29], "price": 5, "holder": "A",
        "won": {"A": [1, 3, 5, 6, 7, 8, 9, 10, 11], "L": [12, 14, 15, 16, 18, 20, 21, 22, 23],
                "B": [24, 25, 26, 28, 31, 32, 33, 35, 37]},
        "leader": "A", "trick": [30]})


def test_lopaka_never_looks_at_a_card_still_to_come():
    # 34 wins the trick as it lies (27 would not), so he plays it, although B still
    # has 4 below the price, which then takes the trick and the bottle from everyone
    s = late_lopaka_trick()
    assert s.turn_name == "L" and s.legal_cards() == (34,)
    s = s.apply(Play(34))
    assert s.legal_cards() == (4, 13)
    s = s.apply(Play(4))
    assert s.seats[s.leader] == "B" and s.seats[s.holder] == "B" and s.price == 4


def test_follow():
    assert follow((3, 12, 24, 36), (30,), CLASSIC) == (24,)
    assert follow((3, 12, 36), (30,), CLASSIC) == (3, 12, 36)
    assert follow((3, 12, 36), (), CLASSIC) == (3, 12, 36)


# ---------------------------------------------------------- a Lopaka round
def lopaka(seed=42):
    return deal(seed, Rules("lopaka")).start()


def test_lopaka_setup_and_first_trick():
    s = lopaka()
    assert s.in_setup and s.turn is None and len(s.legal_actions()) == 121
    assert s.setup_options(1) == [] and len(s.setup_options(0)) == 11
    s = s.apply(Pass(1, 18))
    assert not s.in_setup and 18 in s.hands[0] and 1 in s.hands[2] and 1 not in s.hands[0]
    assert s.hands[1] == tuple(sorted((17, 4, 32, 37, 9, 24, 16, 26, 10, 6, 11)))   # nothing exchanged with Lopaka
    assert s.turn_name == "A"
    s = s.apply(Play(36))
    assert s.turn_name == "L" and s.legal_cards() == (37,) and s.lopaka_to_play
    with pytest.raises(IllegalMove, match="Lopaka plays 37 by his rule, not 32"):
        s.apply(Play(32))
    s = s.apply(Play(37))
    assert s.turn_name == "B"
    s = s.apply(Play(31))
    assert s.trick == () and s.leader == 1 and s.won[1] == (31, 36, 37) and s.price == 19 and s.holder is None
    assert s.turn_name == "L" and s.legal_cards() == (32,)     # he leads his highest card


def test_lopaka_setup_errors():
    s = lopaka()
    with pytest.raises(IllegalMove, match="setup comes first"):
        s.apply(Play(1))
    with pytest.raises(IllegalMove, match="A passes 17"):
        s.apply(Pass(17, 18))
    with pytest.raises(IllegalMove, match="B passes 1"):
        s.apply(Pass(1, 1))
    with pytest.raises(IllegalMove, match="not a setup step of lopaka"):
        s.apply(Discard(1, 1, 5, 18, 15))
    with pytest.raises(IllegalMove, match="not a setup step"):
        s.apply(BasePass(((1, 5, 3), (4, 6, 9), (18, 15, 31))))
    after = s.apply(Pass(1, 18))
    with pytest.raises(IllegalMove, match="setup is over"):
        after.apply(Pass(18, 1))


def test_following_suit_and_unknown_cards():
    s = lopaka().apply(Pass(1, 18)).apply(Play(36)).apply(Play(37)).apply(Play(31))
    s = s.apply(Play(32))                     # Lopaka leads blue 32
    assert s.turn_name == "B" and s.legal_cards() == (13, 20, 27, 30)
    with pytest.raises(IllegalMove, match="does not follow suit: B must play blue"):
        s.apply(Play(12))
    with pytest.raises(IllegalMove, match="5 is not in B's hand"):
        s.apply(Play(5))
    s = s.apply(Play(13))
    assert s.legal_cards() == (8, 34)         # A's blue cards
    s = s.apply(Play(34))
    assert s.holder == 2 and s.price == 13 and s.leader == 2      # 13 below 19 bought the bottle


def test_void_may_play_anything_and_the_last_trick():
    s = late_lopaka_trick().apply(Play(34)).apply(Play(13))
    assert s.seats[s.leader] == "L" and s.legal_cards() == (27,)    # he leads his highest (and last) card
    s = s.apply(Play(27)).apply(Play(4))
    assert s.legal_cards() == (36,)           # A holds no blue: any card (red 36)
    s = s.apply(Play(36))
    assert s.finished and s.seats[s.holder] == "B" and s.price == 4
    assert s.scores()["B"] == -(1 + 3 + 4)    # B pays the devil's trick 2 17 29


def test_a_player_holding_the_led_suit_must_follow():
    s = deal(42, Rules("lopaka")).start().apply(Pass(1, 18))
    s = s.apply(Play(3))                      # yellow led; Lopaka follows yellow by his rule
    s = s.apply(Play(s.legal_cards()[0]))
    yellow = tuple(c for c in s.hands[2] if CLASSIC.suit(c) == "y")
    assert yellow and s.legal_cards() == yellow and len(s.hands[2]) > len(yellow)


# ----------------------------------------------------------- Glitzerhaus
def glitz(seed=0):
    return deal(seed, Rules("glitzerhaus")).start()


def test_glitzerhaus_setup_in_order():
    s = glitz()
    assert s.holding_names == ("A's stack 1", "A's stack 2", "B's stack 1", "B's stack 2")
    assert len(s.legal_actions()) == 72 * 72
    with pytest.raises(IllegalMove, match="out of order"):
        s.apply(Discard(2, 1, 28, 36, 37))
    with pytest.raises(IllegalMove, match="out of order"):
        s.apply(Reveal(1, 1))
    with pytest.raises(IllegalMove, match="not a setup step of glitzerhaus"):
        s.apply(Pass(3, 33))
    with pytest.raises(IllegalMove, match="cannot both discard and pass 3"):
        s.apply(Discard(1, 3, 3, 33, 6))
    with pytest.raises(IllegalMove, match="not in A's stack 1"):
        s.apply(Discard(1, 1, 3, 33, 6))     # 1 lies in stack 2
    s = s.apply(Discard(1, 3, 17, 33, 6))
    assert s.devil == (3, 33) and 6 in s.hands[0] and 17 in s.hands[2] and len(s.hands[0]) == 8
    assert s.passed == ((17, 6),)
    with pytest.raises(IllegalMove, match="stack 1 done already"):
        s.apply(Discard(1, 5, 9, 4, 2))
    s = s.apply(Discard(2, 1, 28, 36, 37))
    assert len(s.legal_actions()) == 4 and s.devil == (1, 3, 33, 36)
    with pytest.raises(IllegalMove, match="done already"):
        s.apply(Discard(2, 7, 13, 8, 10))
    stack_a2, stack_b1 = s.hands[1], s.hands[2]
    s = s.apply(Reveal(2, 1))
    assert s.hands[0] == stack_a2 and s.hands[2] == stack_b1 and s.passed == () and not s.in_setup
    assert s.holding_names == ("A's open stack", "A's hidden hand", "B's open stack", "B's hidden hand")
    with pytest.raises(IllegalMove, match="setup is over"):
        s.apply(Reveal(1, 1))


def test_glitzerhaus_trick_order_and_following_per_holding():
    s = glitz().apply(Discard(1, 3, 17, 33, 6)).apply(Discard(2, 1, 28, 36, 37)).apply(Reveal(2, 1))
    # A open 7 13 18 24 30 34 35 37; A hidden 5 6 9 11 20 22 31 32; B open 2 4 12 14 15 17 21 23
    assert s.turn_name == "A" and s.legal_cards() == s.hands[0]
    s = s.apply(Play(35))                    # red, from A's open stack
    assert s.turn_name == "B" and s.legal_cards() == (14, 21, 23)     # B's open red cards
    s = s.apply(Play(14))
    assert s.turn_name == "A" and s.legal_cards() == (11, 31)          # A's hidden red cards
    with pytest.raises(IllegalMove, match="from A's hidden hand"):
        s.apply(Play(5))
    s = s.apply(Play(31))
    assert s.turn_name == "B" and s.legal_cards() == (16, 26, 29)      # B's hidden red cards
    s = s.apply(Play(16))
    assert s.won[1] == (14, 16, 31, 35) and s.holder == 1 and s.price == 16 and s.leader == 1
    assert s.turn_name == "B" and s.legal_cards() == s.hands[2]         # B leads from the open stack


# ------------------------------------------------------------ base game
@pytest.mark.parametrize("players", [3, 4])
def test_base_pass_goes_to_the_neighbours(players):
    s = deal(3, Rules("base", players)).start()
    choices = tuple(s.hands[i][:3] for i in range(players))
    after = s.apply(BasePass(choices))
    for i in range(players):
        left_of_previous = choices[(i - 1) % players][0]
        right_of_next = choices[(i + 1) % players][1]
        assert left_of_previous in after.hands[i] and right_of_next in after.hands[i]
        assert len(after.hands[i]) == s.rules.tricks
    assert sorted(after.devil) == sorted(c[2] for c in choices)
    assert after.turn_name == "1"


def test_base_pass_errors():
    s = deal(3, Rules("base", 3)).start()
    h = s.hands
    with pytest.raises(IllegalMove, match="three different"):
        s.apply(BasePass((h[0][:2] + h[0][:1], h[1][:3], h[2][:3])))
    with pytest.raises(IllegalMove, match="each of the 3 seats"):
        s.apply(BasePass((h[0][:3], h[1][:3])))
    with pytest.raises(IllegalMove, match="seat 2 passes left"):
        s.apply(BasePass((h[0][:3], h[0][3:6], h[2][:3])))
    assert s.is_legal(BasePass((h[0][:3], h[1][:3], h[2][:3])))


# ------------------------------------------------------------------ scores
@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.variant}-{r.players}-{r.cards}")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 64 - 1), rng_seed=st.integers(0, 2 ** 32))
def test_coins_of_a_finished_round_add_up(rules, seed, rng_seed):
    _, _, states = random_game(rules, seed, random.Random(rng_seed))
    s = states[-1]
    table = rules.table
    assert s.finished and s.holder is not None
    assert table.coins_of(s.devil) + sum(table.coins_of(w) for w in s.won) == table.total
    scores = s.scores()
    holder = s.seats[s.holder]
    assert scores[holder] == -table.coins_of(s.devil)
    assert sum(v for k, v in scores.items() if k != holder) == table.total - table.coins_of(s.devil) \
        - table.coins_of(s.won[s.holder])
    assert len(s.devil) == rules.devil_size
    if rules.two_player:
        assert s.value() == scores["A"] - scores["B"]
    else:
        assert s.value() is None
    assert all(earlier.value() is None for earlier in states[:-1])


def test_a_hand_made_score():
    s = position_from_dict({"type": "imp-position", "variant": "lopaka", "cards": "classic",
                            "hands": {"A": [3], "L": [12], "B": [5]}, "devil": [2, 17, 29], "price": 14,
                            "holder": "B", "won": {"A": [1, 4, 6, 7, 8, 9, 10, 11, 13, 15, 16, 18, 20, 21, 22, 24,
                                                         33, 36], "L": [23, 25, 26, 27, 28, 30],
                                                   "B": [14, 31, 32, 34, 35, 37]}, "leader": "A", "trick": []})
    s = s.apply(Play(3))
    assert s.legal_cards() == (12,)          # Lopaka: 12 beats 3 below the price
    s = s.apply(Play(12)).apply(Play(5))
    assert s.finished and s.holder == 1 and s.price == 12
    # Lopaka pays the devil's trick (2:1 17:3 29:4); A and B score their tricks
    assert s.scores() == {"A": 1 + 1 + 1 + 3 + 2 + 3 + 2 + 1 + 3 + 4 + 2 + 5 + 4 + 2 + 5 + 4 + 5 + 6, "L": -8,
                          "B": 1 + 4 + 6 + 6 + 5 + 6}
    assert s.value() == 54 - 28


def test_states_are_values():
    a = lopaka().apply(Pass(1, 18))
    b = lopaka().apply(Pass(1, 18))
    assert a == b and hash(a) == hash(b) and a is not b
    with pytest.raises(Exception):
        a.price = 3


def test_unknown_actions_are_illegal():
    with pytest.raises(IllegalMove):
        lopaka().apply("pass 1 18")


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.variant}-{r.players}-{r.cards}")
def test_check_agrees_with_the_legal_actions(rules):
    """``check`` (what apply refuses) and ``legal_cards`` / ``setup_options`` (what is offered)
    are the same rules: every offered action passes, every other card of the deck fails."""
    rng = random.Random(8)
    for seed in range(3):
        _, actions, states = random_game(rules, seed, rng)
        for state in states[:-1]:
            if state.in_setup:
                offered = state.legal_actions()
                sample = offered if isinstance(offered, list) and len(offered) <= 200 else None
                if sample is None:
                    sample = [state.joint_action({i: rng.choice(state.setup_options(i))
                                                  for i in range(len(state.seats)) if state.setup_options(i)})
                              for _ in range(50)]
                assert all(state.is_legal(a) for a in sample)
                continue
            legal = set(state.legal_cards())
            for card in range(1, 38):
                if card != 19:
                    assert state.is_legal(Play(card)) == (card in legal), (card, legal)


def test_the_seeds_example_in_a_round():
    """The seed's example as a state: price 19, B leads 24, A plays 20, Lopaka holds 12 17 18 32 36
    (and, here, five more cards of no use to him: with only five cards left, as in the text, the
    price could no longer be 19, see docs/bottleimp.md) and plays 32."""
    s = position_from_dict({
        "type": "imp-position", "variant": "lopaka", "cards": "classic",
        "hands": {"A": [4, 6, 8, 9, 10, 11, 13, 14, 15], "L": [1, 2, 3, 5, 7, 12, 17, 18, 32, 36],
                  "B": [16, 21, 23, 26, 27, 28, 29, 30, 31]},
        "devil": [33, 34, 37], "price": 19, "holder": None,
        "won": {"A": [], "L": [], "B": [22, 25, 35]}, "leader": "B", "trick": [24, 20]})
    assert s.turn_name == "L" and s.legal_cards() == (32,)
    with pytest.raises(IllegalMove, match="Lopaka plays 32 by his rule, not 17"):
        s.apply(Play(17))
    s = s.apply(Play(32))
    assert s.seats[s.leader] == "L" and s.holder is None and s.won[1] == (20, 24, 32)


def test_the_seeds_example_cannot_happen_at_its_price_with_five_cards_left():
    """With five cards in Lopaka's hand six tricks (18 cards) are won; 20-37 are only 18 cards and
    four of them (20 24 32 36) are in play: a card below 19 was won, so someone holds the bottle."""
    in_play = {20, 24, 32, 36}
    high = [c for c in range(20, 38) if c not in in_play]
    assert len(high) < 18
