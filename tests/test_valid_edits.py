"""A valid edit of data/ or docs/ never breaks `make test` (issue 28).

A maintainer adds a provider (with a sourced "no", its quote stating the absence, and a
`partial` whose note is in English only), changes values, a date and some translations'
wording, and adds two pages (one translated, one not): the build, `make i18n` and every test
that checks the repository's own data and pages (run here on that copy, through
ATLAS_TEST_ROOT, see conftest.py) still pass. Tests of behaviour make their own data; tests of
our data check only what holds for any valid data.
"""
from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from atlas import translations
from atlas.data import load_atlas
from conftest import ROOT, TRANSLATIONS, copy_repo

TESTS = Path(__file__).resolve().parent
DAY = (dt.date.today() - dt.timedelta(days=3)).isoformat()

# The tests that read the repository's data and pages as they are (data checks, the built
# site), each run on the edited copy. Node ids: a renamed test fails this run, to be listed anew.
DATA_TESTS = [
    "test_data.py::test_repository_data_is_valid_and_has_twenty_real_providers",
    "test_i18n.py::test_data_words_have_the_same_keys_as_english",
    "test_i18n.py::test_every_provider_field_and_value_has_words",
    "test_i18n.py::test_every_quiz_has_every_text_english_has",
    "test_i18n.py::test_every_page_exists_in_every_language_or_has_a_notice",
    "test_i18n.py::test_leak_detector_catches_every_leak_and_no_clean_sentence",
    "test_i18n.py::test_no_english_left_in_our_pages",
    "test_i18n.py::test_make_i18n_passes_on_the_repository",
    "test_i18n.py::test_a_language_names_a_country_its_own_way_and_only_real_countries",
    "test_i18n.py::test_missing_and_extra_key_are_named",
    "test_render.py",
    "test_glossary.py::test_the_repository_uses_no_avoided_term",
    "test_glossary.py::test_glossary_page_is_generated_with_english_headwords",
    "test_glossary.py::test_no_english_in_any_built_page",
    "test_build.py::test_every_page_has_absolute_hreflang_alternates_with_x_default",
    "test_build.py::test_home_title_names_the_site_once_and_404_title_says_not_found",
    "test_build.py::test_404_page_in_every_language",
    "test_build.py::test_comparison_pages_list_same_providers_in_same_order",
    "test_build.py::test_matrix_has_every_provider_with_sources_in_every_language",
    "test_build.py::test_guides_have_table_quiz_faq_jsonld_and_reading_time",
    "test_build.py::test_search_index_is_split_per_language",
    "test_build.py::test_status_page_shows_every_language",
    "test_regions_render.py::test_coverage_counts_match_make_facts",
    "test_regions_render.py::test_make_facts_cli_prints_every_section",
    "test_regions_render.py::test_countries_show_by_localized_name_with_their_code",
    "test_reader_tools.py::test_every_provider_has_a_page_with_every_field_source_and_date",
    "test_reader_tools.py::test_tables_and_overview_link_provider_names_to_their_pages",
    "test_reader_tools.py::test_provider_pages_are_in_search_and_sitemap_with_hreflang",
    "test_reader_tools.py::test_search_holds_the_guides_prose_not_their_furniture",
    "test_region_filter.py::test_every_table_ends_with_a_coverage_line_in_the_page_language",
    "test_publish.py::test_the_walk_opens_every_page_in_some_language_and_the_top_pages_in_every_language",
    "test_hardening.py::test_raw_html_and_links_outside_the_allowlist_are_located",
]

NEW_PROVIDER = """\
  - id: nimbus-gpu
    name: Nimbus GPU
    homepage: https://nimbus-gpu.example
    category: gpu-cloud
    facts:
{facts}
"""
FACTS = {
    "kubernetes": ('"no"', "https://docs.nimbus-gpu.example/kubernetes",
                   "Nimbus GPU does not offer a managed Kubernetes service."),
    "spot": ('"no"', "https://docs.nimbus-gpu.example/pricing",
             "Spot or preemptible instances are not available; every instance is billed on demand."),
    "persistent_volumes": ("partial", "https://docs.nimbus-gpu.example/storage", None),
    "billing": ("per-second", "https://docs.nimbus-gpu.example/billing", None),
    "ssh": ('"yes"', "https://docs.nimbus-gpu.example/access/ssh", None),
    "regions": ("[IN, SG]", "https://docs.nimbus-gpu.example/regions", None),
    "gpus": ("[H100, L40S]", "https://docs.nimbus-gpu.example/gpus", None),
}
NOTE = "Volumes stay in the region where they were created and cannot be moved to another region."

PAGES = {
    "en": """---
title: A checklist for serving models
description: What to check before you serve a model from a rented GPU.
---
# A checklist for serving models { #top }

Serving a model needs a GPU that stays up, storage that keeps the weights, and a bill you can predict.

## What to check { #what-to-check }

| Check | Why |
|---|---|
| Persistent volume | The weights survive a restart. |
| Per-second billing | Idle minutes cost less. |

Read the [storage guide](storage.md) before you choose.
""",
    "hi": """---
title: मॉडल सर्व करने से पहले की जाँच-सूची
description: किराए के GPU से मॉडल सर्व करने से पहले किन बातों को जाँचें।
---
# मॉडल सर्व करने से पहले की जाँच-सूची { #top }

मॉडल सर्व करने के लिए ऐसा GPU चाहिए जो लगातार चालू रहे, ऐसा स्टोरेज चाहिए जो मॉडल की फ़ाइलें बचाए रखे, और ऐसा बिल चाहिए जिसका पहले से अंदाज़ा हो।

## क्या जाँचें { #what-to-check }

| जाँच | क्यों |
|---|---|
| स्थायी वॉल्यूम | रीस्टार्ट के बाद भी मॉडल की फ़ाइलें बची रहती हैं। |
| प्रति सेकंड बिलिंग | ख़ाली मिनटों पर कम ख़र्च होता है। |

चुनने से पहले [स्टोरेज गाइड](storage.md) पढ़ें।
""",
    "vi": """---
title: Danh sách kiểm tra trước khi phục vụ mô hình
description: Những điều cần kiểm tra trước khi phục vụ mô hình trên GPU thuê.
---
# Danh sách kiểm tra trước khi phục vụ mô hình { #top }

Để phục vụ mô hình, bạn cần một GPU luôn chạy, chỗ lưu trữ giữ được trọng số và hóa đơn dự đoán được.

## Cần kiểm tra gì { #what-to-check }

| Mục | Lý do |
|---|---|
| Volume lưu trữ lâu dài | Trọng số vẫn còn sau khi khởi động lại. |
| Tính tiền theo giây | Những phút rảnh tốn ít tiền hơn. |

Hãy đọc [hướng dẫn lưu trữ](storage.md) trước khi chọn.
""",
}
ENGLISH_ONLY = """---
title: Serving models for inference
description: How to serve a trained model from a rented GPU.
---
# Serving models for inference { #top }

Inference needs less memory than training, but it needs a GPU that answers quickly at any hour.

## Keep the model warm { #warm }

Load the weights once and keep the process running, so that the first request does not wait.
"""


def _sub(path: Path, pattern: str, new, count: int = 1, must: bool = True) -> None:
    text = path.read_text(encoding="utf-8")
    text, n = re.subn(pattern, new, text, count=count, flags=re.M)
    assert n or not must, (path, pattern)
    path.write_text(text, encoding="utf-8")


def valid_edit(root: Path) -> Path:
    """What a maintainer and a translator may do, all valid: see the module's docstring."""
    fields = load_atlas(root).all_fields
    lines = []
    for field in fields:
        if field not in FACTS:
            lines.append(f"      {field}: unknown")
            continue
        value, source, quote = FACTS[field]
        lines += [f"      {field}:", f"        value: {value}", f"        sources: [{source}]", f"        verified: {DAY}"]
        lines += [f"        quote: {quote}"] if quote else []
    providers = root / "data/providers.yaml"
    providers.write_text(providers.read_text(encoding="utf-8").rstrip("\n") + "\n"
                         + NEW_PROVIDER.format(facts="\n".join(lines)), encoding="utf-8")
    # a partial names its limit, in English only for now; hi and vi show it marked as untranslated
    _sub(root / "data/i18n/en.yaml", r"^notes:\n", f"notes:\n  nimbus-gpu:\n    persistent_volumes: {NOTE}\n")
    # values and a date change: the first provider's category, a partial that becomes "yes", an older check
    first = yaml.safe_load(providers.read_text(encoding="utf-8"))["providers"][0]
    other = next(c for c in ("gpu-cloud", "marketplace", "hyperscaler", "serverless") if c != first["category"])
    _sub(providers, rf"^(    category: ){re.escape(first['category'])}$", rf"\g<1>{other}")
    _sub(providers, r"^(      mps:\n        value: )partial$", r'\1"yes"', must=False)
    _sub(providers, r"^(      kubernetes:\n        value: .*\n(?:        (?!verified).*\n)*        verified: )\S+$",
         r"\g<1>2026-06-01")
    # translations reworded, and an English string changed (its translations are then listed as outdated)
    _sub(root / "data/i18n/hi.yaml", r"^  coverage: .*$", '  coverage: "स्रोत सहित तथ्य: {total} में से {sourced} ({percent}%)"')
    _sub(root / "data/i18n/hi.yaml", r"^  not_found_title: .*$", "  not_found_title: यह पृष्ठ नहीं मिला")
    _sub(root / "data/i18n/hi.yaml", r"^  US: .*$", "  US: संयुक्त राज्य अमेरिका")
    _sub(root / "data/i18n/vi.yaml", r"^  shown: .*$", '  shown: "Hiển thị {shown}/{total} nhà cung cấp"')
    _sub(root / "data/i18n/vi.yaml", r"^  translated: .*$", "  translated: Đã được dịch")
    _sub(root / "data/i18n/en.yaml", r"^  report: .*$", "  report: Report a wrong fact")
    # two new guides, in the nav: one translated (Hindi synced, Vietnamese not yet), one English only
    for lang, text in PAGES.items():
        (root / f"docs/{lang}/guides/serving-checklist.md").write_text(text, encoding="utf-8")
    translations.sync(root / "docs", "hi", "guides/serving-checklist.md")
    (root / "docs/en/guides/inference-serving.md").write_text(ENGLISH_ONLY, encoding="utf-8")
    _sub(root / "mkdocs.yml", r"^(      - guides/storage\.md\n)",
         r"\1      - guides/serving-checklist.md\n      - guides/inference-serving.md\n")
    return root


@pytest.fixture(scope="module")
def edited(tmp_path_factory) -> Path:
    return valid_edit(copy_repo(tmp_path_factory.mktemp("valid-edit") / "repo"))


def test_the_edit_is_valid_and_says_what_it_leaves_to_do(edited):
    """The build's data checks and `make i18n` accept it; make i18n lists, without failing, the
    untranslated note, the strings whose English changed, and the page not yet translated."""
    atlas = load_atlas(edited)
    nimbus = next(p for p in atlas.providers if p.id == "nimbus-gpu")
    assert nimbus.facts["spot"].value == "no" and nimbus.facts["spot"].quote
    assert atlas.note("en", "nimbus-gpu", "persistent_volumes") == NOTE and atlas.note("hi", "nimbus-gpu", "persistent_volumes") is None
    result = subprocess.run([sys.executable, "-m", "atlas.i18n_check", "--root", str(edited)], capture_output=True,
                            text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(edited / "hooks")})
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for lang in TRANSLATIONS:
        assert re.search(rf"^untranslated: data/i18n/{lang}\.yaml:\d+: key 'notes\.nimbus-gpu\.persistent_volumes': "
                         r"English only \(data/i18n/en\.yaml:\d+\)", out, re.M), out
        assert re.search(rf"^outdated: data/i18n/{lang}\.yaml:\d+: key 'table\.report': outdated \(translates ", out, re.M), out
        assert f"docs/{lang}/guides/inference-serving.md" in out   # a page not yet translated is named
    assert "outdated: docs/vi/guides/serving-checklist.md: outdated (never synced)" in out
    assert "docs/hi/guides/serving-checklist.md: outdated" not in out


@pytest.mark.long
def test_every_check_of_our_data_and_pages_passes_on_a_valid_edit(edited):
    """The tests that read the repository's data and pages as they are, run on the edited copy."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("ATLAS_TEST_PORT", "ATLAS_TEST_SITE", "PYTEST_CURRENT_TEST") and not k.startswith("PYTEST_XDIST")}
    env.update(ATLAS_TEST_ROOT=str(edited), NO_MKDOCS_2_WARNING="1")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                             *(f"{TESTS.name}/{t}" for t in DATA_TESTS)],
                            cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=900)
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert " passed" in summary and "error" not in summary and "skipped" not in summary, summary


def test_the_edited_build_shows_an_english_only_note_marked_in_hindi_and_vietnamese(edited, tmp_path):
    from conftest import mkdocs_build
    site = tmp_path / "site"
    result = mkdocs_build(edited, site)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    atlas = load_atlas(edited)
    from markupsafe import escape
    for lang in TRANSLATIONS:
        html = (site / lang / "providers/nimbus-gpu.html").read_text(encoding="utf-8")
        assert (f'<span lang="en">{escape(NOTE)}</span> <span class="atlas-ev__untranslated">'
                f'({escape(atlas.t(lang, "table.note_untranslated"))})</span>') in html
    english = (site / "providers/nimbus-gpu.html").read_text(encoding="utf-8")
    assert str(escape(NOTE)) in english and "atlas-ev__untranslated" not in english
