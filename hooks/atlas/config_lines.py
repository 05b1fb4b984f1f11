"""Where a setting is written in mkdocs.yml, for messages that point at its line.

MkDocs hands the hooks its settings without lines; this reads mkdocs.yml again as YAML nodes
(composed only, so its `!ENV` and `!!python/…` tags are never run) and walks them.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from .urls import url_refusal


def line(config_file: str | Path | None, keys: tuple[str, ...], locale: str = "") -> int:
    """The line of the value at `keys` in mkdocs.yml (inside the entry of language `locale` in
    plugins.i18n.languages, when given), or of the nearest enclosing setting written there; 1
    when mkdocs.yml cannot be read."""
    try:
        node = yaml.compose(Path(config_file or "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, ValueError, yaml.YAMLError):
        return 1
    found = 1
    path: list = [*(("plugins", "i18n", "languages", ("locale", locale)) if locale else ()), *keys]
    for step in path:
        node, at = _child(node, step)
        if node is None:
            break
        found = at
    return found


def url_problems(config_file: str | Path | None, entries: list[tuple[str, str, tuple[str, ...], object]]) -> list[str]:
    """'mkdocs.yml:N: where: found …, allowed: …' for each (where, locale, keys, value) of
    `entries` whose value is not an http(s) URL without credentials."""
    out = []
    for where, locale, keys, value in entries:
        refusal = url_refusal(value, "an http(s) URL without credentials")
        if refusal:
            out.append(f"mkdocs.yml:{line(config_file, keys, locale)}: {where}: {refusal}")
    return out


def _child(node: yaml.Node | None, step: str | tuple[str, str]) -> tuple[yaml.Node | None, int]:
    """The value under `step` of a mapping and the line of its key; in a list, the entry that
    is `step` (a plugin given by name) or the mapping whose `step[0]` is `step[1]` (a language
    by its locale), and the line where that entry starts."""
    if isinstance(node, yaml.MappingNode) and not isinstance(step, tuple):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == step:
                return value, key.start_mark.line + 1
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            value, at = _child(item, step[0] if isinstance(step, tuple) else step)
            if isinstance(step, tuple) and isinstance(value, yaml.ScalarNode) and value.value == step[1]:
                return item, item.start_mark.line + 1
            if not isinstance(step, tuple) and value is not None:
                return value, at
    return None, 0
