"""Translator checks: data-key parity, page parity, English-leak detection (measured on a
fixture set), structure comparison, content-based outdated detection, and `make i18n`."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from atlas import leaks, structure, translations
from atlas.data import _flatten, load_atlas
from atlas.i18n_check import check, keep_terms
from atlas.problems import DataError
from conftest import LANGS, ROOT

# --- parity: every language has words for every key English has ---------------------------

import yaml


def flat(lang: str) -> dict:
    return _flatten(yaml.safe_load((ROOT / f"data/i18n/{lang}.yaml").read_text(encoding="utf-8")))


@pytest.mark.parametrize("lang", ["hi", "vi"])
def test_data_words_have_the_same_keys_as_english(lang):
    en, mine = set(flat("en")), set(flat(lang))
    lacks = {k for k in en - mine if not k.startswith(("notes.", "quotes."))}   # a note or quote translation may be English-only for a while
    assert not lacks, f"{lang} lacks: {sorted(lacks)}"
    extra = {k for k in mine - en if not k.startswith("countries.")}   # a language's own country names
    assert not extra, f"{lang} has extra: {sorted(extra)}"


def with_country_name(repo: Path, lang: str, code: str, name: str) -> None:
    """`countries.<code>: <name>` in the `lang` words file, whether or not it has a countries: section."""
    words = repo / f"data/i18n/{lang}.yaml"
    text = words.read_text(encoding="utf-8")
    text = re.sub(rf"\n  {code}: [^\n]*", "", text)
    if re.search(r"^countries:\n", text, re.M):
        text = re.sub(r"^countries:\n", f"countries:\n  {code}: {name}\n", text, count=1, flags=re.M)
    else:
        text += f"\ncountries:\n  {code}: {name}\n"
    words.write_text(text, encoding="utf-8")


def test_a_language_names_a_country_its_own_way_and_only_real_countries(tmp_path):
    from atlas import countries
    from atlas.data import DataError
    from conftest import copy_repo
    repo = copy_repo(tmp_path / "repo")
    with_country_name(repo, "hi", "BR", "ब्राज़ील देश")     # words made here: the test holds whatever hi.yaml says
    atlas = load_atlas(repo)
    assert atlas.country("hi", "BR") == "ब्राज़ील देश" and atlas.country("en", "BR") == countries.name("BR", "en") == "Brazil"
    plain = next(c for c in ("IN", "VN", "JP", "DE", "FR") if f"countries.{c}" not in atlas.words["hi"])
    assert atlas.country("hi", plain) == countries.name(plain, "hi")   # CLDR's, where no override is given
    words = repo / "data/i18n/vi.yaml"
    words.write_text(words.read_text(encoding="utf-8") + "\ncountries:\n  USA: Mỹ\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_atlas(repo)
    assert "data/i18n/vi.yaml" in str(err.value) and "countries.USA" in str(err.value) and "not a country code" in str(err.value)


@pytest.mark.parametrize("lang", LANGS)
def test_every_provider_field_and_value_has_words(lang):
    atlas = load_atlas(ROOT)
    for field, values in atlas.fields.items():
        assert atlas.t(lang, f"fields.{field}.label")
        for value in values:
            assert atlas.value_label(lang, field, value), (lang, field, value)
    for category in atlas.categories:
        assert atlas.t(lang, f"categories.{category}")


@pytest.mark.parametrize("lang", ["hi", "vi"])
def test_every_quiz_has_every_text_english_has(lang):
    for path in sorted((ROOT / "data/quizzes/en").glob("*.yaml")):
        en = _flatten(yaml.safe_load(path.read_text(encoding="utf-8")))
        mine = _flatten(yaml.safe_load((ROOT / f"data/quizzes/{lang}" / path.name).read_text(encoding="utf-8")))
        assert set(en) == set(mine), f"{lang}/{path.name}: missing {sorted(set(en) - set(mine))}, extra {sorted(set(mine) - set(en))}"


def without_key(path: Path, section: str, key: str) -> tuple[int, int]:
    """Delete `section.key` (a one-line string) from a words file: (the line of the key English has
    just before it, in this file after the deletion; its line in data/i18n/en.yaml), read here
    from the text, as a translator would look for them."""
    en_lines = (path.parent / "en.yaml").read_text(encoding="utf-8").splitlines()
    start = en_lines.index(f"{section}:")
    at = next(i for i in range(start, len(en_lines)) if en_lines[i].startswith(f"  {key}:"))
    before = next(line.split(":")[0].strip() for line in reversed(en_lines[start + 1:at])
                  if line.startswith("  ") and not line.startswith(("   ", "  #")))
    text = path.read_text(encoding="utf-8")
    text, n = re.subn(rf"(^{section}:\n(?:(?:  .*)?\n)*?)  {key}: [^\n]*\n", r"\1", text, count=1, flags=re.M)
    assert n == 1, (path, key)
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    start = lines.index(f"{section}:")
    return next(i for i in range(start, len(lines)) if lines[i].startswith(f"  {before}:")) + 1, at + 1


def test_missing_and_extra_key_are_named(scratch):
    hi = scratch / "data/i18n/hi.yaml"
    line, english = without_key(hi, "table", "no_match")
    hi.write_text(hi.read_text(encoding="utf-8") + "\nextra_section:\n  surplus: कुछ\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_atlas(scratch)
    messages = [str(p) for p in info.value.problems]
    assert (f"data/i18n/hi.yaml:{line}: key 'table.no_match': missing hi text for an English key "
            f"(English has it at data/i18n/en.yaml:{english}); it goes next to this line, in English's order") in messages
    assert any(m.startswith("data/i18n/hi.yaml:") and "key 'extra_section.surplus': extra key" in m for m in messages)


def test_quiz_question_missing_in_a_language_is_named(scratch):
    path = scratch / "data/quizzes/vi/storage.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    first = next(iter(data["questions"]))
    del data["questions"][first]["explanation"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_atlas(scratch)
    assert any(str(p).startswith("data/quizzes/vi/storage.yaml:") and f"question '{first}', key 'explanation': missing text" in str(p)
               for p in info.value.problems)


@pytest.mark.parametrize("yaml_text, needle", [
    ("questions:\n  - id: q1\n    options: [a, b]\n    correct: []\n", "question 'q1': has no correct answer"),
    ("questions:\n  - id: q1\n    options: [a, b]\n    correct: [a, b]\n    multiple: false\n", "single-answer question has several correct answers"),
    ("questions:\n  - id: q1\n    options: [a, b]\n    correct: [a]\n  - id: q1\n    options: [a, b]\n    correct: [b]\n", "duplicate question id"),
    ("questions:\n  - id: q1\n    options: [a, b]\n    correct: [c]\n", "correct found ['c'], allowed: a, b"),
])
def test_quiz_structure_errors(scratch, yaml_text, needle):
    (scratch / "data/quizzes/storage.yaml").write_text(yaml_text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_atlas(scratch)
    assert any(str(p).startswith("data/quizzes/storage.yaml:") and needle in str(p) for p in info.value.problems), info.value.report()


def test_every_page_exists_in_every_language_or_has_a_notice():
    """A translation has an English original; an English page without a translation is built
    from English with the "not yet translated" notice (its state says so; test_build checks the
    notice), which is valid: a new English page need not wait for its translations."""
    en = translations.english_pages(ROOT / "docs")
    for lang in ("hi", "vi"):
        mine = sorted(p.relative_to(ROOT / "docs" / lang).as_posix() for p in (ROOT / "docs" / lang).rglob("*.md"))
        assert set(mine) <= set(en), f"{lang}: no English original for {sorted(set(mine) - set(en))}"
        for page in set(en) - set(mine):
            assert translations.state(ROOT / "docs", lang, page).fallback, (lang, page)


# --- English-leak detection, measured -------------------------------------------------------

LEAKED_HI = [
    "For machine learning, it lets teams pack GPU-hungry training jobs onto shared hardware.",
    "Group admission helps avoid partial worker allocation.",
    "These behaviors depend on installed components and settings.",
    "With a NoSchedule taint on a GPU node, what does a matching pod toleration do?",
    "A toleration removes the matching taint barrier.",
    "Take the Kubernetes for ML Workloads quiz",
    "What is Kubernetes for ML Workloads?",
    "Check the driver version before you rent a node.",
]
CLEAN_HI = [
    "Kubernetes में GPU को `nvidia.com/gpu` संसाधन के रूप में माँगा जाता है।",
    "NVIDIA GPU Operator हर नोड पर ड्राइवर और डिवाइस प्लगइन स्थापित करता है।",
    "CUDA 12 वाली इमेज के लिए होस्ट पर नया ड्राइवर चाहिए।",
    "MIG, MPS और टाइम-स्लाइसिंग में से सही विकल्प चुनें।",
    "InfiniBand या RoCE (RDMA over Converged Ethernet) के बिना मल्टी-नोड प्रशिक्षण धीमा होगा।",
    "Docker Compose और Slurm दोनों यहाँ काम आते हैं।",
    "Amazon Web Services (EKS / EC2) की तालिका ऊपर देखें।",
    "`kubectl get nodes` चलाकर देखें कि नोड तैयार है या नहीं।",
]
LEAKED_VI = [
    "For machine learning, it lets teams pack GPU-hungry training jobs onto shared hardware.",
    "These behaviors depend on installed components and settings.",
    "What is the difference between MIG and time-slicing?",
    "A toleration removes the matching taint barrier.",
    "Operators should test recovery and resource limits.",
    "Take the Kubernetes for ML Workloads quiz",
    "Check the driver version before you rent a node.",
]
CLEAN_VI = [
    "Kubernetes yêu cầu GPU qua tài nguyên `nvidia.com/gpu` trong pod.",
    "NVIDIA GPU Operator cài driver và device plugin lên từng node.",
    "Image dùng CUDA 12 cần driver đủ mới trên máy chủ.",
    "Hãy chọn giữa MIG, MPS và time-slicing tùy khối lượng công việc.",
    "Không có InfiniBand hoặc RoCE (RDMA over Converged Ethernet), huấn luyện nhiều node sẽ chậm.",
    "Control plane do nhà cung cấp vận hành, bạn chỉ viết manifest.",
    "Pod bị đưa vào hàng chờ cho đến khi có node trống.",
    "Chạy `kubectl get nodes` để xem node đã sẵn sàng chưa.",
]


@pytest.mark.parametrize("lang, leaked, clean", [("hi", LEAKED_HI, CLEAN_HI), ("vi", LEAKED_VI, CLEAN_VI)])
def test_leak_detector_catches_every_leak_and_no_clean_sentence(lang, leaked, clean):
    keep = keep_terms(ROOT)
    caught = [s for s in leaked if leaks.find_in_lines([(1, s)], lang, keep)]
    false_alarms = [s for s in clean if leaks.find_in_lines([(1, s)], lang, keep)]
    assert (len(caught), len(false_alarms)) == (len(leaked), 0), (caught, false_alarms)


def test_leak_detector_on_the_reference_page_with_english_left_in():
    seed = ROOT.parent / "shared/reference/seeds/001_99fff8f456509171.txt"
    if not seed.exists():
        pytest.skip("reference seeds are not beside this checkout")
    text = seed.read_text(encoding="utf-8")
    found = leaks.find_in_lines(list(enumerate(text.splitlines(), 1)), "hi", keep_terms(ROOT))
    lines = {n for n, _ in found}
    assert {10, 19, 40, 44, 50, 51} <= lines
    clean = (ROOT.parent / "shared/reference/seeds/000_3c5d0a6debcff340.txt").read_text(encoding="utf-8")
    assert leaks.find_in_lines(list(enumerate(clean.splitlines(), 1)), "hi", keep_terms(ROOT)) == []


@pytest.mark.parametrize("lang", ["hi", "vi"])
def test_no_english_left_in_our_pages(lang):
    report = check(ROOT)
    leaked = [f for f in report.failures if f"English left in {lang}" in f or f"English left in a {lang}" in f]
    assert not leaked, leaked


# --- structure and outdated detection ------------------------------------------------------

# A page and its translations made here: the structure and outdated tests hold whatever docs/ says.
EN_PAGE = """---
title: Storage
---
# Storage { #top }

Datasets live on volumes. See [billing](billing.md).

## Checkpoints { #checkpoints }

<!-- quiz:storage -->

```yaml
apiVersion: v1
kind: Pod
```

## FAQ { #faq }

### Is it kept? { #kept }

Yes, on a [network volume](../compare/storage.md).
"""
HI_PAGE = """---
title: स्टोरेज
---
# स्टोरेज { #top }

डेटासेट वॉल्यूम पर रहते हैं। [बिलिंग](billing.md) देखें।

## चेकपॉइंट { #checkpoints }

<!-- quiz:storage -->

```yaml
apiVersion: v1
kind: Pod
```

## सवाल-जवाब { #faq }

### क्या यह बचता है? { #kept }

हाँ, [नेटवर्क वॉल्यूम](../compare/storage.md) पर।
"""


def own_pages(root: Path, lang: str = "hi", translated: str = HI_PAGE, page: str = "guides/own.md") -> tuple[Path, Path]:
    """docs/en/<page> and its `lang` translation, written under `root`: (English, translation)."""
    for code, text in (("en", EN_PAGE), (lang, translated)):
        path = root / "docs" / code / page
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "docs/en" / page, root / "docs" / lang / page


def test_structure_change_is_reported(tmp_path):
    en, hi = own_pages(tmp_path)
    assert structure.compare(en, hi) == []
    hi.write_text(HI_PAGE.replace("{ #faq }", "{ #prashn }").replace("<!-- quiz:storage -->", ""), encoding="utf-8")
    problems = structure.compare(en, hi)
    messages = " | ".join(m for _, m in problems)
    assert "anchor 'prashn', English has 'faq'" in messages
    assert "markers" in messages


def test_code_change_is_reported_but_translated_comments_are_not(tmp_path):
    en, vi = own_pages(tmp_path, "vi", HI_PAGE.replace("apiVersion: v1\n", "apiVersion: v1\n# một chú thích tiếng Việt\n"))
    assert structure.compare(en, vi) == []
    vi.write_text(HI_PAGE.replace("kind: Pod\n", "kind: Pod\nextra: line\n"), encoding="utf-8")
    assert any("code block 1 differs" in m for _, m in structure.compare(en, vi))


def test_editing_english_makes_translations_outdated_until_synced(tmp_path):
    docs = tmp_path / "docs"
    for lang in ("hi", "vi"):
        own_pages(tmp_path, lang, page="guides/storage.md")
        assert translations.sync(docs, lang, "guides/storage.md") is True
    assert not translations.state(docs, "hi", "guides/storage.md").outdated
    en = docs / "en/guides/storage.md"
    en.write_text(en.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    assert translations.state(docs, "hi", "guides/storage.md").outdated
    assert translations.state(docs, "vi", "guides/storage.md").outdated
    assert translations.sync(docs, "hi", "guides/storage.md") is True
    assert not translations.state(docs, "hi", "guides/storage.md").outdated
    assert translations.state(docs, "vi", "guides/storage.md").outdated
    assert translations.sync(docs, "hi", "guides/storage.md") is False


def test_states_from_pages_read_once_agree_with_states_from_the_files(scratch):
    """The build judges every page from the texts it read once (translations.states); make i18n
    reads the files (translations.state). Both must say the same, missing and outdated pages too."""
    from atlas import sanitize
    docs = scratch / "docs"
    en = docs / "en/guides/storage.md"
    en.write_text(en.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    (docs / "vi/guides/gpu-sharing.md").unlink()
    (docs / "en/.draft.md").write_text("---\ntitle: Draft\n---\n# Draft\n", encoding="utf-8")   # not built, not counted
    (scratch / "shared").mkdir()   # a folder kept elsewhere in the repository, linked in: built, so counted
    (scratch / "shared/extra.md").write_text("---\ntitle: Extra\n---\n# Extra\n", encoding="utf-8")
    (docs / "en/more").symlink_to(scratch / "shared", target_is_directory=True)
    _, texts = sanitize.check_docs(docs, scratch, LANGS)
    known = translations.states(docs, LANGS, texts)
    pages = translations.english_pages(docs)
    assert sorted({page for _, page in known}) == pages
    assert known == {(lang, page): translations.state(docs, lang, page) for lang in LANGS for page in pages}
    assert known[("hi", "guides/storage.md")].outdated and known[("vi", "guides/gpu-sharing.md")].fallback
    assert "more/extra.md" in pages and ".draft.md" not in pages


# --- make i18n on a scratch copy -----------------------------------------------------------

def run_i18n(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "hooks")}
    return subprocess.run([sys.executable, "-m", "atlas.i18n_check", "--root", str(root)],
                          capture_output=True, text=True, env=env, timeout=120)


def test_make_i18n_passes_on_the_repository():
    result = run_i18n(ROOT)
    assert result.returncode == 0, result.stdout
    assert re.search(r"^hi\s+\d+\s+\d+\s+\d+\s+\d+$", result.stdout, re.M)


@pytest.mark.parametrize("lang, paragraph", [
    ("hi", "This paragraph was never translated and the reviewers did not notice it."),
    ("vi", "This paragraph was never translated and the reviewers did not notice it."),
])
def test_make_i18n_fails_on_an_english_paragraph(scratch, lang, paragraph):
    page = scratch / f"docs/{lang}/guides/gpu-sharing.md"
    lines = page.read_text(encoding="utf-8").splitlines()
    page.write_text("\n".join(lines) + "\n\n" + paragraph + "\n", encoding="utf-8")
    result = run_i18n(scratch)
    assert result.returncode == 1
    assert f"docs/{lang}/guides/gpu-sharing.md:{len(lines) + 2}: English left in a {lang} page" in result.stdout


def test_make_i18n_fails_on_a_deleted_hindi_key(scratch):
    line, english = without_key(scratch / "data/i18n/hi.yaml", "table", "stale")
    result = run_i18n(scratch)
    assert result.returncode == 1
    assert (f"data/i18n/hi.yaml:{line}: key 'table.stale': missing hi text for an English key "
            f"(English has it at data/i18n/en.yaml:{english})") in result.stdout


def test_make_i18n_lists_outdated_pages_without_failing(scratch):
    en = scratch / "docs/en/guides/storage.md"
    en.write_text(en.read_text(encoding="utf-8") + "\nA new English sentence.\n", encoding="utf-8")
    result = run_i18n(scratch)
    assert result.returncode == 0, result.stdout
    assert "outdated: docs/hi/guides/storage.md: outdated" in result.stdout
    assert "outdated: docs/vi/guides/storage.md: outdated" in result.stdout


def test_structure_is_compared_only_between_pages_read_safely(tmp_path):
    """make i18n compares skeletons from the texts check_docs read; a page it refused (too big, a
    link out of the repository) is not read again here, however it is named."""
    refused = tmp_path / "refused.md"   # say, over the size limit: not among the texts read
    refused.write_text("---\ntitle: x\n---\n# Other\n\n## Headings\n", encoding="utf-8")
    en = ROOT / "docs/en/guides/storage.md"
    assert structure.compare(en, refused) != []   # read from the file, it would be compared
    assert structure.compare(en, refused, {en: en.read_text(encoding="utf-8")}) == []
