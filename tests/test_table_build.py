"""How a glossary-table is built: after smart quotes, and with plain "See also" links."""

from __future__ import annotations

import re

from docutils import nodes

from sphinxcontrib_gpuglossary.nodes import glossary_block, gpu_related

from .see_also import written_both_ways

SITE = "Site\n====\n\n.. toctree::\n\n   glossary\n   extra\n"


def related(html: str, term_id: str) -> str:
    """The "See also" paragraph of *term_id*'s row."""
    row = html[html.index(f'id="gpu-term-{term_id}"'):]
    row = row[:row.index("</tr>")]
    return re.search(r'<p class="gpu-related">.*?</p>', row, re.S).group()


def test_related_term_in_this_table_is_a_plain_link_to_its_row(make_site, build) -> None:
    srcdir = make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n"
                                                 "   :terms: GQA, attention\n"})
    see_also = related(build(srcdir).read("glossary.html"), "gqa")
    assert '<a class="reference internal" href="#gpu-term-attention">Attention</a>' in see_also


def test_related_term_in_another_pages_table_links_there(make_site, build) -> None:
    srcdir = make_site("basic", {
        "index.rst": SITE,
        "glossary.rst": "G\n=\n\n.. glossary-table::\n   :terms: GQA\n",
        "extra.rst": "Extra\n=====\n\n.. glossary-table::\n   :terms: attention\n",
    })
    see_also = related(build(srcdir).read("glossary.html"), "gqa")
    assert re.search(r'<a class="reference internal" href="extra\.html#gpu-term-attention"'
                     r'[^>]*><span>Attention</span></a>', see_also)
    # not shown in any table: plain text
    assert "<span>KV cache</span>" in see_also and "gpu-term-kv-cache" not in see_also


def test_see_also_lines_stay_compact_in_the_doctree_and_every_builder_writes_links(
        make_site, build) -> None:
    srcdir = make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n"})
    site = build(srcdir)
    doctree = site.app.env.get_doctree("glossary")
    assert len(list(doctree.findall(gpu_related))) > 100
    assert not list(doctree.findall(nodes.reference))  # no link nodes until written
    assert '<a class="reference internal" href="#gpu-term-attention">Attention</a>' in related(
        site.read("glossary.html"), "gqa")
    (tex,) = build(srcdir, "latex").outdir.glob("*.tex")
    latex = tex.read_text(encoding="utf-8")
    gqa = latex[latex.index(r"\label{\detokenize{glossary:gpu-term-gqa}}"):]
    gqa = gqa[:gqa.index(r"\\")]  # the end of the row
    assert "See also:" in gqa
    assert r"\hyperref[\detokenize{glossary:gpu-term-attention}]" in gqa
    text = build(srcdir, "text").read("glossary.txt")
    assert re.search(r"See also:[^\n]*Attention", text)


def test_see_also_to_a_term_no_table_shows_is_no_nitpick(make_site, build) -> None:
    srcdir = make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n   :terms: GQA\n",
                                 "guide.rst": "Guide\n=====\n\n:gpu-term:`VRAM`\n"})
    site = build(srcdir, nitpicky=True)
    assert "<span>KV cache</span>" in related(site.read("glossary.html"), "gqa")
    assert site.warnings == ""


def test_see_also_links_carry_no_hover_definition(make_site, build) -> None:
    srcdir = make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n"})
    html = build(srcdir).read("glossary.html")
    paragraphs = re.findall(r'<p class="gpu-related">.*?</p>', html, re.S)
    assert len(paragraphs) > 100
    for see_also in paragraphs:
        assert "gpu-term" not in see_also.replace('href="#gpu-term-', "")
        assert "aria-describedby" not in see_also and "title=" not in see_also
    # a page with only a table holds no term markup, hence no definitions for it
    assert "data-gpu-term" not in html and "gpu-title" not in html


TERMS = """\
terms:
  - id: quoted
    category: hardware
    names: {en: "Tom's \\"part\\" -- v2..."}
    aliases: {en: ["the 'quoted' one -- old"]}
    definitions: {en: "A part."}
    related: [plain]
  - id: plain
    category: hardware
    names: {en: Plain}
    definitions: {en: "Plain."}
    related: [quoted]
"""


def test_glossary_text_is_verbatim_while_prose_gets_smart_quotes(make_site, build) -> None:
    srcdir = make_site("user", {
        "terms.yaml": TERMS,
        "index.rst": 'Title\n=====\n\nProse "quoted" -- here.\n\n.. glossary-table::\n'
                     "   :columns: term, definition, aliases\n",
    })
    html = build(srcdir).read("index.html")
    assert "Prose “quoted” – here." in html
    # aliases and "See also" links are plain text nodes: smart quotes would have changed them
    assert "<p>the 'quoted' one -- old</p>" in html
    assert "Tom's &quot;part&quot; -- v2...</a>" in html
    assert "’" not in html[html.index('class="gpu-glossary"'):]


def test_table_keeps_the_source_and_line_of_its_directive(make_site, build) -> None:
    srcdir = make_site("basic", {"glossary.rst": "G\n=\n\nText.\n\n.. glossary-table::\n"
                                                 "   :terms: vram\n"})
    doctree = build(srcdir).app.env.get_doctree("glossary")
    (block,) = doctree.findall(glossary_block)
    assert block.source.endswith("glossary.rst") and block.line == 6


def test_html_writes_a_see_also_line_as_the_translator_writes_the_line_it_stands_for(
        make_site, build) -> None:
    """The HTML visitor writes :class:`gpu_related` itself; it must write what the
    translator writes for the nodes :func:`expand_related` makes (Japanese: a
    full-width colon after the label, English headwords tagged with their language: the
    site's own terms, which have no Japanese headword)."""
    terms = ("terms:\n"
             "  - id: widget\n    category: hardware\n    names: {en: Widget}\n"
             "    definitions: {en: A part of the machine.}\n    related: [gadget]\n"
             "  - id: gadget\n    category: hardware\n    names: {en: Gadget}\n"
             "    definitions: {en: A tool for the machine.}\n    related: [widget]\n")
    site = build(make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n",
                                     "terms.yaml": terms}),
                 language="ja", gpuglossary_files=["terms.yaml"])
    direct, reference = written_both_ways(site.app)
    assert direct == reference
    assert re.search(r'<span class="gpu-label">[^<]*：</span><a ', direct)
    assert re.search(r'<a class="reference internal" href="#gpu-term-[^"]+"><span class="gpu-text" '
                     r'dir="ltr" lang="en">', direct)


def test_a_table_leaves_no_message_nodes_in_the_doctree(make_site, build) -> None:
    """docutils notes every target no link names as "not referenced" (an info message
    kept with the doctree): a table's anchors are marked as link targets."""
    site = build(make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n"}))
    doctree = site.app.env.get_doctree("glossary")
    assert len(list(doctree.findall(nodes.target))) > 100
    assert doctree.transform_messages == []
    assert not list(doctree.findall(nodes.system_message))
