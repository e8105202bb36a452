"""Deals by number (IMP-RULES §5, test vectors) and deals given by hand."""
import pytest

from scoundrel_solver.bottleimp import DECK, CardError, DealError, Rules, deal, deal_from_blocks, deal_from_text
from scoundrel_solver.shuffle import SeedError, shuffled

SEED0 = [int(x) for x in "3 17 31 9 11 20 32 22 5 1 28 18 35 24 7 30 34 13 33 6 14 23 15 4 2 21 12 36 37 25 26 29 "
                         "27 10 16 8".split()]


def cards(text):
    return tuple(int(x) for x in text.split())


def test_the_shuffled_list_of_seed_0():
    assert shuffled(0, DECK) == SEED0


def test_vectors_lopaka_seed_0():
    d = deal(0, Rules("lopaka"))
    assert d.blocks == {"A": cards("3 17 31 9 11 20 32 22 5 1 28"), "L": cards("18 35 24 7 30 34 13 33 6 14 23"),
                        "B": cards("15 4 2 21 12 36 37 25 26 29 27"), "devil": cards("10 16 8")}


def test_vectors_glitzerhaus_seed_0():
    d = deal(0, Rules("glitzerhaus"))
    assert d.blocks == {"A1": cards("3 17 31 9 11 20 32 22 5"), "A2": cards("1 28 18 35 24 7 30 34 13"),
                        "B1": cards("33 6 14 23 15 4 2 21 12"), "B2": cards("36 37 25 26 29 27 10 16 8")}


def test_vectors_lopaka_seed_42():
    d = deal(42, Rules("lopaka"))
    assert d.blocks == {"A": cards("1 5 34 33 3 35 36 21 25 8 29"), "L": cards("17 4 32 37 9 24 16 26 10 6 11"),
                        "B": cards("18 15 31 23 12 14 30 27 22 20 13"), "devil": cards("7 28 2")}


@pytest.mark.parametrize("players, size", [(3, 12), (4, 9)])
def test_base_blocks(players, size):
    d = deal(0, Rules("base", players))
    assert list(d.blocks) == [str(i) for i in range(1, players + 1)]
    assert [c for b in d.blocks.values() for c in b] == SEED0
    assert all(len(b) == size for b in d.blocks.values())


@pytest.mark.parametrize("variant", ["lopaka", "glitzerhaus", "base"])
def test_the_card_table_does_not_change_the_deal(variant):
    for seed in (0, 1, 2 ** 64 - 1):
        assert deal(seed, Rules(variant)).blocks == deal(seed, Rules(variant, cards="matagot")).blocks


def test_the_deal_json_object():
    d = deal(0, Rules("lopaka")).as_dict()
    assert d == {"type": "imp-deal", "variant": "lopaka", "seed": 0, "cards": "classic",
                 "deal": {"A": list(cards("3 17 31 9 11 20 32 22 5 1 28")),
                          "L": list(cards("18 35 24 7 30 34 13 33 6 14 23")),
                          "B": list(cards("15 4 2 21 12 36 37 25 26 29 27")), "devil": [10, 16, 8]}}
    assert deal(5, Rules("base", 4)).as_dict()["players"] == 4


def test_the_start_of_a_deal():
    s = deal(0, Rules("lopaka")).start()
    assert s.in_setup and s.hands[0] == tuple(sorted(cards("3 17 31 9 11 20 32 22 5 1 28")))
    assert s.devil == (8, 10, 16) and s.price == 19 and s.holder is None


@pytest.mark.parametrize("seed", [-1, 2 ** 64, "x", "1.5", None, True, "+5", "1_000"])
def test_bad_seeds(seed):
    with pytest.raises(SeedError):
        deal(seed, Rules())


@pytest.mark.parametrize("variant", ["lopaka", "glitzerhaus", "base"])
def test_a_deal_by_hand_in_blocks_and_in_one_list(variant):
    rules = Rules(variant)
    numbered = deal(7, rules)
    text = " / ".join(" ".join(map(str, b)) for b in numbered.blocks.values())
    assert deal_from_text(text, rules).blocks == numbered.blocks
    flat = " ".join(str(c) for b in numbered.blocks.values() for c in b)
    assert deal_from_text(flat, rules).blocks == numbered.blocks
    assert deal_from_text(text.replace(" ", ","), rules).blocks == numbered.blocks
    assert deal_from_text(text, rules).seed is None
    assert deal_from_blocks(dict(numbered.blocks), rules).blocks == numbered.blocks


@pytest.mark.parametrize("text, error, says", [
    ("", DealError, "empty"),
    ("1 2 3", DealError, "36 cards"),
    (" ".join(map(str, SEED0[:-1])) + " 3", DealError, "twice"),
    (" ".join(map(str, SEED0[:-1])) + " 19", CardError, "19"),
    (" ".join(map(str, SEED0[:-1])) + " 38", CardError, "1-37"),
    (" / ".join(" ".join(map(str, SEED0[i:i + 9])) for i in range(0, 36, 9)), DealError, "block A has 9"),
    ("1 2 3 / 4 5", DealError, "4 blocks"),
    ("3 17 31 9 11 20 32 22 5 1 / 28 18 35 24 7 30 34 13 33 6 14 23 / 15 4 2 21 12 36 37 25 26 29 27 / 10 16 8",
     DealError, "block A has 10"),
])
def test_bad_deals_by_hand(text, error, says):
    with pytest.raises(error, match=says):
        deal_from_text(text, Rules("lopaka"))


def test_deal_from_blocks_checks_names_and_cards():
    with pytest.raises(DealError, match="blocks"):
        deal_from_blocks({"A": (), "B": ()}, Rules("lopaka"))
    blocks = [list(b) for b in deal(1, Rules("glitzerhaus")).blocks.values()]
    blocks[0][0] = "3"
    with pytest.raises(CardError):
        deal_from_blocks(blocks, Rules("glitzerhaus"))
