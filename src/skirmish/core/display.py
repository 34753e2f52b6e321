"""What an interface shows of a game in progress: the pending decision's prompt and each action's
squares and targets.

A rule set answers through two hooks, ``Ruleset.prompt(state)`` and ``Ruleset.display(state, action)``,
so the terminal player, the server and the page highlight a game without knowing its actions, its
steps or its phases. ``show`` builds an action's display from what the action involves (where it ends,
the path, the square it aims at, the attack, the targets) with the position's own geometry: cover,
the area an attack would fill, and who has the advantage.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from skirmish.errors import SkirmishError

if TYPE_CHECKING:
    from skirmish.core.coords import Coord, Point
    from skirmish.core.creatures import Attack, Creature

Mark = Literal["move", "place"]
"""How a square that chooses an action is marked: the actor goes there, or a creature is put there."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the side to decide is asked now.

    Attributes:
        phase: the step of the game the decision belongs to, in the rule set's own word
            (``choose_map``, ``activate``); None where the rule set's games have no such steps.
        verb: what the side is to do, in a few words (``choose the map``), after "side X to".
        text: the question in a sentence, as the page shows it; None leaves the words to the page.
        acting: the creature whose turn it is, where one creature acts now (shown by name).
        pending: creatures the side still has to deal with in this step (those still to be placed).
        pending_label: what ``pending`` is, in a few words (``Still to place``).
        auto: the label of a button that makes the rest of this step's choices for the person, the
            middle one of the listed actions each time (``Place the rest for me``); None: no such button.
        show_board: whether the terminal should draw the board before this decision (once a round).
    """

    phase: str | None = None
    verb: str = "act"
    text: str | None = None
    acting: str | None = None
    pending: tuple[str, ...] = ()
    pending_label: str = ""
    auto: str | None = None
    show_board: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"phase": self.phase, "verb": self.verb, "text": self.text, "acting": self.acting,
                "pending": list(self.pending), "pending_label": self.pending_label, "auto": self.auto}


@dataclass(frozen=True, slots=True)
class TargetView:
    """A creature an action targets: its cover against the action's attack (the rule set's word) and
    whether the actor has the advantage over it (combat advantage, flanking)."""

    id: str
    cover: str | None = None
    advantage: bool = False


@dataclass(frozen=True, slots=True)
class ActionDisplay:
    """What an action involves on the board, for an interface to highlight; empty by default.

    Attributes:
        to: where the actor ends up.
        path: the squares it enters, in order.
        aim: the square it is aimed at or placed on.
        targets: the creatures it targets.
        area: the squares its area fills, where it makes one.
        square: the square that chooses it on the board (a move's end, a placement, an area's aim);
            None when a target's token or a button chooses it.
        mark: how ``square`` is marked.
        select: the creature whose token chooses it (one to activate).
        highlight: other squares worth showing while it is considered (the start area it picks).
        fold: the name a long list of actions folds it under (``move``); None keeps it in view.
        ends_turn: it ends the actor's turn (the page's own button).
    """

    to: Coord | None = None
    path: tuple[Coord, ...] = ()
    aim: Coord | None = None
    targets: tuple[TargetView, ...] = ()
    area: tuple[Coord, ...] | None = None
    square: Coord | None = None
    mark: Mark = "move"
    select: str | None = None
    highlight: tuple[Coord, ...] | None = None
    fold: str | None = None
    ends_turn: bool = False

    @property
    def squares(self) -> list[Coord]:
        """Every square it involves: the path, where it ends, where it aims; each once, in that order."""
        out: list[Coord] = []
        for sq in (*self.path, self.to, self.aim):
            if sq is not None and sq not in out:
                out.append(sq)
        return out


Advantage = Callable[[Any, "Creature", "Creature"], bool]
"""Whether an attacker has the advantage over a target in a state (the rule set's combat advantage)."""


def flanks(state: Any, attacker: Creature, target: Creature) -> bool:
    """The advantage where a rule set has nothing of its own: the attacker flanks the target."""
    return bool(state.flanking(attacker, target))


def show(state: Any, actor_id: str, *, to: Coord | None = None, path: Iterable[Coord] = (),
         aim: Coord | None = None, origin: Point | None = None, attack: str | None = None,
         targets: Iterable[str] = (), mark: Mark = "move", fold: str | None = None,
         area_fold: str | None = None, advantage: Advantage = flanks) -> ActionDisplay:
    """An action's display from what it involves.

    Args:
        state: the game (a position with a rule set).
        actor_id: the creature taking the action.
        to: where it ends up; an attack made after the move is made from there (a charge).
        path: the squares it enters.
        aim: the square it is aimed at (an area's origin square) or placed on.
        origin: an area's origin point, where the attack takes one.
        attack: the attack or spell it uses, by the name ``Ruleset.named_attack`` knows.
        targets: the creatures it targets.
        mark: how its square is marked.
        fold: the name a long list folds it under.
        area_fold: the name it folds under instead when it fills an area.
        advantage: the rule set's advantage of an attacker over a target.
    """
    actor: Creature | None = state.creatures.get(actor_id)
    spec = _attack(state, actor, attack)
    area = _area(state, actor, spec, aim, origin)
    ids = list(dict.fromkeys(targets))
    views = _targets(state, actor, ids, spec, to, advantage)
    square = aim if area is not None else None if views else to or aim
    return ActionDisplay(to=to, path=tuple(path), aim=aim, targets=views, area=area, square=square, mark=mark,
                         fold=area_fold if area is not None and area_fold else fold)


def _attack(state: Any, actor: Creature | None, name: str | None) -> Attack | None:
    """The attack or spell an action uses, if it names one the rule set knows."""
    from skirmish.core.creatures import Attack

    if actor is None or not name:
        return None
    try:
        found = state.ruleset.named_attack(actor.template, name)
    except SkirmishError:
        return None
    return found if isinstance(found, Attack) else None


def _targets(state: Any, actor: Creature | None, ids: list[str], attack: Attack | None, to: Coord | None,
             advantage: Advantage) -> tuple[TargetView, ...]:
    if ids and actor is not None and to is not None and to != actor.at:
        # An attack after a move (a charge) is made from where the move ends.
        state = state.clone()
        actor = state.creatures[actor.id]
        actor.at = to
    out = []
    for tid in ids:
        target: Creature | None = state.creatures.get(tid)
        if target is None or actor is None or not actor.on_map or not target.on_map:
            out.append(TargetView(tid))
            continue
        kind = attack.kind if attack is not None else None
        out.append(TargetView(tid, state.cover(actor, target, kind), bool(advantage(state, actor, target))))
    return tuple(out)


def _area(state: Any, actor: Creature | None, attack: Attack | None, at: Coord | None,
          origin: Point | None) -> tuple[Coord, ...] | None:
    if attack is None or attack.area is None or actor is None or not actor.on_map:
        return None
    try:
        squares, _ = state.area_squares(actor, attack, attack.area, at, origin)
    except SkirmishError:
        return None
    return tuple(sorted(squares, key=lambda s: (s[1], s[0])))
