"""Build-time benchmark: ratios measured in one run (this machine is noisy; never a test).

    make bench            # 3 rounds of each variant, interleaved
    make bench ROUNDS=5

Variants, each a real `mkdocs build --strict` of a scratch copy:
  full      the site as it is
  no-tables the same pages with table and matrix markers removed (tables hook idle)
  bare      no markers and no hooks at all (plain MkDocs + Material + i18n)
Then the pure renderer at 100 and 1,000 synthetic providers, to show linear growth.
"""
from __future__ import annotations

import datetime as dt
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hooks"))

from conftest import ROOT, copy_repo, mkdocs_build  # noqa: E402
from atlas import tables  # noqa: E402
from atlas.data import load_atlas  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "3"))


def variant(base: Path, name: str) -> Path:
    root = copy_repo(base / name)
    if name in ("no-tables", "bare"):
        pattern = r"<!-- providers:[^>]*-->" if name == "no-tables" else r"<!-- (?:providers|quiz|i18n):[^>]*-->"
        for page in (root / "docs").rglob("*.md"):
            page.write_text(re.sub(pattern, "", page.read_text(encoding="utf-8")), encoding="utf-8")
    if name == "bare":
        cfg = root / "mkdocs.yml"
        cfg.write_text(re.sub(r"\nhooks:\n(  - .*\n)+", "\n", cfg.read_text(encoding="utf-8")), encoding="utf-8")
        (root / "overrides/404.html").unlink()   # it needs the hook's words
    return root


def timed_build(root: Path, out: Path) -> float:
    start = time.perf_counter()
    result = mkdocs_build(root, out)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(result.stdout + result.stderr)
    return elapsed


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        roots = {name: variant(base, name) for name in ("full", "no-tables", "bare")}
        times: dict[str, list[float]] = {name: [] for name in roots}
        for r in range(ROUNDS):
            for name, root in roots.items():   # interleaved, so drift hits every variant alike
                times[name].append(timed_build(root, base / f"site-{name}-{r}"))
        med = {name: statistics.median(v) for name, v in times.items()}
        pages = sum(1 for _ in (base / "site-full-0").rglob("*.html"))
        print(f"site build, 3 languages, {pages} HTML files, median of {ROUNDS} interleaved rounds:")
        for name in roots:
            print(f"  {name:<10} {med[name]:6.2f} s   ratio to bare {med[name] / med['bare']:.2f}")
        print(f"  tables hook share of the full build: {(med['full'] - med['no-tables']) / med['full']:.1%}")

    atlas = load_atlas(ROOT)
    today = dt.date.today()

    def scaled(n: int):
        ps = tuple(replace(atlas.providers[i % len(atlas.providers)], id=f"p{i}", name=f"Provider {i}") for i in range(n))
        return replace(atlas, providers=ps)

    def render_time(a) -> float:
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            tables.render_table(a, "hi", "all", table_id="b", today=today, report_url="")
            runs.append(time.perf_counter() - start)
        return statistics.median(runs)

    small, large = render_time(scaled(100)), render_time(scaled(1000))
    print(f"full matrix render, 100 vs 1,000 providers: {small * 1000:.1f} ms vs {large * 1000:.1f} ms, "
          f"ratio {large / small:.1f} (10.0 = linear)")


if __name__ == "__main__":
    main()
