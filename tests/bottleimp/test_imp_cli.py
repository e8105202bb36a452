"""``scoundrel-solve imp deal|replay|play``: text, JSON (validated against the schema), help examples, the game."""
import json
import random
import re
import shlex

import jsonschema
import pytest

from imp_games import invoke
from scoundrel_solver.bottleimp import Rules, deal
from scoundrel_solver.cli.bottleimp.group import imp_group
from scoundrel_solver.cli.bottleimp.play import Session
from scoundrel_solver.jsonform import TYPES, schema

SCHEMA = schema()
ROOT = jsonschema.Draft202012Validator(SCHEMA)


def check(obj):
    kind = obj["type"]
    assert kind in TYPES
    jsonschema.Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": SCHEMA["$defs"]}).validate(obj)
    ROOT.validate(obj)
    return obj


def run_json(*args):
    result = invoke(["imp", *args, "--json"])
    assert result.stderr == ""
    return check(json.loads(result.stdout))


# -------------------------------------------------------------------- deal
@pytest.mark.parametrize("args", [
    ["--seed", "42"], ["--variant", "glitzerhaus", "--seed", "0"], ["--variant", "base", "--seed", "1"],
    ["--variant", "base", "--players", "4", "--seed", "1", "--cards", "matagot"],
    ["--variant", "lopaka", "--deal", " ".join(map(str, range(1, 19))) + " " + " ".join(map(str, range(20, 38)))],
])
def test_deal_json(args):
    out = run_json("deal", *args)
    assert out["type"] == "imp-deal"


def test_deal_json_is_the_vector():
    out = run_json("deal", "--variant", "lopaka", "--seed", "42")
    assert out["deal"]["devil"] == [7, 28, 2] and out["deal"]["A"] == [1, 5, 34, 33, 3, 35, 36, 21, 25, 8, 29]
    assert out == deal(42, Rules("lopaka")).as_dict()


def test_deal_text():
    text = invoke(["imp", "deal", "--seed", "42"]).stdout
    assert text.splitlines()[0] == "Lopaka, deal 42 (classic cards: y yellow, b blue, r red)"
    assert "A (leads):" in text and "1 3 5 8 21 25 29 33 34 35 36" in text and "2 7 28" in text
    pretty = invoke(["imp", "deal", "--seed", "42", "--pretty", "--cards", "matagot"]).stdout
    assert "1r 3b 5r" in pretty


# ------------------------------------------------------------------ replay
LINE42 = "pass 1 18 | 36 37 31 | 32 13 34"


def test_replay_text_and_steps():
    out = invoke(["imp", "replay", "--seed", "42", "--line", LINE42, "--steps"]).stdout
    assert "Line: " + LINE42 in out
    assert "trick 2: L 32, B 13, A 34 → B wins with 13 and buys the bottle at 13; 15 coins, B has won 15" in out
    assert "Price 13, bottle with B." in out and "Trick 3: B to lead." in out
    plain = invoke(["imp", "replay", "--seed", "42", "--line", LINE42]).stdout
    assert "trick 2:" not in plain


def test_replay_json():
    out = run_json("replay", "--seed", "42", "--line", LINE42.replace(" | ", "|"))
    assert out["line"] == LINE42
    assert out["tricks"][1] == {"number": 2, "leader": "L", "cards": [32, 13, 34], "coins": 15, "winner": "B", "bought": True,
                                "price": 13, "holder": "B"}
    assert out["position"]["holder"] == "B" and "finished" not in out["position"]


@pytest.mark.parametrize("rules", [Rules("lopaka"), Rules("glitzerhaus", cards="matagot"), Rules("base", 4)])
def test_replay_of_a_whole_round(rules):
    from imp_games import random_game
    from scoundrel_solver.bottleimp import format_line, line_of
    start, actions, states = random_game(rules, 5, random.Random(2))
    line = format_line(line_of(start, actions))
    args = ["--variant", rules.variant, "--cards", rules.cards, "--seed", "5"]
    if rules.variant == "base":
        args += ["--players", str(rules.players)]
    out = run_json("replay", *args, "--line", line)
    position = out["position"]
    assert position["finished"] is True and position["scores"] == states[-1].scores()
    assert position["value"] == states[-1].value()
    assert len(out["tricks"]) == rules.tricks
    text = invoke(["imp", "replay", *args, "--line", line, "--steps"]).stdout
    assert "Round over. Scores:" in text
    if rules.two_player:
        assert "Margin A − B:" in text


def test_replay_glitzerhaus_setup_json():
    out = run_json("replay", "--variant", "glitzerhaus", "--seed", "0", "--line", "s1 3/17 33/6")
    assert out["position"]["phase"] == "setup" and out["position"]["passed"] == {"A": [17], "B": [6]}


# ------------------------------------------------------------ help examples
def examples(command):
    import click
    ctx = click.Context(command, info_name="x")
    text = command.get_help(ctx)
    return [line.strip() for line in text.split("Examples:")[1].splitlines() if "scoundrel-solve" in line]


def all_examples():
    out = []
    for cmd in [imp_group] + list(imp_group.commands.values()):
        out += examples(cmd)
    return out


#: examples that take far too long for this test, and why (run by hand, or with SCOUNDREL_SLOW=1)
SLOW_EXAMPLES = {
    "scoundrel-solve imp stats --variant lopaka --seeds 1-10000 --jobs 2 --out lopaka.jsonl --resume":
        "10,000 whole Lopaka deals: hours",
    "scoundrel-solve imp stats --summary lopaka.jsonl --json": "needs lopaka.jsonl: the line above",
}


def test_help_examples_run(tmp_path, monkeypatch):
    """Every example of every imp command's --help, in order in one folder (an example may
    read a file an earlier one wrote with '> FILE'), but the slow ones unless asked for."""
    import os
    slow = os.environ.get("SCOUNDREL_SLOW", "") not in ("", "0")
    monkeypatch.chdir(tmp_path)
    every = all_examples()
    assert set(SLOW_EXAMPLES) <= set(every), "SLOW_EXAMPLES names an example no --help shows"
    for example in every:
        if example in SLOW_EXAMPLES and not slow:
            continue
        stdin = None
        if example.startswith("printf"):
            printed, example = example.split(" | ", 1)
            stdin = shlex.split(printed)[1].encode().decode("unicode_escape")
        example = re.sub(r"\s+\(from a pipe\)$", "", example)
        args = shlex.split(example)
        target = None
        if ">" in args:
            args, target = args[:args.index(">")], args[args.index(">") + 1]
        assert args[0] == "scoundrel-solve", example
        if args[1:3] == ["imp", "play"] and stdin is None:
            stdin = "quit\n"
        result = invoke(args[1:], input=stdin)
        assert result.stdout, example
        if target:
            (tmp_path / target).write_text(result.stdout)


# --------------------------------------------------------------------- play
def scripted(rules, seed, seat="A", bot="lopaka-rule", pick=lambda legal, rng: legal[0], undo_at=None):
    """Play a round through the Session, choosing the human's moves with ``pick``; returns
    (the lines typed, the session's output)."""
    d = deal(seed, rules)
    out = []
    session = Session(d, rules.seats.index(seat), bot, 0, out.append)
    session.start()
    typed = []
    rng = random.Random(seed)
    while not session.state.finished:
        state = session.state
        if state.in_setup:
            option = pick(state.setup_options(session.human), rng)
            if isinstance(option, tuple):
                word = "/".join(map(str, option))
            else:
                word = str(option)
            keyword = "pass" if rules.variant != "glitzerhaus" else ("open" if state.step == 2 else f"s{state.step + 1}")
            line = f"{keyword} {word}"
        else:
            line = str(pick(state.legal_cards(), rng))
        typed.append(line)
        session.handle(line)
        if undo_at is not None and len(typed) == undo_at:
            typed.append("undo")
            session.handle("undo")
    session.finish()
    return typed, out


@pytest.mark.parametrize("rules, seat", [(Rules("lopaka"), "A"), (Rules("lopaka"), "B"), (Rules("glitzerhaus"), "B"),
                                         (Rules("base", 3), "2"), (Rules("base", 4), "4")])
def test_a_whole_game_from_a_pipe(rules, seat):
    typed, expected = scripted(rules, 7, seat, pick=lambda legal, rng: rng.choice(legal), undo_at=3)
    game = ["--variant", rules.variant, "--seed", "7"]
    if rules.variant == "base":
        game += ["--players", str(rules.players)]
    result = invoke(["imp", "play", *game, "--as", seat], input="\n".join(typed) + "\n")
    out = result.stdout
    assert "Round over. Scores:" in out and "Replay it: scoundrel-solve imp replay" in out
    assert "Undos: 1." in out
    # the transcript echoes each line after the prompt
    assert f"{seat}> {typed[0]}" in out
    # the line printed at the end replays to the same scores
    line = re.search(r"^Your line: (.*)$", out, re.M).group(1)
    replayed = run_json("replay", *game, "--line", line)
    scores = re.search(r"^Round over. Scores: (.*)\.$", out, re.M).group(1)
    assert replayed["position"]["finished"] is True
    for name, value in replayed["position"]["scores"].items():
        label = {"L": "Lopaka"}.get(name, name if rules.two_player else f"seat {name}")
        assert f"{label} {value}".replace("-", "−") in scores


def test_play_hides_what_the_human_cannot_see():
    out = invoke(["imp", "play", "--variant", "glitzerhaus", "--seed", "0"], input="s1 3/17\nmoves\nquit\n").stdout
    assert "stack 2: face down" in out and "B: stacks face down" in out
    assert "Line so far: s1 3/17 ?/2" in out and "B lays" not in out
    lopaka = invoke(["imp", "play", "--seed", "42"], input="look\nquit\n").stdout
    assert "Lopaka: hand: 11 cards" in lopaka and "Devil's trick: 3 cards face down" in lopaka


def test_play_tells_bad_lines_and_goes_on():
    typed = "pass 17\npass 99\ns1 1/2\npass 1\npass 3\n35 36\n99\n19\n8\nundo x\nundo\nundo\nundo\nhelp\nmoves\nquit\n"
    out = invoke(["imp", "play", "--seed", "42"], input=typed).stdout
    assert "illegal: 17 is not in your hand" in out
    assert "bad card '99'" in out and "bad card 19" in out
    assert "illegal: 's1' is not the step due" in out
    assert "illegal: the setup is over: play a card" in out
    assert "illegal: play one card at a time" in out
    assert "illegal: 8 does not follow suit" not in out and "trick 1: A 8" in out
    assert "bad command: write undo" in out
    assert out.count("undone:") == 2 and "nothing to undo" in out
    assert "Line so far: (no moves)" in out and "Quit: you leave the round" in out


def test_play_end_of_input():
    out = invoke(["imp", "play", "--seed", "42", "--bot", "random", "--bot-seed", "3"], input="pass 1\n").stdout
    assert "End of input: you leave the round at trick 1." in out


def test_play_ctrl_c_at_the_prompt_leaves_with_status_130(monkeypatch):
    from scoundrel_solver.cli import terminal
    def read(self, prompt):
        raise KeyboardInterrupt
    monkeypatch.setattr(terminal.Terminal, "read", read)
    result = invoke(["imp", "play", "--seed", "42"], code=130)
    assert "Interrupted: you leave the round at trick 1." in result.stdout


# -------------------------------------------------------------------- value
VALUE_LINE = "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8"


def test_value_json_and_text_agree_with_the_library(tmp_path):
    from scoundrel_solver.bottleimp import parse_line, replay
    from scoundrel_solver.bottleimp.position import position_dict
    from scoundrel_solver.bottleimp.reference import action_values, value
    out = run_json("value", "--seed", "42", "--line", VALUE_LINE)
    state = replay(deal(42, Rules("lopaka")).start(), parse_line(VALUE_LINE, Rules("lopaka")))[-1]
    assert out["value"] == value(state) and out["to_play"] == state.turn_name == "A"
    assert out["actions"] == [{"card": a.card, "value": v} for a, v in action_values(state)]
    text = invoke(["imp", "value", "--seed", "42", "--line", VALUE_LINE]).stdout
    assert "Value (margin A − B, double dummy):" in text and "Optimal line: " + out["line"] in text
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position_dict(state)))
    assert run_json("value", "--position", str(path)) == out
    assert json.loads(invoke(["imp", "value", "--position", "-", "--json"], input=path.read_text()).stdout) == out


def test_value_of_a_finished_round():
    from imp_games import random_game
    from scoundrel_solver.bottleimp import format_line, line_of
    start, actions, states = random_game(Rules("glitzerhaus"), 3, random.Random(4))
    out = run_json("value", "--variant", "glitzerhaus", "--seed", "3", "--line", format_line(line_of(start, actions)))
    assert out["value"] == states[-1].value() and out["actions"] == [] and out["line"] == ""
    assert out["to_play"] is None or out["to_play"] in ("A", "B")


def test_value_reads_the_position_of_a_replay_answer():
    replayed = invoke(["imp", "replay", "--seed", "42", "--line", VALUE_LINE, "--json"]).stdout
    out = json.loads(invoke(["imp", "value", "--position", "-", "--json"], input=replayed).stdout)
    assert out == run_json("value", "--seed", "42", "--line", VALUE_LINE)
    again = json.loads(invoke(["imp", "value", "--position", "-", "--json"], input=json.dumps(out)).stdout)
    assert again == out


def test_imp_without_a_command_prints_its_help():
    out = invoke(["imp"]).stdout
    assert out.startswith("Usage:") and "deal" in out and "replay" in out and "play" in out and "value" in out


def test_replay_from_a_position(tmp_path):
    mid = invoke(["imp", "replay", "--seed", "42", "--line", "pass 1 18 | 36", "--json"]).stdout
    (tmp_path / "mid.json").write_text(mid)
    out = run_json("replay", "--position", str(tmp_path / "mid.json"), "--line", "37 31 | 32")
    whole = run_json("replay", "--seed", "42", "--line", "pass 1 18 | 36 37 31 | 32")
    assert out["position"] == whole["position"] and out["seed"] is None and out["deal"] is None
    assert out["start"] == json.loads(mid)["position"] and out["line"] == "37 31 | 32"
    assert out["tricks"] == whole["tricks"]
    text = invoke(["imp", "replay", "--position", "-", "--line", "37 31", "--steps"], input=mid).stdout
    assert text.startswith("Lopaka, from a position") and "trick 1: A 36, L 37, B 31" in text
