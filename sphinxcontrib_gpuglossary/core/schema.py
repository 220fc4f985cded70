"""Check one parsed glossary file against the schema, field by field.

The result is a list of :class:`TermEntry` (what one file says about one
term; fields it leaves out are ``None``) and the file's glossary-level texts.
Every problem is collected with its line, so a user sees them all at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .errors import Problem, did_you_mean
from .languages import LANG_PATTERN
from .model import CATEGORIES, LINK_LISTS, STATUSES, TERM_FIELDS, TEXT_FIELDS, LinkRules, Variant
from .yamlsource import Where, YList, YMap, YValue, parse_yaml

ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
SOURCE_PATTERN = re.compile(r"[^:\s]+:[1-9][0-9]*")
#: what a source points at: the headword, the definition, one of the aliases or forms
SOURCE_FIELDS = ("name", "definition", "alias", "form")
#: the fields of ``linking:``
LINKING_FIELDS = (*LINK_LISTS, "any_case")
#: What text may not hold: control characters (category Cc) but tab and newline,
#: surrogates (Cs) and the noncharacters U+FFFE and U+FFFF. Any other character
#: HTML, LaTeX and XML can carry.
_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


@dataclass(slots=True)  # one per term of every file read: no dictionary each
class TermEntry:
    """One ``terms:`` item of one file."""

    id: str
    file: str
    line: int
    category: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    forms: dict[str, list[str]] = field(default_factory=dict)
    definitions: dict[str, str] = field(default_factory=dict)
    sources: dict[str, dict[str, str]] = field(default_factory=dict)
    #: related ids with the line each was written on
    related: list[tuple[str, int, int]] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    review: str | None = None
    variants: list[Variant] = field(default_factory=list)
    autolink: bool | None = None
    linking: LinkRules | None = None
    #: where each phrase of ``linking`` was written, for messages about it
    phrases_at: dict[str, Where] = field(default_factory=dict)
    neutral: bool | None = None
    status: dict[str, dict[str, str]] = field(default_factory=dict)
    readings: dict[str, str] = field(default_factory=dict)
    #: ``{lang: {field: digest}}``: the stamps of this entry's translations
    stamps: dict[str, dict[str, str]] = field(default_factory=dict)
    #: the line each text starts on, by ``(lang, stamp field)`` (see :mod:`.stamps`)
    lines: dict[tuple[str, str], int] = field(default_factory=dict)


@dataclass
class FileContent:
    """Everything valid that one file contributes."""

    terms: list[TermEntry] = field(default_factory=list)
    texts: dict[str, dict] = field(default_factory=dict)  # type: ignore[type-arg]


class _Checker:
    def __init__(self, display: str) -> None:
        self.display = display
        self.problems: list[Problem] = []
        #: language codes already found well-formed
        self.langs: set[str] = set()
        self.content = FileContent()
        self.seen: dict[str, int] = {}  # each id's line

    def fail(self, at: Where, message: str) -> None:
        """Report *message* at *at*, the line and column of the value concerned."""
        self.problems.append(Problem(self.display, at[0], at[1], message))

    # -- generic shapes -------------------------------------------------
    # Each takes a value and *at*, where its container says the value starts.

    def text(self, value: YValue, at: Where, *what: str) -> str | None:
        """*value* as text, or ``None`` once the problem is reported.

        *what* names the field in parts, joined only for a message: most values
        are good, and the name would cost as much as the check.
        """
        if (isinstance(value, str) and value and not value.isspace()
                and _FORBIDDEN.search(value) is None):
            return value
        field = "".join(what)
        if not isinstance(value, str):
            self.fail(at, f"{field} must be text, not a {_kind(value)}")
            return None
        if not value.strip():
            self.fail(at, f"{field} is empty; write the text or remove the entry")
            return None
        bad = _FORBIDDEN.search(value)  # what kept it off the fast path
        if bad is not None:
            self.fail(at, f"{field} contains the control character U+{ord(bad[0]):04X}; "
                          "remove it")
        return None

    def mapping(self, value: YValue, at: Where, what: str) -> YMap | None:
        if not isinstance(value, YMap):
            self.fail(at, f"{what} must be a mapping, not a {_kind(value)}")
            return None
        return value

    def sequence(self, value: YValue, at: Where, what: str) -> YList | None:
        if not isinstance(value, YList):
            self.fail(at, f"{what} must be a list, not a {_kind(value)}")
            return None
        return value

    def lang(self, code: str, at: Where, what: str) -> bool:
        if code in self.langs:
            return True
        if LANG_PATTERN.fullmatch(code):
            self.langs.add(code)
            return True
        self.fail(at, f"malformed language code {code!r} in {what}; use a lowercase "
                      "ISO 639 code such as 'en', 'nl' or 'pt_BR'")
        return False

    def texts_by_lang(self, value: YValue, at: Where, what: str,
                      lines: dict[str, int] | None = None) -> dict[str, str]:
        """``{lang: text}``; with *lines*, the line each text starts on goes there."""
        result: dict[str, str] = {}
        mapping = self.mapping(value, at, what)
        if mapping is None:
            return result
        key_at, value_at, langs = mapping.key_at, mapping.value_at, self.langs
        for key, item in mapping.items():
            if key in langs or self.lang(key, key_at[key], what):
                text = self.text(item, value_at[key], what, ".", key)
                if text is not None:
                    result[key] = text
                    if lines is not None:
                        lines[key] = value_at[key][0]
        return result

    def unknown_keys(self, mapping: YMap, allowed: tuple[str, ...], what: str) -> None:
        for key in mapping:
            if key not in allowed:
                self.fail(mapping.key_at[key],
                          f"unknown field {key!r} in {what}; {did_you_mean(key, allowed)}")

    # -- the schema -----------------------------------------------------

    def file(self, root: YValue | None, at: Where) -> FileContent:
        """What the file says; its ``terms:`` items are those :meth:`add_term` has not
        taken while the file was read."""
        content = self.content
        if root is None:
            self.fail((0, 0), "file is empty; it must be a mapping with a 'terms:' list")
            return content
        if not isinstance(root, YMap):
            self.fail(at, f"file must be a mapping with a 'terms:' list, not a {_kind(root)}")
            return content
        self.unknown_keys(root, ("terms", "texts"), "the file")
        if "texts" in root:
            content.texts = self.texts(root["texts"], root.value_at["texts"])
        if "terms" not in root:
            if "texts" not in root:
                self.fail(at, "no 'terms:' list found; add one")
            return content
        terms = self.sequence(root["terms"], root.value_at["terms"], "terms")
        for item, item_at in _items(terms):
            self.add_term(item, item_at)
        return content

    def add_term(self, item: YValue, at: Where) -> None:
        """Check one ``terms:`` item, written at *at*; keep what it says."""
        entry = self.term(item, at)
        if entry is None:
            return
        if entry.id in self.seen:
            assert isinstance(item, YMap)  # an entry comes from a mapping
            self.fail(item.value_at["id"], f"duplicate id {entry.id!r} (first at line "
                                           f"{self.seen[entry.id]}); merge the two entries")
            return
        self.seen[entry.id] = entry.line
        self.content.terms.append(entry)

    def term(self, item: YValue, at: Where) -> TermEntry | None:
        mapping = self.mapping(item, at, "each item of terms")
        if mapping is None:
            return None
        value_at = mapping.value_at
        self.unknown_keys(mapping, TERM_FIELDS, "a term")
        if "id" not in mapping:
            self.fail(at, "term has no 'id'; add a lowercase slug such as 'kv-cache'")
            return None
        term_id = self.text(mapping["id"], value_at["id"], "id")
        if term_id is None:
            return None
        if not ID_PATTERN.fullmatch(term_id):
            self.fail(value_at["id"], f"id {term_id!r} is not a lowercase ASCII slug; use "
                                      "letters, digits and single hyphens, e.g. 'kv-cache'")
            return None
        entry = TermEntry(id=term_id, file=self.display, line=mapping.line)
        what = f"term {term_id!r}"
        if "category" in mapping:
            category = self.text(mapping["category"], value_at["category"], what, " category")
            if category is not None and category not in CATEGORIES:
                self.fail(value_at["category"], f"unknown category {category!r}; "
                                                f"{did_you_mean(category, CATEGORIES)}")
            # kept even when unknown (already reported), so no second message follows
            entry.category = category
        lines: dict[str, dict[str, int]] = {f: {} for f in ("name", "definition", "note")}
        if "names" in mapping:
            entry.names = self.texts_by_lang(mapping["names"], value_at["names"], f"{what} names",
                                             lines["name"])
        if "definitions" in mapping:
            entry.definitions = self.texts_by_lang(mapping["definitions"], value_at["definitions"],
                                                   f"{what} definitions", lines["definition"])
        if "notes" in mapping:
            entry.notes = self.texts_by_lang(mapping["notes"], value_at["notes"], f"{what} notes",
                                             lines["note"])
        if "aliases" in mapping:
            entry.aliases = self.spellings(mapping["aliases"], value_at["aliases"], what, "alias")
            aliases = mapping["aliases"]
            if isinstance(aliases, YMap):
                lines["aliases"] = {lang: aliases.value_at[lang][0] for lang in entry.aliases}
        entry.lines = {(lang, f): line for f, by_lang in lines.items()
                       for lang, line in by_lang.items()}
        if "forms" in mapping:
            entry.forms = self.spellings(mapping["forms"], value_at["forms"], what, "form")
        if "sources" in mapping:
            entry.sources = self.sources(mapping["sources"], value_at["sources"], what)
        if "related" in mapping:
            related = self.sequence(mapping["related"], value_at["related"], f"{what} related")
            for ref, ref_at in _items(related):
                ref_id = self.text(ref, ref_at, what, " related item")
                if ref_id is not None:
                    entry.related.append((ref_id, *ref_at))
        if "variants" in mapping:
            entry.variants = self.variants(mapping["variants"], value_at["variants"], what)
        if "review" in mapping:
            entry.review = self.text(mapping["review"], value_at["review"], what, " review")
        if "status" in mapping:
            entry.status = self.statuses(mapping["status"], value_at["status"], what)
        entry.autolink = self.flag(mapping, "autolink", what)
        if "linking" in mapping:
            entry.linking = self.linking(mapping["linking"], value_at["linking"], what,
                                         entry.phrases_at)
        entry.neutral = self.flag(mapping, "neutral", what)
        if "readings" in mapping:
            entry.readings = self.texts_by_lang(mapping["readings"], value_at["readings"],
                                                f"{what} readings")
        self.readings(entry, mapping)
        if "stamps" in mapping:
            entry.stamps = self.stamps(mapping["stamps"], value_at["stamps"], entry)
        return entry

    def readings(self, entry: TermEntry, mapping: YMap) -> None:
        """A reading goes with the headword it reads, in the same entry; a Japanese
        headword with kanji needs one (:func:`.readings.needs_reading`)."""
        from .readings import needs_reading, reading_problem

        what = f"term {entry.id!r}"
        for lang, reading in entry.readings.items():
            at = mapping["readings"].value_at[lang]
            if lang not in entry.names:
                self.fail(at, f"{what} gives a {lang} reading but no {lang} headword in the same "
                              f"entry; a reading goes with the headword it reads: add names.{lang}")
                continue
            problem = reading_problem(reading, lang)
            if problem:
                self.fail(at, f"{what} readings.{lang}: {problem}")
        for lang, name in entry.names.items():
            if lang not in entry.readings and needs_reading(name, lang):
                self.fail(mapping["names"].value_at[lang], (
                    f"{what}: the {lang} headword {name!r} has kanji; add readings.{lang} with "
                    "its reading in hiragana (tables sort and group Japanese by reading)"))

    def stamps(self, value: YValue, at: Where, entry: TermEntry) -> dict[str, dict[str, str]]:
        """``{lang: {field: digest}}``; each stamp must belong to a translation of the entry."""
        from .stamps import DIGEST, FIELDS

        what = f"term {entry.id!r} stamps"
        result: dict[str, dict[str, str]] = {}
        for lang, per_field, lang_at, fields_at in _entries(self.mapping(value, at, what)):
            if not self.lang(lang, lang_at, what):
                continue
            if lang == "en":
                self.fail(lang_at, f"{what}: English texts are what translations are made "
                                   "from and carry no stamp; remove stamps.en")
                continue
            fields = self.mapping(per_field, fields_at, f"{what}.{lang}") or YMap()
            self.unknown_keys(fields, FIELDS, f"{what}.{lang}")
            result[lang] = {}
            for name, digest, _, digest_at in _entries(fields):
                text = self.text(digest, digest_at, what, ".", lang, ".", name)
                if text is None or name not in FIELDS:
                    continue
                if not DIGEST.fullmatch(text):
                    self.fail(digest_at, f"{what}.{lang}.{name} {text!r} is not a stamp (8 "
                                         "hexadecimal digits); run gpuglossary stamp to write it")
                    continue
                if (lang, name) not in entry.lines:
                    continue  # its text moved or went: it stamps nothing, and the next
                    # gpuglossary stamp removes it (an error would stop every build)
                if name in entry.sources.get(lang, {}) or (
                        name == "aliases" and "alias" in entry.sources.get(lang, {})):
                    self.fail(digest_at, f"{what}.{lang}.{name}: a seed text is not a "
                                         "translation of the English; remove the stamp")
                    continue
                result[lang][name] = text
        return result

    def flag(self, mapping: YMap, key: str, what: str) -> bool | None:
        """The boolean field *key* of *mapping*, ``None`` when absent or wrong."""
        if key not in mapping:
            return None
        flag = self.text(mapping[key], mapping.value_at[key], what, " ", key)
        if flag is not None and flag.lower() not in ("true", "false"):
            self.fail(mapping.value_at[key], f"{what} {key} must be true or false")
            return None
        return None if flag is None else flag.lower() == "true"

    def linking(self, value: YValue, at: Where, what: str,
                phrases_at: dict[str, Where]) -> LinkRules | None:
        mapping = self.mapping(value, at, f"{what} linking")
        if mapping is None:
            return None
        self.unknown_keys(mapping, LINKING_FIELDS, f"{what} linking")
        phrases: dict[str, tuple[str, ...]] = {}
        for key in LINK_LISTS:
            if key not in mapping:
                continue
            sequence = self.sequence(mapping[key], mapping.value_at[key], f"{what} linking.{key}")
            texts = []
            for phrase, phrase_at in _items(sequence):
                text = self.text(phrase, phrase_at, what, " linking.", key, " phrase")
                if text is not None and key == "not_near" and len(text.split()) != 1:
                    self.fail(phrase_at, f"{what} linking.not_near holds words, not phrases: "
                                         f"write {text!r} as separate words")
                elif text is not None:
                    texts.append(text)
                    phrases_at.setdefault(text, phrase_at)
            phrases[key] = tuple(texts)
        return LinkRules(**phrases,
                         any_case=bool(self.flag(mapping, "any_case", f"{what} linking")))

    def statuses(self, value: YValue, at: Where, what: str) -> dict[str, dict[str, str]]:
        result: dict[str, dict[str, str]] = {}
        for lang, names, lang_at, names_at in _entries(self.mapping(value, at, f"{what} status")):
            if not self.lang(lang, lang_at, f"{what} status"):
                continue
            per_name = self.mapping(names, names_at, f"{what} status.{lang}") or YMap()
            result[lang] = {}
            for name, status, name_at, status_at in _entries(per_name):
                text = self.text(status, status_at, what, " status of ", repr(name))
                if text is None:
                    continue
                if text not in STATUSES:
                    self.fail(status_at, f"unknown status {text!r} for {name!r}; "
                                         f"{did_you_mean(text, STATUSES)}")
                    continue
                if self.text(name, name_at, what, " status name") is not None:
                    result[lang][name] = text
        return result

    def spellings(self, value: YValue, at: Where, what: str, kind: str) -> dict[str, list[str]]:
        """``aliases`` or ``forms`` (*kind* ``alias`` or ``form``): lists by language."""
        result: dict[str, list[str]] = {}
        field_name = f"{kind}es" if kind.endswith("s") else f"{kind}s"
        for key, items, key_at, items_at in _entries(
                self.mapping(value, at, f"{what} {field_name}")):
            if not self.lang(key, key_at, f"{what} {field_name}"):
                continue
            sequence = self.sequence(items, items_at, f"{what} {field_name}.{key}")
            texts = [self.text(spelling, spelling_at, what, " ", kind)
                     for spelling, spelling_at in _items(sequence)]
            result[key] = [t for t in texts if t is not None]
        return result

    def sources(self, value: YValue, at: Where, what: str) -> dict[str, dict[str, str]]:
        result: dict[str, dict[str, str]] = {}
        for key, per_field, key_at, fields_at in _entries(
                self.mapping(value, at, f"{what} sources")):
            if not self.lang(key, key_at, f"{what} sources"):
                continue
            fields = self.mapping(per_field, fields_at, f"{what} sources.{key}") or YMap()
            self.unknown_keys(fields, SOURCE_FIELDS, f"{what} sources.{key}")
            result[key] = {}
            for name, ref, _, ref_at in _entries(fields):
                text = self.text(ref, ref_at, what, " sources.", key, ".", name)
                if text is None or name not in SOURCE_FIELDS:
                    continue
                if not SOURCE_PATTERN.fullmatch(text):
                    self.fail(ref_at, f"source {text!r} must be 'file:line', e.g. '003_seed.txt:83'")
                    continue
                result[key][name] = text
        return result

    def variants(self, value: YValue, at: Where, what: str) -> list[Variant]:
        result: list[Variant] = []
        for item, item_at in _items(self.sequence(value, at, f"{what} variants")):
            mapping = self.mapping(item, item_at, f"{what} variant")
            if mapping is None:
                continue
            self.unknown_keys(mapping, ("lang", "text", "source"), f"{what} variant")
            missing = [k for k in ("lang", "text", "source") if k not in mapping]
            if missing:
                self.fail(item_at, f"{what} variant lacks {', '.join(missing)}; a variant "
                                   "needs lang, text and source")
                continue
            lang, text, source = (self.text(mapping[k], mapping.value_at[k], what, " variant ", k)
                                  for k in ("lang", "text", "source"))
            if lang is None or text is None or source is None:
                continue
            if self.lang(lang, mapping.value_at["lang"], f"{what} variant"):
                result.append(Variant(lang=lang, text=text, source=source))
        return result

    def texts(self, value: YValue, at: Where) -> dict[str, dict]:  # type: ignore[type-arg]
        result: dict[str, dict] = {}  # type: ignore[type-arg]
        mapping = self.mapping(value, at, "texts")
        if mapping is None:
            return result
        self.unknown_keys(mapping, TEXT_FIELDS, "texts")
        if "disclaimer" in mapping:
            result["disclaimer"] = self.texts_by_lang(
                mapping["disclaimer"], mapping.value_at["disclaimer"], "texts.disclaimer")
        if "titles" in mapping:
            titles: dict[str, dict[str, list[str]]] = {}
            seeds = self.mapping(mapping["titles"], mapping.value_at["titles"], "texts.titles")
            for seed, per_lang, _, per_lang_at in _entries(seeds):
                titles[seed] = {}
                langs = self.mapping(per_lang, per_lang_at, f"texts.titles.{seed}")
                for lang, lines, lang_at, lines_at in _entries(langs):
                    if self.lang(lang, lang_at, f"texts.titles.{seed}"):
                        items = self.sequence(lines, lines_at, f"texts.titles.{seed}.{lang}")
                        texts = [self.text(t, t_at, "title line") for t, t_at in _items(items)]
                        titles[seed][lang] = [t for t in texts if t]
            result["titles"] = titles
        return result


def _entries(mapping: YMap | None) -> Iterator[tuple[str, YValue, Where, Where]]:
    """Each ``(key, value, where the key starts, where the value starts)`` of *mapping*."""
    if mapping is not None:
        for key, value in mapping.items():
            yield key, value, mapping.key_at[key], mapping.value_at[key]


def _items(sequence: YList | None) -> zip[tuple[YValue, Where]]:
    """Each item of *sequence* (none if it is ``None``) with where it starts."""
    if sequence is None:
        return zip((), (), strict=True)
    return zip(sequence, sequence.item_at, strict=True)


def _kind(value: object) -> str:
    if isinstance(value, YMap):
        return "mapping"
    if isinstance(value, YList):
        return "list"
    return "text" if isinstance(value, str) else "nothing"


def read_file(raw: bytes, display: str) -> tuple[FileContent, list[Problem]]:
    """Parse and validate glossary file *raw*, called *display*; :class:`GlossaryError`
    for text that is no YAML (see :func:`.yamlsource.parse_yaml`).

    Each ``terms:`` item is checked as soon as it is read and then let go: what is
    held is what the file says, not its YAML values as well.
    """
    checker = _Checker(display)
    root, at = parse_yaml(raw, display, checker.add_term)
    return checker.file(root, at), checker.problems
