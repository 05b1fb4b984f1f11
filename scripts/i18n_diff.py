"""`make i18n-diff PAGE=guides/storage.md LANGS=hi`: what changed in English since a translation
was last caught up.

A translation records in its front matter (`source_hash:`, written by `make i18n-sync`) the hash
of the English text it translates (hooks/atlas/pages.py: source_hash). This finds, in the git
history of docs/en/PAGE, the commit whose English text has that hash, and prints the unified diff
from it to the English page as it is now: exactly what the translator has to catch up on.

    python scripts/i18n_diff.py PAGE [--lang hi,vi] [--root DIR]

Exit status 0 when every diff was printed (or there was nothing to catch up), 1 when a
translation was never synced, is missing, or its English text is not in the history.
"""
from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "hooks"))

from atlas import files, history, languages, translations  # noqa: E402
from atlas.pages import source_hash  # noqa: E402


class NotFound(Exception):
    """The diff cannot be shown; the message says why and what to do."""


def git(root: Path, *args: str) -> bytes:
    try:
        return history.git(root, *args)
    except history.GitProblem as exc:
        raise NotFound(str(exc)) from None


def english_versions(root: Path, page: str):
    """(commit, text) of docs/en/<page> in each commit that changed it, newest first."""
    try:
        yield from history.english_versions(root, page)
    except history.GitProblem as exc:
        raise NotFound(str(exc)) from None


def diff(root: Path, page: str, lang: str) -> str:
    """The unified diff of docs/en/<page> from the text docs/<lang>/<page> translates to today's."""
    docs = root / "docs"
    en_path, own_path = docs / "en" / page, docs / lang / page
    try:
        english = files.read_text(en_path, root)
    except files.FileProblem as exc:
        raise NotFound(f"docs/en/{page}: {exc}; every page starts in English (is PAGE right?)") from None
    try:
        own = files.read_text(own_path, root)
    except files.FileProblem as exc:
        raise NotFound(f"docs/{lang}/{page}: {exc}: not translated yet, so there is nothing to catch up; "
                       f"translate docs/en/{page} whole") from None
    recorded = translations.front_matter(own).get(translations.HASH_KEY)
    if recorded is None:
        raise NotFound(f"docs/{lang}/{page} was never synced: its front matter has no source_hash, so nothing "
                       f"records which English text it translates. Compare it with docs/en/{page} by hand, then "
                       f"run `make i18n-sync PAGE={page} LANGS={lang}`")
    recorded = str(recorded)
    if recorded == source_hash(english):
        return ""
    for commit, text in english_versions(root, page):
        if source_hash(text) == recorded:
            when = git(root, "log", "-1", "--format=%h %cs %s", commit).decode().strip()
            lines = difflib.unified_diff(text.splitlines(keepends=True), english.splitlines(keepends=True),
                                         f"a/docs/en/{page}", f"b/docs/en/{page}")
            head = (f"# docs/{lang}/{page} translates docs/en/{page} as of commit {when}\n"
                    f"# (source_hash {recorded}); the English page has changed since:\n")
            return head + "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                                  for line in lines)
    shallow = git(root, "rev-parse", "--is-shallow-repository").decode().strip() == "true"
    if shallow:
        raise NotFound(f"docs/{lang}/{page} translates an English text (source_hash {recorded}) that is not in "
                       "this clone's history, which is shallow: run `git fetch --unshallow`, then try again")
    raise NotFound(f"docs/{lang}/{page} translates an English text (source_hash {recorded}) that no commit of "
                   f"docs/en/{page} has (it was synced against a version never committed here, or on another "
                   f"branch): compare with docs/en/{page} by hand, then run `make i18n-sync PAGE={page} LANGS={lang}`")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make i18n-diff", description=__doc__.split("\n")[0])
    parser.add_argument("page", nargs="?", default="", help="page under docs/<lang>/, e.g. guides/storage.md")
    parser.add_argument("--lang", default="", help="languages, e.g. hi,vi (default: every translation)")
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    codes = languages.codes(root)
    page = args.page.strip()
    if not page:
        print("usage: make i18n-diff PAGE=guides/storage.md [LANGS=hi]", file=sys.stderr)
        return 2
    if page.startswith(("docs/", *(f"{lang}/" for lang in codes))):
        page = page.removeprefix("docs/").split("/", 1)[1]
    langs = [la for la in args.lang.split(",") if la] or list(codes[1:])
    status = 0
    for lang in langs:
        if lang not in codes[1:]:
            print(f"error: LANGS={lang}: not a translation; use one of: {' '.join(codes[1:])}", file=sys.stderr)
            status = 1
            continue
        try:
            text = diff(root, page, lang)
        except NotFound as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 1
            continue
        print(text, end="") if text else print(f"docs/{lang}/{page}: up to date with docs/en/{page}; nothing to catch up")
    return status


if __name__ == "__main__":
    sys.exit(main())
