"""One validated `Atlas` per process, reloaded only when a file under data/ changes."""
from __future__ import annotations

from pathlib import Path

from .data import Atlas, load_atlas

_cache: dict[Path, tuple[tuple, Atlas]] = {}


def atlas_for(root: Path) -> Atlas:
    """The validated data under `root/data`, from cache while no data file has changed."""
    stamp = tuple(sorted((str(p), p.stat().st_mtime_ns) for p in (root / "data").rglob("*.yaml")))
    hit = _cache.get(root)
    if hit and hit[0] == stamp:
        return hit[1]
    atlas = load_atlas(root)
    _cache[root] = (stamp, atlas)
    return atlas
