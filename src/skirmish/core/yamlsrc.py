"""Reading content YAML (scenarios, catalogs, maps, lineups; JSON is YAML too) while remembering
where every key was.

PyYAML's ``safe_load`` forgets line numbers, and an error such as "speed must be a whole
number" is of little use without one. So the text is composed into PyYAML's node tree and the
plain Python data is built here from the nodes, recording the line of every key and list item
under its key path, e.g. ``("creatures", 2, "stats", "speed") -> 14``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NoReturn

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import StreamEndEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError

from skirmish.errors import ContentError

KeyPath = tuple[str | int, ...]
"""Mapping keys and list indexes from the top of the document down to a value."""

LineMap = dict[KeyPath, int]
"""Key path -> 1-based line number of that key (or list item) in the file."""

MAX_DEPTH = 100
"""Most levels of nesting; far beyond any scenario, it keeps the builder's recursion bounded."""

MAX_VALUES = 1_000_000
"""Most values a document may expand to; stops alias "billion laughs" bombs, not real files."""

_TAG = "tag:yaml.org,2002:"
_MERGE_TAG = _TAG + "merge"
_MAP_TAG = _TAG + "map"
_SEQ_TAG = _TAG + "seq"
_STR_TAG = _TAG + "str"
# Dates stay text: no scenario field is a date, and PyYAML raises a bare ValueError on a
# date-like but impossible value such as 2024-13-45.
_TIMESTAMP_TAG = _TAG + "timestamp"
_KINDS = {
    _TAG + "null": "null",
    _TAG + "bool": "true or false",
    _TAG + "int": "an integer",
    _TAG + "float": "a number",
}
_SCALAR_TAGS = frozenset(_KINDS)


def load_yaml_with_lines(text: str, file: str) -> tuple[object, LineMap]:
    """Parse a YAML (or JSON) document whose top level is a mapping, keeping line numbers.

    Mappings become dicts (keys must be strings or integers, each at most once), sequences
    lists, scalars what PyYAML's safe loader makes of them (str, int, float, bool, None) except
    dates, which stay strings. Block scalars keep their text exactly. Anchors, aliases and
    ``<<`` merge keys are accepted; every alias yields its own copy of the data.

    Args:
        text: the file's text.
        file: the file's name, for error messages.

    Returns:
        The data (a dict) and a map from key path to the 1-based line of that node: for a
        mapping entry the line of its key, for a list item the line where the item starts. The
        empty path maps to line 1.

    Raises:
        ContentError: bad YAML, an empty file, more than one document, a top level that is not
            a mapping, a duplicate key, a key that is neither string nor integer, or an
            unsupported tag; ``where`` is ``"line N"``.
    """
    node = _compose(text, file)
    if not isinstance(node, MappingNode):
        kind = "a list" if isinstance(node, SequenceNode) else "a single value"
        raise ContentError(
            f"the top level must be a mapping of keys to values (e.g. 'name: ...'), not {kind}",
            file=file,
            where=f"line {_line(node)}",
        )
    builder = _Builder(file)
    data = builder.build(node, ())
    builder.lines[()] = 1
    return data, builder.lines


def line_of(lines: Mapping[KeyPath, int], path: KeyPath) -> int | None:
    """The line of the deepest prefix of ``path`` found in ``lines``, or None if there is none.

    A path into a value that has no line of its own (a key the file lacks, or the inside of a
    scalar) so gets the line of its nearest recorded parent.
    """
    for end in range(len(path), -1, -1):
        line = lines.get(path[:end])
        if line is not None:
            return line
    return None


def format_path(path: KeyPath) -> str:
    """A key path as text: ``("creatures", 2, "stats", "speed")`` -> ``creatures[2].stats.speed``."""
    parts: list[str] = []
    for key in path:
        if isinstance(key, int):
            parts.append(f"[{key}]")
        else:
            parts.append(f".{key}" if parts else key)
    return "".join(parts)


def where(lines: Mapping[KeyPath, int], path: KeyPath) -> str:
    """Where a value is, for ``ContentError(where=...)``: ``line 12, creatures[2].stats.speed``.

    Just the path when no line is known, just the line for the empty path, and ``""`` when
    neither is known.
    """
    line = line_of(lines, path)
    text = format_path(path)
    if line is None:
        return text
    return f"line {line}, {text}" if text else f"line {line}"


def _line(node: Node) -> int:
    return node.start_mark.line + 1


def _compose(text: str, file: str) -> Node:
    """Compose the single document of ``text`` into a node tree, or raise ``ContentError``."""
    try:
        # The reader checks every character as it is created, so that too is inside the try.
        loader = yaml.SafeLoader(text)
    except ReaderError as error:
        raise _reader_error(error, text, file) from None
    try:
        loader.get_event()  # the stream start; cannot fail
        if loader.check_event(StreamEndEvent):
            raise ContentError(
                "the file is empty; it must hold a mapping such as 'name: ...'", file=file, where="line 1"
            )
        node = loader.compose_document()
        if node is None:  # pragma: no cover - a document always has a node, if only an empty scalar
            raise ContentError("the file has no content", file=file, where="line 1")
        if not loader.check_event(StreamEndEvent):
            extra = loader.peek_event()
            raise ContentError(
                "the file holds more than one YAML document (the second starts on this line); "
                "keep one document per file",
                file=file,
                where=f"line {extra.start_mark.line + 1}",
            )
        return node
    except yaml.MarkedYAMLError as error:
        raise _syntax_error(error, file) from None
    except ReaderError as error:  # pragma: no cover - the reader checked all the text up front
        raise _reader_error(error, text, file) from None
    except yaml.YAMLError as error:  # pragma: no cover - every PyYAML error is one of the above
        raise ContentError(f"not valid YAML: {error}", file=file) from None
    except RecursionError:
        line = loader.get_mark().line + 1
        raise ContentError(
            "the document is nested too deeply to read", file=file, where=f"line {line}"
        ) from None
    finally:
        loader.dispose()


def _reader_error(error: ReaderError, text: str, file: str) -> ContentError:
    """A ``ContentError`` for a character YAML refuses, with its line."""
    line = text.count("\n", 0, error.position) + 1
    character = chr(error.character) if isinstance(error.character, int) else str(error.character)
    return ContentError(
        f"the text contains the character {character!r}, which YAML does not allow; remove it",
        file=file,
        where=f"line {line}",
    )


def _syntax_error(error: yaml.MarkedYAMLError, file: str) -> ContentError:
    """A ``ContentError`` telling the problem and its line, without PyYAML's mark dumps."""
    mark = error.problem_mark or error.context_mark
    problem = error.problem or error.context or "unreadable text"
    context = error.context if error.problem else None
    if context == "while scanning a simple key" and error.context_mark is not None:
        # PyYAML marks the line after a key that lacks its ':'; the key's own line is the useful one.
        mark = error.context_mark
        context = "after what looks like a key"
    message = f"not valid YAML: {problem}"
    if mark is not None:
        message += f" (column {mark.column + 1})"
    if context:
        context_mark = error.context_mark
        if context_mark is not None and (mark is None or context_mark.line != mark.line):
            message += f", {context} that starts on line {context_mark.line + 1}"
        else:
            message += f", {context}"
    return ContentError(message, file=file, where=f"line {mark.line + 1}" if mark is not None else None)


def _tag(tag: str) -> str:
    """A tag as written in YAML: ``!!binary`` rather than ``tag:yaml.org,2002:binary``."""
    return "!!" + tag.removeprefix(_TAG) if tag.startswith(_TAG) else tag


class _Builder:
    """Builds plain Python data from a node tree, recording the line of every key path."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.lines: LineMap = {}
        self.constructor = SafeConstructor()  # only its scalar constructors are used
        self.values = 0
        self.open_nodes: set[int] = set()  # collections being built, to catch an alias to itself

    def fail(self, message: str, node: Node) -> NoReturn:
        raise ContentError(message, file=self.file, where=f"line {_line(node)}")

    def build(self, node: Node, path: KeyPath) -> object:
        if len(path) > MAX_DEPTH:
            self.fail(f"the document is nested more than {MAX_DEPTH} levels deep", node)
        self.values += 1
        if self.values > MAX_VALUES:
            self.fail(f"the document expands to more than {MAX_VALUES} values (through aliases?)", node)
        if isinstance(node, ScalarNode):
            return self.scalar(node)
        if id(node) in self.open_nodes:
            self.fail("an alias refers to a list or mapping that contains it, which would never end", node)
        self.open_nodes.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                if node.tag != _SEQ_TAG:
                    self.fail(f"the tag {_tag(node.tag)!r} is not supported; write a plain list", node)
                items: list[object] = []
                for index, item in enumerate(node.value):
                    self.lines[(*path, index)] = _line(item)
                    items.append(self.build(item, (*path, index)))
                return items
            if isinstance(node, MappingNode):
                result: dict[str | int, object] = {}
                for key, key_node, value_node in self.entries(node):
                    self.lines[(*path, key)] = _line(key_node)
                    result[key] = self.build(value_node, (*path, key))
                return result
            self.fail("this kind of YAML node is not supported", node)  # pragma: no cover
        finally:
            self.open_nodes.discard(id(node))

    def entries(self, node: MappingNode) -> list[tuple[str | int, Node, Node]]:
        """The entries of a mapping with ``<<`` merges applied: own keys win, then earlier merges."""
        if node.tag != _MAP_TAG:
            self.fail(f"the tag {_tag(node.tag)!r} is not supported; write a plain mapping", node)
        own: list[tuple[str | int, Node, Node]] = []
        merged: list[tuple[str | int, Node, Node]] = []
        seen: dict[str | int, int] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                sources = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
                for source in sources:
                    if not isinstance(source, MappingNode):
                        self.fail("'<<' must be followed by a mapping or a list of mappings to merge", source)
                    if id(source) in self.open_nodes:
                        self.fail("'<<' merges a mapping into itself", source)
                    self.open_nodes.add(id(source))
                    try:
                        merged.extend(self.entries(source))
                    finally:
                        self.open_nodes.discard(id(source))
                continue
            key = self.key(key_node)
            if key in seen:
                self.fail(
                    f"the key {key!r} appears twice in this mapping (first on line {seen[key]})", key_node
                )
            seen[key] = _line(key_node)
            own.append((key, key_node, value_node))
        for entry in merged:
            if entry[0] not in seen:
                seen[entry[0]] = _line(entry[1])
                own.append(entry)
        return own

    def key(self, node: Node) -> str | int:
        if not isinstance(node, ScalarNode):
            self.fail("a key must be a plain string or integer, not a list or mapping", node)
        key = self.scalar(node)
        # bool is an int to Python, but 'yes:' or 'on:' as a key is almost surely a mistake.
        if isinstance(key, bool) or not isinstance(key, str | int):
            self.fail(
                f"the key {node.value!r} reads as {key!r}; keys must be strings or integers "
                f"(quote it, e.g. '\"{node.value}\":')",
                node,
            )
        return key

    def scalar(self, node: ScalarNode) -> object:
        if node.tag in (_STR_TAG, _TIMESTAMP_TAG):
            return node.value
        if node.tag not in _SCALAR_TAGS:
            self.fail(f"the tag {_tag(node.tag)!r} is not supported; write a plain value", node)
        construct: Callable[[SafeConstructor, ScalarNode], object] = self.constructor.yaml_constructors[
            node.tag
        ]
        try:
            return construct(self.constructor, node)
        except (ValueError, yaml.YAMLError):
            # e.g. an integer of more digits than Python will convert
            shown = node.value if len(node.value) <= 40 else node.value[:40] + "..."
            kind = _KINDS.get(node.tag, "a value")
            self.fail(f"the value {shown!r} cannot be read as {kind}", node)
