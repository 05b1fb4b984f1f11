"""The autoescaping Jinja environment every renderer uses, and small shared helpers."""
from __future__ import annotations

import datetime as dt
import pickle
import string
from functools import lru_cache
from pathlib import Path

import jinja2
import jinja2.bccache
from babel.dates import format_date, format_skeleton

TEMPLATES = Path(__file__).with_name("templates")


class BytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept for the life of the process and, through Jinja's own
    FileSystemBytecodeCache (a folder of the system temp directory that only this user may
    open, checked by Jinja), from one build to the next: compiling Material's templates was
    about 0.1 s of every build. MkDocs makes a new theme environment for each language (and
    each `serve` rebuild); each template compiles once. Jinja checks every entry against the
    template source's checksum and its own and Python's versions, so an edited template
    compiles again. Where the folder cannot be used, the cache is in memory alone."""

    def __init__(self, directory: str | None = None) -> None:
        self._code: dict[str, bytes] = {}
        try:
            self._disk: jinja2.FileSystemBytecodeCache | None = jinja2.FileSystemBytecodeCache(directory)
        except (OSError, RuntimeError):   # no temp folder, or one another user could write
            self._disk = None

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)
            return
        if self._disk is not None:
            try:
                self._disk.load_bytecode(bucket)   # leaves bucket.code None unless valid and current
            except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):   # a damaged entry
                bucket.reset()
            if bucket.code is not None:
                self._code[bucket.key] = bucket.bytecode_to_string()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()
        if self._disk is not None:
            try:
                self._disk.dump_bytecode(bucket)
            except OSError:
                pass   # a full or read-only disk costs the next build its compile, nothing more


BYTECODE = BytecodeCache()


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
        bytecode_cache=BYTECODE,
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


MONTH_PATTERNS = {"vi": "'tháng' M 'năm' y"}


@lru_cache(maxsize=1024)
def local_month(day: dt.date, lang: str) -> str:
    """A month as readers of `lang` write it (June 2023, जून 2023, tháng 6 năm 2023)."""
    return format_skeleton("yMMMM", day, locale=lang) if lang not in MONTH_PATTERNS else format_date(
        day, format=MONTH_PATTERNS[lang], locale=lang)


@lru_cache(maxsize=1024)
def pieces(text: str) -> tuple[tuple[str, str | None], ...]:
    """A translated template as (words, placeholder name) pairs, in the translation's order,
    so a template can put markup (a link, a <time>) where each placeholder stands."""
    return tuple((literal, name) for literal, name, _, _ in string.Formatter().parse(text))
