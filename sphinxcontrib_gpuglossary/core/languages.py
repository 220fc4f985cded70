"""Choose the text to show for a build language, and the script direction."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from babel.core import Locale, UnknownLocaleError, get_global


@dataclass(frozen=True)
class Localized:
    """A text and the language it is actually in."""

    text: str
    lang: str
    #: True when *lang* is not the build language (a fallback the reader should see)
    fallback: bool


#: ``en``, ``pt_BR``, ``zh_Hans``, ``sr@latin``: the forms Sphinx accepts for ``language``.
LANG_PATTERN = re.compile(r"[a-z]{2,3}(?:_(?:[A-Z]{2}|[A-Z][a-z]{3}|[0-9]{3}))?(?:@[a-z]+)?")


def subtags(lang: str) -> list[str]:
    """The parts of a language code, the one parser of codes: ``["pt", "BR"]`` for
    ``pt_BR`` or ``pt-BR``, ``["sr"]`` for ``sr@latin``, ``["zh", "Hant", "TW"]``."""
    return lang.replace("-", "_").split("@")[0].split("_")


def language_tag(lang: str) -> str:
    """The BCP 47 tag HTML's ``lang`` wants: ``zh-TW`` for ``zh_TW`` (a browser picks
    Traditional Chinese glyphs by it; ``zh_TW`` is no tag and is ignored)."""
    return "-".join(subtags(lang))


def base_language(lang: str) -> str:
    """``pt`` for ``pt_BR``, ``sr`` for ``sr@latin``."""
    return subtags(lang)[0]


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


#: ISO 15924 scripts written right to left that CLDR names as a living language's script.
RTL_SCRIPTS = frozenset({"Adlm", "Arab", "Hebr", "Mand", "Mend", "Nkoo", "Rohg", "Samr",
                         "Syrc", "Thaa", "Yezi"})


#: CLDR answers known without Babel's data files: :func:`preload` fills it from the cache.
_KNOWN: dict[tuple[str, ...], str] = {}


def preload(lang: str, others: Iterable[str], folder: Path | None) -> None:
    """Know ahead, from the cache *folder* when it has them, the CLDR answers a page
    in *lang* asks for: its list separator, and the direction and the name (in
    *lang*) of each of *others*.

    Babel reads its data files for that (about 40 ms for English); the answers are
    the same build after build.
    """
    from . import cache as stored

    langs = sorted({lang, *others})
    key = hashlib.sha256("\0".join([stored.code_key(), lang, *langs]).encode()).hexdigest()
    known = stored.read(folder, key, "cldr", dict[tuple[str, ...], str]) \
        if folder is not None else None
    if not isinstance(known, dict):
        known = {("separator", lang): list_separator(lang)}
        for other in langs:
            known["direction", other] = text_direction(other)
            known["name", other, lang] = language_name(other, lang)
        if folder is not None:
            stored.write(folder, key, known, "cldr")
    _KNOWN.update(known)


@lru_cache(maxsize=64)
def text_direction(lang: str) -> str:
    """``rtl`` or ``ltr`` for a language code: by its script, the one written in the
    code (``pa_Arab``) or else CLDR's likely one (``ar`` -> ``ar_Arab_EG``).

    Babel's likely-subtags table, not its per-locale data: the same answer for
    every locale Babel knows (tested), without loading thousands of objects.
    """
    known = _KNOWN.get(("direction", lang))
    if known is not None:
        return known
    return "rtl" if likely_script(lang) in RTL_SCRIPTS else "ltr"


def likely_script(lang: str) -> str | None:
    """The ISO 15924 script of a language code: written in it, else CLDR's likely one."""
    parts = subtags(lang)
    script = _script(parts)
    if script is None:
        likely = get_global("likely_subtags")
        script = _script((likely.get("_".join(parts)) or likely.get(parts[0], "")).split("_"))
    return script


def _script(parts: Sequence[str]) -> str | None:
    return next((p for p in parts[1:] if len(p) == 4), None)


def _locale(lang: str) -> Locale | None:
    try:
        return Locale.parse("_".join(subtags(lang)))
    except (ValueError, UnknownLocaleError):
        return None


@lru_cache(maxsize=64)
def list_separator(lang: str) -> str:
    """What separates the items of a list in *lang*: CLDR's list punctuation
    (``", "``, Chinese and Japanese ``"、"``, Persian ``"، "``); where CLDR joins
    with a word (Arabic ``و``), the script's comma (``"، "`` in Arabic script)."""
    known = _KNOWN.get(("separator", lang))
    if known is not None:
        return known
    locale = _locale(lang)
    pattern = locale.list_patterns["standard"]["middle"] if locale else "{0}, {1}"
    separator = pattern.replace("{0}", "").replace("{1}", "").translate(_BIDI_MARKS)
    if any(c.isalpha() for c in separator):
        return "، " if likely_script(lang) == "Arab" else ", "
    return separator


_BIDI_MARKS = dict.fromkeys(map(ord, "\u200e\u200f\u061c"))


@lru_cache(maxsize=256)
def language_name(lang: str, in_lang: str) -> str:
    """The name of *lang* in *in_lang*, as CLDR writes it (``en`` in ``de``:
    ``Englisch``; in ``ar``: ``الإنجليزية``); the code when CLDR knows neither."""
    known = _KNOWN.get(("name", lang, in_lang))
    if known is not None:
        return known
    locale, shown_in = _locale(lang), _locale(in_lang)
    name = locale.get_display_name(shown_in) if locale and shown_in else None
    return name or lang
