"""The game state, legal actions and their effects: the one place the rules live.

>>> from scoundrel_solver.deal import deal
>>> s = State.new(deal(42))
>>> [str(c) for c in s.room], s.heroes[0].health
(['4H', '3H', '5C', '5D'], 20)
>>> s = s.play(Take(s.room[2], BARE))          # fight 5C bare-handed
>>> s.heroes[0].health
15
"""
from __future__ import annotations

from ..errors import InputError

from dataclasses import dataclass, replace
from typing import Optional

from .cards import Card, JOKER, MONSTER, POTION, WEAPON
from .rules import MAX_DUNGEON, MAX_HEALTH, START_HEALTH, Rules

WEAPON_MODE, BARE = "w", "b"


class IllegalMove(InputError):
    """An action that the rules forbid in the given state."""


class PositionError(InputError):
    """A dungeon or position that cannot occur under the rules."""


@dataclass(frozen=True)
class Hero:
    """One hero: health, weapon value (0 = none) and its last kill (None = fresh)."""

    health: int = START_HEALTH
    weapon: int = 0
    last_kill: Optional[int] = None

    def can_use_weapon(self, monster: int, lenient: bool) -> bool:
        if not self.weapon:
            return False
        if self.last_kill is None:
            return True
        return monster <= self.last_kill if lenient else monster < self.last_kill

    def describe(self) -> str:
        if not self.weapon:
            arms = "no weapon"
        elif self.last_kill is None:
            arms = f"weapon {self.weapon} (fresh)"
        else:
            arms = f"weapon {self.weapon} (last kill {self.last_kill})"
        return f"health {self.health}, {arms}"


@dataclass(frozen=True)
class Avoid:
    """Flee the room: it goes under the dungeon and a fresh room is dealt."""

    def __str__(self) -> str:
        return "avoid"


AVOID = Avoid()


@dataclass(frozen=True)
class Take:
    """Take ``card`` from the room.

    ``mode`` is ``"w"`` (weapon) or ``"b"`` (bare-handed) for a monster and
    ``None`` for a potion or weapon; ``help`` gives the card to the partner
    (co-op).  ``mode=None`` on a monster means "weapon if usable, else bare";
    :meth:`State.resolve` fills it in.
    """

    card: Card
    mode: Optional[str] = None
    help: bool = False

    def __str__(self) -> str:
        return f"{self.card}{self.mode or ''}{'>' if self.help else ''}"


Action = object  # Avoid | Take


@dataclass(frozen=True)
class State:
    """A position.  ``room`` is the face-up row (leftmost first), ``dungeon``
    the face-down cards (top first).  ``taken`` counts cards taken from the
    room so far, ``potion_used`` and ``help_used`` are per room, and
    ``avoided_last`` says the current room was dealt right after an avoid."""

    rules: Rules
    dungeon: tuple
    room: tuple
    heroes: tuple
    leader: int = 0
    taken: int = 0
    potion_used: tuple = (False, False)
    help_used: bool = False
    avoided_last: bool = False
    last_card: Optional[Card] = None
    dead: bool = False
    rooms_done: int = 0

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, deck, rules: Rules = Rules()) -> "State":
        """The fresh state at the start of the game for ``deck`` (top first)."""
        deck = tuple(deck)
        validate_dungeon(deck, rules)
        heroes = tuple(Hero() for _ in range(rules.heroes))
        return cls(rules=rules, dungeon=deck[4:], room=deck[:4], heroes=heroes)

    # ------------------------------------------------------------- predicates
    @property
    def final_room(self) -> bool:
        """A room is final when the dungeon was empty right after dealing it."""
        return not self.dungeon

    @property
    def finished(self) -> bool:
        return self.dead or (not self.room and not self.dungeon)

    @property
    def won(self) -> bool:
        return self.finished and not self.dead

    @property
    def to_take(self) -> int:
        """Cards still to take in this room before the next one is dealt."""
        return len(self.room) if self.final_room else 3 - self.taken

    @property
    def partner(self) -> int:
        return 1 - self.leader

    def monsters_left(self) -> int:
        """Total value of the monsters not yet taken (dungeon and room)."""
        return sum(c.value for c in self.room + self.dungeon if c.kind == MONSTER)

    def cards_left(self) -> int:
        return len(self.room) + len(self.dungeon)

    @property
    def score(self) -> Optional[int]:
        """RULES §2.10 / §3.8; ``None`` while the game goes on."""
        if not self.finished:
            return None
        if self.rules.coop:
            if self.dead:
                return -self.monsters_left()
            return sum(h.health for h in self.heroes)
        hero = self.heroes[0]
        if self.dead:
            return hero.health - self.monsters_left()
        bonus = 0
        if hero.health == MAX_HEALTH and self.last_card is not None and self.last_card.kind == POTION:
            bonus = self.last_card.value
        return hero.health + bonus

    # ---------------------------------------------------------------- actions
    def can_avoid(self) -> bool:
        if self.finished or self.taken or self.final_room:
            return False
        if not self.rules.avoid_allowed():
            return False
        return not self.avoided_last or self.rules.can_avoid_after_avoid()

    def legal_actions(self) -> list:
        """Every legal action, fully specified, in a fixed order."""
        if self.finished:
            return []
        actions = [AVOID] if self.can_avoid() else []
        targets = [False, True] if (self.rules.coop and not self.help_used) else [False]
        seen = set()
        for card in self.room:
            if card in seen:  # two jokers in one room are the same choice
                continue
            seen.add(card)
            for help_ in targets:
                hero = self.heroes[self.partner if help_ else self.leader]
                if card.kind == MONSTER:
                    if hero.can_use_weapon(card.value, self.rules.lenient):
                        actions.append(Take(card, WEAPON_MODE, help_))
                    actions.append(Take(card, BARE, help_))
                else:
                    actions.append(Take(card, None, help_))
        return actions

    def resolve(self, action) -> "Action":
        """Fill in a missing fight mode; raise :class:`IllegalMove` if illegal."""
        where = f"room {self.rooms_done + 1} ({' '.join(map(str, self.room)) or 'empty'})"
        if self.finished:
            if self.dead:
                raise IllegalMove(f"{action} is illegal in room {self.rooms_done + 1}: "
                                  f"the game is already over (lost)")
            raise IllegalMove(f"{action} is illegal after room {self.rooms_done} (the final room): "
                              f"the game is already over (won)")
        if isinstance(action, Avoid):
            if self.can_avoid():
                return action
            raise IllegalMove(f"avoid is illegal in {where}: {self._why_no_avoid()}")
        if not isinstance(action, Take):
            raise IllegalMove(f"{action!r} is not an action")
        if action.card not in self.room:
            raise IllegalMove(f"{action} is illegal in {where}: {action.card} is not in the room")
        if action.help:
            if not self.rules.coop:
                raise IllegalMove(f"{action} is illegal in {where}: there is no partner in solo play")
            if self.help_used:
                raise IllegalMove(f"{action} is illegal in {where}: the help card of this room was already given")
        hero = self.heroes[self.partner if action.help else self.leader]
        if action.card.kind != MONSTER:
            if action.mode is not None:
                raise IllegalMove(f"{action} is illegal in {where}: a fight mode only applies to monsters")
            return action
        usable = hero.can_use_weapon(action.card.value, self.rules.lenient)
        if action.mode is None:
            return replace(action, mode=WEAPON_MODE if usable else BARE)
        if action.mode == WEAPON_MODE and not usable:
            if not hero.weapon:
                reason = "no weapon is equipped"
            else:
                cmp = "at most" if self.rules.lenient else "below"
                reason = f"the weapon's last kill is {hero.last_kill}, so it only works on monsters {cmp} that"
            raise IllegalMove(f"{action} is illegal in {where}: {reason}")
        if action.mode not in (WEAPON_MODE, BARE):
            raise IllegalMove(f"{action} is illegal: fight mode must be w or b")
        return action

    def _why_no_avoid(self) -> str:
        if self.taken:
            return "a card of the room was already taken"
        if self.final_room:
            return "the final room cannot be avoided"
        if not self.rules.avoid_allowed():
            return "the hard flee rule forbids avoiding"
        return "the previous room was avoided"

    def play(self, action) -> "State":
        """The state after ``action`` (checked with :meth:`resolve`)."""
        action = self.resolve(action)
        if isinstance(action, Avoid):
            dungeon = self.dungeon + self.room
            return replace(self, dungeon=dungeon[4:], room=dungeon[:4], avoided_last=True,
                           rooms_done=self.rooms_done + 1)
        return self._take(action)

    def _take(self, action: Take) -> "State":
        card = action.card
        who = self.partner if action.help else self.leader
        hero = self.heroes[who]
        potion_used = self.potion_used
        dead = False
        if card.kind == POTION:
            if not potion_used[who]:
                hero = replace(hero, health=min(MAX_HEALTH, hero.health + card.value))
                potion_used = tuple(True if i == who else u for i, u in enumerate(potion_used))
        elif card.kind == WEAPON:
            hero = Hero(hero.health, card.value, None)
        else:
            if action.mode == WEAPON_MODE:
                damage = max(0, card.value - hero.weapon)
                hero = Hero(hero.health - damage, hero.weapon, card.value)
            else:
                hero = replace(hero, health=hero.health - card.value)
            dead = hero.health <= 0
        heroes = tuple(hero if i == who else h for i, h in enumerate(self.heroes))
        room = list(self.room)
        room.remove(card)
        state = replace(self, room=tuple(room), heroes=heroes, taken=self.taken + 1,
                        potion_used=potion_used, help_used=self.help_used or action.help,
                        last_card=card, dead=dead)
        if dead or state.to_take > 0:
            return state
        if state.final_room:  # room cleared and the dungeon empty: the game is won
            return replace(state, rooms_done=self.rooms_done + 1)
        return state._next_room()

    def _next_room(self) -> "State":
        need = 4 - len(self.room)
        return replace(self, room=self.room + self.dungeon[:need], dungeon=self.dungeon[need:],
                       leader=self.partner if self.rules.coop else 0, taken=0,
                       potion_used=(False, False), help_used=False, avoided_last=False,
                       rooms_done=self.rooms_done + 1)

    # ----------------------------------------------------------------- views
    def describe(self) -> str:
        """A short human summary of the position."""
        lines = []
        if self.finished:
            verdict = "won" if self.won else "lost"
            lines.append(f"Game over: {verdict}, score {self.score}")
        else:
            kind = "final room" if self.final_room else "room"
            lines.append(f"{kind.capitalize()} {self.rooms_done + 1}: {' '.join(map(str, self.room))}"
                         f"  ({self.taken} taken, {self.to_take} to take)")
        for i, h in enumerate(self.heroes):
            name = f"Hero {i + 1}" + (" (leads)" if self.rules.coop and i == self.leader and not self.finished else "")
            if not self.rules.coop:
                name = "Hero"
            lines.append(f"{name}: {h.describe()}")
        lines.append(f"Cards left in the dungeon: {len(self.dungeon)}")
        return "\n".join(lines)

    def as_dict(self) -> dict:
        """The position as JSON (``$defs/position`` of the shipped schema, docs/json.md).

        The order of the dungeon is known, so it is given in full (``dungeon``,
        top first); ``hint --position`` reads the object back.  The keys after
        ``dungeon`` are derived and only checked when read back.

        >>> from scoundrel_solver.deal import deal
        >>> d = State.new(deal(42)).as_dict()
        >>> d["room"], d["heroes"], d["dungeon_left"]
        (['4H', '3H', '5C', '5D'], [{'health': 20, 'weapon': None, 'last_kill': None, 'potion_used': False}], 40)
        """
        return {
            **position_head(self),
            "dungeon": [str(c) for c in self.dungeon],
            "room_number": self.rooms_done + (0 if self.won else 1),
            "final_room": self.final_room and not self.finished,
            "finished": self.finished,
            "won": self.won if self.finished else None,
            "score": self.score,
            "dungeon_left": len(self.dungeon),
        }


def position_head(pos) -> dict:
    """What a position says of the room and the heroes, the first keys of its JSON;
    ``pos`` is a :class:`State` or a real-table position (both have these fields)."""
    return {
        "rules": pos.rules.as_dict(),
        "room": [str(c) for c in pos.room],
        "heroes": heroes_dicts(pos.heroes, pos.potion_used),
        "leader": pos.leader + 1,
        "taken": pos.taken,
        "help_used": pos.help_used,
        "avoided": pos.avoided_last,
    }


def heroes_dicts(heroes, potion_used) -> list:
    """The heroes of a position as JSON: weapon as its card (weapons are diamonds)."""
    return [{"health": h.health, "weapon": str(Card(h.weapon, "D")) if h.weapon else None,
             "last_kill": h.last_kill, "potion_used": bool(potion_used[i])}
            for i, h in enumerate(heroes)]


def validate_dungeon(deck, rules: Rules) -> None:
    """Refuse a dungeon that is not a valid custom dungeon of RULES §5."""
    if not 1 <= len(deck) <= MAX_DUNGEON:
        raise PositionError(f"a dungeon holds 1 to {MAX_DUNGEON} cards, got {len(deck)}")
    seen = {}
    for card in deck:
        if not isinstance(card, Card):
            raise PositionError(f"{card!r} is not a card")
        if not rules.card_allowed(card):
            raise PositionError(f"card {card} is not in the {rules.mode} deck"
                                + (" (solo removes the red J, Q, K, A and the jokers)" if not rules.coop else ""))
        seen[card] = seen.get(card, 0) + 1
        limit = 2 if card is JOKER else 1
        if seen[card] > limit:
            raise PositionError(f"duplicate card {card}" if card is not JOKER else "more than two jokers")
