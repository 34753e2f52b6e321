// The map drawn to scale as SVG: terrain, grid, zones, elevation, creature tokens, highlights.

export const CELL = 32;
const SVGNS = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

function hexRgb(colour) {
  let c = (colour || "#888888").replace("#", "");
  if (c.length === 3) c = [...c].map((ch) => ch + ch).join("");
  return [0, 2, 4].map((i) => parseInt(c.slice(i, i + 2), 16) / 255);
}

function isDark(colour) {
  const ch = (v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = hexRgb(colour).map(ch);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.25;
}

export function ink(colour) {
  return isDark(colour) ? "#f5f5f5" : "#1e1e1e";
}

function mix(colour, other, t) {
  const a = hexRgb(colour);
  const b = hexRgb(other);
  return "#" + a.map((v, i) => Math.round((v + (b[i] - v) * t) * 255).toString(16).padStart(2, "0")).join("");
}

function hpColour(frac) {
  if (frac > 0.5) return "#3fa34d";
  if (frac > 0.25) return "#e0a21e";
  return "#d1402f";
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const key = (x, y) => `${x},${y}`;

/** Whether a creature is out of the fight (destroyed, dead, down...). */
export function isDown(c) {
  return c.status !== "active" && c.status !== "removed";
}

export class Board {
  /**
   * @param {SVGSVGElement} svg the element to draw in
   * @param {object} handlers onSquare(x, y, event), onToken(cid, event), onHover(x, y | null)
   */
  constructor(svg, handlers = {}) {
    this.svg = svg;
    this.handlers = handlers;
    this.mapKey = null;
    this.tokens = new Map();
    this.state = null;
    this.hoverKey = null;
    svg.addEventListener("click", (e) => this.#click(e));
    svg.addEventListener("mousemove", (e) => this.#hover(e));
    svg.addEventListener("mouseleave", () => this.#hoverAt(null));
  }

  #click(e) {
    const tok = e.target.closest("[data-cid]");
    if (tok) {
      this.handlers.onToken?.(tok.dataset.cid, e, this.#squareAt(e));
      return;
    }
    const sq = e.target.closest("[data-sq]");
    if (sq) this.handlers.onSquare?.(Number(sq.dataset.x), Number(sq.dataset.y), e);
  }

  /** The map square under the pointer, or null off the map. */
  #squareAt(e) {
    if (!this.state) return null;
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = pt.matrixTransform(m.inverse());
    const x = Math.floor(p.x / CELL);
    const y = Math.floor(p.y / CELL);
    return x >= 0 && y >= 0 && x < this.state.map.width && y < this.state.map.height ? [x, y] : null;
  }

  #hover(e) {
    this.#hoverAt(this.#squareAt(e));
  }

  #hoverAt(sq) {
    const k = sq ? key(...sq) : null;
    if (k === this.hoverKey) return;
    this.hoverKey = k;
    this.handlers.onHover?.(sq);
  }

  /** Draw a state: the map once per map, then every creature where it stands now. */
  setState(state) {
    this.state = state;
    const m = state.map;
    const mk = `${m.width}x${m.height}:${m.rows.join("")}:${Object.keys(m.zones || {}).join(",")}`;
    if (mk !== this.mapKey) {
      this.#drawMap(m);
      this.mapKey = mk;
    }
    this.sideColour = Object.fromEntries((state.sides || []).map((s) => [s.name, s.colour]));
    this.#drawTokens(state);
  }

  #drawMap(m) {
    const svg = this.svg;
    svg.replaceChildren();
    this.tokens.clear();
    const W = m.width * CELL;
    const H = m.height * CELL;
    svg.setAttribute("viewBox", `-2 -2 ${W + 4} ${H + 4}`);
    svg.dataset.width = m.width;
    svg.dataset.height = m.height;
    const terrain = el("g", { class: "terrain" }, svg);
    const floor = m.terrain["."]?.colour || "#f4f1e8";
    for (let y = 0; y < m.height; y++) {
      const row = m.rows[y] || "";
      for (let x = 0; x < m.width; x++) {
        const ch = row[x] ?? ".";
        const t = m.terrain[ch];
        const corner = t && /^diagonal_wall_(nw|ne|sw|se)$/.exec(t.name);
        const colour = t && !corner ? t.colour : floor;
        const r = el("rect", {
          x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: colour,
          class: "sq", "data-sq": "", "data-x": x, "data-y": y, "data-testid": `square-${x}-${y}`,
          "data-terrain": t ? t.name : "floor",
        }, terrain);
        if (t && t.difficult) r.classList.add("difficult");
        if (corner) {
          // The solid half holds the named corner, as in the PNG renderer.
          const tri = { nw: [[0, 0], [1, 0], [0, 1]], ne: [[0, 0], [1, 0], [1, 1]], sw: [[0, 0], [1, 1], [0, 1]], se: [[1, 0], [1, 1], [0, 1]] }[corner[1]];
          const pts = tri.map(([dx, dy]) => `${(x + dx) * CELL},${(y + dy) * CELL}`).join(" ");
          el("polygon", { points: pts, fill: t.colour, class: "deco" }, terrain);
        }
        if (t && t.name !== "floor") {
          const title = el("title", {}, r);
          title.textContent = `[${x}, ${y}] ${t.name}`;
        }
        if (t && t.difficult && t.name !== "wall") {
          // Dots mark difficult ground, so it reads apart from plain floor without its colour.
          el("circle", { cx: x * CELL + CELL * 0.3, cy: y * CELL + CELL * 0.7, r: 1.3, fill: mix(colour, "#000000", 0.35), class: "deco" }, terrain);
          el("circle", { cx: x * CELL + CELL * 0.7, cy: y * CELL + CELL * 0.35, r: 1.3, fill: mix(colour, "#000000", 0.35), class: "deco" }, terrain);
        }
      }
    }
    if (m.elevation) {
      const elev = el("g", { class: "elevation" }, svg);
      for (let y = 0; y < m.height; y++) {
        for (let x = 0; x < m.width; x++) {
          const h = m.elevation[y]?.[x] || 0;
          if (h <= 0) continue;
          el("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: "#5a3d1e", opacity: Math.min(0.08 * h, 0.4) }, elev);
          const t = el("text", { x: x * CELL + 3, y: y * CELL + 10, class: "elev" }, elev);
          t.textContent = String(h);
        }
      }
    }
    const grid = el("g", { class: "grid" }, svg);
    let d = "";
    for (let x = 0; x <= m.width; x++) d += `M${x * CELL} 0V${H}`;
    for (let y = 0; y <= m.height; y++) d += `M0 ${y * CELL}H${W}`;
    el("path", { d }, grid);
    const zones = el("g", { class: "zones" }, svg);
    for (const [name, z] of Object.entries(m.zones || {})) {
      const inZone = new Set(z.squares.map(([x, y]) => key(x, y)));
      let zd = "";
      for (const [x, y] of z.squares) {
        el("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: z.colour, opacity: 0.13 }, zones);
        if (!inZone.has(key(x, y - 1))) zd += `M${x * CELL} ${y * CELL}h${CELL}`;
        if (!inZone.has(key(x, y + 1))) zd += `M${x * CELL} ${(y + 1) * CELL}h${CELL}`;
        if (!inZone.has(key(x - 1, y))) zd += `M${x * CELL} ${y * CELL}v${CELL}`;
        if (!inZone.has(key(x + 1, y))) zd += `M${(x + 1) * CELL} ${y * CELL}v${CELL}`;
      }
      const p = el("path", { d: zd, stroke: z.colour, class: "zone-edge", "data-zone": name }, zones);
      const title = el("title", {}, p);
      title.textContent = name;
    }
    el("rect", { x: 0, y: 0, width: W, height: H, class: "frame" }, svg);
    this.hlLayer = el("g", { class: "highlights" }, svg);
    this.pathLayer = el("g", { class: "path" }, svg);
    this.tokenLayer = el("g", { class: "tokens" }, svg);
    this.markLayer = el("g", { class: "marks" }, svg);
    this.areaLayer = el("g", { class: "area" }, svg);
  }

  #drawTokens(state) {
    const seen = new Set();
    for (const [cid, c] of Object.entries(state.creatures)) {
      const placed = c.on_map || (isDown(c) && c.at && c.at[0] >= 0 && c.at[1] >= 0 && c.status !== "removed");
      if (!placed) continue;
      seen.add(cid);
      let tok = this.tokens.get(cid);
      if (!tok) {
        tok = el("g", { class: "token", "data-cid": cid, "data-testid": `token-${cid}` }, this.tokenLayer);
        this.tokens.set(cid, tok);
        this.#place(tok, c.at[0], c.at[1], false);
      }
      this.#paintToken(tok, cid, c, state);
      if (tok.dataset.x !== String(c.at[0]) || tok.dataset.y !== String(c.at[1])) this.#place(tok, c.at[0], c.at[1], false);
    }
    for (const [cid, tok] of this.tokens) {
      if (!seen.has(cid)) {
        tok.remove();
        this.tokens.delete(cid);
      }
    }
    // Living creatures drawn above the fallen.
    for (const [cid, tok] of this.tokens) {
      if (!isDown(state.creatures[cid])) this.tokenLayer.appendChild(tok);
    }
  }

  #place(tok, x, y, animate) {
    tok.classList.toggle("sliding", animate);
    tok.style.transform = `translate(${x * CELL}px, ${y * CELL}px)`;
    tok.dataset.x = x;
    tok.dataset.y = y;
  }

  #paintToken(tok, cid, c, state) {
    const size = (c.size || 1) * CELL;
    const colour = this.sideColour[c.side] || "#777777";
    const down = isDown(c);
    const sig = JSON.stringify([c.hp, c.max_hp, c.temp_hp, c.conditions, c.status, c.label, size, colour, state.turn === cid]);
    tok.dataset.hp = c.hp;
    tok.dataset.status = c.status;
    tok.dataset.side = c.side;
    tok.classList.toggle("down", down);
    tok.classList.toggle("acting", state.turn === cid && !down);
    if (tok.dataset.sig === sig) return;
    tok.dataset.sig = sig;
    tok.replaceChildren();
    const title = el("title", {}, tok);
    const conds = c.conditions.length ? `; ${c.conditions.join(", ")}` : "";
    title.textContent = `${c.name || cid} (${cid}), ${c.side}: ${c.hp}/${c.max_hp} HP${conds}${down ? ` (${c.status})` : ""}`;
    const fill = down ? "#9a9a9a" : colour;
    el("circle", { cx: size / 2, cy: size / 2, r: size / 2 - 2.5, fill, stroke: mix(fill, "#000000", 0.45), "stroke-width": 1.6, class: "disc" }, tok);
    const big = size / CELL;
    const label = el("text", { x: size / 2, y: size / 2 - 1.5 * big + (big > 1 ? 0 : 1), class: "tlabel", fill: ink(fill), "font-size": 11 * Math.min(big, 2) }, tok);
    label.textContent = c.label || cid.slice(0, 2);
    const hpText = el("text", { x: size / 2, y: size / 2 + 8.5 * Math.min(big, 1.6), class: "thp", fill: ink(fill), "data-testid": `hp-${cid}`, "font-size": 8 * Math.min(big, 1.6) }, tok);
    hpText.textContent = String(c.hp);
    const bw = size - 8;
    el("rect", { x: 4, y: size - 5, width: bw, height: 3.2, rx: 1.2, class: "hpbar-bg" }, tok);
    const frac = c.max_hp ? Math.max(0, Math.min(1, c.hp / c.max_hp)) : 0;
    el("rect", { x: 4, y: size - 5, width: bw * frac, height: 3.2, rx: 1.2, fill: hpColour(frac), class: "hpbar" }, tok);
    if (c.temp_hp) {
      el("rect", { x: 4, y: size - 8, width: Math.min(bw, (bw * c.temp_hp) / (c.max_hp || 1)), height: 2.2, fill: "#5fa8d3" }, tok);
    }
    c.conditions.slice(0, 4).forEach((name, i) => {
      const g = el("g", { class: "cond", "data-condition": name }, tok);
      const cx = size - 4 - i * 8;
      el("circle", { cx, cy: 4, r: 4.2, fill: condColour(name) }, g);
      const t = el("text", { x: cx, y: 6.3, class: "condtext" }, g);
      t.textContent = name[0].toUpperCase();
      el("title", {}, g).textContent = name;
    });
    if (down) {
      el("path", { d: `M${size * 0.25} ${size * 0.25}L${size * 0.75} ${size * 0.75}M${size * 0.75} ${size * 0.25}L${size * 0.25} ${size * 0.75}`, class: "downx" }, tok);
    }
  }

  /**
   * Mark squares and targets the human may click.
   * @param {Map<string, {x, y, cost, kind}>} squares key "x,y" -> what to write in it
   * @param {Map<string, {cover, ca}>} targets creature id -> cover word and combat advantage
   */
  setHighlights(squares, targets) {
    if (!this.hlLayer) return;
    this.hlLayer.replaceChildren();
    this.markLayer.replaceChildren();
    for (const sqr of this.svg.querySelectorAll(".sq.reachable")) sqr.classList.remove("reachable");
    for (const info of squares.values()) {
      const { x, y } = info;
      if (info.kind === "select") {
        const c = this.state?.creatures[info.cid];
        const size = ((c && c.size) || 1) * CELL;
        el("circle", { cx: x * CELL + size / 2, cy: y * CELL + size / 2, r: size / 2 + 0.5, class: "select-ring", "data-testid": `selectable-${info.cid}` }, this.markLayer);
        continue;
      }
      const sq = this.svg.querySelector(`[data-testid="square-${x}-${y}"]`);
      if (sq) sq.classList.add("reachable");
      el("rect", { x: x * CELL + 1.5, y: y * CELL + 1.5, width: CELL - 3, height: CELL - 3, rx: 3, class: `hl hl-${info.kind}` }, this.hlLayer);
      if (info.cost !== null && info.cost !== undefined) {
        const t = el("text", { x: x * CELL + CELL / 2, y: y * CELL + CELL / 2 + 4, class: "cost", "data-testid": `cost-${x}-${y}` }, this.hlLayer);
        t.textContent = String(info.cost);
      }
    }
    for (const [cid, info] of targets) {
      const tok = this.tokens.get(cid);
      const c = this.state?.creatures[cid];
      if (!tok || !c) continue;
      tok.classList.add("target");
      const size = (c.size || 1) * CELL;
      const g = el("g", { class: "target-mark", "data-testid": `target-${cid}`, transform: `translate(${c.at[0] * CELL} ${c.at[1] * CELL})` }, this.markLayer);
      el("circle", { cx: size / 2, cy: size / 2, r: size / 2 + 1, class: "target-ring" }, g);
      const words = [];
      if (info.cover) words.push(info.cover === "none" ? "no cover" : `${String(info.cover).replaceAll("_", " ")} cover`);
      if (info.ca) words.push("CA");
      if (words.length) {
        const text = words.join(" · ");
        const w = text.length * 4.6 + 6;
        el("rect", { x: size / 2 - w / 2, y: -9, width: w, height: 10, rx: 3, class: "target-tag" }, g);
        const t = el("text", { x: size / 2, y: -1.6, class: "target-text" }, g);
        t.textContent = text;
      }
    }
    for (const [cid, tok] of this.tokens) if (!targets.has(cid)) tok.classList.remove("target");
  }

  clearHighlights() {
    this.setHighlights(new Map(), new Map());
    this.showArea(null);
    this.showPath(null);
  }

  /** The squares an area action would hit, drawn over the map (null to clear). */
  showArea(squares) {
    if (!this.areaLayer) return;
    this.areaLayer.replaceChildren();
    for (const [x, y] of squares || []) {
      el("rect", { x: x * CELL + 1, y: y * CELL + 1, width: CELL - 2, height: CELL - 2, class: "area-sq", "data-testid": `area-${x}-${y}` }, this.areaLayer);
    }
  }

  /** A movement path drawn as a line through square centres (null to clear). */
  showPath(path, from) {
    if (!this.pathLayer) return;
    this.pathLayer.replaceChildren();
    if (!path || !path.length) return;
    const pts = (from ? [from, ...path] : path).map(([x, y]) => `${x * CELL + CELL / 2},${y * CELL + CELL / 2}`);
    el("polyline", { points: pts.join(" "), class: "move-path" }, this.pathLayer);
  }

  /** Slide tokens along the paths of movement events, and flash the targets of attacks. */
  async animate(events, ms = 240) {
    for (const e of events) {
      const cid = e.type === "forced_move" ? e.target : e.actor;
      const tok = cid ? this.tokens.get(cid) : null;
      if (["move", "shift", "charge", "forced_move", "teleport", "place"].includes(e.type) && tok) {
        const to = e.to || e.at;
        const path = e.path && e.path.length ? e.path : to ? [to] : [];
        const stepMs = Math.max(40, Math.floor(ms / Math.max(1, path.length)));
        tok.style.transitionDuration = `${stepMs}ms`;
        for (const [x, y] of path) {
          this.#place(tok, x, y, true);
          await sleep(stepMs);
        }
        tok.style.transitionDuration = "";
      } else if (e.type === "attack" && e.target) {
        const target = this.tokens.get(e.target);
        if (target) {
          target.classList.remove("flash", "flash-miss");
          void target.getBoundingClientRect();
          target.classList.add(e.hit ? "flash" : "flash-miss");
          setTimeout(() => target.classList.remove("flash", "flash-miss"), 420);
          await sleep(Math.min(ms, 220));
        }
      }
    }
  }
}

const COND_COLOURS = {
  dazed: "#f0c419", stunned: "#e67e22", immobilized: "#8e44ad", slowed: "#2980b9", weakened: "#7f8c8d",
  prone: "#6d4c41", blinded: "#34495e", bloodied: "#c0392b", ongoing: "#d35400", marked: "#16a085",
};

function condColour(name) {
  const base = name.split(/[_ ]/)[0];
  return COND_COLOURS[base] || "#555577";
}
