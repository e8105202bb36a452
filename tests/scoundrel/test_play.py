"""``scoundrel-solve play``: a whole game driven from piped standard input.

Solo games use deal 42 (solved by the core in milliseconds); co-op games a
14-card custom dungeon, so every search here is instant.
"""
import shlex
import sys
import types

import pytest

from scoundrel_solver.cli.scoundrel import play as play_module
from scoundrel_solver.cli.main import cli
from clitools import runner
from scoundrel_solver import Rules, parse_cards, solve

COOP_DECK = "2H 3D 8S 8D 5S TS TD QS 4H 6H 7D AD 4S AH"  # first 14 cards of co-op deal 6
SMALL = "5D 3S 4H 9C 2D 7S"  # solo, optimal 18: 5D 9Cw 4H | 7Sw 3Sw 2D




def play(*args, input="", code=0):
    result = runner().invoke(cli, ["play", *args], input=input)
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    return result


def lines(*rows) -> str:
    return "".join(r + "\n" for r in rows)


def optimal_rooms(**kwargs) -> list:
    result = solve(**kwargs)
    assert result.exact
    return result, [" ".join(map(str, room)) for room in result.line]


# ------------------------------------------------------------ whole games
def test_solo_deal_played_to_the_end_from_a_pipe():
    best, rooms = optimal_rooms(seed=42)
    out = play("--seed", "42", input=lines(*rooms)).stdout
    assert out.startswith("Deal 42 (solo, classic flee, strict weapons)\n")
    assert "Room 1: 4H 3H 5C 5D\n" in out
    assert "  you: health 20, no weapon\n  40 cards left in the dungeon\n" in out
    assert "> 3H 5D 5Cw\n  drink 3H (+0 → 20)\n  take 5D (equip weapon 5)\n" in out
    assert "  avoid the room (its cards go under the dungeon)\n" in out
    assert f"Game over: WON, score {best.score}.\n" in out
    assert f"Optimal for this deal: win {best.score} (proven). You played it perfectly.\n" in out
    assert f"Your line: {best.line_text}\n" in out
    assert "No hints, no undos.\n" in out
    assert out.count("Final room 20: 3S TH\n") == 1


def test_the_printed_replay_command_replays_the_game():
    _, rooms = optimal_rooms(seed=42)
    out = play("--seed", "42", input=lines(*rooms)).stdout
    command = next(l for l in out.splitlines() if l.startswith("Replay it: "))
    args = shlex.split(command[len("Replay it: "):])
    assert args[:2] == ["scoundrel-solve", "replay"]
    replayed = runner().invoke(cli, args[1:])
    assert replayed.exit_code == 0, replayed.stderr
    assert "Game over: won, score 30" in replayed.stdout


def test_coop_game_with_help_cards_and_alternating_leaders():
    best, rooms = optimal_rooms(deck=parse_cards(COOP_DECK), rules=Rules(mode="coop"))
    assert rooms[0].startswith("8D>")
    out = play("--deck", COOP_DECK, "--mode", "coop", input=lines(*rooms)).stdout
    assert out.startswith("Custom dungeon of 14 cards (co-op, 52 cards, lenient weapons)\n")
    assert "Room 1, hero 1 leads: 2H 3D 8S 8D\n" in out
    assert "one card may go to hero 2 (write it with >, e.g. 2H>)" in out
    assert "  hero 1: health 20, no weapon\n  hero 2: health 20, no weapon\n" in out
    assert "hero 1> 8D> 2H 3D\n  give 8D to hero 2, who equips it (weapon 8)\n" in out
    assert "Room 2, hero 2 leads: " in out and "hero 2> " in out
    assert f"Game over: WON, score {best.score}.\n" in out
    assert "You played it perfectly." in out
    assert f"Your line: {best.line_text}\n" in out
    assert "--mode coop" in out


def test_lost_game_is_set_against_the_optimal_score():
    out = play("--deck", SMALL, input=lines("5D 3S 9Cb", "4H 2D 7S")).stdout
    assert "  fight 9C bare-handed (−9 → 11)\n" in out
    assert "Game over: WON, score 10.\n" in out
    assert "Optimal for this deal: win 18 (proven), 8 more than you.\n" in out


def test_death_ends_the_game_with_a_loss():
    deck = "KS QS JS TS 9S 8S"
    out = play("--deck", deck, input=lines("KS QS", "", "never read")).stdout
    assert "  fight QS bare-handed (−12 → −5): you die\n" in out
    assert "  → LOST, score −43 (health −5, no weapon; monsters left worth 38)\n" in out
    assert "Game over: LOST, score −43.\n" in out
    assert "Optimal for this deal: lose −43 (proven): this deal cannot be won. You played it perfectly.\n" in out
    assert "never read" not in out


def test_a_fatal_move_can_be_taken_back():
    deck = "KS QS JS TS 9S 8S"
    out = play("--deck", deck, input=lines("KS QS", "undo", "moves", "quit")).stdout
    assert "That was fatal. Type undo (or undo N) to take it back" in out
    assert "undo? undo\nundone: QSb\n" in out
    assert "Line so far: KSb\n" in out and "Quit: you leave the dungeon in room 1" in out
    assert "Game over" not in out
    # undo N takes back several; a bad undo asks again; end of input ends the game
    out = play("--deck", deck, input=lines("KS QS", "undo 9 9", "undo 2", "KS JS")).stdout
    assert "bad command: write undo, or undo N" in out and "undone: KSb QSb\n" in out
    assert "fight JS bare-handed (−11 → −4): you die" in out
    assert out.rstrip().endswith("No hints, undos: 1.") and "Game over: LOST" in out


def test_a_fatal_move_in_coop_offers_undo_too():
    out = play("--deck", "KS QS JS TS 9S 8S 7S", "--mode", "coop", input=lines("KS QS", "u", "quit")).stdout
    assert "fight QS bare-handed (−12 → −5): hero 1 dies\n" in out
    assert "That was fatal." in out and "undo? u\nundone: QSb\n" in out and "Quit: you leave" in out


# ------------------------------------------------------- hints and undo
def test_hint_then_undo_then_moves():
    out = play("--seed", "42", input=lines("3H 5D 5C", "hint", "5S", "undo", "moves", "avoid", "quit")).stdout
    assert "> hint\nExact hint (the order of the dungeon is known).\nBest: avoid → win 30\n" in out
    assert "  avoid   win 30   -      best\n" in out
    assert "  5Sb     win 17   19     keeps the win\n" in out   # ties: the rooms of each line
    assert "5 of 5 actions keep the win.\n" in out
    assert "Solved " not in out  # timings would make transcripts differ
    assert "> 5S\n  fight 5S bare-handed (−5 → 15)\n  Room 2 now: 4H TS 8S  (2 more to take)\n" in out
    assert "> undo\nundone: 5Sb\n\nRoom 2: 4H 5S TS 8S\n" in out
    assert "> moves\nLine so far: 3H 5D 5Cw\n" in out
    assert "Line so far: 3H 5D 5Cw | avoid\n" in out


def test_hint_counts_and_undo_count_are_reported():
    _, rooms = optimal_rooms(deck=parse_cards(SMALL))
    out = play("--deck", SMALL, input=lines("hint", "5D", "undo", *rooms)).stdout
    assert "Hints used: 1 (1 exact), undos: 1.\n" in out


def test_undo_at_the_start_and_undo_n_across_a_room():
    out = play("--seed", "42", input=lines("undo", "3H 5D 5C", "5S", "undo 9", "undo x", "moves", "q")).stdout
    assert "> undo\nnothing to undo: no move played yet\n" in out
    assert "> undo 9\nundone: 3H 5D 5Cw 5Sb\n\nRoom 1: 4H 3H 5C 5D\n" in out
    assert "> undo x\nbad command: write undo, or undo N to take back N moves\n" in out
    assert "> moves\nLine so far: (no moves)\n" in out


def test_hint_table_tracks_what_the_player_can_know():
    out = play("--deck", SMALL, input=lines("hint table", "hint table 5", "hint table x", "q")).stdout
    assert "> hint table\nFace down: 2 unseen cards\n" in out
    assert "Real-table hint: exact for a player who cannot see the order of the 2 unseen cards" in out
    assert "Clairvoyant bound: all 2 distinct orders of the 2 unseen cards solved as if seen." in out
    assert "> hint table x\nbad command: write hint, or hint table [N]" in out


def test_hint_table_after_an_avoid_knows_the_bottom_cards():
    out = play("--seed", "42", input=lines("3H 5D 5C", "avoid", "hint table 3", "q")).stdout
    assert "Face down: 33 unseen cards, then 4 known at the bottom: 4H 5S TS 8S\n" in out
    assert "Clairvoyant bound: 3 random orders" in out


def test_hint_interrupted_by_ctrl_c_keeps_the_game(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(play_module, "exact_hint_within", interrupted)
    out = play("--seed", "42", input=lines("hint", "3H", "moves", "q")).stdout
    assert "hint interrupted; the game goes on\n" in out
    assert "Line so far: 3H\n" in out


def test_transcript_is_the_same_every_run():
    script = lines("hint", "3H 5D 5C", "hint table 2", "5S", "undo", "look", "q")
    # the table hint's achievable figure: how many of its policy games fit in the budget depends
    # on the machine and the warm cache (tests/scoundrel/test_achievable.py checks the figure itself)
    timed = ("  achievable by policy ", "  (a lower bound: ", "Achievable by a policy: ")
    same = lambda out: [x for x in out.splitlines() if not x.startswith(timed)]  # noqa: E731
    assert same(play("--seed", "42", input=script).stdout) == same(play("--seed", "42", input=script).stdout)


# ------------------------------------------------------------- bad input
def test_illegal_move_in_the_middle_plays_nothing_and_the_game_goes_on():
    out = play("--seed", "42", input=lines("3H 5Cw 5D", "moves", "3H 5D 5C", "moves", "q")).stdout
    assert ("> 3H 5Cw 5D\nillegal: 5Cw is illegal in room 1 (4H 5C 5D): no weapon is equipped "
            "(nothing of your 3 moves was played)\n") in out
    assert "Line so far: (no moves)\n" in out
    assert "Line so far: 3H 5D 5Cw\n" in out


def test_bad_notation_names_the_move_and_the_room():
    out = play("--seed", "42", input=lines("ZZ", "avoid avoid", "5D | 4H", "q")).stdout
    assert "> ZZ\nbad move 'ZZ': " in out
    assert "(room 1: 4H 3H 5C 5D; type help for the notation and the commands)\n" in out
    assert "> avoid avoid\nbad room 'avoid avoid': 'avoid' must stand alone in its room" in out
    assert "illegal: room 1 (4H 3H 5C) is not complete" in out
    assert "Quit: you leave the dungeon in room 1" in out


def test_avoid_rules_are_shown_and_enforced():
    out = play("--seed", "42", "--flee", "hard", input=lines("avoid", "q")).stdout
    assert "no avoiding: the hard flee rule forbids avoiding" in out
    assert "illegal: avoid is illegal in room 1 (4H 3H 5C 5D): the hard flee rule forbids avoiding\n" in out


@pytest.mark.parametrize("args, words", [
    (["--seed", "x"], "seed"),
    (["--seed", "-1"], "seed"),
    ([], "--seed"),
    (["--seed", "1", "--deck", "5D"], "either --seed or --deck"),
    (["--date", "2025-01-01", "--seed", "1"], "--date goes with --daily"),
    (["--daily", "--seed", "1"], "--daily picks the dungeon"),
    (["--daily", "--date", "2025-13-01"], "date"),
])
def test_bad_options_exit_2_with_one_error_line(args, words):
    result = play(*args, code=2)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    assert words in result.stderr


# ------------------------------------------------------- leaving the game
def test_quit_early_shows_the_line_so_far():
    out = play("--seed", "42", input=lines("3H 5D", "quit", "5C")).stdout
    assert "> quit\nQuit: you leave the dungeon in room 1 (health 20, weapon 5 (fresh)).\n" in out
    assert "Line so far: 3H 5D\nReplay it: scoundrel-solve replay --seed 42 --line '3H 5D' --steps\n" in out
    assert "Game over" not in out and "fight 5C" not in out


def test_end_of_input_ends_the_game_politely():
    result = play("--seed", "42", input=lines("3H"))
    assert "End of input: you leave the dungeon in room 1" in result.stdout
    assert "Line so far: 3H\n" in result.stdout
    assert result.stderr == ""


def test_ctrl_c_at_the_prompt_leaves_with_status_130(monkeypatch):
    def read(self, prompt):
        raise KeyboardInterrupt
    monkeypatch.setattr(play_module.Terminal, "read", read)
    result = play("--seed", "42", code=130)
    assert "Interrupted: you leave the dungeon in room 1" in result.stdout
    assert "Line so far: (no moves)" in result.stdout


def test_help_lists_the_commands():
    out = play("--seed", "42", input=lines("help", "q")).stdout
    assert "Commands: hint, hint table [N], undo [N], moves, look, help, quit" in out
    assert "e.g." in runner().invoke(cli, ["play", "--help"]).stdout


def test_pretty_cards_in_and_out():
    out = play("--seed", "42", "--pretty", input=lines("3♥ 5♦ 5♣", "q")).stdout
    assert "Room 1: 4♥ 3♥ 5♣ 5♦\n" in out
    assert "  take 5♦ (equip weapon 5)\n" in out
    assert "Line so far: 3H 5D 5Cw\n" in out  # notation stays replayable


# ------------------------------------------------------------------- daily
def test_daily_without_the_daily_module_is_a_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "scoundrel_solver.scoundrel.daily", None)
    result = play("--daily", code=2)
    assert result.stderr.startswith("error: the daily challenge is not available in this build")
    assert result.stderr.count("\n") == 1


def test_daily_plays_the_challenge_of_the_day(monkeypatch):
    asked = []

    def daily_challenge(date, rules, difficulty=None, progress=None, search_progress=None):
        asked.append((date.isoformat(), rules.mode))
        return types.SimpleNamespace(seed=42, deck=solve(seed=42).deck, id="2025-03-04-solo")
    monkeypatch.setitem(sys.modules, "scoundrel_solver.scoundrel.daily", types.SimpleNamespace(daily_challenge=daily_challenge))
    out = play("--daily", "--date", "2025-03-04", input=lines("q")).stdout
    assert asked == [("2025-03-04", "solo")]
    assert out.startswith("Daily challenge 2025-03-04-solo (2025-03-04): "
                          "Deal 42 (solo, classic flee, strict weapons)\n")
    assert "Room 1: 4H 3H 5C 5D\n" in out


def test_pretty_play_shows_the_line_in_pretty_cards_and_the_replay_command_in_notation():
    out = play("--seed", "42", "--pretty", input=lines("3H 5D 5C", "moves", "quit")).stdout
    assert "> moves\nLine so far: 3♥ 5♦ 5♣w\n" in out       # as the rooms are shown
    assert "Quit: you leave" in out and out.endswith("Line so far: 3H 5D 5Cw\n"
                                                     "Replay it: scoundrel-solve replay --seed 42 --line '3H 5D 5Cw' --steps\n")


def test_counts_are_singular_and_plural_and_negative_numbers_use_one_minus_sign():
    from scoundrel_solver.cli.scoundrel import render
    assert render.count(1, "node") == "1 node" and render.count(2, "node") == "2 nodes"
    assert render.count(1_024, "node") == "1,024 nodes"
    assert render.signed(-14) == "−14" and render.signed("-272.0") == "−272.0" and render.signed(3) == "3"
    assert render.signed_words("Game over: lost, score -43\nHero: health -5, no weapon") == \
        "Game over: lost, score −43\nHero: health −5, no weapon"


def test_play_hints_as_the_hint_command_does(monkeypatch):
    """play's exact hint is the hint command's (one function, the same --time budget), and
    its table hint the same number of orders by default."""
    from scoundrel_solver.scoundrel.table import DEFAULT_SAMPLES
    seen = []
    real = play_module.exact_hint_within

    def spy(state, budget, max_nodes, timeout, tt_mb, progress=None, threads=None):
        seen.append((budget, max_nodes, timeout, threads))
        return real(state, budget, max_nodes, timeout, tt_mb, progress, threads)
    monkeypatch.setattr(play_module, "exact_hint_within", spy)
    play("--seed", "42", "--time", "0", input=lines("hint", "q"))
    play("--seed", "42", "--threads", "1", input=lines("hint", "q"))
    assert seen == [(0.0, None, None, None), (None, None, None, 1)]
    assert play_module.TABLE_SAMPLES == DEFAULT_SAMPLES
    bad = play("--seed", "42", "--time", "2", "--max-nodes", "10", input=lines("q"), code=2)
    assert bad.stderr.startswith("error: --time and --max-nodes") and bad.stdout == ""
