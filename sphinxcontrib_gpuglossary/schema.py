"""Check one parsed glossary file against the schema, field by field.

The result is a list of :class:`TermEntry` (what one file says about one
term; fields it leaves out are ``None``) and the file's glossary-level texts.
Every problem is collected with its line, so a user sees them all at once.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from .errors import Problem
from .model import CATEGORIES, TERM_FIELDS, TEXT_FIELDS, Variant
from .yamlsource import YList, YMap, YStr, YValue

ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
#: ``en``, ``pt_BR``, ``zh_Hans``, ``sr@latin``: the forms Sphinx accepts for ``language``.
LANG_PATTERN = re.compile(r"[a-z]{2,3}(?:_(?:[A-Z]{2}|[A-Z][a-z]{3}|[0-9]{3}))?(?:@[a-z]+)?")
SOURCE_PATTERN = re.compile(r"[^:\s]+:[1-9][0-9]*")
SOURCE_FIELDS = ("name", "definition")
#: What text may not hold: control characters (category Cc) but tab and newline,
#: surrogates (Cs) and the noncharacters U+FFFE and U+FFFF. Any other character
#: HTML, LaTeX and XML can carry.
_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


@dataclass
class TermEntry:
    """One ``terms:`` item of one file."""

    id: str
    file: str
    line: int
    category: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    definitions: dict[str, str] = field(default_factory=dict)
    sources: dict[str, dict[str, str]] = field(default_factory=dict)
    #: related ids with the line each was written on
    related: list[tuple[str, int, int]] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    variants: list[Variant] = field(default_factory=list)
    autolink: bool | None = None


@dataclass
class FileContent:
    """Everything valid that one file contributes."""

    terms: list[TermEntry] = field(default_factory=list)
    texts: dict[str, dict] = field(default_factory=dict)  # type: ignore[type-arg]


class _Checker:
    def __init__(self, display: str) -> None:
        self.display = display
        self.problems: list[Problem] = []

    def fail(self, where: YValue | None, message: str) -> None:
        line = getattr(where, "line", 0)
        column = getattr(where, "column", 0)
        self.problems.append(Problem(self.display, line, column, message))

    # -- generic shapes -------------------------------------------------

    def text(self, value: YValue, what: str) -> str | None:
        if not isinstance(value, YStr):
            self.fail(value, f"{what} must be text, not a {_kind(value)}")
            return None
        if not value.strip():
            self.fail(value, f"{what} is empty; write the text or remove the entry")
            return None
        bad = _FORBIDDEN.search(value)
        if bad is not None:
            self.fail(value, f"{what} contains the control character U+{ord(bad[0]):04X}; "
                             "remove it")
            return None
        return str(value)

    def mapping(self, value: YValue, what: str) -> YMap | None:
        if not isinstance(value, YMap):
            self.fail(value, f"{what} must be a mapping, not a {_kind(value)}")
            return None
        return value

    def sequence(self, value: YValue, what: str) -> YList | None:
        if not isinstance(value, YList):
            self.fail(value, f"{what} must be a list, not a {_kind(value)}")
            return None
        return value

    def lang(self, key: YStr, what: str) -> bool:
        if LANG_PATTERN.fullmatch(key):
            return True
        self.fail(key, f"malformed language code {str(key)!r} in {what}; use a lowercase "
                       "ISO 639 code such as 'en', 'nl' or 'pt_BR'")
        return False

    def texts_by_lang(self, value: YValue, what: str) -> dict[str, str]:
        result: dict[str, str] = {}
        mapping = self.mapping(value, what)
        for key, item in (mapping or {}).items():
            if self.lang(key, what):
                text = self.text(item, f"{what}.{key}")
                if text is not None:
                    result[str(key)] = text
        return result

    def unknown_keys(self, mapping: YMap, allowed: tuple[str, ...], what: str) -> None:
        for key in mapping:
            if key not in allowed:
                hint = difflib.get_close_matches(key, allowed, n=1)
                fix = f"did you mean {hint[0]!r}?" if hint else f"allowed: {', '.join(allowed)}"
                self.fail(key, f"unknown field {str(key)!r} in {what}; {fix}")

    # -- the schema -----------------------------------------------------

    def file(self, root: YValue | None) -> FileContent:
        content = FileContent()
        if root is None:
            self.fail(None, "file is empty; it must be a mapping with a 'terms:' list")
            return content
        if not isinstance(root, YMap):
            self.fail(root, f"file must be a mapping with a 'terms:' list, not a {_kind(root)}")
            return content
        self.unknown_keys(root, ("terms", "texts"), "the file")
        if "texts" in root:
            content.texts = self.texts(root["texts"])
        if "terms" not in root:
            if "texts" not in root:
                self.fail(root, "no 'terms:' list found; add one")
            return content
        seen: dict[str, int] = {}
        for item in self.sequence(root["terms"], "terms") or []:
            entry = self.term(item)
            if entry is None:
                continue
            if entry.id in seen:
                self.fail(item["id"], f"duplicate id {entry.id!r} (first at line "
                                      f"{seen[entry.id]}); merge the two entries")
                continue
            seen[entry.id] = entry.line
            content.terms.append(entry)
        return content

    def term(self, item: YValue) -> TermEntry | None:
        mapping = self.mapping(item, "each item of terms")
        if mapping is None:
            return None
        self.unknown_keys(mapping, TERM_FIELDS, "a term")
        if "id" not in mapping:
            self.fail(mapping, "term has no 'id'; add a lowercase slug such as 'kv-cache'")
            return None
        term_id = self.text(mapping["id"], "id")
        if term_id is None:
            return None
        if not ID_PATTERN.fullmatch(term_id):
            self.fail(mapping["id"], f"id {term_id!r} is not a lowercase ASCII slug; use "
                                     "letters, digits and single hyphens, e.g. 'kv-cache'")
            return None
        entry = TermEntry(id=term_id, file=self.display, line=mapping.line)
        what = f"term {term_id!r}"
        if "category" in mapping:
            category = self.text(mapping["category"], f"{what} category")
            if category is not None and category not in CATEGORIES:
                hint = difflib.get_close_matches(category, CATEGORIES, n=1)
                fix = f"did you mean {hint[0]!r}?" if hint else f"use one of: {', '.join(CATEGORIES)}"
                self.fail(mapping["category"], f"unknown category {category!r}; {fix}")
            # kept even when unknown (already reported), so no second message follows
            entry.category = category
        if "names" in mapping:
            entry.names = self.texts_by_lang(mapping["names"], f"{what} names")
        if "definitions" in mapping:
            entry.definitions = self.texts_by_lang(mapping["definitions"], f"{what} definitions")
        if "notes" in mapping:
            entry.notes = self.texts_by_lang(mapping["notes"], f"{what} notes")
        if "aliases" in mapping:
            entry.aliases = self.aliases(mapping["aliases"], what)
        if "sources" in mapping:
            entry.sources = self.sources(mapping["sources"], what)
        if "related" in mapping:
            for ref in self.sequence(mapping["related"], f"{what} related") or []:
                ref_id = self.text(ref, f"{what} related item")
                if ref_id is not None:
                    entry.related.append((ref_id, ref.line, ref.column))
        if "variants" in mapping:
            entry.variants = self.variants(mapping["variants"], what)
        if "autolink" in mapping:
            flag = self.text(mapping["autolink"], f"{what} autolink")
            if flag is not None and flag.lower() not in ("true", "false"):
                self.fail(mapping["autolink"], f"{what} autolink must be true or false")
            elif flag is not None:
                entry.autolink = flag.lower() == "true"
        return entry

    def aliases(self, value: YValue, what: str) -> dict[str, list[str]]:
        result: dict[str, list[str]] = {}
        for key, items in (self.mapping(value, f"{what} aliases") or {}).items():
            if not self.lang(key, f"{what} aliases"):
                continue
            texts = [self.text(alias, f"{what} alias") for alias in
                     self.sequence(items, f"{what} aliases.{key}") or []]
            result[str(key)] = [t for t in texts if t is not None]
        return result

    def sources(self, value: YValue, what: str) -> dict[str, dict[str, str]]:
        result: dict[str, dict[str, str]] = {}
        for key, per_field in (self.mapping(value, f"{what} sources") or {}).items():
            if not self.lang(key, f"{what} sources"):
                continue
            fields = self.mapping(per_field, f"{what} sources.{key}") or YMap()
            self.unknown_keys(fields, SOURCE_FIELDS, f"{what} sources.{key}")
            result[str(key)] = {}
            for name, ref in fields.items():
                text = self.text(ref, f"{what} sources.{key}.{name}")
                if text is None or name not in SOURCE_FIELDS:
                    continue
                if not SOURCE_PATTERN.fullmatch(text):
                    self.fail(ref, f"source {text!r} must be 'file:line', e.g. '003_seed.txt:83'")
                    continue
                result[str(key)][str(name)] = text
        return result

    def variants(self, value: YValue, what: str) -> list[Variant]:
        result: list[Variant] = []
        for item in self.sequence(value, f"{what} variants") or []:
            mapping = self.mapping(item, f"{what} variant")
            if mapping is None:
                continue
            self.unknown_keys(mapping, ("lang", "text", "source"), f"{what} variant")
            missing = [k for k in ("lang", "text", "source") if k not in mapping]
            if missing:
                self.fail(mapping, f"{what} variant lacks {', '.join(missing)}; a variant "
                                   "needs lang, text and source")
                continue
            lang, text, source = (self.text(mapping[k], f"{what} variant {k}")
                                  for k in ("lang", "text", "source"))
            if lang is None or text is None or source is None:
                continue
            if self.lang(mapping["lang"], f"{what} variant"):
                result.append(Variant(lang=lang, text=text, source=source))
        return result

    def texts(self, value: YValue) -> dict[str, dict]:  # type: ignore[type-arg]
        result: dict[str, dict] = {}  # type: ignore[type-arg]
        mapping = self.mapping(value, "texts")
        if mapping is None:
            return result
        self.unknown_keys(mapping, TEXT_FIELDS, "texts")
        if "disclaimer" in mapping:
            result["disclaimer"] = self.texts_by_lang(mapping["disclaimer"], "texts.disclaimer")
        if "titles" in mapping:
            titles: dict[str, dict[str, list[str]]] = {}
            for seed, per_lang in (self.mapping(mapping["titles"], "texts.titles") or {}).items():
                titles[str(seed)] = {}
                for lang, lines in (self.mapping(per_lang, f"texts.titles.{seed}") or {}).items():
                    if self.lang(lang, f"texts.titles.{seed}"):
                        items = self.sequence(lines, f"texts.titles.{seed}.{lang}") or []
                        texts = [self.text(t, "title line") for t in items]
                        titles[str(seed)][str(lang)] = [t for t in texts if t]
            result["titles"] = titles
        return result




def _kind(value: object) -> str:
    if isinstance(value, YMap):
        return "mapping"
    if isinstance(value, YList):
        return "list"
    return "text" if isinstance(value, YStr) else "nothing"


def check_file(root: YValue | None, display: str) -> tuple[FileContent, list[Problem]]:
    """Validate the parsed *root* of the file called *display*."""
    checker = _Checker(display)
    content = checker.file(root)
    return content, checker.problems
