"""Find English left in built Hindi and Vietnamese HTML: the text a reader sees or hears.

The Markdown and YAML checks never see the theme's chrome (tooltips, footer, labels), so
this reads the finished page: visible text outside code, and the attributes a browser
shows or a screen reader speaks. A string counts as English when, after technical names,
URLs and acronyms are removed, ordinary English words remain and nothing of the page's
language does; longer prose goes through the same sentence test as Markdown.
"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from . import invisible, leaks

SPOKEN_ATTRIBUTES = frozenset({"title", "aria-label", "alt", "placeholder", "aria-description",
                               "aria-roledescription", "aria-valuetext"})
SKIPPED = frozenset({"script", "style", "code", "pre", "kbd", "samp", "svg", "math", "template"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "param", "source", "track", "wbr"})
# Words of the theme's English interface (Material's en strings) and of our own chrome: in a
# string with nothing of the page's language, any of these means an untranslated label.
UI_WORDS = frozenset("""
edit page skip content view source copy clipboard copied footer next previous header navigation
search share clear initializing type start searching matching documents document more missing
select language version repository contributors created last update table contents back top
permanent link made read min home found filter sort sorted ascending descending show hide
results result print save answer answers check try again reset score correct wrong question
questions menu close open dismiss settings accept reject archive categories draft continue
""".split()) | leaks.ENGLISH
URL = re.compile(r"(?:https?://|mailto:)\S+|\b[\w.-]+\.(?:com|io|ai|net|org|cloud|vn|in)\S*")
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*(?:-[A-Za-z]+)*")


def config_strings(html: str) -> list[tuple[str, str]]:
    """The theme's interface strings sent to the browser in `<script id="__config">`."""
    m = re.search(r'<script id="__config" type="application/json">(.*?)</script>', html, re.S)
    if not m:
        return []
    try:
        translations = json.loads(m.group(1)).get("translations", {})
    except ValueError:
        return []
    return [(f"__config {k}", v) for k, v in translations.items() if isinstance(v, str)]


def _technical(word: str) -> bool:
    """Acronyms, CamelCase product names and mixed tokens are names, not English prose."""
    return (len(word) < 2 or word.isupper() or any(c.isupper() for c in word[1:])
            or "-" in word and any(c.isupper() for c in word))


class _Reader(HTMLParser):
    def __init__(self, lang: str) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = lang
        self.stack: list[tuple[str, bool]] = []
        self.skipping = 0
        self.found: list[tuple[str, str]] = []   # (where, text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        other_language = bool(a.get("lang")) and not a["lang"].startswith(self.lang)
        if not self.skipping and not other_language:
            for name in SPOKEN_ATTRIBUTES & a.keys():
                if a[name].strip():
                    self.found.append((f"<{tag} {name}>", a[name].strip()))
            if tag == "meta" and a.get("name") == "description" or a.get("property", "").endswith(":description"):
                self.found.append(("<meta description>", a.get("content", "").strip()))
        if tag not in VOID:
            skip = tag in SKIPPED or other_language or a.get("translate") == "no"
            self.stack.append((tag, skip))
            self.skipping += skip

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            name, skip = self.stack.pop()
            self.skipping -= skip
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            where = f"<{self.stack[-1][0]}>" if self.stack else "text"
            self.found.append((where, " ".join(data.split())))


def english_strings(html: str, lang: str, keep: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(where, text) for every string of `html`, a `lang` page, that reads as English."""
    reader = _Reader(lang)
    reader.feed(html)
    out = []
    for where, text in reader.found + config_strings(html):
        if _is_english(text, lang, keep):
            out.append((where, text))
    return out


def _is_english(text: str, lang: str, keep: frozenset[str]) -> bool:
    text = invisible.visible(text)   # as it looks: "s\u200bharing" is "sharing"
    if leaks.VI_MARKS.search(text) if lang == "vi" else leaks.DEVANAGARI.search(text):
        return any(leaks.is_english(s, lang, keep) for s in leaks.sentences(text))
    rest = URL.sub(" ", text)
    for term in keep:
        if term in rest:
            rest = rest.replace(term, " ")
    return any(w.lower() in UI_WORDS for w in WORD.findall(rest) if not _technical(w))
