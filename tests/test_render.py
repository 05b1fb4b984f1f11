"""Pure renderer tests: comparison tables and quizzes in each language, escaping, generation."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from markupsafe import escape as e

from atlas import quizzes, tables
from atlas.data import Fact, Provider, load_atlas
from atlas.markers import SLOT, Context, fill, replace as replace_markers
from conftest import LANGS, ROOT

TODAY = dt.date(2026, 12, 1)
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'
DAY = dt.date(2026, 11, 30)
SRC = ("https://alpha.example/docs/kubernetes", "https://alpha.example/docs/mps")


@pytest.fixture(scope="module")
def atlas():
    return load_atlas(ROOT)


@pytest.fixture(scope="module")
def own(atlas):
    """Providers and notes made here, with the schema and words of data/: the tests of rendering
    below hold whatever data/providers.yaml says (a new provider, a changed value, a new date)."""
    unknown = {f: Fact("unknown") for f in atlas.all_fields}

    def provider(pid, name, **facts):
        return Provider(pid, name, f"https://{pid}.example", "gpu-cloud", MappingProxyType({**unknown, **facts}))

    providers = (
        provider("alpha", "Alpha Cloud", kubernetes=Fact("managed", SRC[:1], DAY),
                 mps=Fact("partial", SRC[1:], DAY, "MPSは一部のGPUでのみ使えます。", "ja"),
                 spot=Fact("yes", SRC[:1], DAY), billing=Fact("per-second", SRC[:1], DAY)),
        provider("beta", "Beta GPU", kubernetes=Fact("no", SRC[:1], DAY), spot=Fact("no", SRC[:1], DAY),
                 billing=Fact("per-hour", SRC[:1], DAY)),
        provider("gamma", "gamma compute", kubernetes=Fact("managed", SRC[:1], DAY), docker_daemon=Fact("yes", SRC[:1], DAY)),
        provider("delta", "Delta Nodes", kubernetes=Fact("self-managed", SRC[:1], DAY)),
        provider("epsilon", "Epsilon", kubernetes=Fact("partial", SRC[:1], DAY)),
    )
    words = {lang: MappingProxyType({**w, "notes.alpha.mps": f"({lang}) on some GPUs only",
                                     "notes.epsilon.kubernetes": f"({lang}) on request"})
             for lang, w in atlas.words.items()}
    return replace(atlas, providers=providers, words=MappingProxyType(words))


def with_hostile_provider(atlas):
    first = atlas.providers[0]
    evil = replace(first, id="evil", name=HOSTILE, homepage="https://evil.example/?q=<b>")
    return replace(atlas, providers=(*atlas.providers, evil))


def table(atlas, lang="en", group="kubernetes", today=TODAY):
    return tables.render_table(atlas, lang, group, table_id="t", today=today, report_url="https://report.example/new")


def row_ids(html):
    return re.findall(r'<tr data-provider="([^"]+)"', html)


@pytest.mark.parametrize("lang", LANGS)
def test_headers_and_short_values_are_in_the_page_language_with_the_long_words_in_the_legend(own, lang):
    atlas = own
    html = table(atlas, lang)
    header = atlas.t(lang, "fields.kubernetes.label")
    short, long = atlas.t(lang, "fields.kubernetes.short.managed"), atlas.t(lang, "fields.kubernetes.values.managed")
    assert short != long and len(short) < len(long)
    assert f'data-field="kubernetes">{e(header)}</th>' in html
    assert re.search(rf'<td class="atlas-v atlas-v--yes[^"]*"[^>]*><a class="atlas-v__more" href="[^"]+">{re.escape(str(e(short)))}</a></td>',
                     html)   # the cell: its tone (atlas.css draws the icon), the short word
    assert f"<b>{e(short)}</b> = {e(long)}" in html                                                   # the legend: both
    assert e(long) not in html.split("<tbody>")[1]                                                    # never in a cell


def test_rows_order_yes_then_partial_unknown_no_then_name(own):
    atlas = own
    html = table(atlas, "en", "kubernetes")
    ids = row_ids(html)
    values = {p.id: p.facts["kubernetes"].value for p in atlas.providers}
    ranks = [atlas.fields["kubernetes"][values[i]] for i in ids]
    assert ranks == sorted(ranks)
    assert values[ids[0]] == "managed" and values[ids[-1]] == "no"
    managed = [p.name for p in atlas.providers if values[p.id] == "managed"]
    assert [atlas_name(atlas, i) for i in ids[: len(managed)]] == sorted(managed, key=str.casefold)


def atlas_name(atlas, pid):
    return next(p.name for p in atlas.providers if p.id == pid)


def test_same_rows_in_every_language(atlas):
    assert row_ids(table(atlas, "en")) == row_ids(table(atlas, "hi")) == row_ids(table(atlas, "vi"))


def test_each_cell_with_evidence_links_to_its_fact_on_the_provider_page(atlas):
    html = table(atlas, "vi", "docker")
    for p in atlas.providers:
        row = html[html.index(f'<tr data-provider="{p.id}"'):]
        row = row[: row.index("</tr>")]
        for f in atlas.groups["docker"]:
            fact = p.facts[f]
            linked = f'href="atlas-root:providers/{p.id}.html#fact-{f}"' in row
            assert linked == bool(fact.sources or fact.verified or atlas.note("vi", p.id, f)), (p.id, f)
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    assert "<time" not in body and "atlas-v__note" not in html   # details live on the provider page


def test_evidence_has_words_note_quote_sources_and_a_local_date(own):
    from atlas import cells
    atlas = own
    alpha = next(p for p in atlas.providers if p.id == "alpha")
    fact = alpha.facts["mps"]
    html = cells.evidence(atlas, "vi", alpha, "mps", TODAY)
    assert f'<p class="atlas-ev__value atlas-v--partial"><span class="atlas-v__icon" aria-hidden="true">◐</span> ' \
           f'{e(atlas.value_label("vi", "mps", "partial"))}</p>' in html
    assert e(atlas.note("vi", "alpha", "mps")) in html
    assert f'<blockquote lang="{fact.quote_lang}" cite="{e(fact.sources[0])}"><p>{e(fact.quote)}</p></blockquote>' in html
    assert fact.quote_lang == "ja"   # the page it quotes is Japanese
    for url in fact.sources:   # each source link goes straight to the quoted words (a text fragment)
        assert f'href="{e(url)}#:~:text=MPS%E3%81%AF' in html
    date = re.search(r'<time datetime="([0-9-]+)">([^<]+)</time>', html)
    y, m, d = (int(x) for x in date.group(1).split("-"))
    assert date.group(2) == f"ngày {d} tháng {m} năm {y}"   # as Vietnamese prose writes it, no comma
    assert "ngày <time" not in html   # the date says "ngày" itself


def test_a_quote_the_reader_may_not_read_is_followed_by_our_translation(own):
    from atlas import cells
    alpha = next(p for p in own.providers if p.id == "alpha")
    words = {lang: dict(own.words[lang]) for lang in own.languages}
    words["en"]["quotes.alpha.mps"] = "MPS works on some GPUs only."
    atlas = replace(own, words=MappingProxyType({k: MappingProxyType(v) for k, v in words.items()}))
    en, hi = cells.evidence(atlas, "en", alpha, "mps", TODAY), cells.evidence(atlas, "hi", alpha, "mps", TODAY)
    assert f'<strong>{e(atlas.t("en", "table.quote_translation"))}:</strong> <span>MPS works on some GPUs only.</span>' in en
    # not yet in Hindi: the English translation, in English, marked as not yet translated
    assert '<span lang="en">MPS works on some GPUs only.</span>' in hi and e(atlas.t("hi", "table.note_untranslated")) in hi
    words["hi"]["quotes.alpha.mps"] = "MPS कुछ ही GPU पर चलता है।"
    atlas = replace(own, words=MappingProxyType({k: MappingProxyType(v) for k, v in words.items()}))
    hi = cells.evidence(atlas, "hi", alpha, "mps", TODAY)
    assert "<span>MPS कुछ ही GPU पर चलता है।</span>" in hi and "note_untranslated" not in hi
    assert cells.needs_translation("vi", "vi-VN") is False and cells.needs_translation("en", "ja") is True


def test_an_old_source_is_marked_in_its_cell_and_evidence_with_both_dates(own):
    from atlas import cells
    alpha = next(p for p in own.providers if p.id == "alpha")
    old = replace(alpha.facts["kubernetes"], source_date="2023-06")
    p = replace(alpha, facts=MappingProxyType({**alpha.facts, "kubernetes": old}))
    for lang in own.languages:
        html = cells.evidence(own, lang, p, "kubernetes", TODAY)
        assert '<time datetime="2023-06">' in html   # the month the source prints, as a month
        assert f"⚠ {own.t(lang, 'table.stale')}" in html
        assert e(own.t(lang, "table.stale_source_hint", days=730)) in html
        assert "atlas-v--stale" in cells.compact(own, lang, p, "kubernetes", TODAY)
    assert "June 2023" in cells.evidence(own, "en", p, "kubernetes", TODAY)
    assert "tháng 6 năm 2023" in cells.evidence(own, "vi", p, "kubernetes", TODAY)
    fresh = replace(alpha, facts=MappingProxyType({**alpha.facts, "kubernetes": replace(old, source_date="2026-01-05")}))
    assert "atlas-v--stale" not in cells.compact(own, "en", fresh, "kubernetes", TODAY)
    # a GPU list ages faster: a year
    gpus = replace(alpha, facts=MappingProxyType({**alpha.facts, "gpus": Fact(("H100",), SRC[:1], DAY, source_date="2025-10-01")}))
    assert "atlas-v--stale" in cells.compact(own, "en", gpus, "gpus", TODAY)


def test_a_fact_without_a_quote_shows_none(own):
    from atlas import cells
    atlas = own
    p, f = next((p, f) for p in atlas.providers for f, fact in p.facts.items() if fact.sources and not fact.quote)
    assert "<blockquote" not in cells.evidence(atlas, "en", p, f, TODAY)


def test_stale_mark_after_180_days(own):
    from atlas import cells
    atlas = own   # every fact verified on 2026-11-30
    fresh = table(atlas, "hi", today=dt.date(2027, 5, 29))     # 180 days after 2026-11-30
    stale = table(atlas, "hi", today=dt.date(2027, 5, 30))     # 181 days
    old = [(p, f) for p in atlas.providers for f in atlas.groups["kubernetes"]
           if p.facts[f].verified and (dt.date(2027, 5, 30) - p.facts[f].verified).days > 180]
    assert "atlas-v--stale" not in fresh
    assert stale.count("atlas-v--stale") == len(old) > 0
    p, f = old[0]
    assert f"⚠ {atlas.t('hi', 'table.stale')}" in cells.evidence(atlas, "hi", p, f, dt.date(2027, 5, 30))
    assert "⚠" not in cells.evidence(atlas, "hi", p, f, dt.date(2027, 5, 29))


def test_data_as_of_line_and_report_link(atlas):
    html = table(atlas, "en")
    newest = max(f.verified for p in atlas.providers for f in p.facts.values() if f.verified)
    when = f'<time datetime="{newest.isoformat()}">{newest:%B} {newest.day}, {newest.year}</time>'   # as English writes a date
    assert str(e(atlas.t("en", "table.data_as_of", date="\0"))).replace("\0", when) in html
    assert f'<a href="https://report.example/new">{e(atlas.t("en", "table.report"))}</a>' in html


def test_values_are_words_not_colour_alone(atlas):
    for group in ("spot-billing", "regions-gpus"):
        html = table(atlas, "hi", group)
        cells_ = re.findall(r'<td class="atlas-v[^"]*".*?</td>', html, re.S)
        merged = sum(1 for p in atlas.providers if tables.pending(p) and not any(p.facts[f].known for f in atlas.groups[group]))
        assert len(cells_) == (len(atlas.providers) - merged) * len(atlas.groups[group])
        for cell in cells_:
            words = re.sub(r"<[^>]+>", "", cell).replace("✓", "").replace("◐", "").replace("✗", "").replace("?", "")
            assert words.strip(), cell   # a word (or a list item) beside every icon


def test_hostile_provider_name_renders_as_text(atlas):
    html = table(with_hostile_provider(atlas), "en")
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert 'href="atlas-root:providers/evil.html"' in html   # the homepage link is on the provider page


def test_full_matrix_has_every_provider_and_field(atlas):
    html = table(atlas, "vi", "all")
    assert len(row_ids(html)) == len(atlas.providers)
    assert html.count('data-sort="rank"') == len(atlas.all_fields)


def test_provider_list_escapes_and_localizes(atlas):
    html = tables.render_list(with_hostile_provider(atlas), "vi")
    category = atlas.t("vi", f"categories.{atlas.providers[0].category}")
    assert f"({e(category)})" in html and "&lt;script&gt;" in html and "<script>" not in html


# --- quizzes ---------------------------------------------------------------------------

def test_generated_answers_agree_with_data(atlas):
    rule = atlas.quiz_rules["kubernetes"]
    by_name = {p.name: p for p in atlas.providers}
    for lang in atlas.languages:
        for q in quizzes.generated(atlas, lang, "kubernetes", 3):
            for o in q.options:
                value = by_name[o.text].facts["kubernetes"].value
                assert value != "unknown"
                assert (value in rule["right"]) == o.correct
                assert o.source.startswith("https://") and o.verified
            assert sum(o.correct for o in q.options) == 1


def test_generation_is_deterministic_and_localized(atlas):
    a = quizzes.generated(atlas, "hi", "billing", 1)
    b = quizzes.generated(atlas, "hi", "billing", 1)
    assert a == b
    assert a[0].text == atlas.t("hi", "quiz.generated.billing.question")
    assert [o.id for o in a[0].options] == [o.id for o in quizzes.generated(atlas, "vi", "billing", 1)[0].options]


def test_generation_never_uses_unknown(atlas):
    for field in atlas.quiz_rules:
        try:
            questions = quizzes.generated(atlas, "en", field, 1)
        except quizzes.QuizError:
            continue
        for q in questions:
            assert all(atlas.providers[[p.name for p in atlas.providers].index(o.text)].facts[field].value != "unknown"
                       for o in q.options)


def test_generation_refuses_without_distractors(own):
    assert quizzes.generated(own, "en", "spot", 1)   # alpha is sourced as "yes", beta as "no"
    no_beta = replace(own, providers=tuple(p for p in own.providers if p.id != "beta"))
    with pytest.raises(quizzes.QuizError, match="at least one of each"):
        quizzes.generated(no_beta, "en", "spot", 1)   # no provider is sourced as "no"


def test_quiz_markup_is_accessible_in_each_language(atlas):
    for lang in LANGS:
        title, qs = quizzes.authored(atlas, lang, "storage")
        html = quizzes.render_quiz(atlas, lang, quiz_key="quiz-storage", title=title, questions=qs)
        assert html.count("<fieldset") == html.count("<legend>") == len(qs)
        assert html.count('role="status"') == len(qs) + 1
        for multiple, kind, hint in ((False, "radio", "quiz.choose_one"), (True, "checkbox", "quiz.choose_all")):
            if any(q.multiple == multiple for q in qs):   # each kind of question the quiz has
                assert f'type="{kind}"' in html and str(e(atlas.t(lang, hint))) in html, (lang, kind)
        assert html.count("<details") == len(qs)


def test_quiz_text_from_data_is_escaped(atlas):
    evil_words = dict(atlas.quiz_words["en"]["storage"])
    questions = dict(evil_words["questions"])
    first = next(iter(questions))
    questions[first] = {**questions[first], "question": HOSTILE}
    words = {**atlas.quiz_words, "en": MappingProxyType({**atlas.quiz_words["en"], "storage": {**evil_words, "questions": questions}})}
    evil = replace(atlas, quiz_words=MappingProxyType(words))
    title, qs = quizzes.authored(evil, "en", "storage")
    html = quizzes.render_quiz(evil, "en", quiz_key="q", title=title, questions=qs)
    assert "<script>" not in html and "&lt;script&gt;" in html


# --- markers ---------------------------------------------------------------------------

def ctx(atlas, lang="en"):
    return Context(atlas, lang, TODAY, "https://report.example")


def test_unknown_marker_feature_and_option_are_errors(atlas):
    md = "\n".join([
        "<!-- providers:table feature=teleport -->",
        "<!-- providers:table feature=docker colour=red -->",
        "<!-- quiz:no-such-quiz -->",
        "<!-- providers:tabel -->",
        "<!-- quiz:generated feature=kubernetes count=99 -->",
        "```html", "<!-- providers:table feature=teleport -->", "```",
    ])
    _, errors, _ = replace_markers(md, ctx(atlas))
    assert len(errors) == 5, errors
    assert errors[0].startswith("line 1: marker '<!-- providers:table feature=teleport -->': unknown feature 'teleport'")
    assert "unknown option colour" in errors[1]
    assert "unknown quiz 'no-such-quiz'" in errors[2]
    assert errors[3].startswith("line 4:") and "unknown marker 'providers:tabel'" in errors[3]
    assert "count=99" in errors[4]
    same, checked, _ = replace_markers(md, ctx(atlas), swap=False)   # what check_tree asks for
    assert checked == errors and same == md


def test_foreign_comments_are_left_alone(atlas):
    md = "<!-- just a note for editors -->\n<!-- providers:table feature=storage -->"
    out, errors, slots = replace_markers(md, ctx(atlas, "vi"))
    assert not errors and "<!-- just a note for editors -->" in out and SLOT.format(0) in out
    html = fill(f"<p>{out.splitlines()[0]}</p>\n<p>{SLOT.format(0)}</p>", slots)
    assert SLOT.format(0) in html   # a table goes in late, after search has indexed the page
    html = fill(html, slots, late=True)
    assert str(e(atlas.t("vi", "fields.persistent_volumes.label"))) in html and "<p><div" not in html


def test_source_line_follows_the_translations_word_order(atlas):
    words = {**atlas.words["hi"], "quiz.source_line": "{date} को जाँचा गया स्रोत: {source}।"}
    swapped = replace(atlas, words=MappingProxyType({**atlas.words, "hi": MappingProxyType(words)}))
    html = quizzes.render_quiz(swapped, "hi", quiz_key="q", title="t",
                               questions=quizzes.generated(swapped, "hi", "billing", 1))
    line = re.search(r'<p class="atlas-quiz__source">(.*?)</p>', html).group(1)
    assert re.fullmatch(r'<time datetime="[\d-]+">[^<]+</time> को जाँचा गया स्रोत: <a href="https://[^"]+"[^>]*>[^<]+</a>।', line), line


def test_compiled_templates_are_reused_across_processes_and_recompiled_when_edited(tmp_path, monkeypatch):
    """The bytecode cache: a second cache (a new build) loads what the first compiled, from
    disk; an edited template compiles again; a damaged entry or a folder that cannot be used
    costs a compile, never the build."""
    import jinja2
    from jinja2.bccache import bc_magic

    from atlas.render import BytecodeCache

    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "t.html").write_text("{{ x }} one", encoding="utf-8")

    def environment(cache):
        return jinja2.Environment(loader=jinja2.FileSystemLoader(templates), bytecode_cache=cache)

    compiled = []
    real = jinja2.Environment.compile
    monkeypatch.setattr(jinja2.Environment, "compile",
                        lambda self, *args, **kwargs: compiled.append(args[1]) or real(self, *args, **kwargs))
    assert environment(BytecodeCache(str(folder))).get_template("t.html").render(x=1) == "1 one"
    assert compiled == ["t.html"] and len(list(folder.iterdir())) == 1
    assert environment(BytecodeCache(str(folder))).get_template("t.html").render(x=2) == "2 one"
    assert compiled == ["t.html"], "a new process compiled a template the disk cache holds"
    (templates / "t.html").write_text("{{ x }} two", encoding="utf-8")
    assert environment(BytecodeCache(str(folder))).get_template("t.html").render(x=3) == "3 two"
    assert compiled == ["t.html", "t.html"], "an edited template was not compiled again"
    entry = next(folder.iterdir())
    for damage in (b"not bytecode", bc_magic + b"garbage!", bc_magic):   # wrong header, torn checksum, cut short
        entry.write_bytes(damage)
        assert environment(BytecodeCache(str(folder))).get_template("t.html").render(x=4) == "4 two"
    assert len(compiled) == 5
    unusable = BytecodeCache(str(tmp_path / "missing" / "folder"))
    assert environment(unusable).get_template("t.html").render(x=5) == "5 two"


def test_markers_are_found_once_per_text_unless_the_hash_key_is_fixed(monkeypatch):
    """`find` remembers a text by its length and hash(), which Python keys afresh in every
    process; with PYTHONHASHSEED set, a page could be written to pass for another, so it reads
    every time."""
    from atlas import marker_syntax

    scans = []
    real = marker_syntax._find
    monkeypatch.setattr(marker_syntax, "_find", lambda text: scans.append(text) or real(text))
    monkeypatch.setattr(marker_syntax, "_REMEMBER", True)   # as in a process without PYTHONHASHSEED
    text = "# Page\n\n<!-- quiz:storage -->\n" + "x" * 40
    marker_syntax.forget()
    first = marker_syntax.find(text)
    other = (text + " ")[:-1]
    assert other is not text
    assert marker_syntax.find(other) == first and len(scans) == 1   # an equal text, another object
    assert [m.name for m in first[0]] == ["storage"]
    monkeypatch.setattr(marker_syntax, "_REMEMBER", False)
    marker_syntax.find(text)
    marker_syntax.find(text)
    assert len(scans) == 3
    marker_syntax.forget()


def test_a_provider_not_yet_researched_says_so_in_one_cell_and_sorts_last(atlas):
    """Fewer than tables.RESEARCHED sourced facts: where the table has none of them, one cell says
    so instead of a row of "Unknown"; where it has one, the facts show as usual."""
    from atlas.data import Fact
    first = atlas.providers[0]
    kept = {"kubernetes": first.facts["kubernetes"]} if first.facts["kubernetes"].known else {}
    facts = {f: kept.get(f, Fact("unknown")) for f in atlas.all_fields}
    fresh = replace(first, id="fresh", name="AAA Fresh", facts=MappingProxyType(facts))
    a = replace(atlas, providers=(*atlas.providers, fresh))
    assert tables.pending(fresh) and not any(tables.pending(p) for p in atlas.providers if sum(f.known for f in p.facts.values()) >= 3)
    docker = table(a, "hi", "docker")
    row = docker[docker.index('<tr data-provider="fresh"'):]
    row = row[: row.index("</tr>")]
    assert row.count("<td") == 2 and 'colspan="3"' in row   # category, then one cell for the three fields
    assert a.t("hi", "table.pending", sourced=len(kept), total=len(atlas.all_fields)) in row
    ids = row_ids(docker)
    waiting = {p.id for p in a.providers if tables.pending(p)}
    unknown = [i for i in ids if a.rank("custom_images", next(p for p in a.providers if p.id == i).facts["custom_images"].value) == 2]
    assert unknown[-len(waiting & set(unknown)):] == [i for i in unknown if i in waiting]   # after every researched one
    if kept:
        k8s = table(a, "hi", "kubernetes")
        assert 'atlas-table__pending' not in k8s[k8s.index('<tr data-provider="fresh"'):].split("</tr>")[0]
