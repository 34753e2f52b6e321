// The game's log beside the map: one plain sentence per event, with the rule that decided it.

export class Log {
  /**
   * @param {HTMLOListElement} list where the lines go
   * @param {HTMLInputElement} diceBox the "show dice" tick box
   */
  constructor(list, diceBox) {
    this.list = list;
    this.diceBox = diceBox;
    this.shown = 0;
    diceBox.addEventListener("change", () => this.#applyDice());
    this.#applyDice();
  }

  #applyDice() {
    this.list.classList.toggle("show-dice", this.diceBox.checked);
  }

  /** Show exactly these events (the whole log so far), adding only the new lines when it grew. */
  setEvents(events, fresh = new Set()) {
    if (events.length < this.shown || this.list.children.length !== this.shown) {
      this.list.replaceChildren();
      this.shown = 0;
    }
    for (let i = this.shown; i < events.length; i++) this.list.appendChild(line(events[i], i));
    this.shown = events.length;
    for (const li of this.list.querySelectorAll(".fresh")) li.classList.remove("fresh");
    for (const n of fresh) this.list.children[n]?.classList.add("fresh");
    this.list.scrollTop = this.list.scrollHeight;
  }

  clear() {
    this.list.replaceChildren();
    this.shown = 0;
  }
}

function line(e, i) {
  const li = document.createElement("li");
  li.className = `ev ev-${e.type}`;
  li.dataset.type = e.type;
  li.dataset.n = e.n ?? i;
  if (e.type === "round_end" || e.type === "initiative") li.classList.add("milestone");
  const text = document.createElement("span");
  text.className = "text";
  text.textContent = e.text;
  li.appendChild(text);
  if (e.rule) {
    const rule = document.createElement("span");
    rule.className = "rule";
    rule.textContent = e.rule;
    li.appendChild(rule);
  }
  return li;
}
