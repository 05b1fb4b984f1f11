"""The glossary as data: validation, the avoided-term check in `make i18n` and the build,
the generated glossary page, and no English chrome left in built Hindi and Vietnamese HTML."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from atlas import glossary, html_leaks
from atlas.i18n_check import keep_terms
from atlas.problems import DataError
from conftest import LANGS, ROOT, mkdocs_build
from test_i18n import run_i18n

TERMS = glossary.load(ROOT)


def _add_avoided(root: Path, lang: str, variant: str) -> None:
    path = root / "data/glossary.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    entry = next(t for t in doc["terms"] if t["id"] == "spot-capacity")
    entry[lang].setdefault("avoid", []).append(variant)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_every_term_has_words_in_every_language():
    assert len(TERMS) >= 29
    for t in TERMS:
        assert set(t.use) == set(LANGS), t.id
        assert t.definition.get("en") or not any(t.definition.values()), t.id


@pytest.mark.parametrize("lang, variant, line", [("hi", "तंबू-शब्द", "यहाँ तंबू-शब्दों वाला वाक्य है।"),
                                                 ("vi", "đẩy pod ra", "Sau đó hệ thống sẽ đẩy pod ra khỏi node.")])
def test_make_i18n_names_file_line_avoided_and_preferred_term(scratch, lang, variant, line):
    _add_avoided(scratch, lang, variant)
    page = scratch / f"docs/{lang}/guides/gpu-sharing.md"
    lines = page.read_text(encoding="utf-8").splitlines()
    in_code = {"hi": "कोड में `{}` ठीक है।", "vi": "Trong mã, `{}` thì không sao."}[lang].format(variant)
    page.write_text("\n".join(lines) + "\n\n" + line + "\n\n" + in_code + "\n", encoding="utf-8")
    result = run_i18n(scratch)
    assert result.returncode == 1, result.stdout
    preferred = next(t.use[lang] for t in TERMS if t.id == "spot-capacity")
    expected = (f"docs/{lang}/guides/gpu-sharing.md:{len(lines) + 2}: avoided term '{variant}' "
                f"in a {lang} text; use '{preferred}'")
    assert expected in result.stdout
    assert f"gpu-sharing.md:{len(lines) + 4}:" not in result.stdout   # inline code is left alone


def test_avoided_term_in_a_data_string_fails_the_build(scratch, tmp_path):
    _add_avoided(scratch, "hi", "तंबू-शब्द")
    words = scratch / "data/i18n/hi.yaml"
    text = words.read_text(encoding="utf-8").replace("  choose_one: ", "  choose_one: तंबू-शब्द ", 1)
    words.write_text(text, encoding="utf-8")
    n = text[: text.index("तंबू-शब्द ")].count("\n") + 1
    result = mkdocs_build(scratch, tmp_path / "site")
    assert result.returncode != 0
    assert f"data/i18n/hi.yaml:{n}: avoided term 'तंबू-शब्द'" in result.stdout + result.stderr
    assert not (tmp_path / "site" / "index.html").exists()


def test_the_repository_uses_no_avoided_term():
    assert glossary.check_tree(ROOT, TERMS) == []


@pytest.mark.parametrize("yaml_text, needle", [
    ("terms: {}", "expected a top-level 'terms:' list"),
    ("terms:\n  - id: x\n    en: {use: X}\n    hi: {use: एक्स, avod: [y]}\n    vi: {use: X}\n", "unknown key 'avod'"),
    ("terms:\n  - id: x\n    en: {use: X}\n    hi: {use: एक्स}\n", "term 'x', vi: missing"),
    ("terms:\n  - id: x\n    en: {use: X}\n    hi: {use: '<b>x</b>'}\n    vi: {use: X}\n", "allowed: non-empty plain text"),
    ("terms:\n  - id: x\n    en: {use: X}\n    hi: {use: एक्स, avoid: [एक्स]}\n    vi: {use: X}\n", "would match the preferred term"),
    ("terms:\n  - id: x\n    en: {use: X}\n    hi: {use: एक्स, gender: n}\n    vi: {use: X}\n", "found 'n', allowed: m, f"),
])
def test_glossary_file_errors_name_line_and_allowed(tmp_path, yaml_text, needle):
    (tmp_path / "data").mkdir()
    (tmp_path / "data/glossary.yaml").write_text(yaml_text, encoding="utf-8")
    with pytest.raises(DataError) as exc:
        glossary.load(tmp_path)
    assert needle in exc.value.report()
    assert "data/glossary.yaml:" in exc.value.report()


def test_glossary_text_cannot_become_markup():
    hostile = glossary.Term("x", {"en": "X", "hi": "<script>alert(1)</script> [a](javascript:x) {: onclick=y }"},
                            {}, {"hi": "*bold* <img src=x onerror=y> `code <b>`"})
    bare = glossary.Term("y", {"en": "<b>Y</b>", "hi": "<i onclick=x>य</i>"}, {}, {})
    md = glossary.markdown("hi", (hostile, bare), "<script>", "<b>", "<i>")
    import markdown
    html = markdown.markdown(md, extensions=["attr_list", "toc"])
    from html.parser import HTMLParser

    class Tags(HTMLParser):
        seen: list = []

        def handle_starttag(self, tag, attrs):
            self.seen.append((tag, tuple(name for name, _ in attrs)))
    parser = Tags()
    parser.feed(html)
    assert set(parser.seen) == {("h2", ("id",)), ("p", ()), ("code", ()), ("span", ("lang",)), ("table", ()),
                                ("thead", ()), ("tbody", ()), ("tr", ()), ("tr", ("id",)), ("th", ()), ("td", ()),
                                ("td", ("lang",))}, parser.seen
    assert "&lt;script&gt;" in html and "<code>code &lt;b&gt;</code>" in html


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_page_is_generated_with_english_headwords(built_site, lang):
    import html as html_lib
    page = (built_site / ("" if lang == "en" else lang) / "glossary.html").read_text(encoding="utf-8")
    for t in TERMS:
        if t.definition:      # a heading, with the English headword beside the translated one
            assert f'id="{t.id}"' in page, t.id
            if lang != "en" and t.use[lang].casefold() != t.en.casefold():
                assert f'<span lang="en">({html_lib.escape(t.en, quote=False)})</span>' in page, t.id
        elif lang != "en":    # a row of the settled-terms table: English beside the page's language
            assert (f'<tr id="{t.id}"><td lang="en">{html_lib.escape(t.en)}</td>'
                    f'<td>{html_lib.escape(t.use[lang])}</td></tr>') in page, t.id


def test_multi_answer_hint_appears_once_per_question():
    words = {lang: yaml.safe_load((ROOT / f"data/i18n/{lang}.yaml").read_text(encoding="utf-8"))["quiz"]
             for lang in LANGS}
    for path in (ROOT / "data/quizzes").glob("*/*.yaml"):
        lang = path.parent.name
        hints = {words[lang]["choose_all"].rstrip(".।"), words[lang]["choose_one"].rstrip(".।")}
        for qid, q in yaml.safe_load(path.read_text(encoding="utf-8"))["questions"].items():
            assert not any(h in q["question"] for h in hints), f"{path.relative_to(ROOT)}: {qid}"


# --- English left in the built HTML ---------------------------------------------------------

@pytest.mark.parametrize("lang", ["hi", "vi"])
def test_no_english_in_any_built_page(built_site, lang):
    """No English outside what the page says is English: a page not yet translated shows the
    English page's own words, under its notice (ARCHITECTURE.md), and only those."""
    from atlas import pages
    keep = keep_terms(ROOT)
    found = []
    for path in sorted((built_site / lang).rglob("*.html")):
        rel = path.relative_to(built_site / lang).with_suffix(".md")
        english = ROOT / "docs/en" / rel
        shown_in_english = ""
        if english.exists() and not (ROOT / "docs" / lang / rel).exists():
            shown_in_english = " ".join(pages.plain(english.read_text(encoding="utf-8")).split())
        for where, text in html_leaks.english_strings(path.read_text(encoding="utf-8"), lang, keep):
            if not (shown_in_english and " ".join(text.split()) in shown_in_english):
                found.append(f"{path.relative_to(built_site)}: {where} {text!r}")
    assert found == []


@pytest.mark.parametrize("snippet, where", [
    ('<h2>शीर्षक<a class="headerlink" href="#x" title="Permanent link">¶</a></h2>', "<a title>"),
    ('<footer><div class="md-copyright">Made with <a href="#">Tool</a></div></footer>', "<div>"),
    ('<p><a href="#">Material for MkDocs</a></p>', "<a>"),
    ('<button aria-label="Copy to clipboard"></button>', "<button aria-label>"),
    ('<script id="__config" type="application/json">{"translations": {"search.result.none": "No matching documents"}}</script>',
     "__config search.result.none"),
    ('<p>यह वाक्य हिन्दी में है। This sentence was left in English by the translator.</p>', "<p>"),
])
def test_html_leak_check_catches_chrome_and_prose(snippet, where):
    found = html_leaks.english_strings(f'<html lang="hi"><body>{snippet}</body></html>', "hi", frozenset())
    assert [w for w, _ in found] == [where]


def test_html_leak_check_ignores_code_names_and_other_languages():
    html = ('<p>हम <code>kubectl get pods --all-namespaces</code> चलाते हैं।</p><p>Kubernetes</p><p>H100 NVLink</p>'
            '<a lang="en" hreflang="en">English</a><pre>the cat is on the mat</pre>')
    assert html_leaks.english_strings(html, "hi", frozenset({"Kubernetes"})) == []


def test_one_word_per_concept_where_the_reviews_found_two():
    """Hindi: सुविधा for a capability (क्षमता stays for capacity); Vietnamese: distinct words for a
    persistent volume, durable storage, a process rank, a team, a node pool and gang scheduling
    (native reviews of 2026-12-06). The avoid lists hold the Vietnamese variants in every page;
    these are the places where Hindi names a capability, and the glossary's own words."""
    from atlas.data import flatten
    hi = flatten(yaml.safe_load((ROOT / "data/i18n/hi.yaml").read_text(encoding="utf-8")))
    for key in ("groups.all", "reader.provider.field", "reader.compare.field", "reader.provider.caption"):
        assert "सुविधा" in hi[key] and "क्षमता" not in hi[key], (key, hi[key])
    terms = {t["id"]: t for t in yaml.safe_load((ROOT / "data/glossary.yaml").read_text(encoding="utf-8"))["terms"]}
    assert terms["capability"]["hi"]["use"] == "सुविधा" and terms["capacity"]["hi"]["use"] == "क्षमता"
    vi = {i: terms[i]["vi"]["use"].casefold() for i in ("persistent-volume", "durable-storage", "rank", "team", "node-pool",
                                                          "gang-scheduling")}
    assert len(set(vi.values())) == len(vi), vi
    assert "thứ hạng" in terms["rank"]["vi"]["avoid"] and "lập lịch theo nhóm" in terms["gang-scheduling"]["vi"]["avoid"]
    assert "volume lưu trữ bền vững" in terms["persistent-volume"]["vi"]["avoid"]
    assert not any(v.startswith("nhóm") for k, v in vi.items() if k != "node-pool")   # nhóm: node pools only
