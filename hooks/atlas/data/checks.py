"""What every data loader shares: the keys each file kind allows, the plain-text checks, and how
a found value is named in a message."""
from __future__ import annotations

import re
from typing import Any

from .. import yamlsrc
from ..problems import Problem

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MARKUP = re.compile(r"<[a-zA-Z/!]|&[a-zA-Z#][a-zA-Z0-9]*;")
# Allowed keys of every other data file kind, by where they appear (see unknown_keys).
FILE_KEYS = {
    "fields": ("value_sets", "fields", "groups", "categories", "quiz", "region_filter", "discussed_in", "needs"),
    "field": ("values", "list", "empty_allowed", "item_words"),
    "quiz rule": ("right", "wrong"),
    "providers file": ("providers",),
    "quiz file": ("questions",),
    "question": ("id", "options", "correct", "multiple"),
    "quiz text": ("title", "questions"),
    "question text": ("question", "explanation", "options", "feedback"),
}


def unknown_keys(doc: yamlsrc.Doc, mapping: dict, kind: str, at: tuple, where: str,
                 problems: list[Problem]) -> None:
    """A problem for each key of `mapping` (at key path `at` in `doc`) not allowed for `kind`."""
    allowed = FILE_KEYS[kind]
    for key in mapping:
        if key not in allowed:
            problems.append(Problem(doc.path, doc.line(*at, key), f"{where + ', ' if where else ''}key '{key}'",
                                    f"unknown key, allowed: {', '.join(allowed)}"))


def flatten(tree: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(tree, dict):
        for k, v in tree.items():
            key = f"{prefix}{k}"
            if isinstance(v, dict):
                out.update(flatten(v, key + "."))
            else:
                out[key] = v
    return out


def is_known(value: Any, allowed: Any) -> bool:
    """`value in allowed`, false for a value YAML built as a list or mapping (unhashable)."""
    return not isinstance(value, (list, dict)) and value in allowed


def is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return repr(value) if value.strip() else "empty text"
    return f"{type(value).__name__} {value!r}"[:80]
