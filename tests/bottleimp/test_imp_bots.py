"""The bots: legal in every variant, reproducible, and the heuristics they document."""
import pytest

from scoundrel_solver.bottleimp import TABLES, Play, Rules, deal
from scoundrel_solver.bottleimp.bots import (BOTS, BotError, GreedyBot, LopakaRuleBot, RandomBot, make_bot, play_out,
                                            play_out_from)
from scoundrel_solver.bottleimp.position import position_from_dict

from imp_games import ALL_RULES


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.variant}-{r.players}-{r.cards}")
# the engines' bots play Lopaka and Glitzerhaus only, and solve: double-dummy in test_imp_solve.py
@pytest.mark.parametrize("name", [n for n in BOTS if n not in ("double-dummy", "table", "table-low")])
def test_bots_play_whole_legal_rounds(rules, name):
    for seed in range(6):
        start = deal(seed, rules).start()
        bots = {i: make_bot(name, seed + i) for i in range(len(start.seats))}
        state = start
        for action in play_out(start, bots):      # apply() checks every action
            state = state.apply(action)
        assert state.finished


def test_the_random_bot_is_reproducible():
    rules = Rules("glitzerhaus")
    start = deal(3, rules).start()
    one = play_out(start, {0: RandomBot(5), 1: RandomBot(6)})
    two = play_out(start, {0: RandomBot(5), 1: RandomBot(6)})
    other = play_out(start, {0: RandomBot(7), 1: RandomBot(6)})
    assert one == two and one != other


def test_unknown_bot():
    with pytest.raises(BotError, match="lopaka-rule"):
        make_bot("engine")


def late(trick, price=5, holder="A", hands=None):
    """A late Lopaka trick (see test_imp_state.late_lopaka_trick) with B to play after ``trick``."""
    return position_from_dict({
        "type": "imp-position", "variant": "lopaka", "cards": "classic",
        "hands": hands or {"A": [36], "L": [27], "B": [4, 13]}, "devil": [2, 17, 29], "price": price,
        "holder": holder,
        "won": {"A": [1, 3, 5, 6, 7, 8, 9, 10, 11], "L": [12, 14, 15, 16, 18, 20, 21, 22, 23],
                "B": [24, 25, 26, 28, 31, 32, 33, 35, 37]},
        "leader": "A", "trick": trick})


def test_greedy_takes_a_trick_it_can_win_without_buying_the_bottle():
    s = late([30, 34], hands={"A": [36], "L": [27], "B": [4, 13]})
    # B may follow blue with 4 (below the price 5: buys the bottle) or 13 (loses to 34): it sheds 13
    assert s.turn_name == "B" and s.legal_cards() == (4, 13)
    assert GreedyBot().choose_card(s) == 13
    # the dummy's rule as a player takes the trick, bottle and all
    assert LopakaRuleBot().choose_card(s) == 4


def test_greedy_wins_cleanly_when_it_can():
    s = position_from_dict({
        "type": "imp-position", "variant": "lopaka", "cards": "classic",
        "hands": {"A": [36], "L": [35], "B": [4, 13]}, "devil": [2, 17, 29], "price": 5, "holder": "A",
        "won": {"A": [1, 3, 5, 6, 7, 9, 11, 12, 14], "L": [15, 16, 18, 20, 21, 22, 23, 24, 25],
                "B": [26, 27, 28, 30, 31, 32, 33, 34, 37]},
        "leader": "A", "trick": [10, 8]})
    # 10 8 on the table, price 5: 13 wins as the highest card, without buying the bottle (4 would)
    assert GreedyBot().choose_card(s) == 13
    assert LopakaRuleBot().choose_card(s) == 13        # both win; the dummy's rule plays the higher


def test_greedy_leads_the_lowest_card_at_or_above_the_price():
    s = position_from_dict({"type": "imp-position", "variant": "glitzerhaus", "cards": "classic",
                            "open": {"A": [3, 20, 30], "B": [4, 21, 31]}, "hidden": {"A": [5, 22, 32],
                                                                                    "B": [6, 23, 33]},
                            "devil": [1, 2, 7, 8], "price": 9, "holder": "B",
                            "won": {"A": [10, 11, 12, 13, 14, 15, 16, 17, 18, 24, 25, 26, 27, 28, 29, 34],
                                    "B": [9, 35, 36, 37]}, "leader": "A", "trick": []})
    assert GreedyBot().choose_card(s) == 20
    assert LopakaRuleBot().choose_card(s) == 30


def test_setup_heuristic():
    s = deal(42, Rules("lopaka")).start()
    assert GreedyBot().choose_setup(s, 0) == 1 and GreedyBot().choose_setup(s, 2) == 12
    g = deal(0, Rules("glitzerhaus")).start()
    assert GreedyBot().choose_setup(g, 0) == (5, 3)     # stack 1 3 5 9 ...: pass 3, lay 5 down
    b = deal(3, Rules("base", 3)).start()
    assert GreedyBot().choose_setup(b, 0) == (4, 6, 15)
    assert TABLES  # the heuristic does not look at coins


@pytest.mark.parametrize("variant, seed, after", [("lopaka", 3, 0), ("glitzerhaus", 5, 1)])
def test_the_table_bots_game_does_not_depend_on_the_hints_table(variant, seed, after):
    """The ``table`` bot's card depends on exact values only: the same game (from the deal, or
    after ``after`` tricks of greedy play) whether the hint's engine has its own table
    (``tablehint.LOG2_ENTRIES``), the engine's default, a large one or a tiny one."""
    from scoundrel_solver.bottleimp import tablehint
    from scoundrel_solver.bottleimp.engine import DEFAULT_LOG2_ENTRIES, Engine

    start = deal(seed, Rules(variant)).start()
    b_seat = start.seat_index("B")
    prefix, state = [], start
    for action in play_out(start, {0: make_bot("greedy"), b_seat: make_bot("greedy")}):
        if not state.in_setup and state.tricks_done >= after:
            break
        prefix.append(action)
        state = state.apply(action)
    games = []
    try:
        for engine in (None, Engine(DEFAULT_LOG2_ENTRIES), Engine(20), Engine(log2_entries=10)):
            tablehint.use_engine(engine)
            games.append(play_out_from(start, prefix, {0: make_bot("table"), b_seat: make_bot("greedy")}))
    finally:
        tablehint.use_engine(None)
    assert set(tablehint.LOG2_ENTRIES) == {"lopaka", "glitzerhaus"}
    assert games[0] == games[1] == games[2] == games[3] and len(games[0]) > 4
    end = state
    for action in games[0]:          # the actions from the prefix on, the first one included
        end = end.apply(action)
    assert end.finished


def test_the_table_bot_takes_every_setup_step_from_the_setup_hint_at_its_fixed_counts(monkeypatch):
    """Each of Lopaka's and Glitzerhaus's setup steps has a count of drawn deals (none is left to
    the low-cards policy), and the bot's choice is the hint's recommendation over that many deals
    of what its seat knows; a step whose count is 0 falls back to the low-cards policy."""
    from scoundrel_solver.bottleimp.bots import TableBot, low_cards_setup
    from scoundrel_solver.bottleimp.setuphint import setup_hint
    from scoundrel_solver.bottleimp.setupview import STEP_NAMES, setup_view_of

    assert set(TableBot.SETUP_SAMPLES) == {s for steps in STEP_NAMES.values() for s in steps}
    assert all(n > 0 for n in TableBot.SETUP_SAMPLES.values())
    monkeypatch.setattr(TableBot, "SETUP_SAMPLES", {**TableBot.SETUP_SAMPLES, "s1": 0, "s2": 2})
    start = deal(5, Rules("glitzerhaus")).start()
    bot = make_bot("table")
    first = {i: bot.choose_setup(start, i) for i in (0, 1)}
    assert first == {i: low_cards_setup(start, i) for i in (0, 1)}
    s1 = start.joint_action(first)
    state = start.apply(s1)
    want = setup_hint(setup_view_of(start, [s1], 1), samples=2, workers=1).recommended
    assert want != low_cards_setup(state, 1)           # so the test tells the two apart
    assert bot.choose_setup(state, 1, start, [s1]) == want
