"""The hooks the interfaces reach a rule set through (``Ruleset``): neutral where a rule set gives no
answer, and the rule set whose games start from lineups found in the registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.core.display import ActionDisplay, Prompt
from skirmish.core.game import Ruleset
from skirmish.errors import ContentError, NotPlayableError
from skirmish.games import lineup_ruleset, lineup_rulesets
from skirmish.rulesets import RULESETS, find_ruleset
from skirmish.scenario.loader import load_scenario_file

ROOT = Path(__file__).resolve().parents[2]


def test_a_ruleset_without_answers_is_neutral(tmp_path: Path):
    rs = find_ruleset("ddm2003")()
    assert rs.creatures() and rs.catalog().creatures is rs.creatures()
    assert rs.catalog().lineups == () and rs.catalog().maps == ()
    assert rs.check_lineup(tmp_path / "anything.yaml") is None
    with pytest.raises(NotPlayableError):
        rs.lineup("anything")
    with pytest.raises(NotPlayableError):
        rs.draw_lineup(1)
    with pytest.raises(NotPlayableError):
        rs.new_game([("a", ["x"]), ("b", ["y"])], [], 1)
    state = load_scenario_file(ROOT / "scenarios" / "sample-ddm2003.yaml").position
    assert Ruleset.prompt(rs, state) == Prompt()  # type: ignore[arg-type]
    assert Ruleset.display(rs, state, object()) == ActionDisplay()  # type: ignore[arg-type]


def test_the_lineup_ruleset_is_the_one_that_makes_games_from_lineups():
    makers = lineup_rulesets()
    assert makers and all(cls.new_game is not Ruleset.new_game for cls in makers)
    assert all(RULESETS.by_name[cls.info.name] is cls for cls in makers)
    if len(makers) == 1:
        assert type(lineup_ruleset()) is makers[0]
    assert lineup_ruleset(makers[0].info.name).name == makers[0].info.name
    with pytest.raises(ContentError):
        lineup_ruleset("no-such-ruleset")


def test_a_dnd5e_state_shows_its_actions():
    scenario = load_scenario_file(ROOT / "scenarios" / "dnd5e" / "goblin-ambush.yaml")
    state = scenario.ruleset.new_state(scenario.position.clone())
    actions = state.legal_actions()
    shown = {a.to_step()["do"]: state.ruleset.display(state, a) for a in actions}
    assert shown["move"].square == shown["move"].to and shown["move"].fold == "move" and shown["move"].path
    assert shown["end_turn"].ends_turn and shown["end_turn"].square is None
    for a in actions:
        if a.verb == "attack":
            assert [t.id for t in state.ruleset.display(state, a).targets] == [a.target]
    assert state.ruleset.prompt(state) == Prompt()
