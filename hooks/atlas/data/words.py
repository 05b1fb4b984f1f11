"""data/i18n/<language>.yaml: words for every field, value, category, group and note, in every
language, as plain text whose placeholders match English."""
from __future__ import annotations

import re
import string
from typing import Any, Mapping

from .. import countries, yamlsrc
from ..problems import Problem
from .checks import MARKUP, describe
from .records import Provider

URL = re.compile(r"https?://|javascript:", re.I)

# Placeholders a translation may use, each only as {name}: no format spec, conversion,
# attribute or index (a spec like {minutes:>100000000} would build a huge string).
PLACEHOLDER_NAMES = frozenset({"answer", "answers", "correct", "count", "country", "date", "days", "group", "item",
                               "match", "minutes", "n", "name", "percent", "placeholder", "placeholders",
                               "provider", "score", "shown", "source", "sourced", "title", "total",
                               "unconfirmed"})


def check_words(docs, words, fields, groups, categories, provider_ids, rules, problems, list_fields=None) -> None:
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
            if not isinstance(text, str) or not text.strip():
                problems.append(Problem(doc.path, doc.line(*key.split(".")), f"key '{key}'",
                                        f"found {describe(text)}, allowed: non-empty text"))
                continue
            found = []
            # Markup starts with < or &, a URL has a colon: a text without them (most notes) is
            # not scanned by either pattern.
            if ("<" in text or "&" in text) and MARKUP.search(text):
                found.append(f"found markup in {text!r}; allowed: plain text")
            if ":" in text and URL.search(text):
                found.append(f"found a URL in {text!r}; allowed: plain text")
            # Most texts (the notes of every provider) have no braces: nothing to parse.
            theirs = en.get(key) if lang != "en" else None
            theirs = theirs if isinstance(theirs, str) else ""   # a broken English value is reported on its own line
            braces = "{" in text or "}" in text or "{" in theirs or "}" in theirs
            bad_format = braces and _format_problem(text)
            if bad_format:
                found.append(bad_format)
            if braces and lang != "en" and key in en and _placeholders(text) != _placeholders(en[key]):
                found.append(f"placeholders found {sorted(_placeholders(text))}, "
                             f"allowed: {sorted(_placeholders(en[key]))} as in English")
            if found:
                line = doc.line(*key.split("."))
                problems.extend(Problem(doc.path, line, f"key '{key}'", message) for message in found)
        if lang == "en":
            continue
        for key in sorted(set(en) - set(mine)):
            if key.startswith(("notes.", "quotes.")):   # shown in English, marked, until translated (cells.evidence)
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


def twin_keys(doc: yamlsrc.Doc, problems: list[Problem]) -> None:
    """A problem at both lines of each key a words file spells twice, as a dotted key and as
    nested ones (`table.stale:` and `table:` / `stale:`): both mean table.stale, and one would
    silently replace the other. A dotted key's line is recorded under its parts, as a nested
    key's is, for every other message about it."""
    seen: dict[str, tuple[tuple, int]] = {}

    def walk(tree: dict, path: tuple) -> None:
        for k, v in tree.items():
            here = path + (k,)
            dotted = ".".join(map(str, here))
            line = doc.lines.get(here, 1)
            if isinstance(v, dict):
                walk(v, here)
                continue
            doc.lines.setdefault(tuple(dotted.split(".")), line)
            if dotted in seen:
                other, first = seen[dotted]
                spelled = lambda keys: " / ".join(f"{k}:" for k in keys)  # noqa: E731
                for at, mine, theirs in ((first, other, here), (line, here, other)):
                    problems.append(Problem(doc.path, at, f"key '{dotted}'", f"written as '{spelled(mine)}' here and as "
                                            f"'{spelled(theirs)}' on line {line if at == first else first}: both mean "
                                            f"'{dotted}' and only one would count; allowed: one of them"))
            else:
                seen[dotted] = (here, line)

    if isinstance(doc.data, dict):
        walk(doc.data, ())


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


def check_partial_notes(doc: yamlsrc.Doc, providers: tuple[Provider, ...], en: Mapping[str, Any],
                        problems: list[Problem]) -> None:
    """A `partial` value names its limit: each has a note, in English at least (the other
    languages show the English note, marked as not yet translated, until they have theirs)."""
    records = doc.data.get("providers") if isinstance(doc.data, dict) else None
    index = {rec["id"]: i for i, rec in enumerate(records or []) if isinstance(rec, dict) and isinstance(rec.get("id"), str)}
    for p in providers:
        for fid, fact in p.facts.items():
            if fact.value == "partial" and f"notes.{p.id}.{fid}" not in en and p.id in index:
                problems.append(Problem(doc.path, doc.line("providers", index[p.id], "facts", fid, "value"),
                                        f"provider '{p.id}', field '{fid}'",
                                        f"value 'partial' has no note; allowed: 'partial' with a note naming its "
                                        f"limit, as notes.{p.id}.{fid} in data/i18n/en.yaml (translations may follow)"))


def check_quote_translations(doc: yamlsrc.Doc, providers: tuple[Provider, ...], endoc: yamlsrc.Doc,
                             en: Mapping[str, Any], problems: list[Problem], whole: bool = True) -> None:
    """A quote in a language that is not English has our English translation
    (quotes.<provider>.<field> in data/i18n/en.yaml), shown to readers who may not read the
    quote's language; other languages translate it in turn (cells.quote_translation). A
    translation for a quote that is English, or absent, is refused: it would be shown for nothing."""
    records = doc.data.get("providers") if isinstance(doc.data, dict) else None
    index = {rec["id"]: i for i, rec in enumerate(records or []) if isinstance(rec, dict) and isinstance(rec.get("id"), str)}
    foreign = set()
    for p in providers:
        facts = dict(p.facts, **({"pricing_page": p.pricing} if p.pricing else {}))
        for fid, fact in facts.items():
            if not fact.quote or fact.quote_lang.split("-")[0].lower() == "en":
                continue
            foreign.add(f"quotes.{p.id}.{fid}")
            if f"quotes.{p.id}.{fid}" not in en and p.id in index:
                at = ("providers", index[p.id]) + (("pricing_page",) if fid == "pricing_page" else ("facts", fid))
                problems.append(Problem(doc.path, doc.line(*at, "quote_lang"), f"provider '{p.id}', field '{fid}'",
                                        f"a quote in '{fact.quote_lang}' has no English translation; allowed: a quote in "
                                        f"another language with ours as quotes.{p.id}.{fid} in data/i18n/en.yaml"))
    for key in en:
        if key.startswith("quotes.") and key not in foreign and whole:   # unknowable when a record was refused
            problems.append(Problem(endoc.path, endoc.line(*key.split(".")), f"key '{key}'",
                                    "translation of a quote that is in English or does not exist; allowed: "
                                    "quotes.<provider>.<field> for a fact whose quote_lang is not English"))


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
