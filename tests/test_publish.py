"""Publish-ready in a real browser: every page of every language loads with no console error,
no failed request and no request to another host; axe-core finds no serious or critical
violation at desktop and phone widths; the 404 pages work; quiz options stay beside their
controls on a phone; table headings stay in view; the colour scheme follows the system."""
from __future__ import annotations

import re

import pytest

from conftest import SITE_URL

LANGS = ("en", "hi", "vi")
WIDTHS = {"desktop": (1280, 900), "phone": (375, 800)}
# One page of every kind: home, overview, a comparison, the full matrix, a guide with quizzes,
# code and a Markdown table, a guide whose code has operators, the glossary, the translation
# status and the 404 page.
KINDS = ("index.html", "providers.html", "compare/kubernetes.html", "compare/all.html",
         "guides/billing-idle-cost.html", "guides/kubernetes-ml-workloads.html", "guides/spot-capacity.html", "glossary.html",
         "status.html", "404.html")


def _url(lang: str, rel: str) -> str:
    return f"/{'' if lang == 'en' else lang + '/'}{rel}"


def _pages(site, lang: str) -> list[str]:
    """Every built page of one language (the other languages' folders are not in English's)."""
    root = site if lang == "en" else site / lang
    skip = [] if lang != "en" else [site / other for other in LANGS if other != "en"]
    return sorted("/" + p.relative_to(site).as_posix() for p in root.rglob("*.html")
                  if not any(p.is_relative_to(s) for s in skip))


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_loads_without_console_errors_or_failed_requests(page, server, built_site, lang):
    """One page goes through the language's every page, keeping its cache as a reader's browser
    does; a request to another host fails the test (the `page` fixture). The search worker is
    waited for on the first page of each folder, where its relative paths differ; elsewhere a
    navigation may cut it off, which is not a fault of the site."""
    pg = page
    problems: list[str] = []
    here = {"url": ""}
    pg.on("console", lambda m: m.type == "error" and problems.append(f"{here['url']}: console: {m.text}"))
    pg.on("pageerror", lambda e: problems.append(f"{here['url']}: page error: {e}"))
    # A request the browser drops because the test moves on (the favicon, fetched after `load`)
    # is not a fault of the site; any answer of 400 or more is caught by the next line.
    pg.on("requestfailed", lambda r: r.failure != "net::ERR_ABORTED"
          and problems.append(f"{here['url']}: failed: {r.url} ({r.failure})"))
    pg.on("response", lambda r: r.status >= 400 and problems.append(f"{here['url']}: {r.status} {r.url}"))
    paths = _pages(built_site, lang)
    folders = set()
    for path in paths:
        here["url"] = path
        pg.goto(server + path, wait_until="load")
        if path.rsplit("/", 1)[0] not in folders:
            folders.add(path.rsplit("/", 1)[0])
            _search_ready(pg)   # the search worker has fetched its index and languages
    assert len(paths) >= 50 and len(folders) >= 4
    assert problems == [], problems


def _search_ready(pg) -> None:
    pg.wait_for_function("""() => {
        const meta = document.querySelector('.md-search-result__meta');
        const cfg = JSON.parse(document.getElementById('__config').textContent);
        return meta && meta.textContent.trim() === cfg.translations['search.result.placeholder'];
    }""")


def _serious(results) -> list[str]:
    out = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            out += [f"{v['id']} ({v['impact']}): {n['target']}" for n in v["nodes"]]
    return out


def _axe_over(browser, server, paths, scheme: str | None = None, rules: tuple[str, ...] = (),
              **context_args) -> dict[str, list[str]]:
    """Serious and critical axe-core findings per page, each page loaded with its search
    ready; `scheme` is the colour scheme the page must be in; `rules`, if given, the only
    axe rules to run."""
    from axe_playwright_python.sync_playwright import Axe
    axe = Axe()
    context = browser.new_context(**context_args)
    pg = context.new_page()
    found = {}
    for path in paths:
        pg.goto(server + path, wait_until="load")
        _search_ready(pg)
        if scheme:
            assert pg.get_attribute("body", "data-md-color-scheme") == scheme, path
        options = {"resultTypes": ["violations"]}
        if rules:
            options["runOnly"] = {"type": "rule", "values": list(rules)}
        bad = _serious(axe.run(pg, options=options))
        if bad:
            found[path] = bad
    context.close()
    return found


def _kinds_for(lang: str, width: str) -> list[str]:
    """Half the kinds for each language and width, alternating, so that every kind is checked
    in every language and at both widths, and every language at both widths, in half the runs
    of the full product (`make audit` runs every page at both widths)."""
    j, w = LANGS.index(lang), sorted(WIDTHS).index(width)
    return [rel for k, rel in enumerate(KINDS) if (k + j + w) % 2 == 0]


def test_the_axe_plan_covers_every_kind_in_every_language_and_at_both_widths():
    plan = {(lang, width, rel) for lang in LANGS for width in WIDTHS for rel in _kinds_for(lang, width)}
    assert {(lang, rel) for lang, _, rel in plan} == {(lang, rel) for lang in LANGS for rel in KINDS}
    assert {(width, rel) for _, width, rel in plan} == {(width, rel) for width in WIDTHS for rel in KINDS}
    assert {(lang, width) for lang, width, _ in plan} == {(lang, width) for lang in LANGS for width in WIDTHS}


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_serious_or_critical_violation(browser, server, lang, width):
    w, h = WIDTHS[width]
    paths = [_url(lang, rel) for rel in _kinds_for(lang, width)]
    assert _axe_over(browser, server, paths, viewport={"width": w, "height": h}) == {}


def test_axe_finds_no_serious_or_critical_violation_in_the_dark_scheme(browser, server):
    """Pages whose code uses every colour of the theme's highlighting, in each language. Only
    the colours change with the scheme, so only the contrast rule runs."""
    paths = ("/index.html", "/guides/spot-capacity.html", "/guides/billing-idle-cost.html",
             "/hi/guides/storage.html", "/vi/guides/gpu-sharing.html", "/compare/kubernetes.html")
    assert _axe_over(browser, server, paths, scheme="slate", rules=("color-contrast",), color_scheme="dark",
                     viewport={"width": 1280, "height": 900}) == {}


@pytest.mark.parametrize("lang", ["hi", "vi"])
def test_404_page_searches_its_language_and_links_to_language_homes(page, server, lang):
    page.goto(f"{server}/{lang}/404.html")
    links = page.eval_on_selector_all("a.md-select__link", "els => els.map(e => [e.hreflang, e.href])")
    assert dict(links) == {"en": f"{server}/index.html", "hi": f"{server}/hi/index.html", "vi": f"{server}/vi/index.html"}
    page.keyboard.press("/")
    box = page.locator("input.md-search__input")
    box.fill("Kubernetes")
    box.press("End")
    page.wait_for_selector(".md-search-result__item > a")
    hrefs = page.eval_on_selector_all(".md-search-result__item > a", "els => els.map(e => e.href)")
    assert hrefs and all(h.startswith(f"{server}/{lang}/") for h in hrefs)


@pytest.mark.parametrize("lang", LANGS)
def test_quiz_options_stay_beside_their_controls_on_a_phone(browser, server, lang):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    pg = context.new_page()
    pg.goto(server + _url(lang, "guides/kubernetes-ml-workloads.html"))
    boxes = pg.eval_on_selector_all(".atlas-quiz__option", """els => els.map(o => {
        const i = o.querySelector('input').getBoundingClientRect(), l = o.querySelector('label').getBoundingClientRect();
        return [i.top, i.bottom, l.top, l.left - i.right]; })""")
    context.close()
    assert len(boxes) >= 8
    for input_top, input_bottom, label_top, gap in boxes:
        assert label_top < input_bottom and gap >= 0 and gap < 20   # same line, just right of the control


def test_table_headings_stay_visible_while_a_long_table_scrolls_on_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    pg = context.new_page()
    pg.goto(server + "/compare/all.html")
    box = pg.locator(".atlas-table__scroll").first
    box.focus()
    box.evaluate("el => el.scrollBy(0, 1200)")
    after = pg.evaluate("""() => { const s = document.querySelector('.atlas-table__scroll');
        return [s.scrollTop, document.querySelector('.atlas-table__scroll thead th').getBoundingClientRect().top,
                s.getBoundingClientRect().top]; }""")
    context.close()
    scrolled, head_top, box_top = after
    assert scrolled > 500
    assert abs(head_top - box_top) < 2   # the heading row sits at the top of the scrolled box


@pytest.mark.parametrize("scheme, expected", [("dark", "slate"), ("light", "default")])
def test_colour_scheme_follows_the_system_and_can_be_switched(browser, server, scheme, expected):
    context = browser.new_context(color_scheme=scheme)
    pg = context.new_page()
    pg.goto(server + "/hi/index.html")
    assert pg.get_attribute("body", "data-md-color-scheme") == expected
    labels = pg.eval_on_selector_all("form[data-md-component=palette] label", "els => els.map(e => e.title)")
    assert labels and all(any("\u0900" <= c <= "\u097f" for c in t) for t in labels)   # named in Hindi
    pg.locator("form[data-md-component=palette] label:visible").first.click()
    assert pg.get_attribute("body", "data-md-color-scheme") in ("default", "slate")
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_phone_navigation_drawer_works_by_keyboard_and_stays_out_of_the_tab_order_when_closed(browser, server, lang):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    pg = context.new_page()
    pg.goto(server + _url(lang, "guides/storage.html"))
    _search_ready(pg)
    in_drawer = "() => !!document.activeElement.closest('.md-sidebar--primary')"
    stops = []
    for _ in range(25):   # past the header into the page: never inside the closed drawer
        pg.keyboard.press("Tab")
        stops.append(pg.evaluate(in_drawer))
    assert not any(stops)
    button = pg.locator("label.md-header__button[for=__drawer]")
    assert button.get_attribute("role") == "button" and button.get_attribute("aria-expanded") == "false"
    assert button.get_attribute("aria-label") == pg.get_attribute(".md-nav--primary", "aria-label")
    button.focus()
    pg.keyboard.press("Enter")
    assert pg.is_checked("#__drawer") and button.get_attribute("aria-expanded") == "true"
    pg.wait_for_function("() => document.querySelector('.md-sidebar--primary').getBoundingClientRect().left >= 0")   # slid in
    for _ in range(40):   # the open drawer's links are reachable, and on screen
        pg.keyboard.press("Tab")
        if pg.evaluate(in_drawer):
            break
    assert pg.evaluate(in_drawer)
    assert pg.evaluate("() => document.activeElement.getBoundingClientRect().left >= 0")
    pg.keyboard.press("Escape")
    assert not pg.is_checked("#__drawer")
    assert pg.evaluate("() => document.activeElement.matches('label.md-header__button[for=__drawer]')")
    context.close()


def _luminance(rgb: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_focused_quiz_buttons_keep_text_contrast_of_at_least_4_5(browser, server, scheme):
    context = browser.new_context(color_scheme=scheme)
    pg = context.new_page()
    pg.goto(server + "/guides/storage.html")
    q = pg.locator("[data-atlas-quiz] fieldset").first
    q.locator("input").first.check()
    ratios = []
    for button in (q.locator("[data-retry]"), pg.locator("[data-atlas-quiz] [data-reset]").first):
        button.focus()
        pg.wait_for_timeout(300)   # past the theme's colour transition
        fg, bg = button.evaluate("b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]")
        assert bg.startswith("rgb("), bg   # an opaque fill: a transparent one would not be measured here
        light, dark = sorted((_luminance(fg), _luminance(bg)), reverse=True)
        ratios.append((light + 0.05) / (dark + 0.05))
    context.close()
    assert all(r >= 4.5 for r in ratios), ratios
