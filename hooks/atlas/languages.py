"""The site's languages, from one place: the i18n plugin's `languages:` in mkdocs.yml.

Everything that needs the list of languages (data loading, `make i18n`, the glossary, the
Makefile's LANG check, `make new-language`) reads it from there, so adding a language is an
edit of mkdocs.yml (which `make new-language` makes) and never of Python.

mkdocs.yml holds tags the safe YAML loader does not know (`!ENV`, `!!python/object/apply`):
they are read as nothing, and nothing they hold is ever run.

A value a new language still has in English carries the comment `# untranslated` on its line
(`make new-language` copies English that way into data/i18n/<code>.yaml, data/quizzes/<code>/,
its entry in mkdocs.yml and its blocks in data/glossary.yaml): the site shows the English words,
and `make i18n` counts them as words to translate. A translator deletes the comment with the
English.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CONFIG = "mkdocs.yml"
MARKER = "untranslated"
# A YAML comment `# untranslated` at the end of a line (after a value, or alone after a key).
MARKED = re.compile(r"(?:^|\s)#\s*untranslated(?:\s|$)")

try:  # libyaml's C loader where it is built
    _Base = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Base = yaml.SafeLoader


class _Tolerant(_Base):
    """The safe loader, reading any tag it does not know (`!ENV`, `!!python/...`) as None."""


_Tolerant.add_multi_constructor("", lambda loader, suffix, node: None)   # every tag no constructor claims


class LanguageConfigError(ValueError):
    """mkdocs.yml cannot be read for its languages; the message says where and why."""


@dataclass(frozen=True)
class Language:
    code: str            # the i18n plugin's `locale`: the folder under docs/, the URL prefix
    name: str            # the name the language switcher shows, in the language itself
    default: bool = False
    build: bool = True


def load_config(root: Path | None = None) -> dict:
    """mkdocs.yml under `root` (the repository by default) as plain data, unknown tags as None."""
    path = (root or ROOT) / CONFIG
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LanguageConfigError(f"{CONFIG}: cannot be read ({exc})") from None
    return _parse(text)


def _parse(text: str) -> dict:
    try:
        data = yaml.load(text, Loader=_Tolerant)   # noqa: S506 - a safe loader that ignores unknown tags
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise LanguageConfigError(f"{CONFIG}{where}: malformed YAML ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(data, dict):
        raise LanguageConfigError(f"{CONFIG}:1: expected a mapping of settings")
    return data


def i18n_options(config: dict) -> dict | None:
    """The i18n plugin's options in a parsed mkdocs.yml, or None without the plugin."""
    plugins = config.get("plugins") or []
    items = plugins.items() if isinstance(plugins, dict) else (
        next(iter(p.items())) if isinstance(p, dict) and len(p) == 1 else (p, {}) for p in plugins)
    for name, options in items:
        if name == "i18n":
            return options if isinstance(options, dict) else {}
    return None


def read(root: Path | None = None) -> tuple[Language, ...]:
    """Every language of the site, the default one first, then as listed in mkdocs.yml."""
    path = (root or ROOT) / CONFIG
    try:
        stamp = path.stat().st_mtime_ns, path.stat().st_size
    except OSError as exc:
        raise LanguageConfigError(f"{CONFIG}: cannot be read ({exc.strerror or exc})") from None
    return _read(path.resolve(), stamp)


@lru_cache(maxsize=64)
def _read(path: Path, stamp: tuple[int, int]) -> tuple[Language, ...]:
    config = load_config(path.parent)
    options = i18n_options(config)
    theme = config.get("theme") if isinstance(config.get("theme"), dict) else {}
    if options is None:   # no i18n plugin: one language, the theme's
        return (Language(str(theme.get("language") or "en"), "", True),)
    entries = options.get("languages")
    if not isinstance(entries, list) or not entries:
        raise LanguageConfigError(f"{CONFIG}: plugins: i18n: languages: expected a list of languages "
                                  "(- locale: en, name: English, default: true)")
    found: list[Language] = []
    for i, entry in enumerate(entries):
        code = entry.get("locale") if isinstance(entry, dict) else None
        if not isinstance(code, str) or not code.strip():
            raise LanguageConfigError(f"{CONFIG}: plugins: i18n: languages: entry #{i + 1} has no locale")
        if any(lang.code == code for lang in found):
            raise LanguageConfigError(f"{CONFIG}: plugins: i18n: languages: '{code}' is listed twice")
        found.append(Language(code, str(entry.get("name") or code), entry.get("default") is True,
                              entry.get("build") is not False))
    if not any(lang.default for lang in found):   # the plugin's own rule: the first is the default
        found[0] = Language(found[0].code, found[0].name, True, found[0].build)
    return tuple(sorted(found, key=lambda lang: not lang.default))


def codes(root: Path | None = None) -> tuple[str, ...]:
    """The language codes of the site under `root`, the default (English) first."""
    return tuple(lang.code for lang in read(root))


def default(root: Path | None = None) -> str:
    return read(root)[0].code


def marked_lines(text: str) -> list[int]:
    """Line numbers (from 1) that carry the `# untranslated` marker."""
    return [n for n, line in enumerate(text.split("\n"), 1) if MARKED.search(line)]


@dataclass(frozen=True)
class Untranslated:
    """The values of one file that a language still has in English (marked `# untranslated`)."""

    file: str                 # relative to the repository, e.g. data/i18n/ta.yaml
    lines: tuple[int, ...]    # the marked lines
    words: int                # English words on them: what a translator has to write


def untranslated(root: Path, lang: str) -> list[Untranslated]:
    """Every file holding values of `lang` still marked `# untranslated`: its words file and
    quiz texts, and its own parts of data/glossary.yaml and mkdocs.yml."""
    from . import files   # bounded, strict reading of contributor files
    out = []
    own = [root / "data" / "i18n" / f"{lang}.yaml", *sorted((root / "data" / "quizzes" / lang).glob("*.yaml"))]
    shared = [(root / "data" / "glossary.yaml", _glossary_blocks), (root / CONFIG, _config_entry)]
    for path, blocks in [(p, None) for p in own] + shared:
        try:
            text = files.read_text(path, root)
        except (files.FileProblem, OSError):
            continue   # the loaders that own these files report it
        lines = marked_lines(text)
        if blocks is not None and lines:
            try:
                ranges = blocks(yaml.compose(text, Loader=_Tolerant), lang)
            except yaml.YAMLError:
                continue
            lines = [n for n in lines if any(first <= n <= last for first, last in ranges)]
        if lines:
            all_lines = text.split("\n")
            words = sum(len(_WORD.findall(_value_text(all_lines[n - 1]))) for n in lines)
            out.append(Untranslated(path.relative_to(root).as_posix(), tuple(lines), words))
    return out


_WORD = re.compile(r"\w+")


def _value_text(line: str) -> str:
    """The words of a marked line: its value, without the key and the marker."""
    line = MARKED.split(line, 1)[0]
    return line.split(":", 1)[1] if ":" in line else line


def _span(node: yaml.Node) -> tuple[int, int]:
    """First and last line (from 1) of a node's own text."""
    last = node
    while isinstance(last, (yaml.MappingNode, yaml.SequenceNode)) and last.value:
        last = last.value[-1][1] if isinstance(last, yaml.MappingNode) else last.value[-1]
    end = last.end_mark.line + (1 if last.end_mark.column else 0)
    return node.start_mark.line + 1, max(end, node.start_mark.line + 1)


def _glossary_blocks(node: yaml.Node | None, lang: str) -> list[tuple[int, int]]:
    """The lines of each term's `<lang>:` block in data/glossary.yaml."""
    terms = _get(node, "terms")
    items = terms.value if isinstance(terms, yaml.SequenceNode) else []
    found = [_get(item, lang, key_line=True) for item in items]
    return [span for span in found if span]


def _config_entry(node: yaml.Node | None, lang: str) -> list[tuple[int, int]]:
    """The lines of the language's entry under the i18n plugin in mkdocs.yml."""
    plugins = _get(node, "plugins")
    for item in plugins.value if isinstance(plugins, yaml.SequenceNode) else []:
        entries = _get(_get(item, "i18n"), "languages")
        for entry in entries.value if isinstance(entries, yaml.SequenceNode) else []:
            locale = _get(entry, "locale")
            if isinstance(locale, yaml.ScalarNode) and locale.value == lang:
                return [_span(entry)]
    return []


def _get(node, key: str, key_line: bool = False):
    """The value node at `key` of a mapping node (None when absent); with `key_line`, the lines
    from the key to the end of its value."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return (k.start_mark.line + 1, _span(v)[1]) if key_line else v
    return None


LANGUAGES: tuple[str, ...] = codes()
