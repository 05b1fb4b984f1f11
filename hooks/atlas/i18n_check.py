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
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import files, glossary, history, languages as site_languages, leaks, markers, reader, sanitize, structure, translations, yamlsrc
from .data import load_atlas
from .problems import DataError, Problem, annotation, in_github_actions
from .pages import prose_lines

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Report:
    failures: list[str] = field(default_factory=list)   # must be fixed
    notes: list[str] = field(default_factory=list)      # outdated: listed, not failing
    table: list[tuple[str, int, int, int, int]] = field(default_factory=list)
    # still in English, per language, smallest first: (language, words, what to translate)
    todo: list[tuple[str, int, str]] = field(default_factory=list)
    strings: list[str] = field(default_factory=list)        # data strings whose English changed since: listed
    untranslated: list[str] = field(default_factory=list)   # English-only notes: listed, not failing


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


def check(root: Path = ROOT, languages: tuple[str, ...] | None = None) -> Report:
    """Run every translation check under `root` (by default for the languages its mkdocs.yml lists)."""
    files.forget()   # folders' real locations are worked out afresh for each run, as for each build
    languages = languages or site_languages.codes(root)
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
    broken = set()   # pages whose front matter is broken: read past it, every other check would mislead
    for path, text in sorted(texts.items()):
        found += sanitize.page_problems(text, path.relative_to(root).as_posix())
        if sanitize.split_front_matter(text, "", [])[0] is None:
            broken.add(path)
    report.failures += [str(p) for p in sorted(set(found))]
    if file_problems:   # the checks below read every page; fix these first
        return report
    if atlas is not None:
        ctx = lambda lang: markers.Context(  # noqa: E731
            atlas, lang, dt.date.today(), "",
            extra={"status": lambda: translations.render_status(atlas, docs, lang),
                   **markers.reader_blocks(atlas, lang, dt.date.today(), lambda: reader.for_markers(root, atlas), root)},
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
            path = docs / lang / s.page
            if path in broken or docs / "en" / s.page in broken:
                continue   # its front matter problem is reported; state and structure would be guesses
            if s.outdated:
                why = "never synced" if s.recorded is None else f"translates {s.recorded}, English is now {s.current}"
                report.notes.append(f"{rel}: outdated ({why}); see what changed: `make i18n-diff PAGE={s.page} "
                                    f"LANGS={lang}`; update it, then run `make i18n-sync PAGE={s.page} LANGS={lang}`")
            text = texts[path]
            for n, key, value in sanitize.front_matter_prose(text):
                for _, sentence in leaks.find_in_lines([(n, value)], lang, keep):
                    report.failures.append(f"{rel}:{n}: English left in a {lang} page (front matter {key}): {sentence!r}")
            for n, sentence in leaks.find_in_lines(prose_lines(text), lang, keep):
                report.failures.append(f"{rel}:{n}: English left in a {lang} page: {sentence!r}")
            report.failures += _structure(root, docs, s, path, texts, report.notes)
        extra = sorted(p.relative_to(docs / lang).as_posix() for p in texts
                       if p.is_relative_to(docs / lang) and not (docs / "en" / p.relative_to(docs / lang)).exists())
        for page in extra:
            report.failures.append(f"docs/{lang}/{page}:1: page has no English original docs/en/{page}")
        report.failures += _data_leaks(root, lang, keep)
        if atlas is not None:
            _data_strings(root, lang, languages[0], report)
        report.todo += _todo(root, lang, [s.page for s in states if not s.exists], texts)
        report.table.append((lang, len(en_pages), sum(s.exists and not s.outdated for s in states),
                             sum(s.exists and s.outdated for s in states), sum(not s.exists for s in states)))
    return report


def _data_strings(root: Path, lang: str, english: str, report: Report) -> None:
    """Data strings of `lang` whose English changed since they were synced, and notes it lacks."""
    rel, en_rel = f"data/i18n/{lang}.yaml", f"data/i18n/{english}.yaml"
    for s in translations.untranslated_notes(root, lang, english):
        report.untranslated.append(f"{rel}:{s.line}: key '{s.key}': English only ({en_rel}:{s.english_line}); the site "
                                   "shows the English note, marked as not yet translated; translate it next to this line")
    states = translations.string_states(root, lang, english)
    if states is None:
        report.strings.append(f"{rel}: no record of the English its strings translate "
                              f"({translations.WORDS_RECORD.format(lang=lang)}); once they are up to date, "
                              f"run `make i18n-sync PAGE={rel}`")
        return
    for s in states:
        if s.outdated:
            why = "never synced" if s.recorded is None else f"translates {s.recorded}, English is now {s.current}"
            report.strings.append(f"{rel}:{s.line}: key '{s.key}': outdated ({why}; English: {en_rel}:{s.english_line}); "
                                  f"update it, then run `make i18n-sync PAGE={rel}:{s.key}`")



def _structure(root: Path, docs: Path, s, path: Path, texts: dict, notes: list[str]) -> list[str]:
    """Failures for a translation whose own structure is broken. A translation that is merely
    behind its English page (outdated: English gained a heading, a link, a marker since the
    sync) is compared with the English version it translates, found in git history by its
    source_hash: what differs only from today's English is listed with the outdated pages, never
    a failure. A page never synced is held to today's English."""
    rel = f"docs/{s.lang}/{s.page}"
    differences = structure.compare(docs / "en" / s.page, path, texts)
    if not differences or not s.outdated or s.recorded is None:
        return [f"{rel}:{n}: {message}" for n, message in differences]
    synced = history.english_synced(root, s.page, s.recorded)
    if synced is None:
        own = [(n, m) for n, m in differences if m.startswith("the page has no text")]
        where = "the English version it translates is not in this clone's history"
    else:
        own = structure.compare_text(synced[1], texts[path])
        where = f"against the English it translates (commit {synced[0][:7]})"
    if own:
        return [f"{rel}:{n}: {message} ({where})" for n, message in own]
    notes += [f"{rel}:{n}: behind its English page, not broken: {message}" for n, message in differences]
    return []


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
                 if ":" in line and not line.lstrip().startswith("#")
                 and not site_languages.MARKED.search(line)]   # English kept on purpose: counted in _todo
        for n, sentence in leaks.find_in_lines(lines, lang, keep):
            out.append(f"{rel}:{n}: English left in {lang} data: {sentence!r}")
    return out


def _todo(root: Path, lang: str, missing: list[str], texts: dict[Path, str]) -> list[tuple[str, int, str]]:
    """What `lang` still has in English, each with its words, smallest first: the pages not yet
    translated (shown in English with a notice) and the values marked `# untranslated`."""
    out = []
    for page in missing:
        words = sum(len(line.split()) for _, line in prose_lines(texts.get(root / "docs" / "en" / page, "")))
        out.append((lang, words, f"docs/{lang}/{page}: {words:,} words, not yet translated (from docs/en/{page})"))
    for item in site_languages.untranslated(root, lang):
        n = len(item.lines)
        out.append((lang, item.words, f"{item.file}:{item.lines[0]}: {n} value{'s' if n != 1 else ''} still in English, "
                                      f"{item.words:,} words (lines marked `# untranslated`)"))
    return sorted(out, key=lambda t: (t[1], t[2]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make i18n", description=__doc__.split("\n")[0])
    parser.add_argument("--sync", metavar="PAGE", help="page under docs/<lang>/, e.g. guides/storage.md")
    parser.add_argument("--lang", default="", help="languages to sync (default: every translation)")
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    if args.sync is not None:
        langs = args.lang.split(",") if args.lang else list(site_languages.codes(args.root)[1:])
        return _sync(args.root, args.sync, langs)
    report = check(args.root)
    print(f"{'language':<10}{'pages':>7}{'translated':>12}{'outdated':>10}{'missing':>9}")
    for lang, total, done, old, missing in report.table:
        print(f"{lang:<10}{total:>7}{done:>12}{old:>10}{missing:>9}")
    for line in report.notes + report.strings:
        print(f"outdated: {line}")
    for line in report.untranslated:
        print(f"untranslated: {line}")
    for lang in dict.fromkeys(lang for lang, _, _ in report.todo):
        items = [line for la, _, line in report.todo if la == lang]
        words = sum(n for la, n, _ in report.todo if la == lang)
        print(f"to translate ({lang}), smallest first: {len(items)} item(s), {words:,} words")
        for line in items:
            print(f"  {line}")
    for line in report.failures:
        print(f"error: {line}")
    if in_github_actions():   # the same problems, on the lines of the pull request's diff
        for line in report.notes + report.strings:   # listed, not failing
            print(annotation(line, "warning"))
        for line in report.failures:
            print(annotation(line))
        _step_summary(args.root, report)
    if report.failures:
        print(f"\n{len(report.failures)} problem(s) to fix. CONTRIBUTING.md explains each kind.")
        return 1
    listed = [f"{n} {what}" for n, what in ((len(report.notes), "outdated page(s)"),
                                            (len(report.strings), "outdated data string(s)"),
                                            (len(report.untranslated), "untranslated note(s)")) if n]
    print("\nTranslations OK" + (f" ({', '.join(listed)} listed above)." if listed else "."))
    return 0


def _sync(root: Path, page: str, langs: list[str]) -> int:
    if not page:
        print("usage: make i18n-sync PAGE=guides/storage.md [LANGS=hi]  (a page)\n"
              "       make i18n-sync PAGE=data/i18n/hi.yaml[:notes.runpod]  (data strings: all, or a key or section)",
              file=sys.stderr)
        return 2
    if page.startswith("data/i18n"):
        return _sync_words(root, page, langs)
    folders = ("docs/", *(f"{lang}/" for lang in site_languages.codes(root)))
    page = page.removeprefix("docs/").split("/", 1)[1] if page.startswith(folders) else page
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


def _sync_words(root: Path, target: str, langs: list[str]) -> int:
    """`make i18n-sync PAGE=data/i18n/hi.yaml[:key]`: record that the strings (all, or those under
    a key or section) translate the current English. data/i18n/<English>.yaml or data/i18n: LANGS."""
    path, _, prefix = target.partition(":")
    codes = site_languages.codes(root)
    m = re.fullmatch(r"data/i18n/?(?:([^/]+)\.yaml)?", path)
    if not m or (m.group(1) and m.group(1) not in codes):
        print(f"error: {path} is not a words file; allowed: data/i18n/<language>.yaml, one of "
              f"{', '.join(codes)}", file=sys.stderr)
        return 1
    chosen = [m.group(1)] if m.group(1) and m.group(1) != codes[0] else langs
    status = 0
    for lang in chosen:
        try:
            matched, changed = translations.sync_words(root, lang, prefix, codes[0])
        except (files.FileProblem, OSError, UnicodeDecodeError) as exc:
            print(f"error: data/i18n/{lang}.yaml: {exc}", file=sys.stderr)
            status = 1
            continue
        if not matched:
            print(f"error: data/i18n/{lang}.yaml: no translated key {prefix!r}", file=sys.stderr)
            status = 1
            continue
        what = f"{matched} string(s)" + (f" under {prefix!r}" if prefix else "")
        print(f"data/i18n/{lang}.yaml: " + (f"recorded the current English of {changed} of {what}" if changed
                                             else f"{what} already current"))
    return status


# --- GitHub Actions: the job summary ------------------------------------------------------------

def touched_languages(root: Path, languages: tuple[str, ...]) -> tuple[str, ...]:
    """The languages whose files a pull request changes (git diff against its base branch,
    origin/$GITHUB_BASE_REF); a change to English touches every language. Every language when
    the base cannot be compared (a push, a shallow clone) or no language file changed."""
    base = os.environ.get("GITHUB_BASE_REF")
    if not base:
        return languages
    try:
        result = subprocess.run(["git", "-c", "safe.directory=*", "-C", str(root), "diff", "--name-only",
                                 f"origin/{base}...HEAD"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return languages
    if result.returncode != 0:
        return languages
    found: set[str] = set()
    for path in result.stdout.splitlines():
        m = re.match(r"^(?:docs/([^/]+)/|data/i18n/([^/]+)\.yaml$|data/quizzes/([^/]+)/)", path)
        lang = m and next(g for g in m.groups() if g)
        if lang in languages:
            found |= set(languages) if lang == languages[0] else {lang}
    return tuple(la for la in languages if la in found) or languages


def _step_summary(root: Path, report: Report) -> None:
    """The translation status of the languages the pull request touches, as Markdown in the
    job's summary ($GITHUB_STEP_SUMMARY)."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    codes = tuple(lang for lang, *_ in report.table)
    shown = touched_languages(root, codes)

    def mine(line: str, lang: str) -> bool:
        return line.startswith((f"docs/{lang}/", f"data/i18n/{lang}.yaml", f"data/quizzes/{lang}/"))

    out = ["## Translations", "", "| language | pages | translated | outdated | missing | words still in English | problems |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for lang, total, done, old, missing in report.table:
        if lang in shown:
            words = sum(n for la, n, _ in report.todo if la == lang)
            problems = sum(1 for line in report.failures if mine(line, lang))
            out.append(f"| {lang} | {total} | {done} | {old} | {missing} | {words:,} | {problems} |")
    others = len(report.failures) - sum(1 for line in report.failures if any(mine(line, la) for la in codes))
    if others:
        out.append(f"\n{others} problem(s) outside the language folders (data, glossary).")
    notes = [line for line in report.notes if any(line.startswith(f"docs/{lang}/") for lang in shown)]
    if notes:
        out += ["", "Outdated translations:", ""] + [f"- {line}" for line in notes]
    out.append("")
    with open(target, "a", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


if __name__ == "__main__":
    sys.exit(main())
