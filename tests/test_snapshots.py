"""Doctree snapshots of the role and the directive (review changes in tests/test_snapshots/)."""

from __future__ import annotations

import re

import pytest

from .conftest import ROOTS

CONF = {"extensions": ["sphinxcontrib_gpuglossary"], "gpuglossary_seeded": False,
        "gpuglossary_files": ["terms.yaml"]}


def snapshot(result) -> str:
    """The doctree as pseudo-XML, with docutils' boolean spelling made version-independent."""
    return re.sub(r'="(True|False)"', lambda m: '="1"' if m.group(1) == "True" else '="0"',
                  result.pformat("index"))


@pytest.fixture
def doctree(sphinx_doctree):
    sphinx_doctree.set_conf(CONF)
    sphinx_doctree.srcdir.joinpath("terms.yaml").write_text(
        (ROOTS / "test-user" / "terms.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    return sphinx_doctree


def test_role_doctree(doctree, file_regression) -> None:
    result = doctree("Title\n=====\n\nA :gpu-term:`widget`, :gpu-term:`the gadget <Gadget>` "
                     "and :gpu-term:`unknown`.\n")
    assert "unknown GPU glossary term 'unknown'" in result.warnings
    file_regression.check(snapshot(result), extension=".xml")


def test_directive_doctree(doctree, file_regression) -> None:
    result = doctree("Title\n=====\n\n.. glossary-table::\n   :columns: term, definition, "
                     "category, aliases\n   :group: letter\n")
    assert result.warnings == ""
    file_regression.check(snapshot(result), extension=".xml")


def test_directive_languages_doctree(doctree, file_regression) -> None:
    result = doctree("Title\n=====\n\n.. glossary-table::\n   :languages: en, de\n")
    file_regression.check(snapshot(result), extension=".xml")
