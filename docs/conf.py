"""Sphinx configuration of the sphinxcontrib-gpuglossary site.

``make docs`` builds it once per language with ``-D language=<lang>`` into
``docs/_build/<lang>/``. The page catalogs and the glossary catalog
(``gpu-glossary.po``) live in ``docs/locales/<lang>/LC_MESSAGES/``; Sphinx
compiles them during the build (the ``.mo`` files are git-ignored).

After changing the English text, update the catalogs from the repository root,
then translate the new and fuzzy entries::

    .venv/bin/sphinx-build -b gettext docs docs/_build/gettext
    .venv/bin/sphinx-intl update -p docs/_build/gettext -d docs/locales -l nl -l ar -l fr -l bn -l ru

The languages added later (zh_CN, zh_TW, ja, ko, de, es, pt_BR, it) translate the
landing page, the quick start and the glossary page (and furo's words, sphinx.po);
their other pages are shown in English. Update just those catalogs with
``make docs-catalogs``.

The glossary's own catalogs (``gpu-glossary.po``) stay empty: the package carries
every term in all fourteen languages, and a catalog entry would override it.
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
# and page.html. Keep site_languages in step with LANGUAGES in the Makefile (a test
# does). The codes are Sphinx's (zh_CN, the folder names); the templates write them
# as HTML wants them (zh-CN), as Sphinx does for the page's own "language".
html_context = {
    "site_languages": [
        ("en", "English"),
        ("nl", "Nederlands"),
        ("ar", "العربية"),
        ("fr", "Français"),
        ("bn", "বাংলা"),
        ("ru", "Русский"),
        ("zh_CN", "简体中文"),
        ("zh_TW", "繁體中文"),
        ("ja", "日本語"),
        ("ko", "한국어"),
        ("de", "Deutsch"),
        ("es", "Español"),
        ("pt_BR", "Português (Brasil)"),
        ("it", "Italiano"),
    ],
    "rtl_languages": ["ar"],
    "languages_label": {
        "en": "Languages",
        "nl": "Talen",
        "ar": "اللغات",
        "fr": "Langues",
        "bn": "ভাষা",
        "ru": "Языки",
        "zh_CN": "语言",
        "zh_TW": "語言",
        "ja": "言語",
        "ko": "언어",
        "de": "Sprachen",
        "es": "Idiomas",
        "pt_BR": "Idiomas",
        "it": "Lingue",
    },
}
