"""Move notation of RULES §7: parse, print, round trips, replay and its errors."""
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoundrel_solver.scoundrel.cards import JOKER, PRETTY_SUIT, full_pack, parse_card, parse_cards
from scoundrel_solver.scoundrel.deal import deal
from scoundrel_solver.scoundrel.notation import (
    NotationError, format_line, format_room, parse_action, parse_line, parse_room,
    replay, resolved_line,
)
from scoundrel_solver.scoundrel.rules import Rules
from scoundrel_solver.scoundrel.state import AVOID, BARE, WEAPON_MODE, Avoid, Hero, IllegalMove, State, Take

C = parse_card


# ----------------------------------------------------------------------- takes
@pytest.mark.parametrize("text,take", [
    ("TD", Take(C("TD"))),
    ("QSw", Take(C("QS"), WEAPON_MODE)),
    ("4Sb", Take(C("4S"), BARE)),
    ("TD>", Take(C("TD"), None, True)),
    ("KHw>", Take(C("KH"), WEAPON_MODE, True)),
    ("KHb>", Take(C("KH"), BARE, True)),
    ("JKb", Take(JOKER, BARE)),
    ("JKw>", Take(JOKER, WEAPON_MODE, True)),
    ("6H", Take(C("6H"))),
    ("6H>", Take(C("6H"), None, True)),
    ("AC", Take(C("AC"))),          # mode left out: filled in at replay time
    ("AC>", Take(C("AC"), None, True)),
])
def test_take_round_trip(text, take):
    assert parse_action(text) == take
    assert str(take) == text
    assert str(parse_action(text)) == text


def test_avoid_round_trip():
    assert parse_action("avoid") is AVOID
    assert isinstance(parse_action("AVOID"), Avoid)
    assert str(AVOID) == "avoid"


@pytest.mark.parametrize("text,canonical", [
    ("10♦", "TD"), ("10d>", "TD>"), ("qsW", "QSw"), ("q♠b", "QSb"), ("4sB", "4Sb"),
    ("jk", "JK"), ("jkw>", "JKw>"), ("k♥w>", "KHw>"), (" Avoid ", "avoid"), ("t♣", "TC"),
])
def test_take_input_variants(text, canonical):
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize("token", ["ZZ", "1OS", "TD>>", "w", ">", "♦", "10", "JKK", "4Sx", "TDW", "6Hb",
                                   "JKb>>", "avoid>", "KHw>w"])
def test_bad_take_names_token(token):
    with pytest.raises(NotationError) as err:
        parse_action(token)
    assert repr(token) in str(err.value)


@pytest.mark.parametrize("token", ["TDw", "6Hb", "2Dw>"])
def test_fight_mode_on_non_monster(token):
    with pytest.raises(NotationError, match="only applies to monsters"):
        parse_action(token)


def test_every_card_every_form_round_trips():
    for card in full_pack():
        forms = [""] if not card.is_monster else ["", "w", "b"]
        for mode in forms:
            for help_ in ("", ">"):
                text = f"{card}{mode}{help_}"
                assert str(parse_action(text)) == text
                assert str(parse_action(text.lower())) == text
                if card is not JOKER:
                    rank = "10" if card.rank == 10 else str(card)[0]
                    assert str(parse_action(rank + PRETTY_SUIT[card.suit] + mode + help_)) == text


# ------------------------------------------------------------------ rooms/lines
def test_rooms():
    assert format_room(parse_room("TD> 6H 4Sb")) == "TD> 6H 4Sb"
    assert [str(a) for a in parse_room("TD>, 6H,4Sb")] == ["TD>", "6H", "4Sb"]
    assert parse_room("avoid") == [AVOID]
    assert parse_room("") == []
    with pytest.raises(NotationError, match="'avoid' must stand alone"):
        parse_room("avoid TD")
    with pytest.raises(NotationError, match="'ZZ'"):
        parse_room("TD> ZZ 4Sb")


@pytest.mark.parametrize("text", [
    "TD> 6H 4Sb",
    "TD> 6H 4Sb | KHw",
    "avoid | QSw 2Cb 3H",
    "4H 3H 5Cb | avoid | 5Sb TSw 8Sb",
    "JKb JKw> 2S | avoid | TD 9Cw KHb>",
    "avoid",
])
def test_line_round_trip(text):
    assert format_line(parse_line(text)) == text


def test_line_structure():
    line = parse_line("TD> 6H 4Sb | avoid | KHw")
    assert line == [[Take(C("TD"), None, True), Take(C("6H")), Take(C("4S"), BARE)],
                    [AVOID], [Take(C("KH"), WEAPON_MODE)]]
    assert parse_line("") == [] and parse_line("   ") == []
    assert format_line([]) == ""
    assert format_line(parse_line("td>  6h|avoid|khW")) == "TD> 6H | avoid | KHw"


@pytest.mark.parametrize("text,match", [
    ("TD |", "room 2 is empty"),
    ("| TD", "room 1 is empty"),
    ("TD | | 4S", "room 2 is empty"),
    ("TD 4S | avoid 2C", "must stand alone"),
    ("TD 4S | 2C X9", "'X9'"),
])
def test_bad_lines(text, match):
    with pytest.raises(NotationError, match=match):
        parse_line(text)


def test_notation_error_is_value_error():
    assert issubclass(NotationError, ValueError)


# hypothesis: canonical lines print back exactly
_card_texts = [str(c) for c in full_pack()]


@st.composite
def canonical_take(draw):
    card = parse_card(draw(st.sampled_from(_card_texts)))
    mode = draw(st.sampled_from(["w", "b"])) if card.is_monster else ""
    return f"{card}{mode}{draw(st.sampled_from(['', '>']))}"


canonical_room = st.one_of(st.just("avoid"), st.lists(canonical_take(), min_size=1, max_size=4).map(" ".join))
canonical_line = st.lists(canonical_room, min_size=1, max_size=8).map(" | ".join)


@settings(max_examples=200, deadline=None)
@given(canonical_line)
def test_generated_lines_round_trip(text):
    rooms = parse_line(text)
    assert format_line(rooms) == text
    assert parse_line(format_line(rooms)) == rooms


def _variant(token, style):
    if token == "avoid":
        return token.upper() if style else token
    card = parse_card(token[:2])
    rest = token[2:]
    if style == 1:
        return token.lower()
    if style == 2 and card is not JOKER:
        rank = "10" if card.rank == 10 else str(card)[0]
        return rank + PRETTY_SUIT[card.suit] + rest.upper()
    return token


@settings(max_examples=100, deadline=None)
@given(canonical_line, st.lists(st.integers(0, 2), min_size=40, max_size=40))
def test_generated_input_variants_parse_to_canonical(text, styles):
    rooms = [r.split(" ") for r in text.split(" | ")]
    i = 0
    variant_rooms = []
    for room in rooms:
        out = []
        for token in room:
            out.append(_variant(token, styles[i % len(styles)]))
            i += 1
        variant_rooms.append(",  ".join(out))
    assert format_line(parse_line(" |".join(variant_rooms))) == text


# ---------------------------------------------------------------------- replay
SOLO42 = State.new(deal(42))   # 4H 3H 5C 5D | 5S TS 8S ...


def test_replay_returns_every_state():
    states = replay(SOLO42, parse_line("4H 3H 5Cb | avoid | KCb"))
    assert len(states) == 6 and states[0] is SOLO42
    assert states[3].rooms_done == 1 and states[3].room == tuple(parse_cards("5D 5S TS 8S"))
    assert states[4].avoided_last
    assert states[-1].heroes[0].health == 2
    assert replay(SOLO42, []) == [SOLO42]


def test_replay_last_room_may_stop_part_way():
    states = replay(SOLO42, parse_line("4H 3H 5Cb | 5D"))
    assert states[-1].taken == 1 and states[-1].heroes[0].weapon == 5


def test_replay_fills_in_fight_mode():
    end = replay(SOLO42, parse_line("4H 3H 5C"))[-1]
    assert end.heroes[0].health == 15
    end = replay(SOLO42, parse_line("5D 5C 4H"))[-1]
    assert end.heroes[0].health == 20 and end.heroes[0].last_kill == 5
    assert format_line(resolved_line(SOLO42, parse_line("5D 5C 4H | 5S"))) == "5D 5Cw 4H | 5Sb"
    assert format_line(resolved_line(SOLO42, parse_line("4H 3H 5C"))) == "4H 3H 5Cb"


@pytest.mark.parametrize("line,pieces", [
    ("5Cw", ["5Cw", "room 1", "4H 3H 5C 5D", "no weapon is equipped"]),
    ("KS", ["KS", "room 1", "not in the room"]),
    ("avoid | avoid", ["avoid", "room 2", "5S TS 8S 7H", "previous room was avoided"]),
    ("4H 3H 5Cb | avoid | avoid", ["avoid", "room 3", "previous room was avoided"]),
    ("4H avoid", None),   # a NotationError, see below
    ("4H 3H 5Cb | 5D 8Sw 5Sw | TSw", ["TSw", "room 3", "7H 2D KC", "last kill is 5", "below"]),
    ("4H 3H 5Cb 5D", ["5D", "room 1", "already complete"]),
    ("4H | avoid", ["room 1", "not complete", "2 more"]),
    ("4H 3H | 5C", ["room 1", "(5C 5D)", "not complete", "1 more"]),
])
def test_replay_errors_name_move_room_reason(line, pieces):
    if pieces is None:
        with pytest.raises(NotationError):
            parse_line(line)
        return
    with pytest.raises(IllegalMove) as err:
        replay(SOLO42, parse_line(line))
    for piece in pieces:
        assert piece in str(err.value)


def test_replay_help_errors():
    with pytest.raises(IllegalMove, match=r"TD> is illegal in room 1 .*no partner"):
        replay(State.new(parse_cards("TD 2S 3S 4S 5S")), parse_line("TD>"))
    coop = State.new(parse_cards("TD 6H 2S 4S 5S"), Rules(mode="coop"))
    with pytest.raises(IllegalMove, match=r"6H> is illegal in room 1 .*help card .*already given"):
        replay(coop, parse_line("TD> 6H>"))


def test_replay_after_game_over():
    two = State.new(parse_cards("2S 3S"))
    with pytest.raises(IllegalMove, match=r"4S is illegal after room 1 .*game is already over \(won\)"):
        replay(two, parse_line("2S 3S 4S"))
    with pytest.raises(IllegalMove, match=r"2S is illegal after room 1 .*already over"):
        replay(two, parse_line("2S 3S | 2S"))
    dead = State.new(parse_cards("KS QS AS 2H 3H"))
    with pytest.raises(IllegalMove, match=r"ASb is illegal in room 1: the game is already over \(lost\)"):
        replay(dead, parse_line("KSb QSb ASb"))
    with pytest.raises(IllegalMove, match="already over"):
        replay(dead, parse_line("KSb QSb | 2H"))
    # a line may end as soon as the game ends, even mid-room
    assert replay(dead, parse_line("KSb QSb"))[-1].dead


def test_anna_and_ben_by_notation():
    start = State.new(parse_cards("TD KH 6H 4S 2C 5C 3H 7S"), Rules(mode="coop"))
    s = replace(start, heroes=(Hero(9, 8, 12), Hero(17)))
    end = replay(s, parse_line("TD> 6H 4Sb | KHw"))[-1]
    assert end.heroes == (Hero(11, 8, 12), Hero(14, 10, 13))
    assert format_line(resolved_line(s, parse_line("TD> 6H 4Sb | KH"))) == "TD> 6H 4Sb | KHw"
    # left out, the fight mode means "with the weapon if it may be used": Anna's 8♦ may
    assert format_line(resolved_line(s, parse_line("TD> 6H 4S"))) == "TD> 6H 4Sw"
