"""Text for people: deals, positions, verdicts and a line told room by room.

Pure functions from solver values to lines of text; the commands only print
what these return.
"""
from __future__ import annotations

import math

from scoundrel_solver import Avoid, Result, State, Take

MINUS, ARROW = "\u2212", "\u2192"  # − and →, as a player would write them


def signed(value) -> str:
    """A number as text prints it: negative ones with the minus sign, never a hyphen
    (``−14``, ``−272.0``), so that "−15 → −14" reads as one style."""
    text = value if isinstance(value, str) else f"{value}"
    return MINUS + text[1:] if text.startswith("-") else text


def count(n: int, word: str, plural: str = None) -> str:
    """``1 node``, ``2 nodes``, ``1,024 nodes``."""
    return f"{n:,} {word if n == 1 else (plural or word + 's')}"


def card_text(card, pretty: bool = False) -> str:
    return card.pretty() if pretty else str(card)


def cards_text(cards, pretty: bool = False) -> str:
    return " ".join(card_text(c, pretty) for c in cards)


def deal_title(game) -> str:
    what = f"Deal {game.seed}" if game.seed is not None else f"Custom dungeon of {len(game.deck)} cards"
    return f"{what} ({game.rules.describe()})"


def hero_text(hero) -> str:
    return hero.describe().replace("health -", "health " + MINUS, 1)


def heroes_text(state: State) -> str:
    if not state.rules.coop:
        return hero_text(state.heroes[0])
    return "; ".join(f"hero {i + 1}: {hero_text(h)}" for i, h in enumerate(state.heroes))


def describe_take(before: State, action: Take, after: State, pretty: bool = False) -> str:
    """One resolved take in plain words, e.g. ``fight KC bare-handed (−13 → 7)``."""
    card = action.card
    name = card_text(card, pretty)
    who = before.partner if action.help else before.leader
    old, new = before.heroes[who], after.heroes[who]
    if card.is_weapon:
        effect = f"weapon {card.value}" + (f", discarding weapon {old.weapon}" if old.weapon else "")
        mine, theirs = f"take {name} (equip {effect})", f"equips it ({effect})"
    elif card.is_potion:
        if before.potion_used[who]:
            effect = "no effect: second potion in this room"
        else:
            effect = f"+{new.health - old.health} {ARROW} {new.health}"
        mine, theirs = f"drink {name} ({effect})", f"drinks it ({effect})"
    else:
        how = f"with weapon {old.weapon}" if action.mode == "w" else "bare-handed"
        effect = f"{MINUS}{old.health - new.health} {ARROW} {signed(new.health)}"
        mine, theirs = f"fight {name} {how} ({effect})", f"fights it {how} ({effect})"
    text = f"give {name} to hero {who + 1}, who {theirs}" if action.help else mine
    if new.health <= 0:
        text += ": you die" if not before.rules.coop else f": hero {who + 1} dies"
    return text


def room_header(state: State, pretty: bool = False) -> str:
    kind = "Final room" if state.final_room else "Room"
    lead = f", hero {state.leader + 1} leads" if state.rules.coop else ""
    return f"{kind} {state.rooms_done + 1}{lead}: {cards_text(state.room, pretty)}"


def narrate(start: State, rooms, pretty: bool = False) -> list:
    """The line room by room: the room's cards, each take in words, then the heroes.

    ``rooms`` is a parsed line; it must be legal from ``start`` (replay it first).
    """
    out = []
    state = start
    for room in rooms:
        out.append(room_header(state, pretty))
        for action in room:
            after = state.play(action)
            if isinstance(action, Avoid):
                out.append("  avoid the room (its cards go under the dungeon)")
            else:
                out.append("  " + describe_take(state, state.resolve(action), after, pretty))
            state = after
        if not (len(room) == 1 and isinstance(room[0], Avoid)):
            out.append(f"  {ARROW} {after_room_text(state)}")
    return out


def after_room_text(state: State) -> str:
    if state.finished:
        if state.won:
            return f"dungeon cleared, {heroes_text(state)}: WON, score {state.score}"
        return (f"LOST, score {signed(state.score)} ({heroes_text(state)}; "
                f"monsters left worth {state.monsters_left()})")
    return heroes_text(state)


def shorter_note(result: Result):
    """What the line's length is known to be, or None when nobody asked."""
    if result.shortest is True:
        return f"  ({count(len(result.line), 'room')}: no optimal line has fewer)"
    if result.shortest is False:
        rooms = count(len(result.line), 'room')
        if result.line_search == "skipped":
            return (f"  ({rooms}; not proven the fewest: not searched for in co-op, where that "
                    f"search costs 2-4 times the proof)")
        budget = f" of {result.line_budget:,} nodes" if result.line_budget else ""
        return f"  ({rooms}; not proven the fewest: the search for them stopped at its limit{budget})"
    return None


def verdict(result: Result) -> str:
    """``WIN, proven optimal score 27`` / ``LOSS ...`` / ``NOT PROVEN: ...``."""
    if result.exact:
        if result.won:
            return f"WIN, proven optimal score {result.score}"
        return f"LOSS, proven: the deal cannot be won; best score {signed(result.score)}"
    why = {"nodes": "node limit reached", "time": "time limit reached"}.get(result.limit, "search stopped early")
    if result.score is None:
        return f"NOT PROVEN: {why}, no complete line found"
    found = "win" if result.won else "loss"
    return f"NOT PROVEN: {why}, best found: {found} with score {signed(result.score)}"


def _number(value) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return f"{value:,}"


def statistics(result: Result) -> list:
    total = result.nodes + result.line_nodes
    rate = f"{total / result.seconds:,.0f}" if result.seconds > 0 else "-"
    nodes = count(result.nodes, 'node')
    if result.line_nodes:
        what = "the fewest rooms" if result.line_search in (None, "proven") else "the line"
        nodes += f" to prove the score, {result.line_nodes:,} for {what},"
    lines = [f"Search: {nodes} in {result.seconds:.3f} s ({rate} nodes/s), engine {result.engine}"]
    if result.tt:
        lines.append("Table: " + ", ".join(f"{k} {_number(v)}" for k, v in result.tt.items()))
    return lines


def position(state: State, pretty: bool = False) -> str:
    """State.describe with the room in the chosen card style."""
    text = "\n".join(signed_words(line) for line in state.describe().splitlines())
    if pretty and not state.finished:
        text = text.replace(" ".join(map(str, state.room)), cards_text(state.room, True), 1)
    return text


def signed_words(text: str) -> str:
    """``text`` with each negative number's hyphen turned into the minus sign."""
    import re
    return re.sub(r"(?<![\w-])-(?=\d)", MINUS, text)


def line_text(rooms, pretty: bool = False) -> str:
    """A line in notation, rooms separated by " | ", cards pretty or not."""
    return " | ".join(" ".join(action_text(a, pretty) for a in room) for room in rooms)


# -------------------------------------------------------------------- hints
def action_text(action, pretty: bool = False) -> str:
    if isinstance(action, Avoid) or not pretty:
        return str(action)
    text = card_text(action.card, True) + (action.mode or "") + (">" if action.help else "")
    return text


def score_text(score) -> str:
    if score is None:
        return "unknown"
    return f"win {score}" if score > 0 else f"lose {MINUS}{-score}" if score < 0 else "lose 0"


def bounds_text(a) -> str:
    """An exact-hint action under a time budget: its score, or the bounds proven so far."""
    if a.exact or a.lo is None or a.hi is None or a.lo == a.hi:
        return score_text(a.score if a.exact else a.lo if a.lo == a.hi else None)
    if a.lo > 0:
        return f"win, {a.lo}\u2013{a.hi}"

    def num(x):
        return f"{MINUS}{-x}" if x < 0 else str(x)
    if a.hi <= 0:
        return f"lose, {num(a.lo)} to {num(a.hi)}"
    return f"not proven, {num(a.lo)} to {num(a.hi)}"


def hint_position(state: State, pretty: bool = False, table=None) -> list:
    """The position a hint is about: room, heroes, and what is face down."""
    kind = "Final room" if state.final_room else "Room"
    where = f"{kind}: " if table is not None else f"{kind} {state.rooms_done + 1}: "
    lead = f", hero {state.leader + 1} leads" if state.rules.coop else ""
    lines = [f"{where}{cards_text(state.room, pretty)}  ({state.taken} taken, {state.to_take} to take{lead})"]
    notes = []
    if state.avoided_last and state.taken == 0:
        notes.append("dealt after an avoid")
    for i in range(state.rules.heroes):
        if state.potion_used[i]:
            notes.append("potion already used" + (f" by hero {i + 1}" if state.rules.coop else ""))
    if state.help_used:
        notes.append("help card already given")
    if notes:
        lines[0] += "; " + ", ".join(notes)
    if state.rules.coop:
        for i, h in enumerate(state.heroes):
            lines.append(f"Hero {i + 1}: {h.describe()}")
    else:
        lines.append(f"Hero: {state.heroes[0].describe()}")
    if table is not None:
        bottom = f", then {len(table.bottom)} known at the bottom: {cards_text(table.bottom, pretty)}" if table.bottom else ""
        lines.append(f"Face down: {len(table.unseen)} unseen cards{bottom}")
    else:
        lines.append(f"Face down: {len(state.dungeon)} cards (order known)")
    return lines


def hint_lines(hint, pretty: bool = False) -> list:
    """The hint as a table of actions, best first, with the kind of hint said plainly."""
    out = []
    if hint.kind == "exact":
        budgeted = getattr(hint, "budget", 0)
        head = "Exact hint (the order of the dungeon is known)"
        if not hint.exact and budgeted:
            head += (f", NOT FINISHED in the {budgeted:g} s budget: unfinished actions show proven bounds "
                     f"(--time 0 solves to the end)")
        elif not hint.exact:
            head += ", NOT PROVEN: a search limit was reached, figures are the best found"
        out.append(head + ".")
        value = bounds_text if budgeted else (lambda a: score_text(a.score))
        best = hint.actions[0]
        out.append(f"Best: {action_text(best.action, pretty)} {ARROW} {value(best)}")
        if len(hint.plan) > 1:
            out.append("Plan for this room: " + " ".join(action_text(a, pretty) for a in hint.plan))
        out.append("")
        width = max(6, max(len(action_text(a.action, pretty)) for a in hint.actions))
        cells = [value(a) for a in hint.actions]
        col = max(9, max(len(c) + 1 for c in cells))
        # the rooms of each action's line of fewest rooms, where searched for and proven (ties)
        rooms = any(getattr(a, "line_rooms", None) is not None for a in hint.actions)
        out.append(f"  {'action':<{width}}  {'score':<{col}}" + ("rooms" if rooms else "").rstrip())
        out[-1] = out[-1].rstrip()
        for i, a in enumerate(hint.actions):
            mark = "  best" if i == 0 else ("  keeps the win" if a.won else
                                            "  verdict not proven" if budgeted and a.won is None else "")
            r = (f"{a.line_rooms if a.line_rooms is not None else '-':<5}" if rooms else "")
            out.append(f"  {action_text(a.action, pretty):<{width}}  {cells[i]:<{col}}{r}{mark}".rstrip())
        wins = len(hint.winning())
        open_ = sum(a.won is None for a in hint.actions) if budgeted else 0
        out.append("")
        if wins:
            keep = "keeps" if wins == 1 else "keep"
            out.append(f"{wins} of {count(len(hint.actions), 'action')} {keep} the win"
                       + (f"; {open_} not proven either way." if open_ else "."))
        elif open_:
            out.append(f"No action is proven to win; {open_} not proven either way.")
        else:
            out.append("No action wins: the position is lost whatever you do; the best loses least.")
        ties = getattr(hint, "ties", "none")
        if ties == "fewest_rooms":
            out.append("Equal scores: the action whose line has the fewest rooms comes first (rooms: of that line, "
                       "this room counted).")
        elif ties == "actions_order":
            out.append("Equal scores " + ("keep the order of the actions (co-op: the fewest rooms are not searched for)."
                                          if hint.state.rules.coop else
                                          "whose fewest rooms were not all proven keep the order of the actions"
                                          + (f" (not in the {budgeted:g} s budget; --time 0 searches further)."
                                             if budgeted else ".")))
    else:
        out.extend(_table_hint_lines(hint, pretty))
    out.append("")
    out.append(f"Solved {count(hint.solves, 'position')} ({count(hint.nodes, 'node')}) in {hint.seconds:.3f} s"
               + (f"; {hint.cache_hits:,} from the cache" if hint.cache_hits else "") + ".")
    return out


def _pct(x, digits: int = 1) -> str:
    return "    ?" if x is None else f"{100 * float(x):{4 + digits}.{digits}f}%"


def _num(x, digits: int = 1) -> str:
    return "     ?" if x is None else signed_words(f"{float(x):{5 + digits}.{digits}f}")


def ranking_digits(pairs, scale: float, most: int = 6) -> tuple:
    """Decimals for a ranked table of ``(win, mean)`` figures such that rounding
    never makes the ranking look wrong: wherever two neighbours' win figures
    differ, they are shown different (else the one ranked lower could show the
    same win and a higher mean), and where their wins are equal, their means
    are.  ``scale``: the win figure's factor as shown (100 for percentages)."""
    def enough(k: int, factor: float) -> int:
        # neighbours whose figure k differs (for the mean: among equal wins)
        pairs_to_tell = [(a[k] * factor, b[k] * factor) for a, b in zip(pairs, pairs[1:])
                         if a[k] != b[k] and (k == 0 or a[0] == b[0])]
        for d in range(1, most + 1):
            if all(f"{x:.{d}f}" != f"{y:.{d}f}" for x, y in pairs_to_tell):
                return d
        return most
    return enough(0, scale), enough(1, 1.0)


def _table_hint_lines(hint, pretty: bool) -> list:
    """A real-table hint: the belief search's figure (exact, an upper bound, or none), the
    clairvoyant bound, and under the best action the achievable figure of a named policy
    (a sampled lower bound), each named for what it is; never a clairvoyant figure called exact."""
    out = []
    if hint.achievable == "exact":
        out.append(f"Real-table hint: exact for a player who cannot see the order of the "
                   f"{count(hint.unseen, 'unseen card')} (belief search, {hint.beliefs:,} beliefs).")
    elif hint.achievable == "upper_bound":
        est = ", estimated from sampled orders" if hint.sampled_leaves else ""
        out.append(f"Real-table hint: the belief search was too big to finish, so it looked "
                   f"{count(hint.depth, 'deal')} ahead and valued what follows as if the order were seen: "
                   f"the first figure is an UPPER BOUND on what a player who cannot see the order achieves{est}.")
    else:
        out.append("Real-table hint: the belief search was too big for its budget; only the clairvoyant "
                   "bound is given (a player who cannot see the order may do worse).")
    if hint.clairvoyant == "enumerated":
        out.append(f"Clairvoyant bound: all {count(hint.orders, 'distinct order')} of the "
                   f"{count(hint.unseen, 'unseen card')} "
                   f"solved as if seen.")
    elif hint.clairvoyant == "partial":
        out.append(f"Clairvoyant bound: {hint.orders:,} of the {hint.distinct_orders:,} distinct orders of the "
                   f"{count(hint.unseen, 'unseen card')} solved as if seen before the {hint.budget:g} s budget "
                   f"ran out; the mean is theirs, the ranges proven bounds over all orders.")
    else:
        out.append(f"Clairvoyant bound: {count(hint.orders, 'random order')} of the "
                   f"{count(hint.unseen, 'unseen card')} solved "
                   f"as if seen (rng-seed {hint.rng_seed}); 95% intervals."
                   + (f" The {hint.budget:g} s budget stopped the sampling." if hint.budget and hint.orders
                      and hint.orders < hint.orders_planned else ""))
    if not hint.clairvoyant_proven:
        out.append("NOT PROVEN: a search limit was reached on some orders.")
    d1 = getattr(hint, "depth1", None)
    if d1 is not None:
        out.extend(_depth1_lines(d1))
    best = hint.actions[0]
    line = f"Best: {action_text(best.action, pretty)}"
    if d1 is not None and best.depth1_win_chance is not None:
        mean = signed(f"{float(best.depth1_mean_score):.1f}")
        line += (f" (depth-1 {'estimated ' if d1.sampled else ''}upper bound: "
                 f"win {100 * float(best.depth1_win_chance):.0f} %, mean {mean}"
                 f"; seeing the order (clairvoyant bound): win {100 * best.clairvoyant_win_chance:.0f} %)")
    elif best.win_chance is not None:
        who = "a player who cannot see the order" if hint.achievable == "exact" else \
            "at most, for a player who cannot see the order"
        line += f" ({who}: win {100 * float(best.win_chance):.0f} %, mean {signed(f'{float(best.mean_score):.1f}')}"
        line += f"; seeing the order (clairvoyant bound): win {100 * best.clairvoyant_win_chance:.0f} %)"
    out.append(line)
    out.extend(_achievable_lines(hint, pretty))
    out.append("")
    width = max(6, max(len(action_text(a.action, pretty)) for a in hint.actions))
    ci = hint.clairvoyant in ("sampled", "partial")
    head = "exact" if hint.achievable == "exact" else "upper bound" if hint.achievable == "upper_bound" else ""
    cw = 22 if ci else 7
    # the depth-1 column, first when given (it ranks the actions)
    deep = d1 is not None and all(a.depth1_win_chance is not None for a in hint.actions)
    d_head = ("depth-1 est. bound" if d1.sampled else "depth-1 bound") if deep else ""
    d_top = f"{d_head:<22}  " if deep else ""
    d_cols = f"{'win':<7}  {'mean':<12}  " if deep else ""
    if head:
        out.append(f"  {'':<{width}}  {d_top}{head + ' (order unseen)':<22}  clairvoyant bound (order seen)")
        out.append(f"  {'action':<{width}}  {d_cols}{'win':<7}  {'mean':<12}  {'win':<{cw}}  mean")
    else:
        out.append(f"  {'':<{width}}  {d_top}clairvoyant bound (order seen)")
        out.append(f"  {'action':<{width}}  {d_cols}{'win':<{cw}}  mean")
    # as many decimals as the ranking needs (it is decided by the unrounded figures)
    wd = md = cwd = cmd = dwd = dmd = 1
    if deep:
        dwd, dmd = ranking_digits([(float(a.depth1_win_chance), float(a.depth1_mean_score)) for a in hint.actions],
                                  100)
    elif head and all(a.win_chance is not None for a in hint.actions):
        wd, md = ranking_digits([(float(a.win_chance), float(a.mean_score)) for a in hint.actions], 100)
    elif not head:
        cwd, cmd = ranking_digits([(a.clairvoyant_win_chance, a.clairvoyant_mean_score) for a in hint.actions], 100)
    for a in hint.actions:
        cwin = _pct(a.clairvoyant_win_chance, cwd)
        cmean = _num(a.clairvoyant_mean_score, cmd)
        if ci:
            if a.clairvoyant_win_low is not None:
                cwin += f" ({100 * a.clairvoyant_win_low:.1f} to {100 * a.clairvoyant_win_high:.1f})"
            if a.clairvoyant_mean_low is not None and math.isfinite(a.clairvoyant_mean_low):
                cmean += (f" ({signed(f'{a.clairvoyant_mean_low:.1f}')} to "
                          f"{signed(f'{a.clairvoyant_mean_high:.1f}')})")
        row = f"  {action_text(a.action, pretty):<{width}}  "
        if deep:
            row += f"{_pct(a.depth1_win_chance, dwd):<7}  {_num(a.depth1_mean_score, dmd):<12}  "
        if head:
            row += f"{_pct(a.win_chance, wd):<7}  {_num(a.mean_score, md):<12}  "
        out.append(row + f"{cwin:<{cw}}  {cmean}")
    return out


def _depth1_lines(d1) -> list:
    """The depth-1 figure (hint --lookahead depth1) named for what it is, or why it is absent."""
    if d1.figure == "none":
        return [f"Depth-1 belief value: not given ({d1.reason})."]
    return [f"{d1.description[0].upper()}{d1.description[1:]}.",
            f"It ranks the actions (enumerated, exact <= depth-1 <= depth-0: the tighter bound). "
            f"Counts only (rng-seed {d1.rng_seed}), the same on every machine, not cut by --time: "
            f"{d1.seconds:.2f} s."]


def _achievable_lines(hint, pretty: bool) -> list:
    """The achievable figure of the recommended action (a named policy played over sampled
    orders: a lower bound estimate), next to its clairvoyant bound; or why there is none."""
    best = hint.actions[0]
    games = getattr(best, "achievable", None)
    reason = getattr(hint, "achievable_reason", None)
    if games is None or not games.games:
        if reason in (None, "not asked", "not needed: the belief search is exact"):
            return []
        return [f"Achievable by a policy: not given ({reason})."]
    how = "every order" if games.exact else "sampled"
    n = f"{games.games:,} game{'s' if games.games != 1 else ''}"
    if games.stopped:
        n += f" of {games.planned:,} planned; the {hint.budget:g} s budget stopped the rest"
    win = f"win {100 * games.win_chance:.0f} %"
    wc = games.win_ci
    if wc is not None and not games.exact:
        win += f" [{100 * wc[0]:.0f}\u2013{100 * wc[1]:.0f} %]"
    mean = f"mean {signed(f'{games.mean_score:.1f}')}"
    mc = games.mean_ci
    if mc is not None and not games.exact:
        mean += f" [{signed(f'{mc[0]:.1f}')} to {signed(f'{mc[1]:.1f}')}]"
    elif mc is None:
        mean += " [no interval from one game]"
    return [f"  achievable by policy {games.policy} ({how}, {n}): {win}, {mean}",
            f"  (a lower bound: the hint's own rule, which cannot see the order, played to the end; "
            f"clairvoyant bound for {action_text(best.action, pretty)}: win "
            f"{100 * best.clairvoyant_win_chance:.0f} %, mean {signed(f'{best.clairvoyant_mean_score:.1f}')})"]


# ------------------------------------------------------------------ explain
def _after_step(step) -> str:
    a = step.after
    if a.finished:
        return after_room_text(a)
    return heroes_text(a)


def _step_text(step, pretty: bool) -> str:
    moves = " ".join(action_text(m, pretty) for m in step.moves)
    return f"[{cards_text(step.cards, pretty)}]".ljust(13) + f"  {moves:<14} {ARROW} {_after_step(step)}"


def _rooms_side_by_side(sides, upto, pretty: bool) -> list:
    """Rooms of one or two lines (``[(label, steps), ...]``), up to room number ``upto`` (None: all)."""
    out = []
    width = max(len(label) for label, _ in sides) + 1
    count_ = max(len(steps) for _, steps in sides)
    for i in range(count_):
        number = next(steps[i].number for _, steps in sides if i < len(steps))
        if len(sides) == 1:
            out.append(f"  Room {number:<3} {_step_text(sides[0][1][i], pretty)}")
        else:
            out.append(f"  Room {number}:")
            for label, steps in sides:
                text = _step_text(steps[i], pretty) if i < len(steps) else "(the game is over)"
                out.append(f"    {label + ':':<{width}}  {text}".rstrip())
        if upto is not None and number >= upto:
            break
    return out


def _standing_text(step) -> str:
    a = step.after
    if a.finished:
        return ("won, score " if a.won else "lost, score ") + signed(a.score)
    return "dead" if a.dead else "health " + "+".join(str(h.health) for h in a.heroes)


def _rest(steps, upto) -> str:
    rest = [s for s in steps if s.number > upto]
    return " | ".join(" ".join(str(m) for m in s.moves) for s in rest) or "(nothing: the game is over)"


def explain_lines(why, pretty: bool = False) -> list:
    """An explanation (solver/scoundrel/explain.py) for people: the verdict, the rooms up to
    where the lines part, the final figures; each figure named for what it is."""
    return _exact_explain(why, pretty) if why.kind == "exact" else _belief_explain(why, pretty)


def _line_score(side) -> str:
    if side.score is None:
        return "no complete line found"
    if side.exact:
        return f"{score_text(side.score)} (proven optimal after it)"
    if side.lo is not None and side.hi is not None and side.lo != side.hi:
        return f"{score_text(side.score)} (the best line found; the optimum lies in {signed(side.lo)} to {signed(side.hi)})"
    return f"{score_text(side.score)} (the best line found, not proven optimal)"


def _exact_explain(why, pretty: bool) -> list:
    act, best = action_text(why.action, pretty), action_text(why.best, pretty)
    mine, his = why.explained, why.compared
    out = [f"Explain {act} (exact: the order of the dungeon is known"
           + ("" if why.exact else "; NOT PROVEN: a budget stopped a search, figures are the best found") + ")."]
    if why.optimal and why.action == why.best:
        out.append(f"{act} is the best action: {_line_score(mine)}.")
    elif why.optimal:
        out.append(f"{act} is optimal too (as good as the best action listed, {best}): {_line_score(mine)}.")
    elif his is None:
        out.append(f"{act}: {_line_score(mine)}; the best action listed is {best} "
                   + ("(not proven better or worse within the budget)." if why.optimal is None else "."))
    else:
        proven = "proven worse" if why.optimal is False else "not proven worse"
        out.append(f"{act} is {proven} than the best action, {best}: {score_text(mine.score)} against "
                   f"{score_text(his.score)}.")
        if why.diverges is not None:
            out.append(f"Its best line falls behind {best}'s in room {why.diverges}.")
    out.append("")
    if his is None:
        out.append(f"The best line after {act}, room by room:")
        out.extend(_rooms_side_by_side([(f"after {act}", mine.rooms)], None, pretty))
    else:
        upto = why.diverges
        out.append("The best lines, room by room" + (f", up to room {upto}:" if upto is not None else ":"))
        sides = [(f"after {act}", mine.rooms), (f"after {best} (best)", his.rooms)]
        out.extend(_rooms_side_by_side(sides, upto, pretty))
        if upto is not None:
            a = next((s for s in mine.rooms if s.number >= upto), mine.rooms[-1])
            b = next((s for s in his.rooms if s.number >= upto), his.rooms[-1])
            out.append(f"  {ARROW} here {act} falls behind: {_standing_text(a)} against {_standing_text(b)}")
            out.append("Then:")
            out.append(f"  after {act}: {_rest(mine.rooms, upto)}")
            out.append(f"  after {best}: {_rest(his.rooms, upto)}")
    out.append("")
    final = [f"after {act}: {_final(mine)}"]
    if his is not None:
        final.append(f"after {best}: {_final(his)}")
    out.append("Final: " + "; ".join(final) + ".")
    return out


def _final(side) -> str:
    if side.score is None:
        return "no complete line found"
    verdict_ = "WON" if side.score > 0 else "LOST"
    return f"{verdict_}, score {signed(side.score)} ({count(len(side.rooms), 'room')}" + \
        ("" if side.exact else ", not proven optimal") + ")"


def _policy_row(label: str, fig, width: int) -> str:
    if not fig.games:
        return f"  {label:<{width}}  no game finished within the budget"
    wc, mc = fig.win_ci, fig.mean_ci
    win = f"win {100 * fig.win_rate:5.1f}%"
    if wc is not None and wc[0] != wc[1]:
        win += f" ({100 * wc[0]:.1f} to {100 * wc[1]:.1f})"
    mean = f"mean {signed(f'{fig.mean_score:.1f}')}"
    if mc is not None and mc[0] != mc[1]:
        mean += f" ({signed(f'{mc[0]:.1f}')} to {signed(f'{mc[1]:.1f}')})"
    return f"  {label:<{width}}  {win}, {mean}  ({count(fig.games, 'game')})"


def _belief_explain(why, pretty: bool) -> list:
    act, best = action_text(why.action, pretty), action_text(why.best, pretty)
    unseen = len(why.table.unseen)
    out = [f"Explain {act} at a real table (the order of the {count(unseen, 'unseen card')} is unknown)."]
    if why.action == why.best:
        out.append(f"{act} is the action the real-table hint recommends.")
    elif why.optimal:
        out.append(f"{act} is optimal too: the exact belief search gives it the recommended {best}'s figures.")
    else:
        out.append(f"The real-table hint recommends {best}.")
    how = "every distinct order" if why.enumerated else f"{count(why.orders_asked, 'random order')} (rng-seed {why.rng_seed})"
    paired = "" if why.compared is None else ", the same orders for both (paired)"
    what = "exact for this policy (every order played)" if why.enumerated and not why.stopped else \
        "achievable by this policy (sampled), with 95% intervals"
    out.append(f"Typical outcome, {what}: the policy played to the end over {how} of the unseen cards{paired}.")
    out.append(f"  Policy: {why.policy}.")
    labels = [f"after {act}"] + ([] if why.compared is None else [f"after {best} (recommended)"])
    width = max(len(x) for x in labels)
    out.append(_policy_row(labels[0], why.explained, width))
    if why.compared is not None:
        out.append(_policy_row(labels[1], why.compared, width))
        if why.difference is not None:
            m, ci = why.difference
            text = f"  mean score difference ({act} {MINUS} {best}): {signed(f'{m:.1f}')}"
            if ci is not None and ci[0] != ci[1]:
                text += f" ({signed(f'{ci[0]:.1f}')} to {signed(f'{ci[1]:.1f}')})"
            out.append(text)
    hint_values = {a.action: a for a in why.hint.actions}
    shown = [why.action] + ([] if why.compared is None else [why.best])
    name = {"exact": "achievable (belief search, exact)", "upper_bound": "upper bound (belief search)"}
    parts = []
    for a in shown:
        v = hint_values[a]
        text = f"{action_text(a, pretty)}: "
        if v.win_chance is not None and why.hint.achievable in name:
            text += f"{name[why.hint.achievable]} win {_pct(v.win_chance).strip()}, mean {_num(v.mean_score).strip()}; "
        text += (f"clairvoyant bound win {_pct(v.clairvoyant_win_chance).strip()}, "
                 f"mean {_num(v.clairvoyant_mean_score).strip()}")
        parts.append(text)
    out.append("  The hint's own figures: " + " | ".join(parts))
    if why.stopped:
        out.append(f"The budget stopped the playouts after {count(why.samples, 'order')} of {why.orders_asked}; "
                   f"raise --belief-seconds for more.")
    rep = why.representative
    if rep is not None:
        out.append("")
        out.append(f"A representative game (order {rep['order'] + 1}, the median score after {act}); "
                   f"the unseen cards in that order: {cards_text(rep['cards'], pretty)}")
        if rep["compared"] is None:
            out.extend(_rooms_side_by_side([(f"after {act}", rep["explained"])], None, pretty))
        else:
            upto = why.diverges
            sides = [(f"after {act}", rep["explained"]), (f"after {best}", rep["compared"])]
            out.extend(_rooms_side_by_side(sides, upto, pretty))
            if upto is not None:
                a = next((s for s in rep["explained"] if s.number >= upto), rep["explained"][-1])
                b = next((s for s in rep["compared"] if s.number >= upto), rep["compared"][-1])
                out.append(f"  {ARROW} here {act} falls behind: {_standing_text(a)} against {_standing_text(b)}")
        final = [f"after {act}: {after_room_text(rep['explained'][-1].after)}"]
        if rep["compared"] is not None:
            final.append(f"after {best}: {after_room_text(rep['compared'][-1].after)}")
        out.append("In that game: " + "; ".join(final) + ".")
    return out
