"""ddm2008's answers to the interface hooks (``Ruleset``): warbands, maps and games from them, the
Sealed draw, a warband file's check, each phase's question and each action's squares and targets."""

from __future__ import annotations

from pathlib import Path

from skirmish.rulesets.ddm2008 import Ddm2008
from skirmish.rulesets.ddm2008.actions import Activate, ChooseStart, EndTurn, Move, Place
from skirmish.rulesets.ddm2008.setup import new_game, sealed_warband, shipped_maps, start_squares

WARBANDS = Path(__file__).resolve().parents[3] / "src" / "skirmish" / "rulesets" / "ddm2008" / "content" / "warbands"
GUARD = ["warden-of-the-gate", "hill-dwarf-axeman", "hill-dwarf-axeman", "ember-adept"]
RAIDERS = ["gloomfang-goblin", "gloomfang-goblin", "cinder-drake"]


def test_catalog_lists_the_shipped_warbands_maps_and_defaults():
    cat = Ddm2008().catalog()
    assert [w.name for w in cat.lineups] == sorted(p.stem for p in WARBANDS.glob("*.yaml"))
    guard = next(w for w in cat.lineups if w.name == "civilization-gatehouse-guard")
    assert guard.side == "gatehouse-guard" and 0 < guard.points <= 200
    assert [m.name for m in cat.maps] == list(shipped_maps())
    assert set(cat.default_lineups) <= {w.name for w in cat.lineups} and len(cat.default_lineups) == 2
    assert set(cat.default_maps) <= {m.name for m in cat.maps}
    assert cat.costs["gloomfang-goblin"] > 0 and "warden-of-the-gate" in cat.creatures


def test_lineup_by_shipped_name_or_file_and_the_sealed_draw():
    rs = Ddm2008()
    assert rs.lineup("wild-howlpack") == rs.lineup(str(WARBANDS / "wild-howlpack.yaml"))
    assert rs.lineup("wild-howlpack")[0] == "howlpack"
    assert rs.draw_lineup(7) == sealed_warband(7)


def test_check_lineup_reads_warband_files_only(tmp_path: Path):
    rs = Ddm2008()
    check = rs.check_lineup(WARBANDS / "civilization-gatehouse-guard.yaml")
    assert check is not None and not check.errors and "points of 200" in check.summary
    bad = tmp_path / "bad.yaml"
    bad.write_text("warband:\n  name: Bad\n  faction: wild\n  creatures: [ashpit-orc-warchief]\n")
    found = rs.check_lineup(bad)
    assert found is not None and any("[M08-014]" in e for e in found.errors)
    assert rs.check_lineup(Path(__file__).resolve().parents[3] / "scenarios" / "sample-ddm2008.yaml") is None


def test_new_game_plays_under_the_rule_set_it_is_asked_of():
    rs = Ddm2008()
    state = rs.new_game([("guard", GUARD), ("raiders", RAIDERS)], ["ashen-crossroads"], 3)
    assert state.ruleset is rs
    again = new_game([("guard", GUARD), ("raiders", RAIDERS)], ["ashen-crossroads"], 3)
    assert [e.text for e in state.events] == [e.text for e in again.events]


def test_prompt_and_display_follow_the_phases():
    rs = Ddm2008()
    state = rs.new_game([("guard", GUARD), ("raiders", RAIDERS)], ["ashen-crossroads", "gloomwater-cistern"], 3)
    seen = set()
    for _ in range(200):
        if state.is_over():
            break
        prompt = rs.prompt(state)
        assert prompt.phase == state.phase
        actions = state.legal_actions()
        shown = [rs.display(state, a) for a in actions]
        if state.phase == "choose_start":
            a = next(a for a in actions if isinstance(a, ChooseStart))
            assert set(rs.display(state, a).highlight or ()) == start_squares(state.grid, a.area)
        if state.phase == "place":
            assert prompt.auto and state.current_actor in prompt.pending and prompt.pending_label
            assert all(d.square == a.at and d.mark == "place" for a, d in zip(actions, shown, strict=True))
        if state.phase == "activate":
            assert prompt.show_board and all(d.select == a.actor for a, d in zip(actions, shown, strict=True)
                                             if isinstance(a, Activate))
        if state.phase == "act":
            assert prompt.acting == state.current_actor
            for a, d in zip(actions, shown, strict=True):
                if isinstance(a, Move):
                    assert d.square == a.to and d.path == a.path and d.fold == "move"
                if isinstance(a, EndTurn):
                    assert d.ends_turn
        seen.add(state.phase)
        state.apply(actions[len(actions) // 2] if not isinstance(actions[0], Place) else actions[0])
    assert {"choose_start", "place", "choose_first", "activate", "act"} <= seen
