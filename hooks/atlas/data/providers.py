"""data/providers.yaml: each provider, and each of its facts against the fields of data/fields.yaml."""
from __future__ import annotations

import datetime as dt
from types import MappingProxyType

from .. import countries, yamlsrc
from ..problems import Problem
from ..urls import url_refusal
from .checks import SLUG, describe, is_known, unknown_keys
from .evidence import check_evidence, source_text
from .records import Fact, ListField, Provider

PROVIDER_KEYS = ("id", "name", "homepage", "category", "facts")
OPTIONAL_KEYS = ("pricing_page",)   # the provider's own GPU pricing page: url, sources, verified, quote
PRICING_KEYS = ("url", "sources", "verified", "source_date", "quote", "quote_lang")
FACT_KEYS = ("value", "sources", "verified", "source_date", "quote", "quote_lang")


def read_providers(doc: yamlsrc.Doc, fields, list_fields, categories, today, problems) -> tuple[Provider, ...]:
    f = doc.path
    if not isinstance(doc.data, dict) or not isinstance(doc.data.get("providers"), list) or not doc.data["providers"]:
        found = describe(doc.data.get("providers")) if isinstance(doc.data, dict) and "providers" in doc.data else "none"
        problems.append(Problem(f, doc.line("providers"), "key 'providers'",
                                f"found {'an empty list' if found == 'list []' else found}; allowed: a top-level "
                                f"'providers:' list of one or more providers, each with {', '.join(PROVIDER_KEYS)}"))
        return ()
    unknown_keys(doc, doc.data, "providers file", (), "", problems)
    out, seen = [], {}
    for i, rec in enumerate(doc.data["providers"]):
        if not isinstance(rec, dict):
            problems.append(Problem(f, doc.line("providers", i), f"provider #{i + 1}", f"found {describe(rec)}, allowed: a mapping"))
            continue
        pid = rec.get("id")
        who = f"provider '{pid}'" if isinstance(pid, str) else f"provider #{i + 1}"
        for key in rec:
            if key not in PROVIDER_KEYS and key not in OPTIONAL_KEYS:
                problems.append(Problem(f, doc.line("providers", i, key), f"{who}, field '{key}'",
                                        f"unknown field, allowed: {', '.join(PROVIDER_KEYS + OPTIONAL_KEYS)}"))
        for key in PROVIDER_KEYS:
            if key not in rec:
                problems.append(Problem(f, doc.line("providers", i), f"{who}, field '{key}'", "missing"))
        if not isinstance(pid, str) or not SLUG.match(pid):
            problems.append(Problem(f, doc.line("providers", i, "id"), f"{who}, field 'id'",
                                    f"found {pid!r}, allowed: a lowercase slug such as 'my-cloud'"))
        elif pid in seen:
            problems.append(Problem(f, doc.line("providers", i, "id"), f"{who}, field 'id'",
                                    f"duplicate id, first used on line {doc.line('providers', seen[pid], 'id')}"))
        else:
            seen[pid] = i
        name = rec.get("name")
        if "name" in rec and (not isinstance(name, str) or not name.strip()):
            problems.append(Problem(f, doc.line("providers", i, "name"), f"{who}, field 'name'",
                                    f"found {describe(name)}, allowed: non-empty plain text"))
        home = rec.get("homepage")
        refusal = url_refusal(home) if "homepage" in rec else None
        if refusal:
            problems.append(Problem(f, doc.line("providers", i, "homepage"), f"{who}, field 'homepage'", refusal))
        cat = rec.get("category")
        if "category" in rec and cat not in categories:
            problems.append(Problem(f, doc.line("providers", i, "category"), f"{who}, field 'category'",
                                    f"found {cat!r}, allowed: {', '.join(categories)}"))
        facts = _facts(doc, i, who, rec.get("facts"), fields, list_fields, today, problems) if "facts" in rec else {}
        pricing = _pricing(doc, i, who, rec["pricing_page"], today, problems) if "pricing_page" in rec else None
        out.append(Provider(str(pid), str(name), str(home), str(cat), MappingProxyType(facts), pricing))
    return tuple(out)


def _facts(doc, i, who, raw, fields, list_fields, today, problems) -> dict[str, Fact]:
    f = doc.path
    known = [*fields, *list_fields]
    if not isinstance(raw, dict):
        problems.append(Problem(f, doc.line("providers", i, "facts"), f"{who}, field 'facts'",
                                f"found {describe(raw)}, allowed: a mapping of capability fields"))
        return {}
    for key in raw:
        if key not in fields and key not in list_fields:
            problems.append(Problem(f, doc.line("providers", i, "facts", key), f"{who}, field '{key}'",
                                    f"unknown field, allowed: {', '.join(known)}"))
    facts = {}
    for fid in known:
        at = ("providers", i, "facts", fid)
        where = f"{who}, field '{fid}'"
        spec = list_fields.get(fid)
        allowed_text = _list_allowed(spec) if spec else ", ".join(fields[fid])
        if fid not in raw:
            problems.append(Problem(f, doc.line("providers", i, "facts"), where,
                                    "missing; write 'unknown' if no source says"))
            continue
        item = raw[fid]
        if isinstance(item, bool) or item is None:
            problems.append(Problem(f, doc.line(*at), where,
                                    f"found {item!r}; quote \"yes\" and \"no\" in YAML, allowed: {allowed_text}"))
            continue
        if isinstance(item, str):
            if item != "unknown":
                problems.append(Problem(f, doc.line(*at), where,
                                        f"found {item!r} without a source; only 'unknown' may stand alone, "
                                        "other values need value, sources and verified"))
            facts[fid] = Fact("unknown")
            continue
        if not isinstance(item, dict):
            problems.append(Problem(f, doc.line(*at), where,
                                    f"found {describe(item)} without value, sources and verified, "
                                    f"allowed: 'unknown' or a mapping with value, sources and verified"))
            continue
        for key in item:
            if key not in FACT_KEYS:
                problems.append(Problem(f, doc.line(*at, key), f"{where}, key '{key}'",
                                        f"unknown key, allowed: {', '.join(FACT_KEYS)}"))
        raw_value = item.get("value")
        value = None
        if spec is not None:
            value = _list_value(doc, at, where, raw_value, spec, problems)
        elif isinstance(raw_value, list):
            problems.append(Problem(f, doc.line(*at, "value"), where,
                                    f"found a list {raw_value!r}, allowed: one value of {allowed_text}"))
        elif isinstance(raw_value, bool) or not is_known(raw_value, fields[fid]):
            shown = ("yes" if raw_value else "no") if isinstance(raw_value, bool) else raw_value
            hint = " (quote \"yes\"/\"no\" in YAML)" if isinstance(raw_value, bool) else ""
            problems.append(Problem(f, doc.line(*at, "value"), where,
                                    f"found {shown!r}{hint}, allowed: {allowed_text}"))
        else:
            value = raw_value
        # sources, date and quote are checked even when the value is wrong: every problem at once
        ok = check_evidence(doc, at, where, item, value if value is not None else raw_value, today, problems)
        if ok and value is not None:
            verified = item.get("verified")
            quote = item.get("quote")
            facts[fid] = Fact(value, tuple(item.get("sources") or ()),
                              verified if isinstance(verified, dt.date) else None,
                              quote.strip() if isinstance(quote, str) else None,
                              item.get("quote_lang") or "en", source_text(item.get("source_date")))
    return facts


def _pricing(doc, i, who, raw, today, problems) -> Fact | None:
    """pricing_page: the provider's own page of GPU prices, under the evidence policy (where the
    provider names it, when it was read)."""
    f, at, where = doc.path, ("providers", i, "pricing_page"), f"{who}, field 'pricing_page'"
    if not isinstance(raw, dict):
        problems.append(Problem(f, doc.line(*at), where, f"found {describe(raw)}, allowed: a mapping with "
                                f"{', '.join(PRICING_KEYS)} (url, sources and verified required)"))
        return None
    for key in raw:
        if key not in PRICING_KEYS:
            problems.append(Problem(f, doc.line(*at, key), f"{where}, key '{key}'", f"unknown key, allowed: {', '.join(PRICING_KEYS)}"))
    url = raw.get("url")
    refusal = url_refusal(url) if isinstance(url, str) else "found " + describe(url) + ", allowed: an http(s) URL"
    if refusal:
        problems.append(Problem(f, doc.line(*at, "url") if "url" in raw else doc.line(*at), where, f"url {refusal}"))
    ok = check_evidence(doc, at, where, raw, url, today, problems)
    if refusal or not ok:
        return None
    quote = raw.get("quote")
    return Fact(url, tuple(raw["sources"]), raw["verified"], quote.strip() if isinstance(quote, str) else None,
                raw.get("quote_lang") or "en", source_text(raw.get("source_date")))


def _list_allowed(spec: ListField) -> str:
    if spec.items is None:
        return "ISO 3166-1 alpha-2 country codes in capitals, such as IN, VN, US"
    return ", ".join(spec.items)


def _list_value(doc, at, where, value, spec: ListField, problems) -> tuple[str, ...] | None:
    """The items of a list fact as a tuple, or None after reporting every bad item."""
    f = doc.path
    allowed = _list_allowed(spec)
    example = "[IN, VN]" if spec.items is None else f"[{', '.join(spec.items[:2])}]"
    if value == "unknown":
        problems.append(Problem(f, doc.line(*at, "value"), where,
                                "found 'unknown' inside a mapping; write the field as bare 'unknown' instead"))
        return None
    if not isinstance(value, list):
        if value is False and spec.items is None:
            found = "NO unquoted, which YAML reads as false"
        else:
            found = f"a single value {value!r}" if isinstance(value, (str, int, float)) else describe(value)
        problems.append(Problem(f, doc.line(*at, "value"), where,
                                f"found {found}, allowed: a YAML list such as {example}, items from {allowed}"))
        return None
    if not value and not spec.empty_allowed:
        problems.append(Problem(f, doc.line(*at, "value"), where,
                                f"found an empty list, allowed: at least one item from {allowed} (or bare 'unknown')"))
        return None
    ok, seen = True, {}
    for k, entry in enumerate(value):
        if entry is False and spec.items is None:
            problems.append(Problem(f, doc.line(*at, "value", k), where, f"item {k + 1}: found NO unquoted, which YAML reads as false; "
                                    "write \"NO\" for Norway"))
            ok = False
            continue
        good = isinstance(entry, str) and (countries.is_country(entry) if spec.items is None else entry in spec.items)
        if not good:
            hint = ""
            if isinstance(entry, str) and spec.items is None and countries.is_country(entry.upper()):
                hint = f" (write {entry.upper()!r} in capitals)"
            elif isinstance(entry, str) and spec.items is not None:
                close = [x for x in spec.items if x.replace("-", "").casefold() == entry.replace("-", "").replace(" ", "").casefold()]
                hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(Problem(f, doc.line(*at, "value", k), where, f"item {k + 1}: found {describe(entry)}{hint}, allowed: {allowed}"))
            ok = False
            continue
        if entry in seen:
            problems.append(Problem(f, doc.line(*at, "value", k), where, f"item {k + 1}: found {entry!r} again (first as item {seen[entry] + 1}), "
                                    "allowed: each item once"))
            ok = False
            continue
        seen[entry] = k
    return tuple(value) if ok else None
