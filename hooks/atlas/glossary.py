"""The glossary as data: one entry per concept, the term to use per language, the variants
to avoid, and a short definition.

`data/glossary.yaml` is the one list of settled terms. The build and `make i18n` fail when
a Hindi or Vietnamese page or data string uses an avoided variant outside code, and the
glossary page of every language is generated from the same file (`<!-- glossary:terms -->`).
"""
from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping



from . import collation, files as repo_files, invisible, yamlsrc
from .languages import LANGUAGES
from .problems import DataError, Problem

FILE = "data/glossary.yaml"
ENTRY_KEYS = ("id", *LANGUAGES)   # the languages in mkdocs.yml
LANG_KEYS = ("use", "avoid", "definition", "gender")
ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MARKUP = re.compile(r"<[a-zA-Z/!]|&[a-zA-Z#][a-zA-Z0-9]*;|https?://")
CODE_SPAN = re.compile(r"(`+).+?\1")
# A variant matches at the start of a word and may be inflected after it (Hindi endings).
_WORD_CHAR = r"[\w\u0900-\u097F]"


@dataclass(frozen=True)
class Term:
    """One concept: its English headword and, per language, what to write and what not."""

    id: str
    use: Mapping[str, str]                  # lang -> preferred term
    avoid: Mapping[str, tuple[str, ...]]    # lang -> variants that fail the check
    definition: Mapping[str, str]           # lang -> definition (may be absent)

    @property
    def en(self) -> str:
        return self.use["en"]


def load(root: Path, languages: tuple[str, ...] = LANGUAGES) -> tuple[Term, ...]:
    """Read and validate `data/glossary.yaml`; raise DataError listing every problem."""
    problems: list[Problem] = []
    doc = yamlsrc.load(root / FILE, FILE, problems)
    if doc is None:
        raise DataError(problems)
    entries = doc.data.get("terms") if isinstance(doc.data, dict) else None
    if not isinstance(entries, list):
        raise DataError([Problem(FILE, 1, "", "expected a top-level 'terms:' list")])
    terms, seen = [], {}
    entry_keys = ("id", *languages)   # the languages of the site being checked (mkdocs.yml)
    for i, entry in enumerate(entries):
        line = doc.line("terms", i)
        if not isinstance(entry, dict):
            problems.append(Problem(FILE, line, f"term #{i + 1}", f"expected a mapping with {', '.join(entry_keys)}"))
            continue
        tid = entry.get("id")
        who = f"term '{tid}'" if isinstance(tid, str) else f"term #{i + 1}"
        for key in entry:
            if key not in entry_keys:
                problems.append(Problem(FILE, doc.line("terms", i, key), who,
                                        f"unknown key '{key}', allowed: {', '.join(entry_keys)}"))
        if not isinstance(tid, str) or not ID.match(tid):
            problems.append(Problem(FILE, doc.line("terms", i, "id"), who, f"found id {tid!r}, allowed: a lowercase slug"))
        elif tid in seen:
            problems.append(Problem(FILE, doc.line("terms", i, "id"), who, f"duplicate id, first on line {seen[tid]}"))
        else:
            seen[tid] = doc.line("terms", i, "id")
        use, avoid, definition = {}, {}, {}
        for lang in languages:
            part = entry.get(lang)
            where = f"{who}, {lang}"
            if not isinstance(part, dict):
                problems.append(Problem(FILE, doc.line("terms", i, lang), where,
                                        "missing; expected {use: …, avoid: […], definition: …}"))
                continue
            for key in part:
                if key not in LANG_KEYS:
                    problems.append(Problem(FILE, doc.line("terms", i, lang, key), where,
                                            f"unknown key '{key}', allowed: {', '.join(LANG_KEYS)}"))
            if not _plain(part.get("use")):
                problems.append(Problem(FILE, doc.line("terms", i, lang, "use"), f"{where}, use",
                                        f"found {part.get('use')!r}, allowed: non-empty plain text"))
            else:
                use[lang] = _nfc(part["use"])
            bad = part.get("avoid", [])
            if not isinstance(bad, list) or not all(_plain(v) for v in bad):
                problems.append(Problem(FILE, doc.line("terms", i, lang, "avoid"), f"{where}, avoid",
                                        f"found {bad!r}, allowed: a list of plain-text variants"))
            else:
                avoid[lang] = tuple(_nfc(v) for v in bad)
                clash = [v for v in avoid[lang] if lang in use and _finds(v, use[lang])]
                if clash:
                    problems.append(Problem(FILE, doc.line("terms", i, lang, "avoid"), f"{where}, avoid",
                                            f"{clash[0]!r} would match the preferred term {use[lang]!r} itself"))
            if "gender" in part and part["gender"] not in ("m", "f"):
                problems.append(Problem(FILE, doc.line("terms", i, lang, "gender"), f"{where}, gender",
                                        f"found {part['gender']!r}, allowed: m, f"))
            if "definition" in part:
                if not _plain(part["definition"]):
                    problems.append(Problem(FILE, doc.line("terms", i, lang, "definition"), f"{where}, definition",
                                            "allowed: non-empty plain text (no HTML, no URLs)"))
                else:
                    definition[lang] = _nfc(part["definition"])
        if "en" in use:
            terms.append(Term(str(tid), use, avoid, definition))
    if problems:
        raise DataError(problems)
    return tuple(sorted(terms, key=lambda t: t.en.casefold()))


def find_avoided(lines: list[tuple[int, str]], lang: str, terms: tuple[Term, ...]) -> list[tuple[int, str, str]]:
    """(line, avoided variant, preferred term) for each avoided variant in prose `lines`.

    Inline code is skipped (callers pass lines outside fenced code already), so a
    command or an object name quoted in backticks never fails the check.
    """
    out = []
    checks = [(v, _seen(v).casefold(), t.use[lang]) for t in terms for v in t.avoid.get(lang, ())]
    if not checks:
        return out
    # Every line at once (code spans, NFC, invisible characters and case folding never cross a
    # line break), and only the variants found anywhere: most pages have none, and then no line
    # is looked at alone.
    texts = _seen(CODE_SPAN.sub(" ", "\n".join(line for _, line in lines))).casefold()
    checks = [c for c in checks if c[1] in texts]
    if not checks:
        return out
    for (n, _), text in zip(lines, texts.split("\n")):
        for variant, folded, preferred in checks:
            if folded in text and _finds(variant, text):   # the substring test first: most lines have none
                out.append((n, variant, preferred))
    return out


def markdown(lang: str, terms: tuple[Term, ...], more: str = "", english: str = "", language: str = "") -> str:
    """The glossary in Markdown for `lang` (what `<!-- glossary:terms -->` becomes).

    Terms with a definition become headings (anchors, permalinks and a table of contents like
    any page), with the English headword beside a translated one. Terms without a definition
    (the settled words of the site) follow in one table under the heading `more`, English
    beside the page's language. Every contributor string is HTML-escaped (and in headings
    and paragraphs its Markdown punctuation backslash-escaped), so it can only ever be text.
    """
    out = []
    order = collation.key(lang)
    terms = tuple(sorted(terms, key=lambda t: order(t.use.get(lang, t.en))))   # as the language sorts its words
    for t in (t for t in terms if t.definition):
        head = t.use.get(lang, t.en)
        en = f' <span lang="en">({_md(t.en)})</span>' if lang != "en" and head.casefold() != t.en.casefold() else ""
        out.append(f"## {_md(head)}{en} {{ #{t.id} }}\n")
        out.append(_md(t.definition.get(lang) or t.definition["en"]) + "\n")
    rest = [t for t in terms if not t.definition]
    if rest and lang != "en" and more:
        rows = "".join(f'<tr id="{t.id}"><td lang="en">{html.escape(t.en)}</td><td>{html.escape(t.use.get(lang, t.en))}</td></tr>'
                       for t in rest)
        out.append(f"## {_md(more)} {{ #more-terms }}\n")
        out.append(f'<table><thead><tr><th>{html.escape(english)}</th><th>{html.escape(language)}</th></tr></thead>'
                   f"<tbody>{rows}</tbody></table>\n")
    return "\n".join(out)


def _finds(variant: str, text: str) -> bool:
    pattern = rf"(?<!{_WORD_CHAR}){re.escape(_seen(variant).casefold())}"
    if not re.search(r"[\u0900-\u097F]", variant):   # Latin/Vietnamese: whole words only
        pattern += rf"(?!{_WORD_CHAR})"
    return re.search(pattern, text.casefold()) is not None


def _md(text: str) -> str:
    """Markdown that renders exactly `text`; `code spans` stay code (Markdown escapes them)."""
    parts = re.split(r"(`[^`\n]+`)", text)
    return "".join(part if i % 2 else re.sub(r"([\\`*_{}\[\]()#+\-.!|])", r"\\\1", html.escape(part, quote=False))
                   for i, part in enumerate(parts))


def _plain(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip()) and not MARKUP.search(value)


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _seen(text: str) -> str:
    """`text` as a reader sees it, for matching: NFC, without invisible characters (a zero-width
    space inside a variant does not hide it; Devanagari's joiners after a virama stay)."""
    return _nfc(invisible.visible(text))


def check_tree(root: Path, terms: tuple[Term, ...], languages: tuple[str, ...] = LANGUAGES[1:],
               texts: Mapping[Path, str] | None = None) -> list[str]:
    """'file:line: …' for every avoided variant in the pages and data strings of `languages`
    (`texts`: pages already read, by path, as sanitize.check_docs returns them)."""
    from .pages import prose_lines   # pages imports markupsafe only; kept local to stay light
    found = []
    for lang in languages:
        # The pages the build reads (files.walk: no dotfiles, nothing that leaves the repository),
        # each read as the build reads it (bounded, strict UTF-8): a link to /dev/zero fails there.
        pages, _ = repo_files.walk(root / "docs" / lang, root, ".md")
        files = [(p, lambda text: [*_front_matter_lines(text), *prose_lines(text)]) for p in sorted(pages)]
        files += [(p, _yaml_text_lines) for p in [root / "data" / "i18n" / f"{lang}.yaml",
                                                  *sorted((root / "data" / "quizzes" / lang).glob("*.yaml"))]]
        for path, lines_of in files:
            try:
                text = texts[path] if texts and path in texts else repo_files.read_text(path, root)
            except (OSError, repo_files.FileProblem):
                continue   # reported by the loaders that own these files
            rel = path.relative_to(root).as_posix()
            for n, variant, preferred in find_avoided(lines_of(text), lang, terms):
                found.append(f"{rel}:{n}: avoided term {variant!r} in a {lang} text; "
                             f"use {preferred!r} (data/glossary.yaml)")
    return found


def _front_matter_lines(text: str) -> list[tuple[int, str]]:
    """The title and description of a page, which a reader sees in the nav, the browser's tab
    and search results: checked like the page's prose."""
    from .sanitize import front_matter_prose
    return [(n, value) for n, _, value in front_matter_prose(text)]


def _yaml_text_lines(text: str) -> list[tuple[int, str]]:
    """The value part of each line of a YAML words file (keys and comments are not prose)."""
    return [(n, line.split(":", 1)[1]) for n, line in enumerate(text.splitlines(), 1)
            if ":" in line and not line.lstrip().startswith("#")]
