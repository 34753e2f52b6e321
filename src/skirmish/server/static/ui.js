// Small pieces of the page shared by the game and the replay: header, legend, creature card, errors.

/** The element with this data-testid. */
export function $(testid) {
  return document.querySelector(`[data-testid="${testid}"]`);
}

function span(cls, text, attrs = {}) {
  const s = document.createElement("span");
  if (cls) s.className = cls;
  if (text !== undefined) s.textContent = text;
  for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
  return s;
}

function colourOf(state, side) {
  return (state.sides.find((s) => s.name === side) || {}).colour || "#888";
}

/** Round, whose turn, and the score per side. */
export function renderHeader(state) {
  document.body.dataset.phase = state.phase || "";
  document.body.dataset.ruleset = state.ruleset || "";
  $("title").textContent = state.title || state.ruleset;
  $("round").textContent = String(state.round);
  const turn = $("turn");
  turn.replaceChildren();
  turn.dataset.side = state.current_side || "";
  turn.dataset.actor = state.turn || "";
  if (state.over) {
    turn.append(span("", "game over"));
  } else if (state.current_side) {
    const dot = span("side-dot");
    dot.style.setProperty("--c", colourOf(state, state.current_side));
    const kind = (state.players || {})[state.current_side];
    const ask = state.prompt || {};
    const acting = ask.acting && state.creatures[ask.acting] ? ` · ${state.creatures[ask.acting].name || ask.acting}` : "";
    turn.append(dot, span("", `${state.current_side}${kind ? ` (${kind})` : ""} to ${ask.verb || "act"}${acting}`));
  }
  const score = $("score");
  score.replaceChildren();
  for (const side of state.sides) {
    const s = span("score-side", undefined, { "data-side": side.name, "data-testid": `score-${side.name}` });
    const dot = span("side-dot");
    dot.style.setProperty("--c", side.colour);
    s.append(dot, span("name", side.name), span("vp", String((state.score || {})[side.name] ?? 0)));
    score.appendChild(s);
  }
}

/** Terrain, zones and sides under the board. */
export function fillLegend(state) {
  const legend = $("legend");
  const sig = JSON.stringify([Object.keys(state.map.terrain), Object.keys(state.map.zones || {}), state.sides]);
  if (legend.dataset.sig === sig) return;
  legend.dataset.sig = sig;
  legend.replaceChildren();
  const used = new Set(state.map.rows.join(""));
  for (const side of state.sides) {
    const item = span("item");
    const sw = span("swatch round");
    sw.style.background = side.colour;
    const kind = (state.players || {})[side.name];
    item.append(sw, kind ? `${side.name} (${kind})` : side.name);
    legend.appendChild(item);
  }
  for (const [ch, t] of Object.entries(state.map.terrain)) {
    if (!used.has(ch)) continue;
    const item = span("item");
    const sw = span("swatch");
    sw.style.background = t.colour;
    const notes = [t.difficult ? "difficult" : "", t.blocks_sight ? "blocks sight" : ""].filter(Boolean).join(", ");
    item.append(sw, t.name.replaceAll("_", " ") + (notes ? ` (${notes})` : ""));
    legend.appendChild(item);
  }
  for (const [name, z] of Object.entries(state.map.zones || {})) {
    const item = span("item");
    const sw = span("swatch zone");
    sw.style.borderColor = z.colour;
    item.append(sw, name.replaceAll("_", " "));
    legend.appendChild(item);
  }
  if (state.map.elevation) legend.appendChild(span("item", "digits: height of the ground"));
}

/** A creature's card in the side panel. */
export function renderCard(card, state) {
  const box = $("card");
  box.replaceChildren();
  box.hidden = false;
  box.dataset.cid = card.id;
  const head = document.createElement("div");
  head.className = "card-head";
  const dot = span("side-dot");
  dot.style.setProperty("--c", colourOf(state, card.side));
  const close = document.createElement("button");
  close.className = "close";
  close.textContent = "×";
  close.title = "Close";
  close.addEventListener("click", () => (box.hidden = true));
  head.append(dot, span("card-name", card.name, { "data-testid": "card-name" }), span("card-id", card.id), close);
  box.appendChild(head);
  const hp = document.createElement("div");
  hp.className = "card-hp";
  const frac = card.max_hp ? Math.max(0, Math.min(1, card.hp / card.max_hp)) : 0;
  const bar = span("bar");
  const fill = span("fill");
  fill.style.width = `${frac * 100}%`;
  fill.style.background = frac > 0.5 ? "#3fa34d" : frac > 0.25 ? "#e0a21e" : "#d1402f";
  bar.appendChild(fill);
  hp.append(span("", `${card.hp} / ${card.max_hp} HP`, { "data-testid": "card-hp" }), bar);
  box.appendChild(hp);
  if (card.conditions && card.conditions.length) {
    const c = document.createElement("div");
    c.className = "badges";
    for (const name of card.conditions) c.appendChild(span("badge", name));
    box.appendChild(c);
  }
  const dl = document.createElement("dl");
  for (const line of card.lines || []) {
    const dt = document.createElement("dt");
    dt.textContent = line.label;
    const dd = document.createElement("dd");
    dd.textContent = line.text;
    dl.append(dt, dd);
  }
  box.appendChild(dl);
}

let errorTimer = null;

/** Say what went wrong, in the server's words, for a few seconds. */
export function showError(e) {
  const box = $("error");
  const rule = e && e.rule ? ` (rule ${e.rule})` : "";
  box.textContent = `${e && e.message ? e.message : String(e)}${rule}`;
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => (box.hidden = true), 8000);
  console.error(e);
}

/** The JSON in a chosen file. */
export async function readJsonFile(file) {
  const text = await file.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${file.name} is not JSON: choose a file saved by skirmish (a replay)`);
  }
}
