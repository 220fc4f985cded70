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
