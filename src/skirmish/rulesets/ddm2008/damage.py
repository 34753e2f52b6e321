"""Hit points: damage on a hit, typed damage through the card's abilities, bloodied, healing
(M08-010, M08-060..M08-062, M08-066, M08-070, M08-074, M08-077, M08-145).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.core.creatures import Attack as AttackSpec
from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.rulesets.ddm2008.stats import card
from skirmish.rulesets.ddm2008.victory import destroy

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State


def round5(n: int) -> int:
    """Round down to a multiple of 5 (M08-062)."""
    return (n // 5) * 5


def is_bloodied(c: Creature) -> bool:
    """At or below half its hit points, rounded down to a multiple of 5 (M08-061, M08-062)."""
    return c.hp <= round5(c.template.max_hp // 2)


def deal_attack_damage(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature, crit: bool,
                       extra: list[tuple[str, int]]) -> None:
    """Damage on a hit (M08-066): double on a critical hit, the "+" bonus too (M08-074); half when
    the attacker is enervated (M08-145); extra damage from powers stacks (M08-077); then the
    target's resistances, vulnerabilities and immunities by type (M08-010)."""
    assert spec.damage is not None
    result = state.dice.roll_expr(spec.damage, f"damage of {c.id}'s {spec.name}")
    for r in state.dice.log[-len(spec.damage.dice()):] if spec.damage.dice() else []:
        state.log(Event("roll", f"d{r.sides} for {r.label}: {r.result}", "M08-066",
                        {"die": r.sides, "result": r.result, "label": r.label, "forced": r.forced}))
    by_type = dict(result.by_type)
    if crit:
        by_type = {k: v * 2 for k, v in by_type.items()}
    if c.has("enervated"):
        if state.opts.enervated_rounding == "five":
            by_type = {k: round5(v // 2) for k, v in by_type.items()}
        else:
            by_type = {k: v // 2 for k, v in by_type.items()}
    first = next(iter(by_type), None)
    for _name, amount in extra:
        by_type[first] = by_type.get(first, 0) + amount
    total = take_damage(state, t, by_type, source=c)
    why = "critical hit, doubled" if crit else "hit"
    if extra:
        why += "; " + ", ".join(f"+{n} {name}" for name, n in extra)
    state.log(Event("damage", f"{t.id} takes {total} damage ({why}); {max(t.hp, 0)} HP left", "M08-074" if crit
                    else "M08-066", {"target": t.id, "amount": total, "hp": t.hp}))
    after_damage(state, t, c)


def take_damage(state: Ddm2008State, t: Creature, by_type: dict[str | None, int], source: Creature | None) -> int:
    """Apply typed damage through resistances, vulnerabilities and immunities (M08-010); return what
    was taken."""
    ab = card(t).abilities
    resist, vulnerable = ab.resist, ab.vulnerable
    total = 0
    for dtype, amount in by_type.items():
        if dtype is not None and dtype in ab.immune:
            continue
        amount -= max(resist.get(dtype, 0) if dtype else 0, resist.get("all", 0))
        amount += vulnerable.get(dtype, 0) if dtype else 0
        total += max(0, amount)
    if total > 0:
        t.hp -= total
        if source is not None and not state.ruleset.allies(source, t):
            state.noisy = True
    return total


def after_damage(state: Ddm2008State, t: Creature, source: Creature | None) -> None:
    """Bloodied (M08-061), recharge when first bloodied (M08-070), destruction at 0 (M08-060)."""
    if t.hp <= 0 and t.on_map:
        destroy(state, t, "reduced to 0 hit points", "M08-060")
        return
    if is_bloodied(t) and t.id not in state.bloodied:
        state.bloodied.add(t.id)
        state.log(Event("bloodied", f"{t.id} is bloodied ({t.hp} HP, half is {round5(t.template.max_hp // 2)})",
                        "M08-061", {"creature": t.id}))
        for a in card(t).attacks:
            if a.recharge == "bloodied" and state.uses.get((t.id, a.name), 1) == 0:
                state.uses[(t.id, a.name)] = 1
                state.log(Event("recharge", f"{t.id}'s {a.name} recharges", "M08-070", {"creature": t.id}))


def heal(state: Ddm2008State, t: Creature, amount: int, why: str, rule: str) -> None:
    """Hit points back, up to the card's (M08-148, M08-149, M08-151); healed above half, it is no
    longer bloodied (M08-061)."""
    before = t.hp
    t.hp = min(t.template.max_hp, t.hp + amount)
    state.log(Event("heal", f"{t.id} regains {t.hp - before} HP ({why}); {t.hp} HP", rule,
                    {"target": t.id, "amount": t.hp - before}))
    if not is_bloodied(t):
        state.bloodied.discard(t.id)
