"""Translation state of pages: which exist, which are outdated by content, and a status view."""
from __future__ import annotations

import hashlib
import json
import os
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import files, yamlsrc
from .data import Atlas, flatten, nearest_line
from .pages import FRONT_MATTER, source_hash
from .render import render

HASH_KEY = "source_hash"


@dataclass(frozen=True)
class PageState:
    lang: str
    page: str              # path relative to the language folder, e.g. guides/storage.md
    exists: bool
    fallback: bool         # built from the English file because no translation exists
    outdated: bool
    recorded: str | None   # hash recorded in the translation's front matter
    current: str | None    # hash of the English page now


def english_pages(docs: Path) -> list[str]:
    """Every English page, relative to docs/en, in a stable order: the pages the build reads
    (sanitize.check_docs walks the same way: no dotfiles, symlinked folders that stay inside)."""
    found, _ = files.walk(docs / "en", docs.parent, ".md")
    return sorted(p.relative_to(docs / "en").as_posix() for p in found)


def front_matter(text: str) -> dict:
    """The page's front matter, read with the bounded loader; {} when absent or broken
    (sanitize.front_matter_problems reports broken front matter with its line)."""
    m = FRONT_MATTER.match(text)
    if not m:
        return {}
    doc = yamlsrc.parse(m.group(1), "page", [], first_line=2)
    return doc.data if doc is not None and isinstance(doc.data, dict) else {}



_states: dict[tuple, PageState] = {}   # per file version: a page is read and hashed once per edit


def state(docs: Path, lang: str, page: str) -> PageState:
    """How the `lang` version of `page` stands against the English original."""
    english, own = _version(docs / "en" / page), _version(docs / lang / page)
    key = (docs, lang, page, english, own)
    if key not in _states:
        if len(_states) > 20_000:
            _states.clear()
        _states[key] = _state(docs, lang, page, english, own)
    return _states[key]


def _version(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


@lru_cache(maxsize=4096)
def _english_hash(docs: Path, page: str, version: tuple[int, int] | None) -> str | None:
    """The hash of one version of an English page (every language's state compares to it)."""
    return source_hash(files.read_text(docs / "en" / page, docs.parent)) if version is not None else None


def _state(docs: Path, lang: str, page: str, english: tuple | None, own: tuple | None) -> PageState:
    """`english` and `own`: the versions (_version) of the English page and of this language's."""
    read = None if own is None else (lambda: files.read_text(docs / lang / page, docs.parent))
    return _judged(lang, page, _english_hash(docs, page, english), read)


def _judged(lang: str, page: str, current: str | None, own: Callable[[], str] | None) -> PageState:
    """The state of `page` in `lang`, given the English page's hash (None: no English page)
    and what reads this language's file (None: there is none)."""
    if lang == "en":
        return PageState(lang, page, current is not None, False, False, current, current)
    if own is None:
        return PageState(lang, page, False, True, False, None, current)
    recorded = front_matter(own()).get(HASH_KEY)
    recorded = str(recorded) if recorded is not None else None
    return PageState(lang, page, True, False, current is not None and recorded != current, recorded, current)


def states(docs: Path, languages: Sequence[str], texts: Mapping[Path, str]) -> dict[tuple[str, str], PageState]:
    """(language, page) -> state for every English page in each of `languages`, from pages
    already read (`texts`, by path, as sanitize.check_docs returns them): a build reads each
    file once, and works with what it read rather than with what a file holds a moment later."""
    english = docs / "en"
    pages = sorted((p.relative_to(english).as_posix(), text) for p, text in texts.items() if p.is_relative_to(english))
    out = {}
    for page, text in pages:
        current = source_hash(text)
        for lang in languages:
            own = texts.get(docs / lang / page)
            out[(lang, page)] = _judged(lang, page, current, None if own is None else (lambda own=own: own))
    return out


def page_state(docs: Path, abs_src_path: str | None, lang: str,
               known: Mapping[tuple[str, str], PageState] | None = None) -> PageState:
    """State of the page MkDocs is building, given its source file and the build language
    (`known`: `states` worked out for this build)."""
    src, base = files.real_file(abs_src_path or ""), files.real_path(docs)
    if not src.startswith(base + os.sep):
        return PageState(lang, os.path.basename(src), True, False, False, None, None)
    folder, _, page = Path(src[len(base) + 1:]).as_posix().partition("/")
    if lang != "en" and folder == "en":
        return PageState(lang, page, False, True, False, None, None)
    return (known or {}).get((lang, page)) or state(Path(base), lang, page)


def sync(docs: Path, lang: str, page: str) -> bool:
    """Record that the `lang` page now translates the current English page. True if changed."""
    st = state(docs, lang, page)
    if not st.exists or lang == "en" or st.current is None:
        raise FileNotFoundError(f"docs/{lang}/{page}" if not st.exists else f"docs/en/{page}")
    path = docs / lang / page
    text = files.read_text(path, docs.parent)
    m = FRONT_MATTER.match(text)
    line = f"{HASH_KEY}: {st.current}"
    if m:
        head = m.group(0)
        if re.search(rf"^{HASH_KEY}:.*$", head, re.M):
            new_head = re.sub(rf"^{HASH_KEY}:.*$", line, head, count=1, flags=re.M)
        else:
            new_head = head.rstrip().rstrip("-").rstrip() + f"\n{line}\n---\n"
        new = new_head + text[m.end():]
    else:
        new = f"---\n{line}\n---\n\n{text}"
    if new != text:
        path.write_text(new, encoding="utf-8")
        return True
    return False


def summary(atlas: Atlas, docs: Path, known: Mapping[tuple[str, str], PageState] | None = None) -> list[dict]:
    """Per language: translated, outdated and missing pages, and missing data keys (`known`:
    `states` of every page in every language, when the caller has them)."""
    pages = sorted({page for _, page in known}) if known is not None else english_pages(docs)
    en_keys = set(atlas.words["en"])
    rows = []
    for lang in atlas.languages:
        states = [known[(lang, p)] if known is not None else state(docs, lang, p) for p in pages]
        rows.append({
            "lang": lang,
            "total": len(pages),
            "translated": [s.page for s in states if s.exists and not s.outdated],
            "outdated": [s.page for s in states if s.exists and s.outdated],
            "missing": [s.page for s in states if not s.exists],
            "keys_missing": sorted(en_keys - set(atlas.words[lang])),
        })
    return rows


def render_status(atlas: Atlas, docs: Path, lang: str, rows: list[dict] | None = None) -> str:
    """The status page's table, in `lang` (`rows`: `summary`, when already worked out)."""
    t = lambda key: atlas.t(lang, f"status.{key}")  # noqa: E731
    return render("status.html", rows=summary(atlas, docs) if rows is None else rows, t=t,
                  name=lambda code: atlas.t(code, "site.language_name"))


# --- data strings: which English text each translated string translates ----------------------
#
# Pages record the English they translate in their front matter (source_hash). A words file
# cannot hold one hash for all its strings (a change to one note would mark every string), so
# `make i18n-sync PAGE=data/i18n/<lang>.yaml` records, beside it in <lang>.synced.yaml, a hash of
# the English text of each key the language translates; `make i18n` lists the strings whose
# English has changed since (never failing: the site shows the older translation, as it does
# an outdated page). English-only notes are listed too: the site shows them in English, marked.

WORDS_RECORD = "data/i18n/{lang}.synced.yaml"


@dataclass(frozen=True)
class StringState:
    lang: str
    key: str
    line: int              # in data/i18n/<lang>.yaml (for a missing string: where it belongs)
    english_line: int      # in data/i18n/<default language>.yaml
    recorded: str | None   # the hash recorded at the last sync; None: never synced
    current: str | None    # the hash of the English text now; None: the language lacks the string

    @property
    def outdated(self) -> bool:
        return self.current is not None and self.recorded != self.current


def words_hash(text: object) -> str:
    """Short content hash of one English string (Unicode-normalised, outer spaces aside)."""
    normal = unicodedata.normalize("NFC", str(text)).strip()
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:12]


def _words_doc(root: Path, lang: str) -> tuple[yamlsrc.Doc | None, dict]:
    doc = yamlsrc.load(root / "data" / "i18n" / f"{lang}.yaml", f"data/i18n/{lang}.yaml", [], root)
    return doc, (flatten(doc.data) if doc is not None and isinstance(doc.data, dict) else {})


def words_record(root: Path, lang: str) -> dict[str, str] | None:
    """key -> recorded hash of the English each `lang` string translates; None without a record."""
    path = root / WORDS_RECORD.format(lang=lang)
    if not path.exists() and not path.is_symlink():
        return None
    doc = yamlsrc.load(path, WORDS_RECORD.format(lang=lang), [], root)
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    return {str(k): str(v) for k, v in data.items()}


def string_states(root: Path, lang: str, english: str = "en") -> list[StringState] | None:
    """Every English string and how `lang` stands against it: translated and current, translated
    against older English (outdated), or missing (current None). None: the language has no record
    yet, so nothing can be said of its translated strings (missing ones are still listed by
    `untranslated_notes`)."""
    en_doc, en = _words_doc(root, english)
    doc, mine = _words_doc(root, lang)
    record = words_record(root, lang)
    if en_doc is None or doc is None or record is None:
        return None
    order = list(en)
    out = []
    for key, text in en.items():
        english_line = en_doc.line(*key.split("."))
        if key in mine:
            out.append(StringState(lang, key, doc.line(*key.split(".")), english_line, record.get(key), words_hash(text)))
        else:
            out.append(StringState(lang, key, nearest_line(doc, order, key), english_line, None, None))
    return out


def untranslated_notes(root: Path, lang: str, english: str = "en") -> list[StringState]:
    """Notes English has and `lang` has not (the site shows them in English, marked)."""
    en_doc, en = _words_doc(root, english)
    doc, mine = _words_doc(root, lang)
    if en_doc is None or doc is None:
        return []
    order = list(en)
    return [StringState(lang, key, nearest_line(doc, order, key), en_doc.line(*key.split(".")), None, None)
            for key in en if key.startswith("notes.") and key not in mine]


def sync_words(root: Path, lang: str, prefix: str = "", english: str = "en") -> tuple[int, int]:
    """Record that the `lang` strings under `prefix` (a key or a section, e.g. notes.runpod; all
    when empty) translate the current English. (strings matched, strings whose record changed)."""
    _, en = _words_doc(root, english)
    _, mine = _words_doc(root, lang)
    record = words_record(root, lang) or {}
    chosen = [k for k in en if k in mine and (not prefix or k == prefix or k.startswith(prefix + "."))]
    changed = 0
    for key in chosen:
        if record.get(key) != words_hash(en[key]):
            record[key] = words_hash(en[key])
            changed += 1
    kept = {k: record[k] for k in en if k in mine and k in record}   # strings gone from either are dropped
    if changed or kept != record or not (root / WORDS_RECORD.format(lang=lang)).exists():
        head = (f"# The English each string of data/i18n/{lang}.yaml translates: a hash of the English text per key,\n"
                f"# written by `make i18n-sync PAGE=data/i18n/{lang}.yaml[:key]` after a translation is brought up\n"
                "# to date. `make i18n` lists the strings whose English changed since. Written by the tool.\n")
        body = "".join(f"{json.dumps(k, ensure_ascii=False)}: \"{v}\"\n" for k, v in kept.items())
        (root / WORDS_RECORD.format(lang=lang)).write_text(head + body, encoding="utf-8")
    return len(chosen), changed
