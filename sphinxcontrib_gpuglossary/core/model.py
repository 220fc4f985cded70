"""The glossary as plain data: concepts, their texts per language, provenance."""

from __future__ import annotations

from dataclasses import dataclass, field

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
    "id", "category", "names", "aliases", "definitions",
    "sources", "related", "notes", "variants", "autolink",
)

#: Glossary-level texts a file may carry under ``texts:``.
TEXT_FIELDS: tuple[str, ...] = ("disclaimer", "titles")


@dataclass(frozen=True)
class Variant:
    """A further seed definition of a concept the seed defines twice, kept verbatim."""

    lang: str
    text: str
    source: str


@dataclass
class Term:
    """One concept, with its texts keyed by language code."""

    id: str
    category: str
    names: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    definitions: dict[str, str] = field(default_factory=dict)
    #: ``{lang: {"name" | "definition": "seed-file:line"}}`` for seeded text.
    sources: dict[str, dict[str, str]] = field(default_factory=dict)
    related: list[str] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    variants: list[Variant] = field(default_factory=list)
    #: False keeps ``gpuglossary_autolink`` from linking this term (a common word)
    autolink: bool = True
    #: ``file:line`` of every file entry that contributed to this term.
    origins: list[str] = field(default_factory=list)

    @property
    def seeded(self) -> bool:
        """True when any text of this term comes from a seed document."""
        return bool(self.sources) or bool(self.variants)


@dataclass
class Glossary:
    """All terms in file order, plus glossary-level texts."""

    terms: dict[str, Term] = field(default_factory=dict)
    #: ``{"disclaimer": {lang: text}, "titles": {seed: {lang: [text, ...]}}}``
    texts: dict[str, dict] = field(default_factory=dict)  # type: ignore[type-arg]

    def languages(self) -> list[str]:
        """Every language that has a headword or definition, sorted."""
        langs: set[str] = set()
        for term in self.terms.values():
            langs.update(term.names, term.definitions)
        return sorted(langs)
