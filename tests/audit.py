"""Accessibility and network audit of every built page (`make audit`: a report, and a gate that
exits 1 on any problem; the test workflow runs it after `make test`).

Builds the site for a local address, serves it on 127.0.0.1, and opens every page of every
language in Debian's Chromium at 1280 and 375 px: console errors, failed requests, requests
to another host, and axe-core violations by impact. The browser tests open every page in one
language and every kind of page in every language on each run; this opens all of them in all,
which takes minutes.
"""
from __future__ import annotations

import collections
import functools
import http.server
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hooks"))

from conftest import LANGS, CHROMIUM, FLAGS, ROOT, TABLES_READY, VOICES, _Quiet, free_port, mkdocs_build  # noqa: E402

WIDTHS = {"1280": (1280, 900), "375": (375, 800)}


def main() -> int:
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import sync_playwright
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        result = mkdocs_build(ROOT, site, site_url=origin + "/")
        if result.returncode:
            print(result.stdout + result.stderr)
            return 1
        handler = functools.partial(_Quiet, directory=str(site))
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        pages = sorted("/" + p.relative_to(site).as_posix() for p in site.rglob("*.html"))
        counts = collections.Counter()
        worst: dict[str, set[str]] = collections.defaultdict(set)
        axe = Axe()
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for width, (w, h) in WIDTHS.items():
                context = browser.new_context(viewport={"width": w, "height": h})
                context.add_init_script(VOICES)   # the listen tool shows, as for a reader whose browser speaks
                context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(origin)
                              else (counts.update(["other host"]), route.abort()))
                pg = context.new_page()
                here = {"path": ""}
                pg.on("console", lambda m: m.type == "error" and counts.update(["console error"]))
                pg.on("pageerror", lambda e: counts.update(["page error"]))
                # A request cut off by the next navigation (the search worker's, the favicon) is not
                # a fault of the site, as in the browser tests.
                pg.on("requestfailed", lambda r: r.failure != "net::ERR_ABORTED" and counts.update(["failed request"]))
                pg.on("response", lambda r: r.status >= 400 and counts.update(["http error"]))
                for path in pages:
                    here["path"] = path
                    lang = path.split("/")[1] if path.split("/")[1] in LANGS[1:] else "en"
                    pg.goto(origin + path, wait_until="load")
                    pg.wait_for_timeout(150)
                    pg.wait_for_function(TABLES_READY)
                    for v in axe.run(pg).response["violations"]:
                        counts[(lang, width, v["impact"])] += len(v["nodes"])
                        if v["impact"] in ("serious", "critical"):
                            worst[v["id"]].add(path)
                context.close()
            browser.close()
        httpd.shutdown()
    print(f"{len(pages)} pages x {len(WIDTHS)} widths")
    for key in ("console error", "page error", "failed request", "http error", "other host"):
        print(f"{key:16} {counts[key]}")
    print(f"{'language':9}{'width':>6}{'critical':>10}{'serious':>9}{'moderate':>10}{'minor':>7}")
    for lang in LANGS:
        for width in WIDTHS:
            print(f"{lang:9}{width:>6}" + "".join(f"{counts[(lang, width, i)]:>{n}}" for i, n in
                                                  (("critical", 10), ("serious", 9), ("moderate", 10), ("minor", 7))))
    for rule, where in sorted(worst.items()):
        print(f"  {rule}: {len(where)} pages, e.g. {sorted(where)[:3]}")
    bad = sum(counts[k] for k in ("console error", "page error", "failed request", "http error", "other host"))
    bad += sum(v for k, v in counts.items() if isinstance(k, tuple) and k[2] in ("serious", "critical"))
    print("verdict:", "clean" if bad == 0 else f"{bad} problems")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
