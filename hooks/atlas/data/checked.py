"""data/checked.yaml: the last day each fact's quote was found at its sources, written by
`make recheck` (scripts/recheck.py) and never by hand.

People edit data/providers.yaml; the scheduled job edits only this file, so their edits and the
job's never touch the same lines (and the job never rewrites people's comments or layout). Each
entry carries a short hash of the quote it found: when someone changes a quote, the old date no
longer applies to it and is not shown until the next re-check finds the new words.

    checked:
      aws:
        mps: {found: 2026-12-07, quote: 5d0c1f8a2b3e}
"""
from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from .. import yamlsrc
from ..problems import Problem
from .checks import describe
from .records import Provider

FILE = "data/checked.yaml"


def quote_hash(quote: str) -> str:
    """The short hash an entry keeps of the quote it found (whitespace does not count)."""
    return hashlib.sha256(" ".join(quote.split()).encode()).hexdigest()[:12]


def read_checked(root: Path, providers: tuple[Provider, ...], today: dt.date,
                 problems: list[Problem]) -> Mapping[tuple[str, str], dt.date]:
    """(provider, field) -> the day its current quote was last found. Entries for a provider,
    field or quote that no longer exists are left out (the next re-check drops them)."""
    path = root / FILE
    if not path.exists():
        return MappingProxyType({})
    doc = yamlsrc.load(path, FILE, problems, root)
    if doc is None:
        return MappingProxyType({})
    tree = doc.data.get("checked") if isinstance(doc.data, dict) else None
    if not isinstance(tree, dict):
        problems.append(Problem(FILE, 1, "key 'checked'", f"found {describe(tree)}, allowed: a mapping "
                                "provider -> field -> {found: YYYY-MM-DD, quote: <hash>} (written by make recheck)"))
        return MappingProxyType({})
    by_id = {p.id: p for p in providers}
    out = {}
    for pid, fields in tree.items():
        if not isinstance(fields, dict):
            problems.append(Problem(FILE, doc.line("checked", pid), f"provider '{pid}'",
                                    f"found {describe(fields)}, allowed: a mapping of fields"))
            continue
        for fid, entry in fields.items():
            where = f"provider '{pid}', field '{fid}'"
            found = entry.get("found") if isinstance(entry, dict) else None
            digest = entry.get("quote") if isinstance(entry, dict) else None
            if not isinstance(found, dt.date) or isinstance(found, dt.datetime) or not isinstance(digest, str):
                problems.append(Problem(FILE, doc.line("checked", pid, fid), where,
                                        f"found {describe(entry)}, allowed: {{found: YYYY-MM-DD, quote: <hash>}}"))
                continue
            if found > today:
                problems.append(Problem(FILE, doc.line("checked", pid, fid, "found"), where,
                                        f"found {found.isoformat()}, allowed: a date no later than today ({today.isoformat()})"))
                continue
            p = by_id.get(pid)
            fact = (p.pricing if fid == "pricing_page" else p.facts.get(fid)) if p else None
            if fact is not None and fact.quote and quote_hash(fact.quote) == digest:
                out[(pid, fid)] = found
    return MappingProxyType(out)
