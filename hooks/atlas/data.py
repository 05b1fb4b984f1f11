"""Load and validate everything under data/ into one immutable `Atlas`.

Every problem is collected, located (file, line, record, field) and raised together as a
`DataError`; nothing is rendered from data that failed validation.
"""
from __future__ import annotations

import datetime as dt
import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from . import countries, sanitize, yamlsrc
from .languages import LANGUAGES   # mkdocs.yml's i18n languages: the one list (languages.py)
from .problems import DataError, Problem

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
URL = re.compile(r"^https?://[^\s<>\"']+$")
MARKUP = re.compile(r"<[a-zA-Z/!]|&[a-zA-Z#][a-zA-Z0-9]*;")
# In quotes, only real HTML counts as markup: sources quote command lines such as
# `jl resume <machine_id>`, whose placeholders are text.
HTML_IN_QUOTE = re.compile(
    r"<!|</?(?:a|abbr|audio|b|base|body|br|button|code|details|div|em|embed|form|h[1-6]|head|html|i|iframe|img|"
    r"input|li|link|mark|math|meta|object|ol|p|pre|s|script|small|source|span|strong|style|sub|summary|sup|"
    r"svg|table|td|th|tr|u|ul|video)(?=[\s/>])[^>]*>|&[a-zA-Z#][a-zA-Z0-9]*;", re.I)
PROVIDER_KEYS = ("id", "name", "homepage", "category", "facts")
FACT_KEYS = ("value", "sources", "verified", "quote", "quote_lang")
# A quote's language, as a BCP 47 tag (ja, vi, pt-BR): screen readers and fonts follow it. English when absent.
LANG_TAG = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$")
COUNTRIES = "countries"   # list field whose items are ISO 3166-1 alpha-2 codes (see countries.py)
# Allowed keys of every other data file kind, by where they appear (see _unknown_keys).
FILE_KEYS = {
    "fields": ("value_sets", "fields", "groups", "categories", "quiz", "region_filter", "discussed_in", "needs"),
    "field": ("values", "list", "empty_allowed", "item_words"),
    "quiz rule": ("right", "wrong"),
    "providers file": ("providers",),
    "quiz file": ("questions",),
    "question": ("id", "options", "correct", "multiple"),
    "quiz text": ("title", "questions"),
    "question text": ("question", "explanation", "options", "feedback"),
}
# Placeholders a translation may use, each only as {name}: no format spec, conversion,
# attribute or index (a spec like {minutes:>100000000} would build a huge string).
PLACEHOLDER_NAMES = frozenset({"answer", "answers", "correct", "count", "country", "date", "days", "group", "item",
                               "match", "minutes", "n", "name", "percent", "placeholder", "placeholders",
                               "provider", "score", "shown", "source", "sourced", "title", "total",
                               "unconfirmed"})


@dataclass(frozen=True)
class Fact:
    """One capability value of one provider, with where it was read and when."""

    value: str | tuple[str, ...]   # a tuple for list fields (regions, gpus, local_billing)
    sources: tuple[str, ...] = ()
    verified: dt.date | None = None
    quote: str | None = None       # evidence from the source, plain text: shown as a quotation in the details
    quote_lang: str = "en"         # the quote's language (BCP 47), for the quotation's lang attribute

    @property
    def known(self) -> bool:
        return self.value != "unknown"


@dataclass(frozen=True)
class ListField:
    """A field whose value is a list: items from a closed set, or country codes."""

    items: tuple[str, ...] | None   # None: any ISO 3166-1 alpha-2 code babel knows
    empty_allowed: bool = False     # local_billing: [] = "bills only in other currencies"
    item_words: bool = False        # each item needs words in every language


@dataclass(frozen=True)
class Provider:
    id: str
    name: str
    homepage: str
    category: str
    facts: Mapping[str, Fact]


@dataclass(frozen=True)
class Question:
    id: str
    options: tuple[str, ...]
    correct: tuple[str, ...]

    @property
    def multiple(self) -> bool:
        return len(self.correct) > 1


@dataclass(frozen=True)
class Atlas:
    """All site data, validated. Immutable: safe to share across the per-language builds."""

    fields: Mapping[str, Mapping[str, float]]          # single-valued field -> value -> rank
    groups: Mapping[str, tuple[str, ...]]
    categories: tuple[str, ...]
    quiz_rules: Mapping[str, Mapping[str, tuple[str, ...]]]
    providers: tuple[Provider, ...]
    words: Mapping[str, Mapping[str, str]]             # lang -> dotted key -> text
    quizzes: Mapping[str, tuple[Question, ...]]        # quiz id -> questions
    quiz_words: Mapping[str, Mapping[str, Any]]        # lang -> quiz id -> text tree
    languages: tuple[str, ...] = LANGUAGES
    newest_verified: dt.date | None = None
    list_fields: Mapping[str, ListField] = field(default_factory=dict)   # list-valued field -> its items
    field_order: tuple[str, ...] = ()                   # every field, single and list, as in fields.yaml
    region_choices: tuple[str, ...] = ()                # countries offered in the region filter
    home_region: Mapping[str, str] = field(default_factory=dict)   # language -> its readers' country

    @property
    def all_fields(self) -> tuple[str, ...]:
        return self.field_order or tuple(self.fields)

    def rank(self, field_id: str, value: str | tuple[str, ...]) -> float:
        """Sort rank of a value: lists rank like yes (0), an empty list like no (3)."""
        if field_id in self.list_fields:
            return 2.0 if value == "unknown" else (0.0 if value else 3.0)
        return self.fields[field_id][value]

    def t(self, lang: str, key: str, **values: object) -> str:
        """The text for `key` in `lang`, with {placeholders} filled (not escaped)."""
        text = self.words[lang][key]
        try:
            return text.format(**values) if values else text
        except (KeyError, IndexError, ValueError) as exc:   # validated data never gets here
            raise ValueError(f"text of key '{key}' in {lang} does not fit the values {sorted(values)}: {exc}") from None

    def value_label(self, lang: str, field_id: str, value: str) -> str:
        words = self.words[lang]
        return words.get(f"fields.{field_id}.values.{value}") or words[f"values.{value}"]

    def note(self, lang: str, provider_id: str, field_id: str) -> str | None:
        return self.words[lang].get(f"notes.{provider_id}.{field_id}")

    def country(self, lang: str, code: str) -> str:
        """A country's name in `lang`: the language's own word where CLDR's is not the one
        readers use (`countries.US: अमेरिका` in data/i18n/hi.yaml), else CLDR's."""
        return self.words[lang].get(f"countries.{code}") or countries.name(code, lang)

    def item_label(self, lang: str, field_id: str, item: str) -> str:
        """Words for one item of a list value: a country's name, a currency, or the GPU id."""
        spec = self.list_fields[field_id]
        if spec.items is None:
            return self.country(lang, item)
        return self.words[lang][f"fields.{field_id}.values.{item}"] if spec.item_words else item


def load_atlas(root: Path, languages: tuple[str, ...] = LANGUAGES,
               today: dt.date | None = None) -> Atlas:
    """Read and validate `root/data`; raise DataError listing every problem found."""
    today = today or dt.date.today()
    problems: list[Problem] = []
    data = root / "data"

    fields_doc = yamlsrc.load(data / "fields.yaml", "data/fields.yaml", problems, root)
    schema = _schema(fields_doc, problems) if fields_doc else None
    providers_doc = yamlsrc.load(data / "providers.yaml", "data/providers.yaml", problems, root)
    word_docs = {lang: yamlsrc.load(data / "i18n" / f"{lang}.yaml", f"data/i18n/{lang}.yaml", problems, root)
                 for lang in languages}
    quizzes, quiz_words = _quizzes(data / "quizzes", languages, problems, root)

    if schema is None:
        raise DataError(problems)
    fields, groups, categories, rules, list_fields, order, choices, home = schema
    providers = (_providers(providers_doc, fields, list_fields, categories, today, problems)
                 if providers_doc else ())
    words = {lang: _flatten(doc.data) if doc and isinstance(doc.data, dict) else {}
             for lang, doc in word_docs.items()}
    for doc in word_docs.values():
        if doc and not isinstance(doc.data, dict):
            problems.append(Problem(doc.path, 1, "", "expected a mapping of keys to text"))
    if "en" in word_docs and word_docs["en"]:
        known_ids = {p.id for p in providers} if providers_doc else None
        _check_words(word_docs, words, fields, groups, categories, known_ids, rules, problems, list_fields)
        if providers_doc:
            _check_partial_notes(providers_doc, providers, words["en"], problems)
    if problems:
        raise DataError(problems)
    dates = [f.verified for p in providers for f in p.facts.values() if f.verified]
    return Atlas(
        fields=MappingProxyType(fields), groups=MappingProxyType(groups),
        categories=categories, quiz_rules=MappingProxyType(rules), providers=providers,
        words=MappingProxyType({k: MappingProxyType(v) for k, v in words.items()}),
        quizzes=MappingProxyType(quizzes), quiz_words=MappingProxyType(quiz_words),
        languages=languages, newest_verified=max(dates) if dates else None,
        list_fields=MappingProxyType(list_fields), field_order=order,
        region_choices=choices, home_region=MappingProxyType(home),
    )


# --- schema -----------------------------------------------------------------------------

def _schema(doc: yamlsrc.Doc, problems: list[Problem]):
    if not isinstance(doc.data, dict):
        problems.append(Problem(doc.path, 1, "", f"found {_kind(doc.data)}, allowed: a mapping with keys "
                                f"{', '.join(FILE_KEYS['fields'])}"))
        return None
    d = doc.data
    _unknown_keys(doc, d, "fields", (), "", problems)
    for key, kind in (("fields", dict), ("groups", dict), ("categories", list), ("quiz", dict)):
        if not isinstance(d.get(key), kind):
            problems.append(Problem(doc.path, doc.line(key), f"key '{key}'",
                                    f"found {_kind(d.get(key))}, allowed: a {'list' if kind is list else 'mapping'}"))
            d = {**d, key: kind()}
    fields: dict[str, dict[str, float]] = {}
    list_fields: dict[str, ListField] = {}
    order: list[str] = []
    for fid, spec in d["fields"].items():
        if isinstance(spec, dict) and "list" in spec:
            _unknown_keys(doc, spec, "field", ("fields", fid), f"field '{fid}'", problems)
            parsed = _list_spec(doc, fid, spec, problems)
            if parsed:
                list_fields[fid] = parsed
                order.append(fid)
            continue
        values = spec.get("values") if isinstance(spec, dict) else None
        if isinstance(spec, dict):
            _unknown_keys(doc, spec, "field", ("fields", fid), f"field '{fid}'", problems)
        if not isinstance(values, dict) or "unknown" not in values:
            problems.append(Problem(doc.path, doc.line("fields", fid), f"field '{fid}'",
                                    "needs a 'values' mapping of value to rank that includes 'unknown', "
                                    "or a 'list' of allowed items"))
            continue
        bad = {v: r for v, r in values.items() if isinstance(r, bool) or not isinstance(r, (int, float))
               or not 0 <= r <= 3}
        for v, r in bad.items():
            problems.append(Problem(doc.path, doc.line("fields", fid, "values", v), f"field '{fid}', value '{v}'",
                                    f"rank found {_kind(r)}, allowed: a number from 0 to 3"))
        fields[str(fid)] = {str(v): 2.0 if v in bad else float(r) for v, r in values.items()}   # reported above
        order.append(str(fid))
    groups = {}
    for gid, members in d["groups"].items():
        if not isinstance(members, list):
            problems.append(Problem(doc.path, doc.line("groups", gid), f"group '{gid}'",
                                    f"found {_kind(members)}, allowed: a list of field ids"))
            continue
        unknown = [m for m in members or [] if not _known(m, order)]
        if unknown or not members:
            problems.append(Problem(doc.path, doc.line("groups", gid), f"group '{gid}'",
                                    f"found fields {unknown or '[]'}, allowed: {', '.join(order)}"))
        groups[gid] = tuple(members or ())
    rules = {}
    for fid, rule in d["quiz"].items():
        if not isinstance(rule, dict) or not all(isinstance(rule.get(side, []), list) for side in ("right", "wrong")):
            problems.append(Problem(doc.path, doc.line("quiz", fid), f"quiz rule '{fid}'",
                                    f"found {_kind(rule)}, allowed: a mapping with 'right' and 'wrong' lists"))
            continue
        _unknown_keys(doc, rule, "quiz rule", ("quiz", fid), f"quiz rule '{fid}'", problems)
        allowed = fields.get(fid, {})
        bad = [v for side in ("right", "wrong") for v in (rule or {}).get(side, []) if not _known(v, allowed) or v == "unknown"]
        if fid not in fields or bad:
            problems.append(Problem(doc.path, doc.line("quiz", fid), f"quiz rule '{fid}'",
                                    f"found {bad or fid!r}, allowed: known values of a defined single-valued field"))
        rules[fid] = {side: tuple(str(v) for v in (rule or {}).get(side, [])) for side in ("right", "wrong")}
    categories = tuple(str(c) for c in d["categories"] if isinstance(c, str))
    choices, home = _region_filter(doc, d.get("region_filter"), problems)
    return fields, groups, categories, rules, list_fields, tuple(order), choices, home


def _list_spec(doc: yamlsrc.Doc, fid: str, spec: dict, problems: list[Problem]) -> ListField | None:
    items = spec.get("list")
    where = f"field '{fid}'"
    if items == COUNTRIES:
        return ListField(None, bool(spec.get("empty_allowed")), False)
    if not isinstance(items, list) or not items or not all(isinstance(i, str) and i for i in items) \
            or len(set(items)) != len(items):
        problems.append(Problem(doc.path, doc.line("fields", fid, "list"), where,
                                f"list found {items!r}, allowed: '{COUNTRIES}' or a list of distinct item ids"))
        return None
    return ListField(tuple(items), bool(spec.get("empty_allowed")), bool(spec.get("item_words")))


def _region_filter(doc: yamlsrc.Doc, spec, problems: list[Problem]) -> tuple[tuple[str, ...], dict[str, str]]:
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


# --- providers --------------------------------------------------------------------------

def _providers(doc: yamlsrc.Doc, fields, list_fields, categories, today, problems) -> tuple[Provider, ...]:
    f = doc.path
    if not isinstance(doc.data, dict) or not isinstance(doc.data.get("providers"), list):
        problems.append(Problem(f, 1, "", "expected a top-level 'providers:' list"))
        return ()
    _unknown_keys(doc, doc.data, "providers file", (), "", problems)
    out, seen = [], {}
    for i, rec in enumerate(doc.data["providers"]):
        line = doc.line("providers", i)
        if not isinstance(rec, dict):
            problems.append(Problem(f, line, f"provider #{i + 1}", f"found {_kind(rec)}, allowed: a mapping"))
            continue
        pid = rec.get("id")
        who = f"provider '{pid}'" if isinstance(pid, str) else f"provider #{i + 1}"
        for key in rec:
            if key not in PROVIDER_KEYS:
                problems.append(Problem(f, doc.line("providers", i, key), f"{who}, field '{key}'",
                                        f"unknown field, allowed: {', '.join(PROVIDER_KEYS)}"))
        for key in PROVIDER_KEYS:
            if key not in rec:
                problems.append(Problem(f, line, f"{who}, field '{key}'", "missing"))
        if not isinstance(pid, str) or not SLUG.match(pid):
            problems.append(Problem(f, doc.line("providers", i, "id"), f"{who}, field 'id'",
                                    f"found {pid!r}, allowed: a lowercase slug such as 'my-cloud'"))
        elif pid in seen:
            problems.append(Problem(f, doc.line("providers", i, "id"), f"{who}, field 'id'",
                                    f"duplicate id, first used on line {seen[pid]}"))
        else:
            seen[pid] = doc.line("providers", i, "id")
        name = rec.get("name")
        if "name" in rec and (not isinstance(name, str) or not name.strip()):
            problems.append(Problem(f, doc.line("providers", i, "name"), f"{who}, field 'name'",
                                    f"found {_kind(name)}, allowed: non-empty plain text"))
        home = rec.get("homepage")
        if "homepage" in rec and not _is_url(home):
            problems.append(Problem(f, doc.line("providers", i, "homepage"), f"{who}, field 'homepage'",
                                    f"found {home!r}, allowed: an http:// or https:// URL"))
        cat = rec.get("category")
        if "category" in rec and cat not in categories:
            problems.append(Problem(f, doc.line("providers", i, "category"), f"{who}, field 'category'",
                                    f"found {cat!r}, allowed: {', '.join(categories)}"))
        facts = _facts(doc, i, who, rec.get("facts"), fields, list_fields, today, problems) if "facts" in rec else {}
        out.append(Provider(str(pid), str(name), str(home), str(cat), MappingProxyType(facts)))
    return tuple(out)


def _facts(doc, i, who, raw, fields, list_fields, today, problems) -> dict[str, Fact]:
    f = doc.path
    known = [*fields, *list_fields]
    if not isinstance(raw, dict):
        problems.append(Problem(f, doc.line("providers", i, "facts"), f"{who}, field 'facts'",
                                f"found {_kind(raw)}, allowed: a mapping of capability fields"))
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
                                    f"found {_kind(item)} without value, sources and verified, "
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
        elif isinstance(raw_value, bool) or not _known(raw_value, fields[fid]):
            shown = ("yes" if raw_value else "no") if isinstance(raw_value, bool) else raw_value
            hint = " (quote \"yes\"/\"no\" in YAML)" if isinstance(raw_value, bool) else ""
            problems.append(Problem(f, doc.line(*at, "value"), where,
                                    f"found {shown!r}{hint}, allowed: {allowed_text}"))
        else:
            value = raw_value
        # sources, date and quote are checked even when the value is wrong: every problem at once
        ok = _evidence(doc, at, where, item, value if value is not None else raw_value, today, problems)
        if ok and value is not None:
            verified = item.get("verified")
            quote = item.get("quote")
            facts[fid] = Fact(value, tuple(item.get("sources") or ()),
                              verified if isinstance(verified, dt.date) else None,
                              quote.strip() if isinstance(quote, str) else None,
                              item.get("quote_lang") or "en")
    return facts


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
            found = f"a single value {value!r}" if isinstance(value, (str, int, float)) else _kind(value)
        problems.append(Problem(f, doc.line(*at, "value"), where,
                                f"found {found}, allowed: a YAML list such as {example}, items from {allowed}"))
        return None
    if not value and not spec.empty_allowed:
        problems.append(Problem(f, doc.line(*at, "value"), where,
                                f"found an empty list, allowed: at least one item from {allowed} (or bare 'unknown')"))
        return None
    ok, seen = True, {}
    for k, entry in enumerate(value):
        line = doc.line(*at, "value", k)
        if entry is False and spec.items is None:
            problems.append(Problem(f, line, where, f"item {k + 1}: found NO unquoted, which YAML reads as false; "
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
            problems.append(Problem(f, line, where, f"item {k + 1}: found {_kind(entry)}{hint}, allowed: {allowed}"))
            ok = False
            continue
        if entry in seen:
            problems.append(Problem(f, line, where, f"item {k + 1}: found {entry!r} again (first as item {seen[entry] + 1}), "
                                    "allowed: each item once"))
            ok = False
            continue
        seen[entry] = k
    return tuple(value) if ok else None


def _evidence(doc, at, where, item, value, today, problems) -> bool:
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
            if not _is_url(url):
                problems.append(Problem(f, doc.line(*at, "sources", k), where,
                                        f"source found {url!r}, allowed: an http:// or https:// URL"))
                ok = False
    if value == "unknown" and "verified" not in item:
        pass
    elif not isinstance(verified, dt.date) or isinstance(verified, dt.datetime):
        problems.append(Problem(f, doc.line(*at, "verified") if "verified" in item else doc.line(*at), where,
                                f"verified found {verified!r}, allowed: a date as YYYY-MM-DD"))
        ok = False
    elif verified > today:
        problems.append(Problem(f, doc.line(*at, "verified"), where,
                                f"verified found {verified.isoformat()}, allowed: a date no later than today ({today.isoformat()})"))
        ok = False
    if "quote" in item and (not _text(quote) or HTML_IN_QUOTE.search(quote)):
        problems.append(Problem(f, doc.line(*at, "quote"), where,
                                f"quote found {_kind(quote)}, allowed: plain text copied from the source, no markup"))
        ok = False
    lang = item.get("quote_lang")
    if "quote_lang" in item and (not isinstance(lang, str) or not LANG_TAG.match(lang) or "quote" not in item):
        found = f"{lang!r} without a quote" if "quote" not in item else repr(lang)
        problems.append(Problem(f, doc.line(*at, "quote_lang"), where,
                                f"quote_lang found {found}, allowed: the quote's language as a tag such as ja, vi "
                                "or pt-BR, next to a quote (leave it out for English)"))
        ok = False
    return ok


# --- words ------------------------------------------------------------------------------

def _check_words(docs, words, fields, groups, categories, provider_ids, rules, problems, list_fields=None) -> None:
    en = words["en"]
    list_fields = list_fields or {}
    required = {f"categories.{c}" for c in categories} | {f"groups.{g}" for g in groups} | {"groups.all"}
    for fid, values in fields.items():
        required.add(f"fields.{fid}.label")
        for v in values:
            if f"fields.{fid}.values.{v}" not in en:
                required.add(f"values.{v}")
    for fid, spec in list_fields.items():
        required |= {f"fields.{fid}.label", "values.unknown"}
        if spec.item_words:
            required |= {f"fields.{fid}.values.{item}" for item in spec.items or ()}
        if spec.empty_allowed:
            required.add(f"fields.{fid}.empty")
    for fid in rules:
        for part in ("question", "right", "wrong"):
            required.add(f"quiz.generated.{fid}.{part}")
    endoc = docs["en"]
    for key in sorted(required - set(en)):
        problems.append(Problem(endoc.path, 1, f"key '{key}'", "missing English text; every field, value, "
                                "category and group needs words"))
    for key in en:
        if key.startswith("notes.") and provider_ids is not None:  # unknowable if providers.yaml failed
            parts = key.split(".")
            if len(parts) != 3 or parts[1] not in provider_ids or (parts[2] not in fields and parts[2] not in list_fields):
                problems.append(Problem(endoc.path, endoc.line(*parts), f"key '{key}'",
                                        "note for an unknown provider or field; allowed: notes.<provider id>.<field>"))
    for lang, doc in docs.items():
        if doc is None:
            continue
        mine = words[lang]
        for key, text in mine.items():
            line = doc.line(*key.split("."))
            if not isinstance(text, str) or not text.strip():
                problems.append(Problem(doc.path, line, f"key '{key}'", f"found {_kind(text)}, allowed: non-empty text"))
                continue
            if MARKUP.search(text):
                problems.append(Problem(doc.path, line, f"key '{key}'", f"found markup in {text!r}; allowed: plain text"))
            if re.search(r"https?://|javascript:", text, re.I):
                problems.append(Problem(doc.path, line, f"key '{key}'", f"found a URL in {text!r}; allowed: plain text"))
            bad_format = _format_problem(text)
            if bad_format:
                problems.append(Problem(doc.path, line, f"key '{key}'", bad_format))
            if lang != "en" and key in en and _placeholders(text) != _placeholders(en[key]):
                problems.append(Problem(doc.path, line, f"key '{key}'",
                                        f"placeholders found {sorted(_placeholders(text))}, "
                                        f"allowed: {sorted(_placeholders(en[key]))} as in English"))
        if lang == "en":
            continue
        for key in sorted(set(en) - set(mine)):
            if key.startswith("notes."):   # an English-only note is shown in English, marked (cells.evidence)
                continue
            problems.append(Problem(doc.path, nearest_line(doc, list(en), key), f"key '{key}'",
                                    f"missing {lang} text for an English key (English has it at {endoc.path}:"
                                    f"{endoc.line(*key.split('.'))}); it goes next to this line, in English's order"))
        for key in sorted(set(mine) - set(en)):
            if key.startswith("countries."):   # a language's own name for a country, where CLDR's is not in use
                if not countries.is_country(key.split(".", 1)[1]):
                    problems.append(Problem(doc.path, doc.line(*key.split(".")), f"key '{key}'",
                                            "not a country code; allowed: countries.<ISO 3166-1 alpha-2 code, "
                                            "such as US>: the name readers of this language use"))
                continue
            problems.append(Problem(doc.path, doc.line(*key.split(".")), f"key '{key}'",
                                    "extra key that English does not have"))


def nearest_line(doc: yamlsrc.Doc, order: list[str], key: str) -> int:
    """Where the missing `key` belongs in the translation `doc` (`order`: English keys, in English
    order): beside its nearest sibling there, the one English has just before it, else just after
    it; without siblings, beside the nearest key of the enclosing section, and so on up."""
    parts = key.split(".")
    here = order.index(key) if key in order else len(order)
    for depth in range(len(parts) - 1, -1, -1):
        near = [i for i, k in enumerate(order) if i != here and k.split(".")[:depth] == parts[:depth]
                and tuple(k.split(".")) in doc.lines]
        if near:
            return doc.lines[tuple(order[max((i for i in near if i < here), default=min(near))].split("."))]
    return doc.line(*parts)


def _check_partial_notes(doc: yamlsrc.Doc, providers: tuple[Provider, ...], en: Mapping[str, Any],
                         problems: list[Problem]) -> None:
    """A `partial` value names its limit: each has a note, in English at least (the other
    languages show the English note, marked as not yet translated, until they have theirs)."""
    records = doc.data.get("providers") if isinstance(doc.data, dict) else None
    index = {rec.get("id"): i for i, rec in enumerate(records or []) if isinstance(rec, dict)}
    for p in providers:
        for fid, fact in p.facts.items():
            if fact.value == "partial" and f"notes.{p.id}.{fid}" not in en and p.id in index:
                problems.append(Problem(doc.path, doc.line("providers", index[p.id], "facts", fid, "value"),
                                        f"provider '{p.id}', field '{fid}'",
                                        f"value 'partial' has no note; allowed: 'partial' with a note naming its "
                                        f"limit, as notes.{p.id}.{fid} in data/i18n/en.yaml (translations may follow)"))


def _format_problem(text: str) -> str | None:
    """Why `text` is not a translation template of the one form we use: {name}."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        return f"found braces that do not pair ({exc}) in {text!r}; allowed: {{name}}, and {{{{ }}}} for a brace"
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if spec or conversion or name not in PLACEHOLDER_NAMES:
            shown = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            return (f"found placeholder {shown!r}; allowed: one of "
                    f"{', '.join('{' + n + '}' for n in sorted(PLACEHOLDER_NAMES))}, with nothing after the name")
    return None


def _placeholders(text: Any) -> set[str]:
    if not isinstance(text, str):
        return set()
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:
        return {"<unbalanced braces>"}


# --- quizzes ----------------------------------------------------------------------------

def _quizzes(folder: Path, languages, problems, root: Path | None = None):
    quizzes: dict[str, tuple[Question, ...]] = {}
    texts: dict[str, dict[str, Any]] = {lang: {} for lang in languages}
    if not folder.is_dir():
        problems.append(Problem("data/quizzes", 1, "", "folder is missing (or is not a folder); it holds "
                                "<quiz>.yaml and <language>/<quiz>.yaml for every <!-- quiz:… --> marker"))
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        qid = path.stem
        shown = f"data/quizzes/{path.name}"
        doc = yamlsrc.load(path, shown, problems, root)
        if doc is None:
            continue
        questions = _quiz_structure(doc, qid, problems)
        quizzes[qid] = questions
        for lang in languages:
            tdoc = yamlsrc.load(folder / lang / path.name, f"data/quizzes/{lang}/{path.name}", problems, root)
            if tdoc is not None:
                texts[lang][qid] = _quiz_text(tdoc, qid, questions, problems)
    for lang in languages:
        for path in sorted((folder / lang).glob("*.yaml")) if (folder / lang).is_dir() else []:
            if path.stem not in quizzes and not (folder / path.name).exists():
                problems.append(Problem(f"data/quizzes/{lang}/{path.name}", 1, f"quiz '{path.stem}'",
                                        f"text for a quiz that has no data/quizzes/{path.name}"))
    return quizzes, {k: MappingProxyType(v) for k, v in texts.items()}


def _quiz_structure(doc, qid, problems) -> tuple[Question, ...]:
    f = doc.path
    items = doc.data.get("questions") if isinstance(doc.data, dict) else None
    if not isinstance(items, list) or not items:
        problems.append(Problem(f, 1, f"quiz '{qid}'", "expected a non-empty 'questions:' list"))
        return ()
    _unknown_keys(doc, doc.data, "quiz file", (), f"quiz '{qid}'", problems)
    out, seen = [], set()
    for i, q in enumerate(items):
        line = doc.line("questions", i)
        if not isinstance(q, dict):
            problems.append(Problem(f, line, f"quiz '{qid}', question #{i + 1}", "expected a mapping"))
            continue
        name = q.get("id")
        where = f"quiz '{qid}', question '{name}'"
        if not isinstance(name, str) or not SLUG.match(name):
            problems.append(Problem(f, line, where, f"id found {name!r}, allowed: a lowercase slug"))
            continue
        if name in seen:
            problems.append(Problem(f, line, where, "duplicate question id"))
            continue
        seen.add(name)
        _unknown_keys(doc, q, "question", ("questions", i), where, problems)
        if "multiple" in q and not isinstance(q["multiple"], bool):
            problems.append(Problem(f, doc.line("questions", i, "multiple"), where,
                                    f"multiple found {_kind(q['multiple'])}, allowed: true or false"))
        options = q.get("options")
        correct = q.get("correct")
        if not isinstance(options, list) or len(options) < 2 or len(set(map(str, options))) != len(options):
            problems.append(Problem(f, doc.line("questions", i, "options"), where,
                                    f"options found {options!r}, allowed: a list of two or more distinct ids"))
            continue
        options = [str(o) for o in options]
        if not isinstance(correct, list) or not correct:
            problems.append(Problem(f, doc.line("questions", i, "correct") if "correct" in q else line, where,
                                    "has no correct answer; allowed: a list of one or more option ids"))
            continue
        bad = [c for c in correct if str(c) not in options]
        if bad:
            problems.append(Problem(f, doc.line("questions", i, "correct"), where,
                                    f"correct found {bad}, allowed: {', '.join(options)}"))
            continue
        if q.get("multiple") is False and len(correct) > 1:
            problems.append(Problem(f, doc.line("questions", i, "correct"), where,
                                    "single-answer question has several correct answers"))
            continue
        out.append(Question(name, tuple(options), tuple(str(c) for c in correct)))
    return tuple(out)


def _quiz_text(doc, qid, questions, problems) -> dict:
    f = doc.path
    d = doc.data if isinstance(doc.data, dict) else {}
    _unknown_keys(doc, d, "quiz text", (), f"quiz '{qid}'", problems)
    if not isinstance(d.get("title"), str) or not d["title"].strip():
        problems.append(Problem(f, 1, f"quiz '{qid}', key 'title'", "missing quiz title"))
    qs = d.get("questions") if isinstance(d.get("questions"), dict) else {}
    known = {q.id for q in questions}
    for name in qs:
        if name not in known:
            problems.append(Problem(f, doc.line("questions", name), f"quiz '{qid}', question '{name}'",
                                    f"extra question that data/quizzes/{qid}.yaml does not define"))
    for q in questions:
        where = f"quiz '{qid}', question '{q.id}'"
        t = qs.get(q.id)
        if not isinstance(t, dict):
            problems.append(Problem(f, doc.line("questions"), where, "missing question text"))
            continue
        _unknown_keys(doc, t, "question text", ("questions", q.id), where, problems)
        for key in ("question", "explanation"):
            if not _text(t.get(key)):
                problems.append(Problem(f, doc.line("questions", q.id, key), f"{where}, key '{key}'", "missing text"))
        for part in ("options", "feedback"):
            m = t.get(part) if isinstance(t.get(part), dict) else {}
            for opt in q.options:
                if not _text(m.get(opt)):
                    problems.append(Problem(f, doc.line("questions", q.id, part), f"{where}, {part[:-1] if part == 'options' else part} '{opt}'",
                                            "missing text"))
            for opt in m:
                if str(opt) not in q.options:
                    problems.append(Problem(f, doc.line("questions", q.id, part, opt), f"{where}, {part} '{opt}'",
                                            f"extra option, allowed: {', '.join(q.options)}"))
        for key, text in _flatten(t).items():
            if isinstance(text, str) and MARKUP.search(text):
                problems.append(Problem(f, doc.line("questions", q.id, *key.split(".")), f"{where}, key '{key}'",
                                        f"found markup in {text!r}; allowed: plain text"))
    return d


# --- helpers ----------------------------------------------------------------------------

def _unknown_keys(doc: yamlsrc.Doc, mapping: dict, kind: str, at: tuple, where: str,
                  problems: list[Problem]) -> None:
    """A problem for each key of `mapping` (at key path `at` in `doc`) not allowed for `kind`."""
    allowed = FILE_KEYS[kind]
    for key in mapping:
        if key not in allowed:
            problems.append(Problem(doc.path, doc.line(*at, key), f"{where + ', ' if where else ''}key '{key}'",
                                    f"unknown key, allowed: {', '.join(allowed)}"))


def _flatten(tree: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(tree, dict):
        for k, v in tree.items():
            key = f"{prefix}{k}"
            if isinstance(v, dict):
                out.update(_flatten(v, key + "."))
            else:
                out[key] = v
    return out


def _known(value: Any, allowed: Any) -> bool:
    """`value in allowed`, false for a value YAML built as a list or mapping (unhashable)."""
    return not isinstance(value, (list, dict)) and value in allowed


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _is_url(value: Any) -> bool:
    return sanitize.is_http_url(value)


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return repr(value) if value.strip() else "empty text"
    return f"{type(value).__name__} {value!r}"[:80]
