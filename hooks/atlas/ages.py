"""How old a fact is, by the older of its two dates (issue 34).

A fact has the day somebody read its source (`verified`) and, where the source prints one, the
source's own date (`source_date`: a page's "last updated", the date of the commit that last
changed a documentation file at the cited permalink). A page read yesterday can be three years
old; a fresh page read long ago may have changed since. So a fact "may be outdated" when either
date is past its limit (CONTRIBUTING.md, "Dates", says why these limits):

- read more than READ_LIMIT_DAYS (180) ago: re-read it;
- its source dated more than SOURCE_LIMIT_DAYS ago: 365 days for the lists that change with each
  hardware generation or data-centre opening (GPU models, countries), 730 for everything else.
"""
from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

READ_LIMIT_DAYS = 180
SOURCE_LIMIT_DAYS = {"gpus": 365, "regions": 365}
SOURCE_LIMIT_DEFAULT = 730
SOURCE_DATE = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$")


def source_limit(field: str) -> int:
    return SOURCE_LIMIT_DAYS.get(field, SOURCE_LIMIT_DEFAULT)


def parse_source_date(value: object) -> dt.date | None:
    """A source date as written (a date, or 'YYYY-MM' when only the month is printed) as the
    last day it can stand for (a month counts from its end: never older than it is)."""
    if isinstance(value, dt.datetime):
        return None
    if isinstance(value, dt.date):
        return value
    return _parse_text(value) if isinstance(value, str) else None


@lru_cache(maxsize=4096)   # a few hundred distinct dates, asked for in every cell and evidence block
def _parse_text(value: str) -> dt.date | None:
    m = SOURCE_DATE.match(value)
    if not m:
        return None
    year, month = int(m.group(1)), int(m.group(2))
    try:
        if m.group(3):
            return dt.date(year, month, int(m.group(3)))
        return dt.date(year, month, calendar.monthrange(year, month)[1])
    except ValueError:
        return None


@dataclass(frozen=True)
class Age:
    """Why a fact may be outdated: 'read' (verified long ago) or 'source' (the source is old)."""
    reason: str
    date: dt.date
    days: int
    limit: int


def age(field: str, verified: dt.date | None, source_date: str | None, today: dt.date) -> Age | None:
    """The older reason a fact may be outdated, or None while both dates are within limits."""
    found = []
    when = parse_source_date(source_date) if source_date else None
    if when is not None and (today - when).days > source_limit(field):
        found.append(Age("source", when, (today - when).days, source_limit(field)))
    if verified is not None and (today - verified).days > READ_LIMIT_DAYS:
        found.append(Age("read", verified, (today - verified).days, READ_LIMIT_DAYS))
    return min(found, key=lambda a: a.date) if found else None
