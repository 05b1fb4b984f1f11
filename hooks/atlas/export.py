"""Open data: every fact as data/facts.json, data/facts.csv and data/facts.schema.json on the
built site (issue 34), under CC BY 4.0 (LICENSE-DATA).

The JSON holds every provider, field, value, source, both dates, the quote with its language and
our translations, the notes in every language and the day the quote was last found at its source;
it validates against the schema (tests/test_open_data.py) and its values are data/providers.yaml's.
The CSV is the same, one row per provider and field, for a spreadsheet: list values joined with
`;`, sources with a space, notes in one column per language. `version` is the newest day any fact
was read (the "data as of" date of every table).
"""
from __future__ import annotations

import csv
import io
import json

from .data import Atlas, Fact

LICENSE = "CC-BY-4.0"
LICENSE_URL = "https://creativecommons.org/licenses/by/4.0/"
FILES = ("data/facts.json", "data/facts.csv", "data/facts.schema.json")


def _fact(atlas: Atlas, pid: str, field: str, fact: Fact) -> dict:
    value = list(fact.value) if isinstance(fact.value, tuple) else fact.value
    quote_key, at = f"quotes.{pid}.{field}", (pid, field)
    notes, words, found = atlas.notes, atlas.words, atlas.checked.get(at)
    return {"value": value, "sources": list(fact.sources),
            "verified": fact.verified.isoformat() if fact.verified else None,
            "source_date": fact.source_date, "quote": fact.quote,
            "quote_lang": fact.quote_lang if fact.quote else None,
            "quote_translations": {lang: text for lang in atlas.languages if (text := words[lang].get(quote_key))},
            "notes": {lang: note for lang in atlas.languages if (note := notes.get(lang, {}).get(at))},
            "quote_found": found.isoformat() if found else None}


def records(atlas: Atlas, site_url: str = "") -> dict:
    """Everything, as one JSON-ready mapping."""
    fields = {}
    for f in atlas.all_fields:
        spec = atlas.list_fields.get(f)
        fields[f] = {"label": {lang: atlas.t(lang, f"fields.{f}.label") for lang in atlas.languages},
                     "list": spec is not None,
                     "values": (list(spec.items) if spec and spec.items else None) if spec else list(atlas.fields[f])}
    providers = []
    for p in atlas.providers:
        providers.append({
            "id": p.id, "name": p.name, "homepage": p.homepage, "category": p.category,
            "page": f"{site_url}providers/{p.id}.html" if site_url else f"providers/{p.id}.html",
            "pricing_page": ({"url": p.pricing.value, **{k: v for k, v in _fact(atlas, p.id, "pricing_page", p.pricing).items()
                                                          if k != "value"}} if p.pricing else None),
            "facts": {f: _fact(atlas, p.id, f, p.facts[f]) for f in atlas.all_fields},
        })
    return {"version": (atlas.newest_verified.isoformat() if atlas.newest_verified else None),
            "license": LICENSE, "license_url": LICENSE_URL,
            "attribution": "Cloud GPU Atlas" + (f" ({site_url})" if site_url else ""),
            "languages": list(atlas.languages), "fields": fields, "providers": providers}


def to_csv(data: dict) -> str:
    langs = data["languages"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["provider", "provider_name", "field", "value", "sources", "verified", "source_date", "quote",
                     "quote_lang", "quote_found", *(f"note_{lang}" for lang in langs)])
    for p in data["providers"]:
        for f, fact in p["facts"].items():
            value = ";".join(fact["value"]) if isinstance(fact["value"], list) else fact["value"]
            writer.writerow([p["id"], p["name"], f, value, " ".join(fact["sources"]), fact["verified"] or "",
                             fact["source_date"] or "", fact["quote"] or "", fact["quote_lang"] or "",
                             fact["quote_found"] or "", *(fact["notes"].get(lang, "") for lang in langs)])
    return out.getvalue()


def schema(atlas: Atlas) -> dict:
    """JSON Schema (2020-12) of facts.json; the allowed values come from data/fields.yaml."""
    date = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
    by_lang = {"type": "object", "propertyNames": {"enum": list(atlas.languages)}, "additionalProperties": {"type": "string"}}
    evidence = {
        "sources": {"type": "array", "items": {"type": "string", "pattern": "^https?://"}},
        "verified": {"oneOf": [date, {"type": "null"}]},
        "source_date": {"oneOf": [{"type": "string", "pattern": r"^\d{4}-\d{2}(-\d{2})?$"}, {"type": "null"}],
                        "description": "the source's own date (YYYY-MM when it prints only the month)"},
        "quote": {"type": ["string", "null"], "description": "the source's own words"},
        "quote_lang": {"type": ["string", "null"]},
        "quote_translations": by_lang,
        "notes": by_lang,
        "quote_found": {"oneOf": [date, {"type": "null"}], "description": "last day make recheck found the quote at its sources"},
    }
    required = ["value", *evidence]
    field_schemas = {}
    for f in atlas.all_fields:
        spec = atlas.list_fields.get(f)
        if spec is not None:
            item = {"enum": list(spec.items)} if spec.items else {"type": "string", "pattern": "^[A-Z]{2}$"}
            value = {"oneOf": [{"const": "unknown"}, {"type": "array", "items": item, "uniqueItems": True}]}
        else:
            value = {"enum": list(atlas.fields[f])}
        field_schemas[f] = {"type": "object", "properties": {"value": value, **evidence}, "required": required,
                            "additionalProperties": False}
    pricing = {"type": "object", "properties": {"url": {"type": "string", "pattern": "^https?://"}, **evidence},
               "required": ["url", "sources", "verified"], "additionalProperties": False}
    provider = {"type": "object", "additionalProperties": False,
                "required": ["id", "name", "homepage", "category", "page", "pricing_page", "facts"],
                "properties": {"id": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"}, "name": {"type": "string"},
                               "homepage": {"type": "string", "pattern": "^https?://"},
                               "category": {"enum": list(atlas.categories)}, "page": {"type": "string"},
                               "pricing_page": {"oneOf": [pricing, {"type": "null"}]},
                               "facts": {"type": "object", "properties": field_schemas, "required": list(atlas.all_fields),
                                         "additionalProperties": False}}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "facts.schema.json", "title": "Cloud GPU Atlas provider facts",
            "description": "Every provider fact of Cloud GPU Atlas with its sources and dates (CC BY 4.0).",
            "type": "object", "additionalProperties": False,
            "required": ["version", "license", "license_url", "attribution", "languages", "fields", "providers"],
            "properties": {"version": {"oneOf": [date, {"type": "null"}]}, "license": {"const": LICENSE},
                           "license_url": {"const": LICENSE_URL}, "attribution": {"type": "string"},
                           "languages": {"type": "array", "items": {"type": "string"}},
                           "fields": {"type": "object"}, "providers": {"type": "array", "items": provider}}}


def files(atlas: Atlas, site_url: str = "") -> dict[str, str]:
    """path under the site -> text, for every published data file."""
    data = records(atlas, site_url)
    # compact: json's C encoder writes it (an indented dump takes the pure-Python path, several
    # times slower on a thousand providers)
    return {"data/facts.json": json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n",
            "data/facts.csv": to_csv(data),
            "data/facts.schema.json": json.dumps(schema(atlas), ensure_ascii=False, indent=1) + "\n"}
