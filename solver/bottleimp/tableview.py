"""What a player knows at a real table, in JSON (the ``imp-table-view`` form): written from a
:class:`~.worlds.View`, read back with every check.

The form is the play-phase position of IMP-RULES §7 with what the player cannot see left
out, plus what the player knows of it::

    {"type": "imp-table-view", "variant": "lopaka", "cards": "classic", "seat": "A",
     "hands": {"A": [5, 12, 33], "L": [6, 14, 30]},
     "opponent_hand": {"size": 3, "known": [], "voids": ["y"]},
     "devil_known": [],
     "price": 8, "holder": "B", "won": {"A": [...], "B": [...], "L": [...]},
     "leader": "A", "trick": []}

* ``seat``: whose view it is (``A`` or ``B``).
* Lopaka: ``hands`` holds the seat's own hand and Lopaka's (open), never the opponent's.
  Glitzerhaus: ``open`` holds both open stacks, ``hidden`` the seat's own hidden hand only.
* ``opponent_hand``: the holding the seat cannot see (the opponent's hand in Lopaka, the
  opponent's hidden hand in Glitzerhaus): its ``size``, the cards ``known`` to be in it (a card
  the seat passed there, not yet played) and the suits it has shown ``voids`` in (by not
  following), as suit letters of the card table (classic ``y b r``, matagot ``r b g``).
* ``devil_known``: the cards of the devil's trick the seat knows (its own discards in
  Glitzerhaus; none in Lopaka).  The trick's size is the rules' (3 or 4).
* ``price``, ``holder``, ``won``, ``leader``, ``trick``: as in §7 (public).

A view is accepted only if at least one deal fits it (:func:`.worlds.count_worlds` >= 1) and
that deal is a position the rules can reach (every check of :func:`.position.position_from_dict`);
a refusal is one line naming the key or the rule, as positions' are.

>>> from .deal import deal
>>> from .rules import Rules
>>> from .state import Pass
>>> from .worlds import view_of
>>> view = view_of(deal(42, Rules("lopaka")).start(), [Pass(1, 18)], seat=0)
>>> d = view_dict(view)
>>> d["seat"], sorted(d["hands"]), d["opponent_hand"]
('A', ['A', 'L'], {'size': 11, 'known': [1], 'voids': []})
>>> view_from_dict(d) == view
True
"""
from __future__ import annotations

from ..errors import InputError
from ..jsonform import kind, loads, written
from .position import (MAX_TEXT, _card_list, _expect_keys, _rules_of, _seat, _seat_lists, no_card_twice,
                       position_dict, position_from_dict)
from .state import PositionError, State
from .worlds import View, ViewError, count_worlds, opponent_holding, worlds

KIND = "imp-table-view"
#: answers that hold a view under ``view`` (``imp hint --table --json``): ``--table`` reads them too
ANSWERS = ("imp-table-hint",)


def _fail(message: str):
    raise ViewError("table view: " + message)


def _checked(fn, *args, **kwargs):
    """Run one of :mod:`.position`'s readers, its refusal told as the table view's."""
    try:
        return fn(*args, **kwargs)
    except PositionError as exc:
        text = str(exc)
        _fail(text[len("position: "):] if text.startswith("position: ") else text)


def _opponent_seat(rules, seat: int) -> int:
    return 2 - seat if rules.variant == "lopaka" else 1 - seat


def view_dict(view: View) -> dict:
    """The ``imp-table-view`` object of ``view`` (see the module's doc)."""
    rules = view.rules
    seat = rules.seats[view.seat]
    out = {"type": KIND, "variant": rules.variant, "cards": rules.cards, "seat": seat}
    if rules.variant == "glitzerhaus":
        out["open"] = {"A": list(view.hands[0]), "B": list(view.hands[2])}
        out["hidden"] = {seat: list(view.hands[view.seat * 2 + 1])}
    else:
        out["hands"] = {seat: list(view.hands[view.seat]), "L": list(view.hands[1])}
    out["opponent_hand"] = {"size": view.hidden_size, "known": list(view.hidden_known), "voids": list(view.voids)}
    out["devil_known"] = list(view.devil_known)
    out["price"] = view.price
    out["holder"] = None if view.holder is None else rules.seats[view.holder]
    out["won"] = {name: list(pile) for name, pile in zip(rules.seats, view.won)}
    out["leader"] = rules.seats[view.leader]
    out["trick"] = list(view.trick)
    return out


def _whole_number(value, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        _fail(f"{where} must be a whole number of cards, not {written(value)}")
    return value


def _voids(value, table) -> tuple:
    if not isinstance(value, list):
        _fail(f"'opponent_hand.voids' must be a list of suit letters ({' '.join(table.suit_names)}), "
              f"not {written(value)}")
    for letter in value:
        if not isinstance(letter, str) or letter not in table.suit_names:
            _fail(f"'opponent_hand.voids' holds {written(letter)}, which is no suit of the {table.name} cards "
                  f"({', '.join(f'{k} {v}' for k, v in table.suit_names.items())})")
    if len(set(value)) != len(value):
        _fail(f"'opponent_hand.voids' names {written(next(x for x in value if value.count(x) > 1))} twice")
    return tuple(sorted(value))


def view_from_dict(obj) -> View:
    """The :class:`View` an ``imp-table-view`` object describes, refused with :class:`ViewError`
    (one line naming the key or the rule) unless some deal fits it and the rules can reach it."""
    if not isinstance(obj, dict):
        _fail(f"a table view is a JSON object, not {kind(obj)}")
    if obj.get("type") != KIND:
        _fail(f"'type' must be {KIND!r}, not {written(obj.get('type'))}")
    rules = _checked(_rules_of, obj)
    if not rules.two_player:
        _fail("the real-table view is for the two-player variants (lopaka, glitzerhaus)")
    glitz = rules.variant == "glitzerhaus"
    holding_keys = ("open", "hidden") if glitz else ("hands",)
    _checked(_expect_keys, obj, ("type", "variant", "cards", "seat") + holding_keys +
             ("opponent_hand", "devil_known", "price", "holder", "won", "leader", "trick"), where="the table view")
    seat_name = obj["seat"]
    if seat_name not in ("A", "B"):
        _fail(f"'seat' must be 'A' or 'B' (the player whose view it is), not {written(seat_name)}")
    seat = rules.seats.index(seat_name)
    opp_name = rules.seats[_opponent_seat(rules, seat)]
    hidden = opponent_holding(rules, seat)
    hands = [None] * len(rules.seats) * (2 if glitz else 1)
    key = "hidden" if glitz else "hands"
    if isinstance(obj[key], dict) and opp_name in obj[key]:
        _fail(f"'{key}' holds {opp_name}'s {'hidden ' if glitz else ''}hand, which {seat_name} cannot see: say what "
              f"{seat_name} knows of it in 'opponent_hand'")
    if glitz:
        open_ = _checked(_seat_lists, obj["open"], ("A", "B"), "open")
        own = _checked(_seat_lists, obj["hidden"], (seat_name,), "hidden")
        hands[0], hands[2] = open_["A"], open_["B"]
        hands[seat * 2 + 1] = own[seat_name]
        places = {"A's open stack": open_["A"], "B's open stack": open_["B"],
                  f"{seat_name}'s hidden hand": own[seat_name]}
    else:
        by_seat = _checked(_seat_lists, obj["hands"], (seat_name, "L"), "hands")
        hands[seat], hands[1] = by_seat[seat_name], by_seat["L"]
        places = {f"hand {seat_name}": by_seat[seat_name], "hand L": by_seat["L"]}

    opp = obj["opponent_hand"]
    if not isinstance(opp, dict):
        _fail("'opponent_hand' must be an object with the keys size, known, voids")
    _checked(_expect_keys, opp, ("size", "known", "voids"), where="'opponent_hand'")
    size = _whole_number(opp["size"], "'opponent_hand.size'")
    known = _checked(_card_list, opp["known"], "opponent_hand.known")
    voids = _voids(opp["voids"], rules.table)
    devil_known = _checked(_card_list, obj["devil_known"], "devil_known")
    won_map = _checked(_seat_lists, obj["won"], rules.seats, "won")
    trick = _checked(_card_list, obj["trick"], "trick")
    no_card_twice({**places, f"{opp_name}'s unseen hand (known cards)": known, "devil_known": devil_known,
                   **{f"won {s}": won_map[s] for s in rules.seats}, "trick": trick}, _fail)
    leader = _checked(_seat, obj["leader"], rules, "leader")
    holder = _checked(_seat, obj["holder"], rules, "holder", allow_null=True)
    price = obj["price"]
    if not isinstance(price, int) or isinstance(price, bool):
        _fail(f"'price' must be a card number, not {written(price)}")
    if len(devil_known) > rules.devil_size:
        _fail(f"'devil_known' holds {len(devil_known)} cards; the devil's trick holds {rules.devil_size}")
    if len(known) > size:
        _fail(f"'opponent_hand.known' holds {len(known)} card{'s' if len(known) != 1 else ''}, more than its size "
              f"{size}")
    if len(trick) >= rules.trick_size:
        _fail(f"'trick' holds {len(trick)} cards: a trick of {rules.trick_size} cards is complete and belongs to "
              f"a won pile")
    table = rules.table
    for card in known:
        if table.suit(card) in voids:
            _fail(f"{opp_name}'s unseen hand is known to hold {card} ({table.suit_names[table.suit(card)]}) but is "
                  f"said void in that suit")

    view = View(rules, seat, tuple(None if h is None else tuple(sorted(h)) for h in hands), hidden,
                tuple(sorted(known)), size, tuple(sorted(devil_known)), rules.devil_size, voids, price, holder,
                tuple(tuple(sorted(won_map[s])) for s in rules.seats), leader, trick)
    _check_sizes(view, opp_name)
    _check_trick_voids(view)
    try:
        if count_worlds(view) < 1:      # pragma: no cover - the split refuses every such view
            _fail("no deal fits this view")
        world = next(worlds(view))
    except ViewError as exc:
        _fail(str(exc))
    # the deal is then a position like any other: the same checks (sizes, price and holder, won
    # piles, Lopaka's rule, following suit); every world shares what they look at
    _checked(position_from_dict, position_dict(world))
    return view


def _probe(view: View) -> State:
    """A state with the view's public part, to ask who plays which card of the trick."""
    return State(view.rules, tuple(h or () for h in view.hands), (), view.price, view.holder, view.won, view.leader,
                 view.trick, step=3 if view.rules.variant == "glitzerhaus" else 1)


def _check_sizes(view: View, opp_name: str) -> None:
    """Every holding's size fits the tricks done and the cards of this trick (as in a position),
    told before the count of unseen cards, which a wrong size would upset less plainly."""
    rules = view.rules
    size = rules.trick_size
    for name, pile in zip(rules.seats, view.won):
        if len(pile) % size:
            _fail(f"won.{name} holds {len(pile)} cards: a won pile is whole tricks ({size} cards each)")
    done = sum(len(p) for p in view.won) // size
    probe = _probe(view)
    for index, name in enumerate(probe.holding_names):
        played = sum(1 for k in range(len(view.trick)) if probe.holding_of_card(k) == index)
        want = rules.tricks - done - played
        have = view.hidden_size if index == view.hidden else len(view.hands[index])
        if have != want:
            label = f"hand {name}" if rules.variant == "lopaka" else name
            what = f"'opponent_hand.size' is {have}" if index == view.hidden else f"{label} holds {have} cards"
            _fail(f"{what}; after {done} trick{'s' if done != 1 else ''}"
                  f"{' and ' + str(played) + ' card in this one' if played else ''} {label} holds {want}")


def _check_trick_voids(view: View) -> None:
    """A card of the unseen hand in the current trick that does not follow the led suit shows
    it void there: the view must say so (else no deal makes that card legal)."""
    rules = view.rules
    table = rules.table
    probe = _probe(view)
    led = table.suit(view.trick[0]) if view.trick else None
    for k in range(1, len(view.trick)):
        if probe.holding_of_card(k) == view.hidden and table.suit(view.trick[k]) != led and led not in view.voids:
            _fail(f"{rules.seats[probe.seat_of_card(k)]} played {view.trick[k]} to the trick without following "
                  f"{table.suit_names[led]}: 'opponent_hand.voids' must hold {led!r}")


def view_from_json(text: str, what: str = "the table view", answers: bool = False) -> View:
    """Read a view from JSON text (strict: :func:`scoundrel_solver.jsonform.loads`).  With
    ``answers`` the text may also be an ``imp hint --table --json`` answer: its ``view`` is read."""
    if not isinstance(text, str):
        raise InputError(f"{what} is not text")
    if len(text) > MAX_TEXT:
        raise ViewError(f"{what} is {len(text):,} characters long: a table view is a few hundred")
    obj = loads(text, what)
    if answers and isinstance(obj, dict) and obj.get("type") in ANSWERS:
        if "view" not in obj:
            _fail(f"the {obj['type']} object in {what} holds no 'view'")
        obj = obj["view"]
    return view_from_dict(obj)


__all__ = ["KIND", "view_dict", "view_from_dict", "view_from_json"]
