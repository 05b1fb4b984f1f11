"""The region filter of data/fields.yaml: the countries readers may pick, and each language's first."""
from __future__ import annotations

from .. import countries, yamlsrc
from ..problems import Problem


def region_filter(doc: yamlsrc.Doc, spec, problems: list[Problem]) -> tuple[tuple[str, ...], dict[str, str]]:
    if spec is None:
        return (), {}
    choices = spec.get("choices") if isinstance(spec, dict) else None
    first = (spec.get("first") if isinstance(spec, dict) else None) or {}
    bad = [c for c in choices or [] if not countries.is_country(c)]
    if not isinstance(choices, list) or bad or not isinstance(first, dict):
        problems.append(Problem(doc.path, doc.line("region_filter"), "region_filter",
                                f"found {bad or spec!r}, allowed: choices: [country codes], first: {{language: code}}"))
        return (), {}
    for lang, code in first.items():
        if code not in choices:
            problems.append(Problem(doc.path, doc.line("region_filter", "first", lang), f"region_filter, language '{lang}'",
                                    f"found {code!r}, allowed: {', '.join(choices)}"))
    return tuple(choices), {str(k): str(v) for k, v in first.items()}
