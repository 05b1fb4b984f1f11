"""The autoescaping Jinja environment every renderer uses, and small shared helpers."""
from __future__ import annotations

import datetime as dt
import string
from functools import lru_cache
from pathlib import Path

import jinja2
import jinja2.bccache
from babel.dates import format_date

TEMPLATES = Path(__file__).with_name("templates")


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept for the life of the process. MkDocs makes a new theme
    environment for each language (and each `serve` rebuild); with this cache each template
    compiles once. Jinja checks each entry against the template source's checksum, so an
    edited template compiles again."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


BYTECODE = MemoryBytecodeCache()


@lru_cache(maxsize=1)
def env() -> jinja2.Environment:
    """Autoescape on for every template: data and translations never become markup."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def render(template: str, **context: object) -> str:
    """Render `template` and drop blank lines, so Markdown keeps the result as one HTML block."""
    html = env().get_template(template).render(**context)
    return "\n".join(line for line in html.splitlines() if line.strip())


# Where CLDR's long date is not how the language writes a date in running text. Vietnamese
# CLDR gives "30 tháng 11, 2026" with an English-style comma; the native review asks for the
# form Vietnamese prose uses.
DATE_PATTERNS = {"vi": "'ngày' d 'tháng' M 'năm' y"}


@lru_cache(maxsize=4096)   # a few dozen distinct dates, in tens of thousands of cells
def local_date(day: dt.date, lang: str) -> str:
    """A date as readers of `lang` write it (30 नवंबर 2026, ngày 30 tháng 11 năm 2026)."""
    return format_date(day, format=DATE_PATTERNS.get(lang, "long"), locale=lang)


@lru_cache(maxsize=1024)
def pieces(text: str) -> tuple[tuple[str, str | None], ...]:
    """A translated template as (words, placeholder name) pairs, in the translation's order,
    so a template can put markup (a link, a <time>) where each placeholder stands."""
    return tuple((literal, name) for literal, name, _, _ in string.Formatter().parse(text))
