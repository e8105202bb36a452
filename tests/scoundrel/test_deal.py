"""Deal numbering of RULES §6: SplitMix64, Fisher-Yates, base order, test vectors."""
from collections import Counter
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoundrel_solver.scoundrel.cards import JOKER, full_pack, format_cards, is_solo_card, parse_cards
from scoundrel_solver.scoundrel.deal import MAX_SEED, SeedError, check_seed, deal, splitmix64
from scoundrel_solver.scoundrel.rules import Rules

SOLO = Rules()
COOP52 = Rules(mode="coop")
COOP50 = Rules(mode="coop", deck_size=50)
COOP54 = Rules(mode="coop", deck_size=54)

VECTORS = [
    (SOLO, 42, "4H 3H 5C 5D 5S TS 8S 7H 2D KC 7D 7C 3D TD 2S 5H 4C 6S 8H AC 3S 4D 2H 9H TH 9C KS 9S "
               "9D 6H TC 8C 6C 6D 7S 3C 8D AS 4S QC QS 2C JS JC"),
    (SOLO, 0, "TC 4H 9H 5D AS AC 8D 7S 3S 7D 9D 2C 6H KS 2D 8C TD 2H 8H 3C TH 4C 3D 4D JC 6C 4S QS "
              "QC 6D 9C JS 2S 5S 7C 6S 9S 5H 5C 7H TS 8S KC 3H"),
    (COOP52, 42, "8C 4H AC 2S 3S 2C 2H AD JD 6C 9S QH 3H 5S 7H 6D 3D 6S 7D 2D 8D 3C 9H 9C 5D 8H AS JS "
                 "5H 4D JH QS 5C 7S 8S 4S 9D KD TS AH 6H 7C KS TD QD KC 4C TH KH TC QC JC"),
    (COOP54, 42, "5D 5S AC 9S 6S AH 9H 4S 9D 5C JD 3D 9C 8C 6C QS 3S 7H JK 7C AS KD KS TH 8S 6H 3H 3C "
                 "QD 4C 2H TD 4H 7D TS KH 7S JK 6D QH JC TC 8H JH 5H KC JS 2D AD 2C 2S QC 4D 8D"),
]


def reference_shuffle(seed, base):
    """An independent transcription of RULES §6, for the property test below."""
    mask = (1 << 64) - 1
    state = seed
    cards = list(base)

    def nxt():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    for i in range(len(cards) - 1, 0, -1):
        j = nxt() % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_splitmix64_vector():
    assert list(islice(splitmix64(0), 2)) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


def test_splitmix64_wraps_at_top_seed():
    values = list(islice(splitmix64(MAX_SEED - 1), 5))
    assert all(0 <= v < MAX_SEED for v in values)
    assert len(set(values)) == 5


@pytest.mark.parametrize("rules,seed,text", VECTORS, ids=["solo42", "solo0", "coop52-42", "coop54-42"])
def test_deal_vectors(rules, seed, text):
    assert format_cards(deal(seed, rules)) == text
    assert list(deal(seed, rules)) == parse_cards(text)


def test_deal_default_rules_is_solo():
    assert deal(42) == deal(42, SOLO)


def test_deal_returns_tuple_and_is_deterministic():
    d = deal(7, COOP52)
    assert isinstance(d, tuple)
    assert d == deal(7, COOP52)
    assert d != deal(8, COOP52)


def test_flee_and_durability_do_not_change_the_deal():
    for flee in ("classic", "easy", "hard"):
        for dur in ("strict", "lenient"):
            assert deal(42, Rules(flee=flee, durability=dur)) == deal(42, SOLO)
    assert deal(42, Rules(mode="coop", durability="strict")) == deal(42, COOP52)


def test_base_orders():
    pack = full_pack()
    solo = SOLO.base_order()
    assert len(solo) == 44 and solo == [c for c in pack if is_solo_card(c)]
    assert format_cards(solo[:13]) == "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
    assert format_cards(solo[13:22]) == "2D 3D 4D 5D 6D 7D 8D 9D TD"
    assert COOP52.base_order() == pack[:52]
    c50 = COOP50.base_order()
    assert len(c50) == 50 and format_cards(set(pack[:52]) - set(c50)) in ("AD AH", "AH AD")
    c54 = COOP54.base_order()
    assert len(c54) == 54 and c54[:52] == pack[:52] and c54[52:] == [JOKER, JOKER]
    # base_order returns a fresh list each time (deal shuffles it in place)
    assert SOLO.base_order() is not SOLO.base_order()


@pytest.mark.parametrize("rules,size", [(SOLO, 44), (COOP52, 52), (COOP50, 50), (COOP54, 54)])
@pytest.mark.parametrize("seed", [0, 1, 42, MAX_SEED - 1, 2**63, 123456789012345])
def test_deal_is_permutation_of_base_order(rules, size, seed):
    d = deal(seed, rules)
    assert len(d) == size
    assert Counter(d) == Counter(rules.base_order())


def test_deck_compositions():
    solo = deal(1, SOLO)
    assert not any(c.suit in "HD" and c.rank > 10 for c in solo) and JOKER not in solo
    c50 = deal(1, COOP50)
    names = {str(c) for c in c50}
    assert "AH" not in names and "AD" not in names and "KH" in names and "KD" in names
    assert JOKER not in c50
    c54 = deal(1, COOP54)
    assert sum(c is JOKER for c in c54) == 2
    assert len(set(c54)) == 53
    c52 = deal(1, COOP52)
    assert len(set(c52)) == 52 and JOKER not in c52


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, MAX_SEED - 1),
       rules=st.sampled_from([SOLO, COOP52, COOP50, COOP54]))
def test_deal_matches_reference_transcription(seed, rules):
    assert list(deal(seed, rules)) == reference_shuffle(seed, rules.base_order())


@pytest.mark.parametrize("seed", [0, 1, MAX_SEED - 1, 2**63])
def test_valid_seeds(seed):
    assert check_seed(seed) == seed
    assert len(deal(seed)) == 44


@pytest.mark.parametrize("seed", [-1, MAX_SEED, MAX_SEED + 1, -(2**64), 1.0, 1.5, None, "abc", [1]])
def test_invalid_seeds(seed):
    with pytest.raises(SeedError):
        deal(seed)
    with pytest.raises(SeedError):
        check_seed(seed)


def test_seed_error_is_value_error_and_names_seed():
    assert issubclass(SeedError, ValueError)
    with pytest.raises(SeedError, match="-1"):
        deal(-1)
    with pytest.raises(SeedError, match=str(MAX_SEED)):
        deal(MAX_SEED)
