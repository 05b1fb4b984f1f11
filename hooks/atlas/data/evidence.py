"""The evidence behind one fact: its sources, the date it was read, and a quote from the source."""
from __future__ import annotations

import datetime as dt
import re

from ..ages import parse_source_date
from ..problems import Problem
from ..urls import url_refusal
from .checks import describe, is_text

# In quotes, only real HTML counts as markup: sources quote command lines such as
# `jl resume <machine_id>`, whose placeholders are text.
HTML_IN_QUOTE = re.compile(
    r"<!|</?(?:a|abbr|audio|b|base|body|br|button|code|details|div|em|embed|form|h[1-6]|head|html|i|iframe|img|"
    r"input|li|link|mark|math|meta|object|ol|p|pre|s|script|small|source|span|strong|style|sub|summary|sup|"
    r"svg|table|td|th|tr|u|ul|video)(?=[\s/>])[^>]*>|&[a-zA-Z#][a-zA-Z0-9]*;", re.I)
# A quote's language, as a BCP 47 tag (ja, vi, pt-BR): screen readers and fonts follow it. English when absent.
LANG_TAG = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$")


def check_evidence(doc, at, where, item, value, today, problems) -> bool:
    """Check the sources, verification date and quote of a fact; False when any is wrong."""
    f = doc.path
    sources = item.get("sources")
    verified = item.get("verified")
    quote = item.get("quote")
    ok = True
    shown = list(value) if isinstance(value, tuple) else value
    # URLs and dates are checked whatever the value: an `unknown` fact must not smuggle in a
    # javascript: link or a future date that moves every table's "data as of" line.
    if value == "unknown" and "sources" not in item:
        pass
    elif not isinstance(sources, list) or (not sources and value != "unknown"):
        problems.append(Problem(f, doc.line(*at), where,
                                f"value {shown!r} has no sources; allowed: a list of one or more http(s) URLs"))
        ok = False
    else:
        for k, url in enumerate(sources):
            refusal = url_refusal(url)
            if refusal:
                problems.append(Problem(f, doc.line(*at, "sources", k), where, f"source {refusal}"))
                ok = False
    if value == "unknown" and "verified" not in item:
        pass
    elif not isinstance(verified, dt.date) or isinstance(verified, dt.datetime):
        problems.append(Problem(f, doc.line(*at, "verified") if "verified" in item else doc.line(*at), where,
                                f"verified found {_date_found(verified)}"))
        ok = False
    elif verified > today:
        problems.append(Problem(f, doc.line(*at, "verified"), where,
                                f"verified found {verified.isoformat()}, allowed: a date no later than today ({today.isoformat()})"))
        ok = False
    if "source_date" in item:
        ok = _check_source_date(doc, at, where, item, verified, today, problems) and ok
    if "quote" in item and (not is_text(quote) or HTML_IN_QUOTE.search(quote)):
        problems.append(Problem(f, doc.line(*at, "quote"), where,
                                f"quote found {describe(quote)}, allowed: plain text copied from the source, no markup"))
        ok = False
    lang = item.get("quote_lang")
    if "quote_lang" in item and (not isinstance(lang, str) or not LANG_TAG.match(lang) or "quote" not in item):
        found = f"{lang!r} without a quote" if "quote" not in item else repr(lang)
        problems.append(Problem(f, doc.line(*at, "quote_lang"), where,
                                f"quote_lang found {found}, allowed: the quote's language as a tag such as ja, vi "
                                "or pt-BR, next to a quote (leave it out for English)"))
        ok = False
    return ok


def source_text(value: object) -> str | None:
    """A checked source date as text: 2023-06-15, or 2023-06 when only the month is printed."""
    if isinstance(value, dt.date):
        return value.isoformat()
    return value.strip() if isinstance(value, str) else None


def _check_source_date(doc, at, where, item, verified, today, problems) -> bool:
    """source_date: the source's own date (its "last updated", the commit that last changed the
    cited file), a date or a month, no later than the day it was read."""
    raw = item.get("source_date")
    when = parse_source_date(raw.strip() if isinstance(raw, str) else raw)
    allowed = "allowed: the source's own date as YYYY-MM-DD, or YYYY-MM when it prints only the month"
    if when is None or (isinstance(raw, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw.strip())):
        hint = " (write a full date bare, without quotes)" if isinstance(raw, str) and when is not None else ""
        problems.append(Problem(doc.path, doc.line(*at, "source_date"), where,
                                f"source_date found {raw!r}{hint}, {allowed}"))
        return False
    first = when if isinstance(raw, dt.date) else dt.date(when.year, when.month, 1)   # a month: its first day
    read = verified if isinstance(verified, dt.date) else today
    if first > read or first < dt.date(1990, 1, 1):
        problems.append(Problem(doc.path, doc.line(*at, "source_date"), where,
                                f"source_date found {source_text(raw)}, after the day it was read ({read.isoformat()})"
                                if first > read else f"source_date found {source_text(raw)}, before 1990; {allowed}"))
        return False
    return True


def _date_found(value: object) -> str:
    """What stands where a date belongs and what is allowed, in words that say how to fix it: a
    real date in quotes is text to YAML (it must be written bare); a date that is not in the
    calendar stays text."""
    allowed = "allowed: a date as YYYY-MM-DD"
    if isinstance(value, dt.datetime):
        return f"a date and time {value.isoformat(sep=' ')!r}, {allowed} (the date alone)"
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        try:
            dt.date.fromisoformat(value.strip())
        except ValueError:
            return f"{value!r}, {allowed} (this is no date in the calendar)"
        return (f"{value!r} in quotes, which YAML reads as text; allowed: an unquoted date "
                f"(verified: {value.strip()})")
    return f"{value!r}, {allowed}"
