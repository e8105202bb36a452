// The web game: every move, hint and answer comes from the service's /api (docs/service.md);
// this page only draws them.  A game is its deal and its line: the server keeps no session.
"use strict";

const SUITS = { C: "♣", S: "♠", H: "♥", D: "♦" };
const VALUES = { J: 11, Q: 12, K: 13, A: 14, T: 10 };

let game = null;        // {params: the deal and rules to send, obj: the last replay answer}
let fightMode = "";     // "", "w" or "b": how the next monster is fought
let give = false;       // co-op: the next card goes to the partner (">"), with any fight mode
let optimal = null;     // {rooms: [...], k: room shown} at the end

// ------------------------------------------------------------------ cards
function face(code) {
  if (code === "JK") return { rank: "★", suit: "", red: false, role: "monster 15", name: "joker" };
  const r = code[0], s = code[1];
  const value = VALUES[r] || Number(r);
  const role = s === "D" ? "weapon " + value : s === "H" ? "potion " + value : "monster " + value;
  return { rank: r === "T" ? "10" : r, suit: SUITS[s], red: s === "H" || s === "D", role, value };
}

function cardEl(code, opts = {}) {
  const f = face(code);
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = "card" + (f.red ? " red" : "") + (opts.small ? " small" : "");
  el.dataset.card = code;
  if (opts.button) el.type = "button";
  el.setAttribute("aria-label", `${f.rank}${f.suit} ${f.role}`);
  el.innerHTML =
    `<span class="corner tl">${f.rank}<br>${f.suit}</span>` +
    `<span class="pip">${f.suit || "★"}</span>` +
    `<span class="corner br">${f.rank}<br>${f.suit}</span>` +
    (opts.small ? "" : `<span class="role">${f.role}</span>`);
  return el;
}

// ------------------------------------------------------------------ drawing the game
function rulesText(rules) {
  if (rules.mode === "coop") return `co-op, ${rules.deck_size} cards, ${rules.durability} weapons`;
  return `solo, ${rules.flee} flee, ${rules.durability} weapons`;
}

function heroEl(hero, i, pos) {
  const el = document.createElement("div");
  el.className = "hero" + (pos.heroes.length > 1 && pos.leader === i + 1 ? " leader" : "");
  el.dataset.hero = String(i + 1);
  const hp = Math.max(0, hero.health);
  el.innerHTML =
    `<div class="name">Hero ${i + 1}${pos.heroes.length > 1 && pos.leader === i + 1 ? " (leads)" : ""}</div>` +
    `<div class="bar"><div style="width:${(100 * hp) / 20}%"></div></div>` +
    `<div class="health">♥ <span class="hp">${hero.health}</span> / 20</div>`;
  const w = document.createElement("div");
  w.className = "weapon";
  if (hero.weapon) {
    w.appendChild(cardEl(hero.weapon, { small: true }));
    const k = document.createElement("span");
    k.textContent = hero.last_kill == null ? "fresh" : `last kill ${hero.last_kill}`;
    w.appendChild(k);
  } else {
    w.textContent = "no weapon";
  }
  el.appendChild(w);
  return el;
}

function render() {
  const obj = game.obj, pos = obj.position;
  $("#table").hidden = false;
  document.body.classList.toggle("coop", pos.rules.mode === "coop");
  const where = pos.finished ? "game over" : `room ${pos.room_number}`;
  $("#title").textContent = `Deal ${obj.seed} · ${rulesText(pos.rules)} · ${where}`;
  const heroes = $("#heroes");
  heroes.replaceChildren(...pos.heroes.map((h, i) => heroEl(h, i, pos)));
  $("#dungeon-info").textContent = `Face down: ${pos.dungeon_left} card${pos.dungeon_left === 1 ? "" : "s"}` +
    (pos.final_room ? " · final room" : "") + (pos.taken ? ` · taken ${pos.taken} of this room` : "");
  const room = $("#room");
  room.replaceChildren(...pos.room.map((c, i) => {
    const el = cardEl(c, { button: !pos.finished });
    el.dataset.index = String(i + 1);
    if (!pos.finished) el.addEventListener("click", () => play(takeOf(c)));
    return el;
  }));
  $("#line").textContent = obj.line ? "Line: " + obj.line : "Line: (no moves)";
  $("#line").dataset.line = obj.line;
  $("#controls").hidden = pos.finished;
  if (pos.finished) finish();
  else $("#end").hidden = true;
}

// the move for a card: the card, its fight mode, ">" when given to the partner ("8Cw>")
function takeOf(card) {
  return card + fightMode + (give ? ">" : "");
}

// "w"/"b" pick the fight mode (again: back to the default), ">" toggles giving, "" clears both
function setMode(m) {
  if (m === ">") give = !give;
  else if (m === "") { fightMode = ""; give = false; }
  else fightMode = fightMode === m ? "" : m;
  document.querySelectorAll(".mode").forEach((b) => {
    const on = b.dataset.mode === ">" ? give : b.dataset.mode === fightMode;
    b.classList.toggle("on", on);
    b.setAttribute("aria-pressed", String(on));
  });
}

function clearHints() {
  $("#hints").hidden = true;
  $("#hint-exact").replaceChildren();
  $("#hint-table").replaceChildren();
  $("#why").replaceChildren();
}

// ------------------------------------------------------------------ actions
function dealParams(obj) {
  const p = { ...obj.rules };
  if (obj.seed !== null) p.seed = String(obj.seed);
  else p.deck = obj.deck.join(" ");
  return p;
}

// the game in the address, so that a reload or a shared link opens the same deal:
// ?seed=42&mode=coop, ?deck=…, or ?daily=2026-12-04 (a date, not "today": it stays that deal)
function setAddress(body, obj) {
  const q = new URLSearchParams();
  if (body.date) q.set("daily", body.date === "today" ? new Date().toISOString().slice(0, 10) : body.date);
  else if (obj.seed !== null) q.set("seed", String(obj.seed));
  else q.set("deck", obj.deck.join(" "));
  q.set("mode", obj.rules.mode);
  history.replaceState(null, "", "?" + q.toString());
}

// start a game (the caller guards): the deal or the daily of body.date
async function startGame(body, opts = {}) {
  say(body.date ? "Fetching the daily challenge…" : "Dealing…");
  const obj = await api("/api/game/new", body, opts);
  game = { params: dealParams(obj), obj };
  optimal = null;
  clearHints();
  setMode("");
  render();
  setAddress(body, obj);
  if (obj.seed !== null) $("#seed").value = String(obj.seed);   // "New game" deals it again
  say(body.date ? `Daily challenge: deal ${obj.seed}. Take three cards of each room, or avoid it.`
    : `Deal ${obj.seed}: take three cards of each room, or avoid it.`);
}

async function newGame(body) {
  await guarded("new", () => startGame(body));
}

// The page opens on a game: the daily of a date, if it comes quickly (a solo daily is a
// second's work, a co-op daily not yet made can take minutes), else a numbered deal, said so.
const DAILY_WAIT = 6000;
async function openNumbered(mode, why) {
  const seed = String(Math.floor(Math.random() * 100000));
  $("#seed").value = seed;
  await startGame({ seed, mode });
  say(`${why}, so here is deal ${seed} instead; "Today's daily" asks for it.`, "note");
}

async function openDaily(date, mode) {
  await guarded("new", async () => {
    try {
      await startGame({ date, mode }, { timeout: DAILY_WAIT });
    } catch (e) {
      await openNumbered(mode, `The daily challenge could not be had just now (${e.message})`);
    }
  });
}

async function play(move) {
  if (!game || game.obj.position.finished) return;
  await guarded("move", async () => {
    const obj = await api("/api/game/move", { ...game.params, line: game.obj.line, move });
    game.obj = obj;
    clearHints();
    setMode("");
    say(`Played ${move}.`);
    render();
  });
}

async function undo() {
  if (!game || !game.obj.line) return;
  await guarded("undo", async () => {
    game.obj = await api("/api/game/undo", { ...game.params, line: game.obj.line });
    optimal = null;
    clearHints();
    say("Took back the last move.");
    render();
  });
}

function actionRow(a, best, cells) {
  const tr = document.createElement("tr");
  tr.dataset.action = a.action;
  if (a.action === best) tr.className = "best";
  const td0 = document.createElement("td");
  td0.textContent = a.action;
  tr.appendChild(td0);
  for (const c of cells) {
    const td = document.createElement("td");
    td.textContent = c;
    tr.appendChild(td);
  }
  const td = document.createElement("td");
  const why = document.createElement("button");
  why.type = "button";
  why.className = "why";
  why.textContent = a.action === best ? "why?" : "why not?";
  why.addEventListener("click", () => explain(a.action));
  const go = document.createElement("button");
  go.type = "button";
  go.className = "play";
  go.textContent = "play";
  go.addEventListener("click", () => play(a.action));
  td.append(why, go);
  tr.appendChild(td);
  return tr;
}

function hintTable(title, note, head, rows) {
  const box = document.createElement("div");
  box.innerHTML = `<h3>${title}</h3><p class="note">${note}</p>`;
  const table = document.createElement("table");
  const tr = document.createElement("tr");
  for (const h of [...head, ""]) {
    const th = document.createElement("th");
    th.textContent = h;
    tr.appendChild(th);
  }
  table.appendChild(tr);
  rows.forEach((r) => table.appendChild(r));
  box.appendChild(table);
  return box;
}

const signed = (n) => (n == null ? "?" : n > 0 ? "+" + n : String(n));

async function hint() {
  if (!game || game.obj.position.finished) return;
  await guarded("hint", async () => {
    say("Thinking (at most 2 s)…");
    const h = await api("/api/game/hint", { ...game.params, line: game.obj.line, time: 2 });
    const rows = h.actions.map((a) => actionRow(a, h.best, [
      a.exact ? signed(a.score) : `${signed(a.score_lo)} … ${signed(a.score_hi)}`,
      a.won === true ? "keeps the win" : a.won === false ? "loses" : "not proven",
    ]));
    const note = "Knowing the order of the dungeon (clairvoyant): every action's optimal score" +
      (h.exact ? ", proven." : "; not every score was finished within 2 s (proven bounds shown).");
    $("#hint-exact").replaceChildren(hintTable("Exact hint", note, ["action", "score", ""], rows));
    $("#hint-exact").dataset.best = h.best;
    $("#hints").hidden = false;
    say(`Best: ${h.best}` + (h.plan ? ` (plan for the room: ${h.plan})` : ""));
  });
}

async function tableHint() {
  if (!game || game.obj.position.finished) return;
  await guarded("table-hint", async () => {
    say("Thinking as a player who cannot see the order (20 orders)…");
    const h = await api("/api/game/hint", { ...game.params, line: game.obj.line, table: true, samples: 20 });
    const pct = (x) => (x == null ? "?" : (100 * x).toFixed(0) + " %");
    const num = (x) => (x == null ? "?" : x.toFixed(1));
    // Two figures, each named for what it is: what a player who cannot see the order can
    // achieve (the belief search: exact, an upper bound, or not given), and the clairvoyant
    // bound (each order solved as if it were seen).
    const rows = h.actions.map((a) => actionRow(a, h.best, [pct(a.win_chance), num(a.mean_score),
      pct(a.clairvoyant_win_chance), num(a.clairvoyant_mean_score)]));
    const achievable = h.achievable === "exact" ? "exact for a player who cannot see the order"
      : h.achievable === "upper_bound" ? "an upper bound (the search looked ahead, then valued later deals as if seen)"
      : "not given (the belief search was too big for its budget)";
    const how = h.clairvoyant === "enumerated" ? `all ${h.orders} orders of the unseen cards`
      : `${h.orders} random orders of the ${h.unseen} unseen cards`;
    // The third figure, the recommended action's only: a named policy that cannot see the
    // order, played to the end over sampled orders (a lower bound estimate, with its games).
    const top = h.actions[0];
    const range = (ci, f) => (ci == null ? "" : ` [${f(ci[0])} to ${f(ci[1])}]`);
    const byPolicy = top.achievable_games > 0
      ? ` Achievable by policy ${top.achievable_policy} (${h.figures.achievable_win_chance === "lower_bound"
        ? "every order" : "sampled"}, ${top.achievable_games} games): win ${pct(top.achievable_win_chance)}` +
        `${range(top.achievable_win_chance_ci, pct)}, mean ${num(top.achievable_mean_score)}` +
        `${range(top.achievable_mean_score_ci, num)} after ${top.action}, a lower bound.`
      : "";
    const note = `At a real table the order is unknown. Order unseen: ${achievable}. ` +
      `Clairvoyant bound: ${how}, each solved as if seen (a player who cannot see the order may do worse).` +
      byPolicy;
    $("#hint-table").replaceChildren(hintTable("Real-table hint", note,
      ["action", "win (order unseen)", "mean (order unseen)", "win (clairvoyant)", "mean (clairvoyant)"], rows));
    $("#hint-table").dataset.best = h.best;
    $("#hints").hidden = false;
    say(`Real-table best: ${h.best}`);
  });
}

async function explain(action) {
  await guarded("explain", async () => {
    // an explain object (hint --explain): the line after the move next to the best move's
    const r = await api("/api/explain", { ...game.params, moves: game.obj.line, move: action, timeout: 10 });
    const mine = r.explained;
    const verdict = mine.score == null ? "no complete line found" :
      `${mine.exact ? "the best score after it is" : "the best found after it (not proven) is"} ${signed(mine.score)}` +
      ` (${mine.score > 0 ? "a win" : "a loss"})`;
    const box = $("#why");
    box.innerHTML = "";
    const p = document.createElement("p");
    let text = `${action}: ${verdict}. The best line after it: ${mine.line || "(the game ends)"}`;
    if (r.optimal && r.action === r.best) text += ". It is the best move.";
    else if (r.optimal) text += `. It is as good as the best move, ${r.best}.`;
    else if (r.compared) {
      text += `. The best move, ${r.best}, scores ${signed(r.compared.score)}`;
      if (r.diverges_at_room != null) text += `; ${action}'s line falls behind in room ${r.diverges_at_room}`;
      text += ".";
    }
    p.textContent = text;
    p.dataset.score = String(mine.score);
    box.appendChild(p);
    $("#hints").hidden = false;
  });
}

// ------------------------------------------------------------------ the end
async function finish() {
  const pos = game.obj.position;
  $("#end").hidden = false;
  $("#verdict").textContent = pos.won ? "You won!" : "You died.";
  $("#final-score").textContent = signed(pos.score);
  $("#final-score").dataset.score = String(pos.score);
  if (optimal && optimal.line === game.obj.line) return;
  $("#optimum").textContent = "…";
  delete $("#optimum").dataset.score;
  const line = game.obj.line;
  try {
    const r = await api("/api/solve", { ...game.params, timeout: 20 });
    $("#optimum").textContent = signed(r.score) + (r.exact ? "" : " (best found, not proven in 20 s)");
    $("#optimum").dataset.score = String(r.score);
    $("#optimum").dataset.exact = String(r.exact);
    const diff = r.score - pos.score;
    say(diff === 0 ? "You played optimally." : `The optimum was ${diff} point${diff === 1 ? "" : "s"} more.`);
    optimal = { line, rooms: r.line ? r.line.split(" | ") : [], k: 0 };
    await showRoom(0);
  } catch (e) {
    say(e.message, "error");
  }
}

async function showRoom(k) {
  if (!optimal || !optimal.rooms.length) return;
  k = Math.max(0, Math.min(optimal.rooms.length - 1, k));
  optimal.k = k;
  const before = await api("/api/replay", { ...game.params, line: optimal.rooms.slice(0, k).join(" | ") });
  const after = await api("/api/replay", { ...game.params, line: optimal.rooms.slice(0, k + 1).join(" | ") });
  $("#opt-where").textContent = `room ${k + 1} of ${optimal.rooms.length}`;
  const box = $("#opt-room");
  box.replaceChildren();
  const cards = document.createElement("div");
  cards.className = "room small";
  before.position.room.forEach((c) => cards.appendChild(cardEl(c, { small: true })));
  const moves = document.createElement("p");
  moves.textContent = "Moves: " + optimal.rooms[k];
  const heroes = document.createElement("p");
  const a = after.position;
  heroes.textContent = "Then: " + a.heroes.map((h, i) =>
    `hero ${i + 1} ♥ ${h.health}` + (h.weapon ? `, weapon ${h.weapon}` : "")).join("; ") +
    (a.finished ? ` — ${a.won ? "won" : "lost"}, score ${signed(a.score)}` : "");
  box.append(cards, moves, heroes);
}

// ------------------------------------------------------------------ mouse and keyboard
$("#setup").addEventListener("submit", (e) => {
  e.preventDefault();
  newGame({ seed: $("#seed").value || "0", mode: $("#mode").value });
});
$("#daily").addEventListener("click", () => newGame({ date: "today", mode: $("#mode").value }));
$("#typed").addEventListener("submit", (e) => {
  e.preventDefault();
  const m = $("#move").value.trim();
  if (m) {
    $("#move").value = "";
    play(m);
  }
});
document.querySelectorAll(".mode").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
$("#avoid").addEventListener("click", () => play("avoid"));
$("#undo").addEventListener("click", undo);
$("#hint").addEventListener("click", hint);
$("#table-hint").addEventListener("click", tableHint);
$("#opt-prev").addEventListener("click", () => optimal && showRoom(optimal.k - 1));
$("#opt-next").addEventListener("click", () => optimal && showRoom(optimal.k + 1));

document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key.toLowerCase();
  if (k >= "1" && k <= "4" && game && !game.obj.position.finished) {
    const card = game.obj.position.room[Number(k) - 1];
    if (card) play(takeOf(card));
  } else if (k === "w") setMode("w");
  else if (k === "b") setMode("b");
  else if (k === "g") setMode(">");
  else if (k === "escape") setMode("");
  else if (k === "a") play("avoid");
  else if (k === "u") undo();
  else if (k === "h") hint();
  else if (k === "t") tableHint();
  else if (k === "n") $("#setup").requestSubmit();
  else if (k === "[" && optimal) showRoom(optimal.k - 1);
  else if (k === "]" && optimal) showRoom(optimal.k + 1);
  else return;
  e.preventDefault();
});

// The page opens on a game: the one in the address (?seed=42&mode=coop, ?deck=…,
// ?daily=2026-12-04 or ?daily=today), else today's daily (or a numbered deal if it is slow).
(() => {
  const q = new URLSearchParams(location.search);
  if (q.get("mode") === "solo" || q.get("mode") === "coop") $("#mode").value = q.get("mode");
  const mode = $("#mode").value;
  if (q.get("seed")) {
    $("#seed").value = q.get("seed");
    newGame({ seed: q.get("seed"), mode });
  } else if (q.get("deck")) newGame({ deck: q.get("deck"), mode });
  else if (q.get("daily")) openDaily(q.get("daily"), mode);
  // a co-op daily not yet made is minutes of the co-op workers' time: only when asked for
  else if (mode === "coop") {
    guarded("new", () => openNumbered(mode, "Today's co-op daily can take minutes to prepare"));
  } else openDaily("today", mode);
})();
