"""YAML loading that remembers the line of every value, for messages that point at it."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from . import files, invisible
from .problems import Problem

try:  # libyaml's C loader is several times faster; fall back where it is not built
    _Base = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Base = yaml.SafeLoader


_resolver = yaml.resolver.Resolver()
# The tag a value resolves to depends only on its kind, text and implicitness (no path
# resolvers are ever registered): keys such as `value:`, `sources:` and `verified:`, and values
# such as `unknown`, repeat thousands of times in providers.yaml, and each resolution tries the
# regular expressions anew. Cached in C, so a repeated value costs no Python call at all.
_resolve = lru_cache(maxsize=65536)(_resolver.resolve)


class _Loader(_Base):
    """The safe loader with resolution cached (`_resolve`). The composer also calls two path
    resolver hooks around every node: with no path resolvers they do nothing, so they are a
    built-in that does nothing (a Python call each, 280,000 of them in a thousand-provider file)."""

    resolve = staticmethod(_resolve)          # called with (kind, value, implicit)
    descend_resolver = staticmethod(slice)   # called with (parent, index); ignored
    ascend_resolver = staticmethod(tuple)    # called with nothing; ignored


@dataclass
class Doc:
    """A parsed YAML file: plain Python data plus the line of each node by its key path.

    Lines are read from the composed node tree only when asked for: a valid file asks for a
    handful (its problems' lines), and indexing the line of every one of a thousand-provider
    file's 140,000 values cost a tenth of its loading. `lines` (every key path -> line) is built
    on first use, for the few callers that walk all of a small file."""

    path: str
    data: Any = None
    node: Any = field(default=None, repr=False)
    offset: int = 0
    _lines: dict | None = field(default=None, repr=False)

    @property
    def lines(self) -> dict[tuple, int]:
        if self._lines is None:
            self._lines = {}
            if self.node is not None:
                _index(self.node, (), self._lines, self.offset)
        return self._lines

    def line(self, *keys: Any) -> int:
        """Line of the value at `keys`, or of its nearest ancestor that has one."""
        if self._lines is not None or self.node is None:
            keys = tuple(keys)
            while keys and keys not in self.lines:
                keys = keys[:-1]
            return self.lines.get(keys, 1)
        node = self.node
        for key in keys:
            child = _child(node, key)
            if child is None:
                break
            node = child
        return node.start_mark.line + 1 + self.offset


def _child(node: yaml.Node, key: Any) -> yaml.Node | None:
    """The node under `node` at `key`, as construction keyed it (the last of a key written
    twice; merge keys and keys that are not plain values are not keys), or None."""
    if isinstance(node, yaml.MappingNode):
        found = None
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE or not isinstance(key_node, yaml.ScalarNode):
                continue
            if _scalar(key_node) == key:
                found = value_node
        return found
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and not isinstance(key, bool) \
            and 0 <= key < len(node.value):
        return node.value[key]
    return None


def _index(node: yaml.Node, keys: tuple, lines: dict, offset: int) -> None:
    """Every key path under `node` -> its line (construction has bounded depth and aliases)."""
    lines[keys] = node.start_mark.line + 1 + offset
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if key_node.tag != _MERGE and isinstance(key_node, yaml.ScalarNode):
                _index(value_node, keys + (_scalar(key_node),), lines, offset)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _index(item, keys + (i,), lines, offset)


MAX_ALIASES = 100      # fields.yaml uses ~15; a billion-laughs file needs thousands
MAX_DEPTH = 50         # our deepest file nests 6 levels
MAX_NODES = 200_000    # providers.yaml has ~10,000


def load(path: Path, shown_as: str, problems: list[Problem], root: Path | None = None) -> Doc | None:
    """Parse `path` (a regular UTF-8 file inside `root`, by default the folder that holds
    data/); on failure append a located problem and return None."""
    try:
        text = files.read_text(path, root or _repository(path))
    except files.FileProblem as exc:
        problems.append(Problem(shown_as, exc.line, "", str(exc)))
        return None
    return parse(text, shown_as, problems)


def parse(text: str, shown_as: str, problems: list[Problem], first_line: int = 1) -> Doc | None:
    """Parse YAML `text` that starts on line `first_line` of `shown_as`, within the bounds
    above; on failure append a located problem and return None."""
    doc = Doc(shown_as, offset=first_line - 1)
    at = first_line - 1
    if not text.strip():
        problems.append(Problem(shown_as, first_line, "", "file is empty; expected a YAML mapping"))
        return None
    try:
        _check_shape(text, shown_as, at)
        node = yaml.compose(text, Loader=_Loader)
    except _TooBig as exc:
        problems.append(Problem(shown_as, exc.line, "", str(exc)))
        return None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 + at if mark else first_line
        hint = " (YAML does not allow tab characters for indentation)" if "\t" in text else ""
        problems.append(Problem(shown_as, line, "", f"malformed YAML: {exc.problem}{hint}"))
        return None
    except yaml.reader.ReaderError as exc:   # a character YAML refuses: at its own line, named
        problems.append(_refused_character(text, exc, shown_as, at))
        return None
    except yaml.YAMLError as exc:  # pragma: no cover - unmarked errors are rare
        problems.append(Problem(shown_as, first_line, "", f"malformed YAML: {exc}"))
        return None
    if node is None:
        problems.append(Problem(shown_as, first_line, "", "file is empty; expected a YAML mapping"))
        return None
    try:
        doc.data = _construct(node, 0, shown_as, problems, _Budget(at))
    except _TooBig as exc:
        problems.append(Problem(shown_as, exc.line, "", str(exc)))
        return None
    doc.node = node
    return doc


def _refused_character(text: str, exc: yaml.reader.ReaderError, shown_as: str, at: int) -> Problem:
    """The first character the YAML reader refuses (libyaml counts bytes, PyYAML characters:
    the character itself is looked for), by line and column."""
    ch = exc.character if isinstance(exc.character, str) else chr(exc.character)
    i = max(text.find(ch), 0)
    line = text.count("\n", 0, i) + 1
    column = i - (text.rfind("\n", 0, i) + 1) + 1
    return Problem(shown_as, line + at, "", f"found {invisible.name(ch)} at column {column}, a control "
                   "character YAML does not allow; allowed: printable text (delete the character)")


class _TooBig(ValueError):
    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


@dataclass
class _Budget:
    """Counts what construction has built, so aliases cannot multiply a small file."""

    offset: int
    nodes: int = 0
    seen: set = field(default_factory=set)
    aliases: int = 0

    def spend(self, node: yaml.Node) -> None:
        self.nodes += 1
        if id(node) in self.seen:       # the composer shares one node per anchor
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _TooBig(f"more than {MAX_ALIASES} alias uses (*name); allowed: at most {MAX_ALIASES}",
                              node.start_mark.line + 1 + self.offset)
        elif isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            self.seen.add(id(node))
        if self.nodes > MAX_NODES:
            raise _TooBig(f"more than {MAX_NODES:,} values; allowed: at most {MAX_NODES:,}",
                          node.start_mark.line + 1 + self.offset)


def _parser_bounds_nesting() -> bool:
    """Whether the C parser refuses deep nesting itself (libyaml 0.2.5 and later stop at 1,000
    levels, which its recursive composer handles): asked once, of libyaml itself."""
    if _Base is not getattr(yaml, "CSafeLoader", None):
        return False
    try:
        yaml.compose("[" * 5000 + "]" * 5000, Loader=_Base)
    except yaml.YAMLError:
        return True
    return False


_NESTING_BOUNDED = _parser_bounds_nesting()


def _check_shape(text: str, shown_as: str, at: int) -> None:
    """Refuse, from the event stream alone, nesting or alias counts beyond the bounds. Where
    libyaml bounds nesting itself, `_construct` enforces both bounds as it builds, and this
    second pass over the file (a fifth of its loading time) is skipped."""
    if _NESTING_BOUNDED:
        return
    depth = aliases = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise _TooBig(f"more than {MAX_ALIASES} alias uses (*name); allowed: at most {MAX_ALIASES}",
                              event.start_mark.line + 1 + at)
        elif isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise _TooBig(f"nested more than {MAX_DEPTH} levels deep; allowed: at most {MAX_DEPTH}",
                              event.start_mark.line + 1 + at)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _repository(path: Path) -> Path:
    """The folder that holds `data/` (or `docs/`) above `path`: files must stay inside it."""
    for parent in Path(path).absolute().parents:
        if parent.name in ("data", "docs"):
            return parent.parent
    return Path(path).absolute().parent


def _construct(node: yaml.Node, depth: int, file: str, problems: list[Problem], budget: _Budget) -> Any:
    budget.spend(node)
    if depth >= MAX_DEPTH and isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
        raise _TooBig(f"nested more than {MAX_DEPTH} levels deep; allowed: at most {MAX_DEPTH}",
                      node.start_mark.line + 1 + budget.offset)
    if isinstance(node, yaml.MappingNode):
        return _mapping(node, depth, file, problems, budget)
    if isinstance(node, yaml.SequenceNode):
        out = []
        for item in node.value:
            if item.__class__ is yaml.ScalarNode and item.tag == _STR:   # as in _mapping
                budget.nodes += 1
                if budget.nodes > MAX_NODES:
                    budget.spend(item)
                out.append(item.value)
            else:
                out.append(_construct(item, depth + 1, file, problems, budget))
        return out
    return _scalar(node)


def _mapping(node: yaml.MappingNode, depth: int, file: str, problems: list[Problem], budget: _Budget) -> dict:
    """A mapping's keys and values. Most of a file is text keys with text values: those are
    taken here as the safe constructor would take them, without a call per value (counted
    against the bounds all the same); a line number is worked out only for a problem."""
    out: dict = {}
    first: dict = {}   # key -> its key node, for a key written twice
    scalar = yaml.ScalarNode
    for key_node, value_node in node.value:
        if key_node.tag == _MERGE:
            problems.append(Problem(file, key_node.start_mark.line + 1 + budget.offset, "", MERGE_REFUSED))
            continue
        if key_node.__class__ is scalar and key_node.tag == _STR:
            key = key_node.value
        else:
            key = _scalar(key_node) if isinstance(key_node, scalar) else []
            if not isinstance(key, (str, int, float, bool, type(None))) and not hasattr(key, "isoformat"):
                problems.append(Problem(file, key_node.start_mark.line + 1 + budget.offset, "",
                                        "a key must be plain text, not a list or mapping"))
                continue
        if key in first:   # YAML keeps the last silently: both places are named
            was, at = first[key].start_mark.line + 1 + budget.offset, key_node.start_mark.line + 1 + budget.offset
            problems.append(Problem(file, was, "", f"key '{key}' is written again on line {at} of the "
                                    "same mapping, and only one of them would count; allowed: each key once"))
            problems.append(Problem(file, at, "", f"key '{key}' appears twice in the same mapping (first on line "
                                    f"{was}), and only one of them would count; allowed: each key once"))
        else:
            first[key] = key_node
        if value_node.__class__ is scalar and value_node.tag == _STR:
            budget.nodes += 1
            if budget.nodes > MAX_NODES:
                budget.spend(value_node)   # raises, at this value's line
            out[key] = value_node.value
        else:
            out[key] = _construct(value_node, depth + 1, file, problems, budget)
    return out


_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_MERGE = "tag:yaml.org,2002:merge"
# Merge keys are refused rather than resolved: the keys they copy in are written elsewhere (a
# message about one points at another record), a key written beside them silently wins over
# the copy, and YAML 1.2 dropped them. An alias reuses a whole value, visibly, and is bounded.
MERGE_REFUSED = ("merge key '<<' is not supported: the keys it copies in are not written here, and a key "
                 "beside it silently replaces the copy; allowed: write the keys out in full, or reuse a "
                 "whole value with an alias (key: *name)")


_STR = "tag:yaml.org,2002:str"


def _scalar(node: yaml.Node) -> Any:
    """Build a scalar (or a key that is not a scalar); a value YAML cannot build stays text."""
    if node.tag == _STR and isinstance(node, yaml.ScalarNode):
        return node.value   # what the safe constructor returns for text, most of every file
    try:
        return _CONSTRUCTOR.construct_object(node, deep=True)
    except (ValueError, OverflowError, yaml.constructor.ConstructorError):
        return node.value if isinstance(node, yaml.ScalarNode) else None
