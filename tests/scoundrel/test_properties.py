"""Property tests: random legal play in every rule option, checked against an
independent model of RULES §2-§3 written from the text (not from solver.state).

For every step: the engine's room, dungeon, heroes, leader, legal actions, end of
game and score equal the model's; no card is lost or duplicated; health never
exceeds 20; a weapon's last kill only goes down until the weapon is replaced.
At the end the line played prints, re-parses and replays to the same state.
"""
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoundrel_solver.scoundrel.cards import JOKER, full_pack
from scoundrel_solver.scoundrel.deal import MAX_SEED, deal
from scoundrel_solver.scoundrel.notation import format_line, parse_line, replay
from scoundrel_solver.scoundrel.rules import Rules
from scoundrel_solver.scoundrel.state import AVOID, BARE, WEAPON_MODE, IllegalMove, State, Take

SOLO_OPTIONS = [Rules(mode="solo", flee=f, durability=d)
                for f in ("classic", "easy", "hard") for d in ("strict", "lenient")]
COOP_OPTIONS = [Rules(mode="coop", deck_size=n, durability=d)
                for n in (52, 50, 54) for d in ("strict", "lenient")]
ALL_OPTIONS = SOLO_OPTIONS + COOP_OPTIONS
IDS = [f"{r.mode}-{r.flee if r.mode == 'solo' else r.deck_size}-{r.durability}" for r in ALL_OPTIONS]

VALUE = {r: i for i, r in enumerate("23456789TJQKA", start=2)}
VALUE["JK"] = 15
FAST = settings(max_examples=30, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def kind_value(text: str):
    """Kind and value of a card from its name alone (RULES §1)."""
    if text == "JK":
        return "monster", 15
    rank, suit = text[0], text[1]
    value = VALUE[rank]
    if suit in "CS" or value > 10:
        return "monster", value
    return ("potion" if suit == "H" else "weapon"), value


class Model:
    """A plain, imperative reading of RULES §2 and §3 (cards are kept as names)."""

    def __init__(self, deck, mode, flee, durability):
        self.coop = mode == "coop"
        self.n = 2 if self.coop else 1
        self.flee = flee
        self.lenient = durability == "lenient"
        self.dungeon = [str(c) for c in deck]
        self.room = []
        self.hp = [20] * self.n
        self.weapon = [0] * self.n
        self.last = [None] * self.n
        self.leader = 0
        self.prev_avoided = False
        self.last_taken = None
        self.over = False
        self.lost = False
        self.deal_room()

    def deal_room(self):
        while len(self.room) < 4 and self.dungeon:
            self.room.append(self.dungeon.pop(0))
        self.final = not self.dungeon
        self.taken_here = 0
        self.healed = [False] * self.n
        self.helped = False

    def can_avoid(self):
        if self.over or self.taken_here or self.final:
            return False
        if self.coop:
            return not self.prev_avoided
        return {"classic": not self.prev_avoided, "easy": True, "hard": False}[self.flee]

    def usable(self, who, value):
        if not self.weapon[who]:
            return False
        if self.last[who] is None:
            return True
        return value <= self.last[who] if self.lenient else value < self.last[who]

    def legal(self):
        if self.over:
            return set()
        out = {"avoid"} if self.can_avoid() else set()
        for card in self.room:
            for helps in ((False, True) if self.coop and not self.helped else (False,)):
                who = 1 - self.leader if helps else self.leader
                tail = ">" if helps else ""
                kind, value = kind_value(card)
                if kind == "monster":
                    out.add(f"{card}b{tail}")
                    if self.usable(who, value):
                        out.add(f"{card}w{tail}")
                else:
                    out.add(card + tail)
        return out

    def apply(self, text) -> bool:
        """Play one canonical action; True when the room ended (new room or game over)."""
        if text == "avoid":
            self.dungeon.extend(self.room)
            self.room = []
            self.prev_avoided = True
            self.deal_room()
            return True
        helps = text.endswith(">")
        body = text.rstrip(">")
        card, mode = body[:2], body[2:]
        self.room.remove(card)
        self.last_taken = card
        self.taken_here += 1
        who = 1 - self.leader if helps else self.leader
        self.helped = self.helped or helps
        kind, value = kind_value(card)
        if kind == "potion":
            if not self.healed[who]:
                self.healed[who] = True
                self.hp[who] = min(20, self.hp[who] + value)
        elif kind == "weapon":
            self.weapon[who], self.last[who] = value, None
        elif mode == "w":
            self.hp[who] -= max(0, value - self.weapon[who])
            self.last[who] = value
        else:
            self.hp[who] -= value
        if min(self.hp) <= 0:
            self.over = self.lost = True
            return True
        if self.final:
            if not self.room:
                self.over = True
                return True
            return False
        if self.taken_here == 3:
            self.prev_avoided = False
            if self.coop:
                self.leader = 1 - self.leader
            self.deal_room()
            return True
        return False

    def score(self):
        if not self.over:
            return None
        monsters = sum(v for k, v in map(kind_value, self.room + self.dungeon) if k == "monster")
        if self.coop:
            return -monsters if self.lost else sum(self.hp)
        if self.lost:
            return self.hp[0] - monsters
        bonus = 0
        if self.hp[0] == 20 and kind_value(self.last_taken)[0] == "potion":
            bonus = kind_value(self.last_taken)[1]
        return self.hp[0] + bonus


def check_same(state: State, model: Model):
    assert [str(c) for c in state.room] == model.room
    assert [str(c) for c in state.dungeon] == model.dungeon
    assert [h.health for h in state.heroes] == model.hp
    assert [h.weapon for h in state.heroes] == model.weapon
    assert [h.last_kill for h in state.heroes] == model.last
    assert state.finished == model.over
    assert state.dead == model.lost
    assert state.won == (model.over and not model.lost)
    assert state.score == model.score()
    # the game ends exactly when a hero is at 0 or below, or the final room is cleared
    assert state.finished == (min(h.health for h in state.heroes) <= 0
                              or (not state.room and not state.dungeon))
    for h in state.heroes:
        assert h.health <= 20
    actions = state.legal_actions()
    assert len(actions) == len(set(actions))
    assert {str(a) for a in actions} == model.legal()
    if not model.over:
        assert actions, "a running game always has a legal action"
        assert state.final_room == model.final
        assert state.to_take == (len(model.room) if model.final else 3 - model.taken_here)
        assert state.can_avoid() == model.can_avoid()
        assert state.taken == model.taken_here
        if model.coop:
            assert state.leader == model.leader


def check_illegal_rejected(state: State, legal: set):
    """Every take not in legal_actions() is refused; a left-out mode resolves as RULES §7 says."""
    for card in set(state.room):
        for helps in (False, True):
            tail = ">" if helps else ""
            modes = (WEAPON_MODE, BARE, None) if card.is_monster else (None, BARE)
            for mode in modes:
                take = Take(card, mode, helps)
                if mode is None and card.is_monster:
                    if f"{card}b{tail}" not in legal:
                        with pytest.raises(IllegalMove):
                            state.resolve(take)
                        continue
                    want = f"{card}w{tail}" if f"{card}w{tail}" in legal else f"{card}b{tail}"
                    assert str(state.resolve(take)) == want
                elif str(take) in legal:
                    assert state.resolve(take) == take
                else:
                    with pytest.raises(IllegalMove):
                        state.resolve(take)
    if "avoid" not in legal:
        with pytest.raises(IllegalMove):
            state.resolve(AVOID)


def play_and_check(start: State, data, check_illegal=True):
    rules = start.rules
    model = Model(start.room + start.dungeon,
                  rules.mode, rules.flee, rules.durability)
    initial = Counter(start.room + start.dungeon)
    policy = data.draw(st.sampled_from(["random", "careful", "greedy"]), label="policy")
    state = start
    taken = []
    rooms, current = [], []
    lasts = [(h.weapon, h.last_kill) for h in state.heroes]
    check_same(state, model)
    steps = 0
    while not state.finished:
        steps += 1
        assert steps < 1000
        actions = state.legal_actions()
        legal = {str(a) for a in actions}
        if check_illegal:
            check_illegal_rejected(state, legal)
        if steps > 120:  # easy flee can avoid forever: stop cycling eventually
            actions = [a for a in actions if a is not AVOID] or actions
        if policy == "careful":
            actions = [a for a in actions if not state.play(a).dead] or actions
        elif policy == "greedy":
            actions = greedy_choices(state, actions)
        action = actions[data.draw(st.integers(0, len(actions) - 1), label="action")]
        who = state.partner if getattr(action, "help", False) else state.leader
        before = state
        state = state.play(action)
        if action is not AVOID:
            taken.append(action.card)
        current.append(action)
        if model.apply(str(action)):
            rooms.append(current)
            current = []
        check_same(state, model)
        # no card lost or duplicated
        assert Counter(state.room + state.dungeon + tuple(taken)) == initial
        # a weapon's last kill only goes down until the weapon is replaced
        for i, h in enumerate(state.heroes):
            old_weapon, old_last = lasts[i]
            if i == who and action is not AVOID and action.card.is_weapon:
                assert (h.weapon, h.last_kill) == (action.card.value, None)
            elif i == who and action is not AVOID and action.mode == WEAPON_MODE:
                assert h.weapon == old_weapon and h.last_kill == action.card.value
                if old_last is not None:
                    assert h.last_kill <= old_last
                    if rules.durability == "strict":
                        assert h.last_kill < old_last
            else:
                assert (h.weapon, h.last_kill) == (old_weapon, old_last)
            lasts[i] = (h.weapon, h.last_kill)
        assert before.rooms_done <= state.rooms_done
    assert not current  # the game ended with a room
    assert state.legal_actions() == []
    # the line played prints, re-parses and replays to the same final state
    text = format_line(rooms)
    assert format_line(parse_line(text)) == text
    assert parse_line(text) == rooms
    states = replay(start, parse_line(text))
    assert states[-1] == state
    assert len(states) == sum(map(len, rooms)) + 1
    return state


def greedy_choices(state: State, actions):
    """The actions that keep the most health and the strongest weapons (1-ply greedy)."""
    def key(action):
        after = state.play(action)
        return (not after.dead,
                sum(h.health for h in after.heroes),
                sum(h.weapon + (h.last_kill if h.last_kill is not None else 15) for h in after.heroes))
    keys = [key(a) for a in actions]
    best = max(keys)
    return [a for a, k in zip(actions, keys) if k == best]


def pool(rules):
    if rules.coop:
        return full_pack()[:52] + [JOKER, JOKER]
    return [c for c in full_pack() if rules.card_allowed(c)]


@pytest.mark.parametrize("rules", ALL_OPTIONS, ids=IDS)
@FAST
@given(seed=st.integers(0, MAX_SEED - 1), data=st.data())
def test_random_play_numbered_deals(rules, seed, data):
    play_and_check(State.new(deal(seed, rules), rules), data, check_illegal=False)


@pytest.mark.parametrize("rules", ALL_OPTIONS, ids=IDS)
@FAST
@given(data=st.data())
def test_random_play_custom_dungeons(rules, data):
    cards = pool(rules)
    n = data.draw(st.integers(1, len(cards)), label="size")
    deck = data.draw(st.permutations(cards), label="deck")[:n]
    play_and_check(State.new(deck, rules), data)


@pytest.mark.parametrize("rules", ALL_OPTIONS, ids=IDS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_random_play_small_dungeons(rules, data):
    """Small dungeons reach the final room often, also with random (careless) play."""
    cards = pool(rules)
    n = data.draw(st.integers(1, 9), label="size")
    deck = data.draw(st.permutations(cards), label="deck")[:n]
    play_and_check(State.new(deck, rules), data)


@pytest.mark.parametrize("rules", ALL_OPTIONS, ids=IDS)
@FAST
@given(data=st.data())
def test_random_play_rich_dungeons(rules, data):
    """Few monsters among many potions and weapons: long games that reach the final room."""
    cards = pool(rules)
    monsters = [c for c in cards if c.is_monster]
    others = [c for c in cards if not c.is_monster]
    k = data.draw(st.integers(0, 10), label="monsters")
    chosen = data.draw(st.permutations(monsters), label="which")[:k]
    m = data.draw(st.integers(max(1 - k, 0), len(others)), label="others")
    chosen += data.draw(st.permutations(others), label="which others")[:m]
    deck = data.draw(st.permutations(chosen), label="deck")
    play_and_check(State.new(deck, rules), data)


def test_model_agrees_on_a_known_game():
    """A sanity check of the model itself, on the seed-text example (Anna and Ben)."""
    m = Model([], "coop", "classic", "lenient")
    m.room, m.dungeon = ["TD", "KH", "6H", "4S"], ["2C", "5C", "3H"]
    m.final = False
    m.hp, m.weapon, m.last = [9, 17], [8, 0], [12, None]
    for move in ("TD>", "6H", "4Sb"):
        m.apply(move)
    assert m.hp == [11, 17] and m.weapon == [8, 10] and m.last == [12, None]
    assert m.leader == 1 and m.room == ["KH", "2C", "5C", "3H"]
    assert "KHw" in m.legal()
    m.apply("KHw")
    assert m.hp == [11, 14]
