"""Sphinx configuration of the sphinxcontrib-gpuglossary site.

``make docs`` builds it once per language with ``-D language=<lang>`` into
``docs/_build/<lang>/``. The page catalogs and the glossary catalog
(``gpu-glossary.po``) live in ``docs/locales/<lang>/LC_MESSAGES/``; Sphinx
compiles them during the build (the ``.mo`` files are git-ignored).

After changing the English text, update the catalogs from the repository root,
then translate the new and fuzzy entries::

    .venv/bin/sphinx-build -b gettext docs docs/_build/gettext
    .venv/bin/sphinx-intl update -p docs/_build/gettext -d docs/locales -l nl -l ar -l fr -l bn -l ru

The glossary's own catalogs (``gpu-glossary.po``) stay empty: the package carries
every term in all six languages, and a catalog entry would override it.
"""

from sphinxcontrib_gpuglossary import __version__

project = "sphinxcontrib-gpuglossary"
author = "AnchorGPU documentation team"
copyright = "2026, AnchorGPU"
version = release = __version__

extensions = ["myst_parser", "sphinxcontrib_gpuglossary"]
exclude_patterns = ["_build", "_snippets", "locales"]
templates_path = ["_templates"]

# -- Localization --------------------------------------------------------------
language = "en"
locale_dirs = ["locales"]
gettext_compact = False  # one catalog per page: locales/<lang>/LC_MESSAGES/<page>.po
gettext_allow_fuzzy_translations = False

# -- HTML ----------------------------------------------------------------------
html_theme = "furo"
html_title = "sphinxcontrib-gpuglossary"
html_static_path = ["_static/site.css"]  # the screenshots reach the output through the pages
html_css_files = ["site.css"]
html_sidebars = {
    "**": [
        "sidebar/brand.html",
        "sidebar/search.html",
        "languages.html",
        "sidebar/scroll-start.html",
        "sidebar/navigation.html",
        "sidebar/scroll-end.html",
    ],
}
html_show_sourcelink = False
html_last_updated_fmt = None

# Read by _templates/base.html (rtl_languages: dir="rtl" on <html>), languages.html
# and page.html. Keep SITE_LANGUAGES in step with LANGUAGES in the Makefile.
html_context = {
    "site_languages": [
        ("en", "English"),
        ("nl", "Nederlands"),
        ("ar", "العربية"),
        ("fr", "Français"),
        ("bn", "বাংলা"),
        ("ru", "Русский"),
    ],
    "rtl_languages": ["ar"],
    "languages_label": {
        "en": "Languages",
        "nl": "Talen",
        "ar": "اللغات",
        "fr": "Langues",
        "bn": "ভাষা",
        "ru": "Языки",
    },
}
