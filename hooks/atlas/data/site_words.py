"""The words the templates and hooks ask for by name (`atlas.t(lang, "site.reading_time")`,
`t('shown')` in a template, `atlas_text("site.not_found_title")` in overrides/), checked in
every language before anything is built: a key removed from every words file is a missing key
like any other, not a KeyError in the middle of a page.

The list is written out, by the file that uses each key, with the placeholders that file fills
in (`{minutes}`): a translation may use those and no other. tests/test_hardening_rest.py reads
the code for the keys it uses and fails when this list and the code part ways. Words for data
(fields, values, groups, categories, generated quizzes) are required by words.check_words.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..problems import Problem
from .words import _placeholders, nearest_line

USED_BY = {
    "hooks/atlas_hooks.py": """site.nav_untranslated site.not_translated_body site.not_translated_title
        site.outdated_body site.outdated_link site.outdated_title site.permalink_title site.reading_time{minutes}""",
    "overrides/404.html": "site.not_found_body site.not_found_home site.not_found_title",
    "overrides/partials/copyright.html": "site.built_with site.license_line",
    "hooks/atlas/changes.py": """changes.absent changes.added changes.download changes.feed changes.feed_title
        changes.items_added{item} changes.items_removed{item} changes.license changes.none changes.pricing_page changes.removed changes.unavailable changes.was_now{item,name}""",
    "hooks/atlas/markers.py": "glossary.english glossary.more_terms quiz.generated_title site.language_name",
    "hooks/atlas/cells.py": """reader.provider.sources table.note table.note_untranslated table.quote_label table.stale
        table.stale_hint{days} table.stale_source_hint{days} table.verified{date} table.source_dated{date}
        table.checked{date} table.quote_translation""",
    "hooks/atlas/tables.py": """table.add{provider} table.caption{count,group} table.prices{provider} table.coverage{percent,sourced,total}
        table.pending{sourced,total} table.region_option{country} values.unknown""",
    "hooks/atlas/templates/table.html": """table.category table.filter_hint table.filter_label table.legend_details
        table.legend_icons table.legend_terms table.sentence_end table.legend_title table.no_match table.provider table.region_hint
        table.region_legend table.region_more{count} table.shown{shown,total} table.sort_hint""",
    "hooks/atlas/provider_pages.py": """reader.compare.link reader.provider.all_providers reader.provider.caption{name}
        reader.provider.category reader.provider.choose reader.provider.description{name} reader.provider.field
        reader.provider.homepage{name} reader.provider.intro reader.provider.pricing{name} reader.provider.pricing_read{date} reader.provider.read_more reader.provider.value
        table.data_as_of{date} table.report""",
    "hooks/atlas/side_by_side.py": """reader.compare.caption{count} reader.compare.clear reader.compare.differs
        reader.compare.field reader.compare.hint reader.compare.legend reader.compare.limit reader.compare.need_two
        reader.compare.nojs reader.compare.offline reader.compare.only_diff table.details{name,provider} table.load_failed table.loading
        table.open_page""",
    "hooks/atlas/quizzes.py": "quiz.region_label{title} quiz.source_line{date,source}",
    "hooks/atlas/templates/quiz.html": """quiz.answer_is{answers} quiz.choose_all quiz.choose_one quiz.correct
        quiz.incorrect quiz.option_right quiz.option_wrong quiz.partly quiz.print quiz.record_date{date}
        quiz.record_disclaimer quiz.record_heading quiz.record_none quiz.record_right{answer} quiz.record_score{score}
        quiz.record_yours{answer} quiz.reset quiz.retry quiz.saved quiz.score{correct,total} quiz.score_label
        quiz.show_answer""",
    "hooks/atlas/templates/chooser.html": """reader.choose.count{match,total,unconfirmed} reader.choose.count_all{total}
        reader.choose.legend reader.choose.matches reader.choose.no_match reader.choose.share
        reader.choose.unconfirmed_body reader.choose.unconfirmed_title""",
    "hooks/atlas/templates/status.html": """status.keys_missing status.language status.missing status.none
        status.outdated status.translated""",
    "hooks/reader_hooks.py": "reader.listen.no_voice reader.listen.pause reader.listen.play reader.listen.resume reader.listen.stop",
}


@lru_cache(maxsize=1)
def used() -> dict[str, tuple[str, frozenset[str]]]:
    """key -> (the file that uses it, the placeholders it fills in)."""
    out = {}
    for user, keys in USED_BY.items():
        for key, names in re.findall(r"([\w.-]+)(?:\{([\w,]*)\})?", keys):
            out[key] = (user, frozenset(filter(None, names.split(","))))
    return out


def check_site_words(docs, words, problems: list[Problem]) -> None:
    """A problem for each used key a language lacks (English first: a key every language lost
    is reported in each, beside where it belongs), and for each placeholder its user does not
    fill (Python would stop the build there with a KeyError)."""
    en = words.get("en", {})
    order = list(en)
    for lang, doc in docs.items():
        if doc is None:
            continue
        mine = words[lang]
        for key, (user, names) in used().items():
            if key not in mine and (lang == "en" or key not in en):   # else: words.check_words reports it
                problems.append(Problem(doc.path, nearest_line(doc, order, key), f"key '{key}'",
                                        f"missing {'English' if lang == 'en' else lang} text; {user} uses it, so every "
                                        "language needs it; it goes next to this line"))
            elif key in mine and _placeholders(mine[key]) - names - {"<unbalanced braces>"}:   # those: check_words
                extra = sorted(_placeholders(mine[key]) - names - {"<unbalanced braces>"})
                allowed = ", ".join("{" + n + "}" for n in sorted(names)) or "none"
                problems.append(Problem(doc.path, doc.line(*key.split(".")), f"key '{key}'",
                                        f"found placeholder {{{extra[0]}}}, which {user} does not fill in; allowed: {allowed}"))
