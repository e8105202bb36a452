"""Cards and card tables (IMP-RULES §1), the rules object, and every module's doc examples."""
import doctest
import importlib

import pytest

from scoundrel_solver.bottleimp import DECK, TABLES, CardError, Rules, RulesError, format_cards, parse_card

MODULES = ["cards", "rules", "state", "deal", "notation", "position", "reference", "exchange", "bots", "answers", "setupview", "setuphint",
           "analysis", "policy", "engine", "worlds", "review", "lazygame"]


@pytest.mark.parametrize("name", MODULES + [""])
def test_doc_examples_run(name):
    module = importlib.import_module("scoundrel_solver.bottleimp" + ("." + name if name else ""))
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_the_deck_is_36_cards_without_19():
    assert len(DECK) == 36 and 19 not in DECK and DECK == tuple(sorted(DECK)) and DECK[0] == 1 and DECK[-1] == 37


@pytest.mark.parametrize("name, total, letters", [("classic", 126, "ybr"), ("matagot", 127, "rbg")])
def test_tables(name, total, letters):
    table = TABLES[name]
    assert table.total == total == sum(table.coins(n) for n in DECK)
    assert "".join(table.suit_names) == letters
    for letter in letters:
        suit = table.suit_cards(letter)
        assert len(suit) == 12
        # each suit's coins rise 1 1 2 2 3 3 4 4 5 5 6 6 with the numbers (matagot's 17 breaks it: 4)
        coins = [table.coins(n) for n in suit]
        expected = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
        if name == "matagot" and letter == "b":
            expected[5] = 4
        assert coins == expected, (letter, coins)


def test_the_two_tables_differ_where_the_rule_book_says():
    classic, matagot = TABLES["classic"], TABLES["matagot"]
    assert classic.coins(17) == 3 and matagot.coins(17) == 4
    assert classic.suit(24) == "b" and matagot.suit(24) == "g"
    assert classic.card(36).pretty == "36r" and matagot.card(36).pretty == "36g"
    assert format_cards([24, 3], classic, pretty=True) == "24b 3y" and format_cards([24, 3]) == "24 3"


@pytest.mark.parametrize("token, number", [("24", 24), (" 1 ", 1), ("37", 37), ("24b", 24), ("24B", 24), ("05", 5),
                                           ("3y", 3)])
def test_parse_card(token, number):
    assert parse_card(token, TABLES["classic"]) == number


@pytest.mark.parametrize("token, says", [("19", "19"), ("38", "1-37"), ("0", "1-37"), ("x", "bad card"),
                                         ("", "bad card"), ("24r", "blue"), ("24g", "blue"), ("2 4", "bad card"),
                                         ("-1", "bad card"), ("100", "bad card"), ("24bb", "bad card"),
                                         ("\u0663", "bad card"), ("1" * 500, "characters")])
def test_parse_card_refuses(token, says):
    with pytest.raises(CardError, match=says):
        parse_card(token, TABLES["classic"])


def test_matagot_letters():
    assert parse_card("24g", TABLES["matagot"]) == 24
    with pytest.raises(CardError):
        parse_card("24b", TABLES["matagot"])
    with pytest.raises(CardError):
        parse_card("3y", TABLES["matagot"])     # no yellow in the Matagot edition


def test_rules():
    assert Rules().variant == "lopaka" and Rules().cards == "classic"
    assert Rules("base").players == 3 and Rules("base", 4).tricks == 8 and Rules("base", 3).tricks == 11
    assert Rules("lopaka").tricks == 11 and Rules("glitzerhaus").tricks == 8
    assert Rules("lopaka").devil_size == 3 and Rules("glitzerhaus").devil_size == 4 and Rules("base", 4).devil_size == 4
    assert Rules("base", 4).as_dict() == {"variant": "base", "cards": "classic", "players": 4}


@pytest.mark.parametrize("kwargs", [dict(variant="bridge"), dict(variant="base", players=2), dict(variant="base", players=5),
                                    dict(variant="lopaka", players=3), dict(variant="glitzerhaus", players=2),
                                    dict(cards="bambus"), dict(variant="base", players=True)])
def test_rules_refused(kwargs):
    with pytest.raises(RulesError):
        Rules(**kwargs)
