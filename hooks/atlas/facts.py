"""`make facts`: how much of the provider data is sourced, what is still unknown, what is old.

    python -m atlas.facts              # the report, in a second or two
    python -m atlas.facts --today 2026-12-01

`coverage` is the pure core (the comparison tables use `count` for their coverage line);
`main` only formats it.

The report also lists, for review, every "does not have it" value (`no`, interconnect `none`)
whose `quote:` is missing or has none of the words that state absence in the quote's language
(`absence_review`): the evidence policy wants a source sentence that says the feature is absent.
It is a list for a reviewer, not a build failure: a word like "not" is a hint, not a proof.
"""
from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping

from . import ages
from .data import Atlas, Provider, load_atlas
from .problems import DataError

ROOT = Path(__file__).resolve().parents[2]
ABSENT_VALUES = ("no", "none")   # the values that claim a feature is absent
STALE_AFTER_DAYS = ages.READ_LIMIT_DAYS


@dataclass(frozen=True)
class Tally:
    sourced: int
    total: int

    @property
    def percent(self) -> int:
        """Whole percent, rounded down so 59.9% never reads as 60% (the tables' coverage line)."""
        return self.sourced * 100 // self.total if self.total else 0

    @property
    def ratio(self) -> float:
        return self.sourced / self.total if self.total else 0.0


def percent_text(tally: Tally) -> str:
    """The share as a percentage with one decimal, rounded to nearest (16 of 18 is "88.9%",
    7 of 54 is "13.0%"). Only a complete count reads "100.0%" and only an empty one "0.0%":
    17,999 of 18,000 shows "99.9%", 1 of 100,000 shows "0.1%"."""
    if not tally.total or not tally.sourced:
        return "0.0%"
    if tally.sourced >= tally.total:
        return "100.0%"
    tenths = (tally.sourced * 2000 + tally.total) // (2 * tally.total)   # round half up, in integers
    return f"{min(max(tenths, 1), 999) / 10:.1f}%"


@dataclass(frozen=True)
class Stale:
    provider: str
    field: str
    verified: dt.date
    days: int
    sources: tuple[str, ...]
    reason: str = "read"                 # "read": verified long ago; "source": the source's own date is old
    source_date: str | None = None


@dataclass(frozen=True)
class Coverage:
    overall: Tally
    by_provider: tuple[tuple[str, Tally], ...]      # provider id, in data order
    by_field: tuple[tuple[str, Tally], ...]         # field id, in fields.yaml order
    unknown: tuple[tuple[str, tuple[str, ...]], ...]   # provider id -> fields still unknown
    stale: tuple[Stale, ...]
    dated: Tally = Tally(0, 0)            # sourced facts whose source's own date is recorded
    partial_without_note: tuple[tuple[str, str], ...] = ()   # (provider, field): the policy wants a note
    absence_review: tuple["AbsenceClaim", ...] = ()        # "no" values whose quote does not say so


# Rank of "does not have it" in data/fields.yaml (`no`, interconnect `none`).
ABSENT_RANK = 3

# Words that state absence, by the language of the quote (`quote_lang`, its primary subtag).
# A quote in a language not listed here is read with the English words. Matched as whole
# words, case-insensitively, with typographic apostrophes read as plain ones; for scripts
# without spaces between words (Japanese) or with combining vowel signs (Hindi), as text.
NEGATION_CUES: Mapping[str, tuple[str, ...]] = {
    "en": ("not", "no", "cannot", "n't", "only", "unsupported", "unavailable", "never", "none", "nor"),
    "vi": ("không", "chưa", "chỉ"),
    "hi": ("नहीं", "केवल", "सिर्फ़", "सिर्फ", "असमर्थित"),
    "ja": ("ない", "ません", "不可", "非対応", "未対応", "のみ", "だけ"),
    "de": ("nicht", "kein", "keine", "keinen", "nur", "nie"),
    "fr": ("ne", "n'", "pas", "aucun", "aucune", "seulement", "uniquement", "jamais"),
    "es": ("no", "nunca", "ningún", "ninguna", "solo", "sólo", "únicamente"),
    "pt": ("não", "nunca", "nenhum", "nenhuma", "apenas", "somente"),
    "nb": ("ikke", "ingen", "kun", "bare", "aldri"),
}
# Languages whose cues are found as plain text, not as whole words.
_CUES_AS_TEXT = frozenset({"hi", "ja", "zh", "ko", "th"})


@lru_cache(maxsize=None)
def _cue_pattern(lang: str) -> re.Pattern[str]:
    cues = NEGATION_CUES.get(lang, NEGATION_CUES["en"])
    if lang in _CUES_AS_TEXT:
        return re.compile("|".join(re.escape(c) for c in cues))

    def word(c: str) -> str:
        if c.startswith("n'") and len(c) > 2:     # "n't" ends a word: doesn't, isn't
            return re.escape(c) + r"(?!\w)"
        if c.endswith("'"):                        # "n'" starts one: n'est, n'a
            return r"(?<!\w)" + re.escape(c)
        return r"(?<!\w)" + re.escape(c) + r"(?!\w)"
    return re.compile("|".join(word(c) for c in cues), re.IGNORECASE)


def states_absence(quote: str | None, lang: str = "en") -> bool:
    """Whether `quote` has one of the words that state absence in its language (`lang` is the
    fact's `quote_lang`, a BCP 47 tag such as "vi" or "pt-BR")."""
    if not quote:
        return False
    primary = (lang or "en").split("-")[0].lower()
    text = quote.replace("\u2019", "'").replace("\u2018", "'")
    return _cue_pattern(primary).search(text) is not None


@dataclass(frozen=True)
class AbsenceClaim:
    """A "does not have it" value whose source quote is missing or does not state absence."""

    provider: str
    field: str
    value: str
    reason: str         # "no quote" or "quote has no word of absence (<lang>)"


def absence_review(providers: Iterable[Provider], fields: Mapping[str, Mapping[str, float]]
                   ) -> tuple[AbsenceClaim, ...]:
    """Every single-valued fact ranked "does not have it" (`no`, `none`) whose quote is missing
    or does not state absence, in data order. `fields` maps a single-valued field to its
    value ranks (Atlas.fields); list fields are not reviewed here."""
    out = []
    for p in providers:
        for f, ranks in fields.items():
            fact = p.facts.get(f)
            if fact is None or not isinstance(fact.value, str) or ranks.get(fact.value) != ABSENT_RANK \
                    or fact.value not in ABSENT_VALUES:
                continue   # stopped_billing's "gpu" ranks last too, but is a charge, not an absence
            if not fact.quote:
                out.append(AbsenceClaim(p.id, f, fact.value, "no quote"))
            elif not states_absence(fact.quote, fact.quote_lang):
                out.append(AbsenceClaim(p.id, f, fact.value,
                                        f"quote has no word of absence ({fact.quote_lang or 'en'})"))
    return tuple(out)


def count(providers: Iterable[Provider], fields: Iterable[str]) -> Tally:
    """Cells (provider × field) that hold a sourced value, out of all cells."""
    fields = tuple(fields)
    cells = [p.facts[f] for p in providers for f in fields if f in p.facts]
    return Tally(sum(1 for fact in cells if fact.known), len(cells))


def coverage(atlas: Atlas, today: dt.date, stale_after: int = STALE_AFTER_DAYS) -> Coverage:
    """Coverage per provider, per field and overall; unknown cells; sources older than `stale_after` days."""
    fields = atlas.all_fields
    stale = []
    for p in atlas.providers:
        for f in fields:
            fact = p.facts[f]
            old = ages.age(f, fact.verified, fact.source_date, today) if fact.known and fact.verified else None
            if stale_after != STALE_AFTER_DAYS and fact.known and fact.verified and (today - fact.verified).days > stale_after:
                old = ages.Age("read", fact.verified, (today - fact.verified).days, stale_after)
            if old:
                stale.append(Stale(p.id, f, fact.verified, old.days, fact.sources, old.reason, fact.source_date))
    known = [p.facts[f] for p in atlas.providers for f in fields if p.facts[f].known]
    return Coverage(
        overall=count(atlas.providers, fields),
        by_provider=tuple((p.id, count([p], fields)) for p in atlas.providers),
        by_field=tuple((f, count(atlas.providers, [f])) for f in fields),
        unknown=tuple((p.id, missing) for p in atlas.providers
                      if (missing := tuple(f for f in fields if not p.facts[f].known))),
        stale=tuple(sorted(stale, key=lambda s: (-s.days, s.provider, s.field))),
        dated=Tally(sum(1 for fact in known if fact.source_date), len(known)),
        partial_without_note=tuple((p.id, f) for p in atlas.providers for f in fields
                                   if p.facts[f].value == "partial"
                                   and any(atlas.note(lang, p.id, f) is None for lang in atlas.languages)),
        absence_review=absence_review(atlas.providers, atlas.fields),
    )


def report(cov: Coverage, stale_after: int = STALE_AFTER_DAYS) -> str:
    """The coverage as plain text for a terminal."""
    width = max([len(name) for name, _ in (*cov.by_provider, *cov.by_field)] + [8])
    row = lambda name, t: f"  {name:<{width}} {t.sourced:>4} / {t.total:<4} {percent_text(t):>6}"  # noqa: E731
    out = [f"Sourced facts: {cov.overall.sourced} of {cov.overall.total} ({percent_text(cov.overall)})", "",
           "Per provider:"]
    out += [row(name, t) for name, t in sorted(cov.by_provider, key=lambda x: (-x[1].ratio, x[0]))]
    out += ["", "Per field:"] + [row(name, t) for name, t in cov.by_field]
    out += ["", f"Still unknown ({sum(len(f) for _, f in cov.unknown)} cells):"]
    out += [f"  {pid}: {', '.join(fields)}" for pid, fields in cov.unknown] or ["  none"]
    out += ["", f"Source's own date recorded (source_date): {cov.dated.sourced} of {cov.dated.total} sourced facts "
                f"({percent_text(cov.dated)})"]
    out += ["", f"May be outdated ({len(cov.stale)}): read more than {stale_after} days ago, or the source's own date older "
                f"than {ages.SOURCE_LIMIT_DEFAULT} days ({', '.join(f'{k} {v}' for k, v in ages.SOURCE_LIMIT_DAYS.items())})"]
    out += [f"  {s.provider}.{s.field}: " + (f"source dated {s.source_date} ({s.days} days)" if s.reason == "source"
                                             else f"verified {s.verified.isoformat()} ({s.days} days)") + f" {' '.join(s.sources)}"
            for s in cov.stale] or ["  none"]
    out += ["", f"Partial values without a note in every language ({len(cov.partial_without_note)}):"]
    out += [f"  {pid}.{f}" for pid, f in cov.partial_without_note] or ["  none"]
    out += ["", f"'Does not have it' values whose quote does not state absence ({len(cov.absence_review)}; "
                "for review, not an error):"]
    out += [f"  {c.provider}.{c.field} = {c.value}: {c.reason}" for c in cov.absence_review] or ["  none"]
    return "\n".join(out)


@dataclass(frozen=True)
class Local:
    """What a buyer in India or Vietnam needs, counted over every provider (issue 33)."""
    providers: int
    regions: tuple[str, ...]            # providers whose GPU countries are sourced (an answer for IN and VN)
    in_country: Mapping[str, tuple[str, ...]]   # IN, VN, SG -> providers with GPUs there
    payment: tuple[str, ...]
    stopped: tuple[str, ...]
    local_billers: tuple[str, ...]      # bill in INR or VND
    tax_invoice: tuple[str, ...]        # of those, the tax invoice sourced
    pricing: tuple[str, ...]


def local(atlas: Atlas) -> Local:
    def known(f: str) -> tuple[str, ...]:
        return tuple(p.id for p in atlas.providers if f in p.facts and p.facts[f].known)
    regions = known("regions")
    where = {c: tuple(p.id for p in atlas.providers if p.id in regions and c in p.facts["regions"].value)
             for c in ("IN", "VN", "SG")}
    invoiced = set(known("tax_invoice"))
    billers = tuple(p.id for p in atlas.providers if "local_billing" in p.facts and p.facts["local_billing"].known
                    and p.facts["local_billing"].value)
    return Local(len(atlas.providers), regions, where, known("payment_methods"), known("stopped_billing"), billers,
                 tuple(p for p in billers if p in invoiced),
                 tuple(p.id for p in atlas.providers if p.pricing is not None))


def local_report(c: Local) -> str:
    n = c.providers
    missing = sorted(set(c.local_billers) - set(c.tax_invoice))
    lines = ["", "Buying from India and Vietnam (issue 33):",
             f"  countries with GPUs sourced (an answer for India and Vietnam): {len(c.regions)} of {n} providers",
             *(f"  GPUs in {code}: {len(ids)} ({', '.join(ids) or 'none'})" for code, ids in c.in_country.items()),
             f"  payment methods sourced: {len(c.payment)} of {n}",
             f"  billed while stopped sourced: {len(c.stopped)} of {n}",
             f"  local tax invoice sourced for providers billing in INR or VND: {len(c.tax_invoice)} of {len(c.local_billers)}"
             + (f" (still unknown: {', '.join(missing)})" if missing else ""),
             f"  pricing page: {len(c.pricing)} of {n}"]
    return "\n".join(lines)


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
    print(local_report(local(atlas)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
