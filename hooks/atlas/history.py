"""The English text a translation was synced to, from git history.

A translation records in its front matter (`source_hash:`) the hash of the English page it
translates. When the English page has moved on, its history holds that version: `make i18n`
compares the translation with it (so a translation that is merely behind is outdated, not
broken), and `make i18n-diff` shows what changed since. Without git, or in a shallow clone that
lacks the version, the answer is None and callers say so.
"""
from __future__ import annotations

import subprocess
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from .pages import source_hash


class GitProblem(Exception):
    """git could not answer; the message says why."""


def git(root: Path, *args: str, stdin: bytes | None = None) -> bytes:
    try:
        result = subprocess.run(["git", "-c", "safe.directory=*", "-C", str(root), *args], input=stdin,
                                capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitProblem(f"git cannot be run ({getattr(exc, 'strerror', None) or exc}); install git to compare versions") from None
    if result.returncode != 0:
        raise GitProblem(f"git {args[0]} failed: {result.stderr.decode('utf-8', 'replace').strip()}")
    return result.stdout


def english_versions(root: Path, page: str) -> Iterator[tuple[str, str]]:
    """(commit, text) of docs/en/<page> in each commit that changed it, newest first."""
    path = f"docs/en/{page}"
    commits = git(root, "log", "--format=%H", "--", path).decode().split()
    if not commits:
        return
    # One git process for every version: `cat-file --batch` answers "<commit>:<path>" requests.
    out = git(root, "cat-file", "--batch", stdin="".join(f"{c}:{path}\n" for c in commits).encode())
    at = 0
    for commit in commits:
        header_end = out.index(b"\n", at)
        header = out[at:header_end].split()
        at = header_end + 1
        if len(header) < 3 or header[1] != b"blob":   # "<request> missing": deleted in that commit
            continue
        size = int(header[2])
        blob = out[at:at + size]
        at += size + 1
        yield commit, blob.decode("utf-8", "replace").replace("\r\n", "\n")


@lru_cache(maxsize=256)
def _synced(root: Path, page: str, recorded: str, head: str) -> tuple[str, str] | None:
    for commit, text in english_versions(root, page):
        if source_hash(text) == recorded:
            return commit, text
    return None


def english_synced(root: Path, page: str, recorded: str | None) -> tuple[str, str] | None:
    """(commit, text) of the English version whose hash a translation recorded, or None when it
    cannot be found (never synced, no git, not in this clone's history)."""
    if not recorded or not (root / ".git").exists():
        return None
    try:
        head = git(root, "rev-parse", "HEAD").decode().strip()
        return _synced(root, page, str(recorded), head)
    except GitProblem:
        return None
