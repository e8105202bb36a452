"""Positions in the JSON form of IMP-RULES §7: written from a :class:`State`, read back with every check.

>>> from .deal import deal
>>> from .state import Pass, Play
>>> s = deal(42, Rules("lopaka")).start().apply(Pass(1, 18)).apply(Play(36))
>>> d = position_dict(s)
>>> d["hands"]["A"][:3], d["trick"], d["leader"], d["holder"]
([3, 5, 8], [36], 'A', None)
>>> position_from_dict(d) == s
True
"""
from __future__ import annotations

from ..errors import InputError, shown
from ..jsonform import kind, loads, written
from .cards import DECK, START_PRICE
from .rules import Rules, RulesError
from .state import PositionError, State, lopaka_rule, setup_steps

KIND = "imp-position"
MAX_TEXT = 1_000_000


def _cards(cards) -> list:
    return list(cards)


def _seat_map(state: State, values) -> dict:
    return {name: _cards(v) for name, v in zip(state.seats, values)}


def position_dict(state: State) -> dict:
    """The §7 JSON object of ``state`` (a finished round adds ``finished``, ``scores``, ``value``)."""
    rules = state.rules
    out = {"type": KIND, "variant": rules.variant}
    if rules.variant == "base":
        out["players"] = rules.players
    out["cards"] = rules.cards
    glitz = rules.variant == "glitzerhaus"
    if state.in_setup:
        out["phase"] = "setup"
        if glitz:
            out["stacks"] = dict(zip(("A1", "A2", "B1", "B2"), map(_cards, state.hands)))
            out["devil"] = _cards(state.devil)
            out["passed"] = {"A": [p[0] for p in state.passed], "B": [p[1] for p in state.passed]}
        else:
            out["hands"] = _seat_map(state, state.hands)
            out["devil"] = _cards(state.devil)
            out["passed"] = {name: [] for i, name in enumerate(state.seats) if not (rules.variant == "lopaka" and i == 1)}
        return out
    if glitz:
        out["open"] = {"A": _cards(state.hands[0]), "B": _cards(state.hands[2])}
        out["hidden"] = {"A": _cards(state.hands[1]), "B": _cards(state.hands[3])}
    else:
        out["hands"] = _seat_map(state, state.hands)
    out["devil"] = _cards(state.devil)
    out["price"] = state.price
    out["holder"] = None if state.holder is None else state.seats[state.holder]
    out["won"] = _seat_map(state, state.won)
    out["leader"] = state.seats[state.leader]
    out["trick"] = _cards(state.trick)
    if state.finished:
        out["finished"] = True
        out["scores"] = state.scores()
        out["value"] = state.value()
    return out


# ------------------------------------------------------------------ reading
def _fail(message: str):
    raise PositionError("position: " + message)


def _expect_keys(obj: dict, required, optional=(), where="the position") -> None:
    unknown = [k for k in obj if k not in required and k not in optional]
    if unknown:
        _fail(f"unknown key {shown(unknown[0])} in {where}")
    missing = [k for k in required if k not in obj]
    if missing:
        _fail(f"{where} lacks the key {missing[0]!r}")


def _card_list(value, where: str) -> tuple:
    if not isinstance(value, list):
        _fail(f"{where} must be a list of card numbers, not {written(value)}")
    for card in value:
        if not isinstance(card, int) or isinstance(card, bool):
            _fail(f"{where} holds {written(card)}, which is not a card number")
        if card not in DECK:
            why = "the 19 is the bottle's starting price, not a card" if card == START_PRICE else "cards are 1-37"
            _fail(f"{where} holds {card}, which is no card of the deck ({why})")
    if len(set(value)) != len(value):
        twice = next(c for c in value if value.count(c) > 1)
        _fail(f"{where} holds {twice} twice")
    return tuple(value)


def _seat_lists(value, names, where: str) -> dict:
    if not isinstance(value, dict):
        _fail(f"{where!r} must be an object with the keys {', '.join(names)}")
    _expect_keys(value, names, where=repr(where))
    return {name: _card_list(value[name], f"{where}.{name}") for name in names}


def _rules_of(obj: dict) -> Rules:
    variant = obj.get("variant")
    if not isinstance(variant, str):
        _fail("'variant' must be one of lopaka, glitzerhaus, base")
    if variant == "base" and "players" not in obj:
        _fail("a base-game position needs 'players' (3 or 4)")
    players = obj.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        _fail(f"'players' must be 3 or 4, not {written(players)}")
    cards = obj.get("cards", "classic")
    if not isinstance(cards, str):
        _fail(f"'cards' must be classic or matagot, not {written(cards)}")
    try:
        return Rules(variant, players, cards)
    except RulesError as exc:
        _fail(str(exc))


def no_card_twice(places: dict, fail=None) -> set:
    """The cards of ``places`` (name -> cards); ``fail`` (default: a position error) with one line
    if a card is in two of them."""
    fail = fail or _fail
    where = {}
    for name, cards in places.items():
        for card in cards:
            if card in where:
                fail(f"card {card} is in two places ({where[card]} and {name})")
            where[card] = name
    return set(where)


def _every_card_once(places: dict) -> None:
    where = no_card_twice(places)
    missing = [c for c in DECK if c not in where]
    if missing:
        _fail(f"{len(missing)} card{'s are' if len(missing) > 1 else ' is'} nowhere "
              f"({' '.join(map(str, missing[:12]))}{' ...' if len(missing) > 12 else ''}): every card of the deck "
              f"must be in exactly one place (hands, devil's trick, won piles, current trick)")


def position_from_dict(obj) -> State:
    """The :class:`State` a §7 object describes, refused with :class:`PositionError` (one line
    naming the key or the rule) unless it is a position the rules can reach."""
    if not isinstance(obj, dict):
        _fail(f"a position is a JSON object, not {kind(obj)}")
    if obj.get("type") != KIND:
        _fail(f"'type' must be {KIND!r}, not {written(obj.get('type'))}")
    rules = _rules_of(obj)
    base_keys = ("type", "variant", "cards") + (("players",) if rules.variant == "base" else ())
    phase = obj.get("phase", "play")
    if phase not in ("setup", "play"):
        _fail(f"'phase' must be setup or play, not {written(phase)}")
    if phase == "setup":
        return _setup_position(obj, rules, base_keys)
    return _play_position(obj, rules, base_keys)


def _setup_position(obj: dict, rules: Rules, base_keys) -> State:
    glitz = rules.variant == "glitzerhaus"
    _expect_keys(obj, base_keys + ("phase", "stacks" if glitz else "hands", "devil"), ("passed",))
    devil = _card_list(obj["devil"], "devil")
    passers = ("A", "B") if rules.variant != "base" else rules.seats
    passed = _seat_lists(obj.get("passed", {p: [] for p in passers}), passers, "passed")
    if glitz:
        stacks = _seat_lists(obj["stacks"], ("A1", "A2", "B1", "B2"), "stacks")
        _every_card_once({**{f"stack {k}": v for k, v in stacks.items()}, "devil": devil})
        step = len(passed["A"])
        if len(passed["B"]) != step or step > 2:
            _fail("'passed' must list, for A and for B, the card passed from each stack done (0, 1 or 2 each)")
        if len(devil) != 2 * step:
            _fail(f"the devil's trick holds {len(devil)} cards after {step} stack step{'s' if step != 1 else ''}; "
                  f"it must hold {2 * step}")
        for name, cards in stacks.items():
            size = 8 if int(name[1]) <= step else 9
            if len(cards) != size:
                _fail(f"stack {name} holds {len(cards)} cards; after {step} stack steps it holds {size}")
        for s in range(step):
            for giver, taker in (("A", "B"), ("B", "A")):
                card = passed[giver][s]
                if card not in stacks[f"{taker}{s + 1}"]:
                    _fail(f"{giver} passed {card} from stack {s + 1}, but it is not in {taker}'s stack {s + 1}")
        hands = tuple(tuple(sorted(stacks[k])) for k in ("A1", "A2", "B1", "B2"))
        return State(rules, hands, tuple(sorted(devil)), won=((), ()), step=step,
                     passed=tuple(zip(passed["A"], passed["B"])))
    hands = _seat_lists(obj["hands"], rules.seats, "hands")
    if any(passed.values()):
        _fail("a setup position of this game is before its one setup step: 'passed' must be empty")
    _every_card_once({**{f"hand {k}": v for k, v in hands.items()}, "devil": devil})
    size = 11 if rules.variant == "lopaka" else 36 // rules.players
    for name, cards in hands.items():
        if len(cards) != size:
            _fail(f"hand {name} holds {len(cards)} cards; dealt, it holds {size}")
    want_devil = 3 if rules.variant == "lopaka" else 0
    if len(devil) != want_devil:
        _fail(f"the devil's trick holds {len(devil)} cards before the setup; it must hold {want_devil}")
    return State(rules, tuple(tuple(sorted(hands[s])) for s in rules.seats), tuple(sorted(devil)),
                 won=tuple(() for _ in rules.seats))


def _seat(value, rules: Rules, key: str, allow_null: bool = False):
    if value is None and allow_null:
        return None
    if value not in rules.seats:
        names = ", ".join(repr(s) for s in rules.seats) + (" or null" if allow_null else "")
        _fail(f"{key!r} must be one of {names}, not {written(value)}")
    return rules.seats.index(value)


def _play_position(obj: dict, rules: Rules, base_keys) -> State:
    glitz = rules.variant == "glitzerhaus"
    holding_keys = ("open", "hidden") if glitz else ("hands",)
    _expect_keys(obj, base_keys + holding_keys + ("devil", "price", "holder", "won", "leader", "trick"),
                 ("phase", "finished", "scores", "value"))
    if glitz:
        open_ = _seat_lists(obj["open"], ("A", "B"), "open")
        hidden = _seat_lists(obj["hidden"], ("A", "B"), "hidden")
        hands = (open_["A"], hidden["A"], open_["B"], hidden["B"])
        places = {"A's open stack": open_["A"], "A's hidden hand": hidden["A"],
                  "B's open stack": open_["B"], "B's hidden hand": hidden["B"]}
    else:
        by_seat = _seat_lists(obj["hands"], rules.seats, "hands")
        hands = tuple(by_seat[s] for s in rules.seats)
        places = {f"hand {s}": by_seat[s] for s in rules.seats}
    devil = _card_list(obj["devil"], "devil")
    won_map = _seat_lists(obj["won"], rules.seats, "won")
    won = tuple(won_map[s] for s in rules.seats)
    trick = _card_list(obj["trick"], "trick")
    _every_card_once({**places, "devil": devil, **{f"won {s}": won_map[s] for s in rules.seats}, "trick": trick})

    if len(devil) != rules.devil_size:
        _fail(f"the devil's trick holds {len(devil)} cards; after the setup it holds {rules.devil_size}")
    size = rules.trick_size
    for name, pile in won_map.items():
        if len(pile) % size:
            _fail(f"won.{name} holds {len(pile)} cards: a won pile is whole tricks ({size} cards each)")
    if len(trick) >= size:
        _fail(f"'trick' holds {len(trick)} cards: a trick of {size} cards is complete and belongs to a won pile")
    done = sum(len(p) for p in won) // size

    leader = _seat(obj["leader"], rules, "leader")
    holder = _seat(obj["holder"], rules, "holder", allow_null=True)
    price = obj["price"]
    if not isinstance(price, int) or isinstance(price, bool):
        _fail(f"'price' must be a card number, not {written(price)}")
    if holder is None:
        if price != START_PRICE:
            _fail(f"'price' is {price} but nobody holds the bottle ('holder' null): its price is then 19")
    else:
        if price >= START_PRICE:
            _fail(f"'price' {price} with a holder: the bottle is bought only below 19, so its price is then "
                  f"a card below 19")
        if price not in won[holder]:
            _fail(f"'price' {price} is not a card in the holder's won pile (won.{rules.seats[holder]}): "
                  f"the holder bought the bottle with it")
    low = [c for p in won for c in p if c < START_PRICE]
    if holder is None and low:
        _fail(f"won card {low[0]} is below 19 but nobody holds the bottle: the trick it was played to "
              f"sold the bottle")
    if done == 0 and leader != 0:
        _fail(f"the first trick is led by {rules.seats[0]}, not {rules.seats[leader]}")

    state = State(rules, tuple(tuple(sorted(h)) for h in hands), tuple(sorted(devil)), price, holder,
                  tuple(tuple(sorted(p)) for p in won), leader, trick, setup_steps(rules), ())
    for index, name in enumerate(state.holding_names):
        played = sum(1 for k in range(len(trick)) if state.holding_of_card(k) == index)
        want = rules.tricks - done - played
        if len(hands[index]) != want:
            _fail(f"{name} holds {len(hands[index])} cards; after {done} trick{'s' if done != 1 else ''}"
                  f"{' and ' + str(played) + ' card in this one' if played else ''} it holds {want}")
    table = rules.table
    for k in range(1, len(trick)):
        holding = state.hands[state.holding_of_card(k)]
        led = table.suit(trick[0])
        if table.suit(trick[k]) != led and any(table.suit(c) == led for c in holding):
            _fail(f"{rules.seats[state.seat_of_card(k)]} played {trick[k]} to the trick without following "
                  f"{table.suit_names[led]}, which they still hold")
    if rules.variant == "lopaka":
        for k, card in enumerate(trick):
            if state.seat_of_card(k) == 1:
                before = tuple(sorted(state.hands[1] + (card,)))
                due = lopaka_rule(before, trick[:k], price, table)
                if due != card:
                    _fail(f"Lopaka's card {card} in the trick is not his rule's: holding "
                          f"{' '.join(map(str, before))} he plays {due}")
    _check_derived(obj, state)
    return state


def _check_derived(obj: dict, state: State) -> None:
    """``finished``, ``scores`` and ``value`` are derived: given, they must be right."""
    if "finished" in obj and obj["finished"] is not state.finished:
        _fail(f"'finished' is {written(obj['finished'])} but the round is {'' if state.finished else 'not '}over")
    for key in ("scores", "value"):
        if key in obj and not state.finished:
            _fail(f"{key!r} belongs to a finished round only")
    if state.finished:
        if "scores" in obj and obj["scores"] != state.scores():
            _fail(f"'scores' is {written(obj['scores'])}; the cards give {state.scores()}")
        if "value" in obj and (obj["value"] != state.value() or isinstance(obj["value"], bool)):
            _fail(f"'value' is {written(obj['value'])}; the cards give {state.value()}")


ANSWERS = ("imp-replay", "imp-value")


def position_from_json(text: str, what: str = "the position", answers: bool = False) -> State:
    """Read a position from JSON text (strict: :func:`scoundrel_solver.jsonform.loads`).

    With ``answers`` the text may also be an answer that holds a position (the ``--json``
    of ``imp replay`` or ``imp value``): its ``position`` is read.
    """
    if not isinstance(text, str):
        raise InputError(f"{what} is not text")
    if len(text) > MAX_TEXT:
        raise PositionError(f"{what} is {len(text):,} characters long: a position is a few hundred")
    obj = loads(text, what)
    if answers and isinstance(obj, dict) and obj.get("type") in ANSWERS:
        if "position" not in obj:
            raise PositionError(f"position: the {obj['type']} object in {what} holds no 'position'")
        obj = obj["position"]
    return position_from_dict(obj)
