"""The glossary as plain data: concepts, their texts per language, provenance."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

#: The fixed set of categories, in the order tables group them.
CATEGORIES: tuple[str, ...] = (
    "hardware",
    "inference",
    "training",
    "parallelism",
    "image-generation",
    "speech",
    "ml-fundamentals",
    "infrastructure",
    "billing-and-api",
)

#: Fields of one term in a glossary file.
TERM_FIELDS: tuple[str, ...] = (
    "id", "category", "names", "neutral", "aliases", "forms", "status", "definitions",
    "sources", "related", "notes", "review", "variants", "autolink", "linking", "readings",
    "stamps",
)

#: TBX-Basic's administrativeStatus values a name can carry (``status:``).
STATUSES: tuple[str, ...] = ("preferred", "admitted", "deprecated", "superseded")
#: Statuses whose use draws a warning naming the preferred name.
DISCOURAGED: frozenset[str] = frozenset({"deprecated", "superseded"})

#: Glossary-level texts a file may carry under ``texts:``.
TEXT_FIELDS: tuple[str, ...] = ("disclaimer", "titles")


@dataclass(frozen=True)
class Variant:
    """A further seed definition of a concept the seed defines twice, kept verbatim."""

    lang: str
    text: str
    source: str


class Translation(NamedTuple):
    """A text written by the glossary's editors in a language other than English
    (a headword, the aliases of one file entry, a definition or a note), where it
    is written, and the stamp of the English it was made from (see :mod:`.stamps`)."""

    lang: str
    #: ``name``, ``aliases``, ``definition`` or ``note`` (:data:`.stamps.FIELDS`)
    field: str
    #: ``file:line`` of the text
    at: str
    #: the digest of the English text it was made from; ``""`` when it has no stamp
    stamp: str


#: What separates the fields and the records of packed translations: ASCII's own
#: separators, which no language code, file name, line number or stamp holds.
_FIELD_SEPARATOR, _RECORD_SEPARATOR = "\x1f", "\x1e"


def pack_translations(translations: list[Translation]) -> str:
    """*translations* as :attr:`Term.translations` keeps them."""
    return _RECORD_SEPARATOR.join(_FIELD_SEPARATOR.join(t) for t in translations)


#: the lists of a term's ``linking:`` rules, in the order files write them
LINK_LISTS = ("not_in", "other_senses", "only_in", "not_near", "only_on_pages_with")


@dataclass(frozen=True)
class LinkRules:
    """When a word spelt like the term is the term (``linking:``), for scan and auto-linking.

    Phrases are written like names, with the term's own words in them: ``policy
    gradient`` for *policy*, ``# parameters`` (``#`` stands for a number such as
    ``7B``, ``*`` for any one word).
    """

    #: longer names or phrases in which the term's words mean something else
    not_in: tuple[str, ...] = ()
    #: phrases in which the term's word means another concept (``type inference``): not
    #: the term there, and on a page that holds one, its one-word spellings mean that
    other_senses: tuple[str, ...] = ()
    #: when given, the term is linked only inside one of these phrases
    only_in: tuple[str, ...] = ()
    #: words that, in the same sentence, say the term's words mean something else
    #: (``authorization`` near *token*)
    not_near: tuple[str, ...] = ()
    #: words or phrases of the term's field (``docker`` for *container*): its one-word
    #: spellings link only on a page that says one of them; its longer names anywhere
    only_on_pages_with: tuple[str, ...] = ()
    #: a one-word name whose case would tell it from a common word (``vLLM``) that
    #: is no common word in any case: matched as ``vllm`` and ``VLLM`` too
    any_case: bool = False


@dataclass
class Term:
    """One concept, with its texts keyed by language code."""

    id: str
    category: str
    names: dict[str, str] = field(default_factory=dict)
    #: True when the English headword is the name in every language (CUDA, H100, vLLM)
    neutral: bool = False
    #: other names readers know the term by, shown as "Also called"
    aliases: dict[str, list[str]] = field(default_factory=dict)
    #: ``{lang: [spelling, ...]}``: spellings only for finding the term in text and
    #: in roles (plurals, case and hyphen variants, version suffixes); never shown
    forms: dict[str, list[str]] = field(default_factory=dict)
    #: ``{lang: {name: status}}`` for names whose status is not the default: a
    #: headword is ``preferred``, an alias ``admitted`` (see :data:`STATUSES`)
    status: dict[str, dict[str, str]] = field(default_factory=dict)
    definitions: dict[str, str] = field(default_factory=dict)
    #: ``{lang: {"name" | "definition": "seed-file:line"}}`` for seeded text;
    #: every other text was written by the glossary's editors
    sources: dict[str, dict[str, str]] = field(default_factory=dict)
    related: list[str] = field(default_factory=list)
    #: ``{lang: note}``: a note for readers of this term's texts in *lang*,
    #: written in *lang*, shown wherever those texts are shown
    notes: dict[str, str] = field(default_factory=dict)
    #: an editor's remark for reviewers (provenance, what was changed and why);
    #: shown only when ``gpuglossary_show_provenance`` is on
    review: str = ""
    variants: list[Variant] = field(default_factory=list)
    #: False keeps ``gpuglossary_autolink`` from linking this term (a common word)
    autolink: bool = True
    linking: LinkRules = field(default_factory=LinkRules)
    #: ``file:line`` of every file entry that contributed to this term.
    origins: list[str] = field(default_factory=list)
    #: ``{lang: reading}``: how the headword in *lang* is read, in the script that
    #: language's index sorts by (hiragana for Japanese); see :mod:`.collation`
    readings: dict[str, str] = field(default_factory=dict)
    #: the editors' texts in languages other than English, with their stamps (seed
    #: texts are not translations of the English and have none), packed into one
    #: string by :func:`pack_translations` (:meth:`translated` unpacks them): builds
    #: never read them, and a cached glossary of 10,000 terms would load 0.1 s slower
    #: with an object for each of its 100,000 translations
    translations: str = ""

    def provenance(self, field_name: str, lang: str) -> str | None:
        """``seed`` (with its ``file:line``) or ``project`` for the *field_name*
        (``name`` or ``definition``) in *lang*; ``None`` when there is no such text."""
        texts = self.names if field_name == "name" else self.definitions
        if lang not in texts:
            return None
        source = self.sources.get(lang, {}).get(field_name)
        return f"seed {source}" if source else "project"

    def translated(self) -> list[Translation]:
        """The term's translations (:attr:`translations` unpacked)."""
        if not self.translations:
            return []
        return [Translation(*record.split(_FIELD_SEPARATOR))
                for record in self.translations.split(_RECORD_SEPARATOR)]

    @property
    def seeded(self) -> bool:
        """True when any text of this term comes from a seed document."""
        return bool(self.sources) or bool(self.variants)


@dataclass
class Glossary:
    """All terms in file order, plus glossary-level texts."""

    terms: dict[str, Term] = field(default_factory=dict)
    #: ``{"disclaimer": {lang: text}, "titles": {seed: {lang: [text, ...]}}}``
    texts: dict[str, dict[str, str] | dict[str, dict[str, list[str]]]] = field(
        default_factory=dict)
    #: ids of the terms a text of which holds bidirectional formatting characters
    #: (``"texts"`` for the glossary-level texts), found when the files are parsed:
    #: texts are kept as written, and output closes what they open (:mod:`.bidi`)
    bidi: list[str] = field(default_factory=list)

    def languages(self) -> list[str]:
        """Every language that has a headword or definition, sorted."""
        langs: set[str] = set()
        for term in self.terms.values():
            langs.update(term.names, term.definitions)
        return sorted(langs)

    def text_languages(self) -> set[str]:
        """Every language any text of a term is in: names, aliases, forms,
        definitions, notes and seed variants."""
        langs: set[str] = set()
        for term in self.terms.values():
            langs.update(term.names, term.definitions, term.aliases, term.forms, term.notes)
            langs.update(variant.lang for variant in term.variants)
        return langs
