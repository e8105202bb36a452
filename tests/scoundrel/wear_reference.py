"""A plain Python transcription of ``solver._bounds.wear_extra`` (its default variant).

``wear_extra`` (co-op, lenient durability) is the extra damage that the wear of the
strongest weapon forces, beyond what ``_bounds.damage`` counts, along the rooms ahead
of a room start.  This module computes the same integer from the same inputs as
``Searcher._bound_at(codes, kills, nrot, True)`` with ``wear_look`` not holding bit 2
(the default 5): the card codes of the room start (the room first, then the
dungeon), the heroes as ``(health, weapon, last kill)`` tuples and ``nrot`` (2 when
the room may be avoided, else 1).

With strict weapons (``lenient=False``) it is the same programme on the heroes'
*lenient view* (each held weapon's last kill one lower: ``_bounds.lenient_view``), with
strict kills in a room: the chain kills a set of the room's monsters of distinct values,
all at most its state, and its state becomes the lowest of them minus one.  Here every
such set is tried (``strict_kills``), where the C code (``_wear_room_strict``) only tries
"every value from the lowest up"; the two agree because no gain is negative.

It follows the algorithm of commit 62952d9 (``_wear_charge``, ``_room_monsters``,
``_wear_room``, ``_wear_init``, ``_wear_costs``, ``_wear_pool``, ``wear_extra``)
step by step, written for clarity rather than speed: every chain state reached is
followed (none is pruned), and the gain of a chain's kills in a room is recomputed
each time by its plain sum over the room's monsters.  So it is an independent check
of faster versions of that code.  The docstrings of those functions in
``solver/scoundrel/_bounds.pyx`` explain what each step means; the comments here only say
which C function each part transcribes.
"""
from __future__ import annotations

# the kinds of cards (solver/scoundrel/_types.pxd)
MONSTER = 0
POTION = 1
WEAPON = 2
JOKER_CODE = 52

# the kinds of rooms of the programme (solver/scoundrel/_bounds.pyx)
W_FINAL = 0        # the final room: every card taken, none carried on
W_NEW = 1          # a room without a carried card: one of its cards is carried on
W_CARRY = 2        # a room with a carried card: it or one new card is carried on
W_INF = 1000000

# what the programme remembers at a position: 0 after a face with no avoided cards
# waiting, 1 after a face with avoided cards waiting, 2 after an avoid
AFTER_FACE = 0
AFTER_FACE_AVOIDED_WAITING = 1
AFTER_AVOID = 2


# ---------------------------------------------------------------- the cards

def card_value(code: int) -> int:
    """The value of card code ``code`` (``Card.index``: suit * 13 + value - 2; joker 52 = 15)."""
    if code == JOKER_CODE:
        return 15
    return code % 13 + 2


def card_kind(code: int) -> int:
    """Clubs (suit 0), spades (suit 3), every face card and the joker are monsters,
    hearts (suit 2) potions, diamonds (suit 1) of 2-10 weapons."""
    if code == JOKER_CODE:
        return MONSTER
    suit = code // 13
    value = card_value(code)
    if suit == 0 or suit == 3 or value > 10:
        return MONSTER
    if suit == 2:
        return POTION
    return WEAPON


def is_monster(code: int) -> bool:
    return card_kind(code) == MONSTER


def is_weapon(code: int) -> bool:
    return card_kind(code) == WEAPON


def positive(x: int) -> int:
    """``x`` if it is above 0, else 0."""
    return x if x > 0 else 0


# ---------------------------------------------------------------- the tally

def monster_counts(codes) -> list:
    """``t.m``: how many monsters of each value 0-15 are among the cards."""
    counts = [0] * 16
    for code in codes:
        if is_monster(code):
            counts[card_value(code)] += 1
    return counts


def diamond_values(codes) -> list:
    """The distinct values of the diamonds among the cards (the bits of ``t.dmask``),
    strongest first."""
    return sorted({card_value(code) for code in codes if is_weapon(code)}, reverse=True)


# ---------------------------------------------------------------- the pieces

def wear_charge(v: int, u: int, e0end: list, e1: list) -> int:
    """``_wear_charge``: the extra of a monster of value ``v`` taken after the whole
    dungeon by a chain whose last kill is ``u``."""
    if v <= u and e1[v] < e0end[v]:
        return e1[v]
    return e0end[v]


def room_monsters(cards: list, avail: bool, e0: list, e1: list):
    """``_room_monsters``: the monsters among the new cards of a faced room, each as
    (value, extra when the chain does not kill it, what the chain saves by killing it);
    and whether a card that is not a monster is among them."""
    monsters = []
    has_non_monster = False
    for code in cards:
        if not is_monster(code):
            has_non_monster = True
            continue
        v = card_value(code)
        saved = e0[v] - e1[v]
        gain = saved if (avail and saved > 0) else 0
        monsters.append((v, e0[v], gain))
    return monsters, has_non_monster


def lower(costs: dict, u: int, c: int) -> None:
    """Record cost ``c`` for chain state ``u`` if it is below the cost known."""
    if c < costs.get(u, W_INF):
        costs[u] = c


def strict_kills(monsters: list, ex: int, u: int):
    """Strict durability: every non-empty set of the room's monsters (by index, the carried
    one ``ex`` left out) the chain may kill from state ``u``: distinct values, none above
    ``u``.  Yields (the gain of the set, the chain's state after it)."""
    from itertools import combinations
    idx = [i for i in range(len(monsters)) if i != ex and monsters[i][0] <= u]
    for size in range(1, len(idx) + 1):
        for chosen in combinations(idx, size):
            values = [monsters[i][0] for i in chosen]
            if len(set(values)) < len(values):
                continue
            yield sum(monsters[i][2] for i in chosen), min(values) - 1


def wear_room(cards: list, kind: int, avail: bool, e0: list, e1: list, e0end: list,
              fin: dict, fout: dict, strict: bool = False) -> int:
    """``_wear_room``: one faced room whose new cards are ``cards``, from each chain state
    ``u`` of ``fin`` (its cost ``fin[u]``) into ``fout``.  Returns the least cost."""
    monsters, has_non_monster = room_monsters(cards, avail, e0, e1)
    nm = len(monsters)
    best = W_INF
    for u in sorted(fin):
        cost = fin[u]
        # ex: the monster carried on (-1: none of the room's monsters)
        for ex in range(-1, nm):
            if kind == W_FINAL:
                if ex >= 0:
                    break
            elif kind == W_NEW and ex < 0 and not has_non_monster and len(cards) == 4:
                continue        # four monsters and no carried card: one of them stays
            base = cost
            for i in range(nm):
                if i != ex:
                    base += monsters[i][1]
            # the chain kills nothing here
            c = base
            if ex >= 0:
                c += wear_charge(monsters[ex][0], u, e0end, e1)
            lower(fout, u, c)
            best = min(best, c)
            if strict:
                for g, after in strict_kills(monsters, ex, u):
                    c = base - g
                    if ex >= 0:
                        c += wear_charge(monsters[ex][0], after, e0end, e1)
                    lower(fout, after, c)
                    best = min(best, c)
                continue
            # or it kills every monster from the value of monster j up to u, ending at j's value
            for j in range(nm):
                vj, _, gj = monsters[j]
                if j == ex or gj == 0 or vj > u:
                    continue
                up = vj
                g = 0
                for i in range(nm):
                    vi, _, gi = monsters[i]
                    if i != ex and up <= vi <= u:
                        g += gi
                c = base - g
                if ex >= 0:
                    c += wear_charge(monsters[ex][0], up, e0end, e1)
                lower(fout, up, c)
                best = min(best, c)
    return best


def wear_pool(cards: list, e0end: list, e1: list, fin: dict, fout: dict) -> None:
    """``_wear_pool``: the cards ``cards`` avoided; each monster is charged as taken
    after the whole dungeon."""
    for u in sorted(fin):
        c = fin[u]
        for code in cards:
            if is_monster(code):
                c += wear_charge(card_value(code), u, e0end, e1)
        lower(fout, u, c)


def wear_costs(dio_pend: int, ho: list, cg: list) -> list:
    """``_wear_costs``: ``e0[v]`` for a room whose new cards end where the strongest
    diamond dealt other than X is ``dio_pend``."""
    e0 = [0] * 16
    for v in range(2, 16):
        w = max(ho[v], dio_pend)
        e0[v] = positive(v - w) - cg[v]
    return e0


# ---------------------------------------------------------------- wear_extra

def wear_extra(codes, kills, nrot: int, coop: bool = True, lenient: bool = True,
               flee: int = 0) -> int:
    """``_bounds.wear_extra`` of the room start ``codes`` (room first) with the two
    heroes ``kills`` = ((health, weapon, last kill), ...) (a fresh weapon's last kill
    99, no weapon 0 0), ``nrot`` 2 when the room may be avoided.  ``lenient=False``: the
    programme of strict weapons (see the module's text)."""
    if not coop or flee != 0:
        return 0
    strict = not lenient
    S = list(codes)
    n = len(S)
    hw = [kills[0][1], kills[1][1]]      # the heroes' weapons
    hk = [kills[0][2], kills[1][2]]      # and their last kills
    if strict:
        # the lenient view: a held weapon may meet the values below its last kill
        hk = [k - 1 if w else k for w, k in zip(hw, hk)]
    m = monster_counts(S)
    diamonds = diamond_values(S)
    nd = diamonds[0] if diamonds else 0
    nd2 = diamonds[1] if len(diamonds) > 1 else 0

    # cg[v]: what damage counts for a monster of value v (the best weapon that may meet it)
    cg = [0] * 16
    for v in range(16):
        held = 0
        for h in range(2):
            if hw[h] > held and v <= hk[h]:
                held = hw[h]
        best_weapon = max(nd, held)
        cg[v] = positive(v - best_weapon)

    # X: the weapon whose chain could save the most: -1 the strongest diamond, 0 or 1 a hero's
    xkind = -2
    best_pot = 0
    for xref in (-1, 0, 1):
        if xref < 0:
            if nd == 0:
                continue
            wx, ux, dv = nd, 15, nd2
        else:
            if hw[xref] == 0:
                continue
            wx, ux, dv = hw[xref], min(hk[xref], 15), nd
        pot = 0
        for v in range(2, ux + 1):
            if m[v] == 0:
                continue
            w = dv
            for h in range(2):
                if h != xref and hw[h] > w and v <= hk[h]:
                    w = hw[h]
            e = positive(v - w) - positive(v - wx)
            if e > 0:
                pot += e * m[v]
        if pot > best_pot:
            best_pot = pot
            xkind = xref
    if xkind == -2:
        return 0

    if xkind < 0:
        wx, ux = nd, 15
    else:
        wx, ux = hw[xkind], min(hk[xkind], 15)
    # ho[v]: the best other weapon a hero holds that may meet v; e1[v]: the extra of v killed by X
    ho = [0] * 16
    e1 = [0] * 16
    for v in range(16):
        w = 0
        for h in range(2):
            if h != xkind and hw[h] > w and v <= hk[h]:
                w = hw[h]
        ho[v] = w
        e1[v] = positive(v - wx) - cg[v]
    # dio[i]: the strongest diamond among S[:i] other than X; qx: where X is (a diamond)
    qx = -1
    dio = [0] * (n + 1)
    for i in range(n):
        dio[i + 1] = dio[i]
        if is_weapon(S[i]):
            if xkind < 0 and qx < 0 and card_value(S[i]) == nd:
                qx = i
            elif card_value(S[i]) > dio[i]:
                dio[i + 1] = card_value(S[i])
    # e0end[v]: the extra of v taken after the whole dungeon, not killed by X
    e0end = [0] * 16
    for v in range(16):
        w = max(ho[v], dio[n])
        e0end[v] = positive(v - w) - cg[v]

    def avail(pend: int) -> bool:
        """X has been dealt by the end of the room's new cards (or a hero holds it)."""
        return xkind >= 0 or qx < pend

    # F[(position, mode)]: the cost of each chain state (its last kill) at a position of S
    F = {}

    def states(p: int, mode: int) -> dict:
        return F.setdefault((p, mode), {})

    # this room start's room S[:4]: a fresh room (one card carried on unless it is the last)
    G = {ux: 0}
    pend = min(4, n)
    e0 = wear_costs(dio[pend], ho, cg)
    if n <= 4:
        return wear_room(S[0:n], W_FINAL, avail(pend), e0, e1, e0end, G, {}, strict)
    wear_room(S[0:4], W_NEW, avail(4), e0, e1, e0end, G, states(4, AFTER_FACE), strict)
    if nrot > 1:
        # avoided: its cards come back after the dungeon
        wear_pool(S[0:4], e0end, e1, G, states(4, AFTER_AVOID))

    result = W_INF
    for p in range(4, n + 1):
        for mode in (AFTER_FACE, AFTER_FACE_AVOIDED_WAITING, AFTER_AVOID):
            fin = F.get((p, mode), {})
            if not fin:
                continue
            if p >= n:
                # S has run out after an avoid: what is left was charged already
                result = min(result, min(fin.values()))
                continue
            new_cards = 4 if mode == AFTER_AVOID else 3
            pend = min(p + new_cards, n)
            e0 = wear_costs(dio[pend], ho, cg)
            if pend == n and mode == AFTER_FACE:
                # nothing was avoided: the final room, every card taken
                c = wear_room(S[p:pend], W_FINAL, avail(pend), e0, e1, e0end, fin, {}, strict)
                result = min(result, c)
                continue
            # faced
            after = AFTER_FACE if mode == AFTER_FACE else AFTER_FACE_AVOIDED_WAITING
            kind = W_NEW if mode == AFTER_AVOID else W_CARRY
            wear_room(S[p:pend], kind, avail(pend), e0, e1, e0end, fin, states(pend, after), strict)
            if mode != AFTER_AVOID:
                # avoided (never twice in a row): its new cards come back after the dungeon
                wear_pool(S[p:pend], e0end, e1, fin, states(pend, AFTER_AVOID))
    return result if result < W_INF else 0
