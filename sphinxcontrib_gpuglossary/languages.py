"""Choose the text to show for a build language, and the script direction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from babel import Locale, UnknownLocaleError


@dataclass(frozen=True)
class Localized:
    """A text and the language it is actually in."""

    text: str
    lang: str
    #: True when *lang* is not the build language (a fallback the reader should see)
    fallback: bool


def base_language(lang: str) -> str:
    """``pt`` for ``pt_BR``, ``sr`` for ``sr@latin``."""
    return lang.replace("-", "_").split("@")[0].split("_")[0]


def language_chain(language: str, fallbacks: Sequence[str]) -> list[str]:
    """The build language, its base language, the fallbacks, then English; no repeats.

    English closes every chain because every term has an English text.
    """
    chain: list[str] = []
    for lang in (language, base_language(language), *fallbacks, "en"):
        if lang and lang not in chain:
            chain.append(lang)
    return chain


def pick(texts: Mapping[str, str], chain: Sequence[str]) -> Localized | None:
    """The first text along *chain*; ``None`` when no language of the chain has one."""
    for position, lang in enumerate(chain):
        if lang in texts:
            same = position == 0 or base_language(chain[0]) == lang
            return Localized(texts[lang], lang, fallback=not same)
    return None


@lru_cache(maxsize=64)
def text_direction(lang: str) -> str:
    """``rtl`` or ``ltr`` for a language code (``ltr`` when Babel does not know it)."""
    try:
        return Locale.parse(lang.replace("-", "_").split("@")[0]).text_direction
    except (ValueError, UnknownLocaleError):
        return "ltr"
