"""`make i18n`: translation status and checks for translators, in seconds.

Prints, per language, the pages that are translated, outdated or missing; data keys missing
or extra against English; English sentences left in Hindi or Vietnamese text; and pages
whose structure differs from English. Every finding names file and line.
Exit status 1 on anything a translator must fix; outdated pages are listed but do not fail.

    python -m atlas.i18n_check                 # report and check
    python -m atlas.i18n_check --sync PAGE     # record that hi/vi PAGE is caught up
"""
from __future__ import annotations

import argparse
import datetime as dt
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import files, glossary, leaks, markers, reader, sanitize, structure, translations, yamlsrc
from .data import LANGUAGES, load_atlas
from .problems import DataError, Problem
from .pages import prose_lines

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Report:
    failures: list[str] = field(default_factory=list)   # must be fixed
    notes: list[str] = field(default_factory=list)      # outdated: listed, not failing
    table: list[tuple[str, int, int, int, int]] = field(default_factory=list)


def keep_terms(root: Path, problems: list[Problem] | None = None) -> frozenset[str]:
    """Terms the English-leak check ignores: data/keep-terms.yaml plus provider names."""
    problems = [] if problems is None else problems
    doc = yamlsrc.load(root / "data" / "keep-terms.yaml", "data/keep-terms.yaml", problems, root)
    terms: list[str] = []
    if doc is not None:
        data = doc.data if isinstance(doc.data, dict) else {}
        for key in data:
            if key != "terms":
                problems.append(Problem(doc.path, doc.line(key), f"key '{key}'", "unknown key, allowed: terms"))
        raw = data.get("terms")
        if not isinstance(raw, list):
            problems.append(Problem(doc.path, doc.line("terms"), "key 'terms'",
                                    "expected a 'terms:' list of technical names"))
            raw = []
        for i, term in enumerate(raw):
            if isinstance(term, str) and term.strip():
                terms.append(term)
            else:
                problems.append(Problem(doc.path, doc.line("terms", i), f"term #{i + 1}",
                                        f"found {term!r}, allowed: a technical name as text"))
    names = []
    providers = yamlsrc.load(root / "data" / "providers.yaml", "data/providers.yaml", [], root)
    data = providers.data if providers is not None and isinstance(providers.data, dict) else {}
    for p in data.get("providers") if isinstance(data.get("providers"), list) else []:
        if isinstance(p, dict) and isinstance(p.get("name"), str):
            names.append(p["name"])
    # longest first, so "NVIDIA GPU Operator" goes before "NVIDIA"
    return frozenset(sorted(set(terms) | set(names), key=len, reverse=True))


def check(root: Path = ROOT, languages: tuple[str, ...] = LANGUAGES) -> Report:
    """Run every translation check under `root`."""
    files.forget()   # folders' real locations are worked out afresh for each run, as for each build
    report = Report()
    docs = root / "docs"
    atlas = None
    try:
        atlas = load_atlas(root, languages)
    except DataError as exc:
        report.failures += [str(p) for p in exc.problems]
    try:
        terms = glossary.load(root, languages)
    except DataError as exc:
        report.failures += [str(p) for p in exc.problems]
        terms = ()
    report.failures += glossary.check_tree(root, terms, tuple(la for la in languages if la != "en"))
    found: list[Problem] = []
    keep = keep_terms(root, found)
    file_problems, texts = sanitize.check_docs(docs, root, languages)
    found += file_problems
    for path, text in sorted(texts.items()):
        found += sanitize.page_problems(text, path.relative_to(root).as_posix())
    report.failures += [str(p) for p in sorted(set(found))]
    if file_problems:   # the checks below read every page; fix these first
        return report
    if atlas is not None:
        ctx = lambda lang: markers.Context(  # noqa: E731
            atlas, lang, dt.date.today(), "",
            extra={"status": lambda: translations.render_status(atlas, docs, lang),
                   **markers.reader_blocks(atlas, lang, dt.date.today(), lambda: reader.load(root, atlas))},
            terms=tuple(terms))
        report.failures += markers.check_tree(docs, texts, ctx)
    en_pages = translations.english_pages(docs)
    for lang in languages:
        if lang == "en":
            report.table.append((lang, len(en_pages), len(en_pages), 0, 0))
            continue
        states = [translations.state(docs, lang, p) for p in en_pages]
        for s in states:
            rel = f"docs/{lang}/{s.page}"
            if not s.exists:
                continue  # the build shows it with a "not yet translated" notice
            if s.outdated:
                why = "never synced" if s.recorded is None else f"translates {s.recorded}, English is now {s.current}"
                report.notes.append(f"{rel}: outdated ({why}); update it, then run "
                                    f"`make i18n-sync PAGE={s.page} LANGS={lang}`")
            path = docs / lang / s.page
            text = texts[path]
            for n, sentence in leaks.find_in_lines(prose_lines(text), lang, keep):
                report.failures.append(f"{rel}:{n}: English left in a {lang} page: {sentence!r}")
            for n, message in structure.compare(docs / "en" / s.page, path, texts):
                report.failures.append(f"{rel}:{n}: {message}")
        extra = sorted(p.relative_to(docs / lang).as_posix() for p in texts
                       if p.is_relative_to(docs / lang) and not (docs / "en" / p.relative_to(docs / lang)).exists())
        for page in extra:
            report.failures.append(f"docs/{lang}/{page}:1: page has no English original docs/en/{page}")
        report.failures += _data_leaks(root, lang, keep)
        report.table.append((lang, len(en_pages), sum(s.exists and not s.outdated for s in states),
                             sum(s.exists and s.outdated for s in states), sum(not s.exists for s in states)))
    return report


def _data_leaks(root: Path, lang: str, keep: frozenset[str]) -> list[str]:
    """English left in a language's data translations (i18n strings and quiz texts)."""
    out = []
    paths = [root / "data" / "i18n" / f"{lang}.yaml", *sorted((root / "data" / "quizzes" / lang).glob("*.yaml"))]
    for path in paths:
        try:
            text = files.read_text(path, root)
        except files.FileProblem:
            continue   # load_atlas has reported it
        rel = path.relative_to(root).as_posix()
        lines = [(n, line.split(":", 1)[1]) for n, line in enumerate(text.split("\n"), 1)
                 if ":" in line and not line.lstrip().startswith("#")]
        for n, sentence in leaks.find_in_lines(lines, lang, keep):
            out.append(f"{rel}:{n}: English left in {lang} data: {sentence!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make i18n", description=__doc__.split("\n")[0])
    parser.add_argument("--sync", metavar="PAGE", help="page under docs/<lang>/, e.g. guides/storage.md")
    parser.add_argument("--lang", default="hi,vi", help="languages to sync (default: hi,vi)")
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    if args.sync is not None:
        return _sync(args.root, args.sync, args.lang.split(","))
    report = check(args.root)
    print(f"{'language':<10}{'pages':>7}{'translated':>12}{'outdated':>10}{'missing':>9}")
    for lang, total, done, old, missing in report.table:
        print(f"{lang:<10}{total:>7}{done:>12}{old:>10}{missing:>9}")
    for line in report.notes:
        print(f"outdated: {line}")
    for line in report.failures:
        print(f"error: {line}")
    if report.failures:
        print(f"\n{len(report.failures)} problem(s) to fix. CONTRIBUTING.md explains each kind.")
        return 1
    print("\nTranslations OK" + (f" ({len(report.notes)} outdated page(s) listed above)." if report.notes else "."))
    return 0


def _sync(root: Path, page: str, langs: list[str]) -> int:
    if not page:
        print("usage: make i18n-sync PAGE=guides/storage.md [LANGS=hi]", file=sys.stderr)
        return 2
    page = page.removeprefix("docs/").split("/", 1)[1] if page.startswith(("docs/", "en/", "hi/", "vi/")) else page
    status = 0
    for lang in langs:
        try:
            changed = translations.sync(root / "docs", lang, page)
            print(f"docs/{lang}/{page}: {'recorded current English source' if changed else 'already current'}")
        except FileNotFoundError as exc:
            print(f"error: {exc} does not exist", file=sys.stderr)
            status = 1
        except (files.FileProblem, OSError, UnicodeDecodeError) as exc:
            print(f"error: docs/{lang}/{page}: {exc}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
