"""Rendering of list values, the region filter's markup, the coverage line, the providers
overview and `make facts`, on small data made here (the real data has few list facts yet)."""
from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from atlas import facts, tables
from atlas.data import Fact, ListField, load_atlas

from conftest import LANGS, ROOT

TODAY = dt.date(2026, 12, 1)
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'
SRC = ("https://alpha.example/regions",)


def known(value, day=dt.date(2026, 11, 20)):
    return Fact(tuple(value), SRC, day)


@pytest.fixture(scope="module")
def small():
    """Three providers: one in India, one in Vietnam and the US, one all unknown."""
    real = load_atlas(ROOT)
    base = real.providers[0]
    unknown = {f: Fact("unknown") for f in real.all_fields}

    def provider(pid, name, **values):
        return replace(base, id=pid, name=name, facts=MappingProxyType({**unknown, **values}))

    providers = (
        provider("bharat", "Bharat GPU", regions=known(["IN"]), gpus=known(["H100", "L40S"]),
                 local_billing=known(["INR"]), spot=Fact("yes", SRC, dt.date(2026, 1, 2))),
        provider("saigon", "Saigon Cloud", regions=known(["VN", "US"]), gpus=known(["H200"]),
                 local_billing=known([])),
        provider("nowhere", "Nowhere Compute"),
    )
    # the region filter's own choices, made here too: India and Vietnam, each its readers' first
    return replace(real, providers=providers, region_choices=("IN", "VN"),
                   home_region=MappingProxyType({"hi": ("IN",), "vi": ("VN",)}))


def table(atlas, lang, group="regions-gpus"):
    return tables.render_table(atlas, lang, group, table_id="t", today=TODAY, report_url="https://report.example/new")


def row(html, pid):
    part = html[html.index(f'data-provider="{pid}"'):]
    return part[: part.index("</tr>")]


@pytest.mark.parametrize("lang", LANGS)
def test_countries_show_by_localized_name_with_their_code(small, lang):
    # each language's own name where its words give one (hi: countries.US), else CLDR's (test_i18n)
    india, vietnam, usa = (small.country(lang, code) for code in ("IN", "VN", "US"))
    html = table(small, lang)
    assert f'<span class="atlas-v__chip">{india}</span>' in row(html, "bharat")
    # the readers' own countries first, then by name in the page's language (Hindi review L8)
    from atlas import cells
    first, second = (small.country(lang, c) for c in cells.ordered(small, lang, "regions", ("VN", "US")))
    home = small.home_region.get(lang, ())
    assert (first == vietnam) == ("VN" in home or sorted([vietnam, usa], key=__import__("atlas").collation.key(lang))[0] == vietnam)
    assert f'<span class="atlas-v__chip">{first}</span><span class="atlas-v__chip">{second}</span>' in row(html, "saigon")
    assert f'data-value="VN US" data-words="{first}, {second}"' in row(html, "saigon")   # the filter finds every item
    assert 'data-regions="VN US"' in html and 'data-regions="IN"' in html and 'data-regions=""' in html


def test_gpus_are_a_list_and_currencies_have_words(small):
    html = table(small, "vi")
    assert '<span class="atlas-v__chip">H100</span><span class="atlas-v__chip">L40S</span>' in row(html, "bharat")
    inr = small.t("vi", "fields.local_billing.values.INR")
    assert f'<span class="atlas-v__chip">{inr}</span>' in row(html, "bharat")
    saigon = row(html, "saigon")
    assert f'">{small.t("vi", "fields.local_billing.empty")}</a></td>' in saigon
    assert 'atlas-v--no' in saigon
    nowhere = row(html, "nowhere")   # nothing sourced at all: not yet researched, in one cell
    assert 'class="atlas-table__pending" colspan="3"' in nowhere and "atlas-v" not in nowhere


def test_rows_with_a_list_come_before_unknown(small):
    ids = re.findall(r'<tr data-provider="([^"]+)"', table(small, "en"))
    assert ids == ["bharat", "saigon", "nowhere"]   # sourced lists by name, unknown last


@pytest.mark.parametrize("lang, first, second", [("en", "IN", "VN"), ("hi", "IN", "VN"), ("vi", "VN", "IN")])
def test_region_filter_puts_the_readers_country_first(small, lang, first, second):
    first, second = ((code, small.t(lang, "table.region_option", country=small.country(lang, code))) for code in (first, second))
    if lang == "en":   # no home country: by name
        assert small.country("en", "IN") < small.country("en", "VN")
    html = table(small, lang, "kubernetes")   # on every table, not just regions
    boxes = re.findall(r'<label( class="atlas-table__region--home")?><input type="checkbox" value="([A-Z]{2})" '
                       r'data-atlas-region> ([^<]+)</label>', html)
    assert [(code, text) for _, code, text in boxes] == [first, second]
    assert bool(boxes[0][0]) == (lang != "en") and not boxes[1][0]
    controls = html[html.index("data-atlas-controls"): html.index("</fieldset>")]
    assert "hidden" not in controls.split("\n")[0], "no layout shift: the controls are there from the first paint"
    assert "<legend>" in controls and 'role="status"' in html


@pytest.mark.parametrize("lang", LANGS)
def test_coverage_line_ends_every_table_in_the_page_language(small, lang):
    text = small.t(lang, "table.coverage", sourced=6, total=9, percent=66)
    html = table(small, lang)
    assert html.rstrip().endswith("</div>")
    assert f'<p class="atlas-table__coverage" data-atlas-coverage>{text}</p>' in html
    kube = table(small, lang, "spot-billing")    # spot sourced for one provider: 1 of 6
    line = re.search(r"data-atlas-coverage>([^<]+)", kube).group(1)
    assert sorted(re.findall(r"\d+", line)) == ["1", "16", "6"], line   # 1 of 6, 16% (each language orders them its way)


def test_coverage_counts_match_make_facts(small, real_atlas):
    for atlas in (small, real_atlas):
        cov = facts.coverage(atlas, TODAY)
        html = table(atlas, "en", "all")
        shown = re.search(r"data-atlas-coverage>(\d+) of (\d+)", html).groups()
        assert (int(shown[0]), int(shown[1])) == (cov.overall.sourced, cov.overall.total)
        assert cov.overall.total == len(atlas.providers) * len(atlas.all_fields)


@pytest.fixture(scope="module")
def real_atlas():
    return load_atlas(ROOT)


def test_hostile_list_items_and_names_are_text(small):
    evil = replace(small.providers[0], id="evil", name=HOSTILE,
                   facts=MappingProxyType({**small.providers[0].facts, "gpus": known([HOSTILE, "H100"])}))
    atlas = replace(small, providers=(*small.providers, evil),
                    list_fields=MappingProxyType({**small.list_fields, "gpus": ListField((HOSTILE, "H100"))}))
    for html in (table(atlas, "hi"), tables.render_list(atlas, "vi")):
        assert "<script>" not in html and "<img" not in html
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html


@pytest.mark.parametrize("lang", LANGS)
def test_providers_overview_shows_regions_and_gpus(small, lang):
    label, india, unknown = small.t(lang, "fields.regions.label"), small.country(lang, "IN"), small.t(lang, "values.unknown")
    html = tables.render_list(small, lang)
    bharat = html[html.index('data-provider="bharat"'): html.index("</li>", html.index('data-provider="bharat"'))]
    assert f"<dt>{label}</dt>" in bharat
    assert f'<dd data-field="regions"><span data-item="IN" title="IN">{india}</span></dd>' in bharat
    assert '<dd data-field="gpus"><span data-item="H100">H100</span>, <span data-item="L40S">L40S</span></dd>' in bharat
    nowhere = html[html.index('data-provider="nowhere"'):]
    assert f'<dd data-field="regions">{unknown}</dd>' in nowhere
    assert "data-atlas-coverage>" in html   # 4 of 6 regions/GPU facts
    assert "4" in re.search(r"data-atlas-coverage>([^<]+)", html).group(1)


def test_facts_coverage_unknown_cells_and_old_sources(small):
    cov = facts.coverage(small, TODAY)
    assert (cov.overall.sourced, cov.overall.total) == (7, 3 * len(small.all_fields))
    assert dict(cov.by_provider)["bharat"].sourced == 4
    assert dict(cov.by_field)["regions"] == facts.Tally(2, 3)
    assert dict(cov.unknown)["nowhere"] == small.all_fields
    assert "regions" not in dict(cov.unknown)["bharat"]
    old = [(s.provider, s.field, s.days) for s in cov.stale]
    assert old == [("bharat", "spot", 333)]     # 2026-01-02 is more than 180 days before 2026-12-01
    text = facts.report(cov)
    assert f"Sourced facts: 7 of {3 * len(small.all_fields)} ({7 * 100 / (3 * len(small.all_fields)):.1f}%)" in text
    assert "bharat.spot: verified 2026-01-02 (333 days) https://alpha.example/regions" in text
    assert re.search(rf"^  nowhere: kubernetes, time_slicing.*{small.all_fields[-1]}$", text, re.M)
    assert "Partial values without a note in every language (0):" in text


def test_facts_lists_a_partial_value_without_a_note(small):
    first = small.providers[0]
    odd = replace(first, facts=MappingProxyType({**first.facts, "mig": Fact("partial", SRC, dt.date(2026, 11, 1))}))
    cov = facts.coverage(replace(small, providers=(odd, *small.providers[1:])), TODAY)
    assert cov.partial_without_note == (("bharat", "mig"),)
    assert "  bharat.mig" in facts.report(cov)


def test_make_facts_cli_prints_every_section():
    out = subprocess.run([sys.executable, "-m", "atlas.facts"], cwd=ROOT,   # the real data, today
                         env={"PYTHONPATH": str(ROOT / "hooks")}, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    for heading in ("Sourced facts:", "Per provider:", "Per field:", "Still unknown (", "May be outdated (", "Source's own date recorded (source_date): "):
        assert heading in out.stdout
    assert re.search(r"^  regions +\d+ / +\d+", out.stdout, re.M)


# --- the new words exist, and differ, in every language -----------------------------------

NEW_KEYS = ("fields.regions.label", "fields.gpus.label", "fields.local_billing.label",
            "fields.local_billing.values.INR", "fields.local_billing.values.VND", "fields.local_billing.empty",
            "groups.regions-gpus", "table.coverage", "table.region_legend", "table.region_option", "table.region_hint")


def test_new_words_in_every_language_with_the_same_placeholders(real_atlas):
    for key in NEW_KEYS:
        en, hi, vi = (real_atlas.words[lang][key] for lang in ("en", "hi", "vi"))
        assert re.search(r"[\u0900-\u097F]", hi), (key, hi)            # written in Hindi
        assert vi != en and re.search(r"[^\x00-\x7f]", vi), (key, vi)   # written in Vietnamese
        names = lambda t: sorted(re.findall(r"\{(\w+)\}", t))  # noqa: E731
        assert names(en) == names(hi) == names(vi), key


@pytest.mark.parametrize("lang, key", [("vi", "region_option"), ("hi", "coverage")])
def test_a_missing_new_word_stops_the_build_naming_file_and_key(scratch, lang, key):
    from test_i18n import without_key
    line, english = without_key(scratch / f"data/i18n/{lang}.yaml", "table", key)
    from atlas.problems import DataError
    with pytest.raises(DataError) as info:
        load_atlas(scratch)
    assert (f"data/i18n/{lang}.yaml:{line}: key 'table.{key}': missing {lang} text for an English key "
            f"(English has it at data/i18n/en.yaml:{english})") in map(lambda p: str(p).split(");")[0] + ")", info.value.problems)


def test_a_currency_without_words_is_named(scratch):
    path = scratch / "data/i18n/en.yaml"
    text, n = re.subn(r"^      VND: .*\n", "", path.read_text(encoding="utf-8"), count=1, flags=re.M)
    assert n == 1
    path.write_text(text, encoding="utf-8")
    from atlas.problems import DataError
    with pytest.raises(DataError) as info:
        load_atlas(scratch)
    assert any("key 'fields.local_billing.values.VND': missing English text" in str(p) for p in info.value.problems)
