"""Publish-ready in a real browser: every page (in one language; every kind of page in every
language) loads with no console error, no failed request and no request to another host, and
every reference of every page is a built file; axe-core finds no serious or critical violation
at desktop and phone widths and in the dark scheme; the 404 pages work; quiz options stay beside
their controls on a phone; table headings stay in view; the colour scheme follows the system."""
from __future__ import annotations

import functools
import re

import pytest

from conftest import SITE_URL, TABLES_READY, VOICES

from atlas import search_split
from conftest import LANGS  # noqa: E402  (the languages in mkdocs.yml)
WIDTHS = {"desktop": (1280, 900), "phone": (375, 800)}
# One page of every kind: home, overview, a comparison, the full matrix, a guide with quizzes,
# code and a Markdown table, a guide whose code has operators, the glossary, the translation
# status, the 404 page, a provider's page and the chooser with two needs ticked.
KINDS = ("index.html", "providers.html", "compare/kubernetes.html", "compare/all.html",
         "guides/billing-idle-cost.html", "guides/kubernetes-ml-workloads.html", "guides/spot-capacity.html", "glossary.html",
         "status.html", "404.html", "providers/runpod.html", "compare/choose.html?need=mig&need=spot")


def _url(lang: str, rel: str) -> str:
    return f"/{'' if lang == 'en' else lang + '/'}{rel}"


def _pages(site, lang: str) -> list[str]:
    """Every built page of one language (the other languages' folders are not in English's)."""
    root = site if lang == "en" else site / lang
    skip = [] if lang != "en" else [site / other for other in LANGS if other != "en"]
    return sorted("/" + p.relative_to(site).as_posix() for p in root.rglob("*.html")
                  if not any(p.is_relative_to(s) for s in skip))


def _walk(site, lang: str) -> list[str]:
    """The pages the browser walk opens in one language: the pages at the top (home, overview,
    glossary, status, 404), and a third of each folder's pages (guides, comparisons, providers):
    the k-th page of a folder opens in LANGS[k % len(LANGS)]. A page's languages differ in words, not in
    what runs or loads: no page may hold a script or an element outside the allowlist, and the
    same templates and markers make the rest. So every page opens in one language, and every
    language opens every folder (the search worker's paths differ by folder) and its top pages;
    the axe runs open every kind of page in every language, watching the console and requests
    too. The static test below checks every reference of every page, and `make audit` opens
    every page in every language."""
    folders: dict[str, list[str]] = {}
    for path in _pages(site, lang):
        folder = path.rsplit("/", 1)[0]
        folders.setdefault(folder if lang == "en" else folder[len(lang) + 1:], []).append(path)
    mine = []
    for folder, paths in folders.items():
        mine += paths if folder == "" else [p for k, p in enumerate(sorted(paths)) if LANGS[k % len(LANGS)] == lang]
    return sorted(mine)


def test_the_walk_opens_every_page_in_some_language_and_the_top_pages_in_every_language(built_site):
    walked = {lang: set(_walk(built_site, lang)) for lang in LANGS}

    def _in_en(path, lang):
        return path if lang == "en" else path[len(lang) + 1:]

    opened = [_in_en(p, lang) for lang in LANGS for p in walked[lang]]
    everything = set(_pages(built_site, "en"))
    top = {p for p in everything if p.count("/") == 1}
    assert set(opened) == everything                          # every page, in some language
    assert all(opened.count(p) == (len(LANGS) if p in top else 1) for p in everything)
    folders = {p.rsplit("/", 1)[0] for p in everything}   # a new page may open a new folder
    assert {"", "/guides", "/compare", "/providers"} <= folders
    for lang in LANGS:
        assert {_in_en(p, lang).rsplit("/", 1)[0] for p in walked[lang]} == folders


@pytest.mark.long
@pytest.mark.parametrize("lang", LANGS)
def test_every_page_loads_without_console_errors_or_failed_requests(page, server, built_site, lang):
    """One page goes through the language's walk (above), keeping its cache as a reader's browser
    does; a request to another host fails the test (the `page` fixture). The search worker is
    waited for on the first page of each folder, where its relative paths differ; elsewhere a
    navigation may cut it off, which is not a fault of the site. No page fetches Material's
    wordcut.js (662 KB, a Thai word splitter its search worker loads for an index in "hi"; ours
    is "hin", whose pipeline does not use it)."""
    pg = page
    problems: list[str] = []
    here = {"url": ""}
    requested = []
    pg.context.on("request", lambda r: requested.append(r.url))   # the search worker's too
    _watch(pg, lambda problem: problems.append(f"{here['url']}: {problem}"))
    paths = _walk(built_site, lang)
    folders = set()
    for path in paths:
        here["url"] = path
        pg.goto(server + path, wait_until="load")
        if path.rsplit("/", 1)[0] not in folders:
            folders.add(path.rsplit("/", 1)[0])
            _search_ready(pg)   # the search worker has fetched its index and languages
    assert len(paths) >= 45 // len(LANGS) and len(folders) == len({p.rsplit("/", 1)[0] for p in _pages(built_site, "en")}) >= 4
    assert problems == [], problems
    lunr = f"/lunr/min/lunr.{search_split.lunr_language(built_site, lang)}.min.js"   # hi: hin, ta: uni
    if lunr != "/lunr/min/lunr.en.min.js":   # English needs no language file: this shows the worker's requests are seen
        assert any(u.endswith(lunr) for u in requested), lunr
    assert not [u for u in requested if "wordcut" in u]


def _watch(pg, report) -> None:
    """Report console errors, script errors, failed requests and answers of 400 or more. A
    request the browser drops because the test moves on (the favicon, fetched after `load`) is
    not a fault of the site."""
    pg.on("console", lambda m: m.type == "error" and report(f"console: {m.text}"))
    pg.on("pageerror", lambda e: report(f"page error: {e}"))
    pg.on("requestfailed", lambda r: r.failure != "net::ERR_ABORTED" and report(f"failed: {r.url} ({r.failure})"))
    pg.on("response", lambda r: r.status >= 400 and report(f"{r.status} {r.url}"))


_REFERENCE = re.compile(r'<(a|link|script|img|source|iframe)\b[^>]*?\s(href|src)="([^"]*)"', re.I)


def test_every_reference_in_every_page_is_a_built_file(built_site):
    """What the walk cannot afford to open: every page of every language, every link and every
    resource it names, resolved as a browser resolves it, is a file in the built site (another
    host only in links, which the browser does not fetch; test_build holds resources to this
    host)."""
    from urllib.parse import unquote, urljoin, urlsplit
    base = SITE_URL
    missing, count, pages = [], 0, 0
    for path in sorted(built_site.rglob("*.html")):
        pages += 1
        url = base + path.relative_to(built_site).as_posix()
        for tag, _, ref in _REFERENCE.findall(path.read_text(encoding="utf-8")):
            target = urljoin(url, ref.replace("&amp;", "&"))
            if not target.startswith(base):
                assert tag.lower() == "a" or target.startswith(("data:",)), f"{path}: {ref}"
                continue
            count += 1
            rel = unquote(urlsplit(target).path[len(urlsplit(base).path):])
            file = built_site / rel
            if rel == "" or rel.endswith("/"):
                file = file / "index.html"
            if not file.is_file():
                missing.append(f"{path.relative_to(built_site)}: {ref}")
    assert pages >= 150 and count >= 10000
    assert missing == [], missing[:20]


def _search_ready(pg) -> None:
    pg.wait_for_function("""() => {
        const meta = document.querySelector('.md-search-result__meta');
        const cfg = JSON.parse(document.getElementById('__config').textContent);
        return meta && meta.textContent.trim() === cfg.translations['search.result.placeholder'];
    }""")
    pg.wait_for_function(TABLES_READY)


def _serious(response: dict) -> list[str]:
    out = []
    for v in response["violations"]:
        if v["impact"] in ("serious", "critical"):
            out += [f"{v['id']} ({v['impact']}): {n['target']}" for n in v["nodes"]]
    return out


def _axe_over(browser, server, paths, scheme: str | None = None, rules: tuple[str, ...] = (),
              article_contrast_elsewhere: frozenset[str] = frozenset(), article_only: frozenset[str] = frozenset(),
              **context_args) -> dict[str, list[str]]:
    """Serious and critical axe-core findings per page, each page loaded with its search
    ready; `scheme` is the colour scheme the page must be in; `rules`, if given, the only
    axe rules to run; `article_contrast_elsewhere`, pages whose article another run checks for
    contrast (here only the page around it is); `article_only`, pages checked in their article
    alone."""
    from axe_playwright_python.sync_playwright import Axe
    axe = Axe()
    context = browser.new_context(**context_args)
    context.add_init_script(VOICES)
    pg = context.new_page()
    found: dict[str, list[str]] = {}
    here = {"path": ""}
    _watch(pg, lambda problem: found.setdefault(here["path"], []).append(problem))
    for path in paths:
        here["path"] = path
        pg.goto(server + path, wait_until="load")
        _search_ready(pg)
        if scheme:
            assert pg.get_attribute("body", "data-md-color-scheme") == scheme, path
        options = {"resultTypes": ["violations"]}
        if rules:
            options["runOnly"] = {"type": "rule", "values": list(rules)}
        if path in article_contrast_elsewhere:
            options["rules"] = {"color-contrast": {"enabled": False}}
        where = {"include": [["article.md-content__inner"]]} if path in article_only else None
        bad = _serious(axe.run(pg, context=where, options=options).response)
        if path in article_contrast_elsewhere:
            bad += _serious(pg.evaluate("""() => axe.run({exclude: [['article.md-content__inner']]},
                {runOnly: {type: 'rule', values: ['color-contrast']}, resultTypes: ['violations']})"""))
        if bad:
            found.setdefault(path, []).extend(bad)
    context.close()
    return found


def _kinds_for(lang: str, width: str) -> list[str]:
    """Half the kinds for each language and width, alternating, so that every kind is checked
    in every language and at both widths, and every language at both widths, in half the runs
    of the full product (`make audit` runs every page at both widths)."""
    j, w = LANGS.index(lang), sorted(WIDTHS).index(width)
    return [rel for k, rel in enumerate(KINDS) if (k + j + w) % 2 == 0]


_TAG = re.compile(r'<([a-z][a-z0-9]*)\b(?:[^>]*?\sclass="([^"]*)")?', re.I)


@functools.lru_cache(maxsize=None)
def _article(site, path: str) -> tuple[frozenset, int]:
    """The kinds of element in a page's article, as (tag, classes) pairs, and the article's size."""
    html = (site / path.split("?")[0].lstrip("/")).read_text(encoding="utf-8")
    start = html.index('<article class="md-content__inner')
    article = html[start: html.index("</article>", start)]
    return frozenset((tag.lower(), " ".join(sorted(classes.split()))) for tag, classes in _TAG.findall(article)), len(article)


def _elements(site, lang: str, rel: str) -> frozenset:
    return _article(site, _url(lang, rel))[0]


def _article_contrast_elsewhere(site, lang: str, width: str) -> frozenset[str]:
    """The pages of one run whose article (the page's own content) another run checks for colour
    contrast. Contrast is nine tenths of axe's time (2.5 s on the full matrix); it depends on
    colours and text sizes, which the theme and our CSS set per element, never per language and,
    inside the article, never per width (two tests below hold the CSS to that). What a language
    can change is which elements its page has. So a kind's article is checked in the run whose
    page has the most kinds of element, and again in any run whose page has one that page lacks;
    the rest of every page (header, navigation, drawer, footer), which does change with the
    width, is checked in every run."""
    skip = set()
    for rel in _kinds_for(lang, width):
        runs = [(other, w) for other in LANGS for w in sorted(WIDTHS) if rel in _kinds_for(other, w)]
        pages = {other: _elements(site, other, rel) for other, _ in runs}
        checker = max(runs, key=lambda run: (len(pages[run[0]]), -LANGS.index(run[0]), -sorted(WIDTHS).index(run[1])))
        if (lang, width) != checker and pages[lang] <= pages[checker[0]]:
            skip.add(_url(lang, rel))
    return frozenset(skip)


def test_the_axe_plan_covers_every_kind_in_every_language_and_at_both_widths(built_site):
    plan = {(lang, width, rel) for lang in LANGS for width in WIDTHS for rel in _kinds_for(lang, width)}
    assert {(lang, rel) for lang, _, rel in plan} == {(lang, rel) for lang in LANGS for rel in KINDS}
    assert {(width, rel) for _, width, rel in plan} == {(width, rel) for width in WIDTHS for rel in KINDS}
    assert {(lang, width) for lang, width, _ in plan} == {(lang, width) for lang in LANGS for width in WIDTHS}
    articles = [rel for lang, width, rel in plan if _url(lang, rel) not in _article_contrast_elsewhere(built_site, lang, width)]
    assert set(articles) == set(KINDS) and len(articles) < len(plan)   # every kind's article, not every run's


_CSS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_LOOKS = re.compile(r"(?:^|;)\s*(color|background|background-color|font|font-size|font-weight|opacity)\s*:")


def _media_blocks(css: str):
    """(query, body) of each @media block of a stylesheet."""
    for m in re.finditer(r"@media([^{]*)\{", css):
        depth, end = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        yield m.group(1).strip(), css[m.end(): end - 1]


def test_only_line_height_differs_between_languages_in_our_css(built_site):
    """What lets one language's contrast check stand for the others'."""
    css = (built_site / "assets/atlas/atlas.css").read_text(encoding="utf-8")
    by_language = [(sel, body) for sel, body in _CSS_RULE.findall(css) if re.search(r"\[lang|:lang\(", sel)]
    assert by_language, "no language rule found: is the pattern still right?"
    for selector, body in by_language:
        properties = {d.split(":")[0].strip() for d in body.split(";") if d.strip()}
        assert properties <= {"line-height"}, f"{selector.strip()}: {sorted(properties)}"
    for path in (built_site / "assets/stylesheets").glob("*.css"):   # the theme's own CSS has none
        assert not re.search(r"\[lang|:lang\(", path.read_text(encoding="utf-8")), path


def test_no_screen_width_changes_colours_or_text_sizes_inside_the_article(built_site):
    """What lets one width's contrast check of the article stand for the other's: every rule
    that a screen width turns on and that sets a colour, background, opacity or text size is
    for the page around the article, or for the root at widths above both of ours."""
    chrome = ("md-nav", "md-search", "md-overlay", "md-sidebar", "md-tabs", "md-header", "md-footer")
    widest = max(w for w, _ in WIDTHS.values()) / 16   # in em, as the queries are written
    found = 0
    for path in [*(built_site / "assets/stylesheets").glob("*.css"), built_site / "assets/atlas/atlas.css"]:
        for query, block in _media_blocks(path.read_text(encoding="utf-8")):
            if "width" not in query:
                continue
            for selectors, body in _CSS_RULE.findall(block):
                if not _LOOKS.search(body):
                    continue
                for selector in selectors.split(","):
                    found += 1
                    if selector.strip() == "html":
                        at = re.search(r"min-width:\s*([\d.]+)em", query)
                        assert at and float(at.group(1)) > widest, f"{path.name}: @media {query} {{ html }}"
                    else:
                        assert any(c in selector for c in chrome), f"{path.name}: @media {query} {{ {selector.strip()} }}"
    assert found >= 20   # the theme's navigation and search do change: the pattern still reads them


@pytest.mark.long
@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_serious_or_critical_violation(browser, server, built_site, lang, width):
    w, h = WIDTHS[width]
    paths = [_url(lang, rel) for rel in _kinds_for(lang, width)]
    assert _axe_over(browser, server, paths, article_contrast_elsewhere=_article_contrast_elsewhere(built_site, lang, width),
                     viewport={"width": w, "height": h}) == {}


def _dark_pages(site) -> list[str]:
    """Pages whose articles hold, between them, every kind of element that any article of the
    site holds: each pick is the page with the most kinds not yet held for its cost (a page's
    load costs about what 20 kB of article does)."""
    kinds = {path: _article(site, path) for lang in LANGS for path in _pages(site, lang)}
    left, picked = set().union(*(k for k, _ in kinds.values())), []
    while left:
        best = max(sorted(kinds), key=lambda path: len(kinds[path][0] & left) / (kinds[path][1] + 20_000))
        picked.append(best)
        left -= kinds[best][0]
    return picked


def test_the_dark_pages_hold_every_kind_of_element(built_site):
    picked = _dark_pages(built_site)
    held = set().union(*(_article(built_site, path)[0] for path in picked))
    everything = {kind for lang in LANGS for path in _pages(built_site, lang) for kind in _article(built_site, path)[0]}
    assert held == everything and len(everything) >= 100   # tags and classes are read (137 today)
    assert any("/guides/" in path for path in picked) and len(picked) < 18   # 15 since "What changed" and quote translations


@pytest.mark.long
def test_axe_finds_no_serious_or_critical_violation_in_the_dark_scheme(browser, server, built_site):
    """Pages that hold every kind of element (tag and classes) found in any article of the site
    (_dark_pages: so every colour of the theme's code highlighting too), in the dark scheme.
    Only the colours change with the scheme, so only the contrast rule runs: on the whole of
    one guide (the navigation and contents around it too) and on the others' articles."""
    paths = _dark_pages(built_site)
    whole = next(path for path in paths if "/guides/" in path)
    assert _axe_over(browser, server, paths, scheme="slate", rules=("color-contrast",),
                     article_only=frozenset(paths) - {whole},
                     color_scheme="dark", viewport={"width": 1280, "height": 900}) == {}


@pytest.mark.parametrize("lang", ["hi", "vi"])
def test_404_page_searches_its_language_and_links_to_language_homes(page, server, lang):
    page.goto(f"{server}/{lang}/404.html")
    links = page.eval_on_selector_all("a.md-select__link", "els => els.map(e => [e.hreflang, e.href])")
    assert dict(links) == {code: f"{server}/" + ("" if code == "en" else f"{code}/") + "index.html" for code in LANGS}
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
    assert scrolled > 300   # compact rows: the whole matrix is about 1,250 px tall at 375 px
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
    assert pg.get_attribute("label.md-header__button[for=__drawer]", "role") is None   # a label takes no role
    button = pg.locator("label.md-header__button[for=__drawer] > .atlas-drawer-button")
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
    assert pg.evaluate("() => document.activeElement.matches('label[for=__drawer] > .atlas-drawer-button')")
    context.close()


def _luminance(rgb: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_focused_quiz_and_listen_buttons_keep_text_contrast_of_at_least_4_5(browser, server, scheme):
    context = browser.new_context(color_scheme=scheme)
    context.add_init_script(VOICES)
    pg = context.new_page()
    pg.goto(server + "/guides/storage.html")
    q = pg.locator("[data-atlas-quiz] fieldset").first
    q.locator("input").first.check()
    ratios = []
    for button in (q.locator("[data-retry]"), pg.locator("[data-atlas-quiz] [data-reset]").first,
                   pg.locator("[data-listen-play]")):
        button.focus()
        pg.wait_for_timeout(300)   # past the theme's colour transition
        fg, bg = button.evaluate("b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]")
        assert bg.startswith("rgb("), bg   # an opaque fill: a transparent one would not be measured here
        light, dark = sorted((_luminance(fg), _luminance(bg)), reverse=True)
        ratios.append((light + 0.05) / (dark + 0.05))
    context.close()
    assert all(r >= 4.5 for r in ratios), ratios
