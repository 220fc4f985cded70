"""Find known terms in running text: whole words, longest spelling first.

One matcher serves auto-linking in a build and ``gpuglossary scan`` outside
one. Headwords and aliases of the given languages match as whole words;
one-word forms with two capitals or more (``GPU``, ``vLLM``, ``LoRA``) match
only with that exact spelling, so ``sm`` or ``gpu`` in prose are left alone.
Terms with ``autolink: false`` (common words) and spellings two terms share
never match.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass, field

from ..core.lookup import lookup_key
from ..core.model import Glossary

#: Words: letters and digits, with inner dots and pluses (``llama.cpp``, ``C++`` stays out).
WORD = re.compile(r"\w(?:[\w.+]*\w)?")
#: What may stand between the words of one term (``KV cache``, ``KV-cache``).
JOINER = re.compile(r"[\s\-‐‑]+")


@dataclass
class Matcher:
    """Word n-grams of every matchable spelling, for a list of languages."""

    folded: dict[str, str] = field(default_factory=dict)  # folded spelling -> term id
    exact: dict[str, str] = field(default_factory=dict)  # case-sensitive spelling -> term id
    longest: int = 1  # most words in one spelling

    @classmethod
    def build(cls, glossary: Glossary, languages: list[str]) -> Matcher:
        matcher = cls()
        clashes: set[str] = set()
        for term in glossary.terms.values():
            if not term.autolink:
                continue
            for lang in languages:
                spellings = [term.names.get(lang), *term.aliases.get(lang, ()),
                             *term.forms.get(lang, ())]
                for spelling in filter(None, spellings):
                    matcher._add(spelling, term.id, clashes)
        for key in clashes:  # a spelling two terms share never matches
            matcher.folded.pop(key, None)
            matcher.exact.pop(key, None)
        return matcher

    def _add(self, spelling: str, term_id: str, clashes: set[str]) -> None:
        words = WORD.findall(spelling)
        if not words:
            return
        self.longest = max(self.longest, len(words))
        table, key = ((self.exact, " ".join(words)) if _case_sensitive(words)
                      else (self.folded, lookup_key(" ".join(words))))
        if table.get(key, term_id) != term_id:
            clashes.add(key)
        table[key] = term_id

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """``(start, end, term_id)`` of each match in *text*, longest first, left to right."""
        words = [w for w in WORD.finditer(text) if _whole(text, w.start(), w.end())]
        found: list[tuple[int, int, str]] = []
        i = 0
        while i < len(words):
            for size in range(min(self.longest, len(words) - i), 0, -1):
                run = words[i:i + size]
                if not all(JOINER.fullmatch(text[a.end():b.start()])
                           for a, b in itertools.pairwise(run)):
                    continue
                spelled = " ".join(w.group() for w in run)
                term_id = self.exact.get(spelled) or self.folded.get(lookup_key(spelled))
                if term_id:
                    found.append((run[0].start(), run[-1].end(), term_id))
                    i += size
                    break
            else:
                i += 1
        return found


def _case_sensitive(words: list[str]) -> bool:
    """One word with two capitals or more (``GPU``, ``GPUs``, ``vLLM``, ``LoRA``)."""
    return len(words) == 1 and sum(c.isupper() for c in words[0]) >= 2


def _whole(text: str, start: int, end: int) -> bool:
    """False for a piece of a word that combining marks cut (Bengali vowel signs and
    viramas are no ``\\w``): such a piece is never a word of its own."""
    return not ((start and unicodedata.category(text[start - 1])[0] == "M")
                or (end < len(text) and unicodedata.category(text[end])[0] == "M"))
