"""What changed: each provider fact whose value changed, from the git history of
data/providers.yaml, newest first, for the "What changed" page of every language and its Atom
feed (changes.xml beside it).

`history(root)` reads the history once per process and HEAD (about 0.1 s a commit); a copy
without the repository's history (a scratch copy, a downloaded archive) has none, and the page
says so rather than showing an empty list as if nothing had changed. The values compared are the
data's own (`unknown`, a value, a list, a pricing page's URL): a change of source, date or quote
alone is not a change of value.
"""
from __future__ import annotations

import datetime as dt
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape

import yaml
from markupsafe import escape as e

from .data import Atlas
from .render import local_date

FILE = "data/providers.yaml"
PAGE_LIMIT = 300      # changes listed on the page
FEED_LIMIT = 60       # entries in the feed
# Every version in the history is read, pull requests' intermediate commits included: bounded so
# that none can make the build slow or large (a version over MAX_BYTES is skipped, only the newest
# MAX_VERSIONS are compared), and values are read only as text or lists of text (an aliased nest
# of lists is not compared deeply; a value of another shape counts as "not recorded").
MAX_VERSIONS = 200
MAX_BYTES = 5 * 1024 * 1024
_YAML = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Change:
    when: dt.datetime
    commit: str
    provider: str
    name: str
    field: str            # a field id, "pricing_page", or "" for a provider added or removed
    old: object           # None: the provider or field did not exist
    new: object           # None: it no longer exists


def _git(root: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def _values(text: str) -> dict[str, tuple[str, dict[str, object]]]:
    """provider id -> (name, field -> value) of one version of the file; a version that does not
    parse (a broken commit) counts as no data."""
    try:
        data = yaml.load(text, Loader=_YAML)
    except Exception:   # noqa: BLE001 - a version that does not parse, or nests too deep, is no data
        return {}
    out = {}
    for rec in (data or {}).get("providers", []) if isinstance(data, dict) else []:
        if not isinstance(rec, dict) or not isinstance(rec.get("id"), str) or not isinstance(rec.get("facts"), dict):
            continue
        values = {}
        for field, fact in rec["facts"].items():
            value = _plain(fact.get("value") if isinstance(fact, dict) else fact)
            if value is not None:
                values[str(field)] = value
        pricing = rec.get("pricing_page")
        if isinstance(pricing, dict) and isinstance(pricing.get("url"), str):
            values["pricing_page"] = pricing["url"]
        name = rec.get("name")
        out[rec["id"]] = (name if isinstance(name, str) else rec["id"], values)
    return out


def _plain(value: object) -> str | tuple[str, ...] | None:
    """A value as text, or a list as a tuple of text; anything else as None."""
    if isinstance(value, (str, int, float, bool)):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, (str, int, float, bool)) for v in value):
        return tuple(str(v) for v in value)
    return None


def history(root: Path) -> tuple[Change, ...] | None:
    """Every value change in the history of data/providers.yaml, newest first; None without history."""
    head = _git(root, "rev-parse", "HEAD")
    if head is None or _git(root, "rev-parse", "--show-toplevel") is None:
        return None
    if not (root / ".git").exists() and Path(_git(root, "rev-parse", "--show-toplevel").strip()) != root.resolve():
        return None   # a folder inside another repository is not this site's history
    return _history(str(root), head.strip())


@lru_cache(maxsize=4)
def _history(root: str, head: str) -> tuple[Change, ...]:
    log = _git(Path(root), "log", f"--max-count={MAX_VERSIONS}", "--format=%H %cI", "--", FILE) or ""
    changes: list[Change] = []
    before: dict = {}
    for line in reversed(log.splitlines()):
        sha, when = line.split(" ", 1)
        size = _git(Path(root), "cat-file", "-s", f"{sha}:{FILE}")
        if size is None or not size.strip().isdigit() or int(size) > MAX_BYTES:
            continue
        text = _git(Path(root), "show", f"{sha}:{FILE}")
        if text is None:
            continue
        now = _values(text)
        if not now:
            continue
        stamp = dt.datetime.fromisoformat(when)
        if before:
            for pid in sorted(set(before) | set(now)):
                if pid not in before:
                    changes.append(Change(stamp, sha, pid, now[pid][0], "", None, "added"))
                    continue
                if pid not in now:
                    changes.append(Change(stamp, sha, pid, before[pid][0], "", "removed", None))
                    continue
                old_values, new_values = before[pid][1], now[pid][1]
                for field in [*new_values, *(f for f in old_values if f not in new_values)]:
                    old, new = old_values.get(field), new_values.get(field)
                    if old is None and new == "unknown":   # a field added to the schema, not yet sourced: no news
                        continue
                    if old != new:
                        changes.append(Change(stamp, sha, pid, now[pid][0], field, old_values.get(field), new_values.get(field)))
        before = now
    return tuple(sorted(changes, key=lambda c: c.when, reverse=True))


def _value_words(atlas: Atlas, lang: str, field: str, value: object) -> str:
    """A value in the page's words where today's schema knows it, else as written."""
    if value is None:
        return atlas.t(lang, "changes.absent")
    if field == "pricing_page":
        return str(value)
    if isinstance(value, tuple):
        if not value:
            return atlas.t(lang, f"fields.{field}.empty") if f"fields.{field}.empty" in atlas.words[lang] else "—"
        if field in atlas.list_fields:
            return ", ".join(atlas.item_label(lang, field, str(v)) if _knows_item(atlas, field, str(v)) else str(v) for v in value)
        return ", ".join(map(str, value))
    if value == "unknown":
        return atlas.t(lang, "values.unknown")
    if field in atlas.fields and value in atlas.fields[field]:
        return atlas.value_label(lang, field, str(value))
    return str(value)


def _knows_item(atlas: Atlas, field: str, item: str) -> bool:
    spec = atlas.list_fields[field]
    return spec.items is None or item in spec.items


def describe(atlas: Atlas, lang: str, c: Change) -> str:
    """One change in words: a provider added or removed; a list's items added and removed; else
    the old and the new value."""
    t = lambda key, **kw: atlas.t(lang, key, **kw)  # noqa: E731
    if not c.field:
        return t("changes.added") if c.old is None else t("changes.removed")
    head = f"{_field_words(atlas, lang, c.field)}: "
    if isinstance(c.old, tuple) and isinstance(c.new, tuple) and c.old and c.new:
        gained = tuple(v for v in c.new if v not in c.old)
        lost = tuple(v for v in c.old if v not in c.new)
        parts = ([t("changes.items_added", item=_value_words(atlas, lang, c.field, gained))] if gained else []) + \
                ([t("changes.items_removed", item=_value_words(atlas, lang, c.field, lost))] if lost else [])
        if parts:
            return head + "; ".join(parts)
    return head + t("changes.was_now", item=_value_words(atlas, lang, c.field, c.old), name=_value_words(atlas, lang, c.field, c.new))


def _field_words(atlas: Atlas, lang: str, field: str) -> str:
    if field == "pricing_page":
        return atlas.t(lang, "changes.pricing_page")
    key = f"fields.{field}.label"
    return atlas.words[lang].get(key, field)


def render(atlas: Atlas, lang: str, changes: tuple[Change, ...] | None, repo_url: str, to_root: str) -> str:
    """The page's list (HTML), newest first, grouped by day; `to_root` leads from the page to the
    site root (where data/facts.json is)."""
    t = lambda key, **kw: atlas.t(lang, key, **kw)  # noqa: E731
    data = (f'<p class="atlas-changes__data">{e(t("changes.download"))} '
            f'<a href="{to_root}data/facts.json" type="application/json">JSON</a> · '
            f'<a href="{to_root}data/facts.csv" type="text/csv">CSV</a> · '
            f'<a href="{to_root}data/facts.schema.json" type="application/schema+json">JSON Schema</a> '
            f'({e(t("changes.license"))})</p>'
            f'<p class="atlas-changes__feed"><a href="changes.xml" type="application/atom+xml">{e(t("changes.feed"))}</a></p>')
    if changes is None:
        return data + f'<p class="atlas-changes__none">{e(t("changes.unavailable"))}</p>'
    if not changes:
        return data + f'<p class="atlas-changes__none">{e(t("changes.none"))}</p>'
    known = {p.id for p in atlas.providers}
    out, day = [data], None
    for c in changes[:PAGE_LIMIT]:
        if c.when.date() != day:
            if day is not None:
                out.append("</ul>")
            day = c.when.date()
            out.append(f'<h2 class="atlas-changes__day"><time datetime="{day.isoformat()}">{e(local_date(day, lang))}</time></h2>'
                       '<ul class="atlas-changes">')
        who = (f'<a href="atlas-root:providers/{e(c.provider)}.html">{e(c.name)}</a>' if c.provider in known else e(c.name))
        what = e(describe(atlas, lang, c))
        commit = (f' <a class="atlas-changes__commit" href="{e(repo_url)}/commit/{e(c.commit)}" translate="no">'
                  f'{e(c.commit[:7])}</a>' if repo_url else "")
        out.append(f"<li>{who} · {what}{commit}</li>")
    out.append("</ul>")
    return "".join(out)


def feed(atlas: Atlas, lang: str, changes: tuple[Change, ...] | None, page_url: str, repo_url: str,
         site_root_url: str) -> str:
    """An Atom feed of the same changes (RFC 4287): one entry per change, its provider as the
    category, so a reader can watch one provider."""
    t = lambda key, **kw: atlas.t(lang, key, **kw)  # noqa: E731
    items = (changes or ())[:FEED_LIMIT]
    updated = items[0].when.isoformat() if items else dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc).isoformat()
    x = lambda s: xml_escape(str(s), {'"': "&quot;"})  # noqa: E731
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="{x(lang)}">',
           f"<title>{x(t('changes.feed_title'))}</title>",
           f'<link rel="alternate" type="text/html" href="{x(page_url)}"/>',
           f'<link rel="self" type="application/atom+xml" href="{x(page_url.rsplit(".", 1)[0] + ".xml")}"/>',
           f"<id>{x(page_url)}</id>", f"<updated>{x(updated)}</updated>",
           f"<author><name>Cloud GPU Atlas</name></author>",
           f"<rights>CC BY 4.0</rights>"]
    for c in items:
        text = describe(atlas, lang, c)
        link = f"{site_root_url}{'' if lang == atlas.languages[0] else lang + '/'}providers/{c.provider}.html"
        out += ["<entry>", f"<title>{x(c.name)}: {x(text)}</title>",
                f"<id>tag:cloud-gpu-atlas,{c.when.date().isoformat()}:{x(c.commit)}/{x(c.provider)}/{x(c.field or 'provider')}/{x(lang)}</id>",
                f"<updated>{x(c.when.isoformat())}</updated>", f'<link rel="alternate" href="{x(link)}"/>',
                f'<category term="{x(c.provider)}" label="{x(c.name)}"/>',
                f'<content type="text">{x(text)}' + (f" ({x(repo_url)}/commit/{x(c.commit)})" if repo_url else "") + "</content>",
                "</entry>"]
    out.append("</feed>")
    return "\n".join(out) + "\n"
