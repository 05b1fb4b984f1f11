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


class DataError(Exception):
    """Raised with every problem at once, so one run shows the whole list."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        super().__init__(self.report())

    def report(self) -> str:
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in site data:"
        return "\n".join([head, *(f"  {p}" for p in self.problems)])
