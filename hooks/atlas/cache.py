"""One validated `Atlas` per process, reloaded only when a file under data/ changes."""
from __future__ import annotations

import gc
from pathlib import Path

from .data import Atlas, load_atlas

_cache: dict[Path, tuple[tuple, Atlas]] = {}


def atlas_for(root: Path) -> Atlas:
    """The validated data under `root/data`, from cache while no data file has changed."""
    stamp = tuple(sorted((str(p), _mtime(p)) for p in (root / "data").rglob("*.yaml")))
    hit = _cache.get(root)
    if hit and hit[0] == stamp:
        return hit[1]
    paused = gc.isenabled()
    gc.disable()   # loading builds a large tree that lives until validated: collections only cost time
    try:
        atlas = load_atlas(root)
    finally:
        if paused:
            gc.enable()
    _cache[root] = (stamp, atlas)
    return atlas


def current(root: Path) -> Atlas:
    """The Atlas last loaded for `root`, without looking at data/ again: for the events of one
    build, after `atlas_for` in `on_config` has checked the files once."""
    hit = _cache.get(root)
    return hit[1] if hit else atlas_for(root)


def _mtime(path: Path) -> tuple[int, int]:
    """Modification time (of what the path leads to) and the path's own inode, or -1s for a
    path that cannot be read (load_atlas says why). The inode changes when a file is replaced,
    by a symlink too: a link out of the repository to a copy with the same time is read, and
    refused, rather than taken for the file validated before."""
    try:
        return path.stat().st_mtime_ns, path.lstat().st_ino
    except OSError:
        return -1, -1
