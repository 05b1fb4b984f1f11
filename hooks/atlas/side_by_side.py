"""Compare side by side (compare/side-by-side.md, `<!-- reader:side-by-side -->`): the reader
ticks two to four providers and sees them as columns, capabilities as rows, grouped as the
comparison pages are. The page carries only the choice and the rows' names; the script reads
each chosen provider's page, where every fact row holds the tables' own cell (cells.compact)
in an inert `<template>`, so the page does not grow with the number of providers and each cell
opens the same evidence. The choice lives in the page address (`?p=aws&p=e2e-networks`).
Without JavaScript the page says how to compare and links to every provider's page.
"""
from __future__ import annotations

from markupsafe import escape as e

from .cells import ROOT_LINK
from .data import Atlas

MAX_CHOSEN = 4


def sections(atlas: Atlas) -> list[tuple[str, list[str]]]:
    """(group, fields) in the comparison pages' order, each field once (a field shown in an
    earlier group is not repeated; a group left with none is dropped)."""
    seen: set[str] = set()
    out = []
    for group, fields in atlas.groups.items():
        mine = [f for f in fields if f not in seen]
        seen.update(mine)
        if mine:
            out.append((group, mine))
    rest = [f for f in atlas.all_fields if f not in seen]
    if rest:
        out.append(("all", rest))
    return out


def render(atlas: Atlas, lang: str) -> str:
    """HTML of the side-by-side tool in `lang`. Every value is escaped."""
    t = lambda key, **kw: e(atlas.t(lang, f"reader.compare.{key}", **kw))  # noqa: E731
    tt = lambda key, **kw: e(atlas.t(lang, f"table.{key}", **kw))  # noqa: E731
    providers = sorted(atlas.providers, key=lambda p: p.name.casefold())
    parts = sections(atlas)
    out = [f'<div class="atlas-sbs" data-atlas-sbs data-atlas-wide data-max="{MAX_CHOSEN}" data-t-need-two="{t("need_two")}" '
           f'data-t-limit="{t("limit")}" data-t-caption="{t("caption", count="{count}")}" '
           f'data-t-details="{tt("details", provider="{provider}", name="{name}")}" data-t-loading="{tt("loading")}" '
           f'data-t-failed="{tt("load_failed")}" data-t-open="{tt("open_page")}" data-t-offline="{t("offline")}">',
           f'<noscript><p class="atlas-sbs__nojs">{t("nojs")}</p><ul class="atlas-sbs__links">'
           + "".join(f'<li><a href="{ROOT_LINK}providers/{e(p.id)}.html">{e(p.name)}</a></li>' for p in providers)
           + "</ul></noscript>",
           '<div class="atlas-sbs__app">',
           # Open until a choice is made; a shared address opens on the comparison (the script closes it).
           f'<details class="atlas-sbs__pickbox" open data-sbs-pickbox><summary>{t("legend")} '
           '<span data-sbs-chosen></span></summary>',
           f'<fieldset class="atlas-sbs__pick" aria-describedby="atlas-sbs-hint"><legend class="atlas-sr">{t("legend")}</legend>',
           f'<p id="atlas-sbs-hint" class="atlas-table__hint">{t("hint")}</p>',
           '<div class="atlas-sbs__choices">']
    out += [f'<label><input type="checkbox" value="{e(p.id)}" data-sbs-provider> <span>{e(p.name)}</span></label>'
            for p in providers]
    out += ['</div>',
            f'<button type="button" class="atlas-sbs__clear" data-sbs-clear>{t("clear")}</button>',
            '</fieldset>', '</details>',
            '<p class="atlas-sbs__status" role="status" data-sbs-status></p>',
            f'<p class="atlas-sbs__diff"><label><input type="checkbox" data-sbs-diff> {t("only_diff")}</label></p>',
            '<div class="atlas-table__scroll" role="region" aria-labelledby="atlas-sbs-caption" tabindex="0">',
            '<table class="atlas-table__table atlas-sbs__table" data-sbs-table data-transposed>',
            '<caption id="atlas-sbs-caption" data-sbs-caption></caption>',
            f'<thead><tr><th scope="col" class="atlas-table__provider">{t("field")}</th></tr></thead>',
            '<tbody>']
    for group, mine in parts:
        out.append(f'<tr class="atlas-sbs__group"><th scope="colgroup" data-sbs-span>{e(atlas.t(lang, f"groups.{group}"))}</th></tr>')
        for f in mine:
            out.append(f'<tr data-field="{e(f)}"><th scope="row" class="atlas-table__provider">'
                       f'{e(atlas.t(lang, f"fields.{f}.label"))}'
                       f' <span class="atlas-sbs__differs" hidden><span class="atlas-sbs__ne" aria-hidden="true">≠</span> {t("differs")}</span></th></tr>')
    # Where provider pages are: beside the providers overview (made relative to this page like
    # every atlas-root: link; a link to a folder would be no page of the site).
    out += ['</tbody>', '</table>', '</div>', f'<a href="{ROOT_LINK}providers.html" data-sbs-pages hidden></a>', '</div>', '</div>']
    return "\n".join(out)
