"""Playing a scenario's steps and answering its questions: the engine behind ``skirmish run``.

The output has the shape ``shared/scenario-format.md`` fixes: ruleset, round, turn,
creatures, answers, events, score, winner.
"""

from __future__ import annotations

from typing import Any

from skirmish.core.creatures import Condition
from skirmish.core.position import Position
from skirmish.errors import (
    ContentError,
    IllegalActionError,
    InvalidActionError,
    NotPlayableError,
    SkirmishError,
)
from skirmish.scenario.loader import Scenario


class StepRefused(SkirmishError):
    """A step the rules (or the engine's present reach) refuse: exit status 3.

    Attributes:
        index: the step's index in ``steps``.
        actor: the creature the step is about, if any.
        rule: the checklist id of the rule that refuses it, if any.
        reason: what is wrong.
    """

    def __init__(self, index: int, actor: str | None, rule: str | None, reason: str) -> None:
        self.index, self.actor, self.rule, self.reason = index, actor, rule, reason
        who = f" ({actor})" if actor else ""
        tail = f" [rule {rule}]" if rule and f"rule {rule}" not in reason else ""
        super().__init__(f"steps[{index}]{who}: {reason}{tail}")


def run(scenario: Scenario) -> dict[str, Any]:
    """Play every step of a scenario and return the ``skirmish run --json`` object.

    Raises:
        StepRefused: a step is illegal, or actions cannot be played in this rule set yet.
        ContentError: a forced die does not fit the die it was offered to.
    """
    pos: Position = scenario.position.clone()
    for cid in scenario.model.start.surprised:
        pos.creature(cid).conditions.append(Condition("surprised"))
    ruleset = pos.ruleset
    if ruleset.playable:
        if isinstance(scenario.model.decisions, list):
            pos.start["decisions"] = list(scenario.model.decisions)
        pos = ruleset.new_state(pos)  # type: ignore[assignment]
    answers: list[dict[str, Any]] = []
    for index, step in enumerate(scenario.model.steps):
        try:
            if "ask" in step:
                answers.append({"ask": step["ask"], "value": answer(pos, step)})
            elif not ruleset.playable:
                raise StepRefused(
                    index, _actor(step), None,
                    f"{ruleset.name} cannot play actions yet (do: {step['do']}); this version answers "
                    "its questions (ask: distance, line_of_sight, cover, flanking, reachable, area)")
            else:
                action = ruleset.parse_action(step)
                pending = ruleset.decide_for_scenario(pos, step)  # type: ignore[arg-type]
                if pending is not None:
                    pos.apply(pending)  # type: ignore[attr-defined]
                pos.apply(action)  # type: ignore[attr-defined]
        except (IllegalActionError, InvalidActionError, NotPlayableError) as e:
            raise StepRefused(index, _actor(step), getattr(e, "rule", None), str(e)) from None
    return output(pos, answers)


def _actor(step: dict[str, Any]) -> str | None:
    for key in ("actor", "from", "attacker"):
        if key in step:
            return str(step[key])
    return None


def answer(pos: Position, step: dict[str, Any]) -> Any:
    """The value of one ``ask`` step, in the answer shape of the scenario format."""
    q = step["ask"]
    if q in ("distance", "line_of_sight", "line_of_effect", "cover"):
        a, b = pos.creature(step["from"]), pos.creature(step["to"])
        if q == "distance":
            return pos.distance(a, b)
        if q == "line_of_sight":
            return pos.line_of_sight(a, b)
        if q == "line_of_effect":
            return pos.line_of_effect(a, b)
        kind = step.get("kind")
        if kind is None and "with" in step:
            attack = pos.ruleset.named_attack(a.template, str(step["with"]))
            kind = attack.kind if attack is not None else None
        return pos.cover(a, b, kind)
    if q == "flanking":
        return pos.flanking(pos.creature(step["attacker"]), pos.creature(step["target"]))
    if q == "reachable":
        reach = pos.reach_now(pos.creature(step["actor"]))
        return [[[x, y], reach.cost((x, y))] for (x, y) in reach]
    if q == "area":
        actor = pos.creature(step["actor"])
        attack = pos.ruleset.named_attack(actor.template, str(step["with"]))
        if attack is None:
            raise InvalidActionError(f"{actor.id} has no attack {step['with']!r}")
        at = tuple(step["at"]) if "at" in step else None
        origin = tuple(step["origin"]) if "origin" in step else None
        return pos.area(actor, attack, at, origin)
    if q == "legal_actions":
        if not pos.ruleset.playable:
            raise NotPlayableError(f"{pos.ruleset.name} cannot list actions yet; its questions can be asked")
        actor = step["actor"]
        return [a.to_step() for a in pos.legal_actions() if a.actor == actor]  # type: ignore[attr-defined]
    raise ContentError(f"unknown question {q!r}")


def output(pos: Position, answers: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``skirmish run --json`` object for a position."""
    return {
        "ruleset": pos.ruleset.name,
        "round": pos.round,
        "turn": getattr(pos, "current_actor", None) if pos.ruleset.playable else pos.turn,
        "creatures": {
            c.id: {
                "hp": c.hp,
                "temp_hp": c.temp_hp,
                "at": [c.at[0], c.at[1]],
                "conditions": c.condition_names(),
                "status": c.status,
            }
            for c in pos.creatures.values()
        },
        "answers": answers,
        "events": [e.to_json() for e in pos.events],
        "score": _score(pos),
        "winner": getattr(pos, "winner", None),
    }


def _score(pos: Position) -> dict[str, int]:
    """Points per side: the state's score once a game is played; nothing scored before that."""
    score = getattr(pos, "score", None)
    if isinstance(score, dict):
        return dict(score)
    return {side: 0 for side in pos.sides()}
