"""Tests of YAML loading with line numbers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmish.errors import ContentError
from skirmish.scenario.yamlsrc import format_path, line_of, load_yaml_with_lines, where

SCENARIO = """\
# a comment first
name: Ambush
seed: 12
creatures:
  - id: orc1
    stats:
      speed: 6
      ac: 13
  - id: orc2
    note: |
      Guards the door.
        Indented line.

    tags: [a, b]
ratio: 0.5
hidden: false
nothing: null
8: eight
when: 2024-01-01
"""


def test_nested_keys_and_list_items_have_their_lines() -> None:
    data, lines = load_yaml_with_lines(SCENARIO, "s.yaml")
    assert isinstance(data, dict)
    assert lines[()] == 1
    assert lines[("name",)] == 2
    assert lines[("creatures",)] == 4
    assert lines[("creatures", 0)] == 5
    assert lines[("creatures", 0, "id")] == 5
    assert lines[("creatures", 0, "stats", "speed")] == 7
    assert lines[("creatures", 0, "stats", "ac")] == 8
    assert lines[("creatures", 1)] == 9
    assert lines[("creatures", 1, "tags", 1)] == 14
    assert lines[(8,)] == 18
    assert data["creatures"][0]["stats"] == {"speed": 6, "ac": 13}
    assert (data["seed"], data["ratio"], data["hidden"], data["nothing"], data[8]) == (
        12,
        0.5,
        False,
        None,
        "eight",
    )
    assert data["when"] == "2024-01-01"  # dates stay text


def test_block_scalar_text_is_kept_exactly() -> None:
    data, _ = load_yaml_with_lines(SCENARIO, "s.yaml")
    assert isinstance(data, dict)
    assert data["creatures"][1]["note"] == "Guards the door.\n  Indented line.\n"


def test_json_input() -> None:
    text = json.dumps({"name": "x", "creatures": [{"id": "a", "hp": 7}], "flag": True}, indent=2)
    data, lines = load_yaml_with_lines(text, "s.json")
    assert data == {"name": "x", "creatures": [{"id": "a", "hp": 7}], "flag": True}
    assert lines[("creatures", 0, "hp")] == 6


def test_anchors_aliases_and_merge_keys() -> None:
    text = "base: &b\n  hp: 5\n  ac: 12\norc:\n  <<: *b\n  ac: 14\nsame: *b\n"
    data, lines = load_yaml_with_lines(text, "s.yaml")
    assert data == {"base": {"hp": 5, "ac": 12}, "orc": {"hp": 5, "ac": 14}, "same": {"hp": 5, "ac": 12}}
    assert lines[("orc", "ac")] == 6
    assert lines[("orc", "hp")] == 2  # merged in from the anchor
    assert isinstance(data, dict)
    assert data["same"] is not data["base"]  # every alias is its own copy


def error_of(text: str) -> ContentError:
    with pytest.raises(ContentError) as info:
        load_yaml_with_lines(text, "bad.yaml")
    assert info.value.file == "bad.yaml"
    assert "Traceback" not in str(info.value) and "<unicode string>" not in str(info.value)
    return info.value


def test_duplicate_key_error_has_its_line() -> None:
    error = error_of("name: a\ncreatures:\n  - id: x\n    id: y\n")
    assert error.where == "line 4"
    assert "'id' appears twice" in str(error) and "line 3" in str(error)
    assert str(error).startswith("bad.yaml: line 4: ")


def test_syntax_error_has_its_line() -> None:
    error = error_of("name: a\nlist: [1, 2\nother: 3\n")
    assert error.where == "line 3"
    assert "not valid YAML" in str(error)
    assert error_of("name: a\nseed: 1\nbroken\nx: 1\n").where == "line 3"
    assert error_of("a: 1\n\tb: 2\n").where == "line 2"


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n"])
def test_empty_file_error(text: str) -> None:
    error = error_of(text)
    assert "empty" in str(error) and error.where == "line 1"


def test_top_level_must_be_a_mapping() -> None:
    error = error_of("- 1\n- 2\n")
    assert "mapping" in str(error) and "a list" in str(error)
    assert "mapping" in str(error_of("just text\n"))


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("a: 1\n---\nb: 2\n", 2, "more than one YAML document"),
        ("a: 1\nyes: 2\n", 2, "strings or integers"),
        ("a: 1\n1.5: 2\n", 2, "strings or integers"),
        ("a: 1\n[1]: 2\n", 2, "plain string or integer"),
        ("a: !foo 1\n", 1, "'!foo' is not supported"),
        ("a: !!binary aGk=\n", 1, "'!!binary' is not supported"),
        ("a:\n  b: &x [*x]\n", 2, "alias"),
        ("a: *nowhere\n", 1, "undefined alias"),
        ("a: 1\nb: \x01\n", 2, "does not allow"),
        ("a: " + "1" * 5000 + "\n", 1, "cannot be read as an integer"),
        ("a: 1\nb: " + "[" * 150 + "]" * 150 + "\n", 2, "nested"),
    ],
)
def test_other_errors_have_their_lines(text: str, line: int, words: str) -> None:
    error = error_of(text)
    assert error.where == f"line {line}"
    assert words in str(error)


def test_line_of_format_path_and_where() -> None:
    lines = {(): 1, ("creatures",): 3, ("creatures", 2): 9, ("creatures", 2, "stats"): 10}
    path = ("creatures", 2, "stats", "speed")
    assert line_of(lines, path) == 10
    assert line_of(lines, ("other",)) == 1
    assert line_of({}, path) is None
    assert format_path(path) == "creatures[2].stats.speed"
    assert format_path((0, "a", 1, 2)) == "[0].a[1][2]"
    assert format_path(()) == ""
    assert where(lines, path) == "line 10, creatures[2].stats.speed"
    assert where({}, path) == "creatures[2].stats.speed"
    assert where(lines, ()) == "line 1"


@given(st.text())
def test_random_text_loads_or_raises_content_error(text: str) -> None:
    try:
        data, lines = load_yaml_with_lines(text, "random.yaml")
    except ContentError as error:
        assert error.file == "random.yaml"
    else:
        assert isinstance(data, dict)
        assert lines[()] == 1


@given(st.text(alphabet=":-[]{}&*!|>'\"#,? \n\tab1"))
def test_yaml_like_text_loads_or_raises_content_error(text: str) -> None:
    try:
        data, _ = load_yaml_with_lines(text, "random.yaml")
    except ContentError:
        pass
    else:
        assert isinstance(data, dict)
