"""A referee written apart from the engine: a second, deliberately plain implementation
of the Bottle Imp's trick and scoring rules (IMP-RULES §1-§4), for differential tests.

It shares no code with ``scoundrel_solver.bottleimp``: its own copy of the card tables
(typed again from the rule book), its own seats, turn order, following, trick winner,
Lopaka's rule, setup and scores, on plain lists and dicts.  It is slow and simple on
purpose.
"""

CLASSIC = {
    "yellow": "1:1 2:1 3:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6",
    "blue": "4:1 6:1 8:2 10:2 13:3 17:3 20:4 24:4 27:5 30:5 32:6 34:6",
    "red": "11:1 14:1 16:2 21:2 23:3 26:3 29:4 31:4 33:5 35:5 36:6 37:6",
}
MATAGOT = {
    "red": "1:1 2:1 4:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6",
    "blue": "3:1 6:1 8:2 10:2 13:3 17:4 20:4 23:4 27:5 30:5 32:6 35:6",
    "green": "11:1 14:1 16:2 21:2 24:3 26:3 29:4 31:4 33:5 34:5 36:6 37:6",
}


def read_table(rows):
    suit_of, coins_of = {}, {}
    for suit, text in rows.items():
        for pair in text.split():
            number, coins = pair.split(":")
            suit_of[int(number)] = suit
            coins_of[int(number)] = int(coins)
    return suit_of, coins_of


TABLES = {"classic": read_table(CLASSIC), "matagot": read_table(MATAGOT)}


class Referee:
    """One round, played step by step.  ``players`` is the list of who plays in turn
    order: ["A", "L", "B"] (Lopaka), ["A", "B"] (Glitzerhaus), ["1", ..., "n"] (base)."""

    def __init__(self, variant, card_table, blocks, players=None):
        self.variant = variant
        self.suit_of, self.coins_of = TABLES[card_table]
        self.price = 19
        self.bottle = None
        self.devil = []
        self.piles = {}
        self.trick = []           # list of (player, holding key, card)
        self.setup_left = []
        if variant == "lopaka":
            self.players = ["A", "L", "B"]
            self.holdings = {"A": list(blocks["A"]), "L": list(blocks["L"]), "B": list(blocks["B"])}
            self.devil = list(blocks["devil"])
            self.setup_left = ["pass"]
        elif variant == "glitzerhaus":
            self.players = ["A", "B"]
            self.holdings = {"A1": list(blocks["A1"]), "A2": list(blocks["A2"]),
                             "B1": list(blocks["B1"]), "B2": list(blocks["B2"])}
            self.setup_left = ["s1", "s2", "open"]
        else:
            self.players = [str(i) for i in range(1, players + 1)]
            self.holdings = {p: list(blocks[p]) for p in self.players}
            self.setup_left = ["pass"]
        for p in self.players:
            self.piles[p] = []
        self.leader = self.players[0]

    # ------------------------------------------------------------ setup
    def lopaka_pass(self, a_gives, b_gives):
        assert self.setup_left == ["pass"]
        assert a_gives in self.holdings["A"] and b_gives in self.holdings["B"]
        self.holdings["A"].remove(a_gives)
        self.holdings["B"].remove(b_gives)
        self.holdings["A"].append(b_gives)
        self.holdings["B"].append(a_gives)
        self.setup_left = []

    def glitz_stack(self, number, a_down, a_gives, b_down, b_gives):
        assert self.setup_left[0] == "s" + str(number)
        a_stack, b_stack = self.holdings["A" + str(number)], self.holdings["B" + str(number)]
        for card, stack in ((a_down, a_stack), (a_gives, a_stack), (b_down, b_stack), (b_gives, b_stack)):
            assert card in stack
        assert a_down != a_gives and b_down != b_gives
        for card in (a_down, a_gives):
            a_stack.remove(card)
        for card in (b_down, b_gives):
            b_stack.remove(card)
        a_stack.append(b_gives)
        b_stack.append(a_gives)
        self.devil += [a_down, b_down]
        self.setup_left.pop(0)

    def glitz_open(self, a_open, b_open):
        assert self.setup_left == ["open"]
        new = {}
        for p, choice in (("A", a_open), ("B", b_open)):
            other = 3 - choice
            new[p + " open"] = self.holdings[p + str(choice)]
            new[p + " hand"] = self.holdings[p + str(other)]
        self.holdings = new
        self.setup_left = []

    def base_pass(self, triples):
        assert self.setup_left == ["pass"]
        n = len(self.players)
        incoming = {p: [] for p in self.players}
        for i, p in enumerate(self.players):
            left, right, down = triples[i]
            assert len({left, right, down}) == 3
            for card in (left, right, down):
                assert card in self.holdings[p]
                self.holdings[p].remove(card)
            incoming[self.players[(i + 1) % n]].append(left)     # the left neighbour is the next seat
            incoming[self.players[(i - 1) % n]].append(right)
            self.devil.append(down)
        for p in self.players:
            self.holdings[p] += incoming[p]
        self.setup_left = []

    # ------------------------------------------------------------- play
    def trick_length(self):
        return 4 if self.variant == "glitzerhaus" else len(self.players)

    def whose_turn(self):
        """(player, holding key) of the next card."""
        k = len(self.trick)
        if self.variant == "glitzerhaus":
            other = "B" if self.leader == "A" else "A"
            player = self.leader if k % 2 == 0 else other
            return player, player + (" open" if k < 2 else " hand")
        i = self.players.index(self.leader)
        player = self.players[(i + k) % len(self.players)]
        return player, player

    def allowed(self):
        player, key = self.whose_turn()
        cards = self.holdings[key]
        if not self.trick:
            allowed = sorted(cards)
        else:
            suit = self.suit_of[self.trick[0][2]]
            same = [c for c in cards if self.suit_of[c] == suit]
            allowed = sorted(same) if same else sorted(cards)
        if self.variant == "lopaka" and player == "L":
            return [self.lopaka_card(allowed)]
        return allowed

    def winner_of(self, cards):
        """Index of the winning card, and whether it buys the bottle."""
        low = [c for c in cards if c < self.price]
        if len(low) > 0:
            return cards.index(max(low)), True
        return cards.index(max(cards)), False

    def lopaka_card(self, allowed):
        if not self.trick:
            return max(self.holdings["L"])
        on_table = [t[2] for t in self.trick]
        can_win = []
        for c in allowed:
            i, _ = self.winner_of(on_table + [c])
            if i == len(on_table):
                can_win.append(c)
        if can_win:
            return max(can_win)
        return min(allowed)

    def play(self, card):
        assert not self.setup_left
        assert card in self.allowed(), (card, self.allowed())
        player, key = self.whose_turn()
        self.holdings[key].remove(card)
        self.trick.append((player, key, card))
        if len(self.trick) == self.trick_length():
            cards = [t[2] for t in self.trick]
            i, buys = self.winner_of(cards)
            winner = self.trick[i][0]
            if buys:
                self.price = cards[i]
                self.bottle = winner
            self.piles[winner] += cards
            self.leader = winner
            self.trick = []

    def over(self):
        return not self.setup_left and not self.trick and all(len(h) == 0 for h in self.holdings.values())

    def scores(self):
        out = {}
        for p in self.players:
            if p == self.bottle:
                out[p] = -sum(self.coins_of[c] for c in self.devil)
            else:
                out[p] = sum(self.coins_of[c] for c in self.piles[p])
        return out
