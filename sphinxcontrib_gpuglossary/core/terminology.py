"""One term, one rendering: each language's terminology list and the checks it drives.

A terminology list (``data/seeded/terminology/<lang>.yaml``, or a site's own file
of the same shape) gives, for the key English terms, the rendering the glossary
uses in that language, the spellings that rendering takes in running text, and
renderings it rejects; and, as prose for translators, the language's rule for when
the English term is kept. The checks, on the editors' texts in that language (seed
texts are what they are and are never checked):

- a headword, definition or note never writes a rejected rendering;
- a definition whose English uses the term uses the chosen rendering, and so does
  the headword of the term the entry names;
- a headword holds nothing the list's ``headwords-avoid`` names (brackets, where
  the language keeps the English name in the aliases);
- a headword never follows a name the English marks as discouraged: it does not
  render a word that only the discouraged English name has (the words come from
  the list: "communication" in "All-Reduce Communication");
- an alias that is a discouraged English name is marked discouraged in its
  language too, so a writer who uses it is told the name to write.

Company and product names are entries like any other: ``NVIDIA`` rendered
``NVIDIA``, with the transliterations a language's writers should not use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import GlossaryError, Problem
from .model import DISCOURAGED, Glossary, Term
from .yamlsource import YList, YMap, parse_yaml

#: Where the curated glossary's lists are: one file per language, ``<lang>.yaml``.
TERMINOLOGY_DIR = Path(__file__).parent.parent / "data" / "seeded" / "terminology"
_FIELDS = ("language", "keep-english", "headwords-avoid", "terms")
_REQUIRED = ("language", "keep-english", "terms")
_ENTRY_FIELDS = ("en", "use", "match", "avoid", "note")
_TEXTS = {"name": "names", "definition": "definitions", "note": "notes"}
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@dataclass(frozen=True)
class Rendering:
    """How a language renders one English term."""

    en: str
    use: str
    #: what the check finds in running text (stems of the inflected forms); empty: the
    #: rendering is not required, only the avoided ones are refused
    match: tuple[str, ...]
    avoid: tuple[str, ...]
    at: str  # file:line

    @staticmethod
    def found(text: str, stems: tuple[str, ...]) -> str | None:
        """The first of *stems* in *text*, as written or with a capital first letter
        (a headword's): ``Fine-Tuning`` in a product name is not ``fine-tuning``."""
        return next((s for s in stems if s in text or s[:1].upper() + s[1:] in text), None)

    def in_english(self, text: str) -> bool:
        """True when the English *text* uses the term as written (a plural too): the
        lower-case term, not the capitalized words of a name (Text Generation Inference)."""
        return re.search(rf"(?<![\w-]){re.escape(self.en)}(?:s|es)?(?![\w-])", text) is not None


@dataclass
class Terminology:
    """One language's list."""

    lang: str
    display: str
    keep_english: str
    renderings: list[Rendering] = field(default_factory=list)
    #: what an editor's headword never holds (brackets, where the English goes in the aliases)
    headwords_avoid: tuple[str, ...] = ()


def packaged(lang: str) -> Terminology | None:
    """The curated glossary's list for *lang*, if it has one."""
    path = TERMINOLOGY_DIR / f"{lang}.yaml"
    if not path.exists():
        return None
    return load(path, f"sphinxcontrib_gpuglossary/data/seeded/terminology/{lang}.yaml")


def packaged_languages() -> list[str]:
    return sorted(p.stem for p in TERMINOLOGY_DIR.glob("*.yaml"))


def load(path: Path, display: str) -> Terminology:
    """Read a list; :class:`GlossaryError` with file and line for anything malformed."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise GlossaryError([Problem(display, 0, 0, f"cannot read the terminology list: "
                                                    f"{exc.strerror}")]) from None
    root, _ = parse_yaml(raw, display)
    problems: list[Problem] = []

    def fail(line: int, message: str) -> None:
        problems.append(Problem(display, line, 0, message))

    if not isinstance(root, YMap) or not all(k in root for k in _REQUIRED):
        raise GlossaryError([Problem(display, 1, 0, "a terminology list is a mapping with "
                                                    "'language', 'keep-english' and 'terms'")])
    for key in root:
        if key not in _FIELDS:
            fail(root.key_at[key][0], f"unknown field {key!r}; use {', '.join(_FIELDS)}")
    lang, rule = root["language"], root["keep-english"]
    if not isinstance(lang, str) or not isinstance(rule, str) or not isinstance(root["terms"], YList):
        raise GlossaryError([Problem(display, root.line, 0, "'language' and 'keep-english' are "
                                                            "texts and 'terms' a list")])
    avoid = root.get("headwords-avoid", YList())
    if not isinstance(avoid, YList) or not all(isinstance(a, str) and a for a in avoid):
        fail(root.key_at["headwords-avoid"][0], "'headwords-avoid' is a list of texts")
        avoid = YList()
    result = Terminology(lang, display, rule, headwords_avoid=tuple(avoid))
    for item, (line, _) in zip(root["terms"], root["terms"].item_at, strict=True):
        if not isinstance(item, YMap) or not isinstance(item.get("en"), str) \
                or not isinstance(item.get("use"), str):
            fail(line, "each term needs 'en' (the English term) and 'use' (its rendering)")
            continue
        for key in item:
            if key not in _ENTRY_FIELDS:
                fail(item.key_at[key][0], f"unknown field {key!r}; use {', '.join(_ENTRY_FIELDS)}")
        lists = {}
        for key in ("match", "avoid"):
            value = item.get(key, YList())
            if not isinstance(value, YList) or not all(isinstance(v, str) and v for v in value):
                fail(item.key_at[key][0], f"{key!r} is a list of texts")
                value = YList()
            lists[key] = tuple(value)
        # no 'match': the rendering itself; 'match: []': only the renderings avoided count
        match = lists["match"] if "match" in item else (item["use"],)
        result.renderings.append(Rendering(item["en"], item["use"], match, lists["avoid"],
                                           f"{display}:{line}"))
    if problems:
        raise GlossaryError(problems)
    return result


def check(glossary: Glossary, terminology: Terminology) -> list[Problem]:
    """The editors' texts in the list's language that break it, each at its file and line."""
    problems: list[Problem] = []
    lang = terminology.lang
    for term in glossary.terms.values():
        for translation in term.translated():
            if translation.lang != lang or translation.field not in _TEXTS:
                continue
            text = getattr(term, _TEXTS[translation.field])[lang]
            what = f"the {lang} {'headword' if translation.field == 'name' else translation.field} " \
                   f"of {term.id!r}"
            file, line = translation.at.rsplit(":", 1)
            for rendering in terminology.renderings:
                rejected = rendering.found(text, rendering.avoid)
                if rejected:
                    problems.append(Problem(file, int(line), 0, (
                        f"{what} writes {rejected!r}; the terminology list renders "
                        f"{rendering.en!r} as {rendering.use!r} ({rendering.at})")))
                elif rendering.match and not rendering.found(text, rendering.match) and (
                        (translation.field == "definition"
                         and rendering.in_english(term.definitions.get("en", "")))
                        or (translation.field == "name"
                            and rendering.en.casefold() == term.names["en"].casefold())):
                    problems.append(Problem(file, int(line), 0, (
                        f"{what} does not use {rendering.use!r} for {rendering.en!r}, which "
                        f"its English uses ({rendering.at})")))
            if translation.field == "name":
                problems += _follows_discouraged(term, text, terminology, file, int(line))
                held = next((a for a in terminology.headwords_avoid if a in text), None)
                if held:
                    problems.append(Problem(file, int(line), 0, (
                        f"{what} holds {held!r}, which {lang} headwords never do "
                        f"({terminology.display}: keep-english); move that part to the aliases")))
    problems += _discouraged_aliases(glossary, lang)
    return problems


def _follows_discouraged(term: Term, headword: str, terminology: Terminology, file: str,
                         line: int) -> list[Problem]:
    preferred = _words(term.names["en"])
    problems = []
    for name, status in term.status.get("en", {}).items():
        if status not in DISCOURAGED:
            continue
        only = _words(name) - preferred
        for rendering in terminology.renderings:
            if rendering.en.casefold() in only:
                found = rendering.found(headword, (*rendering.match, *rendering.avoid))
                if found:
                    problems.append(Problem(file, line, 0, (
                        f"the {terminology.lang} headword {headword!r} of {term.id!r} follows the "
                        f"{status} English name {name!r} ({found!r} renders "
                        f"{rendering.en!r}); follow the English headword {term.names['en']!r}")))
    return problems


def _discouraged_aliases(glossary: Glossary, lang: str) -> list[Problem]:
    problems = []
    for term in glossary.terms.values():
        discouraged = {name.casefold(): status for name, status in term.status.get("en", {}).items()
                       if status in DISCOURAGED}
        for alias in term.aliases.get(lang, []):
            status = discouraged.get(alias.casefold())
            if status and term.status.get(lang, {}).get(alias) not in DISCOURAGED:
                where = next((t.at for t in reversed(term.translated())  # the latest file's
                              if (t.lang, t.field) == (lang, "aliases")), term.origins[-1])
                file, line = where.rsplit(":", 1)
                problems.append(Problem(file, int(line), 0, (
                    f"the {lang} alias {alias!r} of {term.id!r} is the {status} English name; "
                    f"remove it or mark it status.{lang}: {{{alias}: {status}}}")))
    return problems


def _words(text: str) -> set[str]:
    return {w.casefold() for part in _WORD.findall(text) for w in (part, *part.split("-"))}
