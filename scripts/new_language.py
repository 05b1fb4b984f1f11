"""`make new-language CODE=ta NAME=தமிழ்`: add a language in one command.

Adds the language to mkdocs.yml (the one list of languages, hooks/atlas/languages.py), with its
site name, palette labels and navigation words copied from English and marked `# untranslated`;
creates data/i18n/<code>.yaml and data/quizzes/<code>/ as English copies marked the same way, a
`<code>:` block in every term of data/glossary.yaml, its CODEOWNERS lines and an empty
docs/<code>/. The site then builds with the new language: every page in English with the "not yet
translated" notice, every word in English until translated, and `make i18n` lists what to
translate, smallest first.

Refused, with one line, unless both CLDR (babel) and the Material theme know the code.
Nothing is left half done: a failure restores every file as it was.

    python scripts/new_language.py CODE NAME [--root DIR]
    make new-language CODE=ta NAME=தமிழ்           # the same, CODE and NAME from the environment
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "hooks"))

import yaml  # noqa: E402

from atlas import languages  # noqa: E402

MARK = "  # untranslated"
# A language without region or script (pt, not pt-BR): the hooks pass the code to babel as a locale.
CODE = re.compile(r"^[a-z]{2,3}$")
NAME_BAD = re.compile(r"[<>&\"'`{}\[\]#|\\\x00-\x1f\x7f]")


class Refused(Exception):
    """The language cannot be added; the message is the one line to print."""


def material_languages() -> set[str]:
    """Interface languages the Material theme ships (partials/languages/<code>.html)."""
    import material
    folder = Path(material.__file__).parent / "templates" / "partials" / "languages"
    return {p.stem for p in folder.glob("*.html")}


def cldr_name(code: str) -> str | None:
    """The language's English name in CLDR (babel), or None when babel does not know it."""
    from babel import Locale, UnknownLocaleError, localedata
    try:
        locale = Locale.parse(code)
    except (UnknownLocaleError, ValueError, TypeError):
        return None
    if not localedata.exists(str(locale)):
        return None
    return locale.english_name


def check(root: Path, code: str, name: str) -> str:
    """Refuse what cannot be added; return the language's English name."""
    if not code or not CODE.match(code):
        raise Refused(f"CODE={code!r} is not a language code; use a two- or three-letter code CLDR and the Material "
                      "theme know, without region (ta, bn, pt): make new-language CODE=ta NAME=தமிழ்")
    have = languages.codes(root)
    if code in have:
        raise Refused(f"CODE={code}: the site already has this language (mkdocs.yml lists: {' '.join(have)})")
    english = cldr_name(code)
    material = material_languages() | {p.stem for p in (root / "overrides/partials/languages").glob("*.html")}
    if english is None or code not in material:
        who = "CLDR (babel)" if english is None else "the Material theme"
        raise Refused(f"CODE={code}: {who} does not know this language; use a code both know "
                      f"(Material: {len(material)} languages, e.g. ta, bn, pt)")
    if not name.strip() or NAME_BAD.search(name) or len(name) > 40:
        raise Refused(f"NAME={name!r}: give the language's own name as plain text, e.g. NAME=தமிழ்")
    for path in (root / "docs" / code, root / "data/i18n" / f"{code}.yaml", root / "data/quizzes" / code):
        if path.exists():
            raise Refused(f"{path.relative_to(root)} already exists: remove it or finish adding the language by hand")
    return english


# --- YAML written by hand, marked line by line ------------------------------------------------

def scalar(value: object) -> str:
    """One YAML scalar on one line, quoted only where YAML needs it."""
    if isinstance(value, str) and ("\n" in value or value != value.strip()):
        return json.dumps(value, ensure_ascii=False)   # a JSON string is a YAML double-quoted scalar
    text = yaml.safe_dump(value, allow_unicode=True, width=10**9, default_flow_style=True)
    text = text.removesuffix("\n").removesuffix("\n...").rstrip("\n")
    return json.dumps(value, ensure_ascii=False) if "\n" in text else text


def marked_tree(tree: dict, overrides: dict[str, tuple[str, bool]], indent: int = 0, prefix: str = "") -> list[str]:
    """The lines of a YAML mapping of text, one value a line, each marked `# untranslated`
    unless `overrides` (dotted key -> (text, marked)) says otherwise."""
    out = []
    pad = "  " * indent
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            out.append(f"{pad}{scalar(key)}:")
            out += marked_tree(value, overrides, indent + 1, dotted + ".")
        else:
            text, marked = overrides.get(dotted, (value, True))
            out.append(f"{pad}{scalar(key)}: {scalar(text)}{MARK if marked else ''}")
    return out


def _with_overrides(tree: dict, overrides: dict[str, tuple[str, bool]], prefix: str = "") -> dict:
    return {k: _with_overrides(v, overrides, f"{prefix}{k}.") if isinstance(v, dict)
            else overrides.get(f"{prefix}{k}", (v, True))[0] for k, v in tree.items()}


def words_file(root: Path, code: str, name: str, english: str) -> str:
    en = yaml.safe_load((root / "data/i18n/en.yaml").read_text(encoding="utf-8"))
    overrides = {
        "site.language_name": (name, False),   # known: the language's own name
        "site.not_translated_body": (f"This page has not been translated into {english} yet. "
                                     "The text below is the English original.", True),
        "reader.listen.no_voice": (f"This browser has no {english} voice on this device, "
                                   "so it cannot read this guide aloud.", True),
    }
    overrides = {k: v for k, v in overrides.items() if _has(en, k)}
    head = [f"# {english} ({code}) words for everything the build renders from data: the same keys as en.yaml.",
            "# Added by `make new-language` as English copies. Translate each value marked `# untranslated`",
            "# and delete the marker; `make i18n` counts what is left. Plain text only; keep every {placeholder}."]
    text = "\n".join(head + marked_tree(en, overrides)) + "\n"
    _same(text, _with_overrides(en, overrides), "data/i18n/en.yaml")
    return text


def quiz_file(path: Path, english: str) -> str:
    en = yaml.safe_load(path.read_text(encoding="utf-8"))
    head = [f"# {english} texts of this quiz, added by `make new-language` as English copies: translate each",
            "# value marked `# untranslated` and delete the marker."]
    text = "\n".join(head + marked_tree(en, {})) + "\n"
    _same(text, en, f"data/quizzes/en/{path.name}")
    return text


def _has(tree: dict, dotted: str) -> bool:
    for part in dotted.split("."):
        if not isinstance(tree, dict) or part not in tree:
            return False
        tree = tree[part]
    return True


def _same(text: str, expected: object, source: str) -> None:
    if yaml.safe_load(text) != expected:   # pragma: no cover - a guard on the writer above
        raise Refused(f"{source}: could not be copied faithfully; add the language by hand (CONTRIBUTING.md)")


# --- mkdocs.yml, data/glossary.yaml, CODEOWNERS: edited as text, comments and layout kept ----------

def config_entry(root: Path, code: str, name: str) -> str:
    """mkdocs.yml with the language added after the last one of the i18n plugin."""
    path = root / "mkdocs.yml"
    text = path.read_text(encoding="utf-8")
    config = languages.load_config(root)
    node = yaml.compose(text, Loader=languages._Tolerant)
    entries = None
    for item in getattr(languages._get(node, "plugins"), "value", []):
        entries = languages._get(languages._get(item, "i18n"), "languages") or entries
    if not isinstance(entries, yaml.SequenceNode) or not entries.value or entries.flow_style:
        raise Refused("mkdocs.yml: plugins: i18n: languages: expected a block list of languages to add to")
    lines = text.split("\n")
    first = entries.value[0]
    dash = lines[first.start_mark.line][: first.start_mark.column]
    if not dash.rstrip().endswith("-"):
        raise Refused("mkdocs.yml: plugins: i18n: languages: expected entries written `- locale: …`")
    pad = " " * len(dash)
    theme = config.get("theme") if isinstance(config.get("theme"), dict) else {}
    new = [f"{dash}locale: {scalar(code)}",
           f"{pad}name: {scalar(name)}",
           f"{pad}build: true",
           f"{pad}# Added by `make new-language`: translate each value marked `# untranslated`, then delete the marker.",
           f"{pad}site_name: {scalar(str(config.get('site_name') or ''))}{MARK}"]
    if config.get("site_description"):
        new.append(f"{pad}site_description: {scalar(str(config['site_description']))}{MARK}")
    palette = theme.get("palette") if isinstance(theme.get("palette"), list) else []
    if palette and all(isinstance(p, dict) for p in palette):
        new += [f"{pad}theme:", f"{pad}  palette:"]
        for p in palette:
            keys = list(p.items())
            for i, (key, value) in enumerate(keys):
                lead = f"{pad}    - " if i == 0 else f"{pad}      "
                marked = MARK if isinstance(value, dict) and "name" in value else ""
                new.append(f"{lead}{key}: {_flow(value)}{marked}")
    titles = _nav_titles(config.get("nav"))
    if titles:
        new.append(f"{pad}nav_translations:")
        new += [f"{pad}  {scalar(t)}: {scalar(t)}{MARK}" for t in titles]
    at = languages._span(entries.value[-1])[1]   # after the last language's last line
    result = "\n".join(lines[:at] + new + lines[at:])
    added = [e for e in (languages.i18n_options(languages._parse(result)) or {}).get("languages", [])
             if isinstance(e, dict) and e.get("locale") == code]
    if len(added) != 1 or added[0].get("name") != name:   # pragma: no cover - a guard on the edit above
        raise Refused("mkdocs.yml: could not add the language to plugins: i18n: languages; add it by hand")
    return result


def _flow(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) and value.startswith("(") else scalar(value)


def _nav_titles(nav: object) -> list[str]:
    """Every title in the navigation (sections and titled pages): what nav_translations translates."""
    out: list[str] = []
    for item in nav if isinstance(nav, list) else []:
        if isinstance(item, dict):
            for title, inner in item.items():
                out.append(str(title))
                out += _nav_titles(inner)
    return list(dict.fromkeys(out))


def glossary_blocks(root: Path, code: str) -> str | None:
    """data/glossary.yaml with a `<code>:` block (English copies, marked) in every term."""
    path = root / "data/glossary.yaml"
    if not path.exists():
        return None
    text = path.read_text(encoding="utf-8")
    node = yaml.compose(text, Loader=languages._Tolerant)
    terms = languages._get(node, "terms")
    data = yaml.safe_load(text)
    if not isinstance(terms, yaml.SequenceNode):
        return None
    lines = text.split("\n")
    for item, entry in reversed(list(zip(terms.value, data["terms"]))):
        en = entry.get("en") if isinstance(entry, dict) else None
        if not isinstance(item, yaml.MappingNode) or not isinstance(en, dict):
            continue
        pad = " " * item.start_mark.column
        block = [f"{pad}{code}:"] + [f"{pad}  {key}: {scalar(en[key])}{MARK}" for key in ("use", "definition") if key in en]
        at = languages._span(item)[1]
        lines[at:at] = block
    result = "\n".join(lines)
    after = yaml.safe_load(result)
    if [t.get(code, {}).get("use") for t in after["terms"]] != [t["en"].get("use") for t in data["terms"]]:
        raise Refused("data/glossary.yaml: could not add the language's blocks; add them by hand")  # pragma: no cover
    return result


def codeowners(root: Path, code: str, english: str) -> str | None:
    path = root / "CODEOWNERS"
    if not path.exists():
        return None
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    owners = [re.match(r"^/data/quizzes/[^/\s]+/\s+(\S+)/", line) for line in lines]
    last = max((i for i, m in enumerate(owners) if m), default=None)
    org = owners[last].group(1) if last is not None else "@OWNER"
    team = f"{org}/{re.sub(r'[^a-z0-9]+', '-', english.lower()).strip('-')}"
    new = [f"{p:<24}{team}" for p in (f"/docs/{code}/", f"/data/i18n/{code}.yaml", f"/data/quizzes/{code}/")]
    at = len(lines) if last is None else last + 1
    return "\n".join(lines[:at] + new + lines[at:]) + "\n"


# --- all or nothing ---------------------------------------------------------------------------

def add(root: Path, code: str, name: str) -> list[str]:
    """Add the language under `root`; return the paths written. Raises Refused."""
    english = check(root, code, name)
    writes: dict[Path, str] = {
        root / "mkdocs.yml": config_entry(root, code, name),
        root / "data/i18n" / f"{code}.yaml": words_file(root, code, name, english),
    }
    for path in sorted((root / "data/quizzes/en").glob("*.yaml")):
        writes[root / "data/quizzes" / code / path.name] = quiz_file(path, english)
    for path, text in ((root / "data/glossary.yaml", glossary_blocks(root, code)),
                       (root / "CODEOWNERS", codeowners(root, code, english))):
        if text is not None:
            writes[path] = text
    writes[root / "docs" / code / ".gitkeep"] = ""   # git keeps no empty folder; MkDocs skips dotfiles
    from atlas import translations
    record = getattr(translations, "WORDS_RECORD", None)   # which English each string translates, where kept
    record = root / record.format(lang=code) if record and hasattr(translations, "sync_words") else None
    before = {path: path.read_text(encoding="utf-8") if path.exists() else None
              for path in [*writes, *([record] if record else [])]}
    made = [d for d in (root / "docs" / code, root / "data/quizzes" / code) if not d.exists()]
    try:
        for path, text in writes.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        _verify(root, code)
        if record is not None:   # the copies translate today's English: a later English change lists them
            translations.sync_words(root, code, "", languages.codes(root)[0])
            writes[record] = ""
    except BaseException:
        for path, text in before.items():
            if text is None:
                path.unlink(missing_ok=True)
            else:
                path.write_text(text, encoding="utf-8")
        for folder in made:
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise
    return [path.relative_to(root).as_posix() for path in writes]


def _verify(root: Path, code: str) -> None:
    """The site's data loads with the new language, as the build will load it."""
    from atlas import glossary
    from atlas.data import load_atlas
    from atlas.problems import DataError
    codes = languages.codes(root)
    if code not in codes:   # pragma: no cover - config_entry checked it
        raise Refused(f"mkdocs.yml: {code} was not added")
    try:
        load_atlas(root, codes)
        glossary.load(root, codes)
    except DataError as exc:
        raise Refused(f"the data does not load with {code} added, so nothing was changed:\n{exc.report()}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make new-language", description=__doc__.split("\n")[0])
    parser.add_argument("code", nargs="?", default="")
    parser.add_argument("name", nargs="?", default="")
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--from-environment", action="store_true",
                        help="read CODE and NAME from the environment (how `make new-language` passes them)")
    args = parser.parse_args(argv)
    if args.from_environment:
        args.code, args.name = os.environ.get("CODE", ""), os.environ.get("NAME", "")
    root = args.root.resolve()
    try:
        written = add(root, args.code.strip(), args.name.strip())
    except Refused as exc:
        print(f"make new-language: {exc}", file=sys.stderr)
        return 2
    print(f"Added {args.name} ({args.code}):")
    for path in written:
        print(f"  {path}")
    print(f"Next: `make build` (every /{args.code}/ page is the English one, with the \"not yet translated\" notice), "
          f"then `make i18n`: it lists what to translate, smallest first. CONTRIBUTING.md: Add a language.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
