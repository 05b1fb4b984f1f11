"""Reading contributor files safely: regular files inside the repository, bounded, strict UTF-8.

Every refusal is a `FileProblem` whose text says what is wrong in words a contributor can act
on; callers prefix the file name. Nothing here follows a path out of the repository or reads
more than `limit` bytes, so a symlink to /dev/zero or a huge file fails at once.
"""
from __future__ import annotations

import os
import stat
from functools import lru_cache
from pathlib import Path

MAX_BYTES = 8_000_000   # providers.yaml is ~130 kB for 30 providers, ~4 MB for 1,000 (make bench); pages ~20 kB


class FileProblem(ValueError):
    """A file that cannot be used; the message says why (without the file name)."""

    def __init__(self, message: str, line: int = 1):
        super().__init__(message)
        self.line = line


def read_text(path: Path, root: Path, limit: int = MAX_BYTES) -> str:
    """The text of `path`, which must be a regular UTF-8 file of at most `limit` bytes whose
    real location (after any symlinks) is inside `root`."""
    check_inside(path, root)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise FileProblem("file is missing") from None
    except OSError as exc:
        raise FileProblem(f"cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise FileProblem("is a directory, expected a file")
    if not stat.S_ISREG(info.st_mode):
        raise FileProblem("is not a regular file (a device, pipe or socket)")
    if info.st_size > limit:
        raise FileProblem(f"is {info.st_size:,} bytes, allowed: at most {limit:,}")
    try:
        with open(path, "rb") as fh:   # what stat found, then anything written since (asking read()
            raw = fh.read(info.st_size + 1)   # for `limit` would allocate `limit` bytes every time)
            if len(raw) > info.st_size:
                raw += fh.read(limit + 1 - len(raw))
    except OSError as exc:
        raise FileProblem(f"cannot be read ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise FileProblem(f"is more than {limit:,} bytes, allowed: at most {limit:,}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise FileProblem(f"not valid UTF-8 ({exc.reason} at byte {exc.start})", line) from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")   # as open() reads text


def check_inside(path: Path, root: Path) -> None:
    """Refuse a path that is a dangling symlink or whose real location is outside `root`."""
    link = os.path.islink(path)
    if link and not os.path.exists(path):
        raise FileProblem(f"is a dangling symlink (to {os.readlink(path)})")
    real, base = real_file(path, link), real_path(root)
    if real != base and not real.startswith(base.rstrip(os.sep) + os.sep):   # both absolute and normalized
        raise FileProblem(f"points outside the repository (to {real}); allowed: files inside {base}")


def real_path(folder: Path | str) -> str:
    """The real location of a folder, worked out once per build (see `forget`): every page
    read asked again for its folder and every folder above it."""
    return _real(os.fspath(folder))


def real_file(path: Path | str, link: bool | None = None) -> str:
    """os.path.realpath(path): a file that is not a symlink itself is where its folder really
    is (`link`: whether it is a symlink, when the caller knows)."""
    raw = os.fspath(path)
    head, tail = os.path.split(os.path.abspath(raw))
    # ".." goes up from where a symlinked folder really is, and "a/b/" or "a/b/." follow b if
    # it is a link: realpath itself answers those.
    if not tail or raw.endswith(os.sep) or not _DOTS.isdisjoint(raw.split(os.sep)) \
            or (os.path.islink(raw) if link is None else link):
        return os.path.realpath(raw)
    return os.path.join(_real(head), tail)


_DOTS = frozenset({".", ".."})   # path components that are not names


def forget() -> None:
    """Drop the folders' real locations (at the start of each build: a folder may have become
    a symlink since the last one, under `make serve`)."""
    _real.cache_clear()


@lru_cache(maxsize=1024)
def _real(folder: str) -> str:
    return os.path.realpath(folder)


PAGE_NAMED_FOLDER = ("is a folder named like a page (its name ends in .md): MkDocs builds a page only from a file, "
                     "so no page is built here; allowed: a Markdown file named {stem}.md, or a folder named "
                     "without .md (such as {stem}/)")


def walk(folder: Path, root: Path, suffix: str) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Files ending in `suffix` under `folder` (following symlinks that stay inside `root`),
    and (path, problem) for every entry that cannot be used. Never loops."""
    found: list[Path] = []
    problems: list[tuple[Path, str]] = []
    seen: set[str] = set()

    def visit(d: Path) -> None:
        real = os.path.realpath(d)
        if real in seen:
            problems.append((d, "symlink loop: this folder was already visited"))
            return
        seen.add(real)
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError as exc:
            problems.append((d, f"cannot be listed ({exc.strerror or exc})"))
            return
        for e in entries:
            p = Path(e.path)
            if e.name.startswith("."):
                continue
            try:
                check_inside(p, root)
            except FileProblem as exc:   # MkDocs would publish it, whatever its name
                problems.append((p, str(exc)))
                continue
            if e.is_dir() and e.name.lower().endswith(".md"):
                problems.append((p, PAGE_NAMED_FOLDER.format(stem=e.name[:-3])))
            elif e.is_dir():
                visit(p)
            elif e.name.endswith(suffix):
                found.append(p)

    if folder.is_dir():
        visit(folder)
    return found, problems
