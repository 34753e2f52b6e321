"""dnd5e attack rolls, damage, hit points, death and conditions (E5-078..E5-148, G5-01..G5-17).

Functions take the fight's state and act on it; each names the rules it applies, and the events
it logs carry their ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.core import geometry
from skirmish.core.creatures import Attack as AttackSpec
from skirmish.core.creatures import Condition, Creature, Duration
from skirmish.core.dice import DiceExpr
from skirmish.core.events import Event

if TYPE_CHECKING:
    from skirmish.rulesets.dnd5e.state import Dnd5eState

INCAPACITATING = frozenset(("incapacitated", "paralyzed", "petrified", "stunned", "unconscious"))
"""Conditions that include incapacitated: no actions or reactions (G5-01)."""
SIZE_NAMES = ("tiny", "small", "medium", "large", "huge", "gargantuan")


def mod(score: int) -> int:
    """Ability modifier: floor((score - 10) / 2) (G5-11)."""
    return (score - 10) // 2


def stats(c: Creature) -> dict[str, Any]:
    return c.template.stats  # type: ignore[return-value]


def ability_mod(c: Creature, ability: str) -> int:
    return mod(int(stats(c)["abilities"][ability]))


def incapacitated(c: Creature) -> bool:
    return any(c.has(x) for x in INCAPACITATING) or c.status != "active"


def conscious(c: Creature) -> bool:
    """On its feet in the fight: not dead, not at 0 hit points (E5-131)."""
    return c.status == "active" and not c.has("unconscious")


# Checks and saves.

def check_bonus(c: Creature, skill: str, ability: str) -> int:
    """An ability check's bonus: the ability modifier, or the skill's bonus where the stat block gives one."""
    skills = stats(c).get("skills") or {}
    return int(skills[skill]) if skill in skills else ability_mod(c, ability)


def passive(c: Creature, skill: str, ability: str) -> int:
    """A passive score: 10 + the check's bonus (G5-05)."""
    return 10 + check_bonus(c, skill, ability)


def roll_d20(state: Dnd5eState, label: str, rule: str, advantage: int = 0) -> tuple[int, list[int]]:
    """A d20 with advantage (> 0), disadvantage (< 0) or neither: two dice, the higher or lower (G5-02)."""
    first = state.roll(20, label, rule)
    if advantage == 0:
        return first, [first]
    second = state.roll(20, label + (" (advantage)" if advantage > 0 else " (disadvantage)"), rule)
    return (max(first, second) if advantage > 0 else min(first, second)), [first, second]


def saving_throw(state: Dnd5eState, c: Creature, ability: str, dc: int, why: str, advantage: int = 0,
                 bonus: int = 0) -> bool:
    """A saving throw: d20 + ability modifier (+ proficiency where the stat block gives it) >= DC
    (E35-061 shape, E5 via G5-12); paralyzed, stunned, unconscious and petrified creatures fail
    Strength and Dexterity saves (G5-01); bless adds its die."""
    if ability in ("str", "dex") and any(c.has(x) for x in ("paralyzed", "stunned", "unconscious", "petrified")):
        state.log(Event("save", f"{c.id} fails its {ability.upper()} save automatically ({why})", "G5-01",
                        {"creature": c.id, "success": False}))
        return False
    if ability == "dex" and c.has("restrained"):
        advantage -= 1
    if ability == "dex" and dodging(state, c):
        advantage += 1  # the Dodge action (E5-068)
    adv = (advantage > 0) - (advantage < 0)
    roll, _ = roll_d20(state, f"{ability.upper()} save of {c.id} ({why})", "E5-135", adv)
    saves = stats(c).get("saves") or {}
    total = roll + int(saves.get(ability, ability_mod(c, ability))) + bonus
    if c.marks.get("blessed"):
        total += state.roll(4, f"bless die of {c.id}", "G5-12")
    ok = total >= dc
    state.log(Event("save", f"{c.id} {'makes' if ok else 'fails'} a DC {dc} {ability.upper()} save ({why}): {total}",
                    "G5-12", {"creature": c.id, "roll": roll, "total": total, "dc": dc, "success": ok}))
    return ok


# Seeing, advantage, cover.

def dodging(state: Dnd5eState, c: Creature) -> bool:
    """The Dodge's benefits: lost while incapacitated or at speed 0 (E5-068)."""
    return bool(c.marks.get("dodging")) and not incapacitated(c) and max(
        state.ruleset.speeds(state, c).values(), default=0) > 0


def can_see(state: Dnd5eState, viewer: Creature, target: Creature) -> bool:
    """Sight: line of sight, not blinded, the target not invisible or hidden (E5-087..E5-090, G5-01)."""
    if viewer.has("blinded") or viewer.status == "dead":
        return False
    if target.has("invisible") or target.marks.get("hidden"):
        return False
    return state.line_of_sight(viewer, target)


def attack_advantage(state: Dnd5eState, c: Creature, spec: AttackSpec | None, t: Creature, ranged: bool,
                     within5: bool) -> tuple[int, list[str]]:
    """Advantage and disadvantage on an attack roll; one of each cancels, however many (G5-02)."""
    adv: list[str] = []
    dis: list[str] = []
    if not can_see(state, t, c):
        adv.append(f"{t.id} cannot see {c.id}")  # E5-089
    if not can_see(state, c, t):
        dis.append(f"{c.id} cannot see {t.id}")  # E5-087
    if t.has("prone"):
        (adv if within5 else dis).append(f"{t.id} is prone")
    if c.has("prone"):
        dis.append(f"{c.id} is prone")
    for cond in ("restrained", "paralyzed", "stunned", "unconscious", "blinded", "petrified"):
        if t.has(cond):
            adv.append(f"{t.id} is {cond}")
            break
    if c.has("restrained") or c.has("poisoned") or c.has("blinded"):
        dis.append(f"{c.id} is {next(x for x in ('restrained', 'poisoned', 'blinded') if c.has(x))}")
    if c.has("frightened"):
        dis.append(f"{c.id} is frightened")
    if dodging(state, t) and can_see(state, t, c):
        dis.append(f"{t.id} is dodging")  # E5-068
    if c.id in (t.marks.get("helped_against") or {}):
        adv.append(f"helped against {t.id}")  # E5-070: its first attack roll only
        helped = dict(t.marks["helped_against"])
        helped.pop(c.id, None)
        t.marks["helped_against"] = helped
    if c.marks.get("squeezing"):
        dis.append(f"{c.id} is squeezing")  # E5-054
    if t.marks.get("squeezing"):
        adv.append(f"{t.id} is squeezing")
    if ranged:
        if spec is not None and isinstance(spec.range, tuple):
            d = state.distance(c, t) or 0
            if d > spec.range[0]:
                dis.append("long range")  # E5-093
        if any(not state.ruleset.allies(c, e) and geometry.adjacent(c.squares, e.squares) and can_see(state, e, c)
               and not incapacitated(e) for e in state.on_map() if e is not c):
            dis.append("a hostile creature within 5 feet")  # E5-094
    if not ranged and state.ruleset.policy.flanking != "off" and state.flanking(c, t):
        adv.append(f"{c.id} flanks {t.id}")  # the DMG's optional flanking (option flanking: true)
    features = stats(c).get("features") or {}
    if features.get("pack_tactics") and any(
            state.ruleset.allies(c, a) and a is not c and conscious(a) and geometry.adjacent(a.squares, t.squares)
            for a in state.on_map()):
        adv.append("pack tactics")
    notes = [f"advantage: {x}" for x in adv] + [f"disadvantage: {x}" for x in dis]
    return (1 if adv and not dis else -1 if dis and not adv else 0), notes


def cover_bonus(state: Dnd5eState, c: Creature, t: Creature, kind: str, origins: Any = None) -> int | None:
    """+2 for half cover, +5 for three-quarters, None for total cover (E5-110..E5-114)."""
    degree = state.cover_degree(c, t, kind, origins)
    return {0: 0, 1: 2, 2: 5}.get(degree)


# Attacks.

def reach_of(spec: AttackSpec) -> int:
    return spec.range[1] if isinstance(spec.range, tuple) else int(spec.range) if isinstance(spec.range, int) else 1


def in_range(state: Dnd5eState, c: Creature, spec: AttackSpec, t: Creature) -> bool:
    """Melee within reach (E5-095); ranged within its long range (E5-091..E5-093); sight not needed
    (an unseen target is attacked with disadvantage, E5-087) but line of effect is."""
    d = state.distance(c, t)
    if d is None or not state.line_of_effect(c, t):
        return False
    return d <= reach_of(spec)


def resolve_attack(state: Dnd5eState, c: Creature, spec: AttackSpec, t: Creature, *, damage: DiceExpr | None = None,
                   offhand: bool = False, knock_out: bool = False, reaction: bool = False,
                   spell_attack: bool = False) -> bool:
    """One attack roll: d20 + bonus vs AC with cover; natural 20 hits and is a critical hit, natural 1
    misses (E5-078..E5-086); then damage (E5-116..E5-126) and what the hit does. Returns whether it hit."""
    ranged = spec.kind == "ranged"
    within5 = geometry.adjacent(c.squares, t.squares)
    adv, notes = attack_advantage(state, c, spec, t, ranged, within5)
    bonus = cover_bonus(state, c, t, spec.kind) or 0
    roll, rolls = roll_d20(state, f"{spec.name} of {c.id} against {t.id}", "E5-080", adv)
    total = roll + spec.bonus
    if c.marks.get("blessed"):
        total += state.roll(4, f"bless die of {c.id}", "G5-12")
    ac = int(stats(t).get("ac", 10)) + bonus + int(t.marks.get("shield", 0))
    crit = roll == 20 or (within5 and (t.has("paralyzed") or t.has("unconscious")) and roll != 1)
    hit = roll != 1 and (roll == 20 or total >= ac)
    if hit and not crit and total < ac + 5 and "shield" in (stats(t).get("spells") or []) and \
            not t.marks.get("shield") and can_react(state, t) and total < ac + 5 and state.spend_slot(t, 1):
        t.marks["shield"] = 5
        t.marks["reaction_used"] = True
        ac += 5
        hit = total >= ac
        state.log(Event("reaction", f"{t.id} casts shield: AC {ac} until the start of its turn", "E5-027",
                        {"actor": t.id, "spell": "shield"}))
    crit = crit and hit
    if c.marks.get("hidden"):
        c.marks.pop("hidden", None)  # attacking reveals it (E5-090)
    text = (f"{c.id} attacks {t.id} with {spec.name}: {'/'.join(map(str, rolls))} -> {roll} + {spec.bonus} = {total}"
            f" vs AC {ac}{' (cover +' + str(bonus) + ')' if bonus else ''}"
            + (f" [{'; '.join(notes)}]" if notes else "")
            + f", {'critical hit' if crit else 'hit' if hit else 'miss'}")
    rule = "E5-085" if roll == 20 else ("E5-086" if roll == 1 else "E5-080")
    state.log(Event("attack", text, rule, {"actor": c.id, "target": t.id, "with": spec.name, "roll": roll,
                                           "total": total, "against": ac, "hit": hit, "critical": crit}))
    state.noisy = True
    if not hit:
        return False
    expr = damage or spec.damage
    if expr is not None:
        extra: list[DiceExpr] = []
        sneak = (stats(c).get("features") or {}).get("sneak_attack")
        finesse_or_ranged = ranged or "finesse" in (spec.extra.get("properties") or [])
        ally_near = any(state.ruleset.allies(c, a) and a is not c and conscious(a)
                        and geometry.adjacent(a.squares, t.squares) for a in state.on_map())
        if sneak and not c.marks.get("sneak_used") and finesse_or_ranged and adv >= 0 and (adv > 0 or ally_near):
            extra.append(DiceExpr.parse(sneak))
            c.marks["sneak_used"] = True
        deal(state, c, [t], expr, crit=crit, extra=extra, offhand=offhand, spec=spec,
             knock_out=knock_out and not ranged)
    if t.status == "active" and not t.has("unconscious"):
        for effect in spec.extra.get("on_hit") or []:
            hit_effect(state, c, t, effect)
    return True


def deal(state: Dnd5eState, c: Creature | None, targets: list[Creature], expr: DiceExpr, *, crit: bool = False,
         extra: list[DiceExpr] | None = None, offhand: bool = False, spec: AttackSpec | None = None,
         knock_out: bool = False, halved: set[str] | None = None, why: str = "") -> None:
    """Roll damage once for every target (E5-118); a critical hit rolls every damage die twice, extra
    dice too (E5-119, E5-120); an off-hand attack adds no positive ability modifier (E5-101)."""
    label = why or (f"damage of {c.id}'s {spec.name}" if c is not None and spec is not None else "damage")
    result = state.dice.roll_expr(expr, label, dice_multiplier=2 if crit else 1)
    for r in state.dice.log[-len(result.rolls):] if result.rolls else []:
        state.log(Event("roll", f"d{r.sides} for {r.label}: {r.result}", "E5-116",
                        {"die": r.sides, "result": r.result, "label": r.label, "forced": r.forced}))
    by_type: dict[str | None, int] = dict(result.by_type)
    first = next(iter(by_type), None)
    if offhand and c is not None and spec is not None:
        ability = spec.extra.get("ability") or ("dex" if spec.kind == "ranged" else "str")
        m = ability_mod(c, ability)
        if m > 0:
            by_type[first] = by_type.get(first, 0) - m
    for e in extra or []:
        r = state.dice.roll_expr(e, f"{label} (extra dice)", dice_multiplier=2 if crit else 1)
        for k, v in r.by_type.items():
            by_type[k if k is not None else first] = by_type.get(k if k is not None else first, 0) + v
    for t in targets:
        amounts = dict(by_type)
        if halved and t.id in halved:
            amounts = {k: v // 2 for k, v in amounts.items()}
        take_damage(state, t, amounts, crit=crit, source=c, knock_out=knock_out)


def take_damage(state: Dnd5eState, t: Creature, by_type: dict[str | None, int], *, crit: bool = False,
                source: Creature | None = None, knock_out: bool = False) -> int:
    """Damage through resistance and vulnerability, in the seed's order: other modifiers first, then
    resistance, then vulnerability; several instances count once (E5-123..E5-126); never below 0;
    temporary hit points first (E5-143); 0 hit points: dying or dead (E5-131..E5-142)."""
    s = stats(t)
    total = 0
    reduction = int(s.get("damage_reduction") or 0)
    for dtype, amount in sorted(by_type.items(), key=lambda kv: -kv[1]):
        # Other modifiers first (a flat reduction), then resistance, then vulnerability (E5-124).
        cut = min(reduction, max(0, amount))
        reduction -= cut
        amount = max(0, amount - cut)
        if dtype in (s.get("immunities") or []):
            amount = 0
        if dtype in (s.get("resistances") or []) or t.has("petrified"):
            amount //= 2
        if dtype in (s.get("vulnerabilities") or []):
            amount *= 2
        total += amount
    absorbed = min(t.temp_hp, total)
    t.temp_hp -= absorbed
    rest = total - absorbed
    text = f"{t.id} takes {total} damage" + (f" ({absorbed} absorbed by temporary hit points)" if absorbed else "")
    state.log(Event("damage", text, "E5-143" if absorbed else "E5-116", {"target": t.id, "amount": total}))
    if source is not None and not state.ruleset.allies(source, t):
        state.noisy = True
    if t.marks.get("concentration") and total > 0:
        dc = max(10, total // 2)
        if not saving_throw(state, t, "con", dc, "concentration"):
            drop_concentration(state, t)
    if t.hp <= 0 and t.status == "down":
        at_zero_damage(state, t, total, crit)
        return total
    before = t.hp
    t.hp = max(0, t.hp - rest)
    if t.hp == 0 and before > 0:
        overflow = rest - before
        if overflow >= t.template.max_hp:
            die(state, t, f"{overflow} damage past 0 is at least its hit point maximum", "E5-132")
        elif knock_out and source is not None:
            fall(state, t, stable=True, why=f"{source.id} knocks it out", rule="E5-142")
        elif not t.hero:
            die(state, t, "monsters die at 0 hit points", "E5-141")
        else:
            fall(state, t, stable=False, why="at 0 hit points", rule="E5-134")
    else:
        state.log(Event("hp", f"{t.id} has {t.hp} hit points", None, {"creature": t.id, "hp": t.hp}))
    return total


def gain_temp_hp(state: Dnd5eState, t: Creature, amount: int, why: str) -> None:
    """Temporary hit points do not add up: the creature keeps the larger amount, as a player would
    choose (E5-146); healing never restores them (E5-145)."""
    before = t.temp_hp
    t.temp_hp = max(t.temp_hp, amount)
    state.log(Event("temp_hp", f"{t.id} has {t.temp_hp} temporary hit points ({why}; it had {before})", "E5-146",
                    {"creature": t.id, "temp_hp": t.temp_hp}))


def at_zero_damage(state: Dnd5eState, t: Creature, total: int, crit: bool) -> None:
    """Damage at 0 hit points: a death-save failure, two for a critical hit; as much as its maximum
    kills (E5-138); a stable creature starts dying again (E5-140). Temporary hit points that absorb it
    still count as damage taken (Decisions)."""
    if total >= t.template.max_hp:
        die(state, t, "damage at 0 hit points equal to its maximum", "E5-138")
        return
    t.marks.pop("stable", None)
    if t.has("stable"):
        t.conditions = [x for x in t.conditions if x.name != "stable"]
    failures = int(t.marks.get("death_failures", 0)) + (2 if crit else 1)
    t.marks["death_failures"] = failures
    state.log(Event("death_save", f"{t.id} takes damage at 0 hit points: {failures} failed death saves", "E5-138",
                    {"creature": t.id, "failures": failures}))
    if failures >= 3:
        die(state, t, "three failed death saves", "E5-136")


def fall(state: Dnd5eState, t: Creature, *, stable: bool, why: str, rule: str) -> None:
    t.status = "down"
    add_condition(state, t, "unconscious", None)
    add_condition(state, t, "prone", None)
    if stable:
        t.marks["stable"] = True
        add_condition(state, t, "stable", None)
    t.marks.update(death_successes=0, death_failures=0)
    drop_concentration(state, t)
    state.log(Event("down", f"{t.id} falls unconscious ({why})" + (" and is stable" if stable else ""), rule,
                    {"creature": t.id}))


def die(state: Dnd5eState, t: Creature, why: str, rule: str) -> None:
    t.status = "dead"
    t.hp = 0
    drop_concentration(state, t)
    state.log(Event("dead", f"{t.id} dies ({why})", rule, {"creature": t.id}))


def heal(state: Dnd5eState, t: Creature, amount: int, why: str) -> None:
    """Healing up to the maximum (E5-128); the dead regain nothing (E5-129); any healing wakes a creature
    at 0 and clears its death saves (E5-134, E5-136)."""
    if t.status == "dead":
        state.log(Event("heal", f"{t.id} is dead and regains nothing", "E5-129", {"target": t.id}))
        return
    before = t.hp
    t.hp = min(t.template.max_hp, t.hp + amount)
    state.log(Event("heal", f"{t.id} regains {t.hp - before} hit points ({why}); {t.hp} of {t.template.max_hp}",
                    "E5-128", {"target": t.id, "amount": t.hp - before}))
    if t.status == "down" and t.hp > 0:
        t.status = "active"
        t.conditions = [x for x in t.conditions if x.name not in ("unconscious", "stable")]
        for k in ("death_successes", "death_failures", "stable"):
            t.marks.pop(k, None)
        state.log(Event("wake", f"{t.id} regains consciousness (still prone)", "E5-134", {"creature": t.id}))


def death_save(state: Dnd5eState, t: Creature) -> None:
    """At the start of its turn at 0 hit points: d20, 10 or more succeeds; three successes stabilize,
    three failures kill; a natural 1 is two failures, a natural 20 regains 1 hit point (E5-135..E5-137)."""
    roll = state.roll(20, f"death saving throw of {t.id}", "E5-136")
    bonus = state.roll(4, f"bless die of {t.id}", "E5-135") if t.marks.get("blessed") else 0
    if roll == 20:
        state.log(Event("death_save", f"{t.id} rolls a natural 20 on its death save", "E5-137", {"creature": t.id}))
        heal(state, t, 1, "natural 20 on a death save")
        return
    successes = int(t.marks.get("death_successes", 0))
    failures = int(t.marks.get("death_failures", 0))
    if roll + bonus >= 10:  # only what improves saving throws helps (E5-135): bless does
        successes += 1
    else:
        failures += 2 if roll == 1 else 1
    t.marks.update(death_successes=successes, death_failures=failures)
    state.log(Event("death_save", f"{t.id}'s death save: {roll} ({successes} successes, {failures} failures)",
                    "E5-137" if roll == 1 else "E5-136", {"creature": t.id, "roll": roll}))
    if failures >= 3:
        die(state, t, "three failed death saves", "E5-136")
    elif successes >= 3:
        t.marks["stable"] = True
        add_condition(state, t, "stable", None)
        state.log(Event("stable", f"{t.id} is stable", "E5-136", {"creature": t.id}))


# Conditions.

def add_condition(state: Dnd5eState, t: Creature, name: str, source: Creature | None,
                  duration: str = "end_of_battle") -> None:
    """A condition, unless the creature is immune to it (G5-01)."""
    if name in (stats(t).get("condition_immunities") or []):
        state.log(Event("immune", f"{t.id} is immune to being {name}", "G5-01", {"creature": t.id}))
        return
    if t.has(name):
        return
    source_id = source.id if source else None
    t.conditions.append(Condition(name, Duration(duration, source_id), source_id))  # type: ignore[arg-type]
    if name not in ("unconscious", "stable"):
        state.log(Event("condition", f"{t.id} is {name}", "G5-01", {"creature": t.id, "condition": name}))
    if name in INCAPACITATING:
        drop_concentration(state, t)
        t.marks.pop("dodging", None)


def remove_condition(t: Creature, name: str) -> None:
    t.conditions = [x for x in t.conditions if x.name != name]


def hit_effect(state: Dnd5eState, c: Creature, t: Creature, effect: dict[str, Any]) -> None:
    """A hit's further effect: extra damage or a condition, behind a saving throw where it has one."""
    save = effect.get("save")
    saved = False
    if save:
        saved = saving_throw(state, t, save["ability"], int(save["dc"]), f"{c.id}'s attack")
    if effect.get("damage"):
        expr = DiceExpr.parse(effect["damage"])
        if not saved or save.get("half"):
            deal(state, c, [t], expr, halved={t.id} if saved else None, why=f"{c.id}'s extra damage")
    if effect.get("condition") and not saved and t.status != "dead":
        name = effect["condition"]
        if name == "grappled":
            t.marks["grappled_by"] = c.id
            t.marks["escape_dc"] = int(effect.get("escape_dc") or 10)
        add_condition(state, t, name, c)


def drop_concentration(state: Dnd5eState, c: Creature) -> None:
    """Concentration ends: its spell's effects end (G5-12)."""
    spell = c.marks.pop("concentration", None)
    if spell is None:
        return
    for other in state.creatures.values():
        if other.marks.get("blessed") == c.id:
            other.marks.pop("blessed", None)
    state.log(Event("concentration", f"{c.id} loses concentration on {spell}", "E5-074", {"creature": c.id}))


def can_react(state: Dnd5eState, c: Creature) -> bool:
    """One reaction per round, none while incapacitated or before a surprised creature's first turn ends
    (E5-010, E5-028)."""
    return (not c.marks.get("reaction_used") and not incapacitated(c) and not c.marks.get("surprised")
            and c.status == "active")
