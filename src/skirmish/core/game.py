"""The game interface every rule set implements (DESIGN.md, "The game interface").

A ``Ruleset`` is the game: it holds the geometry policy, the default legend, the stat
block model and the hooks where rule sets differ, each neutral in this base class
(python-chess's ``Board`` variants). It makes positions and, once playable, states.
A ``State`` is a position with a turn structure: who acts, what is legal, what an
action does, when it is over (OpenSpiel's ``State``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast, final

from pydantic import BaseModel, ConfigDict

from skirmish.core.catalog import Catalog, CatalogEntry, Lineup, LineupCheck, read_creatures
from skirmish.core.display import ActionDisplay, Prompt
from skirmish.core.pathing import ALLY, BLOCKED, Passage
from skirmish.core.policy import GeometryPolicy
from skirmish.core.terrain import TerrainKind
from skirmish.errors import NotPlayableError, SkirmishError

if TYPE_CHECKING:
    from pathlib import Path

    from skirmish.core.creatures import Creature, CreatureTemplate
    from skirmish.core.events import Event
    from skirmish.core.position import Position


@dataclass(frozen=True, slots=True)
class RulesetInfo:
    """What a rule set is, for algorithms that must not special-case rule sets.

    Attributes:
        name: the id used in scenario files (``ddm2008``).
        title: a human title.
        seed: the source document it implements.
        checklist_prefix: the prefix of its checklist ids (``M08``).
        aliases: other names ``find_ruleset`` accepts.
        players: sides in a standard game.
        chance: whether dice decide outcomes (all five do).
        max_rounds: a bound on a game's length, if the rules give one.
    """

    name: str
    title: str
    seed: str
    checklist_prefix: str
    aliases: tuple[str, ...] = ()
    players: int = 2
    chance: bool = True
    max_rounds: int | None = None


class NoOptions(BaseModel):
    """A rule set without options."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True, slots=True)
class Movement:
    """One way a creature can move now: a mode with its budget and what the mode ignores."""

    mode: str
    budget: int
    ignore_terrain: bool = False
    through_walls: bool = False
    flying: bool = False
    extra_per_square: int = 0
    min_one_square: bool = False
    over_creatures: bool = False


class Ruleset(ABC):
    """Base class of the five rule sets. Subclasses set the class attributes and override hooks.

    Attributes:
        info: the rule set's record.
        base_policy: its geometry policy before options.
        legend: its default map legend.
        stats_model: the pydantic model of its stat block (inline ``stats``), every field
            with a default.
        options_model: the pydantic model of its documented options.
        conditions: the condition names it knows (reference page).
        no_flank_conditions: conditions that stop a creature flanking or granting flanking.
        cover_words: the ``cover`` answer for degrees none, partial, three-quarters, total.
        state_class: the ``State`` subclass that plays it; None while only geometry is built.
        tactician: the factory (seed -> agent) of its rules-aware agent, once it has one.
        search_budget: the search agent's budget fields where this rule set's differ from the
            defaults (``SearchBudget``); a budget in the agent's name overrides them field by field.
        speed_zero_conditions: conditions under which a creature cannot move at all.
        slowed_speed: the speed a ``slowed`` creature has at most, if the rule set has slowed.
        crawl_condition: the condition under which every square costs one more (prone).
        down_can_move: whether a creature that is down (dying, disabled) may still move.
        rule_ids: the checklist ids of the rules the core applies for it, by topic
            (``area.close``, ``area.line``, ``area.effect``, ``area.origin``, ``area.nearest``),
            so errors and events name the rule set's own rule.
    """

    info: ClassVar[RulesetInfo]
    base_policy: ClassVar[GeometryPolicy]
    legend: ClassVar[Mapping[str, TerrainKind]]
    stats_model: ClassVar[type[BaseModel]]
    options_model: ClassVar[type[BaseModel]] = NoOptions
    conditions: ClassVar[frozenset[str]] = frozenset()
    no_flank_conditions: ClassVar[frozenset[str]] = frozenset()
    cover_words: ClassVar[tuple[str, str, str, str]] = ("none", "cover", "cover", "cover")
    state_class: ClassVar[type[State] | None] = None
    rule_ids: ClassVar[Mapping[str, str]] = {}
    tactician: ClassVar[Any] = None
    search_budget: ClassVar[Mapping[str, int]] = {}
    speed_zero_conditions: ClassVar[frozenset[str]] = frozenset()
    slowed_speed: ClassVar[int | None] = None
    crawl_condition: ClassVar[str | None] = None
    down_can_move: ClassVar[bool] = False

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options = self.options_model.model_validate(dict(options or {}))
        self.policy = self.make_policy()

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def playable(self) -> bool:
        """Whether actions can be played (the rule set's own issue has landed)."""
        return self.state_class is not None

    def new_state(self, position: Position) -> State:
        """A game starting from a scenario's position.

        Raises:
            NotPlayableError: the rule set cannot play actions yet.
        """
        if self.state_class is None:
            raise NotPlayableError(f"{self.name} cannot play actions yet")
        return self.state_class.from_position(position)  # type: ignore[attr-defined]

    def parse_action(self, step: Mapping[str, Any]) -> Any:
        """The action a scenario step describes (``{actor, do, ...}``).

        Raises:
            NotPlayableError: the rule set cannot play actions yet.
            InvalidActionError: the step is malformed.
        """
        raise NotPlayableError(f"{self.name} cannot play actions yet")

    def decide_for_scenario(self, state: State, step: Mapping[str, Any]) -> Any | None:
        """A decision the scenario's ``decisions: auto`` policy takes before ``step`` can be played,
        or None when nothing is pending."""
        return None

    # Hooks with neutral defaults.

    def worth(self, creature: Creature) -> float:
        """What a creature is worth to its side, in the units ``State.score`` counts (hit points unless
        a rule set scores otherwise); a search agent's evaluation weighs creatures by it."""
        return float(creature.template.max_hp)

    def difficulty(self, position: Position) -> dict[str, Any] | None:
        """The rule set's own difficulty rating of a fight, where it has one (dnd5e's XP thresholds)."""
        return None

    def named_attack(self, template: CreatureTemplate, name: str) -> Any:
        """The attack a step names with ``with:``: one of the creature's attacks (a rule set adds its
        own, such as dnd5e's area spells)."""
        return template.attack(name)

    def make_policy(self) -> GeometryPolicy:
        """The geometry policy under the chosen options."""
        return self.base_policy

    @abstractmethod
    def make_template(self, name: str, stats: BaseModel) -> CreatureTemplate:
        """Turn a validated stat block into the engine's template."""

    def allies(self, a: Creature, b: Creature) -> bool:
        """Creatures on the same side are allies (scenario format)."""
        return a.side == b.side

    def passage(self, pos: Position, mover: Creature, occupant: Creature, move: Movement) -> Passage:
        """What ``occupant``'s squares mean for ``mover`` moving in ``move``'s mode."""
        return ALLY if self.allies(mover, occupant) else BLOCKED

    def movements(self, pos: Position, creature: Creature) -> list[Movement]:
        """The ways the creature can move now, one per movement mode: flying where the mode is
        ``fly``, crawling under ``crawl_condition``, the minimum one square where the policy has it."""
        crawl = 1 if self.crawl_condition and creature.has(self.crawl_condition) else 0
        return [Movement(mode, budget, flying=mode == "fly", extra_per_square=crawl,
                         min_one_square=self.policy.min_one_square and budget > 0)
                for mode, budget in self.speeds(pos, creature).items()]

    def speeds(self, pos: Position, creature: Creature) -> dict[str, int]:
        """Squares per move by mode: 0 for a creature off the map, down (unless ``down_can_move``)
        or under one of ``speed_zero_conditions``; at most ``slowed_speed`` when slowed."""
        speeds = dict(creature.template.speed)
        stopped = not creature.on_map or (creature.status == "down" and not self.down_can_move)
        if stopped or any(creature.has(c) for c in self.speed_zero_conditions):
            return {mode: 0 for mode in speeds}
        if self.slowed_speed is not None and creature.has("slowed"):
            speeds = {mode: min(v, self.slowed_speed) for mode, v in speeds.items()}
        return speeds

    def gives_cover(self, pos: Position, attacker: Creature, other: Creature, kind: str) -> bool:
        """Whether a creature between attacker and target gives the target cover."""
        rule = self.policy.creature_cover
        if rule == "none" or kind not in self.policy.creature_cover_against or not other.on_map:
            return False
        if rule == "enemies":
            return not self.allies(attacker, other)
        return True

    def can_flank(self, pos: Position, creature: Creature) -> bool:
        """Whether a creature can flank or help an ally flank now."""
        return creature.status == "active" and not any(
            creature.has(c) for c in self.no_flank_conditions)

    def cover_kind(self, pos: Position, attacker: Creature, target: Creature) -> str:
        """The attack kind a bare ``cover`` question is about: melee when adjacent, else ranged."""
        from skirmish.core.geometry import adjacent

        return "melee" if adjacent(attacker.squares, target.squares) else "ranged"

    def initial_status(self, creature: Creature) -> str:
        """A creature's status from the hit points a scenario gives it: at 0 or below it is
        destroyed (M08-007) unless the rule set says otherwise."""
        return "active" if creature.hp > 0 else "dead"

    # Hooks for the interfaces (player, server, simulator), which reach a rule set only through the
    # registry and these: what its games are made of, how one starts from lineups, and what the
    # person deciding is shown. Neutral here; a rule set overrides those it has answers for.

    def creatures(self) -> Mapping[str, CatalogEntry]:
        """The creature catalog by name: the YAML files in the ``content`` folder beside the rule set's
        module (``rulesets/<id>/content/``), read once."""
        return read_creatures(type(self).__module__.rpartition(".")[0])

    def catalog(self) -> Catalog:
        """What its games can be made of, for listing: the creatures; a rule set whose games start from
        lineups adds its shipped lineups, maps and defaults."""
        return Catalog(creatures=self.creatures())

    def lineup(self, value: str) -> Lineup:
        """A lineup by shipped name or file: (side name, creature names).

        Raises:
            NotPlayableError: the rule set's games do not start from lineups.
            ContentError: no such lineup, or a file that is not one.
        """
        raise NotPlayableError(f"{self.name} has no lineups; start its games from a scenario")

    def draw_lineup(self, seed: int) -> list[str]:
        """A lineup drawn at random from the catalog, as a sealed format draws one (its creatures).

        Raises:
            NotPlayableError: the rule set has no such format.
        """
        raise NotPlayableError(f"{self.name} has no sealed format")

    def check_lineup(self, path: Path) -> LineupCheck | None:
        """A lineup file checked against the rule set's format; None when the file is no lineup of this
        rule set.

        Raises:
            ContentError: the file reads as a lineup of this rule set but is not a well-formed one.
        """
        return None

    def new_game(self, lineups: Sequence[Lineup], maps: Sequence[str], seed: int = 0) -> State:
        """A game from two lineups and the players' maps, ready for its setup.

        Raises:
            NotPlayableError: the rule set's games do not start from lineups.
            ContentError: an unknown creature or map, or lineups the rules do not allow.
        """
        raise NotPlayableError(f"{self.name} makes no game from lineups; start one from a scenario")

    def prompt(self, state: State) -> Prompt:
        """What the side to decide is asked now (``Prompt``): nothing beyond its legal actions here."""
        return Prompt()

    def display(self, state: State, action: Any) -> ActionDisplay:
        """What one of the legal actions involves on the board, for an interface to highlight
        (``skirmish.core.display.show`` builds one): nothing here, so it is offered as a button."""
        return ActionDisplay()


class State(ABC):
    """A game in progress: the interface agents, the simulator and the interfaces use.

    Concrete states also inherit ``Position`` (the map, creatures, dice, events and history) and
    declare their own fields in ``__slots__`` and a ``fields`` table (``core.fields``): ``clone``,
    equality and the rollback of a refused action follow from that table.

    The contract (DESIGN.md, "Core combat"): ``apply`` is this class's template method. It asks the
    rule set's pure ``check``, then lets the rule set ``_play`` the action, then records it in the
    history. Should ``_play`` still refuse the action part way (a rule found while playing it), the
    state is put back exactly as it was, log and dice included: a refused action never changes a
    game. Queries and agents never change a state.
    """

    __slots__ = ()

    events: list[Event]
    history: list[Any]

    @property
    @abstractmethod
    def current_actor(self) -> str | None:
        """The creature that must decide now, also outside its own turn (reactions)."""

    @property
    @abstractmethod
    def current_side(self) -> str | None:
        """The side that must decide now."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Any]:
        """Every action allowed now, as small immutable values."""

    @final
    def apply(self, action: Any) -> None:
        """Play one action, rolling dice from the state's own generator, and record it.

        Raises:
            IllegalActionError: the rules forbid it here; nothing has changed.
            InvalidActionError: it is malformed or names what does not exist; nothing has changed.
        """
        self.check(action)
        pos = cast("Position", self)
        before = pos.clone(record=False)
        events, rolls = len(pos.events), len(pos.dice.log)
        try:
            self._play(action)
        except SkirmishError:
            pos._rollback(before, events, rolls)
            raise
        if pos.recording:
            pos.history.append(action)

    def check(self, action: Any) -> None:  # noqa: B027 (a neutral hook: the base refuses nothing)
        """Refuse an action the rules forbid now, changing nothing (a query). The base refuses nothing;
        ``_play`` may still refuse what only playing reveals, and ``apply`` then puts the state back.

        Raises:
            IllegalActionError: the rules forbid it now.
            InvalidActionError: it is malformed.
        """

    @abstractmethod
    def _play(self, action: Any) -> None:
        """Carry out an action that ``check`` let through (the rule set's own rules)."""

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    @abstractmethod
    def winner(self) -> str | None:
        """The winning side, once over (None for a draw or while playing)."""

    @property
    @abstractmethod
    def score(self) -> dict[str, int]:
        """Points per side as the scenario's rules count them."""

    def clone(self, *, record: bool = True) -> Self:
        """A cheap, independent copy for search, made from the declared fields; ``record=False`` makes a
        quiet copy that plays the same rules but keeps no event log (nobody reads it)."""
        other = object.__new__(type(self))
        cast("Position", self)._copy_into(cast("Position", other), record)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return cast("Position", self).same_as(cast("Position", other))

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Registry:
    """Rule sets by name and alias."""

    by_name: dict[str, type[Ruleset]] = field(default_factory=dict)

    def register(self, cls: type[Ruleset]) -> type[Ruleset]:
        self.by_name[cls.info.name] = cls
        for alias in cls.info.aliases:
            self.by_name[alias] = cls
        return cls

    def names(self) -> list[str]:
        """The rule set ids, without aliases."""
        return sorted({cls.info.name for cls in self.by_name.values()})
