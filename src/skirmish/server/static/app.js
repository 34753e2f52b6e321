// The page: start screen, a game against the agents, and the switch to the replay view.

import { api } from "./api.js";
import { Board, key } from "./board.js";
import { Log } from "./log.js";
import { ReplayView } from "./replay.js";
import { $, fillLegend, readJsonFile, renderCard, renderHeader, showError } from "./ui.js";

const board = new Board($("board"), {
  onSquare: (x, y, e) => game.clickSquare(x, y, e),
  onToken: (cid, e, sq) => (replay.active ? replay.clickToken(cid) : game.clickToken(cid, e, sq)),
  onHover: (sq) => game.hover(sq),
});
const log = new Log($("log"), $("show-dice"));
const replay = new ReplayView(board, log);

/**
 * What the acting human's actions do on the board, as the server's display of each says: by the square
 * that chooses it, by target, by the creature whose token chooses it (one to activate).
 */
function classify(actions) {
  const squares = new Map();
  const targets = new Map();
  const selects = new Map();
  const others = [];
  const push = (map, k, a) => (map.get(k) || map.set(k, []).get(k)).push(a);
  for (const a of actions) {
    if (a.square) {
      push(squares, key(...a.square), a);
    } else if (a.targets && a.targets.length) {
      for (const t of a.targets) push(targets, t.id, a);
    } else if (a.select) {
      selects.set(a.select, a);
    } else {
      others.push(a);
    }
  }
  return { squares, targets, selects, others };
}

/** The question when the rule set leaves the words to the page and the board offers choices. */
const BOARD_HINT = "Move (click a square), attack (click a ringed enemy), use a power, or end the turn.";

class GameView {
  constructor() {
    this.id = null;
    this.state = null;
    this.actions = [];
    this.plan = null;
    this.generation = 0;
    this.busy = false;
    $("end-turn").addEventListener("click", () => {
      const a = this.actions.find((x) => x.ends_turn);
      if (a) this.apply(a);
    });
    $("auto-place").addEventListener("click", () => this.autoPlace());
    this.paused = false;
    $("pause").addEventListener("click", () => {
      this.paused = !this.paused;
      $("pause").textContent = this.paused ? "Resume" : "Pause";
      if (!this.paused && !this.busy) this.proceed();
    });
    document.addEventListener("click", (e) => {
      if (!e.target.closest("[data-testid=menu]") && !e.target.closest("svg")) hideMenu();
    });
  }

  async open(id) {
    const gen = ++this.generation;
    this.paused = false;
    this.id = id;
    this.actions = [];
    this.plan = null;
    this.cardId = null;
    log.clear();
    $("card").hidden = true;
    setMode("game");
    const save = $("save");
    save.href = api.replayUrl(id);
    save.download = `skirmish-${id}.json`;
    save.hidden = false;
    try {
      this.state = await api.game(id);
    } catch (e) {
      showError(e);
      return;
    }
    if (gen !== this.generation) return;
    this.render();
    await this.proceed(gen);
  }

  leave() {
    this.generation++;
    this.id = null;
    this.plan = null;
    this.actions = [];
    board.clearHighlights();
    $("save").hidden = true;
  }

  render(fresh) {
    const s = this.state;
    board.setState(s);
    renderHeader(s);
    fillLegend(s);
    log.setEvents(s.events, fresh);
    const banner = $("result");
    banner.hidden = !s.over;
    if (s.over) {
      const score = Object.entries(s.score || {}).map(([k, v]) => `${k} ${v}`).join(", ");
      banner.textContent = s.winner ? `${s.winner} wins after ${s.round} rounds (${score})` : `A draw after ${s.round} rounds (${score})`;
    }
  }

  /** Let the agents play one action at a time, each shown briefly, until a human must decide. */
  async proceed(gen = this.generation) {
    this.setBusy(true);
    if (!this.state.over && !this.state.human_to_act) this.showDecision(null);
    try {
      while (gen === this.generation && !this.paused && !this.state.over && !this.state.human_to_act) {
        const r = await api.advance(this.id, 1);
        if (gen !== this.generation) return;
        await board.animate(r.events);
        const before = this.state.events.length;
        this.state = r.state;
        this.render(new Set(r.events.map((e, i) => e.n ?? before + i)));
        if (!r.applied.length) break;
      }
      if (gen !== this.generation) return;
      await this.loadActions(gen);
    } catch (e) {
      showError(e);
    } finally {
      if (gen === this.generation) this.setBusy(false);
    }
  }

  setBusy(busy) {
    this.busy = busy;
    const s = this.state;
    document.body.dataset.ui = busy ? "busy" : s && s.over ? "over" : s && s.human_to_act ? "human" : "waiting";
  }

  async loadActions(gen) {
    this.actions = [];
    this.plan = null;
    board.clearHighlights();
    if (this.state.over || !this.state.human_to_act) {
      this.showDecision(null);
      return;
    }
    const r = await api.actions(this.id);
    if (gen !== this.generation) return;
    this.actions = r.actions;
    this.plan = classify(r.actions);
    this.showDecision(r);
  }

  showDecision(r) {
    const prompt = $("prompt");
    const box = $("actions");
    box.replaceChildren();
    $("end-turn").hidden = true;
    $("auto-place").hidden = true;
    const pause = $("pause");
    pause.hidden = Boolean(r) || this.state.over;
    pause.textContent = this.paused ? "Resume" : "Pause";
    if (!r) {
      prompt.textContent = this.state.over ? "The game is over." : this.paused ? "Paused: the agents wait." : "The agents are playing…";
      board.clearHighlights();
      return;
    }
    const s = this.state;
    const ask = s.prompt || {};
    const acting = ask.acting ? s.creatures[ask.acting] : null;
    const onBoard = this.plan.squares.size || this.plan.targets.size;
    const hint = ask.text || (onBoard ? BOARD_HINT : "Choose an action.");
    const head = document.createElement("div");
    head.className = "who";
    const dot = document.createElement("span");
    dot.className = "side-dot";
    dot.style.setProperty("--c", (s.sides.find((x) => x.name === r.side) || {}).colour || "#888");
    head.append(dot, ` ${r.side}: your decision`);
    if (acting) head.append(` — ${acting.name || ask.acting} is acting`);
    const p = document.createElement("p");
    p.textContent = hint;
    prompt.replaceChildren(head, p);
    if (ask.pending_label) {
      // The creatures the side still has to deal with in this step (those still to place).
      const waiting = ask.pending || [];
      const tray = document.createElement("p");
      tray.className = "tray";
      tray.dataset.testid = "to-place";
      tray.textContent = `${ask.pending_label} (${waiting.length}): ${waiting.map((cid) => (s.creatures[cid] || {}).label || cid).join(" ")}`;
      tray.title = waiting.join(", ");
      prompt.appendChild(tray);
    }

    const plan = this.plan;
    const squares = new Map();
    for (const [k, acts] of plan.squares) {
      const [x, y] = k.split(",").map(Number);
      const costs = acts.map((a) => a.cost).filter((c) => c !== null && c !== undefined);
      const kind = acts.some((a) => a.area) ? "area" : acts[0].mark || "move";
      squares.set(k, { x, y, kind, cost: costs.length ? Math.min(...costs) : null });
    }
    for (const cid of plan.selects.keys()) {
      const c = s.creatures[cid];
      if (c && c.on_map) squares.set(`sel:${cid}`, { x: c.at[0], y: c.at[1], kind: "select", cost: null, cid });
    }
    const targets = new Map();
    for (const [cid, acts] of plan.targets) {
      const t = acts[0].targets.find((x) => x.id === cid) || {};
      targets.set(cid, { cover: t.cover, ca: acts.some((a) => (a.targets.find((x) => x.id === cid) || {}).combat_advantage) });
    }
    board.setHighlights(squares, targets);

    const endTurn = this.actions.find((a) => a.ends_turn);
    if (endTurn) $("end-turn").hidden = false;
    if (ask.auto) {
      $("auto-place").textContent = ask.auto;
      $("auto-place").hidden = false;
    }
    // Short lists in full; long ones keep what the rule set folds (moves, placements, each area attack's squares) away.
    const main = [];
    const folded = new Map();
    const long = this.actions.length > 12;
    for (const a of this.actions) {
      const group = !long ? null : a.fold;
      if (group) (folded.get(group) || folded.set(group, []).get(group)).push(a);
      else main.push(a);
    }
    for (const a of main) box.appendChild(this.actionButton(a));
    for (const [group, acts] of folded) {
      const det = document.createElement("details");
      det.dataset.testid = `more-${group.split(" ")[0]}`;
      const sum = document.createElement("summary");
      sum.textContent = `${group}: ${acts.length} choices (or click the map)`;
      det.appendChild(sum);
      for (const a of acts) det.appendChild(this.actionButton(a));
      box.appendChild(det);
    }
  }

  actionButton(a) {
    const b = document.createElement("button");
    b.className = `action do-${a.do}`;
    b.dataset.testid = `action-${a.index}`;
    b.dataset.do = a.do;
    b.textContent = a.text;
    b.addEventListener("click", () => this.apply(a));
    b.addEventListener("mouseenter", () => this.preview(a));
    b.addEventListener("mouseleave", () => this.preview(null));
    return b;
  }

  preview(a) {
    if (!a) {
      board.showArea(null);
      board.showPath(null);
      return;
    }
    board.showArea(a.area || a.highlight);
    const actor = this.state.creatures[a.step?.actor];
    board.showPath(a.path, actor && actor.on_map ? actor.at : null);
  }

  async apply(a) {
    if (this.busy || !this.actions.includes(a)) return;
    hideMenu();
    const gen = this.generation;
    this.setBusy(true);
    board.clearHighlights();
    try {
      const r = await api.act(this.id, { index: a.index });
      if (gen !== this.generation) return;
      await board.animate(r.events, 200);
      const before = this.state.events.length;
      this.state = r.state;
      this.render(new Set(r.events.map((e, i) => e.n ?? before + i)));
    } catch (e) {
      showError(e);
      try {
        this.state = await api.game(this.id);
        this.render();
      } catch {
        // The error above already says what went wrong.
      }
    }
    await this.proceed(gen);
    if (this.cardId) this.showCard(this.cardId);
  }

  /** Choose among several actions on one square or target: a small menu at the pointer. */
  choose(acts, e, ask = false) {
    if (acts.length === 1 && !ask) {
      this.apply(acts[0]);
      return;
    }
    const menu = $("menu");
    menu.replaceChildren();
    for (const a of acts) {
      const b = document.createElement("button");
      b.dataset.testid = `menu-${a.index}`;
      b.textContent = a.text;
      b.addEventListener("click", (ev) => {
        ev.stopPropagation();
        this.apply(a);
      });
      b.addEventListener("mouseenter", () => this.preview(a));
      menu.appendChild(b);
    }
    const wrap = menu.parentElement.getBoundingClientRect();
    menu.style.left = `${Math.max(0, (e?.clientX ?? wrap.left + 40) - wrap.left + 6)}px`;
    menu.style.top = `${Math.max(0, (e?.clientY ?? wrap.top + 40) - wrap.top + 6)}px`;
    menu.hidden = false;
  }

  clickSquare(x, y, e) {
    if (replay.active || !this.plan || this.busy) return;
    const acts = this.plan.squares.get(key(x, y));
    if (acts) this.choose(acts, e);
    else hideMenu();
  }

  clickToken(cid, e, sq) {
    if (!this.id) return;
    this.showCard(cid);
    if (!this.plan || this.busy) return;
    const acts = this.plan.targets.get(cid);
    if (acts) {
      this.choose(acts, e);
      return;
    }
    const act = this.plan.selects.get(cid);
    if (act) {
      this.apply(act);
      return;
    }
    // The square under the pointer may have actions of its own (an area attack aimed at the creature).
    const c = this.state.creatures[cid];
    // A menu even for one choice: a click meant to show a card must not fire an attack.
    const at = sq || (c && c.at);
    const here = at && this.plan.squares.get(key(at[0], at[1]));
    if (here) this.choose(here, e, true);
  }

  hover(sq) {
    if (replay.active || !this.plan) return;
    if (!sq) {
      board.showArea(null);
      board.showPath(null);
      return;
    }
    // A square can be both a move's end and an area attack's aim: show the path and the area.
    const acts = this.plan.squares.get(key(...sq)) || [];
    const area = acts.find((x) => x.area);
    const walk = acts.find((x) => x.path);
    board.showArea(area ? area.area : null);
    const actor = walk && this.state.creatures[walk.step.actor];
    board.showPath(walk ? walk.path : null, actor && actor.on_map ? actor.at : null);
  }

  async showCard(cid) {
    this.cardId = cid;
    try {
      const card = await api.card(this.id, cid);
      renderCard(card, this.state);
    } catch (e) {
      showError(e);
    }
  }

  /** Make the rest of this step's choices for the human (place the rest): the middle choice each time. */
  async autoPlace() {
    const gen = this.generation;
    while (gen === this.generation && this.state.human_to_act && (this.state.prompt || {}).auto && this.actions.length) {
      const a = this.actions[Math.floor(this.actions.length / 2)];
      this.setBusy(true);
      try {
        const r = await api.act(this.id, { index: a.index });
        this.state = r.state;
        this.render();
        await this.loadActions(gen);
      } catch (e) {
        showError(e);
        break;
      } finally {
        this.setBusy(false);
      }
    }
    await this.proceed(gen);
  }
}

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") hideMenu();
});

function hideMenu() {
  $("menu").hidden = true;
}

function setMode(mode) {
  document.body.dataset.mode = mode;
  document.getElementById("start-view").hidden = mode !== "start";
  document.getElementById("game-view").hidden = mode === "start";
  $("replay-bar").hidden = mode !== "replay";
  $("steps-panel").hidden = mode !== "replay";
  $("decision").hidden = mode !== "game";
  $("result").hidden = true;
}

const game = new GameView();

// Start screen.

let catalog = null;

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

async function showStart() {
  game.leave();
  replay.leave();
  setMode("start");
  $("title").textContent = "";
  $("round").textContent = "–";
  $("turn").replaceChildren();
  $("score").replaceChildren();
  document.body.dataset.ui = "start";
  try {
    if (!catalog) {
      catalog = await api.scenarios();
      fillStart(catalog);
    }
    const { games } = await api.games();
    const ul = $("games");
    ul.replaceChildren();
    for (const g of games) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `#/game/${encodeURIComponent(g.id)}`;
      a.textContent = `${g.id} — ${g.ruleset}, round ${g.round}${g.over ? " (over)" : ""}`;
      li.appendChild(a);
      ul.appendChild(li);
    }
    if (!games.length) ul.innerHTML = "<li class=hint>none yet</li>";
  } catch (e) {
    showError(e);
  }
  document.body.dataset.ui = "start-ready";
}

function fillStart(cat) {
  const agents = cat.agents.includes("human") ? cat.agents : ["human", ...cat.agents];
  // Games from warbands are the default rule set's (the server's defaults), with its warbands and maps.
  const defaults = cat.defaults || { ruleset: null, warbands: [], maps: [] };
  const ours = (x) => !defaults.ruleset || !x.ruleset || x.ruleset === defaults.ruleset;
  for (const i of [0, 1]) {
    const wb = $(`warband-${i}`);
    for (const w of cat.warbands.filter(ours)) wb.appendChild(option(w.name, `${w.name} (${w.points} pts)`));
    if (cat.warbands.some((w) => w.name === defaults.warbands[i])) wb.value = defaults.warbands[i];
    const mp = $(`map-${i}`);
    for (const m of cat.maps.filter(ours)) mp.appendChild(option(m.name, m.title || m.name));
    if (cat.maps.some((m) => m.name === defaults.maps[i])) mp.value = defaults.maps[i];
    const pl = $(`player-${i}`);
    for (const a of agents) pl.appendChild(option(a, a));
    pl.value = i === 0 ? "human" : agents.includes("tactician") ? "tactician" : agents[1];
    wb.addEventListener("change", showWarbandInfo);
  }
  const sc = $("scenario");
  for (const s of cat.scenarios) {
    const o = option(s.name, `${s.title || s.name} (${s.ruleset})${s.playable ? "" : " — cannot be played yet"}`);
    o.disabled = !s.playable;
    sc.appendChild(o);
  }
  const firstPlayable = cat.scenarios.find((s) => s.playable);
  if (firstPlayable) sc.value = firstPlayable.name;
  sc.addEventListener("change", () => fillScenarioSides(agents));
  fillScenarioSides(agents);
  for (const r of document.querySelectorAll("input[name=mode]")) r.addEventListener("change", modeChanged);
  if (!cat.scenarios.length) $("mode-scenario").disabled = true;
  modeChanged();
  showWarbandInfo();
}

function fillScenarioSides(agents) {
  const box = $("scenario-sides");
  box.replaceChildren();
  const s = catalog.scenarios.find((x) => x.name === $("scenario").value);
  (s ? s.sides : []).forEach((side, i) => {
    const label = document.createElement("label");
    label.textContent = `${side} `;
    const sel = document.createElement("select");
    sel.dataset.testid = `scenario-player-${i}`;
    sel.dataset.side = side;
    for (const a of agents) sel.appendChild(option(a, a));
    sel.value = i === 0 ? "human" : agents.includes("tactician") ? "tactician" : agents[1];
    label.appendChild(sel);
    box.appendChild(label);
  });
}

function modeChanged() {
  const mode = document.querySelector("input[name=mode]:checked").value;
  for (const f of document.querySelectorAll("[data-for]")) f.hidden = f.dataset.for !== mode;
  $("warband-info").hidden = mode !== "warbands";
}

/** Each chosen warband's creatures, one line per side, repeats counted ("ember-adept ×2"). */
function showWarbandInfo() {
  const box = $("warband-info");
  box.replaceChildren();
  for (const i of [0, 1]) {
    const w = catalog.warbands.find((x) => x.name === $(`warband-${i}`).value);
    if (!w || !w.creatures.length) continue;
    const counts = new Map();
    for (const c of w.creatures) counts.set(c, (counts.get(c) || 0) + 1);
    const line = document.createElement("div");
    const who = document.createElement("b");
    who.textContent = `${w.side}: `;
    line.append(who, [...counts].map(([c, n]) => (n > 1 ? `${c} ×${n}` : c)).join(", "));
    box.appendChild(line);
  }
}

async function startGame() {
  const mode = document.querySelector("input[name=mode]:checked").value;
  const seed = Number($("seed").value || 1);
  const body = { seed };
  if (mode === "scenario") {
    body.scenario = $("scenario").value;
    body.players = Object.fromEntries([...$("scenario-sides").querySelectorAll("select")].map((s) => [s.dataset.side, s.value]));
  } else {
    const w = [0, 1].map((i) => catalog.warbands.find((x) => x.name === $(`warband-${i}`).value));
    body.warbands = w.map((x) => x.name);
    body.maps = [0, 1].map((i) => $(`map-${i}`).value);
    const sides = w[0].side === w[1].side ? [`${w[0].side}-1`, `${w[1].side}-2`] : [w[0].side, w[1].side];
    body.players = { [sides[0]]: $("player-0").value, [sides[1]]: $("player-1").value };
  }
  try {
    $("start").disabled = true;
    const r = await api.newGame(body);
    location.hash = `#/game/${encodeURIComponent(r.id)}`;
  } catch (e) {
    showError(e);
  } finally {
    $("start").disabled = false;
  }
}

async function loadGame(file) {
  try {
    const data = await readJsonFile(file);
    const r = await api.load(data);
    // Until the loaded game is shown, the page is not waiting for a decision in the one it leaves.
    document.body.dataset.ui = "busy";
    location.hash = `#/game/${encodeURIComponent(r.id)}`;
  } catch (e) {
    showError(e);
  }
}

async function openReplay(file) {
  try {
    const data = await readJsonFile(file);
    const r = await api.openReplay(data);
    location.hash = `#/replay/${encodeURIComponent(r.id)}`;
  } catch (e) {
    showError(e);
  }
}

$("start").addEventListener("click", startGame);
$("load-file").addEventListener("change", (e) => e.target.files[0] && loadGame(e.target.files[0]).then(() => (e.target.value = "")));
for (const id of ["open-replay", "open-replay-top"]) {
  $(id).addEventListener("change", (e) => e.target.files[0] && openReplay(e.target.files[0]).then(() => (e.target.value = "")));
}

async function route() {
  hideMenu();
  const m = location.hash.match(/^#\/(game|replay)\/(.+)$/);
  if (!m) return showStart();
  const id = decodeURIComponent(m[2]);
  if (m[1] === "game") {
    replay.leave();
    return game.open(id);
  }
  game.leave();
  setMode("replay");
  return replay.open(id);
}

window.addEventListener("hashchange", route);
route();
