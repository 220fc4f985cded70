"""``forms``: spellings that find a term (role, look-up, auto-linking) but readers never see."""

from __future__ import annotations

from pathlib import Path

from sphinxcontrib_gpuglossary.core.exports import term_record
from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, load_glossary

from .html_terms import links
from .test_loader_errors import only, problems

TERMS = """\
terms:
  - id: widget
    category: hardware
    names: {en: Widget}
    aliases: {en: [gizmo]}
    forms: {en: [widgets, WidgetV2]}
    definitions: {en: "A small part that fits a GPU rack."}
"""


def test_forms_load_per_language_and_are_exported(tmp_path: Path) -> None:
    first, second = tmp_path / "terms.yaml", tmp_path / "more.yaml"
    first.write_text(TERMS)
    second.write_text("terms:\n  - id: widget\n    forms: {en: [widgetz], de: [Widgets]}\n")
    files = [GlossaryFile(first, "terms.yaml"), GlossaryFile(second, "more.yaml")]
    term = load_glossary(files).terms["widget"]  # forms from several files add up
    assert term.forms == {"en": ["widgets", "WidgetV2", "widgetz"], "de": ["Widgets"]}
    assert term.aliases == {"en": ["gizmo"]}
    assert term_record(term)["forms"] == {"en": ["widgets", "WidgetV2", "widgetz"],
                                          "de": ["Widgets"]}


def test_a_malformed_forms_entry_is_reported_where_it_stands(tmp_path: Path) -> None:
    p = only(problems(tmp_path, TERMS.replace("forms: {en: [widgets, WidgetV2]}",
                                              "forms: {en: widgets}")))
    assert (p.line, p.column) == (6, 17)  # 1-based: the value after "en: "
    assert "term 'widget' forms.en must be a list" in p.message


def test_a_form_finds_the_term_but_is_never_shown(make_site, build) -> None:
    srcdir = make_site("user", {
        "terms.yaml": TERMS,
        "index.rst": "Site\n====\n\nTwo :gpu-term:`widgets`, a :gpu-term:`WidgetV2`.\n\n"
                     "Plain widgets and a WidgetV2.\n\n"
                     ".. glossary-table::\n   :columns: term, definition, aliases\n",
    })
    site = build(srcdir, gpuglossary_autolink="all")
    html = site.read("index.html")
    assert [(i, text) for i, _href, text in links(html)] == [
        ("widget", "widgets"), ("widget", "WidgetV2"), ("widget", "widgets"),
        ("widget", "WidgetV2")]
    row = html[html.index('id="gpu-term-widget"'):]
    assert "gizmo" in row and "widgets" not in row and "WidgetV2" not in row
    assert site.warnings == ""
