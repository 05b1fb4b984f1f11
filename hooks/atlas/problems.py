"""Problems found in data or pages, collected and reported together."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One thing a contributor must fix, located by file and line."""

    file: str
    line: int
    where: str      # e.g. "provider 'runpod', field 'billing'"
    message: str    # e.g. "found 'weekly', allowed: per-second, per-minute"

    def __str__(self) -> str:
        where = f" {self.where}:" if self.where else ""
        return f"{self.file}:{self.line}:{where} {self.message}"

    def annotation(self, level: str = "error") -> str:
        """This problem as a GitHub Actions annotation, in the words of `str(self)`."""
        return annotation(str(self), level)


class DataError(Exception):
    """Raised with every problem at once, so one run shows the whole list."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        super().__init__(self.report())

    def report(self) -> str:
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in site data:"
        return "\n".join([head, *(f"  {p}" for p in self.problems)])


# --- GitHub Actions: the same problems as annotations on the lines of a pull request's diff ------

import os   # noqa: E402 - kept with the only code that needs it
import re   # noqa: E402

# "file:line: message" (every problem's plain form), or "file: message" for a file without a line.
LOCATED = re.compile(r"(?P<file>[^\s].*?):(?P<line>\d+):\s(?P<message>.*)", re.S)
FILE_ONLY = re.compile(r"(?P<file>[^\s:]+\.(?:ya?ml|md|html|json|txt))(?P<line>):\s(?P<message>.*)", re.S)
# Problems inside other text (the build's "Error reading page 'x': docs/…:12: …"): paths we own only.
IN_TEXT = re.compile(r"(?:^|\s)(?P<file>(?:docs|data|overrides|hooks)/[^\s:]+|mkdocs\.yml):(?P<line>\d+):\s(?P<message>.+)")
# The annotation's title, from the kind of message (first match); CONTRIBUTING.md explains each.
TITLES = (
    ("avoided term", re.compile(r"avoided term")),
    ("English left", re.compile(r"English left in")),
    ("missing key", re.compile(r"missing \S+ text for an English key|missing English text|missing (?:question )?text|missing quiz title")),
    ("extra key", re.compile(r"extra key|extra question|extra option|text for a quiz that has no")),
    ("placeholders", re.compile(r"placeholders? found|found braces")),
    ("structure", re.compile(r"headings differ|code block \d+ differs|markers .*differ|link targets differ|"
                             r"anchor '|has no English original|no text after its front matter")),
    ("front matter", re.compile(r"front matter")),
    ("unsafe HTML", re.compile(r"element <|attribute \S*=? ?is not allowed|link to '|found markup")),
    ("marker", re.compile(r"marker")),
    ("outdated translation", re.compile(r"outdated \(")),
)


def in_github_actions() -> bool:
    """True inside a GitHub Actions job (it sets GITHUB_ACTIONS=true)."""
    return os.environ.get("GITHUB_ACTIONS") == "true"


def escape_data(text: str) -> str:
    """A workflow command's message, escaped as GitHub's toolkit does (escapeData)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value (file, title), escaped as GitHub's toolkit does."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def title_of(message: str, file: str = "") -> str:
    for title, pattern in TITLES:
        if pattern.search(message):
            return title
    return "data error" if file.startswith("data/") else "translation check"


def annotation(text: str, level: str = "error") -> str:
    """`::error file=…,line=…,title=…::message` for one problem's plain text ("file:line: message"):
    the message is the plain one's, word for word; text without a file is annotated as it is."""
    m = LOCATED.match(text.strip()) or FILE_ONLY.match(text.strip())
    if not m:
        return f"::{level} title={escape_property(title_of(text))}::{escape_data(text.strip())}"
    props = [f"file={escape_property(m['file'])}"]
    if m["line"]:
        props.append(f"line={m['line']}")
    props.append(f"title={escape_property(title_of(m['message'], m['file']))}")
    return f"::{level} {','.join(props)}::{escape_data(m['message'])}"


def annotations_in(output: str) -> list[str]:
    """Annotations for every "file:line: message" found in a tool's output (the build's errors),
    each once, in the order they appear."""
    found = []
    for line in output.splitlines():
        m = IN_TEXT.search(line)
        if m:
            found.append(annotation(f"{m['file']}:{m['line']}: {m['message'].strip()}"))
    return list(dict.fromkeys(found))
