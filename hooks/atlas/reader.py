"""What the reader tools need beyond the Atlas: where each field is explained, and which
sourced values meet each need on the "choose by needs" page. Both live in data/fields.yaml
(`discussed_in:` and `needs:`); this module loads and validates them, and decides, per
provider and need, whether a fact meets it, does not, or is unknown.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from . import files, yamlsrc
from .data import Atlas, Provider
from .problems import DataError, Problem

FIELDS = "data/fields.yaml"
YES, NO, UNKNOWN = "yes", "no", "unknown"


@dataclass(frozen=True)
class Need:
    id: str
    field: str
    values: tuple[str, ...] = ()   # single-valued fields: the values that meet the need
    each_item: bool = False        # list fields: one choice per item


@dataclass(frozen=True)
class ReaderData:
    discussed_in: Mapping[str, tuple[str, ...]]   # field -> page paths inside a language folder
    needs: tuple[Need, ...]


def load(root: Path, atlas: Atlas) -> ReaderData:
    """Read `discussed_in` and `needs` from data/fields.yaml; raise DataError listing every problem."""
    problems: list[Problem] = []
    doc = yamlsrc.load(root / FIELDS, FIELDS, problems)
    if doc is None:
        raise DataError(problems)
    d = doc.data if isinstance(doc.data, dict) else {}
    fields = atlas.all_fields
    pages = _english_pages(root)
    discussed: dict[str, tuple[str, ...]] = {}
    raw = d.get("discussed_in") or {}
    for fid in fields:
        paths = raw.get(fid) if isinstance(raw, dict) else None
        if not isinstance(paths, list) or not paths:
            problems.append(Problem(FIELDS, doc.line("discussed_in"), f"discussed_in, field '{fid}'",
                                    "missing; allowed: a list of one or more pages such as compare/kubernetes.md"))
            continue
        bad = [p for p in paths if p not in pages]
        if bad:
            problems.append(Problem(FIELDS, doc.line("discussed_in", fid), f"discussed_in, field '{fid}'",
                                    f"found {bad}, allowed: pages under docs/en/ such as compare/kubernetes.md"))
        discussed[fid] = tuple(p for p in paths if p in pages)
    for fid in raw if isinstance(raw, dict) else ():
        if fid not in fields:
            problems.append(Problem(FIELDS, doc.line("discussed_in", fid), f"discussed_in, field '{fid}'",
                                    f"unknown field, allowed: {', '.join(fields)}"))
    needs = []
    raw_needs = d.get("needs") or {}
    if not isinstance(raw_needs, dict):
        problems.append(Problem(FIELDS, doc.line("needs"), "key 'needs'",
                                f"found {type(raw_needs).__name__}, allowed: a mapping of need ids to their field"))
        raw_needs = {}
    for nid, spec in raw_needs.items():
        where, line = f"need '{nid}'", doc.line("needs", nid)
        fid = spec.get("field") if isinstance(spec, dict) else None
        if fid not in fields:
            problems.append(Problem(FIELDS, line, where, f"field found {fid!r}, allowed: {', '.join(fields)}"))
            continue
        if fid in atlas.list_fields:
            if spec.get("each") != "item" or "values" in spec:
                problems.append(Problem(FIELDS, line, where, f"list field '{fid}' needs 'each: item' and no values"))
                continue
            needs.append(Need(str(nid), fid, each_item=True))
            continue
        values = spec.get("values")
        allowed = [v for v in atlas.fields[fid] if v != UNKNOWN]
        if not isinstance(values, list) or not values or any(v not in allowed for v in values):
            problems.append(Problem(FIELDS, line, where, f"values found {values!r}, allowed: some of {', '.join(allowed)}"))
            continue
        needs.append(Need(str(nid), fid, tuple(values)))
    if problems:
        raise DataError(problems)
    return ReaderData(discussed, tuple(needs))


def for_markers(root: Path, atlas: Atlas) -> ReaderData:
    """`load`, its problems raised as the ValueError a marker that needs the data reports (the
    build and `make i18n` name them at the marker, with no traceback)."""
    try:
        return load(root, atlas)
    except DataError as exc:
        raise ValueError(exc.report()) from None


def choices(atlas: Atlas, need: Need) -> tuple[str, ...]:
    """The items offered for a list need: the region filter's countries, then every country
    or item present in sourced data; for a closed list, its items."""
    spec = atlas.list_fields[need.field]
    if spec.items is not None and spec.item_words:   # payment methods, tax invoices: every item has words
        return spec.items
    if spec.items is not None:   # GPU models: those some provider has, in data/fields.yaml's order
        have = {i for p in atlas.providers if p.facts[need.field].known for i in p.facts[need.field].value}
        return tuple(i for i in spec.items if i in have)
    seen = dict.fromkeys(atlas.region_choices)
    for p in atlas.providers:
        fact = p.facts[need.field]
        if fact.known:
            seen.update(dict.fromkeys(fact.value))
    return tuple(seen)


def tokens(atlas: Atlas, needs: tuple[Need, ...]) -> list[tuple[Need, str | None]]:
    """Every choice on the page as (need, item); item is None for single-valued needs."""
    out: list[tuple[Need, str | None]] = []
    for n in needs:
        out += [(n, item) for item in choices(atlas, n)] if n.each_item else [(n, None)]
    return out


def token(need: Need, item: str | None) -> str:
    """The choice's id in the URL and the page: 'mig', 'country-IN', 'currency-INR'."""
    return need.id if item is None else f"{need.id}-{item}"


def meets(provider: Provider, need: Need, item: str | None = None) -> str:
    """YES when a sourced fact meets the need, UNKNOWN when the fact is unknown, else NO."""
    fact = provider.facts[need.field]
    if not fact.known:
        return UNKNOWN
    if need.each_item:
        return YES if item in fact.value else NO
    return YES if fact.value in need.values else NO


def _english_pages(root: Path) -> set[str]:
    """The English pages the build reads (files.walk: no dotfiles, linked folders that stay in
    the repository), so `discussed_in` can name only pages that are built."""
    base = root / "docs" / "en"
    found, _ = files.walk(base, root, ".md")
    return {p.relative_to(base).as_posix() for p in found}
