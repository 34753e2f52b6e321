"""Cover degrees at seams, diagonal-wall squares, Draw Steel sizes and line widths."""

from __future__ import annotations

import textwrap

import pytest

from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import StepRefused, run


def answers(text: str) -> list:
    return [a["value"] for a in run(load_scenario_text(textwrap.dedent(text)))["answers"]]


def test_e5_111_seam_between_wall_and_portcullis_counts_at_the_portcullis_degree():
    """E5-111/E5-113: a line along the seam between a wall and a portcullis is blocked at the
    portcullis's degree (three-quarters), not clear: from the point (1, 0) two lines hit the wall
    and two run down the seam, so the target has three-quarters cover rather than half."""
    from skirmish.core import geometry
    from skirmish.core.grid import Grid
    from skirmish.rulesets import find_ruleset

    rs = find_ruleset("dnd5e")()
    grid = Grid.parse("...\n#|.\n...", rs.legend)
    degree = geometry.cover(grid, rs.policy, [(1, 0)], [(0, 2)], "ranged", origins=[((1, 0), None)])
    assert rs.cover_words[degree] == "three_quarters"


def test_e5_112_creature_in_the_way_gives_half_cover_and_total_needs_no_line_of_effect():
    """E5-112 a creature gives half cover; E5-114 a wall between on every line: total cover."""
    values = answers("""
        ruleset: dnd5e
        map:
          rows: |
            .....
            #####
            .....
        creatures:
          - {id: a, side: x, at: [0, 0], stats: {}}
          - {id: b, side: y, at: [4, 0], stats: {}}
          - {id: c, side: y, at: [2, 0], stats: {}}
          - {id: d, side: y, at: [0, 2], stats: {}}
        steps:
          - {ask: cover, from: a, to: b, kind: ranged}
          - {ask: cover, from: a, to: d, kind: ranged}
    """)
    assert values == ["half", "total"]


def test_ds_002_size_may_be_a_whole_number():
    """DS-002: size N is an N x N x N space; the scenario may write it as a number."""
    s = load_scenario_text("ruleset: drawsteel\nmap: {rows: \"....\\n....\"}\ncreatures:\n"
                           "  - {id: ogre, side: x, at: [0, 0], stats: {size: 2}}\n")
    assert s.position.creature("ogre").size == 2


def test_dnd5e_flanking_option_uses_space_centres():
    """The DMG's optional flanking (dnd5e option ``flanking: true``) joins the centres of the two
    spaces: a Large ally whose near square is opposite does not flank when the centre of its space is
    not; off by default (the seed has no flanking)."""
    text = """
        ruleset: dnd5e
        options: {flanking: %s}
        map:
          rows: |
            .....
            .....
            .....
            .....
            .....
        creatures:
          - {id: gob, side: y, at: [1, 1], stats: {}}
          - {id: fury, side: x, at: [0, 0], stats: {}}
          - {id: ogre, side: x, at: [%s], stats: {size: large}}
        steps:
          - {ask: flanking, attacker: fury, target: gob}
    """
    assert answers(text % ("true", "1, 2")) == [False]
    assert answers(text % ("true", "2, 2")) == [True]
    assert answers(text % ("false", "2, 2")) == [False]


def test_m08_111_ddm2008_flanking_may_use_any_square_of_a_large_ally():
    """M08-111: in ddm2008 a Large creature may use any square it occupies for the flanking line."""
    text = """
        ruleset: ddm2008
        map:
          rows: |
            .....
            .....
            .....
            .....
        creatures:
          - {id: gob, side: y, at: [1, 1], stats: {}}
          - {id: fury, side: x, at: [0, 0], stats: {}}
          - {id: ogre, side: x, at: [1, 2], stats: {size: large}}
        steps:
          - {ask: flanking, attacker: fury, target: gob}
    """
    assert answers(text) == [True]


def test_wide_lines_are_refused_with_a_clear_message():
    s = load_scenario_text(textwrap.dedent("""
        ruleset: drawsteel
        map: {rows: "......"}
        creatures:
          - {id: a, side: x, at: [0, 0], stats: {abilities: [{name: sweep, kind: area, area: 5 x 2 line}]}}
        steps:
          - {ask: area, actor: a, with: sweep, at: [3, 0]}
    """))
    with pytest.raises(StepRefused, match="wider than one square"):
        run(s)
