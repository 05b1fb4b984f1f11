"""`make facts`: how much of the provider data is sourced, what is still unknown, what is old.

    python -m atlas.facts              # the report, in a second or two
    python -m atlas.facts --today 2026-12-01

`coverage` is the pure core (the comparison tables use `count` for their coverage line);
`main` only formats it.
"""
from __future__ import annotations

import argparse
import datetime as dt
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .data import Atlas, Provider, load_atlas
from .problems import DataError

ROOT = Path(__file__).resolve().parents[2]
STALE_AFTER_DAYS = 180


@dataclass(frozen=True)
class Tally:
    sourced: int
    total: int

    @property
    def percent(self) -> int:
        """Whole percent, rounded down so 59.9% never reads as 60%."""
        return self.sourced * 100 // self.total if self.total else 0


@dataclass(frozen=True)
class Stale:
    provider: str
    field: str
    verified: dt.date
    days: int
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Coverage:
    overall: Tally
    by_provider: tuple[tuple[str, Tally], ...]      # provider id, in data order
    by_field: tuple[tuple[str, Tally], ...]         # field id, in fields.yaml order
    unknown: tuple[tuple[str, tuple[str, ...]], ...]   # provider id -> fields still unknown
    stale: tuple[Stale, ...]
    partial_without_note: tuple[tuple[str, str], ...] = ()   # (provider, field): the policy wants a note


def count(providers: Iterable[Provider], fields: Iterable[str]) -> Tally:
    """Cells (provider × field) that hold a sourced value, out of all cells."""
    fields = tuple(fields)
    cells = [p.facts[f] for p in providers for f in fields if f in p.facts]
    return Tally(sum(1 for fact in cells if fact.known), len(cells))


def coverage(atlas: Atlas, today: dt.date, stale_after: int = STALE_AFTER_DAYS) -> Coverage:
    """Coverage per provider, per field and overall; unknown cells; sources older than `stale_after` days."""
    fields = atlas.all_fields
    stale = [Stale(p.id, f, fact.verified, (today - fact.verified).days, fact.sources)
             for p in atlas.providers for f in fields
             if (fact := p.facts[f]).known and fact.verified and (today - fact.verified).days > stale_after]
    return Coverage(
        overall=count(atlas.providers, fields),
        by_provider=tuple((p.id, count([p], fields)) for p in atlas.providers),
        by_field=tuple((f, count(atlas.providers, [f])) for f in fields),
        unknown=tuple((p.id, missing) for p in atlas.providers
                      if (missing := tuple(f for f in fields if not p.facts[f].known))),
        stale=tuple(sorted(stale, key=lambda s: (-s.days, s.provider, s.field))),
        partial_without_note=tuple((p.id, f) for p in atlas.providers for f in fields
                                   if p.facts[f].value == "partial"
                                   and any(atlas.note(lang, p.id, f) is None for lang in atlas.languages)),
    )


def report(cov: Coverage, stale_after: int = STALE_AFTER_DAYS) -> str:
    """The coverage as plain text for a terminal."""
    width = max([len(name) for name, _ in (*cov.by_provider, *cov.by_field)] + [8])
    row = lambda name, t: f"  {name:<{width}} {t.sourced:>4} / {t.total:<4} {t.percent:>3}%"  # noqa: E731
    out = [f"Sourced facts: {cov.overall.sourced} of {cov.overall.total} ({cov.overall.percent}%)", "",
           "Per provider:"]
    out += [row(name, t) for name, t in sorted(cov.by_provider, key=lambda x: (-x[1].percent, x[0]))]
    out += ["", "Per field:"] + [row(name, t) for name, t in cov.by_field]
    out += ["", f"Still unknown ({sum(len(f) for _, f in cov.unknown)} cells):"]
    out += [f"  {pid}: {', '.join(fields)}" for pid, fields in cov.unknown] or ["  none"]
    out += ["", f"Sources older than {stale_after} days ({len(cov.stale)}):"]
    out += [f"  {s.provider}.{s.field}: verified {s.verified.isoformat()} ({s.days} days) {' '.join(s.sources)}"
            for s in cov.stale] or ["  none"]
    out += ["", f"Partial values without a note in every language ({len(cov.partial_without_note)}):"]
    out += [f"  {pid}.{f}" for pid, f in cov.partial_without_note] or ["  none"]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make facts", description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--today", type=dt.date.fromisoformat, default=None, help="YYYY-MM-DD (default: today)")
    args = parser.parse_args(argv)
    today = args.today or dt.date.today()
    try:
        atlas = load_atlas(args.root, today=today)
    except DataError as exc:
        print(exc.report(), file=sys.stderr)
        return 1
    print(report(coverage(atlas, today)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
