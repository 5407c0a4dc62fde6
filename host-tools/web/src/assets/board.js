// An SVG Go board: draws what it is told (stones, letters, the last move, the ko point)
// and reports clicks. It knows no rules: positions come from the server.

const NS = "http://www.w3.org/2000/svg";
const CELL = 24;
const MARGIN = 30;
const COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/** SGF letters "pd" -> [15, 3]; null for a pass or anything else. */
export function parsePoint(s) {
  if (typeof s !== "string" || s.length !== 2) return null;
  const x = s.charCodeAt(0) - 97, y = s.charCodeAt(1) - 97;
  if (x < 0 || y < 0 || x > 25 || y > 25) return null;
  return [x, y];
}

/** [15, 3] -> "pd". */
export function pointName(x, y) {
  return String.fromCharCode(97 + x) + String.fromCharCode(97 + y);
}

/** Human coordinates: "pd" on 19x19 -> "Q16"; "pass" stays. */
export function human(move, height = 19) {
  const p = parsePoint(move);
  if (!p) return move === "pass" ? "pass" : move;
  return COLUMNS[p[0]] + String(height - p[1]);
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function starPoints(w, h) {
  if (w !== h) return [];
  const lines = { 19: [3, 9, 15], 13: [3, 6, 9], 9: [2, 6] }[w];
  const out = [];
  if (lines) for (const x of lines) for (const y of lines) out.push([x, y]);
  if (w % 2 === 1 && w >= 7) out.push([(w - 1) / 2, (w - 1) / 2]);
  return out;
}

let boardCount = 0;

export class Board {
  /**
   * @param {HTMLElement} host
   * @param {{width?: number, height?: number, label?: string, onClick?: (x:number, y:number) => void}} opts
   */
  constructor(host, opts = {}) {
    this.host = host;
    this.onClick = opts.onClick || null;
    /** Pattern mode: (kind, x, y) for "down", "over" and "up" instead of clicks. */
    this.onDrag = null;
    this.label = opts.label || "Go board";
    this.id = ++boardCount;
    this.hoverColor = null;
    this.state = { black: [], white: [], letters: [], last: null, ko: null, highlight: null, region: null, marks: [] };
    this.resize(opts.width || 19, opts.height || 19);
  }

  /** Rebuilds the grid for a board size. */
  resize(w, h) {
    if (this.svg && this.w === w && this.h === h) return;
    this.w = w;
    this.h = h;
    const W = 2 * MARGIN + (w - 1) * CELL, H = 2 * MARGIN + (h - 1) * CELL;
    this.host.textContent = "";
    const svg = el("svg", {
      viewBox: `0 0 ${W} ${H}`, class: "board", role: "img", "aria-label": this.label,
    });
    const defs = el("defs", {}, svg);
    const g1 = el("radialGradient", { id: `bs${this.id}`, cx: "35%", cy: "30%", r: "70%" }, defs);
    el("stop", { offset: "0%", "stop-color": "#666" }, g1);
    el("stop", { offset: "45%", "stop-color": "#222" }, g1);
    el("stop", { offset: "100%", "stop-color": "#000" }, g1);
    const g2 = el("radialGradient", { id: `ws${this.id}`, cx: "35%", cy: "30%", r: "75%" }, defs);
    el("stop", { offset: "0%", "stop-color": "#fff" }, g2);
    el("stop", { offset: "70%", "stop-color": "#eceae4" }, g2);
    el("stop", { offset: "100%", "stop-color": "#b9b5ab" }, g2);
    el("rect", { x: 0, y: 0, width: W, height: H, rx: 6, class: "wood" }, svg);
    const grid = el("g", { class: "grid" }, svg);
    for (let i = 0; i < w; i++) {
      const x = MARGIN + i * CELL;
      el("line", { x1: x, y1: MARGIN, x2: x, y2: MARGIN + (h - 1) * CELL }, grid);
      for (const [y, base] of [[MARGIN - 16, "auto"], [MARGIN + (h - 1) * CELL + 16, "auto"]]) {
        const t = el("text", { x, y, class: "coord", "dominant-baseline": "middle", "text-anchor": "middle" }, svg);
        t.textContent = COLUMNS[i];
        void base;
      }
    }
    for (let j = 0; j < h; j++) {
      const y = MARGIN + j * CELL;
      el("line", { x1: MARGIN, y1: y, x2: MARGIN + (w - 1) * CELL, y2: y }, grid);
      for (const x of [MARGIN - 17, MARGIN + (w - 1) * CELL + 17]) {
        const t = el("text", { x, y, class: "coord", "dominant-baseline": "central", "text-anchor": "middle" }, svg);
        t.textContent = String(h - j);
      }
    }
    el("rect", {
      x: MARGIN, y: MARGIN, width: (w - 1) * CELL, height: (h - 1) * CELL, class: "edge",
    }, grid);
    for (const [x, y] of starPoints(w, h)) {
      el("circle", { cx: MARGIN + x * CELL, cy: MARGIN + y * CELL, r: 2.6, class: "star" }, grid);
    }
    this.layer = el("g", {}, svg);
    this.ghost = el("circle", { r: CELL * 0.46, class: "ghost", visibility: "hidden" }, svg);
    // One transparent target per point, for clicks and hover.
    const hits = el("g", { class: "hits" }, svg);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const r = el("rect", {
          x: MARGIN + x * CELL - CELL / 2, y: MARGIN + y * CELL - CELL / 2,
          width: CELL, height: CELL, "data-point": pointName(x, y),
        }, hits);
        r.addEventListener("click", () => !this.onDrag && this.onClick && this.onClick(x, y));
        r.addEventListener("mouseenter", () => this._hover(x, y));
        r.addEventListener("pointerdown", (e) => {
          if (!this.onDrag) return;
          e.preventDefault();
          this.dragging = true;
          this.onDrag("down", x, y);
        });
        r.addEventListener("pointerenter", () => this.dragging && this.onDrag && this.onDrag("over", x, y));
        r.addEventListener("pointerup", () => {
          if (!this.dragging || !this.onDrag) return;
          this.dragging = false;
          this.onDrag("up", x, y);
        });
      }
    }
    hits.addEventListener("mouseleave", () => this.ghost.setAttribute("visibility", "hidden"));
    // Touch: pointer events stay with the first target; follow the finger by position.
    hits.addEventListener("pointermove", (e) => {
      if (!this.dragging || !this.onDrag || e.pointerType === "mouse") return;
      const t = document.elementFromPoint(e.clientX, e.clientY);
      const name = t && t.dataset ? t.dataset.point : null;
      if (name) this.onDrag("over", name.charCodeAt(0) - 97, name.charCodeAt(1) - 97);
    });
    this.svg = svg;
    this.host.appendChild(svg);
    if (this.onClick) svg.classList.add("interactive");
    this.render();
  }

  /** The colour of the ghost stone under the pointer ("B", "W", "E" or null). */
  setHover(color) {
    this.hoverColor = color;
  }

  _occupied(x, y) {
    const n = pointName(x, y);
    return this.state.black.includes(n) || this.state.white.includes(n);
  }

  _hover(x, y) {
    const c = this.onDrag ? null : this.hoverColor;
    if (!this.onClick || !c || (c !== "E" && this._occupied(x, y))) {
      this.ghost.setAttribute("visibility", "hidden");
      return;
    }
    this.ghost.setAttribute("cx", MARGIN + x * CELL);
    this.ghost.setAttribute("cy", MARGIN + y * CELL);
    this.ghost.setAttribute("class", `ghost ${c === "B" ? "black" : c === "W" ? "white" : "erase"}`);
    this.ghost.setAttribute("visibility", "visible");
  }

  /**
   * Draws a position.
   * @param {{black: string[], white: string[], letters?: {move: string, letter: string, color: string}[],
   *          last?: string|null, ko?: string|null, highlight?: string|null}} s
   */
  set(s) {
    this.state = { letters: [], last: null, ko: null, highlight: null, region: null, marks: [], ...s };
    this.render();
  }

  /** Emphasises one letter's point (a table row under the pointer), or none. */
  highlight(move) {
    this.state.highlight = move;
    for (const g of this.layer.querySelectorAll(".letter")) {
      g.classList.toggle("hl", g.dataset.move === move);
    }
  }

  render() {
    const L = this.layer;
    L.textContent = "";
    const c = (p) => [MARGIN + p[0] * CELL, MARGIN + p[1] * CELL];
    for (const [list, color] of [[this.state.black, "B"], [this.state.white, "W"]]) {
      for (const name of list) {
        const p = parsePoint(name);
        if (!p) continue;
        const [cx, cy] = c(p);
        el("circle", { cx: cx + 1, cy: cy + 1.5, r: CELL * 0.47, class: "shadow" }, L);
        el("circle", {
          cx, cy, r: CELL * 0.47, fill: `url(#${color === "B" ? "bs" : "ws"}${this.id})`,
          class: `stone ${color === "B" ? "black" : "white"}`, "data-point": name,
        }, L);
      }
    }
    const last = parsePoint(this.state.last);
    if (last) {
      const [cx, cy] = c(last);
      const onBlack = this.state.black.includes(this.state.last);
      el("circle", { cx, cy, r: CELL * 0.2, class: `last ${onBlack ? "on-black" : "on-white"}` }, L);
    }
    const ko = parsePoint(this.state.ko);
    if (ko) {
      const [cx, cy] = c(ko);
      el("rect", { x: cx - 5, y: cy - 5, width: 10, height: 10, class: "ko" }, L);
    }
    // Pattern mode: the rectangle, the board outside it dimmed, the wildcard cells marked
    // (x: black or empty, o: white or empty, *: anything; "." is the plain empty point).
    const rg = this.state.region;
    if (rg) {
      const [l, t, r, b] = rg;
      const x0 = MARGIN + (l - 0.5) * CELL, y0 = MARGIN + (t - 0.5) * CELL;
      const x1 = MARGIN + (r + 0.5) * CELL, y1 = MARGIN + (b + 0.5) * CELL;
      const W = 2 * MARGIN + (this.w - 1) * CELL, H = 2 * MARGIN + (this.h - 1) * CELL;
      el("path", {
        d: `M0 0H${W}V${H}H0Z M${x0} ${y0}V${y1}H${x1}V${y0}Z`, class: "outside", "fill-rule": "evenodd",
      }, L);
      el("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: "region" }, L);
    }
    for (const m of this.state.marks) {
      const p = parsePoint(m.move);
      if (!p) continue;
      const [cx, cy] = c(p);
      const g = el("g", { class: `mark ${m.kind === "x" ? "maybe-black" : m.kind === "o" ? "maybe-white" : "any"}`, "data-mark": m.kind, "data-point": m.move }, L);
      if (m.kind === "*") {
        const t = el("text", { x: cx, y: cy + 1, "text-anchor": "middle", "dominant-baseline": "central" }, g);
        t.textContent = "✱";
      } else {
        el("circle", { cx, cy, r: CELL * 0.3 }, g);
      }
    }
    for (const m of this.state.letters) {
      const p = parsePoint(m.move);
      if (!p || this._occupied(p[0], p[1])) continue;
      const [cx, cy] = c(p);
      const g = el("g", {
        class: `letter ${m.color === "W" ? "white" : "black"}${this.state.highlight === m.move ? " hl" : ""}${m.predicted ? " prediction" : ""}`,
        "data-move": m.move, "data-letter": m.letter,
      }, L);
      el("circle", { cx, cy, r: CELL * 0.42, class: "letter-bg" }, g);
      const t = el("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central" }, g);
      t.textContent = m.letter;
    }
  }
}
