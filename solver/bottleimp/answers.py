"""The JSON answers of the ``imp`` commands, built from library calls only.

The command line and (later) the HTTP service both call these and print or send the
dict; neither builds an answer itself.  Every dict validates against the project's
schema (``$defs/imp-deal``, ``imp-replay``, ``imp-position``, ``imp-value``, ``imp-solve``,
``imp-hint``, ``imp-table-hint``, ``imp-setup-hint``, ``imp-puzzles``, ``imp-puzzle``, ``imp-daily``, ``imp-review``, ``imp-match``).

>>> from .rules import Rules
>>> answer = replay_answer(deal(42, Rules("lopaka")), "pass 1 18 | 36 37 31")
>>> answer["type"], answer["line"], answer["position"]["leader"], answer["tricks"][0]["winner"]
('imp-replay', 'pass 1 18 | 36 37 31', 'L', 'L')
"""
from __future__ import annotations

from fractions import Fraction

from .analysis import (DEFAULT_HINT_TIME, Analysis, CardHint, Explanation, MatrixGame, explain, hint, solve)
from .bots import factory
from .deal import Deal, deal  # noqa: F401  (deal: used by the example above)
from .engine import Budget
from .guarantee import NAMED as FLOOR_NAMED
from .match import NUMBERING, Match, leaders, margin, totals
from .notation import format_line, line_of, parse_line, replay
from .position import position_dict
from .puzzle import METHOD as PUZZLE_METHOD
from .puzzle import Puzzle, daily_dict
from .reference import NoValueError, solve_reference
from .review import NAMED as REVIEW_NAMED
from .review import STACK_METHOD, Review, review
from .setuphint import NAMED as SETUP_NAMED
from .setuphint import DEFAULT_SETUP_TIMES, Model, SetupHint, choice_text, setup_hint
from .setupview import SetupView, setup_view_of
from .state import Play, State
from .tablehint import NAMED, TableExplanation, TableHint, explain_table, table_hint
from .tableview import view_dict
from .worlds import View, ViewError, view_of


def deal_answer(d: Deal) -> dict:
    """``imp deal --json``: the deal object of IMP-RULES §5."""
    return d.as_dict()


def trick_records(states) -> list:
    """One record a trick completed along ``states`` (a replay): its number, who led, its
    cards in order and their coins, who won it, whether that bought the bottle, and the price
    and holder after."""
    records = []
    for before, after in zip(states, states[1:]):
        if before.in_setup or len(before.trick) != before.rules.trick_size - 1:
            continue
        last = next(c for h0, h1 in zip(before.hands, after.hands) for c in h0 if c not in h1)
        records.append({
            "number": before.tricks_done + 1,
            "leader": before.seats[before.leader],
            "cards": list(before.trick) + [last],
            "coins": before.rules.table.coins_of(before.trick + (last,)),
            "winner": after.seats[after.leader],
            "bought": after.price != before.price,
            "price": after.price,
            "holder": None if after.holder is None else after.seats[after.holder],
        })
    return records


def replay_answer(d: Deal, line_text: str) -> dict:
    """``imp replay --json``: the line in canonical notation, every completed trick, and the
    position after the line (§7; ``finished``, ``scores`` and ``value`` once the round is over)."""
    return _replayed(d.start(), line_text, d.seed, {name: list(cards) for name, cards in d.blocks.items()})


def replay_position_answer(start: State, line_text: str) -> dict:
    """``imp replay --position FILE --json``: as :func:`replay_answer`, from a position (the
    line continues it: a position inside a trick is continued with the rest of that trick);
    ``seed`` and ``deal`` are null and ``start`` is the position the line starts from."""
    return _replayed(start, line_text, None, None)


def _replayed(start: State, line_text: str, seed, blocks) -> dict:
    rules = start.rules
    segments = parse_line(line_text, rules)
    states = replay(start, segments)
    out = {"type": "imp-replay", "variant": rules.variant}
    if rules.variant == "base":
        out["players"] = rules.players
    out.update({"cards": rules.cards, "seed": seed, "deal": blocks})
    if blocks is None:
        out["start"] = position_dict(start)
    out.update({"line": format_line(line_of(start, [a for s in segments for a in s])),
                "tricks": trick_records(states),
                "position": position_dict(states[-1])})
    return out


#: The most cards in hand the pure-Python reference is asked to value from a command: 6 tricks of
#: Lopaka take it about 5 s, 7 tricks over a minute (4 tricks of Glitzerhaus: about 3 s).
MAX_REFERENCE_CARDS = 18


class TooBigError(NoValueError):
    """A position too big for the pure-Python reference solver."""


def value_answer(state: State, max_cards: int = MAX_REFERENCE_CARDS) -> dict:
    """The reference solver's answer for a play-phase position: its value, every legal card's
    value and an optimal line to the end (refused above ``max_cards`` cards in hand)."""
    if state.rules.two_player and not state.in_setup:
        left = sum(len(h) for h in state.hands)
        if left > max_cards:
            raise TooBigError(f"{left} cards are still in hand: the pure-Python reference values endgames of at "
                              f"most {max_cards} (6 tricks of Lopaka, 4 of Glitzerhaus); play further with --line")
    solved = solve_reference(state)
    return {"type": "imp-value", "value": solved["value"],
            "to_play": state.turn_name,
            "actions": [{"card": a.card, "value": v} for a, v in solved["actions"]],
            "line": format_line(line_of(state, solved["line"])),
            "positions": solved["positions"],
            "position": position_dict(state)}


# ------------------------------------------------------- double dummy
def position_after(start: State, moves_text: str) -> tuple:
    """``(state, moves)``: the position after the line prefix ``moves_text`` from ``start``
    (every move checked) and the prefix as the notation writes it."""
    segments = parse_line(moves_text, start.rules)
    state = replay(start, segments)[-1]
    return state, format_line(line_of(start, [a for s in segments for a in s]))


def fraction_json(x) -> dict:
    """An exact fraction as the answers write it: ``{"fraction": "3/7", "float": 0.428...}``."""
    x = Fraction(x)
    return {"fraction": str(x), "float": float(x)}


def _number(x):
    """A value as a JSON number: an int when whole, else a float (the fraction is given beside)."""
    if x is None:
        return None
    x = Fraction(x)
    return x.numerator if x.denominator == 1 else float(x)


def game_json(game: MatrixGame) -> dict:
    """A matrix game (the exchange, the open stacks): the cells' values (or bounds), the
    equilibrium, the game's value, the pure maximin and minimax, the most likely pair."""
    out = {"kind": game.kind, "method": game.method, "rows": list(game.rows), "columns": list(game.columns),
           "exact": game.exact, "matrix": [list(r) for r in game.matrix] if game.complete else None}
    if not game.complete:
        out["lower"] = [list(r) for r in game.lower]
        out["upper"] = [list(r) for r in game.upper]
    lo, hi = game.value_bounds
    out.update({"value": fraction_json(game.value) if game.exact else None,
                "value_lower": fraction_json(lo), "value_upper": fraction_json(hi)})
    mixes = game.mixes
    out["equilibrium"] = None if mixes is None else {
        seat: [{"option": o, "probability": fraction_json(p)} for o, p in mix] for seat, mix in mixes.items()}
    for key, seat in (("maximin", "A"), ("minimax", "B")):
        option, lo, hi = game.pure_best(seat)
        out[key] = {"option": option, "value": lo if lo == hi else None, "lower": lo, "upper": hi}
    pair = game.pair
    out["pair"] = None if pair is None else {"A": pair[0], "B": pair[1], "probability": fraction_json(pair[2])}
    if game.lazy is not None:       # imp solve --lazy: the cells not needed are bounds
        out["lazy"] = {"exact_cells": game.lazy.exact_cells, "cells": game.lazy.cells, "tests": game.lazy.tests,
                       "exact_solves": game.lazy.exact_solves, "pivots": game.lazy.pivots}
    out.update({"nodes": game.nodes, "seconds": round(game.seconds, 6)})
    return out


def _head(kind: str, start: State, moves: str, state: State, seed, blocks) -> dict:
    rules = state.rules
    out = {"type": kind, "variant": rules.variant, "cards": rules.cards, "seed": seed, "deal": blocks}
    if blocks is None:
        out["start"] = position_dict(start)
    out.update({"moves": moves, "position": position_dict(state), "to_play": state.turn_name})
    return out


def solve_json(analysis: Analysis, start: State, moves: str, seed=None, blocks=None) -> dict:
    """``imp solve --json`` of an :class:`Analysis` of the position after ``moves`` from ``start``."""
    out = _head("imp-solve", start, moves, analysis.state, seed, blocks)
    out.update({"value": _number(analysis.value), "lower": _number(analysis.lower), "upper": _number(analysis.upper),
                "exact": analysis.exact, "method": analysis.method,
                "parts": [{"part": p.part, "method": p.method, "exact": p.exact} for p in analysis.parts],
                "scores": analysis.scores, "holder": analysis.holder, "line": analysis.line_text,
                "line_value": analysis.line_value, "nodes": analysis.nodes, "seconds": round(analysis.seconds, 6)})
    if analysis.game is not None:
        out["value_fraction"] = None if analysis.value is None else str(Fraction(analysis.value))
        out["game"] = game_json(analysis.game)
    if analysis.setup:
        out["setup"] = format_line(line_of(analysis.state, analysis.setup))
    return out


def solve_answer(start: State, moves_text: str = "", seed=None, blocks=None, max_nodes: int = 0, timeout=None,
                 workers: int = None, progress=None) -> dict:
    """``imp solve --json``: the position after ``moves_text`` solved (:func:`analysis.solve`)."""
    state, moves = position_after(start, moves_text)
    analysis = solve(state, Budget(max_nodes or 0, timeout), progress, workers)
    return solve_json(analysis, start, moves, seed, blocks)


def explain_json(e: Explanation) -> dict:
    return {"card": e.card, "best": e.best, "card_value": e.card_value, "best_value": e.best_value, "cost": e.cost,
            "diverges_at": e.diverges_at, "card_line": e.card_line_text, "best_line": e.best_line_text,
            "tricks": [{"number": t.number, "best": {"cards": list(t.best_cards), "margin": t.best_margin},
                        "card": {"cards": list(t.card_cards), "margin": t.card_margin}} for t in e.tricks]}


def hint_json(h, start: State, moves: str, seed=None, blocks=None, explained: Explanation = None) -> dict:
    """``imp hint --json`` of a :class:`CardHint` or :class:`SetupHint` (and ``--explain``)."""
    out = _head("imp-hint", start, moves, h.state, seed, blocks)
    out.update({"exact": h.exact, "time": h.time})
    if isinstance(h, CardHint):
        out.update({"kind": "cards", "best": h.best,
                    "actions": [{"card": f.card, "value": f.value, "lower": f.lower, "upper": f.upper, "exact": f.exact}
                              for f in h.cards],
                    "nodes": h.nodes, "seconds": round(h.seconds, 6)})
    else:
        game = h.game
        out.update({"kind": game.kind, "game": game_json(game), "options": {
            seat: [{"option": f.option,
                    "probability": None if f.probability is None else fraction_json(f.probability),
                    "against_mix": None if f.against_mix is None else fraction_json(f.against_mix),
                    "guaranteed": f.guaranteed_lower if f.guaranteed_lower == f.guaranteed_upper else None,
                    "guaranteed_lower": f.guaranteed_lower, "guaranteed_upper": f.guaranteed_upper}
                   for f in figures] for seat, figures in h.options.items()},
            "nodes": game.nodes, "seconds": round(game.seconds, 6)})
    if explained is not None:
        out["explain"] = explain_json(explained)
    return out


def explain_card_of(text, table) -> int:
    """The card of ``--explain`` (a number or with its suit letter), its errors named so."""
    from .cards import CardError, parse_card
    try:
        return parse_card(str(text), table)
    except CardError as exc:
        raise CardError(f"--explain: {exc}") from None


def explained_card(state: State, card) -> Explanation:
    """``hint --explain CARD``'s explanation (:func:`analysis.explain`), its errors named so."""
    from ..errors import InputError
    card = explain_card_of(card, state.rules.table)
    try:
        return explain(state, card)
    except InputError as exc:
        raise type(exc)(f"--explain {card}: {exc}") from None


def hint_answer(start: State, moves_text: str = "", seed=None, blocks=None, seconds: float = DEFAULT_HINT_TIME,
                max_nodes: int = 0, explain_card: int = None, workers: int = None, progress=None) -> dict:
    """``imp hint --json``: every legal card (or setup choice) of the position after
    ``moves_text``, and with ``explain_card`` the explanation of that card."""
    state, moves = position_after(start, moves_text)
    explained = None if explain_card is None else explained_card(state, explain_card)
    h = hint(state, seconds, max_nodes, progress, workers)
    return hint_json(h, start, moves, seed, blocks, explained)


# ------------------------------------------------------- the review of a round
def _margin(out: dict, key: str, m) -> dict:
    """``key``: the margin (an int), or null with ``key_lower``/``key_upper``, the bounds proven."""
    out[key] = m.value
    if not m.exact:
        out[key + "_lower"], out[key + "_upper"] = m.lower, m.upper
    return out


def _per_seat(out: dict, key: str, margins: dict, number=lambda x: x) -> dict:
    """``key``: A's and B's margins (ints, a player's null if not exact), with ``key_lower`` and
    ``key_upper`` beside them unless both are exact (``number``: how a value is written)."""
    out[key] = {seat: None if m.value is None else number(m.value) for seat, m in margins.items()}
    if not all(m.exact for m in margins.values()):
        out[key + "_lower"] = {seat: number(m.lower) for seat, m in margins.items()}
        out[key + "_upper"] = {seat: number(m.upper) for seat, m in margins.items()}
    return out


def _fraction_margin(m) -> dict:
    """A margin that may be a fraction (an open-stack game's value): ``{"value": {"fraction",
    "float"} or null, "lower", "upper"}`` (the bounds as numbers)."""
    return {"value": None if not m.exact else fraction_json(m.lower), "lower": _number(m.lower),
            "upper": _number(m.upper)}


def _pair_text(pair) -> str:
    return f"{pair[0]}/{pair[1]}"


def _stack_review_json(st) -> dict:
    """A Glitzerhaus stack step of the review (:class:`.review.StackReview`)."""
    out = {"step": f"s{st.stack}", "move": format_line([[st.action]]), "method": STACK_METHOD[st.stack]}
    for c in st.choices:
        out[c.seat] = {"choice": _pair_text(c.choice), "value": _fraction_margin(c.value),
                       "best": [_pair_text(b) for b in c.best], "best_value": _fraction_margin(c.best_value),
                       "loss": _fraction_margin(c.loss),
                       "options": [{"choice": _pair_text(o), **_fraction_margin(m)} for o, m in c.options]}
    return out


def _card_review_json(c) -> dict:
    out = {"seat": c.seat, "card": c.card}
    _margin(out, "before", c.before)
    _margin(out, "after", c.after)
    if c.loss is None:
        out["loss"] = None
    else:
        _margin(out, "loss", c.loss)
    out.update({"best": list(c.best), "forced": c.forced, "by_rule": c.by_rule, "exact": c.exact,
                "values": [{"card": card, "value": m.value, "lower": m.lower, "upper": m.upper, "exact": m.exact}
                           for card, m in c.values]})
    return out


def _game_review_json(g) -> dict:
    out = {"kind": g.game.kind, "move": format_line([[g.action]]), "named": REVIEW_NAMED, "exact": g.exact,
           "game": game_json(g.game), "value": fraction_json(g.game.value) if g.exact else None,
           "played": {"A": g.played[0], "B": g.played[1]}}
    _margin(out, "played_value", g.played_value)
    for choice in g.choices:
        side = {"choice": choice.choice, "best": list(choice.best)}
        _margin(side, "best_value", choice.best_value)
        _margin(side, "loss", choice.loss)
        out[choice.seat] = side
    return out


def review_json(r: Review, seed=None, blocks=None) -> dict:
    """``imp review --json`` of a :class:`Review`."""
    rules = r.start.rules
    records = {t["number"]: t for t in trick_records(r.states)}
    tricks = []
    for number, cards in r.tricks:
        done = records.get(number) if not r.states[cards[-1].index + 1].trick else None
        first = r.states[cards[0].index]
        tricks.append({"number": number, "leader": first.seats[first.leader],
                       "cards": [_card_review_json(c) for c in cards], "complete": done is not None,
                       **{k: None if done is None else done[k] for k in ("coins", "winner", "bought", "price",
                                                                          "holder")}})
    out = {"type": "imp-review", "variant": rules.variant, "cards": rules.cards, "seed": seed, "deal": blocks,
           "line": format_line(line_of(r.start, r.actions)), "named": REVIEW_NAMED, "exact": r.exact,
           "setup": [{"step": s.step, "move": format_line([[s.action]]), "analysed": s.analysed, "method": s.method,
                      "reason": s.reason} for s in r.setup],
           "exchange": None if r.exchange is None else _game_review_json(r.exchange),
           "open_stacks": None if r.open_stacks is None else _game_review_json(r.open_stacks)}
    for key, m in (("play_value", r.play_value), ("end_value", r.end_value)):
        if m is None:
            out[key] = None
        else:
            _margin(out, key, m)
    out.update({"tricks": tricks, "finished": r.finished, "scores": r.scores, "margin": r.margin,
                "holder": r.holder})
    _per_seat(out, "total_loss", {seat: r.total_loss(seat) for seat in ("A", "B")})
    if r.setup_games or r.stacks:
        _per_seat(out, "setup_loss", {seat: r.setup_loss(seat) for seat in ("A", "B")}, _number)
    else:
        out["setup_loss"] = None
    out["stacks"] = [_stack_review_json(st) for st in r.stacks]
    out.update({"position": position_dict(r.final), "nodes": r.nodes, "seconds": round(r.seconds, 6)})
    return out


def review_answer(start: State, line_text: str = "", seed=None, blocks=None, max_nodes: int = 0, timeout=None,
                  workers: int = None, progress=None, stacks: bool = True) -> dict:
    """``imp review --json``: the double-dummy review of ``line_text`` played from ``start``
    (``stacks``: Glitzerhaus's stack steps too)."""
    return review_json(review(start, line_text, Budget(max_nodes or 0, timeout), workers=workers,
                              progress=progress, stacks=stacks), seed, blocks)


def match_answer(match: Match, lines="") -> dict:
    """``imp match --json``: the match's rounds (each one's deal number, dealer and seats) and the
    running score after the rounds played (``lines``: their lines, :meth:`.match.Match.played`)."""
    results = match.played(lines)
    rules = match.rules
    out = {"type": "imp-match", "variant": rules.variant}
    if rules.variant == "base":
        out["players"] = rules.players
    out.update({"cards": rules.cards, "seed": match.seed, "rounds": match.rounds, "numbering": NUMBERING,
                "deals": [{"round": k, "seed": match.round_seed(k), "dealer": match.dealer(k),
                           "seats": {str(p): seat for p, seat in match.seats(k).items()}}
                          for k in range(1, match.rounds + 1)],
                "played": [{"round": r.number, "seed": r.seed, "line": r.line,
                            "scores": {str(p): v for p, v in r.scores.items()}, "seat_scores": r.seat_scores,
                            "value": r.final.value(),
                            "holder": r.final.seats[r.final.holder]} for r in results],
                "totals": {str(p): v for p, v in totals(match, results).items()},
                "margin": margin(match, results), "leaders": list(leaders(match, results)),
                "finished": len(results) == match.rounds,
                "next_round": len(results) + 1 if len(results) < match.rounds else None})
    return out


# ------------------------------------------------------- at a real table
def table_explain_json(e: TableExplanation) -> dict:
    def world(w):
        return None if w is None else {"cost": w[0], "opponent_hand": list(w[1]), "devil": list(w[2])}
    return {"card": e.card, "recommended": e.recommended, "worlds": e.worlds, "same": e.same, "worse": e.worse,
            "better": e.better, "mean_cost": fraction_json(e.mean_cost), "costliest": world(e.costliest),
            "best_for_card": world(e.best_for_card)}


def achieved_json(a) -> dict:
    """What the recommended card achieved, played out over the worlds (:func:`.tablehint.achieved`)."""
    return {"card": a.card, "player": a.player, "opponent": a.opponent, "worlds": len(a.margins),
            "mean": a.mean, "ci95": None if a.ci95 is None else list(a.ci95), "margins": list(a.margins)}


def table_hint_json(h: TableHint, view: View, seconds: float, seed=None, moves=None,
                    explained: TableExplanation = None, against: str = None) -> dict:
    """``imp hint --table --json``: the real-table hint of ``view`` (``seed`` and ``moves`` when it
    came from a deal, else null), each figure named for what it is (:data:`.tablehint.NAMED`);
    with ``against`` (a bot's name) what the recommended card achieved against it, if played out."""
    rules = view.rules
    g = h.guarantee
    out = {"type": "imp-table-hint", "variant": rules.variant, "cards": rules.cards, "seed": seed, "moves": moves,
           "view": view_dict(view), "seat": h.seat, "named": NAMED,
           "worlds_total": h.worlds_total, "worlds_solved": h.worlds_solved, "complete": h.complete,
           "recommended": h.recommended,
           "actions": [{"card": f.card, "mean": fraction_json(f.mean), "best_share": fraction_json(f.best_share),
                        "low": f.low, "high": f.high,
                        "floor": None if g is None else fraction_json(g.floor_of(f.card))} for f in h.cards],
           "guarantee": None if g is None else {"named": FLOOR_NAMED, "best": g.best, "worlds": g.worlds,
                                                "nodes": g.nodes},
           "time": seconds, "seconds": round(h.seconds, 6)}
    if against is not None:
        out["against"] = against
        out["achieved"] = None if h.achieved is None else achieved_json(h.achieved)
    if explained is not None:
        out["explain"] = table_explain_json(explained)
    return out


def _choice_json(choice) -> dict:
    out = {"choice": choice_text(choice)}
    if isinstance(choice, tuple):
        out.update({"devil": choice[0], "pass": choice[1]})
    return out


def setup_hint_json(h: SetupHint, view_json: dict, seed=None, moves=None, seconds=None) -> dict:
    """``imp hint --table --json`` at a setup step: each choice's figures over the drawn deals,
    named for what they are (:data:`.setuphint.NAMED`) under the named model."""
    rules_variant = view_json["variant"]
    cands = []
    for c in h.candidates:
        item = _choice_json(c.choice)
        if rules_variant == "lopaka":
            item["card"] = c.choice
        elif h.step == "open":
            item["open"] = c.choice
        item.update({"same_as": [choice_text(m) for m in c.same_as], "mean": fraction_json(c.mean),
                     "ci95": None if c.ci95 is None else [round(c.ci95[0], 4), round(c.ci95[1], 4)],
                     "best_share": fraction_json(c.best_share), "deals": c.deals})
        cands.append(item)
    diff = None
    if h.difference is not None:
        mean, ci = h.difference
        diff = {"mean": round(mean, 4), "ci95": None if ci is None else [round(ci[0], 4), round(ci[1], 4)]}
    return {"type": "imp-setup-hint", "variant": rules_variant, "cards": view_json["cards"], "seed": seed,
            "moves": moves, "view": view_json, "seat": h.seat, "step": h.step, "named": SETUP_NAMED,
            "model": {"opponent": h.model.opponent, "opponent_text": h.opponent_text, "later": h.later_text},
            "choices": h.choices, "candidates": cands,
            "recommended": choice_text(h.recommended), "runner_up": None if h.runner_up is None else choice_text(
                h.runner_up),
            "difference": diff, "clear": h.clear, "deals": h.deals, "samples": h.samples,
            "time": None if h.samples else seconds, "seconds": round(h.seconds, 6)}


def setup_view_after(start: State, moves_text: str = "", seat: str = None) -> tuple:
    """``(view, view JSON, moves)``: what ``seat`` (``A`` or ``B``; default A, as either player may
    ask at a simultaneous step) knows after the setup steps ``moves_text``."""
    from .game import setup_view_dict
    segments = parse_line(moves_text, start.rules)
    actions = [a for s in segments for a in s]
    state = replay(start, segments)[-1]
    index = start.rules.seats.index(seat or "A")
    return setup_view_of(start, actions, index), setup_view_dict(state, actions, index), format_line(
        line_of(start, actions))


def setup_hint_answer(start: State, moves_text: str = "", seat: str = None, seed=None, samples: int = 0,
                      seconds: float = 0.0, opponent: str = None, workers: int = None, progress=None) -> dict:
    """``imp hint --table --json`` at a setup step, from a deal and the setup so far; without
    ``samples``, ``seconds`` None is the step's default time (``setuphint.DEFAULT_SETUP_TIMES``)."""
    view, view_json, moves = setup_view_after(start, moves_text, seat)
    if not samples and seconds is None:
        seconds = DEFAULT_SETUP_TIMES[view.step_name]
    h = setup_hint(view, samples, seconds, None if opponent is None else Model(opponent), workers, progress)
    return setup_hint_json(h, view_json, seed, moves, seconds)


def table_view_after(start: State, moves_text: str = "", seat: str = None) -> tuple:
    """``(view, moves)``: what the player to move after ``moves_text`` knows (``seat``, if given,
    must be that player) and the moves as the notation writes them."""
    segments = parse_line(moves_text, start.rules)
    actions = [a for s in segments for a in s]
    state = replay(start, segments)[-1]
    moves = format_line(line_of(start, actions))
    if state.in_setup:
        raise ViewError("the real-table hint starts with the play phase: give the setup in --moves")
    if state.finished:
        raise ViewError("the round is over: nothing to play")
    if state.lopaka_to_play:
        raise ViewError("Lopaka is to play (his rule decides): the table hint is for A or B")
    to_play = state.turn_name
    if seat is not None and seat != to_play:
        raise ViewError(f"--seat {seat}: it is {to_play}'s turn after the moves; the table hint is for the player "
                        f"to move")
    return view_of(start, actions, state.turn), moves


def table_explain_card(view: View, text) -> int:
    """The card of ``hint --table --explain CARD``: a card the seat may play here."""
    from .worlds import worlds
    card = explain_card_of(text, view.rules.table)
    world = next(worlds(view))
    if world.turn == view.seat and card not in world.legal_cards():
        raise ViewError(f"--explain {card}: not a card {view.rules.seats[view.seat]} can play here (legal: "
                        f"{' '.join(map(str, world.legal_cards()))})")
    return card


def in_setup_after(start: State, moves_text: str = "") -> bool:
    """Is a setup step due after ``moves_text`` (every move checked)?"""
    return replay(start, parse_line(moves_text, start.rules))[-1].in_setup


def table_hint_answer(start: State, moves_text: str = "", seat: str = None, seed=None,
                      seconds: float = DEFAULT_HINT_TIME, workers: int = None, progress=None,
                      explain_card: int = None, against: str = None, samples: int = 0, opponent: str = None,
                      setup_progress=None) -> dict:
    """``imp hint --table --json`` from a deal: the view of the player to move after ``moves_text``;
    at a setup step the setup hint of ``seat`` (default A) over ``samples`` drawn deals or within
    ``seconds`` (:func:`setup_hint_answer`; ``setup_progress(deals, left)``)."""
    if not start.rules.two_player:
        raise ViewError("the real-table hint is for Lopaka and Glitzerhaus (the base game has no "
                        "double-dummy value here, IMP-RULES §8)")
    if in_setup_after(start, moves_text):
        for name, value in (("--explain", explain_card), ("--against", against)):
            if value is not None:
                raise ViewError(f"{name} belongs to the play phase's real-table hint; at a setup step the hint "
                                f"lists every choice")
        return setup_hint_answer(start, moves_text, seat, seed, samples, 0 if samples else seconds, opponent, workers,
                                 setup_progress)
    for name, value in (("--samples", samples), ("--opponent", opponent)):
        if value:
            raise ViewError(f"{name} belongs to the setup hint; after these moves the play phase has begun, and its "
                            f"real-table hint solves the worlds within --time")
    view, moves = table_view_after(start, moves_text, seat)
    if explain_card is not None:
        explain_card = table_explain_card(view, explain_card)
    h = table_hint(view, seconds, workers, progress, achieve_against=None if against is None else factory(against))
    explained = None if explain_card is None else explain_table(view, h, explain_card)
    return table_hint_json(h, view, seconds, seed, moves, explained, against)


# ------------------------------------------------------ a game against bots
def game_answer(d: Deal, line_text: str = "", seat: str = "A", bot: str = "lopaka-rule", bot_seed: int = 0,
                move: str = None, reveal: bool = False) -> dict:
    """``imp play --json`` (one step; the service's ``/api/imp/game``): the game of ``d`` after
    ``line_text``, the bots' moves to the human's turn, the human's ``move`` and the bots' moves
    after it (:func:`.game.step`).  What the seat sees is ``view``; the whole position (every
    hidden card) only with ``reveal`` or once the round is over."""
    from .game import options, seat_view, seen_line, seen_segment, step, task
    g = step(d, line_text, seat, bot, bot_seed, move)
    state, rules = g.state, d.rules
    played = []
    for i in range(g.before, len(g.actions)):
        action, at = g.actions[i], g.states[i]
        if isinstance(action, Play) and i != g.moved:
            played.append({"seat": rules.seats[at.seat_of_card(len(at.trick))], "card": action.card})
    out = {"type": "imp-game", "variant": rules.variant, "cards": rules.cards, "seed": d.seed,
           "seat": rules.seats[g.human], "bot": bot, "bot_seed": bot_seed, "reveal": reveal,
           "move": None if g.moved is None else seen_segment(g.start, line_of(g.states[g.moved], [g.actions[g.moved]])[0],
                                                                g.human),
           "line": g.line_text, "seen_line": seen_line(g), "played": played,
           "tricks": trick_records(g.states[g.before:]),
           "task": task(state), "to_move": g.human_to_move, "options": options(g), "view": seat_view(g),
           "finished": state.finished,
           "scores": state.scores() if state.finished else None,
           "value": state.value() if state.finished else None,
           "position": position_dict(state) if reveal or state.finished else None}
    return out


# ------------------------------------------------------ puzzles and the daily
def puzzles_answer(puzzles, rules, tricks_left: int, seed: int, count: int, reveal: bool = False) -> dict:
    """``imp puzzle --json``: the puzzles found (each an ``imp-puzzle`` object) and what was asked."""
    return {"type": "imp-puzzles", "variant": rules.variant, "cards": rules.cards, "tricks_left": tricks_left,
            "seed": seed, "count": count, "method": PUZZLE_METHOD, "reveal": reveal,
            "puzzles": [p.as_dict(reveal) for p in puzzles]}


def daily_answer(p: Puzzle, date, reveal: bool = False) -> dict:
    """``imp daily --json``: the daily puzzle of ``date`` (:func:`.puzzle.daily_dict`)."""
    return daily_dict(p, date, reveal)


__all__ = ["achieved_json", "daily_answer", "deal_answer", "explain_card_of", "explain_json", "explained_card", "fraction_json", "game_answer", "game_json", "hint_answer", "hint_json",
           "position_after", "puzzles_answer", "replay_answer", "review_answer", "review_json", "solve_answer", "solve_json", "table_explain_card", "table_explain_json",
           "table_hint_answer", "table_hint_json", "table_view_after", "trick_records", "value_answer"]
