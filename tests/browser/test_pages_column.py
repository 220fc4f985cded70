"""A glossary page of the used terms as a reader sees it: a long list of the pages that
use a term shows its first three and opens the rest on demand, by mouse or keyboard."""

from __future__ import annotations

import shutil
from io import StringIO
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from .conftest import ROOTS, THEMES

pytestmark = pytest.mark.browser

WIDGET_ROW = 'tr:has(#gpu-term-widget)'


@pytest.fixture(scope="module")
def used_site(tmp_path_factory: pytest.TempPathFactory):
    """tests/roots/test-used with six more pages that use the widget, per theme."""
    built: dict[str, Path] = {}

    def make(theme: str) -> Path:
        if theme not in built:
            srcdir = tmp_path_factory.mktemp(f"used-{theme}")
            shutil.copytree(ROOTS / "test-used", srcdir, dirs_exist_ok=True)
            index = srcdir / "index.rst"
            index.write_text(index.read_text() + "".join(f"   u{n}\n" for n in range(6)))
            for n in range(6):
                (srcdir / f"u{n}.rst").write_text(f"User {n}\n======\n\nA :gpu-term:`widget`.\n")
            (srcdir / "glossary.rst").write_text("Glossary\n========\n\n.. glossary-table::\n"
                                                 "   :used:\n   :columns: term, definition, pages\n")
            warning = StringIO()
            app = SphinxTestApp("html", srcdir=srcdir, builddir=srcdir / "_build",
                                confoverrides={"html_theme": THEMES[theme]}, status=StringIO(),
                                warning=warning)
            try:
                app.build()
            finally:
                app.cleanup()
            assert warning.getvalue() == ""
            built[theme] = Path(app.outdir)
        return built[theme]

    return make


def shown_pages(page) -> list[str]:
    """The titles of the widget's pages a reader can see."""
    links = page.locator(f"{WIDGET_ROW} .gpu-pages a")
    return [links.nth(n).inner_text() for n in range(links.count()) if links.nth(n).is_visible()]


@pytest.mark.parametrize("theme", ["alabaster", "furo"])
def test_a_long_list_opens_its_rest_on_a_click(used_site, new_page, theme: str) -> None:
    page = new_page()
    page.goto((used_site(theme) / "glossary.html").as_uri())
    assert shown_pages(page) == ["Zeta guide", "Alpha guide", "User 0"]
    summary = page.locator(f"{WIDGET_ROW} summary")
    assert summary.is_visible() and summary.inner_text() == "5 more pages"
    summary.click()
    assert shown_pages(page) == ["Zeta guide", "Alpha guide", "User 0", "User 1", "User 2",
                                 "User 3", "User 4", "User 5"]
    page.locator(f"{WIDGET_ROW} .gpu-pages a", has_text="User 4").click()
    assert page.url.endswith("/u4.html")


def test_the_rest_opens_from_the_keyboard(used_site, new_page) -> None:
    page = new_page()
    page.goto((used_site("alabaster") / "glossary.html").as_uri())
    page.locator(f"{WIDGET_ROW} summary").focus()
    page.keyboard.press("Enter")
    assert len(shown_pages(page)) == 8
    # the other rows' short lists are whole, with nothing to open
    assert page.locator("tr:has(#gpu-term-gizmo) details").count() == 0
    assert page.locator("tr:has(#gpu-term-gizmo) .gpu-pages a").inner_text() == "Zeta guide"
