"""Scenario YAML with line numbers: the core's reader (``skirmish.core.yamlsrc``), which the rule sets'
content uses as well."""

from skirmish.core.yamlsrc import KeyPath, LineMap, format_path, line_of, load_yaml_with_lines, where

__all__ = ["KeyPath", "LineMap", "format_path", "line_of", "load_yaml_with_lines", "where"]
