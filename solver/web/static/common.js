// What both pages (the Scoundrel game, app.js; the Bottle Imp, imp.js) need to talk to the
// service: loaded before either.  A game is its deal and its line; the server keeps no session.
"use strict";

const $ = (sel) => document.querySelector(sel);

// A daily's deal number is a 64-bit integer, past what a JavaScript number holds exactly
// (2^53): such an integer is read as its string, so the deal sent back is the deal dealt.
function parseJSON(text) {
  return JSON.parse(text.replace(/("[A-Za-z_]\w*"\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/g,
    (all, key, n) => (Number.isSafeInteger(Number(n)) ? all : `${key}"${n}"`)));
}

// an answer of the service that is an error: its one line, and the HTTP status where it had one
class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

// POST body to path; the answer, or an ApiError with the server's line.  opts.timeout (ms): give
// up waiting then (the request is dropped; the server may go on).
async function api(path, body, opts = {}) {
  const ctl = opts.timeout ? new AbortController() : null;
  const timer = ctl ? setTimeout(() => ctl.abort(), opts.timeout) : null;
  let r, obj;
  try {
    r = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: ctl ? ctl.signal : undefined,
    });
    obj = parseJSON(await r.text());
  } catch (e) {
    if (ctl && ctl.signal.aborted) throw new ApiError(`${path}: no answer within ${opts.timeout / 1000} s`);
    if (!r) throw e;
    throw new ApiError(`${path}: the server answered ${r.status} without JSON`, r.status);
  } finally {
    clearTimeout(timer);
  }
  if (obj.type === "error") throw new ApiError(obj.error, obj.status);
  return obj;
}

// the status line under the table
function say(text, kind) {
  const s = $("#status");
  s.textContent = text || "";
  s.className = kind || "";
}

// ------------------------------------------------------------------ one request at a time
let busy = false;             // a click or key while a request runs is ignored
let onGuardedError = null;    // a page's own step after an error is said (the Bottle Imp redraws)

// run fn unless another runs: the body marked busy meanwhile, an error said on the status line;
// data-last (what) and data-done (a count of runs) are for the browser tests
async function guarded(what, fn) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    await fn();
  } catch (e) {
    say(e.message, "error");
    if (onGuardedError) onGuardedError(e);
  } finally {
    busy = false;
    document.body.classList.remove("busy");
    if (what) document.body.dataset.last = what;
    document.body.dataset.done = String(Number(document.body.dataset.done || 0) + 1);
  }
}
