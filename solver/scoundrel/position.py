"""A position to ask a hint of, from what a player typed or from JSON, every check made.

:func:`make_table_position` builds the :class:`.table.TablePosition` of a real table from the
room, the heroes and the cards gone (or unseen, and the known bottom cards); the flags of
``hint --table`` come here.  :func:`position_from_json` is the one reader of JSON positions
(``$defs/position_input`` of the schema, docs/json.md): a :class:`.state.State` when the
dungeon is given in order, else a table position.  Every error is a :class:`PositionError`
naming the first thing that cannot be.
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Optional

from ..errors import InputError
from ..jsonform import kind as _kind
from .cards import JOKER, MONSTER, WEAPON, Card, CardError, full_pack, parse_card
from .rules import MAX_HEALTH, Rules
from .state import Hero, PositionError
from .table import TablePosition, _pack, _weapon_card


# ------------------------------------------------------- known bottom cards

def _parse_weapon(token) -> Optional[int]:
    """``7D``, ``7`` or ``none`` / ``-`` -> weapon value (None for no weapon)."""
    if token is None:
        return None
    if isinstance(token, bool):
        raise PositionError(f"weapon: expected a diamond card such as 7D, got {_show(token)}")
    if isinstance(token, int):
        value = token
    elif isinstance(token, Card):
        if token.kind != WEAPON:
            raise PositionError(f"weapon {token} is not a weapon: weapons are the diamonds 2 to 10")
        return token.value
    else:
        text = str(token).strip()
        if text.lower() in ("", "-", "none", "no"):
            return None
        if text.isdigit():
            value = int(text) if len(text) <= 3 else 10**3
        else:
            try:
                card = parse_card(text)
            except CardError:
                raise PositionError(f"weapon {text[:20]!r}: expected a diamond card such as 7D, its value, "
                                    f"or none") from None
            if card.kind != WEAPON:
                raise PositionError(f"weapon {card} is not a weapon: weapons are the diamonds 2 to 10")
            return card.value
    if not 2 <= value <= 10:
        raise PositionError(f"weapon value {_show(value)} is not a diamond 2 to 10")
    return value


def _parse_last_kill(token) -> Optional[int]:
    if token is None:
        return None
    if isinstance(token, bool):
        raise PositionError(f"last kill: expected a monster value such as 12, got {_show(token)}")
    if isinstance(token, int):
        return token
    if isinstance(token, Card):
        card = token
    else:
        text = str(token).strip()
        if text.lower() in ("", "-", "none", "fresh"):
            return None
        if text.isdigit():
            return int(text) if len(text) <= 3 else 10**3
        try:
            card = parse_card(text)
        except CardError:
            raise PositionError(f"last kill {text[:20]!r}: expected a monster value such as 12, a monster "
                                f"card such as QS, or - for a fresh weapon") from None
    if card.kind != MONSTER:
        raise PositionError(f"last kill {card} is not a monster")
    return card.value


def _universe(rules: Rules, pack: bool) -> Counter:
    """The cards a position may hold: the pack of a numbered deal (``pack``), or
    every card a custom dungeon of the mode may hold (RULES §5: one of each,
    two jokers)."""
    if pack:
        return _pack(rules)
    return Counter({c: (2 if c is JOKER else 1) for c in full_pack() if rules.card_allowed(c)})


def _check_cards(cards, where: str) -> tuple:
    cards = tuple(cards)
    for c in cards:
        if not isinstance(c, Card):
            raise PositionError(f"{where}: expected cards, got {_show(c)}")
    return cards


def _check_int(value, where: str, none_ok: bool = False):
    if value is None and none_ok:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"{where}: expected a whole number, got {_show(value)} ({_kind(value)})")


def _check_bool(value, where: str):
    if not isinstance(value, bool):
        raise PositionError(f"{where}: expected true or false, got {_show(value)} ({_kind(value)})")


def make_table_position(rules: Rules, room, *, health=(), weapon=(), last_kill=(), leader: int = 1,
                        taken: Optional[int] = None, potion_used=(), help_used: bool = False,
                        avoided: bool = False, gone=None, unseen=None, bottom=(),
                        room_number: Optional[int] = None) -> TablePosition:
    """Check what a player typed and build the :class:`TablePosition`.

    ``room``, ``gone``, ``unseen`` and ``bottom`` are cards; ``health``,
    ``weapon`` and ``last_kill`` have one entry per hero (hero 1 first;
    missing entries mean health 20, no weapon, fresh); a weapon is a diamond
    card, its value, or None; ``leader`` and ``potion_used`` count heroes
    from 1.  Give the cards already gone *or* the cards still unseen (with
    neither, nothing is gone yet).

    With ``gone`` (or neither) the face-down cards are the rest of the pack
    of a numbered deal, and the counts are checked against that pack (each
    faced room removes 3 cards).  With ``unseen`` the face-down cards are
    known, so the position may come from a custom dungeon: its cards must be
    ones such a dungeon may hold, but their number is not checked against
    the pack.  Raises :class:`PositionError` naming the first thing that
    cannot be, a wrong type included.
    """
    if not isinstance(rules, Rules):
        raise PositionError(f"rules: expected a Rules value, got {_show(rules)}")
    nh = rules.heroes
    who = (lambda i: "the hero") if nh == 1 else (lambda i: f"hero {i + 1}")
    health, weapon, last_kill = tuple(health), tuple(weapon), tuple(last_kill)
    for name, values in (("health", health), ("weapon", weapon), ("last kill", last_kill)):
        if len(values) > nh:
            raise PositionError(f"{len(values)} {name} values given, but {rules.mode} has {nh} hero"
                                + ("es" if nh > 1 else ""))
    _check_int(leader, "leader")
    _check_int(taken, "taken", none_ok=True)
    _check_int(room_number, "room number", none_ok=True)
    _check_bool(help_used, "help used")
    _check_bool(avoided, "avoided")
    potion_used = tuple(potion_used)
    for h in potion_used:
        _check_int(h, "potion used (hero numbers)")
    room = _check_cards(room, "room")
    bottom = _check_cards(bottom, "bottom")
    if gone is not None:
        gone = _check_cards(gone, "gone")
    if unseen is not None:
        unseen = _check_cards(unseen, "unseen")
    if gone is not None and unseen is not None:
        raise PositionError("give the cards already gone or the cards still unseen, not both")
    whole_pack = unseen is None
    pack = _universe(rules, whole_pack)
    top = max(c.value for c in pack if c.kind == MONSTER)
    heroes = []
    weapon_cards = []
    for i in range(nh):
        hp = health[i] if i < len(health) and health[i] is not None else MAX_HEALTH
        _check_int(hp, f"health of {who(i)}")
        if not 1 <= hp <= MAX_HEALTH:
            raise PositionError(f"health {_show(hp)} of {who(i)} is impossible: health is 1 to {MAX_HEALTH} "
                                f"during the game")
        w = _parse_weapon(weapon[i] if i < len(weapon) else None)
        k = _parse_last_kill(last_kill[i] if i < len(last_kill) else None)
        if k is not None:
            if w is None:
                raise PositionError(f"{who(i)} has a last kill ({_show(k)}) but no weapon")
            if not 2 <= k <= top:
                raise PositionError(f"last kill {_show(k)} of {who(i)} is not a monster value (2 to {top})")
        if w is not None:
            weapon_cards.append((i, _weapon_card(w)))
        heroes.append(Hero(hp, w or 0, k))
    if not 1 <= leader <= nh:
        raise PositionError(f"leader {_show(leader)} is not a hero (1{' or 2' if nh > 1 else ''})")
    if room_number is not None and room_number < 1:
        raise PositionError(f"room number {_show(room_number)} is impossible: rooms count from 1")
    if not 1 <= len(room) <= 4:
        raise PositionError(f"a room holds 1 to 4 cards, got {len(room)}")
    seen_where = {}

    def place(card, where):
        if pack[card] == 0:
            extra = (" (solo removes the red J, Q, K, A)" if not rules.coop else
                     f" (the {rules.deck_size}-card pack)")
            raise PositionError(f"card {card} is not in the {rules.mode} deck{extra}")
        places = seen_where.setdefault(card, [])
        places.append(where)
        if len(places) > pack[card]:
            if len(set(places)) == 1:
                raise PositionError(f"card {card} is listed twice in {where}")
            raise PositionError(f"card {card} is both in {places[0]} and in {where}")

    for card in room:
        place(card, "the room")
    for i, card in weapon_cards:
        place(card, f"{who(i)}'s weapon")
    for card in bottom:
        place(card, "the bottom of the dungeon")
    if unseen is not None:
        for card in unseen:
            place(card, "the unseen cards")
        unseen = tuple(sorted(unseen))
    else:
        for card in (gone or ()):
            if card.kind == WEAPON and any(c is card for _, c in weapon_cards) and \
                    seen_where.get(card, []) and len(seen_where[card]) == 1:
                continue  # an equipped weapon may be listed as gone too: it left the dungeon
            place(card, "the gone cards")
        rest = pack.copy()
        for card, places in seen_where.items():
            rest[card] -= len(places)
        unseen = tuple(sorted(rest.elements()))
    left_after_room = len(unseen) + len(bottom)
    final = left_after_room == 0
    n = sum(pack.values())
    if not final:
        if len(room) < 2:
            raise PositionError(f"a room that is not the final one holds 2 to 4 cards while it is faced, "
                                f"got {len(room)}")
        expected = 4 - len(room)
        if taken is not None and taken != expected:
            raise PositionError(f"{_show(taken)} card(s) taken is impossible with {len(room)} cards left in a room "
                                f"that is not final (it had 4)")
        taken = expected
        start = 4 + left_after_room
        if whole_pack and (start % 3 != n % 3 or start > n):
            raise PositionError(f"{len(room)} room card(s), {taken} taken and {left_after_room} face down "
                                f"cannot happen with the {n}-card deck: each faced room removes 3 cards, "
                                f"so a room starts with {n} minus a multiple of 3 cards left")
    else:
        if taken is None:
            taken = (n - len(room)) % 3 if whole_pack else 0
            if len(room) + taken > 4:
                taken -= 3
        if taken < 0 or len(room) + taken > 4 or (whole_pack and (len(room) + taken) % 3 != n % 3):
            raise PositionError(f"a final room with {len(room)} card(s) left and {_show(taken)} taken cannot happen"
                                + (f" with the {n}-card deck" if whole_pack else ""))
    used = [False, False]
    for h in potion_used:
        if not 1 <= h <= nh:
            raise PositionError(f"potion used by hero {_show(h)}: there is no such hero")
        used[h - 1] = True
    if any(used) and taken == 0:
        raise PositionError("a potion cannot have been drunk in this room: no card of it was taken yet")
    if help_used and not rules.coop:
        raise PositionError("the help card is a co-op rule; solo has no partner")
    if help_used and taken == 0:
        raise PositionError("the help card cannot have been given yet: no card of this room was taken")
    if avoided and not rules.avoid_allowed():
        raise PositionError("the hard flee rule never allows avoiding, so no room was avoided")
    for i, h in enumerate(heroes):
        if h.last_kill is not None:
            # the card killed last must be out of play
            value = h.last_kill
            free = sum(n_ for c, n_ in pack.items() if c.kind == MONSTER and c.value == value)
            held = sum(1 for c in list(room) + list(unseen) + list(bottom) if c.kind == MONSTER and c.value == value)
            if held >= free:
                raise PositionError(f"last kill {value} of {who(i)} is impossible: every monster of value "
                                    f"{value} is still in play")
    return TablePosition(rules=rules, room=room, heroes=tuple(heroes), unseen=unseen, bottom=bottom,
                         leader=leader - 1, taken=taken, potion_used=tuple(used), help_used=help_used,
                         avoided_last=avoided, room_number=room_number)


# ------------------------------------------------------ the JSON position

RULE_KEYS = ("mode", "flee", "durability", "deck_size")
HERO_KEYS = ("health", "weapon", "last_kill", "potion_used")
POSITION_KEYS = ("rules", "room", "heroes", "leader", "taken", "help_used", "avoided",
                 "dungeon", "unseen", "bottom", "gone")
# Worked out from the rest; printed for readers, checked (never believed) when read back.
DERIVED_KEYS = ("room_number", "final_room", "finished", "won", "score", "dungeon_left")
# Keys of the earlier position forms, and where their value lives now.
_MOVED = {
    "health": "each hero's health is heroes[i].health",
    "weapon": "each hero's weapon is heroes[i].weapon",
    "last_kill": "each hero's last kill is heroes[i].last_kill",
    "potion_used": "each hero's potion is heroes[i].potion_used",
    "mode": "the rules go in \"rules\": {\"mode\": ...}",
    "flee": "the rules go in \"rules\": {\"flee\": ...}",
    "durability": "the rules go in \"rules\": {\"durability\": ...}",
    "deck_size": "the rules go in \"rules\": {\"deck_size\": ...}",
    "avoided_last": "it is called \"avoided\"",
    "taken_in_room": "it is called \"taken\"",
}


def _show(value) -> str:
    """``value`` for an error message: short, and safe for any input."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {int(value.bit_length() * 0.30103) + 1} digits or so"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = f"<{_kind(value)}>"
    return text if len(text) <= 40 else text[:36] + " ..."


def _typed(value, where: str, want: str, ok) -> None:
    if not ok(value):
        raise PositionError(f"{where}: expected {want}, got {_show(value)} ({_kind(value)})")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _json_bool(obj: dict, key: str, where: str, default=None):
    v = obj.get(key, default)
    _typed(v, where, "true or false (a JSON boolean)", lambda x: isinstance(x, bool))
    return v


def _json_int(obj: dict, key: str, where: str, default=None, null_ok: bool = False):
    v = obj.get(key, default)
    if v is None and null_ok:
        return None
    _typed(v, where, "a whole number (a JSON integer)" + (" or null" if null_ok else ""), _is_int)
    return v


def _json_cards(obj: dict, key: str):
    if key not in obj:
        return None
    v = obj[key]
    _typed(v, key, 'a list of card strings such as ["3C", "QS"]', lambda x: isinstance(x, list))
    out = []
    for i, token in enumerate(v):
        _typed(token, f"{key}[{i}]", 'a card string such as "QS"', lambda x: isinstance(x, str))
        try:
            out.append(parse_card(token))
        except InputError as exc:
            raise PositionError(f"{key}[{i}]: {exc}") from None
    return out


def rules_from_json(data) -> Rules:
    """:class:`Rules` from the ``rules`` object of a position; missing keys take
    the mode's defaults.  ``flee`` is a solo rule and ``deck_size`` a co-op
    one: each is refused in the other mode (it would change nothing, so it is
    a mistake)."""
    _typed(data, "rules", "an object such as {\"mode\": \"solo\"}", lambda x: isinstance(x, dict))
    for key in data:
        if key not in RULE_KEYS:
            raise PositionError(f"rules: unknown rule {_show(key)} (the rules are {', '.join(RULE_KEYS)})")
    for key in ("mode", "flee", "durability"):
        if key in data:
            _typed(data[key], f"rules.{key}", "a string", lambda x: isinstance(x, str))
    if "deck_size" in data:
        _typed(data["deck_size"], "rules.deck_size", "a whole number (50, 52 or 54)", _is_int)
    mode = data.get("mode", "solo")
    if mode == "coop" and "flee" in data:
        raise PositionError("rules.flee: the flee rule is a solo rule; co-op never allows two avoids in a row")
    if mode == "solo" and "deck_size" in data:
        raise PositionError("rules.deck_size: the deck size is a co-op rule; solo always uses the 44-card deck")
    try:
        return Rules(mode=mode, flee=data.get("flee", "classic"), durability=data.get("durability"),
                     deck_size=data.get("deck_size", 52))
    except InputError as exc:
        raise PositionError(f"rules: {exc}") from None


def position_from_json(data, rules: Optional[Rules] = None):
    """The position of a JSON object (``$defs/position_input`` of the schema).

    The one reader of positions: ``hint --position FILE`` and the library.
    The whole object that ``replay --json`` or ``hint --json`` prints is read
    as its ``position``.
    Returns a :class:`State` when the object gives the ``dungeon`` in order
    (an exact hint can be asked of it), else a :class:`TablePosition`
    (``unseen`` and ``bottom``, or ``gone``, or neither: nothing gone yet).

    The rules are the object's ``rules`` (missing keys: the mode's defaults);
    an object without them is read under ``rules`` (default: ``Rules()``).
    When both are given they must agree.  Every key is checked: unknown keys
    are refused, booleans must be JSON booleans, numbers JSON integers, cards
    strings; the derived keys that :meth:`State.as_dict` prints
    (``final_room``, ``dungeon_left``, ...) may be given and must then be
    right.  Raises :class:`PositionError` naming the key.

    >>> pos = position_from_json({"room": ["3C", "QC", "8D", "KC"], "unseen": ["5D", "2S", "9H"],
    ...                           "heroes": [{"health": 6, "weapon": "7D", "last_kill": 12}]})
    >>> pos.heroes[0], pos.distinct_orders()
    (Hero(health=6, weapon=7, last_kill=12), 6)
    """
    if not isinstance(data, dict):
        raise PositionError(f"a position is a JSON object {{...}}, not {_kind(data)}")
    if data.get("type") in ("replay", "hint"):
        # the whole answer of `replay --json` or `hint --json`: its position
        if not isinstance(data.get("position"), dict):
            raise PositionError(f"a {data['type']} object without its \"position\" object")
        data = data["position"]
    for key in data:
        if key in _MOVED:
            raise PositionError(f"{_show(key)} is not a key of a position: {_MOVED[key]} (docs/json.md)")
        if key not in POSITION_KEYS and key not in DERIVED_KEYS:
            raise PositionError(f"unknown key {_show(key)} in the position (its keys: "
                                f"{', '.join(POSITION_KEYS + DERIVED_KEYS)})")
    if "rules" in data:
        own = rules_from_json(data["rules"])
        if rules is not None and own != rules:
            raise PositionError(f"the position's rules ({own.describe()}) are not the rules asked for "
                                f"({rules.describe()})")
        rules = own
    rules = rules or Rules()
    room = _json_cards(data, "room")
    if room is None:
        raise PositionError("the position has no room (\"room\": the face-up cards, in row order)")
    nh = rules.heroes
    heroes = data.get("heroes", [{} for _ in range(nh)])
    _typed(heroes, "heroes", "a list of one object per hero", lambda x: isinstance(x, list))
    if len(heroes) != nh:
        raise PositionError(f"heroes: {rules.mode} has {nh} hero{'es' if nh > 1 else ''}, the position lists "
                            f"{len(heroes)}")
    health, weapon, last_kill, potions = [], [], [], []
    for i, hero in enumerate(heroes):
        where = f"heroes[{i}]"
        _typed(hero, where, "an object such as {\"health\": 20}", lambda x: isinstance(x, dict))
        for key in hero:
            if key not in HERO_KEYS:
                raise PositionError(f"{where}: unknown key {_show(key)} (a hero has {', '.join(HERO_KEYS)})")
        health.append(_json_int(hero, "health", f"{where}.health", default=MAX_HEALTH))
        w = hero.get("weapon")
        if w is not None:
            _typed(w, f"{where}.weapon", 'a diamond card such as "7D", or null', lambda x: isinstance(x, str))
            try:
                w = parse_card(w)
            except InputError as exc:
                raise PositionError(f"{where}.weapon: {exc}") from None
        weapon.append(w)
        last_kill.append(_json_int(hero, "last_kill", f"{where}.last_kill", null_ok=True))
        if _json_bool(hero, "potion_used", f"{where}.potion_used", default=False):
            potions.append(i + 1)
    leader = _json_int(data, "leader", "leader", default=1)
    taken = _json_int(data, "taken", "taken") if "taken" in data else None   # absent: worked out
    help_used = _json_bool(data, "help_used", "help_used", default=False)
    avoided = _json_bool(data, "avoided", "avoided", default=False)
    dungeon, unseen, gone, bottom = (_json_cards(data, k) for k in ("dungeon", "unseen", "gone", "bottom"))
    if dungeon is not None and (unseen is not None or gone is not None or bottom is not None):
        other = next(k for k in ("unseen", "gone", "bottom") if k in data)
        raise PositionError(f"dungeon gives the face-down cards in order: leave out {other}")
    if unseen is not None and gone is not None:
        raise PositionError("give the cards already gone or the cards still unseen, not both")
    room_number = _json_int(data, "room_number", "room_number", null_ok=True)
    derived = {}
    for key in ("final_room", "finished"):
        if key in data:
            derived[key] = _json_bool(data, key, key)
    if "dungeon_left" in data:
        derived["dungeon_left"] = _json_int(data, "dungeon_left", "dungeon_left")
    for key in ("won", "score"):
        if key in data and data[key] is not None:
            _typed(data[key], key, "a " + ("boolean" if key == "won" else "whole number") + " or null",
                   (lambda x: isinstance(x, bool)) if key == "won" else _is_int)
    if derived.get("finished") or data.get("won") is not None or data.get("score") is not None:
        raise PositionError("the position is of a finished game (\"finished\", \"won\" or \"score\" is set): "
                            "there is no next move to ask about")
    position = make_table_position(
        rules, room, health=health, weapon=weapon, last_kill=last_kill, leader=leader, taken=taken,
        potion_used=potions, help_used=help_used, avoided=avoided, gone=gone,
        unseen=dungeon if dungeon is not None else unseen, bottom=bottom or (), room_number=room_number)
    if derived.get("final_room", position.final_room) != position.final_room:
        raise PositionError(f"final_room: the position says {_show(derived['final_room'])}, but "
                            f"{position.final_room and 'no card is' or 'cards are'} face down")
    left = len(position.unseen) + len(position.bottom)
    if derived.get("dungeon_left", left) != left:
        raise PositionError(f"dungeon_left: the position says {_show(derived['dungeon_left'])}, but it "
                            f"holds {left} face-down card(s)")
    if dungeon is not None:
        return position.state(dungeon)
    return position
