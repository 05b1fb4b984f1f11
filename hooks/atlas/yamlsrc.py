"""YAML loading that remembers the line of every value, for messages that point at it."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .problems import Problem

try:  # libyaml's C loader is several times faster; fall back where it is not built
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader


@dataclass
class Doc:
    """A parsed YAML file: plain Python data plus the line of each node by its key path."""

    path: str
    data: Any = None
    lines: dict[tuple, int] = field(default_factory=dict)

    def line(self, *keys: Any) -> int:
        """Line of the value at `keys`, or of its nearest ancestor that has one."""
        keys = tuple(keys)
        while keys and keys not in self.lines:
            keys = keys[:-1]
        return self.lines.get(keys, 1)


def load(path: Path, shown_as: str, problems: list[Problem]) -> Doc | None:
    """Parse `path`; on failure append a located problem and return None."""
    doc = Doc(shown_as)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.append(Problem(shown_as, 1, "", "file is missing"))
        return None
    except UnicodeDecodeError as exc:
        problems.append(Problem(shown_as, 1, "", f"not valid UTF-8 ({exc.reason})"))
        return None
    if not text.strip():
        problems.append(Problem(shown_as, 1, "", "file is empty; expected a YAML mapping"))
        return None
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        hint = " (YAML does not allow tab characters for indentation)" if "\t" in text else ""
        problems.append(Problem(shown_as, line, "", f"malformed YAML: {exc.problem}{hint}"))
        return None
    except yaml.YAMLError as exc:  # pragma: no cover - unmarked errors are rare
        problems.append(Problem(shown_as, 1, "", f"malformed YAML: {exc}"))
        return None
    if node is None:
        problems.append(Problem(shown_as, 1, "", "file is empty; expected a YAML mapping"))
        return None
    doc.data = _construct(node, (), doc.lines, shown_as, problems)
    return doc


def _construct(node: yaml.Node, keys: tuple, lines: dict, file: str, problems: list[Problem]) -> Any:
    lines[keys] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node)
            if not isinstance(key, (str, int, float, bool, type(None))) and not hasattr(key, "isoformat"):
                problems.append(Problem(file, key_node.start_mark.line + 1, "",
                                        "a key must be plain text, not a list or mapping"))
                continue
            if key == "<<":  # merge keys (anchors) are resolved by the safe constructor
                merged = _construct(value_node, keys, {}, file, problems)
                for k, v in (merged.items() if isinstance(merged, dict) else []):
                    out.setdefault(k, v)
                continue
            if key in out:
                problems.append(Problem(file, key_node.start_mark.line + 1, "",
                                        f"key '{key}' appears twice in the same mapping"))
            out[key] = _construct(value_node, keys + (key,), lines, file, problems)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, keys + (i,), lines, file, problems) for i, item in enumerate(node.value)]
    return _scalar(node)


_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _scalar(node: yaml.Node) -> Any:
    """Build a scalar (or a key that is not a scalar); a value YAML cannot build stays text."""
    try:
        return _CONSTRUCTOR.construct_object(node, deep=True)
    except (ValueError, yaml.constructor.ConstructorError):
        return node.value if isinstance(node, yaml.ScalarNode) else None
