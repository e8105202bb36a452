"""Cards, kinds, values and the card notation (RULES §1, §7)."""
import copy
import pickle

import pytest

from scoundrel_solver.scoundrel.cards import (
    JOKER, MONSTER, POTION, WEAPON, Card, CardError, format_cards, full_pack,
    is_solo_card, parse_card, parse_cards, split_tokens,
)

VALUES = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10,
          "J": 11, "Q": 12, "K": 13, "A": 14}


def expected_kind(rank: str, suit: str) -> str:
    if suit in "CS":
        return MONSTER
    if VALUES[rank] > 10:
        return MONSTER  # red face cards and aces: co-op monsters
    return POTION if suit == "H" else WEAPON


@pytest.mark.parametrize("rank", list(VALUES))
@pytest.mark.parametrize("suit", list("CDHS"))
def test_kind_and_value_of_every_card(rank, suit):
    card = parse_card(rank + suit)
    assert card.value == VALUES[rank]
    assert card.kind == expected_kind(rank, suit)
    assert str(card) == rank + suit
    assert card.is_monster == (card.kind == MONSTER)
    assert card.is_potion == (card.kind == POTION)
    assert card.is_weapon == (card.kind == WEAPON)
    assert not card.is_joker
    # solo removes exactly the red J, Q, K, A
    assert is_solo_card(card) == (suit in "CS" or VALUES[rank] <= 10)


def test_joker():
    assert parse_card("JK") is JOKER
    assert JOKER.value == 15
    assert JOKER.kind == MONSTER and JOKER.is_monster and JOKER.is_joker
    assert str(JOKER) == "JK" and JOKER.pretty() == "JK"
    assert not is_solo_card(JOKER)


def test_full_pack_and_counts():
    pack = full_pack()
    assert len(pack) == 53 and len(set(pack)) == 53
    assert pack[-1] is JOKER
    assert [c.index for c in pack] == list(range(53))
    assert sorted(pack) == pack
    solo = [c for c in pack if is_solo_card(c)]
    assert len(solo) == 44
    kinds = [c.kind for c in solo]
    assert kinds.count(MONSTER) == 26 and kinds.count(POTION) == 9 and kinds.count(WEAPON) == 9
    coop = pack[:52]
    kinds = [c.kind for c in coop]
    assert kinds.count(MONSTER) == 34 and kinds.count(POTION) == 9 and kinds.count(WEAPON) == 9
    # potions and weapons are exactly 2..10 of hearts / diamonds
    assert sorted(c.value for c in coop if c.is_potion) == list(range(2, 11))
    assert sorted(c.value for c in coop if c.is_weapon) == list(range(2, 11))


@pytest.mark.parametrize("token,text", [
    ("TD", "TD"), ("td", "TD"), ("tD", "TD"), ("10D", "TD"), ("10d", "TD"), ("10♦", "TD"),
    ("t♦", "TD"), ("2c", "2C"), ("2♣", "2C"), ("a♠", "AS"), ("AS", "AS"), ("q♥", "QH"),
    ("Kh", "KH"), ("jk", "JK"), ("Jk", "JK"), ("JK", "JK"), (" 9s ", "9S"), ("J♣", "JC"),
])
def test_parse_card_accepts(token, text):
    assert str(parse_card(token)) == text


@pytest.mark.parametrize("token", [
    "1D", "11H", "TX", "ZZ", "J", "10", "JKK", "AH♥", "1OS", "♦", "D", "2", "KK", "0S",
    "10 D", "TDD", "QZ", "J0", "W", "♠♠", "KHw",
])
def test_parse_card_rejects_naming_token(token):
    with pytest.raises(CardError) as err:
        parse_card(token)
    assert repr(token) in str(err.value)


@pytest.mark.parametrize("token", ["", "   "])
def test_parse_card_rejects_empty(token):
    with pytest.raises(CardError, match="empty"):
        parse_card(token)


def test_card_error_is_value_error():
    assert issubclass(CardError, ValueError)


def test_interning_identity_pickle_copy():
    assert parse_card("QS") is parse_card("qs") is Card(12, "S")
    c = parse_card("7D")
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.deepcopy(c) is c and copy.copy(c) is c
    assert pickle.loads(pickle.dumps(JOKER)) is JOKER
    assert {parse_card("7D"): 1}[c] == 1


def test_repr_and_pretty():
    assert repr(parse_card("TD")) == "Card('TD')"
    assert parse_card("TD").pretty() == "10♦"
    assert parse_card("QS").pretty() == "Q♠"
    assert parse_card("2C").pretty() == "2♣"
    assert parse_card("AH").pretty() == "A♥"
    for c in full_pack():
        assert parse_card(c.pretty()) is c
        assert parse_card(str(c)) is c
        assert parse_card(str(c).lower()) is c


def test_base_order_index():
    # clubs, diamonds, hearts, spades; 2..A
    assert parse_card("2C").index == 0
    assert parse_card("AC").index == 12
    assert parse_card("2D").index == 13
    assert parse_card("AS").index == 51
    assert JOKER.index == 52
    assert parse_card("2D") < parse_card("AS")


def test_parse_cards_and_format():
    cards = parse_cards("4H, 3h  10♦,JK jk ,qs")
    assert format_cards(cards) == "4H 3H TD JK JK QS"
    assert parse_cards("") == []
    assert split_tokens(" a,,b  c ") == ["a", "b", "c"]
    with pytest.raises(CardError, match="'ZZ'"):
        parse_cards("4H ZZ 5C")
    text = format_cards(full_pack())
    assert format_cards(parse_cards(text)) == text
