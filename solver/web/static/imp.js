// The Bottle Imp's page: every move, hint and answer comes from the service's /api/imp/...
// (docs/service.md); this page only draws them.  A game is its deal and its line: the
// server keeps no session, so undo is going back to an earlier line.
"use strict";


// The two card tables of IMP-RULES §1 (solver/bottleimp/cards.py; the browser test checks
// that the two agree): the page draws each card's suit and coins from them.
const TABLES = {
  classic: {
    suits: { y: "yellow", b: "blue", r: "red" },
    rows: {
      y: "1:1 2:1 3:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6",
      b: "4:1 6:1 8:2 10:2 13:3 17:3 20:4 24:4 27:5 30:5 32:6 34:6",
      r: "11:1 14:1 16:2 21:2 23:3 26:3 29:4 31:4 33:5 35:5 36:6 37:6",
    },
  },
  matagot: {
    suits: { r: "red", b: "blue", g: "green" },
    rows: {
      r: "1:1 2:1 4:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6",
      b: "3:1 6:1 8:2 10:2 13:3 17:4 20:4 23:4 27:5 30:5 32:6 35:6",
      g: "11:1 14:1 16:2 21:2 24:3 26:3 29:4 31:4 33:5 34:5 36:6 37:6",
    },
  },
};
const CARDS = {};   // table -> card number -> {suit, coins}
for (const [name, t] of Object.entries(TABLES)) {
  CARDS[name] = {};
  for (const [suit, row] of Object.entries(t.rows)) {
    for (const pair of row.split(" ")) {
      const [n, coins] = pair.split(":").map(Number);
      CARDS[name][n] = { suit, coins };
    }
  }
}

const VARIANT = { lopaka: "Lopaka", glitzerhaus: "Glitzerhaus" };
const TRICKS = { lopaka: 11, glitzerhaus: 8 };
const TRICK_SIZE = { lopaka: 3, glitzerhaus: 4 };
const MINUS = "\u2212";
const DEFAULT_PAUSE = 450;   // ms between the others' cards (a trick's end: twice that)
const SETUP_STEPS = ["pass", "s1", "s2", "open"];
const STEP_WORDS = { pass: "the exchange", s1: "stack 1", s2: "stack 2", open: "the open stacks" };
// The setup hint's time budget, seconds.  Measured with one solver process on a loaded machine
// (2 cores, load 9): 5 s draws some 25 deals at the exchange (11 solves a deal) but 2 at the open
// choice (whole-hand solves: 10 s gives 4-5); a stack step (72 choices, each with the open-stack
// game after it) draws 2 in 30 s: there a minute, or the most the service grants a request
// (--max-budget, 30 s by default; askSetupHint asks again with it).
const SETUP_TIME = { pass: 5, open: 10, s1: 60, s2: 60 };

let g = null;        // the game: see start()
let cursor = 0;      // the option marked (keyboard)
let marks = { devil: null, pass: null };   // Glitzerhaus stack steps: the cards chosen so far

// after an error, the table as it was (unless the hand is covered)
onGuardedError = () => { if (g && g.obj && !g.covered) render(); };

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// ------------------------------------------------------------------ figures as the CLI writes them
const signed = (n) => (n == null ? "?" : n < 0 ? MINUS + -n : n > 0 ? "+" + n : "0");
const cardList = (cards) => (cards && cards.length ? cards.join(" ") : "none");

// Python's format(x, ".Nf") of a double: the exact value rounded, ties to even (JavaScript's
// toFixed breaks ties upwards); a tie is only possible when the double is one exactly.
function fixed(x, digits) {
  const s = x.toFixed(digits);
  const scaled = x * 10 ** digits;
  if (Number.isFinite(scaled) && Math.abs(scaled % 1) === 0.5 && scaled * 2 === Math.round(scaled * 2)) {
    const down = Math.trunc(scaled);
    const even = down % 2 === 0 ? down : down + Math.sign(scaled);
    return (even / 10 ** digits).toFixed(digits);
  }
  return s;
}

// a mean margin as the CLI writes it (cli/bottleimp/render.py mean): "+61.43", "−3.50", "0.00"
function meanText(f) {
  const x = f.float;
  return (x > 0 ? "+" : x < 0 ? MINUS : "") + exactFixed(f, 2);
}

// |fraction| to `digits` places as Python writes the double: a tie exactly on the fraction
// (then the double is that fraction) goes to even; otherwise the double's own rounding.
function exactFixed(f, digits) {
  const [p0, q0] = String(f.fraction).split("/");
  let p = BigInt(p0.replace("-", "")), q = BigInt(q0 || "1");
  const scale = 10n ** BigInt(digits);
  const twice = 2n * p * scale;
  if (twice % q === 0n && (p * scale) % q !== 0n) {        // exactly half-way
    let down = (p * scale) / q;
    if (down % 2n === 1n) down += 1n;
    const s = down.toString().padStart(digits + 1, "0");
    return digits ? s.slice(0, -digits) + "." + s.slice(-digits) : s;
  }
  return Math.abs(f.float).toFixed(digits);
}

const percent = (f) => fixed(f.float * 100, 0) + "%";

function valueText(v) {
  if (v == null) return "?";
  if (typeof v === "object" && "fraction" in v) {
    return String(v.fraction).includes("/") ? `${v.fraction} (${meanText(v)})` : signed(Number(v.fraction));
  }
  if (typeof v === "number" && !Number.isInteger(v)) return (v > 0 ? "+" : v < 0 ? MINUS : "") + Math.abs(v).toFixed(2);
  return signed(v);
}

// ------------------------------------------------------------------ cards
function cardInfo(n) {
  return CARDS[g.choice.cards][n];
}

function cardEl(n, opts = {}) {
  const info = cardInfo(n);
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = `icard s-${g.choice.cards}-${info.suit}` + (opts.small ? " small" : "");
  if (opts.button) el.type = "button";
  el.dataset.card = String(n);
  const suitName = TABLES[g.choice.cards].suits[info.suit];
  el.setAttribute("aria-label", `${n} ${suitName}, ${info.coins} coin${info.coins === 1 ? "" : "s"}`);
  el.title = `${n}${info.suit}: ${suitName}, ${info.coins} coin${info.coins === 1 ? "" : "s"}`;
  const coins = "<i></i>".repeat(info.coins);
  el.innerHTML = `<span class="num">${n}</span><span class="suit">${info.suit}</span><span class="coins">${coins}</span>`;
  return el;
}

function backs(count, label) {
  const box = document.createElement("div");
  box.className = "backs";
  box.setAttribute("aria-label", label);
  for (let i = 0; i < count; i++) {
    const b = document.createElement("div");
    b.className = "icard back";
    box.appendChild(b);
  }
  return box;
}

function row(title, cards, opts = {}) {
  const rec = opts.options ? hinted() : null;      // the setup hint's recommendation, marked on its cards
  const box = document.createElement("div");
  box.className = "holding" + (opts.cls ? " " + opts.cls : "");
  if (opts.name) box.dataset.holding = opts.name;
  const h = document.createElement("div");
  h.className = "label";
  h.textContent = title;
  const list = document.createElement("div");
  list.className = "cards";
  for (const n of cards) {
    const playable = opts.options && opts.options.includes(n);
    const el = cardEl(n, { button: playable, small: opts.cls === "small" });
    if (opts.options && !playable) el.classList.add("dim");
    if (playable) {
      el.addEventListener("click", () => choose(n));
      if (g.options[cursor] === n) el.classList.add("cursor");
      if (marks.devil === n) el.classList.add("to-devil");
      if (marks.pass === n) el.classList.add("to-pass");
      const hint = rec && (rec.devil === n ? "devil" : rec.pass === n || rec.card === n ? "pass" : null);
      if (hint) {
        el.dataset.hint = hint;
        el.title += hint === "devil" ? " (the hint: lay it in the devil's trick)" : " (the hint: pass it)";
        el.setAttribute("aria-label", el.getAttribute("aria-label") + (hint === "devil" ? ", the hint lays it down" : ", the hint passes it"));
      }
    }
    list.appendChild(el);
  }
  box.append(h, list);
  return box;
}

function bottleSvg(price) {
  return `<svg viewBox="0 0 40 64" width="40" height="64" aria-hidden="true">
    <rect x="15" y="2" width="10" height="8" rx="2" fill="#8a5a2b"/>
    <path d="M16 10 h8 v10 c0 4 10 8 10 18 v18 c0 4 -3 6 -7 6 h-14 c-4 0 -7 -2 -7 -6 v-18 c0 -10 10 -14 10 -18 z"
      fill="#6fa8a0" stroke="#2b4d48" stroke-width="1.5"/>
    <text x="20" y="50" text-anchor="middle" font-size="15" font-family="Georgia, serif" fill="#10201e">${price}</text>
  </svg>`;
}

// ------------------------------------------------------------------ who played what
const others = (seat) => (seat === "A" ? "B" : "A");
const seatName = (s) => (s === "L" ? "Lopaka" : s);

// the seat of each card of a trick led by `leader`: A → Lopaka → B (IMP-RULES §3.1), or
// the leader's open card, the other's, the leader's hand card, the other's (§4.3)
function trickSeats(leader, n) {
  const out = [];
  if (g.choice.variant === "lopaka") {
    const order = ["A", "L", "B"];
    const i = order.indexOf(leader);
    for (let k = 0; k < n; k++) out.push(order[(i + k) % 3]);
  } else {
    for (let k = 0; k < n; k++) out.push(k % 2 === 0 ? leader : others(leader));
  }
  return out;
}

// the suits each player has shown void in, from the tricks played (and the one on the
// table): a card off the led suit, from a holding that must follow if it can
function shownVoids(history, view) {
  const voids = { A: new Set(), B: new Set(), L: new Set() };
  const glitz = g.choice.variant === "glitzerhaus";
  const tricks = history.map((t) => [t.leader, t.cards]);
  if (view && view.trick && view.trick.length) tricks.push([view.leader, view.trick]);
  for (const [leader, cards] of tricks) {
    const seats = trickSeats(leader, cards.length);
    const led = cardInfo(cards[0]).suit;
    cards.forEach((c, i) => {
      if (i === 0 || (glitz && i < 2)) return;     // an open stack is in view: its voids are no news
      if (cardInfo(c).suit !== led) voids[seats[i]].add(led);
    });
  }
  if (view && view.opponent_hand) for (const s of view.opponent_hand.voids) voids[others(view.seat)].add(s);
  return voids;
}

// ------------------------------------------------------------------ drawing the table
function coinsOf(cards) {
  return cards.reduce((sum, n) => sum + cardInfo(n).coins, 0);
}

function seatsOfGame() {
  return g.choice.variant === "lopaka" ? ["A", "B", "L"] : ["A", "B"];
}

function title(view) {
  const c = g.choice;
  const deal = c.date ? `daily puzzle ${c.date} (deal ${g.seed})`
    : g.match ? `round ${g.match.number} of ${g.match.info.rounds}, deal ${g.seed}` : `deal ${g.seed}`;
  const who = g.people ? "pass and play" + (g.obj.finished ? "" : `, ${g.mover} to choose`) : `you are ${g.obj.seat} against ${c.bot}`;
  let where = "";
  if (g.obj.finished) where = "round over";
  else if (view.type === "imp-setup-view") where = STEP_WORDS[view.step];
  else where = `trick ${trickNumber(view)} of ${TRICKS[c.variant]}`;
  return `${VARIANT[c.variant]} · ${c.cards} cards · ${deal} · ${who} · ${where}`;
}

function trickNumber(view) {
  const done = Object.values(view.won).reduce((n, pile) => n + pile.length, 0) / TRICK_SIZE[g.choice.variant];
  return Math.min(TRICKS[g.choice.variant], done + 1);
}

function drawFacts(view) {
  const price = view.price == null ? 19 : view.price;
  const holder = view.holder;
  $("#bottle").innerHTML = bottleSvg(price) +
    `<div><div class="big">price <strong id="price">${price}</strong></div>` +
    `<div>holder <strong id="holder">${holder ? seatName(holder) : "nobody yet"}</strong></div></div>`;
  $("#bottle").dataset.price = String(price);
  $("#bottle").dataset.holder = holder || "";
  const board = $("#scoreboard");
  board.replaceChildren();
  const won = view.won || {};
  const voids = shownVoids(g.history, view.type === "imp-table-view" ? view : null);
  const names = TABLES[g.choice.cards].suits;
  for (const s of seatsOfGame()) {
    const d = document.createElement("div");
    d.className = "seat-score" + (s === holder ? " holder" : "");
    d.dataset.seat = s;
    const pile = won[s] || [];
    const v = [...voids[s]].sort().map((x) => names[x]);
    d.innerHTML = `<span class="who">${seatName(s)}${s === viewerSeat() && !g.people ? " (you)" : ""}</span> ` +
      `<span class="coins-won" data-coins="${coinsOf(pile)}">${coinsOf(pile)} coins won</span>` +
      `<span class="voids" data-voids="${[...voids[s]].sort().join("")}">${v.length ? "void in " + v.join(", ") : ""}</span>`;
    board.appendChild(d);
  }
}

function viewerSeat() {
  return g.people ? g.mover : g.obj.seat;
}

// the opponent's cards in a daily puzzle (every card known: reveal), else null
function revealed(view, seat) {
  const pos = g.obj.position;
  if (!g.choice.date || !pos || pos.finished) return null;
  if (g.choice.variant === "lopaka") return view.hands && view.hands[seat] ? null : (view.reveal || pos.hands)[seat];
  return (view.reveal || pos.hidden)[seat];
}

function drawTable(view, live) {
  $("#cover").hidden = true;
  $("#table").hidden = false;
  $("#title").textContent = title(view);
  drawFacts(view);
  const me = view.seat, opp = others(me);
  const lopaka = g.choice.variant === "lopaka";
  const opts = live ? g.options : null;
  const oppBox = $("#opponent"), lBox = $("#lopaka"), mine = $("#mine");
  oppBox.replaceChildren();
  lBox.replaceChildren();
  mine.replaceChildren();
  lBox.hidden = !lopaka;
  $("#trick-area").hidden = view.type === "imp-setup-view";
  if (view.type === "imp-setup-view") {
    drawSetup(view, opts);
    drawTrick(null);
    return;
  }
  // the opponent: hand face down (the cards you passed to it named), open stack face up
  const oh = view.opponent_hand;
  if (!lopaka) oppBox.appendChild(row(`${opp}'s open stack`, view.open[opp], { name: "open-" + opp }));
  const shown = revealed(view, opp);
  if (shown) {
    oppBox.appendChild(row(`${opp}'s ${lopaka ? "hand" : "hidden hand"} (every card known in a puzzle)`, shown,
      { name: "hidden-" + opp }));
  } else {
    const box = document.createElement("div");
    box.className = "holding";
    box.dataset.holding = "hidden-" + opp;
    box.innerHTML = `<div class="label">${opp}'s ${lopaka ? "hand" : "hidden hand"}: ${oh.size} card${oh.size === 1 ? "" : "s"}` +
      (oh.known.length ? ` (holds ${oh.known.join(" ")}: you passed ${oh.known.length === 1 ? "it" : "them"})` : "") + "</div>";
    box.appendChild(backs(oh.size, `${oh.size} cards face down`));
    oppBox.appendChild(box);
  }
  if (lopaka) lBox.appendChild(row("Lopaka's open hand", view.hands.L, { name: "L" }));
  drawTrick(view);
  if (lopaka) {
    mine.appendChild(row(g.people ? `${me}'s hand` : "Your hand", view.hands[me], { name: "hand-" + me, options: opts }));
  } else {
    mine.appendChild(row(g.people ? `${me}'s open stack` : "Your open stack", view.open[me], { name: "open-" + me, options: opts }));
    mine.appendChild(row(g.people ? `${me}'s hidden hand` : "Your hidden hand", view.hidden[me], { name: "hidden-" + me, options: opts }));
  }
  if (g.obj && g.obj.finished && !busyAnimating) {         // the round over: no empty hands
    for (const h of document.querySelectorAll("#table .holding")) {
      if (!h.querySelector(".icard")) h.remove();
    }
  }
  if (view.devil_known && view.devil_known.length) {
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = `In the devil's trick, laid there by ${g.people ? me : "you"}: ${view.devil_known.join(" ")}.`;
    mine.appendChild(p);
  }
}

function drawTrick(view, winner) {
  const box = $("#trick");
  box.replaceChildren();
  let trick = view ? view.trick : [];
  let leader = view ? view.leader : null;
  const last = g.history.length ? g.history[g.history.length - 1] : null;
  const showLast = view && !trick.length && last && !winner;     // between tricks: the last one, faded
  if (showLast) {
    trick = last.cards;
    leader = last.leader;
  }
  const seats = trickSeats(leader, trick.length);
  const won = winner ? winner.index : showLast ? last.cards.indexOf(trickWinnerCard(last)) : -1;
  trick.forEach((c, i) => {
    const slot = document.createElement("div");
    slot.className = "played" + (won === i ? " winner" : "") + (showLast ? " last" : "");
    slot.dataset.seat = seats[i];
    const where = g.choice.variant === "glitzerhaus" ? (i < 2 ? " (open)" : " (hand)") : "";
    const label = document.createElement("div");
    label.className = "who";
    label.textContent = seatName(seats[i]) + where;
    slot.append(cardEl(c), label);
    box.appendChild(slot);
  });
  box.dataset.cards = showLast ? "" : trick.join(" ");
  let text = "";
  if (winner) text = winner.text;
  else if (view && trick.length && !showLast) text = `Trick ${trickNumber(view)}, led by ${seatName(view.leader)}.`;
  else if (view) {
    const before = last ? `${seatName(last.winner)} won trick ${last.number} (${last.coins} coins${last.bought
      ? `, bought the bottle at ${last.price}` : ""}). ` : "";
    text = before + (g.obj && g.obj.finished && !busyAnimating ? "The round is over." : `${seatName(view.leader)} leads trick ${trickNumber(view)}.`);
  }
  $("#trick-label").textContent = text;
}

function drawSetup(view, opts) {
  const mine = $("#mine");
  const me = view.seat;
  const who = g.people ? me : "you";
  const lines = view.setup.map((s) => {
    if (s.step === "pass") return `Exchange: ${who} passed ${s.passed} and received ${s.received}.`;
    if (s.step === "open") return `${who} laid stack ${s.open} open.`;
    return `Stack ${s.step[1]}: ${who} laid ${s.discarded} in the devil's trick, passed ${s.passed} and received ${s.received}.`;
  });
  if (view.step === "pass") {
    mine.appendChild(row(g.people ? `${me}'s hand` : "Your hand", view.hand, { name: "hand-" + me, options: opts }));
  } else {
    const step = view.step;
    mine.appendChild(row("Stack 1", view.stacks["1"], { name: "stack-1", options: step === "s1" ? opts : null }));
    if (view.stacks["2"]) {
      mine.appendChild(row("Stack 2", view.stacks["2"], { name: "stack-2", options: step === "s2" ? opts : null }));
    } else {
      const box = document.createElement("div");
      box.className = "holding";
      box.dataset.holding = "stack-2";
      box.innerHTML = `<div class="label">Stack 2: ${view.stack_2_size} cards, face down until stack 1's step is done</div>`;
      box.appendChild(backs(view.stack_2_size, "stack 2 face down"));
      mine.appendChild(box);
    }
  }
  if (lines.length) {
    const p = document.createElement("p");
    p.className = "note setup-done";
    p.textContent = lines.join(" ");
    mine.appendChild(p);
  }
}

// what is due, in words, with the buttons of a setup step
function drawChoice() {
  const box = $("#choice");
  box.replaceChildren();
  const o = g.obj, view = o.view, opp = others(viewerSeat());
  const p = document.createElement("p");
  p.id = "task";
  p.dataset.task = o.task;
  box.appendChild(p);
  if (o.finished) return;
  if (!o.to_move) {
    p.textContent = "Waiting for the others.";
    return;
  }
  const you = g.people ? `${viewerSeat()}:` : "Your turn:";
  if (o.task === "pass") {
    p.textContent = `${you} pass one card to ${opp} (${opp} passes one to you at the same time; nothing goes to ` +
      "Lopaka, whose hand is laid open after the exchange). Click a card, or mark it and press Enter.";
  } else if (o.task === "s1" || o.task === "s2") {
    p.textContent = `${you} from stack ${o.task[1]}, lay one card in the devil's trick and pass one to ${opp} ` +
      `(${opp} does the same at the same time).`;
    const slots = document.createElement("div");
    slots.className = "slots";
    const slot = (what, label) => {
      const s = document.createElement("span");
      s.className = "slot";
      s.dataset.slot = what;
      s.textContent = `${label}: ${marks[what] == null ? "—" : marks[what]}`;
      return s;
    };
    const ok = document.createElement("button");
    ok.type = "button";
    ok.id = "confirm";
    ok.textContent = "Confirm (Enter)";
    ok.disabled = marks.devil == null || marks.pass == null;
    ok.addEventListener("click", confirmStack);
    const clear = document.createElement("button");
    clear.type = "button";
    clear.textContent = "Clear (Esc)";
    clear.addEventListener("click", () => { marks = { devil: null, pass: null }; render(); });
    slots.append(slot("devil", "to the devil's trick (d)"), slot("pass", `to ${opp} (p)`), ok, clear);
    box.appendChild(slots);
  } else if (o.task === "open") {
    p.textContent = `${you} choose the stack to lay open (the other is your hidden hand); ${opp} chooses at the same time.`;
    const stacks = document.createElement("div");
    stacks.className = "slots";
    [1, 2].forEach((k, i) => {
      const b = document.createElement("button");
      b.type = "button";
      const rec = hinted();
      b.className = "open-stack" + (cursor === i ? " cursor" : "") + (rec && rec.open === k ? " hinted" : "");
      b.dataset.stack = String(k);
      b.textContent = `Lay stack ${k} open (${k})` + (rec && rec.open === k ? " · the hint" : "");
      b.addEventListener("click", () => act(`open ${k}`));
      stacks.appendChild(b);
    });
    box.appendChild(stacks);
  } else {
    const from = g.choice.variant === "glitzerhaus" ? (view.trick.length < 2 ? " from your open stack" : " from your hidden hand") : "";
    p.textContent = `${you} play a card${from}` + (view.trick.length ? " (follow the led suit if you can)." : " (you lead).");
  }
}

function render() {
  const o = g.obj;
  g.options = o.options || [];
  if (cursor >= g.options.length) cursor = 0;
  drawTable(o.view, !busyAnimating && o.to_move);
  drawChoice();
  // the line as this seat saw it (the opponent's discards "?"); once the round is over, all of it
  $("#line").textContent = "Line: " + ((o.finished ? g.line : o.seen_line) || "(no moves)");
  $("#undo").disabled = !g.undo.length;
  const setup = SETUP_STEPS.includes(o.task);
  const asking = !o.finished && o.to_move && (o.task === "play" || setup);
  $("#hint").disabled = $("#why").disabled = !asking;
  $("#why").textContent = setup ? "Why not my pick? (w)" : "Why not this card? (w)";
  $("#hint").hidden = $("#why").hidden = o.finished;
  document.body.dataset.task = o.task;
  document.body.dataset.mover = viewerSeat();
  if (!o.finished) $("#end").hidden = true;
  drawMatch();
}

// ------------------------------------------------------------------ the others' cards, one by one
let busyAnimating = false;

function holdingOf(model, seat, index) {
  if (g.choice.variant === "lopaka") return model.hands[seat] ? model.hands[seat] : null;
  if (index < 2) return model.open[seat];
  return model.hidden && model.hidden[seat] ? model.hidden[seat] : null;
}

function clone(x) {
  return JSON.parse(JSON.stringify(x));
}

// The cards `seq` ({seat, card}) played one after another from `before` (a table view), the
// tricks they complete being `records` (the answer's): each shown with a pause.  Without a
// view before (the setup was just done), the start is the view after with `seq` taken back:
// no trick is ever completed before a player's first card.  Returns the records used.
async function animate(before, after, seq, records) {
  if (!seq.length) return 0;
  let model;
  if (before && before.type === "imp-table-view") {
    model = clone(before);
  } else {
    model = clone(after);
    const base = model.trick.length - seq.length;
    for (let i = seq.length - 1; i >= 0; i--) {
      const { seat, card } = seq[i];
      const h = holdingOf(model, seat, base + i);
      if (h) h.push(card), h.sort((a, b) => a - b);
      else model.opponent_hand.size += 1;
      model.trick.pop();
    }
  }
  const rev = revealed(model, others(model.seat));
  if (rev) model.reveal = { [others(model.seat)]: rev.slice() };
  const size = TRICK_SIZE[g.choice.variant];
  const pause = g.choice.pause;
  let used = 0;
  busyAnimating = true;
  try {
    for (const { seat, card } of seq) {
      const h = holdingOf(model, seat, model.trick.length);
      if (h && h.includes(card)) h.splice(h.indexOf(card), 1);
      else {
        model.opponent_hand.size -= 1;
        model.opponent_hand.known = model.opponent_hand.known.filter((c) => c !== card);
        if (model.reveal) for (const k in model.reveal) model.reveal[k] = model.reveal[k].filter((c) => c !== card);
      }
      model.trick.push(card);
      frame(model);
      if (seat !== model.seat || g.people) await sleep(pause);
      if (model.trick.length === size) {
        const rec = records[used++];
        const text = `${seatName(rec.winner)} wins trick ${rec.number} (${rec.coins} coins)` +
          (rec.bought ? ` and buys the bottle at ${rec.price}.` : ".");
        drawTrick(model, { index: rec.cards.indexOf(trickWinnerCard(rec)), text });
        g.history.push(rec);
        await sleep(pause * 2);
        model.won[rec.winner] = [...model.won[rec.winner], ...model.trick];
        model.trick = [];
        model.leader = rec.winner;
        model.price = rec.price;
        model.holder = rec.holder;
        frame(model);
      }
    }
  } finally {
    busyAnimating = false;
  }
  return used;
}

// the card that won a trick (§2.6): one that bought the bottle is the new price, else the highest
function trickWinnerCard(rec) {
  return rec.bought ? rec.price : Math.max(...rec.cards);
}

function frame(model) {
  drawTable(model, false);
  $("#choice").replaceChildren();
  document.body.dataset.frames = String(Number(document.body.dataset.frames || 0) + 1);
}

// ------------------------------------------------------------------ the game's steps
function baseParams() {
  const c = g.choice;
  const p = { variant: c.variant, cards: c.cards };
  if (c.date) p.date = c.date;
  else p.seed = c.seed;
  return p;
}

function dealParams() {
  return { variant: g.choice.variant, cards: g.choice.cards, seed: String(g.seed) };
}

// one step of /api/imp/game for `seat`; in pass and play the bot's cards are cut off after
async function step(seat, line, move) {
  const body = { ...baseParams(), bot: g.people ? "lopaka-rule" : g.choice.bot, line };
  if (seat) body.seat = seat;
  if (move != null) body.move = move;
  if (g.choice.date) body.reveal = true;
  return api("/api/imp/game", body);
}

async function start(choice, inMatch = null) {
  g = { choice, people: choice.bot === "people", undo: [], history: [], line: "", mover: null, pending: null,
        covered: false, obj: null, options: [], seed: choice.seed, question: "", match: inMatch };
  drawMatch();
  cursor = 0;
  marks = { devil: null, pass: null };
  clearHints();
  $("#end").hidden = true;
  say(choice.date ? "Fetching today's puzzle…" : "Dealing…");
  const obj = await step(g.people || !choice.seat ? null : choice.seat, "", null);
  g.seed = obj.seed;
  g.line = obj.line;
  g.mover = obj.seat;
  setAddress();
  if (choice.date) {
    const d = await api("/api/imp/daily", { variant: choice.variant, cards: choice.cards, date: choice.date });
    g.question = d.question;
    const replayed = await api("/api/imp/replay", { ...dealParams(), line: obj.line });
    g.history = replayed.tricks;
  }
  const seq = obj.played;
  const records = obj.tricks;
  g.obj = obj;
  await animate(null, obj.view, seq, records);
  render();
  const round = g.match ? `Round ${g.match.number} of ${g.match.info.rounds}, deal ${g.seed}` : `Deal ${g.seed}`;
  say(choice.date ? `Today's puzzle: ${g.question} Play it from here.`
    : g.people ? `${round}: two players at one screen; A chooses first.` : `${round}: you are ${obj.seat}.`);
  if (obj.finished) await finish();
}

function snapshot() {
  return { line: g.line, mover: g.mover, pending: g.pending, history: g.history.length, obj: g.obj };
}

// the human's choice: a card, or its own part of the setup step ("pass 24", "s1 5/3", "open 2")
async function act(move) {
  if (!g || !g.obj || g.obj.finished || !g.obj.to_move || g.covered) return;
  await guarded("move", async () => {
    const before = snapshot();
    const card = g.obj.task === "play" ? Number(move) : null;
    clearHints();
    say(!g.people && g.choice.bot === "table" ? `${others(g.mover)} (the table bot) is thinking…` : "");
    const r = await step(g.mover, g.line, move);
    g.undo.push(before);
    marks = { devil: null, pass: null };
    cursor = 0;
    if (!g.people) {
      const seq = (card == null ? [] : [{ seat: g.mover, card }]).concat(r.played);
      await animate(g.obj.view, r.view, seq, r.tricks);
      g.line = r.line;
      g.obj = r;
      render();
      say(card == null ? `Done: ${r.move}.` : `You played ${card}.`);
      if (r.finished) await finish();
      return;
    }
    await peopleStep(r, card);
  });
}

// Pass and play: the step was played for the seat to choose with a bot at the other seat;
// keep the choice (and Lopaka's cards after it), drop what the bot did, and hand over.
async function peopleStep(r, card) {
  const me = g.mover;
  if (card == null) {                       // a setup step: both choose in turn, then both at once
    const part = ownPart(segmentAfter(r.line, g.line), me);
    if (me === "A") {
      g.pending = part;
      await handOver("B", g.line);
    } else {
      const line = (g.line ? g.line + " | " : "") + joined(g.pending, part);
      g.pending = null;
      await handOver("A", line);
    }
    return;
  }
  let keep = 0;
  while (keep < r.played.length && r.played[keep].seat === "L") keep++;
  const rest = r.played.length - keep;
  const seq = [{ seat: me, card }, ...r.played.slice(0, keep)];
  await animate(g.obj.view, r.view, seq, r.tricks);
  if (rest) {
    await handOver(r.played[keep].seat, dropLast(r.line, rest));
  } else {
    g.line = r.line;
    g.obj = r;
    render();
    if (r.finished) await finish();
  }
}

// the segment of `line` that follows `before` (the step just played; the bots may have gone on)
function segmentAfter(line, before) {
  return line.split(" | ")[before ? before.split(" | ").length : 0];
}

// A's or B's part of a setup segment: "pass 7 30" -> 7 or 30, "s1 5/3 8/15" -> 5/3 or 8/15
function ownPart(segment, seat) {
  const words = segment.split(" ");
  return words[seat === "A" ? 1 : 2];
}

function joined(a, b) {
  const step = { pass: "pass", s1: "s1", s2: "s2", open: "open" }[g.obj.task];
  return `${step} ${a} ${b}`;
}

// the line without its last `n` cards (a trick's segment emptied goes too)
function dropLast(line, n) {
  const segs = line.split(" | ").map((s) => s.split(" "));
  while (n > 0) {
    const last = segs[segs.length - 1];
    last.pop();
    if (!last.length) segs.pop();
    n--;
  }
  return segs.map((s) => s.join(" ")).join(" | ");
}

// pass and play: the next player's view, kept behind the cover until they press
async function handOver(seat, line) {
  const obj = await step(seat, line, null);
  g.line = line;
  g.mover = seat;
  g.obj = obj;
  cover(seat);
}

function cover(seat) {
  g.covered = true;
  for (const id of ["#opponent", "#lopaka", "#mine", "#trick", "#choice", "#bottle", "#scoreboard"]) $(id).replaceChildren();
  $("#table").hidden = true;
  clearHints();
  $("#cover").hidden = false;
  $("#cover-text").textContent = `Pass to player ${seat} — press to show your hand.`;
  $("#show-hand").textContent = `Show ${seat}'s hand (Enter)`;
  $("#cover").dataset.seat = seat;
  $("#show-hand").focus();
  say(`Player ${seat}'s turn.`);
}

function uncover() {
  if (!g || !g.covered) return;
  g.covered = false;
  $("#cover").hidden = true;
  render();
  say(`${g.mover} to choose` + (g.obj.task === "play" ? ": play a card." : "."));
  if (g.obj.finished) finish();
}

async function undo() {
  if (!g || !g.undo.length || busy) return;
  const s = g.undo.pop();
  const moverBefore = g.mover;
  g.line = s.line;
  g.pending = s.pending;
  g.history = g.history.slice(0, s.history);
  g.obj = s.obj;
  g.mover = s.mover;
  marks = { devil: null, pass: null };
  cursor = 0;
  clearHints();
  $("#end").hidden = true;
  const m = g.match;
  if (m && m.lines.length === m.number) {     // the round's end undone: the match's score as before it
    m.lines = m.lines.slice(0, -1);
    m.info = m.before;
  }
  document.body.dataset.last = "undo";
  if (g.people && s.mover !== moverBefore) cover(s.mover);
  else {
    render();
    say("Back to your previous choice.");
  }
}

// a click or Enter on an option
function choose(n) {
  if (!g || busy || g.covered) return;
  const task = g.obj.task;
  if (task === "play") act(String(n));
  else if (task === "pass") act(`pass ${n}`);
  else if (task === "s1" || task === "s2") {
    if (marks.devil === n) marks.devil = null;
    else if (marks.pass === n) marks.pass = null;
    else if (marks.devil == null) marks.devil = n;
    else if (marks.pass == null) marks.pass = n;
    cursor = Math.max(0, g.options.indexOf(n));
    render();
    pickMarked();
  }
}

function markAs(what) {
  const task = g && g.obj && g.obj.task;
  if (task !== "s1" && task !== "s2") return;
  const n = g.options[cursor];
  const other = what === "devil" ? "pass" : "devil";
  if (marks[other] === n) marks[other] = null;
  marks[what] = n;
  render();
  pickMarked();
}

// a stack step's pick complete while the setup hint is shown: its "why not" beside the hint
function pickMarked() {
  const pick = pickOf();
  if (pick != null && hinted()) whyNot(pick);
}

function confirmStack() {
  if (marks.devil == null || marks.pass == null) return;
  act(`${g.obj.task} ${marks.devil}/${marks.pass}`);
}

// ------------------------------------------------------------------ hints
function clearHints() {
  if (g) g.setupHint = null;
  $("#hints").hidden = true;
  $("#hint-box").replaceChildren();
  $("#why-box").replaceChildren();
}

// h: the real-table hint of the step on the table (in the setup, the setup hint)
function hint() {
  if (g && g.obj && SETUP_STEPS.includes(g.obj.task)) setupHint();
  else playHint();
}

// w: "why not" the card marked (in the setup, the player's own pick)
function why() {
  if (g && g.obj && SETUP_STEPS.includes(g.obj.task)) setupWhy(pickOf());
  else if (g) explain(g.options[cursor]);
}

// the real-table hint (/api/imp/hint, table=true): the figures as `imp hint --table` names them
async function playHint() {
  if (!g || !g.obj || g.obj.task !== "play" || !g.obj.to_move || g.covered) return;
  await guarded("hint", async () => {
    say("Thinking as a player at a real table (at most 2 s)…");
    const h = await api("/api/imp/hint", { ...dealParams(), moves: g.line, table: true, seat: g.mover, time: 2 });
    const who = h.seat;
    const aim = who === "A" ? "aims for the highest margin" : "aims for the lowest margin";
    const worlds = h.worlds_total === 1 ? "world" : "worlds";
    const box = $("#hint-box");
    box.replaceChildren();
    const head = document.createElement("h3");
    head.textContent = "Real-table hint";
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = `${who} to play (${aim}). Over the ${h.worlds_total} ${worlds} ${who} cannot rule out (the deals ` +
      `of the unseen cards), margin A ${MINUS} B:`;
    box.append(head, p);
    if (!h.actions.length) {
      const none = document.createElement("p");
      none.textContent = `no world solved within ${h.time} s: --time 0 solves them all`;
      box.appendChild(none);
    } else {
      const table = document.createElement("table");
      table.id = "hint-table";
      // late in a round the hint also gives each card's floor by what the player knows (h.guarantee)
      const g = h.guarantee;
      table.innerHTML = `<tr><th>card</th><th>mean</th>${g ? "<th>floor</th>" : ""}<th>best in</th><th>range</th>` +
        "<th></th><th></th></tr>";
      for (const a of h.actions) {
        const tr = document.createElement("tr");
        tr.dataset.card = String(a.card);
        if (a.card === h.recommended) tr.className = "best";
        const share = `${percent(a.best_share)} (${Math.round(a.best_share.float * h.worlds_solved)}/${h.worlds_solved})`;
        const marks = [a.card === h.recommended ? "recommended" : "", g && a.card === g.best ? "best floor" : ""];
        for (const text of [String(a.card), meanText(a.mean), ...(g ? [meanText(a.floor)] : []), share,
          `${signed(a.low)}..${signed(a.high)}`, marks.filter(Boolean).join(" ")]) {
          const td = document.createElement("td");
          td.textContent = text;
          tr.appendChild(td);
        }
        const td = document.createElement("td");
        const why = document.createElement("button");
        why.type = "button";
        why.className = "why";
        why.textContent = a.card === h.recommended ? "why?" : "why not?";
        why.addEventListener("click", () => explain(a.card));
        const go = document.createElement("button");
        go.type = "button";
        go.className = "play";
        go.textContent = "play";
        go.addEventListener("click", () => act(String(a.card)));
        td.append(why, go);
        tr.appendChild(td);
        table.appendChild(tr);
      }
      box.appendChild(scrolling(table));
    }
    const named = document.createElement("p");
    named.className = "note caveat";
    named.textContent = h.named[0].toUpperCase() + h.named.slice(1) + ".";
    const done = document.createElement("p");
    done.className = "note";
    done.textContent = h.complete ? `All ${h.worlds_total} ${worlds} solved (${h.seconds.toFixed(2)} s).`
      : `${h.worlds_solved} of ${h.worlds_total} worlds solved within ${h.time} s (a fixed shuffled sample of them; ` +
        "the figures are over these): --time 0 solves them all.";
    box.append(named);
    if (h.guarantee) {
      const floor = document.createElement("p");
      floor.className = "note floor";
      floor.textContent = "Floor: you play each later card from what you see, the opponent sees every card and " +
        "answers each world at its best; the mean over the worlds of what that reaches (at least this against any " +
        `opponent; ${h.guarantee.nodes.toLocaleString("en")} positions searched).`;
      box.append(floor);
    }
    box.append(done);
    box.dataset.recommended = String(h.recommended);
    $("#hints").hidden = false;
    say(`Recommended: ${h.recommended}.`);
  });
}

// "why not this card?" (/api/imp/explain, table=true): the card beside the recommended one, world by world
async function explain(card) {
  if (!g || !g.obj || g.obj.task !== "play" || !g.obj.to_move || g.covered || card == null) return;
  await guarded("explain", async () => {
    say(`Why (not) ${card}? Thinking (at most 2 s)…`);
    const r = await api("/api/imp/explain", { ...dealParams(), moves: g.line, table: true, seat: g.mover, card: String(card), time: 2 });
    const e = r.explain;
    const lines = [];
    if (e.card === e.recommended) {
      lines.push(`Explain ${e.card}: it is the recommended card (the best mean over the worlds solved).`);
    } else {
      lines.push(`Explain ${e.card} beside the recommended ${e.recommended}, world by world (${e.worlds} worlds solved; ` +
        "double-dummy margins):");
      lines.push(`as good in ${e.same}, worse in ${e.worse}, better in ${e.better}; on average ${e.card} ` +
        `${e.mean_cost.float >= 0 ? "costs" : "gains"} ${r.seat} ${exactFixed(e.mean_cost, 2)} coins of margin.`);
      for (const [what, w] of [["costs the most", e.costliest], ["gains the most", e.best_for_card]]) {
        if (w) lines.push(`${e.card} ${what} (${Math.abs(w.cost)}) where the unseen hand is ${cardList(w.opponent_hand)} ` +
          `and the devil's trick ${cardList(w.devil)}.`);
      }
    }
    lines.push(r.named[0].toUpperCase() + r.named.slice(1) + ".");
    const box = $("#why-box");
    box.replaceChildren();
    const h = document.createElement("h3");
    h.textContent = `Why ${e.card === e.recommended ? "" : "not "}${e.card}?`;
    box.appendChild(h);
    for (const t of lines) {
      const p = document.createElement("p");
      p.textContent = t;
      box.appendChild(p);
    }
    box.dataset.card = String(e.card);
    box.dataset.worse = String(e.worse);
    $("#hints").hidden = false;
    say("");
  });
}

// ------------------------------------------------------------------ the setup hint (a real table)
// At Lopaka's exchange and Glitzerhaus's s1, s2 and open choice, /api/imp/hint (table=true, the
// seat asking) answers an imp-setup-hint (docs/bottleimp-solver.md, "The setup hint at a real
// table"): every choice valued on the same drawn deals under a named model of the opponent.

// the setup hint's recommendation, while the step it was asked at is on the table; else null
function hinted() {
  const s = g && g.setupHint;
  if (!s || !g.obj || g.covered || s.line !== g.line || s.seat !== g.mover || g.obj.task !== s.h.step) return null;
  return s.h.candidates[0];
}

// the player's own pick at a setup step as the notation writes it ("24", "5/3", "2"): the card or
// stack marked; at a stack step null until both cards are marked
function pickOf() {
  const task = g.obj.task;
  if (task === "s1" || task === "s2") return marks.devil != null && marks.pass != null ? `${marks.devil}/${marks.pass}` : null;
  return g.options.length ? String(g.options[cursor]) : null;
}

// a choice (a candidate of the hint) in words, and the move that makes it
function choiceText(c, step) {
  if (step === "s1" || step === "s2") return `${c.devil} down, pass ${c.pass}`;
  return step === "open" ? `stack ${c.open} open` : `pass ${c.card}`;
}

function choiceMove(c, step) {
  return step === "open" ? `open ${c.open}` : step === "pass" ? `pass ${c.card}` : `${step} ${c.devil}/${c.pass}`;
}

// a figure as the CLI writes a float (cli/bottleimp/render.py mean): "+14.06", "−4.08"
const figure = (x) => (x > 0 ? "+" : x < 0 ? MINUS : "") + fixed(Math.abs(x), 2);
const interval = (ci) => (ci ? `${figure(ci[0])}..${figure(ci[1])}` : "(one deal)");
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

async function setupHint(then) {
  if (!g || !g.obj || !SETUP_STEPS.includes(g.obj.task) || !g.obj.to_move || g.covered) return;
  await guarded("hint", async () => {
    const line = g.line, seat = g.mover;
    const h = await askSetupHint(seat);
    if (g.line !== line || g.mover !== seat) return;        // the game moved on meanwhile
    g.setupHint = { line, seat, h };
    drawSetupHint(h);
    render();                                               // its cards (or stack) marked on the table
    say(`Recommended: ${choiceText(h.candidates[0], h.step)} (over ${plural(h.deals, "drawn deal")}).`);
    if (then) then();
  });
}

// /api/imp/hint at the step on the table, within the step's time (or over the address's `samples`
// deals), the seconds counted on the status line meanwhile; a server that grants less time than
// asked (--max-budget) is asked again with what it grants
async function askSetupHint(seat) {
  const c = g.choice, step = g.obj.task;
  let time = SETUP_TIME[step];
  const started = Date.now();
  const tick = () => {
    const spent = Math.round((Date.now() - started) / 1000);
    say(`Thinking as ${seat} at a real table: drawing deals that fit what ${seat} knows and valuing every choice ` +
      `on each (${c.samples ? `${plural(c.samples, "deal")}; ${spent} s` : `${spent} s of at most ${time} s`})…`);
  };
  tick();
  const timer = setInterval(tick, 1000);
  try {
    for (;;) {
      const body = { ...dealParams(), moves: g.line, table: true, seat, time };
      if (c.samples) body.samples = c.samples;
      try {
        const h = await api("/api/imp/hint", body);
        document.body.dataset.hintTime = String(time);      // the seconds granted (for the browser test)
        return h;
      } catch (e) {
        const granted = /at most ([\d.]+) seconds on this server/.exec(e.message);
        if (e.status !== 400 || !granted || Number(granted[1]) >= time) throw e;
        time = Number(granted[1]);
      }
    }
  } finally {
    clearInterval(timer);
  }
}

// the candidates' rows in `table`: the figures, the marks, "why not?" and the button that makes
// the choice; the first dropped by the race after a line that says so
function setupRows(table, cands, h, buttons) {
  let told = false;
  for (const c of cands) {
    if (c.deals < h.deals && !told && buttons) {
      const tr = document.createElement("tr");
      tr.className = "dropped-head";
      tr.innerHTML = `<td colspan="7">dropped by the race (figures over their own deals; the last dropped first):</td>`;
      table.appendChild(tr);
      told = true;
    }
    const tr = document.createElement("tr");
    tr.dataset.choice = c.choice;
    tr.dataset.deals = String(c.deals);
    const rec = c === h.candidates[0];
    tr.className = rec ? "best" : c.deals < h.deals ? "dropped" : "";
    const notes = [rec ? "recommended" : c.choice === h.runner_up ? "runner-up" : "",
      c.same_as.length ? "same as " + c.same_as.join(", ") : ""];
    const choice = h.step === "open" ? `stack ${c.open}` : c.choice;
    for (const text of [choice, meanText(c.mean), interval(c.ci95), percent(c.best_share), String(c.deals),
      notes.filter(Boolean).join("; ")]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    if (buttons) {
      const td = document.createElement("td");
      const why = document.createElement("button");
      why.type = "button";
      why.className = "why";
      why.textContent = rec ? "why?" : "why not?";
      why.addEventListener("click", () => whyNot(c.choice));
      const go = document.createElement("button");
      go.type = "button";
      go.className = "choose";
      go.textContent = h.step === "pass" ? "pass" : h.step === "open" ? "lay open" : "choose";
      go.title = choiceText(c, h.step);
      go.addEventListener("click", () => act(choiceMove(c, h.step)));
      td.append(why, go);
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
}

function setupTable(cands, h, buttons) {
  const table = document.createElement("table");
  table.className = "setup-hint-table";
  const head = { pass: "pass", s1: "down/<wbr>pass", s2: "down/<wbr>pass", open: "open" }[h.step];
  table.innerHTML = `<tr><th>${head}</th><th>mean</th><th>95 % interval</th><th>best in</th><th>deals</th>` +
    `<th></th>${buttons ? "<th></th>" : ""}</tr>`;
  setupRows(table, cands, h, buttons);
  return scrolling(table);
}

// the setup hint's box: who asks and what they know, the model, the choices (the first dozen; the
// rest folded), the recommendation and whether it is clear of the runner-up, the caveat, the deals
function drawSetupHint(h) {
  const who = h.seat, step = h.step;
  const box = $("#hint-box");
  box.replaceChildren();
  box.appendChild(Object.assign(document.createElement("h3"), { textContent: `Setup hint: ${STEP_WORDS[step]}` }));
  const aim = who === "A" ? "aims for the highest margin" : "aims for the lowest margin";
  box.appendChild(textP(`${who}'s view (${aim} A ${MINUS} B). Deals of the cards ${who} cannot see are drawn at random ` +
    `to fit what ${who} knows, and every choice is valued on the same deals by the double-dummy margin of the play.`, "note"));
  box.appendChild(textP(`Opponent: ${h.model.opponent_text}.`, "note model"));
  if (h.model.later) box.appendChild(textP(`Later steps: ${h.model.later}.`, "note model"));
  const cands = h.candidates;
  const shown = cands.length <= 12 ? cands.length : Math.min(10, cands.filter((c) => c.deals === h.deals).length);
  box.appendChild(setupTable(cands.slice(0, shown), h, true));
  if (shown < cands.length) {
    const rest = cands.slice(shown);
    const dropped = rest.filter((c) => c.deals < h.deals).length;
    const more = document.createElement("details");
    more.className = "more-choices";
    more.appendChild(Object.assign(document.createElement("summary"), {
      textContent: `The other ${rest.length} choices` + (dropped ? ` (${dropped} dropped by the race)` : "") }));
    more.appendChild(setupTable(rest, h, true));
    box.appendChild(more);
  }
  const rec = cands[0], runner = cands.find((c) => c.choice === h.runner_up);
  let verdict = `Recommended: ${choiceText(rec, step)}`;
  if (runner && h.difference) {
    const d = h.difference;
    verdict += `, ${h.clear ? "clear of" : "not clear of"} the runner-up ${choiceText(runner, step)} (difference ` +
      `${figure(d.mean)} a round${d.ci95 ? `, 95 % ${interval(d.ci95)}` : ""}, deal by deal on the same deals).`;
  } else verdict += ".";
  const v = textP(verdict, "verdict");
  v.dataset.clear = String(h.clear);
  box.appendChild(v);
  box.appendChild(textP(h.named[0].toUpperCase() + h.named.slice(1) + ".", "note caveat"));
  const budget = h.samples ? `a fixed count, the same on every machine` : `as many as ${h.time} s allowed`;
  const merged = cands.length < h.choices ? ` (${h.choices - cands.length} merged with an equivalent one)` : "";
  let deals = `${plural(h.deals, "deal")} drawn (${budget}), ${h.choices} choices${merged}, ${h.seconds.toFixed(1)} s.`;
  if (h.deals < 10) deals += " Few deals: the intervals are wide, and more deals may change the order.";
  const d = textP(deals, "note deals");
  d.dataset.deals = String(h.deals);
  box.appendChild(d);
  if (step === "s1" || step === "s2") {
    box.appendChild(textP(`On your stack the hint's cards are marked: D for the devil's trick (${rec.devil}), P for ` +
      `the card to pass (${rec.pass}).`, "note"));
  }
  box.dataset.recommended = h.recommended;
  box.dataset.step = step;
  $("#why-box").replaceChildren();
  $("#hints").hidden = false;
}

// "why not?" a choice at a setup step (the player's own pick): beside the recommended one, from the
// hint's own figures (asked first if there is none for this step)
function setupWhy(choice) {
  if (!g || !g.obj || g.covered || busy) return;
  if (choice == null) {
    say("Mark your pick first: the card for the devil's trick (d) and the card to pass (p).");
    return;
  }
  if (hinted()) whyNot(choice);
  else setupHint(() => whyNot(choice));
}

function whyNot(choice) {
  if (!hinted()) return;
  const h = g.setupHint.h, step = h.step, who = h.seat;
  const rec = h.candidates[0];
  const c = h.candidates.find((x) => x.choice === choice || x.same_as.includes(choice));
  const box = $("#why-box");
  box.replaceChildren();
  box.dataset.choice = choice;
  if (!c) {
    box.appendChild(textP(`${choice} is not one of ${who}'s choices here.`));
    $("#hints").hidden = false;
    return;
  }
  const pick = { ...c, ...(step === "s1" || step === "s2" ? { devil: +choice.split("/")[0], pass: +choice.split("/")[1] }
    : step === "pass" ? { card: +choice } : { open: +choice }) };
  const name = choiceText(pick, step);
  box.appendChild(Object.assign(document.createElement("h3"), { textContent: `Why ${c === rec ? "" : "not "}${name}?` }));
  if (choice !== c.choice) {
    box.appendChild(textP(`${name} is the same game as ${choiceText(c, step)}: the two cards are equivalent, no deal ` +
      "can tell them apart (the hint lists them as one).", "note"));
  }
  if (c === rec) {
    box.appendChild(textP(`It is the recommended choice: the best mean of those valued on every deal` + (h.runner_up
      ? (h.clear ? ", clear of the runner-up." : ", but not clear of the runner-up: it may be no better.") : ".")));
  } else {
    box.appendChild(setupTable([rec, c], h, false));
    const sign = who === "A" ? 1 : -1;
    const gap = sign * (rec.mean.float - c.mean.float);
    let text;
    if (c.deals < h.deals) {
      text = `The race dropped it after ${plural(c.deals, "deal")} of the ${h.deals}: it was then in the worse half ` +
        `(successive halving), so its figures rest on its first ${plural(c.deals, "deal")} only, the recommendation's ` +
        `on all ${h.deals}.`;
    } else if (c.choice === h.runner_up && h.difference) {
      const d = h.difference;
      text = `It is the runner-up. Deal by deal on the same ${plural(h.deals, "deal")} the recommendation is ahead for ` +
        `${who} by ${fixed(Math.abs(d.mean), 2)} coins a round (difference A ${MINUS} B ${figure(d.mean)}` +
        `${d.ci95 ? `, 95 % ${interval(d.ci95)}` : ""}): ${h.clear ? "clear of it" : "not clear: it may be as good"}.`;
    } else {
      text = `Both were valued on the same ${plural(h.deals, "deal")}: on average it gives ${who} ` +
        `${fixed(Math.abs(gap), 2)} coins of margin ${gap >= 0 ? "less" : "more"} a round than the recommendation ` +
        "(the hint gives the deal-by-deal interval for the runner-up only: compare the two intervals).";
    }
    box.appendChild(textP(text));
  }
  box.appendChild(textP(h.named[0].toUpperCase() + h.named.slice(1) + ".", "note caveat"));
  $("#hints").hidden = false;
}

// ------------------------------------------------------------------ a match (several rounds)
// The rounds' deal numbers, seats and dealers and the running score are the service's
// (/api/imp/match = imp match --json, solver/bottleimp/match.py): round k plays deal N + k − 1, the
// deal passes each round (A and B swap; in Lopaka, Lopaka moves to the new dealer's right).  The
// page keeps the finished rounds' lines and asks the score again after each round.

function matchParams(m, lines) {
  const c = m.choice;
  const p = { variant: c.variant, cards: c.cards, seed: c.seed, rounds: String(c.rounds) };
  if (lines && lines.length) p.lines = lines.join(" || ");
  return p;
}

async function startMatch(choice) {
  say("Dealing the match…");
  const info = await api("/api/imp/match", matchParams({ choice }, []));
  await startRound({ choice, info, you: choice.seat === "B" ? 2 : 1, lines: [], number: 1 });
}

// round m.number of the match: its deal, and the seat the human (player m.you) holds in it
async function startRound(m) {
  m.before = m.info;          // the score before this round (an undo from its end goes back to it)
  const d = m.info.deals[m.number - 1];
  const people = m.choice.bot === "people";
  await start({ ...m.choice, seed: String(d.seed), seat: people ? null : d.seats[String(m.you)] }, m);
}

function nextRound() {
  const m = g && g.match;
  if (!m || !g.obj || !g.obj.finished || m.lines.length !== m.number || m.number >= m.info.rounds) return;
  guarded("new", () => startRound({ ...m, number: m.number + 1 }));
}

// a player of the match in words: "you" and "the greedy bot", or "player 1" in pass and play
function playerName(m, p) {
  if (m.choice.bot === "people") return `player ${p}`;
  return p === m.you ? "you" : `the ${m.choice.bot} bot`;
}

// the bar above the table: the round, each player's seat (the dealer marked), the running score
function drawMatch() {
  const bar = $("#match");
  const m = g && g.match;
  bar.hidden = !m;
  bar.replaceChildren();
  if (!m) return;
  const k = m.number, info = m.info, d = info.deals[k - 1];
  const seats = Object.entries(d.seats).map(([p, seat]) =>
    `${playerName(m, Number(p))} ${seat}${Number(p) === d.dealer ? " (deals)" : ""}`).join(", ");
  const played = m.lines.length;
  const score = Object.entries(info.totals).map(([p, t]) => `${playerName(m, Number(p))} <strong data-player="${p}">` +
    `${signed(t).replace("+", "")}</strong>`).join(", ");
  bar.innerHTML = `<span class="match-round">Match: round ${k} of ${info.rounds} (deal ${d.seed})</span>` +
    `<span class="match-seats">${seats}</span>` +
    `<span class="match-score">Score${played ? ` after ${played} round${played === 1 ? "" : "s"}` : ""}: ${score}</span>`;
  Object.assign(bar.dataset, { round: String(k), rounds: String(info.rounds), dealer: String(d.dealer),
    dealerSeat: d.seats[String(d.dealer)], seat: m.choice.bot === "people" ? "" : d.seats[String(m.you)],
    played: String(played), totals: Object.values(info.totals).join(" ") });
}

// a round over: its line kept (again after an undo and a new ending), the score asked, the table
async function matchRoundDone() {
  const m = g.match;
  m.lines = m.lines.slice(0, m.number - 1).concat([g.line]);
  const info = await api("/api/imp/match", matchParams(m, m.lines));
  if (g.match !== m) return;
  m.info = info;
  drawMatch();
  drawMatchEnd();
}

// the score after a round: each round's scores, the totals, and the next round (or the match's end)
function drawMatchEnd() {
  const box = $("#match-end");
  const m = g.match, info = m.info;
  box.replaceChildren();
  box.hidden = false;
  const names = Object.keys(info.totals).map(Number);
  const table = document.createElement("table");
  table.id = "match-table";
  table.innerHTML = `<tr><th>round</th><th>deal</th>${names.map((p) => `<th>${playerName(m, p)}</th>`).join("")}</tr>`;
  for (const r of info.played) {
    const tr = document.createElement("tr");
    tr.dataset.round = String(r.round);
    const seats = info.deals[r.round - 1].seats;
    tr.innerHTML = `<td>${r.round}</td><td>${r.seed}</td>` +
      names.map((p) => `<td data-player="${p}">${signed(r.scores[p]).replace("+", "")} (${seats[p]})</td>`).join("");
    table.appendChild(tr);
  }
  const total = document.createElement("tr");
  total.className = "total";
  total.innerHTML = `<th>total</th><td></td>` +
    names.map((p) => `<th data-player="${p}">${signed(info.totals[p]).replace("+", "")}</th>`).join("");
  table.appendChild(total);
  box.appendChild(Object.assign(document.createElement("h3"), {
    textContent: info.finished ? "The match is over" : `The match after round ${info.played.length} of ${info.rounds}` }));
  box.appendChild(scrolling(table));
  if (info.finished) {
    const top = info.leaders;
    const text = top.length > 1 ? "The match is drawn." : playerName(m, top[0]) === "you" ? "You win the match."
      : `${playerName(m, top[0])[0].toUpperCase()}${playerName(m, top[0]).slice(1)} wins the match.`;
    box.appendChild(textP(text, "match-verdict"));
  } else {
    const d = info.deals[m.number];
    const b = document.createElement("button");
    b.type = "button";
    b.id = "next-round";
    const seat = m.choice.bot === "people" ? "" : `: you are ${d.seats[String(m.you)]}`;
    b.textContent = `Next round (${m.number + 1} of ${info.rounds}, deal ${d.seed}${seat}; ` +
      `${playerName(m, d.dealer)} ${playerName(m, d.dealer) === "you" ? "deal" : "deals"})`;
    b.addEventListener("click", nextRound);
    box.appendChild(b);
  }
}

// ------------------------------------------------------------------ the end: the deal laid open, the review
async function finish() {
  const o = g.obj;
  $("#end").hidden = false;
  $("#match-end").hidden = true;
  const me = viewerSeat();
  const m = o.value;
  const scores = o.scores;
  let verdict;
  if (g.people) verdict = m === 0 ? "A draw." : `${m > 0 ? "A" : "B"} wins by ${Math.abs(m)}.`;
  else {
    const mine = me === "A" ? m : -m;
    verdict = mine === 0 ? "A draw." : mine > 0 ? `You won by ${mine}.` : `You lost by ${-mine}.`;
  }
  $("#verdict").textContent = verdict;
  const pos = o.position;
  const parts = seatsOfGame().map((s) => `${seatName(s)} ${signed(scores[s])}`);
  $("#final").innerHTML = "";
  const p = document.createElement("span");
  p.id = "scores";
  p.dataset.a = String(scores.A);
  p.dataset.b = String(scores.B);
  p.dataset.margin = String(m);
  p.textContent = `Scores: ${parts.join(", ")}; margin A ${MINUS} B ${signed(m)}. ${seatName(pos.holder)} holds the bottle ` +
    `(price ${pos.price}) and pays the devil's trick: ${pos.devil.join(" ")} (${coinsOf(pos.devil)} coins).`;
  $("#final").appendChild(p);
  if (g.match) await matchRoundDone();
  await review();
}

async function review() {
  const box = $("#review");
  box.replaceChildren();
  const line = g.line;
  // the whole deal, as dealt
  try {
    const d = await api("/api/imp/deal", dealParams());
    const deal = document.createElement("div");
    deal.id = "deal-open";
    const h = document.createElement("h3");
    h.textContent = "The whole deal, as dealt";
    deal.appendChild(h);
    const names = g.choice.variant === "lopaka"
      ? { A: "A's hand", L: "Lopaka's hand", B: "B's hand", devil: "the devil's trick" }
      : { A1: "A's stack 1", A2: "A's stack 2", B1: "B's stack 1", B2: "B's stack 2" };
    for (const [k, label] of Object.entries(names)) {
      deal.appendChild(row(label, d.deal[k].slice().sort((a, b) => a - b), { name: "dealt-" + k, cls: "small" }));
    }
    const setup = line.split(" | ").filter((s) => /^(pass|s1|s2|open)/.test(s));
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = "The setup as played: " + setup.join(" | ") + ". The line: " + line;
    deal.appendChild(p);
    box.appendChild(deal);
  } catch (e) {
    box.appendChild(textP(`The deal could not be had: ${e.message}`));
  }
  const status = document.createElement("p");
  status.id = "review-status";
  status.textContent = "The double-dummy review: asking…";
  box.appendChild(status);
  let r;
  try {
    r = await api("/api/imp/review", { ...dealParams(), line });
  } catch (e) {
    status.textContent = e.status === 404 ? "Review unavailable: this server has no double-dummy review (/api/imp/review)."
      : `Review unavailable: ${e.message}`;
    status.dataset.state = "unavailable";
    return;
  }
  if (g.line !== line) return;     // undone meanwhile
  status.dataset.state = "done";
  status.textContent = `The double-dummy review (every card known, both players perfect from each point${r.exact ? "" : "; NOT every value exact"}): ` +
    `where the coins were lost.`;
  box.appendChild(reviewEl(r));
  if (r.setup.some((s) => s.step === "s1" || s.step === "s2")) stackReview(line);
}

// Glitzerhaus's stack steps in hindsight (/api/imp/review with stacks=true over the setup alone: each
// player's 72 pairs against the other's actual pair, some hundreds of searches, a minute or so on a
// loaded machine).  Asked apart from the rest of the review and without holding the page: the seconds
// are counted in each step's box meanwhile, a new game or an undo goes on, and an answer that comes
// for a game no longer on the table is dropped.
async function stackReview(line) {
  const game = g;
  const boxes = ["s1", "s2"].map((step) => $(`#review-${step}`)).filter(Boolean);
  const started = Date.now();
  const tick = () => {
    const spent = Math.round((Date.now() - started) / 1000);
    for (const b of boxes) {
      b.querySelector(".stack-status").textContent = `Analysing in hindsight: each player's 72 (devil's trick, pass) ` +
        `pairs against the other's actual pair, each valued double dummy (a minute or so; play on meanwhile): ${spent} s`;
    }
  };
  for (const b of boxes) b.dataset.state = "analysing";
  tick();
  const timer = setInterval(tick, 1000);
  const setup = line.split(" | ").filter((seg) => /^(s1|s2|open) /.test(seg)).join(" | ");
  let r;
  try {
    r = await api("/api/imp/review", { ...dealParams(), line: setup, stacks: true });
  } catch (e) {
    for (const b of boxes) {
      b.dataset.state = "unavailable";
      b.querySelector(".stack-status").textContent = `Not analysed: ${e.message}`;
    }
    return;
  } finally {
    clearInterval(timer);
  }
  if (g !== game || g.line !== line) return;
  for (const st of r.stacks) {
    const b = $(`#review-${st.step}`);
    if (!b) continue;
    b.dataset.state = "done";
    const status = b.querySelector(".stack-status");
    const exact = ["A", "B"].every((seat) => st[seat].options.every((o) => o.value != null));
    status.textContent = `${st.method[0].toUpperCase()}${st.method.slice(1)}.` + (exact ? ""
      : " NOT every figure exact: the server's time ran out; the figures are the bounds proven (imp review, " +
        "without a limit, gives them all).");
    b.appendChild(hindsightEl(st.step, ["A", "B"].map((seat) => stackSide(st, seat))));
  }
}

// what a figure of the review is: an exact margin (a fraction where an open-stack game's value makes
// one) or the bounds proven
function marginText(m) {
  if (m.value != null) return valueFigure(m.value);
  return `${valueFigure(m.lower)}..${valueFigure(m.upper)}`;
}

function valueFigure(v) {
  if (v != null && typeof v === "object") {
    return String(v.fraction).includes("/") ? figure(v.float) : signed(Number(v.fraction));
  }
  return Number.isInteger(v) ? signed(v) : figure(v);
}

// what a choice lost (never negative): "lost 3", "lost nothing", or the bounds proven
function lossText(m) {
  const t = marginText(m).replace(/^\+/, "").replace(/\.\.\+/, "..");
  if (m.value == null) return `lost ${t} (bounds)`;
  return t === "0" ? "lost nothing" : `lost ${t}`;
}

// a player's side of a stack step: each pair's value against the other's actual pair (stacks[].A)
function stackSide(st, seat) {
  const c = st[seat], other = st[seat === "A" ? "B" : "A"];
  return { seat, played: c.choice, against: other.choice, best: c.best, loss: lossText(c.loss),
    rows: c.options.map((o) => ({ choice: o.choice, text: marginText(o), key: o.value ? o.value.float : (o.lower + o.upper) / 2 })) };
}

// a player's side of a matrix game (the exchange, the open stacks): the column (A) or the row (B) of
// the other's actual choice
function gameSide(s, seat) {
  const game = s.game, c = s[seat];
  const i = game.rows.indexOf(s.played.A), j = game.columns.indexOf(s.played.B);
  const cell = (r, k) => (game.matrix ? { value: game.matrix[r][k] } : { value: null, lower: game.lower[r][k], upper: game.upper[r][k] });
  const options = seat === "A" ? game.rows.map((o, r) => [o, cell(r, j)]) : game.columns.map((o, k) => [o, cell(i, k)]);
  const loss = c.loss != null ? { value: c.loss } : { value: null, lower: c.loss_lower, upper: c.loss_upper };
  return { seat, played: String(c.choice), against: String(s.played[seat === "A" ? "B" : "A"]), best: c.best.map(String),
    loss: lossText(loss),
    rows: options.map(([o, m]) => ({ choice: String(o), text: marginText(m), key: m.value != null ? m.value : (m.lower + m.upper) / 2 })) };
}

const HINDSIGHT_WORDS = {
  pass: { choice: "pass", did: "passed", against: "pass" },
  s1: { choice: "down/pass", did: "laid down/passed", against: "pair" },
  s2: { choice: "down/pass", did: "laid down/passed", against: "pair" },
  open: { choice: "open", did: "opened stack", against: "open stack" },
};

// a setup step in hindsight: a table a player, each choice with its value (margin A − B, double dummy)
// against the other player's actual choice, best first for that player; the choice played framed, the
// best ones starred; the loss of the choice played in the caption.  Past a dozen rows the rest fold.
function hindsightEl(step, sides) {
  const words = HINDSIGHT_WORDS[step];
  const wrap = document.createElement("div");
  wrap.className = "hindsight";
  wrap.dataset.step = step;
  for (const side of sides) {
    const other = side.seat === "A" ? "B" : "A";
    const sign = side.seat === "A" ? -1 : 1;
    const rows = side.rows.slice().sort((x, y) => sign * (x.key - y.key) || x.choice.localeCompare(y.choice, "en", { numeric: true }));
    const table = document.createElement("table");
    table.className = "hindsight-table";
    table.dataset.seat = side.seat;
    table.dataset.loss = side.loss.replace(/^lost /, "").replace("nothing", "0");
    const best = side.best.length ? side.best.slice(0, 6).join(", ") + (side.best.length > 6 ? ` (and ${side.best.length - 6} more)` : "") : "not proven";
    const caption = document.createElement("caption");
    caption.textContent = `${side.seat} ${words.did} ${side.played}, against ${other}'s actual ${words.against} ` +
      `${side.against}: ${side.loss}; the best: ${best}.`;
    table.appendChild(caption);
    const head = document.createElement("tr");
    head.innerHTML = `<th>${side.seat} ${words.choice}</th><th>A ${MINUS} B</th><th></th>`;
    table.appendChild(head);
    const shown = rows.length <= 14 ? rows : rows.filter((x, n) => n < 12 || x.choice === side.played);
    const add = (t, list) => {
      for (const x of list) {
        const tr = document.createElement("tr");
        tr.dataset.choice = x.choice;
        tr.dataset.value = x.text;
        const played = x.choice === side.played, isBest = side.best.includes(x.choice);
        tr.className = [played ? "played" : "", isBest ? "best" : ""].filter(Boolean).join(" ");
        const note = [played ? "played" : "", isBest ? "best" : ""].filter(Boolean).join(", ");
        tr.innerHTML = `<td>${x.choice}</td><td>${x.text}</td><td>${note}</td>`;
        t.appendChild(tr);
      }
    };
    add(table, shown);
    const box = document.createElement("div");
    box.appendChild(scrolling(table));
    if (shown.length < rows.length) {
      const more = document.createElement("details");
      more.className = "more-choices";
      more.appendChild(Object.assign(document.createElement("summary"), { textContent: `The other ${rows.length - shown.length} choices` }));
      const rest = document.createElement("table");
      rest.className = "hindsight-table more";
      rest.dataset.seat = side.seat;
      add(rest, rows.filter((x) => !shown.includes(x)));
      more.appendChild(scrolling(rest));
      box.appendChild(more);
    }
    wrap.appendChild(box);
  }
  return wrap;
}

// a table in a box of its own that scrolls sideways at phone width
function scrolling(table) {
  const wrap = document.createElement("div");
  wrap.className = "scroll";
  wrap.appendChild(table);
  return wrap;
}

function textP(t, cls) {
  const p = document.createElement("p");
  if (cls) p.className = cls;
  p.textContent = t;
  return p;
}

// a figure that may be a bound (the review gives null and KEY_lower/KEY_upper where a search stopped)
function boundText(obj, key) {
  if (obj[key] != null) return valueText(obj[key]);
  const lo = obj[key + "_lower"], hi = obj[key + "_upper"];
  return lo != null || hi != null ? `between ${valueText(lo)} and ${valueText(hi)}` : "?";
}

// the exchange (Lopaka) or the choice of open stacks (Glitzerhaus) in the review: the matrix game
// of double-dummy values, the pair played and what each player's choice lost against the other's
function setupGameEl(titleText, s, id) {
  const box = document.createElement("div");
  box.id = id;
  box.className = "review-setup";
  box.appendChild(Object.assign(document.createElement("h4"), { textContent: titleText }));
  const what = s.kind === "exchange" ? "passes" : "opens stack";
  box.appendChild(textP(`Played: A ${what} ${s.played.A}, B ${what} ${s.played.B}; the play after it is worth ` +
    `${boundText(s, "played_value")} (margin A ${MINUS} B, double dummy).`, "played"));
  for (const seat of ["A", "B"]) {
    const c = s[seat];
    const other = seat === "A" ? "B" : "A";
    const lostText = c.loss == null ? "its loss is not proven" : c.loss > 0 ? `lost ${c.loss} there` : "lost nothing there";
    const p = textP(`${seatName(seat)} chose ${c.choice}: against ${seatName(other)}'s actual ${s.played[other]} the ` +
      `best was ${c.best.join(" or ")} (${boundText(c, "best_value")}); ${lostText}.`, "setup-loss" + (c.loss > 0 ? " lost" : ""));
    p.dataset.seat = seat;
    p.dataset.loss = String(c.loss);
    box.appendChild(p);
  }
  const game = s.game;
  if (game) {
    const eq = (side) => (game.equilibrium && game.equilibrium[side] || [])
      .map((o) => `${o.option}${o.probability.fraction === "1" ? "" : ` (${o.probability.fraction})`}`).join(", ");
    box.appendChild(textP(`Played well by both (the mixed equilibrium of this game): ${boundText(s, "value")}; ` +
      `A ${what} ${eq("A")}; B ${what} ${eq("B")}.`, "equilibrium"));
    const support = { A: new Set((game.equilibrium.A || []).map((o) => o.option)),
      B: new Set((game.equilibrium.B || []).map((o) => o.option)) };
    const table = document.createElement("table");
    table.className = "matrix";
    const head = document.createElement("tr");
    head.appendChild(Object.assign(document.createElement("th"), { textContent: "A \\ B" }));
    for (const col of game.columns) {
      head.appendChild(Object.assign(document.createElement("th"), { textContent: String(col),
        className: support.B.has(col) ? "eq" : "" }));
    }
    table.appendChild(head);
    game.matrix.forEach((cells, i) => {
      const tr = document.createElement("tr");
      const row = game.rows[i];
      tr.appendChild(Object.assign(document.createElement("th"), { textContent: String(row),
        className: support.A.has(row) ? "eq" : "" }));
      cells.forEach((v, j) => {
        const td = document.createElement("td");
        td.textContent = v == null ? "?" : signed(v);
        if (row === s.played.A && game.columns[j] === s.played.B) {
          td.className = "played";
          td.title = "the pair played";
        }
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    box.appendChild(scrolling(table));
    box.appendChild(textP(`Rows: A's choices; columns: B's; each cell the double-dummy value of the play after that ` +
      `pair; the pair played framed, the equilibrium's choices underlined.`, "note"));
    box.appendChild(Object.assign(document.createElement("h4"), { textContent: "In hindsight: each choice against the other's actual one" }));
    box.appendChild(hindsightEl(s.kind === "exchange" ? "pass" : "open", ["A", "B"].map((seat) => gameSide(s, seat))));
  }
  return box;
}

function reviewEl(r) {
  const box = document.createElement("div");
  box.id = "review-body";
  const me = viewerSeat();
  const lost = r.total_loss || {};
  const setup = r.setup_loss ? `; in ${r.exchange ? "the exchange" : "the open stacks"} A ${r.setup_loss.A}, ` +
    `B ${r.setup_loss.B}` : "";
  box.appendChild(textP(`Coins of margin lost against double-dummy play: in the play A ${lost.A}, B ${lost.B}` +
    setup + (g.people ? "." : ` (you are ${me}).`), "total-loss"));
  if (r.exchange) box.appendChild(setupGameEl("The exchange (double dummy: each pass against the other's)", r.exchange, "review-exchange"));
  for (const step of r.setup || []) {       // Glitzerhaus's stack steps: asked apart (stackReview), slow
    if (step.step !== "s1" && step.step !== "s2") continue;
    const b = document.createElement("div");
    b.id = `review-${step.step}`;
    b.className = "review-setup review-stack";
    b.dataset.move = step.move;
    b.appendChild(Object.assign(document.createElement("h4"), { textContent: `Stack ${step.step[1]} (${step.move}), in hindsight` }));
    b.appendChild(textP(step.analysed ? step.method : step.reason, "note stack-status"));
    box.appendChild(b);
  }
  if (r.open_stacks) box.appendChild(setupGameEl("The open stacks (double dummy: each choice against the other's)", r.open_stacks, "review-open"));
  const table = document.createElement("table");
  table.id = "review-tricks";
  table.innerHTML = `<tr><th>trick</th><th>each card: margin A ${MINUS} B before → after it</th></tr>`;
  for (const t of r.tricks) {
    const tr = document.createElement("tr");
    tr.dataset.number = String(t.number);
    const n = document.createElement("td");
    n.innerHTML = `${t.number}<div class="won-by">won by ${seatName(t.winner)}</div>`;
    const cards = document.createElement("td");
    cards.className = "review-cards";
    for (const c of t.cards) {
      const el = document.createElement("div");
      el.className = "review-card" + (c.loss > 0 ? " lost" : "");
      Object.assign(el.dataset, { seat: c.seat, card: String(c.card), before: String(c.before), after: String(c.after),
        loss: String(c.loss) });
      el.appendChild(cardEl(c.card, { small: true }));
      const t1 = document.createElement("div");
      t1.className = "fig";
      t1.innerHTML = `<span class="seat">${seatName(c.seat)}</span> <span>${valueText(c.before)} → ${valueText(c.after)}</span>`;
      el.appendChild(t1);
      if (c.loss > 0) {
        el.appendChild(textP(`lost ${c.loss}; best ${cardList(c.best)}`, "loss"));
      } else if (c.by_rule) {
        el.appendChild(textP(c.forced ? "his rule (forced)" : "his rule", "forced"));
      } else if (c.forced) {
        el.appendChild(textP("forced", "forced"));
      }
      cards.appendChild(el);
    }
    tr.append(n, cards);
    table.appendChild(tr);
  }
  box.appendChild(scrolling(table));
  const worst = r.tricks.flatMap((t) => t.cards.map((c) => ({ ...c, number: t.number })))
    .filter((c) => c.loss > 0 && (g.people || c.seat === me)).sort((a, b) => b.loss - a.loss).slice(0, 3);
  box.appendChild(textP(worst.length
    ? "Where " + (g.people ? "the coins were" : "you") + " lost most: " +
      worst.map((c) => `${c.card} in trick ${c.number} (${c.loss}; best ${cardList(c.best)})`).join("; ") + "."
    : "No card lost a coin of margin in the play.", "where"));
  return box;
}

// ------------------------------------------------------------------ the choice of game, in the address
function readChoice() {
  const q = new URLSearchParams(location.search);
  const choice = {
    variant: q.get("variant") || "lopaka",
    cards: q.get("cards") || "classic",
    seat: q.get("seat") ? q.get("seat").toUpperCase() : (q.get("daily") ? null : "A"),
    bot: q.get("bot") || "table",
    pause: DEFAULT_PAUSE,
    samples: null,      // the setup hint over this many drawn deals instead of its time budget
  };
  const pause = q.get("pause");
  if (pause != null && /^\d{1,4}$/.test(pause)) choice.pause = Math.min(3000, Number(pause));
  const samples = q.get("samples");
  if (samples != null && /^[1-9]\d{0,3}$/.test(samples)) choice.samples = Number(samples);
  if (q.get("daily")) choice.date = q.get("daily") === "today" ? today() : q.get("daily");
  else choice.seed = q.get("seed") || String(Math.floor(Math.random() * 100000));
  if (q.get("rounds") != null && !choice.date) choice.rounds = q.get("rounds");     // checked by the service
  return choice;
}

function today() {
  return new Date().toISOString().slice(0, 10);
}

function setAddress() {
  const c = g.choice;
  const q = new URLSearchParams();
  q.set("variant", c.variant);
  if (c.cards !== "classic") q.set("cards", c.cards);
  if (c.date) q.set("daily", c.date);
  else q.set("seed", String(g.match ? g.match.choice.seed : g.seed));
  if (g.match) q.set("rounds", String(g.match.choice.rounds));
  if (!g.people) q.set("seat", g.match ? g.match.choice.seat : g.mover);
  q.set("bot", c.bot);
  if (c.pause !== DEFAULT_PAUSE) q.set("pause", String(c.pause));
  if (c.samples) q.set("samples", String(c.samples));
  history.replaceState(null, "", "?" + q.toString());
  showChoice(g.match ? g.match.choice : c);
}

function showChoice(c) {
  for (const k of ["variant", "cards", "bot"]) {
    const el = $("#" + k);
    if ([...el.options].some((o) => o.value === c[k])) el.value = c[k];
  }
  if (c.seat === "A" || c.seat === "B") $("#seat").value = c.seat;
  // the deal played (a daily puzzle's too: "New game" then deals it from its start)
  if (g && g.match) $("#seed").value = String(g.match.choice.seed);
  else if (g && g.seed != null) $("#seed").value = String(g.seed);
  else if (!c.date) $("#seed").value = String(c.seed);
  $("#rounds").value = g && g.match ? String(g.match.choice.rounds) : c.rounds && !c.date ? String(c.rounds) : "1";
  $("#seat").disabled = c.bot === "people";
}

function formChoice(daily) {
  const c = { variant: $("#variant").value, cards: $("#cards").value, seat: $("#seat").value, bot: $("#bot").value,
    pause: g ? g.choice.pause : DEFAULT_PAUSE, samples: g ? g.choice.samples : null };
  if (daily) c.date = today();
  else {
    c.seed = $("#seed").value.trim() || "0";
    const rounds = $("#rounds").value.trim();
    if (rounds && rounds !== "1") c.rounds = rounds;
  }
  return c;
}

// a single round, or a match where more rounds are asked (the service checks their number)
function newGame(choice) {
  guarded("new", () => (choice.rounds != null && String(choice.rounds) !== "1" ? startMatch(choice) : start(choice)));
}

// ------------------------------------------------------------------ mouse and keyboard
$("#setup").addEventListener("submit", (e) => {
  e.preventDefault();
  newGame(formChoice(false));
});
$("#daily").addEventListener("click", () => newGame(formChoice(true)));
$("#hint").addEventListener("click", hint);
$("#why").addEventListener("click", why);
$("#undo").addEventListener("click", undo);
$("#show-hand").addEventListener("click", uncover);
$("#cover-undo").addEventListener("click", undo);
$("#bot").addEventListener("change", () => { $("#seat").disabled = $("#bot").value === "people"; });

// a button pressed keeps no focus, so that Enter afterwards plays the marked card (not the button again)
document.addEventListener("click", (e) => {
  const b = e.target.closest("#setup button, #controls button, #hints button, #choice button");
  if (b) b.blur();
});

document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (!g || !g.obj) return;
  const k = e.key;
  if (g.covered) {
    if (k === "Enter" || k === " ") uncover();
    else if (k === "u") undo();
    else return;
    e.preventDefault();
    return;
  }
  const n = g.options.length;
  const task = g.obj.task;
  if (k === "ArrowRight" || k === "ArrowLeft") {
    if (!n || busy) return;
    cursor = (cursor + (k === "ArrowRight" ? 1 : n - 1)) % n;
    render();
  } else if (/^[0-9]$/.test(k) && n && !busy) {
    const i = k === "0" ? 9 : Number(k) - 1;
    if (i >= n) return;
    cursor = i;
    render();
  } else if (k === "Enter" || k === " ") {
    if (e.target.closest("button")) return;      // a focused button presses itself
    if (!n || busy) return;
    if (task === "open") act(`open ${g.options[cursor]}`);
    else if (task === "s1" || task === "s2") {
      if (marks.devil != null && marks.pass != null) confirmStack();
      else choose(g.options[cursor]);
    } else choose(g.options[cursor]);
  } else if (k === "d") markAs("devil");
  else if (k === "p") markAs("pass");
  else if (k === "Escape") {
    marks = { devil: null, pass: null };
    render();
  } else if (k === "h") hint();
  else if (k === "w") why();
  else if (k === "u") undo();
  else if (k === "n") $("#setup").requestSubmit();
  else return;
  e.preventDefault();
});

// The page opens on a game: the one in the address (?variant=lopaka&seed=42&seat=A&bot=table,
// or daily=2026-12-05 for that day's puzzle), else a random numbered Lopaka deal.
(() => {
  const choice = readChoice();
  showChoice(choice);
  newGame(choice);
})();
