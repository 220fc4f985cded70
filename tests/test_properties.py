"""Property-based tests: random role texts and random glossary files never crash."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
import yaml
from docutils import nodes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sphinx.testing.util import SphinxTestApp

from sphinxcontrib_gpuglossary.core.errors import GlossaryError
from sphinxcontrib_gpuglossary.core.loader import parse_glossary
from sphinxcontrib_gpuglossary.core.model import Glossary
from sphinxcontrib_gpuglossary.nodes import gpu_term

from .conftest import GOOD, ROOTS

#: a few seconds for the three tests; no example database written into the repository
FAST = settings(max_examples=40, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# -- role text --------------------------------------------------------------------

#: what reStructuredText can hold inside one interpreted text (no backticks, no line
#: breaks, not starting or ending with a space or ending with a backslash)
CHARACTERS = st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="`")
KNOWN = st.sampled_from(["widget", "Widget", "WIDGETS", "gadget", "Gadget", "wid-get", "gad_get"])
PIECE = st.one_of(KNOWN, st.text(CHARACTERS, max_size=12), st.sampled_from(["<", ">", "\\", " "]))


@st.composite
def role_texts(draw: st.DrawFn) -> str:
    text = "".join(draw(st.lists(PIECE, min_size=1, max_size=5))).strip()
    while text.endswith("\\"):
        text = text[:-1].rstrip()
    return text or "widget"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SphinxTestApp, StringIO]]:
    srcdir = tmp_path_factory.mktemp("roles") / "site"
    shutil.copytree(ROOTS / "test-user", srcdir)
    warnings = StringIO()
    app = SphinxTestApp("html", srcdir=srcdir, status=StringIO(), warning=warnings)
    try:
        yield app, warnings
    finally:
        app.cleanup()


@FAST
@given(st.lists(role_texts(), min_size=1, max_size=4))
def test_any_role_text_resolves_or_warns(site: tuple[SphinxTestApp, StringIO],
                                         texts: list[str]) -> None:
    app, warnings = site
    body = " and ".join(f":gpu-term:`{text}`" for text in texts)
    (Path(app.srcdir) / "index.rst").write_text(f"Roles\n=====\n\n{body}.\n", encoding="utf-8")
    warnings.seek(0)
    warnings.truncate()
    app.build(force_all=True)  # a real build: reading, resolving, writing HTML
    doctree = app.env.get_doctree("index")
    resolved = list(doctree.findall(gpu_term))
    unknown = [n for n in doctree.findall(nodes.inline) if "gpu-term-unknown" in n["classes"]]
    assert len(resolved) + len(unknown) == len(texts), warnings.getvalue()
    assert warnings.getvalue().count("unknown GPU glossary term") == len(unknown)
    assert "Traceback" not in warnings.getvalue() and "Exception" not in warnings.getvalue()
    assert (Path(app.outdir) / "index.html").exists()


# -- glossary files -----------------------------------------------------------------

FIELDS = ["terms", "texts", "id", "category", "names", "definitions", "aliases", "sources",
          "related", "notes", "review", "variants", "autolink", "neutral", "status", "en", "nl",
          "hardware", "name", "definition", "lang", "text", "source", "disclaimer", "titles"]
KEYS = st.one_of(st.sampled_from(FIELDS), st.text(max_size=8))
SCALARS = st.one_of(st.sampled_from(FIELDS), st.text(max_size=20), st.integers(), st.booleans(),
                    st.none(), st.floats(allow_nan=False))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)), max_leaves=25)


def check(raw: bytes) -> None:
    """Parse *raw*: a glossary, or a GlossaryError whose problems each name the file and
    (but for a problem of the whole file) a line."""
    try:
        assert isinstance(parse_glossary([("terms.yaml", raw)]), Glossary)
    except GlossaryError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.file == "terms.yaml"
            assert problem.line >= 1 or problem.message.startswith("file "), problem
            assert str(problem).startswith(f"terms.yaml:{problem.line}:" if problem.line
                                           else "terms.yaml: ")


@FAST
@given(VALUES)
def test_any_yaml_document_is_a_glossary_or_located_problems(value: object) -> None:
    check(yaml.safe_dump(value, allow_unicode=True).encode("utf-8"))


#: pieces of YAML syntax worth splicing in: anchors, aliases, tags, flow collections
YAML_BITS = [b":", b"- ", b"\n  ", b"&a ", b"*a", b"!!python/object ", b"{", b"[", b"\t", b"? "]


@FAST
@given(st.data())
def test_any_edit_of_a_good_file_is_a_glossary_or_located_problems(data: st.DataObject) -> None:
    raw = GOOD.encode("utf-8")
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(raw)))
        cut = data.draw(st.integers(0, 6))
        insert = data.draw(st.one_of(st.binary(max_size=6),
                                     st.text(max_size=6).map(lambda t: t.encode("utf-8")),
                                     st.sampled_from(YAML_BITS)))
        raw = raw[:at] + insert + raw[at + cut:]
    check(raw)
