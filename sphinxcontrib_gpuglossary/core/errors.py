"""Problems found in glossary files, each tied to a file and line."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """The fix for an unknown *word*: the closest of *choices*, else all of them."""
    close = difflib.get_close_matches(word, choices, n=1)
    return f"did you mean {close[0]!r}?" if close else f"use one of: {', '.join(choices)}"


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in a glossary file: where it is and what to do about it."""

    file: str
    line: int
    column: int
    message: str

    @property
    def location(self) -> str:
        """``file``, ``file:line`` or ``file:line:column``."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}:{self.column}" if self.line and self.column else where

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


class GlossaryError(Exception):
    """Raised with every problem found, so that one run reports them all."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
