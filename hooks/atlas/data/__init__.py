"""Load and validate everything under data/ into one immutable `Atlas`.

Every problem is collected, located (file, line, record, field) and raised together as a
`DataError`; nothing is rendered from data that failed validation. One module reads each kind
of file, and `load_atlas` here joins them:

- fields.py: data/fields.yaml (fields, list fields, groups, categories, quiz rules), with
  regions.py for its region filter;
- providers.py: data/providers.yaml, with evidence.py for the sources, date and quote of a fact;
- words.py: data/i18n/<language>.yaml, the words for every fact in every language;
- quizzes.py: data/quizzes/, authored questions and their text in every language;
- records.py: the records they build; checks.py: the small checks they share.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from .. import countries, yamlsrc
from ..languages import LANGUAGES   # mkdocs.yml's i18n languages: the one list (languages.py)
from ..problems import DataError, Problem
from .checks import flatten
from .fields import read_schema
from . import providers as provider_records
from .providers import read_providers
from .quizzes import quiz_structure, quiz_text, read_quizzes
from .records import Fact, ListField, Provider, Question
from .site_words import check_site_words
from .checked import read_checked
from .words import check_partial_notes, check_quote_translations, check_words, nearest_line, twin_keys

__all__ = ["LANGUAGES", "Atlas", "DataError", "Fact", "ListField", "Problem", "Provider", "Question",
           "flatten", "load_atlas", "nearest_line"]

# The names the loaders had when this package was one module (tests call them by these).
_flatten, _schema, _providers, _check_words = flatten, read_schema, read_providers, check_words
_quiz_structure, _quiz_text = quiz_structure, quiz_text


_NO_NOTES: Mapping = MappingProxyType({})


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
    home_region: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # language -> its readers' countries, first
    checked: Mapping[tuple[str, str], dt.date] = field(default_factory=dict)   # (provider, field) -> quote found at the source (checked.py)

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
        return self.notes.get(lang, _NO_NOTES).get((provider_id, field_id))

    @cached_property
    def notes(self) -> Mapping[str, Mapping[tuple[str, str], str]]:
        """lang -> (provider, field) -> note: the notes indexed once (asked for hundreds of
        thousands of times in a 1,000-provider build; kept in the instance, so each later ask
        is a plain attribute)."""
        return {lang: {tuple(k[6:].split(".", 1)): v for k, v in words.items() if k.startswith("notes.")}
                for lang, words in self.words.items()}

    @cached_property
    def noted(self) -> Mapping[str, frozenset[tuple[str, str]]]:
        """lang -> the (provider, field) pairs with a note shown in that language: its own, or
        the English one until it is translated."""
        first = set(self.notes.get(self.languages[0], _NO_NOTES)) if self.languages else set()
        return {lang: frozenset(first | set(self.notes.get(lang, _NO_NOTES))) for lang in self.languages}

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
    schema = read_schema(fields_doc, problems) if fields_doc else None
    providers_doc = yamlsrc.load(data / "providers.yaml", "data/providers.yaml", problems, root)
    word_docs = {lang: yamlsrc.load(data / "i18n" / f"{lang}.yaml", f"data/i18n/{lang}.yaml", problems, root)
                 for lang in languages}
    quizzes, quiz_words = read_quizzes(data / "quizzes", languages, problems, root)

    if schema is None:
        raise DataError(problems)
    fields, groups, categories, rules, list_fields, order, choices, home = schema
    providers = (read_providers(providers_doc, fields, list_fields, categories, today, problems)
                 if providers_doc else ())
    words = {lang: flatten(doc.data) if doc and isinstance(doc.data, dict) else {}
             for lang, doc in word_docs.items()}
    for doc in word_docs.values():
        if doc and not isinstance(doc.data, dict):
            problems.append(Problem(doc.path, 1, "", "expected a mapping of keys to text"))
        elif doc:
            twin_keys(doc, problems)
    if "en" in word_docs and word_docs["en"]:
        records = providers_doc.data.get("providers") if providers_doc and isinstance(providers_doc.data, dict) else None
        whole = isinstance(records, list) and all(isinstance(r, dict) and isinstance(r.get("id"), str)
                                                  and provider_records.SLUG.match(r["id"]) for r in records)
        # Unknowable without every provider: a record refused above (an id written as a list, say)
        # has its own message, and its notes are not reported again as notes for nobody.
        known_ids = {p.id for p in providers} if providers and whole else None
        check_words(word_docs, words, fields, groups, categories, known_ids, rules, problems, list_fields)
        check_site_words(word_docs, words, problems)
        if providers_doc:
            check_partial_notes(providers_doc, providers, words["en"], problems)
            check_quote_translations(providers_doc, providers, word_docs["en"], words["en"], problems, whole=known_ids is not None)
    checked = read_checked(root, providers, today, problems)
    if problems:
        raise DataError(_without_consequences(problems, fields_doc, fields, list_fields))
    if choices == "all":   # every country the data has (data/fields.yaml, region_filter)
        found = {c for p in providers if "regions" in p.facts and p.facts["regions"].known
                 and isinstance(p.facts["regions"].value, tuple) for c in p.facts["regions"].value}
        choices = tuple(sorted(found | {c for codes in home.values() for c in codes}))
    dates = [f.verified for p in providers for f in p.facts.values() if f.verified]
    return Atlas(
        fields=MappingProxyType(fields), groups=MappingProxyType(groups),
        categories=categories, quiz_rules=MappingProxyType(rules), providers=providers,
        words=MappingProxyType({k: MappingProxyType(v) for k, v in words.items()}),
        quizzes=MappingProxyType(quizzes), quiz_words=MappingProxyType(quiz_words),
        languages=languages, newest_verified=max(dates) if dates else None,
        list_fields=MappingProxyType(list_fields), field_order=order,
        region_choices=choices, home_region=MappingProxyType(home), checked=checked,
    )


def _without_consequences(problems: list[Problem], fields_doc, fields, list_fields) -> list[Problem]:
    """One root cause, one message: a merge key is reported alone on its line (what it made of
    the mapping is its consequence), and a field whose definition in data/fields.yaml is
    malformed is reported there, not again by every group, fact, note or word that names it."""
    merges = {(p.file, p.line) for p in problems if p.message.startswith("merge key '<<'")}
    problems = [p for p in problems if (p.file, p.line) not in merges or p.message.startswith("merge key '<<'")]
    defined = fields_doc.data.get("fields") if fields_doc and isinstance(fields_doc.data, dict) else None
    if not isinstance(defined, dict):
        return problems
    broken = {str(fid) for fid in defined if fid not in fields and fid not in list_fields}
    if not broken:
        return problems

    def consequence(p: Problem) -> bool:
        if p.file == fields_doc.path and p.where in {f"field '{fid}'" for fid in broken}:
            return False   # the root cause itself
        if any(f"field '{fid}'" in p.where for fid in broken):
            return True
        key = re.match(r"key '([^']*)'", p.where)
        if key and broken & set(key.group(1).split(".")):
            return True
        listed = re.search(r"found fields \[([^\]]*)\]", p.message)
        return bool(listed) and set(re.findall(r"'([^']*)'", listed.group(1))) <= broken

    return [p for p in problems if not consequence(p)]
