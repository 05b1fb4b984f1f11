"""Lighthouse (mobile) on every kind of page in every language (`make lighthouse`: a report, and a
gate that exits 1 when a page misses a target; not part of `make test`, as `make audit`).

    make lighthouse                       # build for a local address, serve with gzip, 24 runs (minutes)
    python tests/lighthouse.py --site S --port P   # a site already built for http://127.0.0.1:P/
    python tests/lighthouse.py --only guide --lang hi --json out.json
    python tests/lighthouse.py --only matrix --reports /tmp/lh      # keep the full reports to read

Lighthouse 12.2.3 (the last that runs on Node 20) is installed pinned into .lighthouse/ beside
this repository (npm i -E, never globally) the first time. The site is served on 127.0.0.1 with
gzip, as a static host serves it; Lighthouse runs in Debian's Chromium with its default mobile
settings (Moto G Power screen, simulated slow 4G and 4x CPU slowdown). Targets: performance
>= 95, accessibility, best practices and SEO 100. The last line is the verdict.

Lighthouse's simulated TBT is this machine's own task times, four times over: when other jobs
share the two cores, performance drops by 10 to 20 points on any page, at random. RUNS=3 (make
lighthouse RUNS=3) runs each page three times and keeps the median run.
"""
from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hooks"))

from conftest import PAGE_KINDS, ROOT, free_port, mkdocs_build  # noqa: E402

VERSION = "12.2.3"
CACHE = ROOT / ".lighthouse"
CLI = CACHE / "node_modules" / "lighthouse" / "cli" / "index.js"
# Debian's full Chromium: Lighthouse drives it in its new headless mode (the headless shell lacks
# some of what the best-practices audits ask of the browser).
CHROME = os.environ.get("ATLAS_LIGHTHOUSE_CHROME") or shutil.which("chromium") or "/usr/bin/chromium"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking " \
               "--disable-component-update --disable-sync"
from conftest import LANGS  # noqa: E402  (the languages in mkdocs.yml)
KINDS = PAGE_KINDS   # one page of each kind (tests/conftest.py)
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
COMPRESSIBLE = {".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".map"}


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzip-compressed (level 6, as common static hosts) for a client that accepts
    it; compressed bodies are kept in memory per path and file version."""
    cache: dict = {}
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (path.suffix not in COMPRESSIBLE or not path.is_file()
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        with self.lock:
            body = self.cache.get(key)
            if body is None:
                body = self.cache[key] = gzip.compress(path.read_bytes(), 6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        import io
        return io.BytesIO(body)

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass


def serve(site: Path, port: int) -> http.server.ThreadingHTTPServer:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(GzipHandler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def install() -> Path:
    """Lighthouse, pinned, in .lighthouse/ (installed once; again when the version differs)."""
    package = CACHE / "node_modules" / "lighthouse" / "package.json"
    if package.is_file() and json.loads(package.read_text())["version"] == VERSION:
        return CLI
    if not shutil.which("npm"):
        sys.exit("make lighthouse needs Node 20 and npm (Debian: apt-get install -y nodejs npm)")
    CACHE.mkdir(exist_ok=True)
    print(f"installing lighthouse@{VERSION} into {CACHE} ...", flush=True)
    subprocess.run(["npm", "i", "-E", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", str(CACHE),
                    f"lighthouse@{VERSION}"], check=True)
    return CLI


def run_one(cli: Path, url: str, out: Path) -> dict:
    cmd = ["node", str(cli), url, "--quiet", "--output=json", f"--output-path={out}", f"--chrome-path={CHROME}",
           f"--chrome-flags={CHROME_FLAGS}", "--only-categories=performance,accessibility,best-practices,seo",
           "--max-wait-for-load=45000"]
    for attempt in range(2):   # a rare "Chrome did not start" on a busy machine: once more
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if result.returncode == 0 and out.is_file():
            break
    else:
        raise RuntimeError(f"lighthouse failed on {url}:\n{result.stderr[-3000:]}")
    report = json.loads(out.read_text())
    cats, audits = report["categories"], report["audits"]
    score = lambda c: round(100 * cats[c]["score"]) if cats[c]["score"] is not None else -1  # noqa: E731
    failing = sorted(a for c in ("accessibility", "best-practices", "seo") for ref in cats[c]["auditRefs"]
                     if ref["weight"] and (a := ref["id"]) and audits[a]["score"] is not None and audits[a]["score"] < 1)
    return {"performance": score("performance"), "accessibility": score("accessibility"),
            "best-practices": score("best-practices"), "seo": score("seo"),
            "lcp": audits["largest-contentful-paint"]["numericValue"], "tbt": audits["total-blocking-time"]["numericValue"],
            "cls": audits["cumulative-layout-shift"]["numericValue"],
            "bytes": audits["total-byte-weight"]["numericValue"], "failing": failing,
            "benchmark_index": report.get("environment", {}).get("benchmarkIndex"),
            "shifts": [i.get("node", {}).get("selector", "") for i in
                       (audits.get("layout-shifts", {}).get("details") or {}).get("items", [])][:3]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site", type=Path, help="an already built site (default: build one for the local address)")
    ap.add_argument("--port", type=int, help="serve on this port (an already built site: the one it was built for)")
    ap.add_argument("--only", action="append", choices=sorted(KINDS), help="these kinds only")
    ap.add_argument("--lang", action="append", choices=LANGS, help="these languages only")
    ap.add_argument("--runs", type=int, default=int(os.environ.get("RUNS", "1")),
                    help="runs per page, the median run kept (as Lighthouse advises on a busy machine; RUNS=3)")
    ap.add_argument("--json", type=Path, help="write the figures here too")
    ap.add_argument("--reports", type=Path, help="keep each page's full Lighthouse report (JSON) in this folder")
    args = ap.parse_args(argv)
    cli = install()
    port = args.port or free_port()
    origin = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="atlas-lighthouse-") as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            result = mkdocs_build(ROOT, site, site_url=origin + "/")
            if result.returncode:
                print(result.stdout + result.stderr)
                return 1
        httpd = serve(site, port)
        rows = []
        try:
            for lang in args.lang or LANGS:
                for kind, path in KINDS.items():
                    if args.only and kind not in args.only:
                        continue
                    rel = path if lang == "en" else f"{lang}/{path}"
                    out = Path(tmp) / "report.json"
                    if args.reports:
                        args.reports.mkdir(parents=True, exist_ok=True)
                        out = args.reports / (f"{lang}-{kind}".replace(" ", "-") + ".json")
                    runs = sorted((run_one(cli, f"{origin}/{rel}", out) for _ in range(max(1, args.runs))),
                                  key=lambda r: (r["performance"], -r["tbt"]))
                    r = runs[len(runs) // 2]
                    rows.append({"page": f"{lang} {kind}", "path": rel, **r})
                    print(_row(rows[-1]), flush=True)
        finally:
            httpd.shutdown()
            httpd.server_close()
    print()
    print(_header())
    for r in rows:
        print(_row(r))
    misses = [f"{r['page']}: " + ", ".join(f"{c} {r[c]}" for c, target in TARGETS.items() if r[c] < target)
              + (f" ({', '.join(r['failing'])})" if r["failing"] else "")
              for r in rows if any(r[c] < target for c, target in TARGETS.items())]
    for m in misses:
        print("  " + m)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    print("verdict:", f"all {len(rows)} pages meet perf >= 95, a11y 100, best practices 100, SEO 100" if not misses
          else f"{len(misses)} of {len(rows)} pages miss a target (perf >= 95, a11y 100, best practices 100, SEO 100)")
    return 0 if not misses else 1


def _header() -> str:
    return f"{'page':18}{'perf':>5}{'LCP ms':>8}{'TBT ms':>8}{'CLS':>7}{'a11y':>6}{'BP':>5}{'SEO':>5}{'KB':>6}"


def _row(r: dict) -> str:
    return (f"{r['page']:18}{r['performance']:>5}{r['lcp']:>8.0f}{r['tbt']:>8.0f}{r['cls']:>7.3f}{r['accessibility']:>6}"
            f"{r['best-practices']:>5}{r['seo']:>5}{r['bytes'] / 1024:>6.0f}")


if __name__ == "__main__":
    sys.exit(main())
