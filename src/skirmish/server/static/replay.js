// The replay view: the board and log at any step of a saved game, with buttons, slider and arrow keys.

import { api } from "./api.js";
import { $, fillLegend, renderHeader, showError } from "./ui.js";

export class ReplayView {
  constructor(board, log) {
    this.board = board;
    this.log = log;
    this.active = false;
    this.id = null;
    this.step = 0;
    this.steps = 0;
    this.state = null;
    this.wanted = 0;
    this.loading = null;
    $("replay-first").addEventListener("click", () => this.go(0));
    $("replay-prev").addEventListener("click", () => this.go(this.wanted - 1));
    $("replay-next").addEventListener("click", () => this.go(this.wanted + 1));
    $("replay-last").addEventListener("click", () => this.go(this.steps));
    $("replay-slider").addEventListener("input", (e) => this.go(Number(e.target.value)));
    document.addEventListener("keydown", (e) => {
      if (!this.active || e.target.closest("input[type=number], input[type=text], select")) return;
      const moves = { ArrowRight: this.wanted + 1, ArrowLeft: this.wanted - 1, Home: 0, End: this.steps };
      if (e.key in moves) {
        e.preventDefault();
        this.go(moves[e.key]);
      }
    });
  }

  async open(id) {
    this.active = true;
    this.id = id;
    this.step = -1;
    this.wanted = 0;
    this.log.clear();
    $("card").hidden = true;
    document.body.dataset.ui = "busy";
    try {
      const [first, list] = await Promise.all([api.replayStep(id, 0), api.replaySteps(id)]);
      if (this.id !== id) return;
      this.steps = first.steps;
      const slider = $("replay-slider");
      slider.max = String(this.steps);
      this.fillSteps(list.steps);
      this.show(first);
    } catch (e) {
      showError(e);
    }
  }

  leave() {
    this.active = false;
    this.id = null;
  }

  fillSteps(steps) {
    const ol = $("steps");
    ol.replaceChildren();
    for (const s of steps) {
      const li = document.createElement("li");
      li.dataset.k = s.k;
      li.dataset.testid = `step-${s.k}`;
      li.textContent = s.text;
      li.addEventListener("click", () => this.go(s.k));
      ol.appendChild(li);
    }
  }

  /** Go to step k; rapid requests (a dragged slider) end at the last one asked for. */
  async go(k) {
    if (!this.active) return;
    k = Math.max(0, Math.min(this.steps, k));
    this.wanted = k;
    $("replay-slider").value = String(k);
    $("replay-step").textContent = `${k} / ${this.steps}`;
    if (this.loading) return;
    document.body.dataset.ui = "busy";
    try {
      while (this.active && this.step !== this.wanted) {
        const target = this.wanted;
        const id = this.id;
        this.loading = api.replayStep(id, target);
        const s = await this.loading;
        if (!this.active || this.id !== id) return;
        if (target === this.step + 1 && target === this.wanted) await this.board.animate(s.new_events || [], 200);
        this.show(s);
      }
    } catch (e) {
      showError(e);
    } finally {
      this.loading = null;
      if (this.active) document.body.dataset.ui = "replay";
    }
  }

  show(s) {
    this.state = s;
    this.step = s.step;
    this.board.setState(s);
    renderHeader(s);
    fillLegend(s);
    const fresh = new Set((s.new_events || []).map((e) => e.n));
    this.log.setEvents(s.events, fresh);
    $("replay-slider").value = String(s.step);
    $("replay-step").textContent = `${s.step} / ${s.steps}`;
    $("replay-bar").dataset.step = String(s.step);
    for (const li of $("steps").children) li.classList.toggle("current", Number(li.dataset.k) === s.step);
    const list = $("steps");
    const cur = list.querySelector(".current");
    // Scroll the list only (scrollIntoView would scroll the page too).
    if (cur) list.scrollTop = cur.offsetTop - list.offsetTop - list.clientHeight / 2;
    else list.scrollTop = 0;
    const banner = $("result");
    banner.hidden = !s.over;
    if (s.over) banner.textContent = s.winner ? `${s.winner} wins after ${s.round} rounds` : `A draw after ${s.round} rounds`;
    if (this.step === this.wanted) document.body.dataset.ui = "replay";
  }

  /** A creature's line from the state itself (a replay has no card endpoint). */
  clickToken(cid) {
    const c = this.state && this.state.creatures[cid];
    if (!c) return;
    const box = $("card");
    box.hidden = false;
    box.dataset.cid = cid;
    box.replaceChildren();
    const h = document.createElement("div");
    h.className = "card-head";
    h.textContent = `${c.name || cid} (${cid})`;
    const p = document.createElement("p");
    p.textContent = `${c.side} — ${c.hp} / ${c.max_hp} HP at [${c.at.join(", ")}]${c.conditions.length ? `; ${c.conditions.join(", ")}` : ""}; ${c.status}`;
    box.append(h, p);
  }
}
