"""Positions in the JSON form of IMP-RULES §7: round trips, schema, every check, fuzz."""
import copy
import json
import random
import re

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.jsonform import schema
from scoundrel_solver.bottleimp import Discard, InputError, Pass, Play, PositionError, Reveal, Rules, deal
from scoundrel_solver.bottleimp.position import position_dict, position_from_dict, position_from_json

from imp_games import ALL_RULES, random_game

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCHEMA = schema()
POSITION = jsonschema.Draft202012Validator({"$ref": "#/$defs/imp-position", "$defs": SCHEMA["$defs"]})


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.variant}-{r.players}-{r.cards}")
def test_every_position_of_random_games_round_trips(rules):
    rng = random.Random(3)
    for seed in range(4):
        _, _, states = random_game(rules, seed, rng)
        for state in states:
            obj = position_dict(state)
            POSITION.validate(obj)
            text = json.dumps(obj)
            assert position_from_json(text) == state
            assert position_dict(position_from_json(text)) == obj
        assert obj["finished"] is True and obj["scores"] == state.scores() and obj["value"] == state.value()


# ------------------------------------------------------------ the checks
def lopaka_mid():
    """Lopaka deal 42 after 'pass 1 18 | 36 37 31 | 32 13': B bought the bottle? no: trick 2 runs."""
    s = deal(42, Rules("lopaka")).start().apply(Pass(1, 18))
    for c in (36, 37, 31, 32, 13):
        s = s.apply(Play(c))
    return position_dict(s)


def lopaka_bought():
    s = deal(42, Rules("lopaka")).start().apply(Pass(1, 18))
    for c in (36, 37, 31, 32, 13, 34):
        s = s.apply(Play(c))
    assert s.holder == 2 and s.price == 13
    return position_dict(s)


def glitz_play():
    s = deal(0, Rules("glitzerhaus")).start().apply(Discard(1, 3, 17, 33, 6)).apply(
        Discard(2, 1, 28, 36, 37)).apply(Reveal(2, 1)).apply(Play(35))
    return position_dict(s)


def glitz_setup():
    return position_dict(deal(0, Rules("glitzerhaus")).start().apply(Discard(1, 3, 17, 33, 6)))


def edit(obj, path, value):
    out = copy.deepcopy(obj)
    where = out
    for key in path[:-1]:
        where = where[key]
    if value is DELETE:
        del where[path[-1]]
    else:
        where[path[-1]] = value
    return out


DELETE = object()
BAD = [
    ("not-an-object", lambda: [], "JSON object"),
    ("wrong-type", lambda: edit(lopaka_mid(), ["type"], "position"), "type"),
    ("no-type", lambda: edit(lopaka_mid(), ["type"], DELETE), "type"),
    ("bad-variant", lambda: edit(lopaka_mid(), ["variant"], "bridge"), "variant"),
    ("variant-not-text", lambda: edit(lopaka_mid(), ["variant"], 3), "variant"),
    ("bad-cards", lambda: edit(lopaka_mid(), ["cards"], "bambus"), "card table"),
    ("players-in-a-variant", lambda: edit(lopaka_mid(), ["players"], 3), "player"),
    ("unknown-key", lambda: edit(lopaka_mid(), ["colour"], "red"), "unknown key"),
    ("missing-price", lambda: edit(lopaka_mid(), ["price"], DELETE), "price"),
    ("missing-trick", lambda: edit(lopaka_mid(), ["trick"], DELETE), "trick"),
    ("bad-phase", lambda: edit(lopaka_mid(), ["phase"], "done"), "phase"),
    ("hands-not-object", lambda: edit(lopaka_mid(), ["hands"], [1, 2]), "hands"),
    ("hand-missing-seat", lambda: edit(lopaka_mid(), ["hands", "L"], DELETE), "'L'"),
    ("hand-extra-seat", lambda: edit(lopaka_mid(), ["hands", "C"], []), "unknown key"),
    ("card-19", lambda: edit(lopaka_mid(), ["devil"], [2, 7, 19]), "19"),
    ("card-38", lambda: edit(lopaka_mid(), ["devil"], [2, 7, 38]), "38"),
    ("card-0", lambda: edit(lopaka_mid(), ["devil"], [2, 7, 0]), "no card"),
    ("card-text", lambda: edit(lopaka_mid(), ["devil"], [2, 7, "28"]), "not a card number"),
    ("card-bool", lambda: edit(lopaka_mid(), ["devil"], [2, 7, True]), "not a card number"),
    ("card-float", lambda: edit(lopaka_mid(), ["devil"], [2, 7, 28.0]), "not a card number"),
    ("card-twice-in-a-list", lambda: edit(lopaka_mid(), ["devil"], [2, 7, 7]), "twice"),
    ("card-in-two-places", lambda: edit(lopaka_mid(), ["devil"], [2, 7, 3]), "two places"),
    ("card-nowhere", lambda: edit(lopaka_mid(), ["devil"], [2, 7]), "nowhere"),
    ("devil-short-moved", lambda: edit(edit(lopaka_mid(), ["devil"], [2, 7]), ["won", "A"], [28]), "devil"),
    ("hand-too-big", lambda: edit(edit(lopaka_mid(), ["hands", "A"], lopaka_mid()["hands"]["A"] + [28]),
                                  ["devil"], [2, 7]), "devil"),
    ("won-not-whole-tricks", lambda: edit(edit(edit(lopaka_mid(), ["won", "A"], [2]), ["devil"],
                                               [7, 28, lopaka_mid()["hands"]["A"][0]]),
                                          ["hands", "A"], lopaka_mid()["hands"]["A"][1:]), "whole tricks"),
    ("hand-sizes", lambda: edit(edit(lopaka_mid(), ["hands", "A"], lopaka_mid()["hands"]["A"][1:]),
                                ["hands", "B"], lopaka_mid()["hands"]["B"] + lopaka_mid()["hands"]["A"][:1]), "holds"),
    ("price-without-holder", lambda: edit(lopaka_mid(), ["price"], 13), "nobody holds"),
    ("price-not-int", lambda: edit(lopaka_mid(), ["price"], "19"), "price"),
    ("holder-without-price", lambda: edit(lopaka_bought(), ["holder"], None), "nobody holds"),
    ("price-not-in-holders-pile", lambda: edit(lopaka_bought(), ["holder"], "A"), "holder's won pile"),
    ("price-other-card", lambda: edit(lopaka_bought(), ["price"], 12), "holder's won pile"),
    ("price-high-card-held", lambda: edit(lopaka_bought(), ["price"], 32), "below 19"),
    ("holder-null-low-card-won", lambda: edit(edit(lopaka_bought(), ["holder"], None), ["price"], 19), "below 19"),
    ("bad-holder", lambda: edit(lopaka_mid(), ["holder"], "C"), "holder"),
    ("bad-leader", lambda: edit(lopaka_mid(), ["leader"], "Z"), "leader"),
    ("leader-number", lambda: edit(lopaka_mid(), ["leader"], 1), "leader"),
    ("first-trick-led-by-b", lambda: edit(position_dict(deal(42, Rules("lopaka")).start().apply(Pass(1, 18))),
                                          ["leader"], "B"), "first trick"),
    ("trick-too-long", lambda: edit(edit(lopaka_mid(), ["trick"], [32, 13, 34]), ["hands", "A"],
                                    [c for c in lopaka_mid()["hands"]["A"] if c != 34]), "complete"),
    ("trick-off-suit-while-holding", lambda: edit(edit(lopaka_mid(), ["trick"], [32, 12]), ["hands", "B"],
                                                  sorted(set(lopaka_mid()["hands"]["B"]) - {12} | {13})), "following"),
    ("lopaka-not-his-rule", lambda: edit(edit(edit(lopaka_mid(), ["trick"], [26]), ["hands", "L"],
                                              sorted(set(lopaka_mid()["hands"]["L"]) - {26} | {32})),
                                         ["hands", "B"], sorted(lopaka_mid()["hands"]["B"] + [13])), "rule"),
    ("finished-but-not", lambda: edit(lopaka_mid(), ["finished"], True), "finished"),
    ("scores-mid-round", lambda: edit(lopaka_mid(), ["scores"], {"A": 0, "L": 0, "B": 0}), "finished round"),
    ("value-mid-round", lambda: edit(lopaka_mid(), ["value"], 0), "finished round"),
    ("glitz-hands-key", lambda: edit(glitz_play(), ["hands"], {"A": [], "B": []}), "unknown key"),
    ("glitz-open-missing", lambda: edit(glitz_play(), ["open"], DELETE), "open"),
    ("glitz-lopaka-holder", lambda: edit(glitz_play(), ["leader"], "L"), "leader"),
    ("glitz-sizes", lambda: edit(edit(glitz_play(), ["open", "B"], glitz_play()["open"]["B"][1:]), ["hidden", "B"],
                                 glitz_play()["hidden"]["B"] + glitz_play()["open"]["B"][:1]), "holds"),
    ("setup-bad-step", lambda: edit(glitz_setup(), ["passed"], {"A": [17], "B": []}), "passed"),
    ("setup-devil-size", lambda: edit(edit(glitz_setup(), ["devil"], [3]), ["stacks", "A2"],
                                      glitz_setup()["stacks"]["A2"] + [33]), "devil"),
    ("setup-passed-card-not-there", lambda: edit(glitz_setup(), ["passed", "A"], [3]), "passed"),
    ("setup-stack-size", lambda: edit(edit(glitz_setup(), ["stacks", "A1"], glitz_setup()["stacks"]["A1"][1:]),
                                      ["stacks", "A2"], glitz_setup()["stacks"]["A2"] + glitz_setup()["stacks"]["A1"][:1]),
     "holds"),
    ("setup-lopaka-passed", lambda: edit(position_dict(deal(1, Rules("lopaka")).start()), ["passed", "A"], [3]),
     "passed"),
    ("setup-lopaka-hand", lambda: edit(position_dict(deal(1, Rules("lopaka")).start()), ["hands", "L"], []), "nowhere"),
    ("setup-with-price", lambda: edit(position_dict(deal(1, Rules("lopaka")).start()), ["price"], 19), "unknown key"),
    ("base-without-players", lambda: edit(position_dict(deal(1, Rules("base")).start()), ["players"], DELETE),
     "players"),
    ("base-players-5", lambda: edit(position_dict(deal(1, Rules("base")).start()), ["players"], 5), "3 or 4"),
    ("base-players-text", lambda: edit(position_dict(deal(1, Rules("base")).start()), ["players"], "3"), "3 or 4"),
]


@pytest.mark.parametrize("name, make, says", BAD, ids=[b[0] for b in BAD])
def test_positions_breaking_the_rules_are_refused(name, make, says):
    obj = make()
    with pytest.raises(PositionError, match=f"(?i){says}"):
        position_from_dict(obj)


def test_the_good_ones_are_accepted():
    for make in (lopaka_mid, lopaka_bought, glitz_play, glitz_setup):
        assert position_dict(position_from_dict(make())) == make()


def test_a_finished_position_checks_its_derived_keys():
    rng = random.Random(1)
    _, _, states = random_game(Rules("lopaka"), 9, rng)
    obj = position_dict(states[-1])
    position_from_dict(obj)
    with pytest.raises(PositionError, match="scores"):
        position_from_dict(edit(obj, ["scores", "A"], obj["scores"]["A"] + 1))
    with pytest.raises(PositionError, match="value"):
        position_from_dict(edit(obj, ["value"], obj["value"] + 1))
    with pytest.raises(PositionError, match="finished"):
        position_from_dict(edit(obj, ["finished"], False))


# null, true and false where they do not belong: named in JSON's words, not Python's
JSON_WORDS = [(path, value) for value in (None, True, False)
              for path in (["hands", "A"], ["hands", "A", 0], ["devil"], ["trick"], ["won", "A"], ["price"],
                           ["leader"], ["holder"], ["cards"], ["type"], ["phase"], ["finished"])
              if not (path == ["holder"] and value is None)]


@pytest.mark.parametrize("path, value", JSON_WORDS, ids=lambda x: json.dumps(x).replace(" ", ""))
def test_null_and_booleans_are_named_as_json_writes_them(path, value):
    obj = edit(lopaka_mid(), path, value)
    if path == ["finished"] and value is False:
        obj["finished"] = True          # false is a finished key's right value while play goes on
        value = True
    with pytest.raises(PositionError) as caught:
        position_from_dict(obj)
    words = re.findall(r"\w+", str(caught.value))
    assert json.dumps(value) in words, words
    assert not {"None", "True", "False", "NoneType", "bool"} & set(words), words


def test_the_table_view_names_json_values_in_json_words():
    from scoundrel_solver.bottleimp.tableview import view_from_dict
    with pytest.raises(InputError, match=r"not null$"):
        view_from_dict(None)
    with pytest.raises(InputError, match=r"not true$"):
        view_from_dict({"type": True})


@pytest.mark.parametrize("text", ["", "{", "[1,", '{"a": 1, "a": 2}', "NaN", "1" * 5000, "[" * 100000, "\x00"])
def test_bad_json_text(text):
    with pytest.raises(InputError):
        position_from_json(text)


# ---------------------------------------------------------------- fuzz
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-5, 40) | st.floats(allow_nan=False)
                           | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner,
                                                                                       max_size=5),
                           max_leaves=20)
KEYS = ["type", "variant", "cards", "players", "phase", "hands", "open", "hidden", "stacks", "devil", "passed",
        "price", "holder", "won", "leader", "trick", "finished", "scores", "value"]


@settings(max_examples=150, **SETTINGS)
@given(base=st.sampled_from([lopaka_mid, lopaka_bought, glitz_play, glitz_setup]), key=st.sampled_from(KEYS),
       value=JSON_VALUES, drop=st.booleans())
def test_the_reader_raises_only_input_errors_on_mutated_positions(base, key, value, drop):
    obj = base()
    if drop:
        obj.pop(key, None)
    else:
        obj[key] = value
    try:
        position_from_dict(obj)
    except InputError:
        pass


@settings(max_examples=120, **SETTINGS)
@given(text=st.text(max_size=200) | JSON_VALUES.map(json.dumps))
def test_the_reader_raises_only_input_errors_on_any_text(text):
    try:
        position_from_json(text)
    except InputError:
        pass
