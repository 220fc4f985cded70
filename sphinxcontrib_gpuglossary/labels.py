"""The extension's own user-interface words, translated through its message catalog."""

from __future__ import annotations

from sphinx.locale import get_translation

#: Name of the packaged catalog (``locale/<lang>/LC_MESSAGES/<name>.mo``).
CATALOG = "sphinxcontrib-gpuglossary"

_ = get_translation(CATALOG)


def column_label(column: str) -> str:
    return {
        "term": _("Term"),
        "definition": _("Definition"),
        "category": _("Category"),
        "aliases": _("Also called"),
        "related": _("See also"),
        "sources": _("Source"),
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


def note_label() -> str:
    return _("Note:")


def variant_label() -> str:
    return _("Also defined as:")


def fallback_badge() -> str:
    return _("not translated")


def disclaimer_label() -> str:
    return _("Disclaimer:")
