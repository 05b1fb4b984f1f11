"""The region filter of data/fields.yaml: the countries readers may pick, and each language's first.

`choices: all` offers every country the data has (the regions of every provider); a list offers
those countries alone. `first` names, per language, the countries its readers look for first
(their own, then their neighbours): a code or a list of codes.
"""
from __future__ import annotations

from .. import countries, yamlsrc
from ..problems import Problem

ALL = "all"


def region_filter(doc: yamlsrc.Doc, spec, problems: list[Problem]) -> tuple[tuple[str, ...] | str, dict[str, tuple[str, ...]]]:
    if spec is None:
        return (), {}
    choices = spec.get("choices") if isinstance(spec, dict) else None
    first = (spec.get("first") if isinstance(spec, dict) else None) or {}
    listed = choices if isinstance(choices, list) else []
    bad = [c for c in listed if not countries.is_country(c)]
    if not (isinstance(choices, list) or choices == ALL) or bad or not isinstance(first, dict):
        problems.append(Problem(doc.path, doc.line("region_filter"), "region_filter",
                                f"found {bad or spec!r}, allowed: choices: all, or [country codes]; "
                                "first: {language: code or [codes]}"))
        return (), {}
    home: dict[str, tuple[str, ...]] = {}
    for lang, codes in first.items():
        codes = [codes] if isinstance(codes, str) else codes
        wrong = [c for c in codes or [] if not isinstance(c, str) or not countries.is_country(c)
                 or (choices != ALL and c not in listed)] if isinstance(codes, list) else [codes]
        if wrong or not codes:
            allowed = "country codes" if choices == ALL else ", ".join(listed)
            problems.append(Problem(doc.path, doc.line("region_filter", "first", lang), f"region_filter, language '{lang}'",
                                    f"found {wrong or codes!r}, allowed: {allowed}"))
            continue
        home[str(lang)] = tuple(codes)
    return (ALL if choices == ALL else tuple(listed)), home
