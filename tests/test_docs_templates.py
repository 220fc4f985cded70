"""The docs' copy of furo's ``base.html`` stays furo's own, but for ``dir`` on ``<html>``.

Furo writes ``<html>`` outside any block, so ``docs/_templates/base.html`` is a whole
copy; when furo changes its ``base.html`` this fails until the copy is made again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

furo = pytest.importorskip("furo")

OURS = Path(__file__).parent.parent / "docs" / "_templates" / "base.html"
FURO = Path(furo.__file__).parent / "theme" / "furo" / "base.html"
LANG = '{% if language is not none %} lang="{{ language }}"{% endif %}'
DIR = '{% if language in rtl_languages %} dir="rtl"{% endif %}'


def test_docs_base_template_is_furos_with_dir_on_html() -> None:
    theirs = FURO.read_text(encoding="utf-8")
    assert theirs.count(LANG) == 1, f"furo's <html> changed: copy {FURO} to {OURS} again"
    ours = OURS.read_text(encoding="utf-8")
    assert ours.startswith("{#-") and "-#}\n" in ours  # the note on why it is a copy
    body = ours.split("-#}\n", 1)[1]
    assert body == theirs.replace(LANG, LANG + DIR), \
        f"{OURS} is no longer {FURO} plus dir: copy it again and add {DIR!r} after lang"


def test_the_accessibility_page_names_the_template_that_sets_the_direction() -> None:
    """The page-level right-to-left recipe points at the template that does it (base.html,
    which writes <html>), not at page.html, which cannot reach <html>."""
    page = (OURS.parent.parent / "accessibility.rst").read_text(encoding="utf-8")
    recipe = page.split("Right-to-left languages", 1)[1].split("\n.. figure::", 1)[0]
    assert "``docs/_templates/base.html``" in recipe and DIR in recipe
    assert "_templates/page.html" not in recipe
    assert DIR in OURS.read_text(encoding="utf-8")


# -- the site's languages ----------------------------------------------------------------

ROOT = Path(__file__).parent.parent


def _make_list(name: str) -> list[str]:
    import re

    (value,) = re.findall(rf"^{name} := (.*)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    return value.split()


def _site_context() -> dict:
    import ast

    tree = ast.parse((ROOT / "docs" / "conf.py").read_text(encoding="utf-8"))
    (node,) = [n for n in tree.body if isinstance(n, ast.Assign)
               and getattr(n.targets[0], "id", "") == "html_context"]
    return ast.literal_eval(node.value)


def test_every_language_of_the_makefile_is_on_the_switcher_with_its_catalogs() -> None:
    context = _site_context()
    languages = _make_list("LANGUAGES")
    assert [code for code, _ in context["site_languages"]] == languages
    assert sorted(context["languages_label"]) == sorted(languages)
    assert len(languages) == 14
    for lang in _make_list("PAGE_LANGUAGES"):
        for page in _make_list("PAGE_CATALOGS"):
            assert (ROOT / "docs" / "locales" / lang / "LC_MESSAGES" / f"{page}.po").exists()


def test_a_new_language_builds_with_bcp47_tags_on_the_switcher(tmp_path: Path) -> None:
    """zh_TW (untranslated catalogs) builds without a warning; the page and the switcher
    say zh-TW, the tag HTML wants, and the switcher marks the page's own language."""
    from .conftest import build_site

    built = build_site(ROOT / "docs", tmp_path, language="zh_TW")
    assert built.warnings == ""
    html = built.read("quickstart.html")
    assert '<html class="no-js" lang="zh-TW"' in html
    assert 'href="../zh_TW/quickstart.html" hreflang="zh-TW" lang="zh-TW" aria-current="page">' \
        in html
    assert '<link rel="alternate" hreflang="pt-BR" href="../pt_BR/quickstart.html">' in html
    assert 'aria-label="語言"' in html and html.count('class="gpu-languages"') == 1
