"""Lists sorted as each language sorts them (issue 26): CLDR's collation through ICU, not code points."""
from __future__ import annotations

import re

import pytest

from atlas import collation
from atlas.data import load_atlas
from conftest import LANGS, ROOT  # noqa: E402


def test_vietnamese_and_hindi_orders_are_the_languages_own():
    vi = ["Đức", "Dubai", "Ý", "Ấn Độ", "Anh", "Ăng-gô-la", "Úc", "Ba Lan"]
    assert sorted(vi, key=collation.key("vi")) == ["Anh", "Ăng-gô-la", "Ấn Độ", "Ba Lan", "Dubai", "Đức", "Úc", "Ý"]
    assert sorted(vi) != sorted(vi, key=collation.key("vi"))   # code points would put Ấn Độ and Đức last
    hi = ["भारत", "अमेरिका", "ज़ाम्बिया", "जापान", "कनाडा"]
    assert sorted(hi, key=collation.key("hi")) == ["अमेरिका", "कनाडा", "जापान", "ज़ाम्बिया", "भारत"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_lists_its_terms_in_the_languages_order(built_site, lang):
    html = (built_site / ("" if lang == "en" else lang) / "glossary.html").read_text(encoding="utf-8")
    article = html[html.index('<article class="md-content__inner'):]
    heads = [re.sub(r"<[^>]+>", "", h).split(" (")[0].strip()
             for h in re.findall(r'<h2 id="(?!more-terms)[^"]+">(.*?)<a class="headerlink"', article)]
    assert len(heads) >= 10
    assert heads == sorted(heads, key=collation.key(lang)), heads


@pytest.mark.parametrize("lang", ["hi", "vi"])
def test_the_choosers_countries_follow_the_readers_country_then_the_languages_order(built_site, lang):
    html = (built_site / lang / "compare/choose.html").read_text(encoding="utf-8")
    block = html[html.index('data-need="country"'):] if 'data-need="country"' in html else html
    names = re.findall(r'<input type="checkbox"[^>]*value="country-[A-Z]{2}"[^>]*>\s*([^<]+)</label>', block)
    assert len(names) >= 5, names
    first = len(load_atlas(ROOT).home_region.get(lang, ()))   # hi: India, Singapore; vi: Vietnam, Singapore
    rest = names[first:]
    assert first >= 1 and rest == sorted(rest, key=collation.key(lang)), rest
