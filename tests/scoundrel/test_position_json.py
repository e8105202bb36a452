"""The position as JSON: ``position_from_json`` (the one reader) and ``hint --position FILE``.

A printed position reads back to the same position and the same hint; every key
is checked (unknown keys, strings or lists used as booleans, wrong types are
refused naming the key); rules in the file are honoured and a contradicting
rule flag is refused; broken JSON (deep nesting, huge integers, duplicate keys,
not an object) is one error line, exit 2.  Hypothesis fuzzes both the reader and
the command.
"""
import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clitools import invoke, one_error_line as one_error
from scoundrel_solver import PositionError, Rules, State, parse_cards, parse_line, replay, schema
from scoundrel_solver.scoundrel.position import make_table_position, position_from_json
from scoundrel_solver.scoundrel.table import TablePosition
from scoundrel_solver.jsonform import JSONInputError, loads

SEVEN = "5D 3S 4H 9C 2D 7S 6H 8S 2S"
COOP_LONG = "TD 6H 4S KH QS 2D 5C 3H 8D JC 7S 2H"
TABLE = {"room": ["3C", "QC", "8D", "KC"], "unseen": ["5D", "2S", "9H"],
         "heroes": [{"health": 6, "weapon": "7D", "last_kill": 12}]}
INPUT_SCHEMA = jsonschema.Draft202012Validator({"$ref": "#/$defs/position_input", "$defs": schema()["$defs"]})


def run(*args, code=0, input=None):
    return invoke(args, code, input)


def run_json(*args, code=0):
    return json.loads(run(*args, code=code).stdout)


def hint_of_file(tmp_path, obj, *args, code=0):
    path = tmp_path / "pos.json"
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return run("hint", "--position", str(path), *args, code=code)


# ---------------------------------------------------------------- round trips
def test_a_printed_position_reads_back_to_the_same_position():
    start = State.new(tuple(parse_cards(SEVEN)), Rules())
    for line in ("", "5D", "5D 3S 9C", "avoid", "avoid | 8S"):
        state = replay(start, parse_line(line))[-1]
        again = position_from_json(json.loads(json.dumps(state.as_dict())))
        assert isinstance(again, State)
        assert (again.room, again.dungeon, again.heroes, again.taken, again.avoided_last, again.rooms_done,
                again.potion_used, again.rules) == (state.room, state.dungeon, state.heroes, state.taken,
                                                    state.avoided_last, state.rooms_done, state.potion_used,
                                                    state.rules)
        table = TablePosition.from_state(state, 2)
        assert position_from_json(json.loads(json.dumps(table.as_dict()))) == table


def test_replay_position_gives_the_exact_hint_of_the_moves(tmp_path):
    pos = run_json("replay", "--seed", "42", "--line", "5D 5C 4H | avoid", "--json")["position"]
    by_file = json.loads(hint_of_file(tmp_path, pos, "--json").stdout)
    by_moves = run_json("hint", "--seed", "42", "--moves", "5D 5C 4H | avoid", "--json")
    assert by_file["kind"] == "exact" and by_file["actions"] == by_moves["actions"]
    assert by_file["position"] == by_moves["position"] == pos
    assert "seed" not in by_file and by_moves["seed"] == 42


def test_the_whole_replay_or_hint_object_reads_as_its_position(tmp_path):
    whole = run_json("replay", "--seed", "42", "--line", "5D 5C 4H | avoid", "--json")
    by_file = json.loads(hint_of_file(tmp_path, whole, "--json").stdout)
    again = json.loads(hint_of_file(tmp_path, by_file, "--json").stdout)
    by_moves = run_json("hint", "--seed", "42", "--moves", "5D 5C 4H | avoid", "--json")
    assert by_file["actions"] == again["actions"] == by_moves["actions"]
    with pytest.raises(PositionError, match="position"):
        position_from_json({"type": "replay", "position": [1]})


@pytest.mark.parametrize("args", [
    ["--deck", SEVEN, "--moves", "avoid", "--table"],                       # custom dungeon, known bottom
    ["--seed", "42", "--moves", "avoid", "--table", "--samples", "4"],
    # (the C belief search finishes this one in about half the 2 s budget: without a
    # budget, so that both hints are exact whatever the machine's load)
    ["--mode", "coop", "--deck", COOP_LONG, "--moves", "TD>", "--table", "--time", "0"],
])
def test_table_hint_position_gives_the_same_hint(tmp_path, args):
    out = run_json("hint", *args, "--json")
    samples = ["--samples", "4"] if "--samples" in args else []
    samples += ["--time", "0"] if "--time" in args else []
    again = json.loads(hint_of_file(tmp_path, out["position"], *samples, "--json").stdout)
    # within the default --time, how many of the policy's games (the achievable_* figures) finish
    # depends on the machine: compared without them (tests/scoundrel/test_achievable.py checks them)
    strip = lambda actions: [{k: v for k, v in a.items() if not k.startswith("achievable_")}  # noqa: E731
                             for a in actions]
    assert strip(again["actions"]) == strip(out["actions"]) and again["position"] == out["position"]


def test_the_position_of_a_coop_hint_reads_back(tmp_path):
    out = run_json("hint", "--mode", "coop", "--room", "5S 9D 2H KH", "--health", "14,18", "--weapon", "none,4D",
                   "--last-kill", "-,3", "--leader", "2", "--unseen", "6S 7H QC", "--json")
    assert out["position"]["rules"] == Rules(mode="coop").as_dict() and out["position"]["leader"] == 2
    assert out["position"]["heroes"][1] == {"health": 18, "weapon": "4D", "last_kill": 3, "potion_used": False}
    # no rule flag needed: the file says co-op
    again = json.loads(hint_of_file(tmp_path, out["position"], "--json").stdout)
    assert again["actions"] == out["actions"]


def test_a_dungeon_position_with_table_gives_the_table_hint(tmp_path):
    pos = run_json("replay", "--deck", SEVEN, "--line", "5D", "--json")["position"]
    out = json.loads(hint_of_file(tmp_path, pos, "--table", "--json").stdout)
    assert out["kind"] == "belief" and out["clairvoyant"] == "enumerated" and out["position"]["unseen"] == sorted(pos["dungeon"], key=_index)
    one_error(hint_of_file(tmp_path, TABLE, "--table", code=2), "--table", "gives none")


def _index(token):
    return parse_cards(token)[0].index


def test_the_library_reads_what_the_docs_show():
    pos = position_from_json(TABLE)
    assert pos.heroes[0].weapon == 7 and pos.heroes[0].last_kill == 12 and pos.distinct_orders() == 6
    gone = position_from_json({"room": ["3C", "QC", "8D", "KC"], "gone": ["5D", "3H", "2C"]})
    assert len(gone.unseen) == 37 and parse_cards("2C")[0] not in gone.unseen


# -------------------------------------------------------------- rules honoured
def test_rules_in_the_file_are_honoured(tmp_path):
    hard = {**TABLE, "rules": {"mode": "solo", "flee": "hard"}}
    out = json.loads(hint_of_file(tmp_path, hard, "--json").stdout)
    assert "avoid" not in [a["action"] for a in out["actions"]] and out["rules"]["flee"] == "hard"
    classic = json.loads(hint_of_file(tmp_path, TABLE, "--json").stdout)
    assert "avoid" in [a["action"] for a in classic["actions"]]
    # a flag saying the same is fine; one saying otherwise names both
    assert json.loads(hint_of_file(tmp_path, hard, "--flee", "hard", "--json").stdout)["actions"] == out["actions"]
    one_error(hint_of_file(tmp_path, hard, "--flee", "easy", code=2), "--flee easy", "hard flee", "pos.json")
    one_error(hint_of_file(tmp_path, hard, "--mode", "coop", code=2), "--mode coop", "solo")
    one_error(hint_of_file(tmp_path, {**TABLE, "rules": {"mode": "solo"}}, "--durability", "lenient", code=2),
              "--durability lenient", "strict weapons")
    # without rules in the file the flags apply
    flagged = json.loads(hint_of_file(tmp_path, TABLE, "--flee", "hard", "--json").stdout)
    assert flagged["actions"] == out["actions"]


@pytest.mark.parametrize("rules, words", [
    ({"mode": "coop", "flee": "hard"}, ["rules.flee", "solo rule"]),
    ({"deck_size": 54}, ["rules.deck_size", "co-op rule"]),
    ({"mode": "duo"}, ["rules", "unknown mode"]),
    ({"mode": "solo", "speed": 1}, ["rules", "speed"]),
    ({"deck_size": "54", "mode": "coop"}, ["rules.deck_size", "whole number"]),
    ({"durability": True}, ["rules.durability", "a string"]),
    (["solo"], ["rules", "an object"]),
])
def test_bad_rules_are_refused(rules, words):
    with pytest.raises(PositionError) as exc:
        position_from_json({**TABLE, "rules": rules})
    for w in words:
        assert w in str(exc.value)


def test_library_rules_must_agree_with_the_file():
    with pytest.raises(PositionError, match="not the rules asked for"):
        position_from_json({**TABLE, "rules": {"flee": "hard"}}, Rules(flee="easy"))
    assert position_from_json({**TABLE, "rules": {"flee": "hard"}}, Rules(flee="hard")).rules == Rules(flee="hard")
    assert position_from_json(TABLE, Rules(flee="easy")).rules == Rules(flee="easy")


# -------------------------------------------------------------- type errors
@pytest.mark.parametrize("change, words", [
    ({"avoided": "false"}, ["avoided", "true or false", "a string"]),
    ({"avoided": 0}, ["avoided", "true or false", "an integer"]),
    ({"help_used": "false"}, ["help_used", "true or false"]),
    ({"help_used": []}, ["help_used", "a list"]),
    ({"heroes": [{"health": ["6"]}]}, ["heroes[0].health", "whole number", "a list"]),
    ({"heroes": [{"health": "6"}]}, ["heroes[0].health", "whole number", "a string"]),
    ({"heroes": [{"health": 6.0}]}, ["heroes[0].health", "whole number"]),
    ({"heroes": [{"health": True}]}, ["heroes[0].health", "a boolean"]),
    ({"heroes": [{"weapon": 7}]}, ["heroes[0].weapon", "diamond card"]),
    ({"heroes": [{"weapon": "7S"}]}, ["not a weapon"]),
    ({"heroes": [{"weapon": "7D", "last_kill": "12"}]}, ["heroes[0].last_kill", "whole number"]),
    ({"heroes": [{"potion_used": "yes"}]}, ["heroes[0].potion_used", "true or false"]),
    ({"heroes": [{"mana": 3}]}, ["heroes[0]", "mana"]),
    ({"heroes": [6]}, ["heroes[0]", "an object"]),
    ({"heroes": {"health": 6}}, ["heroes", "a list"]),
    ({"heroes": [{}, {}]}, ["heroes", "1 hero", "lists 2"]),
    ({"leader": "1"}, ["leader", "whole number"]),
    ({"leader": True}, ["leader", "a boolean"]),
    ({"taken": 1.5}, ["taken", "whole number"]),
    ({"room": "3C QC 8D KC"}, ["room", "list of card strings"]),
    ({"room": ["3C", 5]}, ["room[1]", "card string"]),
    ({"room": ["3C", "XX"]}, ["room[1]", "XX"]),
    ({"unseen": [["5D"]]}, ["unseen[0]", "card string"]),
    ({"bottom": "2S"}, ["bottom", "list"]),
    ({"room_number": "2"}, ["room_number", "whole number"]),
    ({"final_room": "no"}, ["final_room", "true or false"]),
    ({"dungeon_left": None}, ["dungeon_left", "whole number"]),
    ({"won": "no"}, ["won", "boolean"]),
])
def test_type_errors_name_the_key_and_the_type(change, words):
    with pytest.raises(PositionError) as exc:
        position_from_json({**TABLE, **change})
    for w in words:
        assert w in str(exc.value), str(exc.value)
    assert "impossible" not in str(exc.value) or "weapon" in words[0]


@pytest.mark.parametrize("change, words", [
    ({"flee": "hard"}, ['"flee" is not a key', "rules"]),
    ({"mode": "coop"}, ['"mode" is not a key', "rules"]),
    ({"health": [6]}, ['"health"', "heroes[i].health"]),
    ({"potion_used": [1]}, ["heroes[i].potion_used"]),
    ({"avoided_last": True}, ['"avoided"']),
    ({"colour": "red"}, ["unknown key", "colour"]),
    ({"type": "position"}, ["unknown key", "type"]),
])
def test_unknown_and_moved_keys_are_refused(change, words):
    with pytest.raises(PositionError) as exc:
        position_from_json({**TABLE, **change})
    for w in words:
        assert w in str(exc.value), str(exc.value)


@pytest.mark.parametrize("change, words", [
    ({"dungeon": ["5D"]}, ["dungeon", "leave out unseen"]),
    ({"gone": ["5D"]}, ["not both"]),
    ({"final_room": True}, ["final_room", "says true"]),
    ({"dungeon_left": 4}, ["dungeon_left", "says 4", "holds 3"]),
    ({"finished": True}, ["finished game"]),
    ({"score": 12}, ["finished game"]),
    ({"room_number": 0}, ["room number 0"]),
    ({"heroes": [{"health": 21}]}, ["health 21", "impossible"]),
])
def test_derived_and_impossible_values_are_refused(change, words):
    with pytest.raises(PositionError) as exc:
        position_from_json({**TABLE, **change})
    for w in words:
        assert w in str(exc.value), str(exc.value)


def test_derived_keys_that_are_right_are_accepted():
    pos = position_from_json({**TABLE, "final_room": False, "dungeon_left": 3, "finished": False, "won": None,
                              "score": None, "room_number": 5})
    assert pos.room_number == 5 and pos.state(pos.unseen).rooms_done == 4


def test_make_table_position_refuses_wrong_types():
    room = parse_cards("3C QC 8D KC")
    for kwargs, word in [(dict(avoided="false"), "avoided"), (dict(help_used=1), "help used"),
                         (dict(leader="2"), "leader"), (dict(taken=1.0), "taken"), (dict(health=("6",)), "health"),
                         (dict(potion_used=(True,)), "potion used"), (dict(unseen=["5D"]), "unseen")]:
        with pytest.raises(PositionError, match=word):
            make_table_position(Rules(), room, **kwargs)
    with pytest.raises(PositionError, match="digits"):
        make_table_position(Rules(), room, health=(10 ** 5000,))


def test_unseen_cards_may_be_of_a_custom_dungeon():
    """With unseen cards given the face-down count is not checked against the pack
    (a custom dungeon's position reads back); with gone cards it is."""
    pos = make_table_position(Rules(), parse_cards("5D 3S 4H 9C"), unseen=parse_cards("2D 7S"))
    assert pos.final_room is False and pos.taken == 0
    with pytest.raises(PositionError, match="cannot happen"):
        make_table_position(Rules(), parse_cards("3C QC 8D KC"), gone=parse_cards("5D"))
    # a joker in a co-op custom dungeon of the 52-card rules
    joker = make_table_position(Rules(mode="coop"), parse_cards("JK 6H 4S"), unseen=parse_cards("KH"), taken=1)
    assert joker.room[0].is_joker


# ------------------------------------------------------------- broken files
@pytest.mark.parametrize("text, words", [
    ("[" * 100_000 + "]" * 100_000, ["nested too deeply"]),
    ('{"room": ["3C", "QC"], "taken": ' + "9" * 5000 + "}", ["too many digits"]),
    ('{"room": ["3C", "QC", "8D", "KC"], "taken": ' + "9" * 4000 + "}", ["taken", "digits"]),
    ('{"room": ["3C", "QC", "8D", "KC"], "avoided": true, "avoided": false}', ['"avoided" appears twice']),
    ('{"room": ["3C", "QC", "8D", "KC"], "taken": NaN}', ["NaN"]),
    ('{"room": ["3C", "QC", "8D", "KC"], "taken": Infinity}', ["Infinity"]),
    ("[1, 2]", ["a JSON object", "a list"]),
    ('"3C QC 8D KC"', ["a JSON object", "a string"]),
    ("42", ["a JSON object", "an integer"]),
    ("null", ["a JSON object", "null"]),
    ("", ["not valid JSON"]),
    ("{room: 1}", ["not valid JSON"]),
    ('{"room": ["3C", "QC", "8D", "KC"]} {}', ["not valid JSON"]),
])
def test_broken_json_is_one_error_line(tmp_path, text, words):
    one_error(hint_of_file(tmp_path, text, code=2), "pos.json", *words)


def test_broken_json_with_json_is_one_json_line(tmp_path):
    result = hint_of_file(tmp_path, "[" * 100_000, "--json", code=2)
    assert result.stderr == "" and result.stdout.count("\n") == 1
    out = json.loads(result.stdout)
    assert out["type"] == "error" and out["status"] == 2 and "nested too deeply" in out["error"]


def test_position_from_stdin_and_an_unreadable_file(tmp_path):
    out = json.loads(run("hint", "--position", "-", "--json", input=json.dumps(TABLE)).stdout)
    assert out["kind"] == "belief" and out["clairvoyant"] == "enumerated"
    one_error(run("hint", "--position", "-", input="[]", code=2), "standard input")
    (tmp_path / "pos.json").write_bytes(b"\xff\xfe{}")
    one_error(run("hint", "--position", str(tmp_path / "pos.json"), code=2), "not UTF-8 text", "pos.json")


# -------------------------------------------------------------- fuzzing
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10**30, max_value=10**30) | st.floats(allow_nan=False)
    | st.text(max_size=6) | st.sampled_from(["3C", "QC", "7D", "JK", "5H", "AS", "TD", "solo", "coop", "hard"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20)
KEYS = ["rules", "room", "heroes", "leader", "taken", "help_used", "avoided", "dungeon", "unseen", "bottom", "gone",
        "room_number", "final_room", "finished", "won", "score", "dungeon_left", "health", "flee"]


@st.composite
def mutated_positions(draw):
    """A valid position with some keys replaced, dropped or added."""
    base = draw(st.sampled_from([
        TABLE,
        {"room": ["5D", "3S", "4H", "9C"], "dungeon": ["2D", "7S", "6H", "8S", "2S"]},
        {"rules": {"mode": "coop"}, "room": ["5S", "9D", "2H", "KH"], "unseen": ["6S", "7H", "QC"], "leader": 2,
         "heroes": [{"health": 14}, {"health": 18, "weapon": "4D", "last_kill": 3}]},
    ]))
    pos = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(KEYS))
        if draw(st.booleans()):
            pos[key] = draw(json_values)
        else:
            pos.pop(key, None)
    if "heroes" in pos and isinstance(pos["heroes"], list) and pos["heroes"] and draw(st.booleans()):
        hero = pos["heroes"][0]
        if isinstance(hero, dict):
            hero[draw(st.sampled_from(["health", "weapon", "last_kill", "potion_used", "x"]))] = draw(json_values)
    return pos


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, mutated_positions()))
def test_fuzz_the_reader_accepts_only_what_the_schema_describes(data):
    """Whatever the JSON, the reader returns a position or raises PositionError;
    and what it accepts is a ``position_input`` of the schema."""
    try:
        pos = position_from_json(data)
    except PositionError:
        return
    assert isinstance(pos, (State, TablePosition))
    INPUT_SCHEMA.validate(data)
    # and the position it read prints a position that reads back to itself
    again = position_from_json(json.loads(json.dumps(pos.as_dict())))
    assert again.as_dict() == pos.as_dict()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.one_of(json_values, mutated_positions()))
def test_fuzz_the_command_gives_a_hint_or_one_error_line(data):
    result = invoke(["hint", "--position", "-", "--samples", "2", "--max-nodes", "5000"], _code_of(data),
                    input=json.dumps(data))
    if result.exit_code == 0:
        assert result.stderr == "" and "Best:" in result.stdout
    else:
        one_error(result)


def _code_of(data) -> int:
    try:
        position_from_json(data)
    except PositionError:
        return 2
    return 0


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40) | st.binary(max_size=40).map(lambda b: b.decode("latin-1")))
def test_fuzz_the_strict_loader(text):
    try:
        loads(text)
    except JSONInputError as exc:
        assert "\n" not in str(exc)
