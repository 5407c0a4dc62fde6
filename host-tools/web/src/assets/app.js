// kifudex's web board: the search board, the game list and the replay board.
// Every position (stones, captures, ko, legality) comes from the server's /api/position;
// this page holds the query (setup stones, moves, filters) and draws the answers.

import { Board, human, pointName } from "/board.js";

const $ = (id) => document.getElementById(id);
const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const PAGE = 25;
const TABLE_ROWS = 10;
const MAX_LETTERS = 26;
const FILTER_KEYS = ["year_from", "year_to", "player", "winner", "handicap", "min_rank", "max_rank", "komi", "rules", "event", "from", "to"];
const CHART_COLORS = ["#d0542c", "#2c7fb8", "#3a9a4a", "#8e5cc2", "#c79a16"];
const REASONS = {
  occupied: "that point is occupied",
  suicide: "suicide is not allowed",
  ko: "the ko cannot be retaken at once",
  "off-board": "that point is off the board",
};

// ---- state --------------------------------------------------------------------------------

/** The query: what the URL carries. */
const state = {
  ab: [], aw: [], toMove: null, moves: [],
  swap: false, filters: {}, sort: "newest", page: 0,
  game: null, at: null,
  // Pattern mode: {rows: ["..X", ...], region: [L, T, R, B] on the search board,
  // where: "auto" | "corner" | "side" | "anywhere" | "drawn", fixed: bool}, or null.
  pattern: null,
};
const CELLS = [".", "X", "O", "x", "o", "*"];
/** Moves taken back, for the forward button (last taken back = last element). */
let redo = [];
/** The server's answers for the current query. */
let view = { position: null, search: null, games: null, years: null, pattern: null, ranks: null };
/** Pattern mode is on (the rectangle may not be drawn yet). */
let patternOn = false;
/** The rectangle being dragged: {x0, y0, x1, y1}. */
let drag = null;
/** What a clicked pattern cell becomes (null: the next of CELLS). */
let cellTool = null;
/** The replayed game: {data, at, id}. */
let replay = null;
let showAllNext = false;
let setupTool = null; // null (play mode) or "B" / "W" / "E"
let seq = 0;

const searchBoard = new Board($("search-board"), { label: "Search board", onClick: onSearchClick });
const replayBoard = new Board($("replay-board"), { label: "Replay board", onClick: () => stepReplay(1) });

// ---- the API -------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(body, status) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.body = body || {};
    this.status = status;
  }
}

async function api(path, params) {
  const qs = params ? params.toString() : "";
  const r = await fetch(qs ? `${path}?${qs}` : path, { headers: { Accept: "application/json" } });
  let body = null;
  try { body = await r.json(); } catch { body = null; }
  if (!r.ok) throw new ApiError(body, r.status);
  return body;
}

function positionParams(q = state) {
  const p = new URLSearchParams();
  if (q.ab.length) p.set("ab", q.ab.join(","));
  if (q.aw.length) p.set("aw", q.aw.join(","));
  if (q.toMove) p.set("to_move", q.toMove);
  if (q.moves.length || !(q.ab.length || q.aw.length)) p.set("moves", q.moves.join(","));
  return p;
}

function filterParams(p) {
  if (state.swap) p.set("swap", "1");
  for (const k of FILTER_KEYS) if (state.filters[k] !== undefined && state.filters[k] !== "") p.set(k, state.filters[k]);
  return p;
}

// ---- the URL -------------------------------------------------------------------------------

function urlOf() {
  const p = filterParams(positionParams());
  if (state.sort !== "newest") p.set("sort", state.sort);
  if (state.page) p.set("page", String(state.page));
  const pt = state.pattern;
  if (pt) {
    p.set("pattern", pt.rows.join("/"));
    p.set("region", pt.region.join(","));
    if (pt.where !== "auto") p.set("where", pt.where);
    if (pt.fixed) p.set("fixed_color", "1");
  }
  if (state.game !== null) {
    p.set("game", String(state.game));
    if (state.at !== null) p.set("at", String(state.at));
  }
  const s = p.toString().replace(/%2C/g, ",");
  return s ? `/?${s}` : "/";
}

function readUrl() {
  const p = new URLSearchParams(location.search);
  const list = (k) => (p.get(k) || "").split(",").map((s) => s.trim()).filter(Boolean);
  state.ab = list("ab");
  state.aw = list("aw");
  state.toMove = ["B", "W"].includes(p.get("to_move")) ? p.get("to_move") : null;
  state.moves = list("moves");
  state.swap = p.get("swap") === "1";
  state.filters = {};
  for (const k of FILTER_KEYS) if (p.get(k)) state.filters[k] = p.get(k);
  state.sort = p.get("sort") || "newest";
  state.page = Math.max(0, parseInt(p.get("page") || "0", 10) || 0);
  state.game = p.has("game") ? parseInt(p.get("game"), 10) : null;
  if (Number.isNaN(state.game)) state.game = null;
  state.at = p.has("at") ? parseInt(p.get("at"), 10) : null;
  state.pattern = readPattern(p);
  patternOn = !!state.pattern;
}

/** The pattern of the URL, if it is whole: rows of one width that fill the region. */
function readPattern(p) {
  const rows = (p.get("pattern") || "").split("/").filter(Boolean);
  const region = (p.get("region") || "").split(",").map((v) => parseInt(v, 10));
  if (!rows.length || region.length !== 4 || region.some((v) => !(v >= 0 && v < 19))) return null;
  const [l, t, r, b] = region;
  if (r - l + 1 !== rows[0].length || b - t + 1 !== rows.length) return null;
  if (rows.some((row) => row.length !== rows[0].length || [...row].some((c) => !CELLS.includes(c)))) return null;
  const where = ["corner", "side", "anywhere", "drawn"].includes(p.get("where")) ? p.get("where") : "auto";
  return { rows, region, where, fixed: p.get("fixed_color") === "1" };
}

function pushUrl(replace = false) {
  const u = urlOf();
  if (u === location.pathname + location.search) return;
  if (replace) history.replaceState(null, "", u);
  else history.pushState(null, "", u);
}

// ---- the search board ---------------------------------------------------------------------

function message(text, kind = "error") {
  const m = $("message");
  m.textContent = text || "";
  m.className = `message ${text ? kind : ""}`;
}

function illegalText(e) {
  const b = e.body || {};
  if (b.reason && b.move) {
    const who = b.color === "W" ? "White" : "Black";
    return `${who} ${human(b.move)} is not allowed: ${REASONS[b.reason] || b.reason}.`;
  }
  return e.message;
}

/**
 * Tries a new query: the position first (the server says whether it is legal), then the
 * search, the game list and the chart. On an illegal position nothing changes.
 */
async function load(next, { push = true, keepRedo = false } = {}) {
  const my = ++seq;
  let position;
  try {
    position = await api("/api/position", positionParams(next));
  } catch (e) {
    if (my === seq) message(illegalText(e));
    return false;
  }
  if (my !== seq) return false;
  Object.assign(state, next);
  if (!keepRedo) redo = [];
  view.position = position;
  message("");
  if (push) pushUrl();
  drawPosition();
  await refreshResults(my);
  return true;
}

async function refreshResults(my = seq) {
  if (patternOn) return refreshPattern(my);
  stopPatternScan();
  view.pattern = null;
  const base = filterParams(positionParams());
  const games = new URLSearchParams(base);
  games.set("limit", String(PAGE));
  games.set("offset", String(state.page * PAGE));
  if (state.sort !== "newest") games.set("sort", state.sort);
  document.body.classList.add("loading");
  try {
    const [search, list, years, ranks] = await Promise.all([
      api("/api/search", base),
      api("/api/games", games),
      api("/api/years", base),
      api("/api/ranks", base),
    ]);
    if (my !== seq) return;
    view.search = search;
    view.games = list;
    view.years = years;
    view.ranks = ranks;
    view.predicted = await predictions(search);
    if (my !== seq) return;
    drawPosition();
    drawPredicted();
    drawTable();
    drawGames();
    drawYears();
    drawRanks();
  } catch (e) {
    if (my === seq) message(e.message);
  } finally {
    if (my === seq) document.body.classList.remove("loading");
  }
}

/** The next-move classes drawn as letters: at most one per point, the most played first. */
function letterClasses() {
  const out = [];
  const seen = new Set();
  const next = patternOn ? patternNext() : (view.search && view.search.next) || [];
  for (let i = 0; i < next.length && out.length < MAX_LETTERS; i++) {
    const c = next[i];
    if (c.move === "pass" || seen.has(c.move)) continue;
    seen.add(c.move);
    out.push({ ...c, letter: LETTERS[out.length] });
  }
  return out;
}

function drawPosition() {
  drawOpening();
  const p = view.position;
  if (!p) return;
  searchBoard.resize(p.width, p.height);
  const lastMove = [...p.moves].reverse().find(() => true);
  const last = lastMove && lastMove.move !== "pass" ? lastMove.move : null;
  if (patternOn) {
    searchBoard.set(patternDrawing(p));
  } else {
    searchBoard.set({
      black: p.black, white: p.white, last, ko: p.ko,
      letters: setupTool ? [] : [...letterClasses(), ...predictedLetters()],
    });
  }
  searchBoard.setHover(setupTool || p.to_move);
  const who = p.to_move === "B" ? "Black" : "White";
  const n = p.moves.length;
  const caps = p.captured.B || p.captured.W ? ` · captures ● ${p.captured.B} ○ ${p.captured.W}` : "";
  $("to-move").innerHTML = "";
  const dot = document.createElement("i");
  dot.className = `dot ${p.to_move === "B" ? "black" : "white"}`;
  $("to-move").append(dot, `${who} to move · move ${n + 1}${caps}`);
  $("btn-back").disabled = state.moves.length === 0;
  $("btn-forward").disabled = redo.length === 0;
  $("btn-start").disabled = state.moves.length === 0 && !state.ab.length && !state.aw.length;
  for (const b of document.querySelectorAll("[data-move]")) {
    if (b.closest("#setup-tools")) b.setAttribute("aria-pressed", String(b.dataset.move === p.to_move));
  }
}

function play(move, color) {
  const toMove = view.position ? view.position.to_move : "B";
  // A next move of the side not to move (a record where one side moved twice): the other
  // side passed in between, which leaves the stones as they are.
  const moves = color && color !== toMove ? [...state.moves, "pass", move] : [...state.moves, move];
  return load({ ...state, moves, page: 0 });
}

function onSearchClick(x, y) {
  const name = pointName(x, y);
  if (setupTool) return editSetup(name);
  const cls = letterClasses().find((c) => c.move === name);
  play(name, cls ? cls.color : null);
}

/** Setup mode: the current stones become setup stones, edited; the move list is dropped. */
function editSetup(name, toMove) {
  const p = view.position;
  let black = [...p.black], white = [...p.white];
  if (name) {
    const had = black.includes(name) ? "B" : white.includes(name) ? "W" : null;
    black = black.filter((s) => s !== name);
    white = white.filter((s) => s !== name);
    if (setupTool === "B" && had !== "B") black.push(name);
    if (setupTool === "W" && had !== "W") white.push(name);
  }
  load({ ...state, ab: black.sort(), aw: white.sort(), moves: [], toMove: toMove || p.to_move, page: 0 });
}

function setSetupMode(on) {
  setupTool = on ? setupTool || "B" : null;
  $("btn-setup").setAttribute("aria-pressed", String(on));
  $("setup-tools").hidden = !on;
  document.body.classList.toggle("setup-mode", on);
  for (const b of document.querySelectorAll("#setup-tools [data-tool]")) {
    b.setAttribute("aria-pressed", String(b.dataset.tool === setupTool));
  }
  drawPosition();
}

// ---- the next-move table and the chart ----------------------------------------------------

function pct(n, d) {
  return d ? Math.round((1000 * n) / d) / 10 : 0;
}

function drawTable() {
  if (patternOn) return drawPatternTable();
  const body = $("next-table").querySelector("tbody");
  body.textContent = "";
  const s = view.search;
  const total = s ? s.total : 0;
  $("total").textContent = total ? `${total.toLocaleString()} games reached this position` : "";
  if (!s || !s.next.length) {
    const tr = body.insertRow();
    const td = tr.insertCell();
    td.colSpan = 5;
    td.className = "empty";
    td.textContent = "No game in the index reached this position.";
    return;
  }
  const letters = new Map(letterClasses().map((c) => [`${c.color}${c.move}`, c.letter]));
  const shown = showAllNext ? s.next : s.next.slice(0, TABLE_ROWS);
  for (const c of shown) {
    const tr = body.insertRow();
    tr.className = "clickable";
    tr.tabIndex = 0;
    tr.dataset.move = c.move;
    const letter = letters.get(`${c.color}${c.move}`) || "";
    const lt = tr.insertCell();
    lt.innerHTML = `<span class="chip ${c.color === "W" ? "white" : "black"}">${letter}</span>`;
    const mv = tr.insertCell();
    mv.textContent = human(c.move);
    mv.title = c.equivalent.length > 1 ? `same as ${c.equivalent.map((m) => human(m)).join(", ")}` : c.move;
    const n = tr.insertCell();
    n.className = "num";
    n.textContent = c.count.toLocaleString();
    const sp = pct(c.count, total);
    const bw = pct(c.black_wins, c.count), ww = pct(c.white_wins, c.count);
    bar(tr.insertCell(), "share", [["", sp]], `${sp}%`, `${c.count} of ${total}`);
    bar(tr.insertCell(), "wins", [["b", bw], ["w", ww]], `${Math.round(bw)} / ${Math.round(ww)}`,
      `Black won ${bw}%, White won ${ww}% (of ${c.count})`);
    const go = () => play(c.move, c.color);
    tr.addEventListener("click", go);
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
    tr.addEventListener("mouseenter", () => searchBoard.highlight(c.move));
    tr.addEventListener("mouseleave", () => searchBoard.highlight(null));
  }
  if (s.next.length > TABLE_ROWS) {
    const tr = body.insertRow();
    const td = tr.insertCell();
    td.colSpan = 5;
    td.className = "more";
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = showAllNext ? "Show fewer" : `Show all ${s.next.length} moves`;
    b.addEventListener("click", () => { showAllNext = !showAllNext; drawTable(); });
    td.appendChild(b);
  }
}

/** A bar of coloured parts (widths in percent, set through the CSSOM: the page's CSP
 *  forbids inline style attributes) and a small text after it. */
function bar(td, kind, parts, text, title) {
  const b = document.createElement("div");
  b.className = `bar ${kind}`;
  b.title = title;
  for (const [cls, w] of parts) {
    const s = document.createElement("span");
    if (cls) s.className = cls;
    s.style.width = `${w}%`;
    b.appendChild(s);
  }
  const small = document.createElement("small");
  small.textContent = text;
  td.append(b, small);
}

function svgEl(name, attrs, parent) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function drawYears() {
  const host = $("years-chart");
  host.textContent = "";
  const y = view.years;
  const bins = y ? y.bins.filter((b) => b.total > 0) : [];
  if (!y || !y.top.length || bins.length === 0) {
    host.innerHTML = `<p class="muted empty">No dated games for this position.</p>`;
    return;
  }
  const W = 360, H = 150, L = 34, R = 8, T = 10, B = 22;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "years", role: "img", "aria-label": "Share of the top next moves by year" }, host);
  const all = y.bins;
  // The years that hold the games: the stray few (at most 3% at either end, like an odd
  // old date) would stretch the axis over empty decades.
  const dated = all.reduce((n, b) => n + b.total, 0);
  let first = 0, last = all.length - 1, cut = 0;
  while (first < last && cut + all[first].total <= dated * 0.03) cut += all[first++].total;
  cut = 0;
  while (last > first && cut + all[last].total <= dated * 0.03) cut += all[last--].total;
  const shown = all.slice(first, last + 1);
  const outside = all.reduce((n, b, i) => n + (i < first || i > last ? b.total : 0), 0);
  const n = shown.length;
  const xOf = (i) => L + (n === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
  const yOf = (v) => T + (1 - v) * (H - T - B);
  const maxTotal = Math.max(...shown.map((b) => b.total));
  // Games per year, as faint bars behind the lines.
  const bw = Math.min(22, Math.max(2, (W - L - R) / Math.max(n, 1) - 2));
  shown.forEach((b, i) => {
    if (!b.total) return;
    const h = (b.total / maxTotal) * (H - T - B) * 0.35;
    const r = svgEl("rect", { x: xOf(i) - bw / 2, y: H - B - h, width: bw, height: h, class: "volume" }, svg);
    svgEl("title", {}, r).textContent = `${label(b)}: ${b.total} games`;
  });
  for (const v of [0, 0.5, 1]) {
    svgEl("line", { x1: L, x2: W - R, y1: yOf(v), y2: yOf(v), class: "gridline" }, svg);
    const t = svgEl("text", { x: L - 4, y: yOf(v), class: "axis", "text-anchor": "end", "dominant-baseline": "central" }, svg);
    t.textContent = `${v * 100}%`;
  }
  const ticks = n <= 6 ? shown.map((_, i) => i) : [0, Math.floor((n - 1) / 2), n - 1];
  for (const i of ticks) {
    const anchor = n > 1 && i === n - 1 ? "end" : n > 1 && i === 0 ? "start" : "middle";
    const t = svgEl("text", { x: xOf(i), y: H - 6, class: "axis", "text-anchor": anchor }, svg);
    t.textContent = String(shown[i].from);
  }
  const letters = letterClasses();
  // Shares of years with only a few games would jump about: those years show their games
  // (the bars) but no share.
  const minGames = Math.max(3, Math.ceil(maxTotal * 0.02));
  y.top.forEach((c, k) => {
    const pts = [];
    shown.forEach((b, i) => { if (b.total >= minGames) pts.push([xOf(i), yOf(b.counts[k] / b.total), b, i]); });
    const color = CHART_COLORS[k % CHART_COLORS.length];
    if (pts.length > 1) {
      svgEl("polyline", { points: pts.map((p) => `${p[0]},${p[1]}`).join(" "), class: "series", stroke: color }, svg);
    }
    for (const [px, py, b] of pts) {
      const dot = svgEl("circle", { cx: px, cy: py, r: 2.6, fill: color }, svg);
      svgEl("title", {}, dot).textContent = `${human(c.move)} in ${label(b)}: ${b.counts[k]} of ${b.total}`;
    }
  });
  const legend = chartLegend(y.top, letters);
  const notes = [];
  if (outside) notes.push(`${outside} in other years`);
  if (y.unknown_year) notes.push(`${y.unknown_year} without a date`);
  if (notes.length) {
    const s = document.createElement("span");
    s.className = "muted";
    s.textContent = `(${notes.join(", ")})`;
    legend.appendChild(s);
  }
  host.appendChild(legend);
}

/** The opening's name above the board (from the search; none in pattern mode). */
function drawOpening() {
  const o = !patternOn && view.search ? view.search.opening : null;
  const el = $("opening-name");
  el.textContent = o ? `Opening: ${o.name}` : "";
  el.hidden = !o;
}

/** The top next moves by the players' ranks: a bar per range of ranks, split by move. */
function drawRanks() {
  const host = $("ranks-chart");
  host.textContent = "";
  const r = view.ranks;
  const bins = r ? r.bins.filter((b) => b.total > 0) : [];
  if (!r || !r.top.length || bins.length === 0) {
    host.innerHTML = `<p class="muted empty">${patternOn ? "Not for patterns." : "No games for this position."}</p>`;
    return;
  }
  const row = 16, L = 56, R = 44, W = 360, H = bins.length * row + 4;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "ranks", role: "img", "aria-label": "Share of the top next moves by the players' ranks" }, host);
  bins.forEach((b, i) => {
    const y = 2 + i * row;
    const t = svgEl("text", { x: L - 4, y: y + row / 2 - 1, class: "axis", "text-anchor": "end", "dominant-baseline": "central" }, svg);
    t.textContent = b.ranks;
    let x = L;
    r.top.forEach((c, k) => {
      const w = ((b.counts[k] || 0) / b.total) * (W - L - R);
      if (w <= 0) return;
      const rect = svgEl("rect", { x, y, width: w, height: row - 4, fill: CHART_COLORS[k % CHART_COLORS.length], class: "share" }, svg);
      svgEl("title", {}, rect).textContent = `${human(c.move)} by ${b.ranks}: ${b.counts[k]} of ${b.total}`;
      x += w;
    });
    svgEl("rect", { x, y, width: Math.max(0, W - R - x), height: row - 4, class: "volume" }, svg);
    const n = svgEl("text", { x: W - R + 4, y: y + row / 2 - 1, class: "axis", "dominant-baseline": "central" }, svg);
    n.textContent = String(b.total);
  });
  host.appendChild(chartLegend(r.top, letterClasses()));
}

/** A chart's legend: each of its top moves in its colour, with the move's letter on the board. */
function chartLegend(top, letters) {
  const legend = document.createElement("div");
  legend.className = "legend";
  top.forEach((c, k) => {
    const l = letters.find((x) => x.move === c.move && x.color === c.color);
    const s = document.createElement("span");
    const sw = document.createElement("i");
    sw.style.background = CHART_COLORS[k % CHART_COLORS.length];
    s.append(sw, `${l ? l.letter + " " : ""}${human(c.move)}`);
    legend.appendChild(s);
  });
  return legend;
}

function label(b) {
  return b.from === b.to ? String(b.from) : `${b.from}–${b.to}`;
}

// ---- the game list -------------------------------------------------------------------------

function drawGames() {
  const g = view.games;
  const body = $("games-table").querySelector("tbody");
  body.textContent = "";
  const m = g ? g.matching : 0;
  const pat = patternOn;
  $("games-count").textContent = m ? `${m.toLocaleString()} ${pat ? "with the pattern" : "reached this position"}` : "";
  if (!g || !g.games.length) {
    const tr = body.insertRow();
    const td = tr.insertCell();
    td.colSpan = 6;
    td.className = "empty";
    td.textContent = m ? "No game on this page." : pat ? (state.pattern ? "No game has this pattern." : "Drag a rectangle on the board.") : "No game reached this position.";
  }
  for (const x of g ? g.games : []) {
    const tr = body.insertRow();
    tr.className = "clickable";
    tr.tabIndex = 0;
    tr.dataset.game = String(x.id);
    if (replay && replay.id === x.id) tr.classList.add("current");
    const player = (name, rank, won) => {
      const td = tr.insertCell();
      td.className = won ? "name winner" : "name";
      td.title = `${name || "?"} ${rank || ""}${won ? " (won)" : ""}`;
      const b = document.createElement("span");
      b.textContent = name || "?";
      td.appendChild(b);
      if (rank) {
        const r = document.createElement("small");
        r.textContent = ` ${rank}`;
        td.appendChild(r);
      }
    };
    player(x.black, x.black_rank, x.winner === "B");
    player(x.white, x.white_rank, x.winner === "W");
    const cell = (text, cls = "") => {
      const td = tr.insertCell();
      td.textContent = text;
      td.className = cls;
      return td;
    };
    cell(x.date);
    cell(x.result);
    cell(x.event || x.place || "", "event").title = [x.event, x.round, x.place].filter(Boolean).join(" · ");
    // A position's list gives the next move's number; a pattern's, the position of the
    // game's first hit (moves played before it), where the replay opens.
    const mv = cell(String(x.move_number), "num");
    if (x.colors_swapped) mv.title = "with colours exchanged";
    if (pat) mv.title = `first hit after move ${x.move_number} (${x.hits} hit${x.hits === 1 ? "" : "s"})`;
    const open = () => openGame(x.id, pat ? x.move_number : x.move_number - 1);
    tr.addEventListener("click", open);
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter") open(); });
  }
  for (const th of document.querySelectorAll("#games-table th[data-sort]")) {
    const k = th.dataset.sort;
    th.classList.toggle("asc", state.sort === k);
    th.classList.toggle("desc", state.sort === `-${k}`);
    th.setAttribute("aria-sort", state.sort === k ? "ascending" : state.sort === `-${k}` ? "descending" : "none");
  }
  const pages = Math.max(1, Math.ceil(m / PAGE));
  $("page-info").textContent = m ? `${state.page * PAGE + 1}–${Math.min(m, (state.page + 1) * PAGE)} of ${m.toLocaleString()}` : "";
  $("page-prev").disabled = state.page === 0;
  $("page-next").disabled = state.page + 1 >= pages;
}

function setPage(p) {
  state.page = p;
  pushUrl();
  refreshResults(++seq);
}

// ---- the replay board ----------------------------------------------------------------------

async function openGame(id, at) {
  try {
    const data = await api(`/api/game/${id}`);
    showReplay(data, at, id);
    state.game = id;
    state.at = replay.at;
    pushUrl();
  } catch (e) {
    message(e.message);
  }
}

function showReplay(data, at, id) {
  replay = { data, id, at: 0 };
  const info = data.info || {};
  $("replay-title").textContent = id === null ? "SGF record" : `Game ${id}`;
  $("replay-players").innerHTML = "";
  const side = (cls, name, rank) => {
    const s = document.createElement("span");
    s.className = "player";
    s.innerHTML = `<i class="dot ${cls}"></i>`;
    s.append(`${name || "?"}${rank ? " " + rank : ""}`);
    return s;
  };
  $("replay-players").append(side("black", info.PB, info.BR), side("white", info.PW, info.WR));
  const dl = $("replay-info");
  dl.textContent = "";
  const fields = [["Result", info.RE], ["Date", info.DT], ["Event", [info.EV, info.RO].filter(Boolean).join(" · ")],
    ["Place", info.PC], ["Komi", info.KM], ["Handicap", info.HA], ["Rules", info.RU], ["Moves", String(data.moves.length)]];
  for (const [k, v] of fields) {
    if (!v) continue;
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = v;
    dl.append(dt, dd);
  }
  const sgf = $("rp-sgf");
  sgf.hidden = id === null;
  if (id !== null) sgf.href = `/api/game/${id}.sgf`;
  $("rp-slider").max = String(data.moves.length);
  $("replay-hint").hidden = true;
  $("rp-search").disabled = false;
  replayBoard.resize(data.width, data.height);
  for (const tr of document.querySelectorAll("#games-table tr.current")) tr.classList.remove("current");
  const row = document.querySelector(`#games-table tr[data-game="${id}"]`);
  if (row) row.classList.add("current");
  goReplay(at === null || at === undefined ? data.moves.length : at, false);
}

/** The stones after `at` moves: the server's setup, moves and captures, applied in order. */
function replayStones(data, at) {
  const board = new Map();
  const put = (setup) => {
    if (!setup) return;
    for (const p of setup.B || []) board.set(p, "B");
    for (const p of setup.W || []) board.set(p, "W");
    for (const p of setup.E || []) board.delete(p);
  };
  put(data.setup);
  for (let i = 0; i < at && i < data.moves.length; i++) {
    const m = data.moves[i];
    put(m.setup);
    if (m.move !== "pass") board.set(m.move, m.color);
    for (const c of m.captures) board.delete(c);
  }
  if (at >= data.moves.length) put(data.final_setup);
  const black = [], white = [];
  for (const [p, c] of board) (c === "B" ? black : white).push(p);
  return { black, white };
}

function goReplay(at, push = true) {
  if (!replay) return;
  const d = replay.data;
  at = Math.max(0, Math.min(d.moves.length, at));
  replay.at = at;
  const { black, white } = replayStones(d, at);
  const lastMove = at > 0 ? d.moves[at - 1] : null;
  replayBoard.set({ black, white, last: lastMove && lastMove.move !== "pass" ? lastMove.move : null });
  const mv = lastMove ? ` · ${lastMove.color === "B" ? "●" : "○"} ${human(lastMove.move, d.height)}` : "";
  $("rp-counter").textContent = `${at} / ${d.moves.length}${mv}`;
  $("rp-slider").value = String(at);
  if (push && replay.id !== null) {
    state.at = at;
    pushUrl(true);
  }
}

function stepReplay(n) {
  if (replay) goReplay(replay.at + n);
}

/** "Search this position": the game's setup and moves up to here, as a query. */
async function searchReplayPosition() {
  if (!replay) return;
  const d = replay.data;
  const at = replay.at;
  const simple = !d.moves.slice(0, at).some((m) => m.setup) && !(d.setup.E || []).length;
  if (simple && d.width === d.height) {
    // The moves themselves (so back/forward walk the game), a pass where one side moved twice.
    const moves = [];
    let toMove = d.moves.length ? d.moves[0].color : "B";
    const first = toMove;
    for (const m of d.moves.slice(0, at)) {
      if (m.color !== toMove) moves.push("pass");
      moves.push(m.move);
      toMove = m.color === "B" ? "W" : "B";
    }
    const q = { ...state, ab: [...d.setup.B], aw: [...d.setup.W], toMove: first === "B" && !d.setup.B.length && !d.setup.W.length ? null : first, moves, page: 0 };
    if (await load(q)) return;
  }
  // Otherwise (a capture the rules refuse, setup in the middle): the stones as they stand.
  const { black, white } = replayStones(d, at);
  const next = d.moves[at];
  const toMove = next ? next.color : at > 0 && d.moves[at - 1].color === "B" ? "W" : "B";
  await load({ ...state, ab: black.sort(), aw: white.sort(), toMove, moves: [], page: 0 });
}

// ---- SGF paste and drop --------------------------------------------------------------------

/** Comments and other long texts are dropped when a record is too long for one request. */
function shrinkSgf(text) {
  return text.replace(/\b(C|GC)\[(?:\\.|[^\]\\])*\]/gs, "");
}

async function openSgfText(text) {
  let t = text;
  if (encodeURIComponent(t).length > 60000) t = shrinkSgf(t);
  if (encodeURIComponent(t).length > 60000) {
    message("This SGF record is too long to open here (over 60 KB without its comments).");
    return;
  }
  try {
    const data = await api("/api/sgf", new URLSearchParams({ sgf: t }));
    state.game = null;
    state.at = null;
    showReplay(data, data.moves.length, null);
    pushUrl();
    message(`Opened the record (${data.moves.length} moves). Step to any move and press “Search this position”.`, "info");
  } catch (e) {
    message(e.message);
  }
}

function readFile(file) {
  const r = new FileReader();
  r.onload = () => openSgfText(String(r.result));
  r.readAsText(file);
}

// ---- wiring --------------------------------------------------------------------------------

function readFilterForm() {
  const f = $("filter-form");
  const filters = {};
  for (const k of FILTER_KEYS) {
    const v = f.elements[k].value.trim();
    if (v !== "") filters[k] = v;
  }
  return { filters, swap: f.elements.swap.checked };
}

function writeFilterForm() {
  const f = $("filter-form");
  for (const k of FILTER_KEYS) f.elements[k].value = state.filters[k] || "";
  f.elements.swap.checked = state.swap;
  const n = Object.keys(state.filters).length + (state.swap ? 1 : 0);
  $("filter-summary").textContent = n ? `(${n} on)` : "";
}

let filterTimer = null;
function onFilterChange() {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(() => {
    const { filters, swap } = readFilterForm();
    state.filters = filters;
    state.swap = swap;
    state.page = 0;
    writeFilterForm();
    pushUrl();
    refreshResults(++seq);
  }, 250);
}

function wire() {
  $("btn-back").addEventListener("click", back);
  $("btn-forward").addEventListener("click", forward);
  $("btn-start").addEventListener("click", () => {
    redo = [];
    load({ ...state, ab: [], aw: [], toMove: null, moves: [], page: 0 });
  });
  $("btn-pass").addEventListener("click", () => load({ ...state, moves: [...state.moves, "pass"], page: 0 }));
  $("btn-setup").addEventListener("click", () => { if (patternOn) setPatternMode(false); setSetupMode(!setupTool); });
  $("btn-pattern").addEventListener("click", () => setPatternMode(!patternOn));
  for (const b of document.querySelectorAll("#pattern-tools [data-cell]")) {
    b.addEventListener("click", () => {
      cellTool = cellTool === b.dataset.cell ? null : b.dataset.cell;
      for (const o of document.querySelectorAll("#pattern-tools [data-cell]")) o.setAttribute("aria-pressed", String(o.dataset.cell === cellTool));
    });
  }
  $("pattern-where").addEventListener("change", (e) => changePattern({ where: e.target.value }));
  $("pattern-fixed").addEventListener("change", (e) => changePattern({ fixed: e.target.checked }));
  document.addEventListener("pointerup", () => {
    if (drag) onPatternDrag("up", drag.x1, drag.y1);
    searchBoard.dragging = false;
  });
  for (const b of document.querySelectorAll("#setup-tools [data-tool]")) {
    b.addEventListener("click", () => { setupTool = b.dataset.tool; setSetupMode(true); });
  }
  for (const b of document.querySelectorAll("#setup-tools [data-move]")) {
    b.addEventListener("click", () => editSetup(null, b.dataset.move));
  }
  $("btn-clear").addEventListener("click", () => load({ ...state, ab: [], aw: [], moves: [], page: 0 }));
  $("filter-form").addEventListener("input", onFilterChange);
  $("filter-form").addEventListener("submit", (e) => e.preventDefault());
  for (const th of document.querySelectorAll("#games-table th[data-sort]")) {
    th.tabIndex = 0;
    const sort = () => {
      if (patternOn) return;
      const k = th.dataset.sort;
      state.sort = state.sort === k ? `-${k}` : k;
      setPage(0);
    };
    th.addEventListener("click", sort);
    th.addEventListener("keydown", (e) => { if (e.key === "Enter") sort(); });
  }
  $("page-prev").addEventListener("click", () => setPage(Math.max(0, state.page - 1)));
  $("page-next").addEventListener("click", () => setPage(state.page + 1));
  $("rp-start").addEventListener("click", () => goReplay(0));
  $("rp-back10").addEventListener("click", () => stepReplay(-10));
  $("rp-back").addEventListener("click", () => stepReplay(-1));
  $("rp-next").addEventListener("click", () => stepReplay(1));
  $("rp-next10").addEventListener("click", () => stepReplay(10));
  $("rp-end").addEventListener("click", () => replay && goReplay(replay.data.moves.length));
  $("rp-slider").addEventListener("input", (e) => goReplay(parseInt(e.target.value, 10)));
  $("rp-search").addEventListener("click", searchReplayPosition);
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", () => restore());

  const dialog = $("sgf-dialog");
  $("open-sgf").addEventListener("click", () => { $("sgf-text").value = ""; dialog.showModal(); });
  $("sgf-file").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (f) { dialog.close(); readFile(f); }
  });
  $("sgf-form").addEventListener("submit", (e) => {
    if (e.submitter && e.submitter.value === "load") {
      const t = $("sgf-text").value;
      if (t.trim()) openSgfText(t);
    }
  });
  const zone = $("drop-zone");
  let depth = 0;
  document.addEventListener("dragenter", (e) => { if (e.dataTransfer.types.includes("Files")) { depth++; zone.hidden = false; } });
  document.addEventListener("dragleave", () => { if (--depth <= 0) { depth = 0; zone.hidden = true; } });
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    depth = 0;
    zone.hidden = true;
    const f = e.dataTransfer.files[0];
    if (f) readFile(f);
    else {
      const t = e.dataTransfer.getData("text/plain");
      if (t) openSgfText(t);
    }
  });
  document.addEventListener("paste", (e) => {
    if (e.target.closest && e.target.closest("input, textarea")) return;
    const t = e.clipboardData.getData("text/plain");
    if (t && t.includes("(;")) openSgfText(t);
  });
}

function back() {
  if (!state.moves.length) return;
  const moves = state.moves.slice(0, -1);
  const taken = state.moves[state.moves.length - 1];
  const saved = [...redo, taken];
  load({ ...state, moves, page: 0 }, { keepRedo: true }).then((ok) => { if (ok) { redo = saved; drawPosition(); } });
}

function forward() {
  if (!redo.length) return;
  const move = redo[redo.length - 1];
  const rest = redo.slice(0, -1);
  load({ ...state, moves: [...state.moves, move], page: 0 }, { keepRedo: true }).then((ok) => { if (ok) { redo = rest; drawPosition(); } });
}

function onKey(e) {
  if (e.target.closest && e.target.closest("input, textarea, select, dialog")) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const r = !!replay;
  const keys = {
    ArrowLeft: () => (r ? stepReplay(-1) : back()),
    ArrowRight: () => (r ? stepReplay(1) : forward()),
    ArrowUp: () => r && stepReplay(-10),
    ArrowDown: () => r && stepReplay(10),
    Home: () => r && goReplay(0),
    End: () => r && goReplay(replay.data.moves.length),
  };
  const f = keys[e.key];
  if (f) {
    e.preventDefault();
    f();
  }
}

/** Sets everything from the URL (first load, back and forward). */
async function restore() {
  readUrl();
  writeFilterForm();
  showPatternTools();
  redo = [];
  const ok = await load({ ...state }, { push: false, keepRedo: false });
  if (!ok) {
    await load({ ...state, ab: [], aw: [], toMove: null, moves: [] }, { push: false });
  }
  if (state.game !== null && (!replay || replay.id !== state.game)) {
    try {
      const data = await api(`/api/game/${state.game}`);
      showReplay(data, state.at, state.game);
    } catch (e) {
      message(e.message);
    }
  } else if (replay && state.at !== null && replay.id === state.game) {
    goReplay(state.at, false);
  }
}

async function start() {
  wire();
  api("/api/info").then((i) => {
    $("index-info").textContent = `${i.games.toLocaleString()} games · ${i.name}`;
  }).catch(() => {});
  await restore();
  document.body.dataset.ready = "1";
}

start();

// ---- pattern mode --------------------------------------------------------------------------

function showPatternTools() {
  $("btn-pattern").setAttribute("aria-pressed", String(patternOn));
  $("pattern-tools").hidden = !patternOn;
  document.body.classList.toggle("pattern-mode", patternOn);
  searchBoard.onDrag = patternOn ? onPatternDrag : null;
  const pt = state.pattern;
  $("pattern-where").value = pt ? pt.where : "auto";
  $("pattern-fixed").checked = !!(pt && pt.fixed);
  document.querySelector("#search-col .panel-head h3").textContent = patternOn ? "Continuations" : "Next moves";
  document.querySelector("#next-table thead th:nth-child(3)").textContent = patternOn ? "Count" : "Games";
}

function setPatternMode(on) {
  if (on && setupTool) setSetupMode(false);
  patternOn = on;
  if (!on) state.pattern = null;
  state.page = 0;
  showPatternTools();
  pushUrl();
  drawPosition();
  refreshResults(++seq);
}

/** The placements the search allows (`area=L,T,R,B`), from the rectangle and the choice of
 *  where: in the corner nearest to it, along the nearest side, anywhere, or just where it is
 *  drawn; "auto" takes the corner if the rectangle touches two sides, the side if one.
 *  Every placement is searched in the 8 orientations, so one corner stands for all four. */
function patternArea(pt) {
  const N = 19;
  const [l, t, r, b] = pt.region;
  const w = r - l + 1, h = b - t + 1;
  let where = pt.where;
  if (where === "auto") {
    const sides = (l === 0 || r === N - 1 ? 1 : 0) + (t === 0 || b === N - 1 ? 1 : 0);
    where = sides === 2 ? "corner" : sides === 1 ? "side" : "anywhere";
  }
  const cx = l <= N - 1 - r ? 0 : N - w, cy = t <= N - 1 - b ? 0 : N - h;
  switch (where) {
    case "corner": return { where, area: `${cx},${cy},${cx},${cy}` };
    case "drawn": return { where, area: `${l},${t},${l},${t}` };
    case "side": {
      const edge = [[l, "left"], [N - 1 - r, "right"], [t, "top"], [N - 1 - b, "bottom"]].sort((a, c) => a[0] - c[0])[0][1];
      const area = { left: `0,0,0,${N - h}`, right: `${N - w},0,${N - w},${N - h}`,
        top: `0,0,${N - w},0`, bottom: `0,${N - h},${N - w},${N - h}` }[edge];
      return { where, area };
    }
    default: return { where: "anywhere", area: null };
  }
}

function patternParams(pt = state.pattern) {
  const p = new URLSearchParams();
  p.set("pattern", pt.rows.join("/"));
  const { area } = patternArea(pt);
  if (area) p.set("area", area);
  if (pt.fixed) p.set("fixed_color", "1");
  for (const k of FILTER_KEYS) if (state.filters[k] !== undefined && state.filters[k] !== "") p.set(k, state.filters[k]);
  return p;
}

// A pattern query streams its scan (/api/pattern/stream): progress lines, then the answer.
// A new query aborts the running one (the server stops a scan whose client has gone).

/** The running pattern scan's controller. */
let patternScan = null;
/** A scan's progress shows once it has run this long. */
const PROGRESS_AFTER_MS = 200;

function stopPatternScan() {
  if (patternScan) patternScan.abort();
  patternScan = null;
  showScanProgress(null);
}

/** The answer of a pattern API call that may be aborted. */
async function patternApi(path, params, signal) {
  const r = await fetch(`${path}?${params}`, { signal, headers: { Accept: "application/json" } });
  let body = null;
  try { body = await r.json(); } catch { body = null; }
  if (!r.ok) throw new ApiError(body, r.status);
  return body;
}

/** Reads a pattern scan's stream: each progress object to onProgress; returns the answer. */
async function streamPattern(params, signal, onProgress) {
  const r = await fetch(`/api/pattern/stream?${params}`, { signal, headers: { Accept: "application/x-ndjson" } });
  if (!r.ok) {
    let body = null;
    try { body = await r.json(); } catch { body = null; }
    throw new ApiError(body, r.status);
  }
  const reader = r.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buf += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line) continue;
      const obj = JSON.parse(line);
      if (obj.progress) onProgress(obj.progress);
      else if (obj.error) throw new ApiError(obj, 503);
      else return obj;
    }
    if (done) throw new Error("the pattern search ended without an answer");
  }
}

/** The scan's progress bar and counts (null: hidden). */
function showScanProgress(p) {
  const box = $("pattern-progress");
  if (!p) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("scan-bar").max = p.total || 1;
  $("scan-bar").value = p.scanned;
  $("scan-text").textContent = `Scanned ${p.scanned.toLocaleString()} of ${p.total.toLocaleString()} games`;
}

async function refreshPattern(my) {
  const pt = state.pattern;
  view.predicted = null;
  drawPredicted();
  stopPatternScan();
  if (!pt) {
    view.pattern = null;
    view.games = null;
    view.years = null;
    view.ranks = null;
    drawPosition();
    drawTable();
    drawGames();
    drawYears();
    drawRanks();
    return;
  }
  const search = patternParams(pt);
  search.set("by_year", "1");
  const games = patternParams(pt);
  games.set("limit", String(PAGE));
  games.set("offset", String(state.page * PAGE));
  const scan = new AbortController();
  patternScan = scan;
  const started = performance.now();
  document.body.classList.add("loading");
  try {
    // The game list after the answer: the server keeps the scan, so it costs no new one.
    const found = await streamPattern(search, scan.signal, (p) => {
      if (my !== seq || performance.now() - started < PROGRESS_AFTER_MS) return;
      showScanProgress(p);
      view.pattern = { ...p, partial: true };
      drawPosition();
      drawTable();
    });
    if (my !== seq) return;
    const list = await patternApi("/api/pattern/games", games, scan.signal);
    if (my !== seq) return;
    view.pattern = found;
    view.games = list;
    view.years = patternYears(found);
    view.ranks = null;
    drawRanks();
    drawPosition();
    drawTable();
    drawGames();
    drawYears();
    const { where } = patternArea(pt);
    message(`Pattern ${pt.rows[0].length}×${pt.rows.length}, ${where === "drawn" ? "as drawn" : where === "anywhere" ? "anywhere" : `in the ${where}`}, in any orientation${pt.fixed ? "" : ", colours exchanged too"}.`, "info");
  } catch (e) {
    if (e.name === "AbortError") return;
    if (my === seq) message(e.message);
  } finally {
    if (patternScan === scan) patternScan = null;
    if (my === seq) {
      document.body.classList.remove("loading");
      showScanProgress(null);
    }
  }
}

/** The continuations with their cells as board points of the drawn rectangle. */
function patternNext() {
  const f = view.pattern, pt = state.pattern;
  if (!f || !pt) return [];
  const at = (cell) => {
    const x = cell.charCodeAt(0) - 97, y = cell.charCodeAt(1) - 97;
    return pointName(pt.region[0] + x, pt.region[1] + y);
  };
  return f.continuations.map((c) => ({ ...c, cell: c.move, move: at(c.move), equivalent: c.equivalent.map(at) }));
}

/** The search board in pattern mode: the position outside the rectangle (dimmed), the
 *  pattern's cells inside it, the continuations as letters. */
function patternDrawing(p) {
  const pt = state.pattern;
  const rg = drag
    ? [Math.min(drag.x0, drag.x1), Math.min(drag.y0, drag.y1), Math.max(drag.x0, drag.x1), Math.max(drag.y0, drag.y1)]
    : pt ? pt.region : null;
  if (!pt || drag) {
    return { black: p.black, white: p.white, region: rg, letters: [] };
  }
  const [l, t] = pt.region;
  const inside = (name) => {
    const x = name.charCodeAt(0) - 97, y = name.charCodeAt(1) - 97;
    return x >= l && x <= pt.region[2] && y >= t && y <= pt.region[3];
  };
  const black = p.black.filter((n) => !inside(n)), white = p.white.filter((n) => !inside(n)), marks = [];
  pt.rows.forEach((row, y) => [...row].forEach((c, x) => {
    const name = pointName(l + x, t + y);
    if (c === "X") black.push(name);
    else if (c === "O") white.push(name);
    else if (c !== ".") marks.push({ move: name, kind: c });
  }));
  return { black, white, region: pt.region, marks, letters: letterClasses() };
}

function onPatternDrag(kind, x, y) {
  if (kind === "down") {
    drag = { x0: x, y0: y, x1: x, y1: y };
  } else if (kind === "over" && drag) {
    drag.x1 = x;
    drag.y1 = y;
  } else if (kind === "up" && drag) {
    const d = drag;
    drag = null;
    const pt = state.pattern;
    if (d.x0 === x && d.y0 === y && pt && x >= pt.region[0] && x <= pt.region[2] && y >= pt.region[1] && y <= pt.region[3]) {
      editCell(x - pt.region[0], y - pt.region[1]);
      return;
    }
    setRegion([Math.min(d.x0, x), Math.min(d.y0, y), Math.max(d.x0, x), Math.max(d.y0, y)]);
    return;
  }
  drawPosition();
}

/** A new rectangle: its cells as the position holds them. */
function setRegion(region) {
  const p = view.position;
  const [l, t, r, b] = region;
  const rows = [];
  for (let y = t; y <= b; y++) {
    let row = "";
    for (let x = l; x <= r; x++) {
      const n = pointName(x, y);
      row += p.black.includes(n) ? "X" : p.white.includes(n) ? "O" : ".";
    }
    rows.push(row);
  }
  const old = state.pattern;
  changePattern({ rows, region, where: old ? old.where : "auto", fixed: old ? old.fixed : false });
}

function editCell(x, y) {
  const pt = state.pattern;
  const row = [...pt.rows[y]];
  row[x] = cellTool || CELLS[(CELLS.indexOf(row[x]) + 1) % CELLS.length];
  const rows = [...pt.rows];
  rows[y] = row.join("");
  changePattern({ rows });
}

function changePattern(change) {
  if (!state.pattern && !change.rows) return;
  state.pattern = { ...state.pattern, ...change };
  state.page = 0;
  view.pattern = null;
  pushUrl();
  drawPosition();
  refreshResults(++seq);
}

function drawPatternTable() {
  const body = $("next-table").querySelector("tbody");
  body.textContent = "";
  const f = view.pattern;
  $("total").textContent = f ? `${f.hits.toLocaleString()} hits in ${f.games.toLocaleString()} games${f.partial ? " so far" : ""}` : "";
  const next = patternNext();
  if (!next.length) {
    const tr = body.insertRow();
    const td = tr.insertCell();
    td.colSpan = 5;
    td.className = "empty";
    td.textContent = !state.pattern ? "Drag a rectangle on the board to search for its pattern."
      : f ? (f.hits ? "No later move fell inside the pattern." : "No game has this pattern.") : "Searching…";
    return;
  }
  const total = next.reduce((n, c) => n + c.count, 0);
  const letters = new Map(letterClasses().map((c) => [`${c.color}${c.move}`, c.letter]));
  const shown = showAllNext ? next : next.slice(0, TABLE_ROWS);
  for (const c of shown) {
    const tr = body.insertRow();
    tr.className = "pattern-row";
    tr.dataset.move = c.move;
    const letter = letters.get(`${c.color}${c.move}`) || "";
    tr.insertCell().innerHTML = `<span class="chip ${c.color === "W" ? "white" : "black"}">${letter}</span>`;
    const mv = tr.insertCell();
    mv.textContent = human(c.move);
    mv.title = `pattern cell ${c.cell}${c.equivalent.length > 1 ? `, same as ${c.equivalent.map((m) => human(m)).join(", ")}` : ""}`;
    const n = tr.insertCell();
    n.className = "num";
    n.textContent = c.count.toLocaleString();
    const now = pct(c.immediate, total), later = pct(c.tenuki, total);
    bar(tr.insertCell(), "share", [["", now], ["later", later]], `${pct(c.count, total)}% · ${c.tenuki} tenuki`,
      `${c.immediate} played at once, ${c.tenuki} after a tenuki (of ${total} continuations)`);
    const bw = pct(c.black_wins, c.count), ww = pct(c.white_wins, c.count);
    bar(tr.insertCell(), "wins", [["b", bw], ["w", ww]], `${Math.round(bw)} / ${Math.round(ww)}`,
      `Black won ${bw}%, White won ${ww}% (of ${c.count})`);
    tr.addEventListener("mouseenter", () => searchBoard.highlight(c.move));
    tr.addEventListener("mouseleave", () => searchBoard.highlight(null));
  }
  if (next.length > TABLE_ROWS) {
    const td = body.insertRow().insertCell();
    td.colSpan = 5;
    td.className = "more";
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = showAllNext ? "Show fewer" : `Show all ${next.length} continuations`;
    b.addEventListener("click", () => { showAllNext = !showAllNext; drawTable(); });
    td.appendChild(b);
  }
}

/** The chart's data from the pattern's date profile: the top continuations' counts, year
 *  by year, against all continuations of that year. */
function patternYears(f) {
  const years = f.years || {};
  const top = patternNext().filter((c) => c.move).slice(0, 5);
  const bins = Object.keys(years).map(Number).filter((y) => y > 0).sort((a, b) => a - b).map((y) => ({
    from: y, to: y, total: years[y].continuations,
    counts: top.map((c) => (c.by_year && c.by_year[y]) || 0),
  }));
  return { top, bins, unknown_year: years[0] ? years[0].continuations : 0 };
}

// ---- predicted moves -----------------------------------------------------------------------

/** The move predictor's guesses where no game of the index continues with the side to move
 *  (null when there are next moves, or the server has no predictor: a 404). */
async function predictions(search) {
  const p = view.position;
  if (!p || (search.next || []).some((c) => c.color === p.to_move)) return null;
  try {
    return await api("/api/predict", positionParams());
  } catch {
    return null;
  }
}

function predictedLetters() {
  const v = view.predicted;
  if (!v || patternOn || setupTool) return [];
  return v.predicted.slice(0, 5).map((g, i) => ({ move: g.move, color: v.to_move, letter: String(i + 1), predicted: true }));
}

function drawPredicted() {
  const host = $("predicted");
  const v = view.predicted;
  host.hidden = !v || !v.predicted.length || patternOn;
  if (host.hidden) return;
  host.textContent = "";
  const head = document.createElement("div");
  head.className = "panel-head";
  head.innerHTML = "<h3>Predicted moves</h3>";
  const note = document.createElement("p");
  note.className = "muted";
  note.textContent = "No game of the index continues from here: these are the move predictor's guesses (numbered on the board), not moves from games.";
  const ol = document.createElement("ol");
  ol.className = "predicted";
  for (const g of v.predicted.slice(0, 5)) {
    const li = document.createElement("li");
    li.textContent = human(g.move);
    li.dataset.move = g.move;
    ol.appendChild(li);
  }
  host.append(head, note, ol);
}
