"""Draw the link-preview image (og:image) of each language: the site's name and description in
that language, 1200 x 630 px, in headless Chromium with the system's Noto fonts.

    .venv/bin/python scripts/make_og_images.py        # writes overrides/assets/atlas/og-<lang>.png

Run it again when a language is added or the site's name or description changes; a language
without its own image shows the English one (overrides/main.html).
"""
from __future__ import annotations

import html
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "hooks"))

from atlas import languages  # noqa: E402

CARD = """<!doctype html><html lang="{lang}"><meta charset="utf-8"><style>
html,body{{margin:0;width:1200px;height:630px}}
body{{display:flex;flex-direction:column;justify-content:center;padding:0 96px;box-sizing:border-box;
background:#1a237e;color:#fff;font-family:"Noto Sans","Noto Sans Devanagari",sans-serif}}
.mark{{display:flex;gap:14px;margin-bottom:40px}} .mark span{{width:56px;height:56px;border-radius:10px;background:#7986cb}}
.mark span:nth-child(2){{background:#c5cae9}} .mark span:nth-child(3){{background:#fff}}
h1{{font-size:84px;line-height:1.15;margin:0 0 28px}} p{{font-size:36px;line-height:1.4;margin:0;color:#e8eaf6;max-width:1000px}}
</style><div class="mark"><span></span><span></span><span></span></div><h1>{name}</h1><p>{description}</p></html>"""


def main() -> int:
    from playwright.sync_api import sync_playwright
    config = languages.load_config(ROOT)
    entries = languages.i18n_options(config)["languages"]
    out = ROOT / "overrides" / "assets" / "atlas"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1200, "height": 630})
        for entry in entries:
            lang = entry["locale"]
            name = entry.get("site_name") or config["site_name"]
            description = entry.get("site_description") or config["site_description"]
            page.set_content(CARD.format(lang=lang, name=html.escape(name), description=html.escape(description)))
            page.screenshot(path=str(out / f"og-{lang}.png"))
            print(f"overrides/assets/atlas/og-{lang}.png: {name}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
