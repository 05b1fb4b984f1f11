"""A wrong address under /hi/ or /vi/ shows the 404 page in that language (issue 35, item 1), on a
host that answers every missing path with the site's one 404.html, as GitHub Pages and
`make serve` do; without JavaScript that page reads in every language at once."""
from __future__ import annotations

import functools
import http.server
import threading

import pytest
from conftest import LANGS, _Quiet

from atlas import languages
from atlas.data import load_atlas
from conftest import ROOT

WORDS = load_atlas(ROOT)
LANGUAGES = languages.i18n_options(languages.load_config(ROOT))["languages"]


class _PagesLike(_Quiet):
    """A static host with one 404.html for every missing path (GitHub Pages)."""

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = (self.site / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@pytest.fixture(scope="module")
def pages_host(built_site):
    handler = functools.partial(type("H", (_PagesLike,), {"site": built_site}), directory=str(built_site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.mark.parametrize("lang", LANGS)
def test_a_missing_page_under_a_language_folder_answers_in_that_language(browser, pages_host, lang):
    context = browser.new_context()
    pg = context.new_page()
    missing = f"{pages_host}/{'' if lang == 'en' else lang + '/'}guides/no-such-guide.html"
    response = pg.goto(missing)
    assert response.status == 404
    title = WORDS.t(lang, "site.not_found_title")
    # The language's own page replaces the default one when its fetch returns. Waiting for its
    # words alone is not enough: a new language whose words are still English's (the
    # new-language suite's copy) shows them at once, in the default page.
    pg.wait_for_function("([t, l]) => document.documentElement.lang === l && document.querySelector('h1')"
                         " && document.querySelector('h1').textContent.includes(t)", arg=[title, lang])
    assert pg.evaluate("document.documentElement.lang") == lang
    assert title in pg.title()
    home = pg.locator(f"a:has-text('{WORDS.t(lang, 'site.not_found_home')}')").first
    assert home.get_attribute("href").endswith(f"{'' if lang == 'en' else lang + '/'}index.html")
    assert pg.url == missing   # the address the reader typed stays
    nav = pg.locator(".md-nav--primary").first.text_content()
    guides = next((e.get("nav_translations") or {}).get("Guides", "Guides") for e in LANGUAGES if e["locale"] == lang)
    assert guides in nav, (guides, nav[:200])   # the navigation in the page's language
    others = [o for o in LANGS if o != lang]
    assert all(not pg.locator(f"[data-atlas-404-lang='{o}']").is_visible() for o in others)
    context.close()


def test_without_javascript_the_404_page_reads_in_every_language(browser, pages_host):
    context = browser.new_context(java_script_enabled=False)
    pg = context.new_page()
    pg.goto(f"{pages_host}/vi/no-such-page.html")
    text = pg.locator("article").inner_text()
    for lang in LANGS:
        assert WORDS.t(lang, "site.not_found_title") in text, lang
        assert WORDS.t(lang, "site.not_found_home") in text, lang
    context.close()
