"""The extension's own user-interface words, translated through its message catalog."""

from __future__ import annotations

from sphinx.locale import get_translation, get_translator

#: Name of the packaged catalog (``locale/<lang>/LC_MESSAGES/<name>.mo``).
CATALOG = "sphinxcontrib-gpuglossary"

_ = get_translation(CATALOG)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The plural form of a label for *count*, in the build language (the catalog's
    ``Plural-Forms``; Sphinx's own ``_`` has no plural)."""
    return get_translator(CATALOG).ngettext(singular, plural, count)


def column_label(column: str) -> str:
    return {
        "term": _("Term"),
        "definition": _("Definition"),
        "category": _("Category"),
        "aliases": _("Also called"),
        "related": _("See also"),
        "sources": _("Source"),
        "pages": _("Used on"),
    }[column]


def category_label(category: str) -> str:
    return {
        "hardware": _("Hardware"),
        "inference": _("Inference"),
        "training": _("Training"),
        "parallelism": _("Parallelism"),
        "image-generation": _("Image generation"),
        "speech": _("Speech"),
        "ml-fundamentals": _("ML fundamentals"),
        "infrastructure": _("Infrastructure"),
        "billing-and-api": _("Billing and API"),
    }[category]


def see_also() -> str:
    return _("See also:")


def more_pages(count: int) -> str:
    """What opens the collapsed rest of a long list of *count* pages that use a term."""
    return ngettext("%(count)d more page", "%(count)d more pages", count) % {"count": count}


def note_label() -> str:
    return _("Note:")


def variant_label() -> str:
    return _("Also defined as:")


def names_in(language: str) -> str:
    """Opens the "Also called" line of names in another *language* (its name)."""
    return _("%(language)s:") % {"language": language}


def fallback_badge() -> str:
    """Shown in a ``:languages:`` column that has no text in its language."""
    return _("not translated")


def fallback_note(language: str) -> str:
    """The hover text's line for a definition shown in another *language* (its name)."""
    return _("Not translated yet; shown in another language: %(language)s") % {
        "language": language}


def fallback_summary(count: int, languages: str) -> str:
    """The line above a table: *count* definitions are shown in *languages* (their names)."""
    return ngettext("%(count)d definition is not translated yet and is shown in another "
                    "language: %(languages)s.",
                    "%(count)d definitions are not translated yet and are shown in another "
                    "language: %(languages)s.", count) % {"count": count, "languages": languages}


def fallback_table_note(count: int, total: int, languages: str, definitions: bool) -> str:
    """The line above a table most of whose *total* definitions (else headwords), *count*
    of them, are shown in *languages* (their names); its rows carry no marker then."""
    values = {"count": count, "total": total, "languages": languages}
    if count == total:
        text = (_("The definitions in this table are not translated yet and are shown in "
                  "another language: %(languages)s.") if definitions else
                _("The terms in this table are not translated yet and are shown in another "
                  "language: %(languages)s."))
    elif definitions:
        text = ngettext("%(count)d of %(total)d definitions in this table is not translated yet "
                        "and is shown in another language: %(languages)s.",
                        "%(count)d of %(total)d definitions in this table are not translated yet "
                        "and are shown in another language: %(languages)s.", count)
    else:
        text = ngettext("%(count)d of %(total)d terms in this table is not translated yet and is "
                        "shown in another language: %(languages)s.",
                        "%(count)d of %(total)d terms in this table are not translated yet and "
                        "are shown in another language: %(languages)s.", count)
    return text % values


def disclaimer_label() -> str:
    return _("Disclaimer:")
