"""Links only where links belong: never in headings, lead-ins, definition-list terms,
table headers, option names or code captions; auto-linking and scan agree."""

from __future__ import annotations

import json

from sphinxcontrib_gpuglossary.cli import main

from .test_autolink import links


def test_autolink_links_running_text_only(make_site, build) -> None:
    site = build(make_site("linking"))
    assert links(site.read("positions.html")) == [
        ("kv-cache", "KV cache"), ("kv-cache", "KV cache"),  # plain, and bold mid-sentence
        ("gpu", "GPU"),  # after a list item's bold lead-in
        ("vram", "VRAM"),  # a definition, not its term
        ("kv-cache", "KV cache"),  # a body cell, not the header
        ("gpu", "GPU"),  # an option's description, not the option
    ]
    assert links(site.read("positions-md.html")) == [
        ("kv-cache", "KV cache"), ("kv-cache", "KV cache"), ("gpu", "GPU"),
        ("kv-cache", "KV cache"),
        # a second header row written as the first body row (FP16, BF16) takes none
        ("kv-cache", "KV cache"), ("gpu", "GPU")]
    assert site.warnings == ""


def test_scan_reports_the_same_places(make_site, capsys) -> None:
    srcdir = make_site("linking")
    main(["scan", str(srcdir), "--format", "json"])
    out, err = capsys.readouterr()
    found = json.loads(out)
    by_file = sorted((m["file"].rsplit("/", 1)[-1], m["line"], m["text"]) for m in found)
    # reST cannot nest a role in bold: the bold mid-sentence mention is auto-linked only,
    # and scan names it
    assert "positions.rst:4: 'KV cache' [kv-cache] cannot be placed: it stands in emphasis " \
        "or bold text, where reST cannot nest a role" in err
    assert by_file == [
        ("positions-md.md", 3, "KV cache"), ("positions-md.md", 3, "KV cache"),
        ("positions-md.md", 11, "GPU"), ("positions-md.md", 15, "KV cache"),
        ("positions-md.md", 22, "GPU"), ("positions-md.md", 22, "KV cache"),
        ("positions.rst", 4, "KV cache"), ("positions.rst", 12, "GPU"),
        ("positions.rst", 15, "VRAM"), ("positions.rst", 21, "KV cache"),
        ("positions.rst", 23, "GPU"),
    ]


#: Pages of one rule each. A phrase of a term's rules never runs across inline code:
#: ``model parameters`` is one of parameter's ``only_in`` phrases, and "the `model`
#: parameter" names an option.
SMALL_PAGES = {
    "index.rst": "Product docs\n============\n\n.. toctree::\n\n   code-rst\n   code-md\n"
                 "   lead-in\n   heading-line\n   column-head\n   italic-rst\n   italic-md\n"
                 "   label-line\n",
    "code-rst.rst": "Code\n====\n\nSet the ``model`` parameter to a name.\n\n"
                    "A 7B model has billions of model parameters.\n",
    "code-md.md": "# Code\n\nSet the `model` parameter to a name.\n\n"
                  "A 7B model has billions of model parameters.\n",
    "lead-in.md": "# Lead-ins\n\n**Why the GPU matters.** A GPU runs it.\n\n"
                  "**Low bandwidth and FSDP** We shard with FSDP.\n\n"
                  "**FSDP and DDP** are both supported.\n",
    "italic-rst.rst": "Italics\n=======\n\n*Compression can be combined with quantization for "
                      "a smaller model.*\n\n*Quantization on one GPU*\n\n**Never run the "
                      "quantization step on a shared GPU node.**\n",
    "italic-md.md": "# Italics\n\n*Compression can be combined with quantization for a "
                    "smaller model.*\n\n*Quantization on one GPU*\n\n**Never run the "
                    "quantization step on a shared GPU node.**\n",
    "label-line.md": "# Labels\n\n- *GPU runtime* for float 32 precision:\n\n"
                       "  The runtime runs on the GPU.\n\n- *Quantization* makes a model "
                       "smaller.\n\n- *Quantization* of weights:\n",
    "column-head.md": "# Support\n\n| Model | Inference Engine | Framework |\n| --- | --- | --- |\n"
                      "| Llama | TurboMind, PyTorch | PyTorch |\n",
    "heading-line.rst": "Steps\n=====\n\nSingle GPU Setup\n\nStart with one GPU.\n\n"
                        "- Two NVIDIA GPUs\n\n1. Multi GPU Replicas\n\nEach replica takes a GPU.\n\n"
                        "1. Two NVIDIA GPUs\n2. Four NVIDIA GPUs\n",
}


def test_a_phrase_never_runs_across_inline_code(make_site, build, capsys) -> None:
    site = build(make_site("autolink", SMALL_PAGES))
    for page in ("code-rst.html", "code-md.html"):
        assert links(site.read(page)) == [("parameter", "parameters")], page
    main(["scan", str(site.app.srcdir), "--format", "json"])
    found = json.loads(capsys.readouterr().out)
    assert sorted((m["file"].rsplit("/", 1)[-1], m["line"], m["text"]) for m in found
                  if "/code-" in m["file"]) == [
        ("code-md.md", 5, "parameters"), ("code-rst.rst", 6, "parameters")]


def test_a_bold_sentence_or_run_in_bold_words_that_open_a_paragraph_are_a_lead_in(
        make_site, build, capsys) -> None:
    site = build(make_site("autolink", SMALL_PAGES), gpuglossary_autolink="all")
    html = site.read("lead-in.html")
    assert "<strong>Why the GPU matters.</strong>" in html
    assert "<strong>Low bandwidth and FSDP</strong>" in html  # bold words run in: a heading
    assert links(html) == [("gpu", "GPU"), ("fsdp", "FSDP"), ("fsdp", "FSDP"), ("ddp", "DDP")]
    main(["scan", str(site.app.srcdir), "--format", "json"])
    found = json.loads(capsys.readouterr().out)
    assert [(m["line"], m["column"]) for m in found if m["file"].endswith("lead-in.md")] == [
        (3, 28), (5, 42), (7, 3), (7, 12)]


def test_italic_words_that_open_a_list_items_label_line_are_a_lead_in(
        make_site, build, capsys) -> None:
    """An item's first line in italics that ends with a colon, over the item's body, is a
    label; italic words that open an item's only sentence, or its only line, are not."""
    site = build(make_site("autolink", SMALL_PAGES), gpuglossary_autolink="all")
    html = site.read("label-line.html")
    assert "<em>GPU runtime</em> for float 32 precision:" in html
    assert links(html) == [("gpu", "GPU"), ("quantization", "Quantization"),
                           ("quantization", "Quantization")]
    main(["scan", str(site.app.srcdir), "--format", "json"])
    found = json.loads(capsys.readouterr().out)
    assert [(m["line"], m["text"]) for m in found if m["file"].endswith("label-line.md")] == [
        (5, "GPU"), (7, "Quantization"), (9, "Quantization")]


def test_a_table_cell_is_read_before_its_column_head(make_site, build, capsys) -> None:
    """Under *Inference Engine*, PyTorch is LMDeploy's PyTorch engine (the term's not_in
    phrase); under *Framework* it is PyTorch."""
    site = build(make_site("autolink", SMALL_PAGES), gpuglossary_autolink="all")
    assert links(site.read("column-head.html")) == [("pytorch", "PyTorch")]
    main(["scan", str(site.app.srcdir), "--format", "json", "--explain"])
    out = capsys.readouterr().out
    assert "part of 'PyTorch engine' (the term's linking.not_in)" in out
    main(["scan", str(site.app.srcdir), "--format", "json"])
    found = json.loads(capsys.readouterr().out)
    assert [(m["line"], m["column"]) for m in found if m["file"].endswith("column-head.md")] == [
        (5, 32)]


def test_a_short_line_in_title_case_is_a_heading(make_site, build, capsys) -> None:
    """Standing alone, without a sentence's mark, or as a numbered list of one line; a
    bulleted item in title case, or one of a numbered list's items, is not."""
    site = build(make_site("autolink", SMALL_PAGES), gpuglossary_autolink="all")
    assert links(site.read("heading-line.html")) == [
        ("gpu", "GPU"), ("gpu", "GPUs"), ("gpu", "GPU"), ("gpu", "GPUs"), ("gpu", "GPUs")]
    main(["scan", str(site.app.srcdir), "--format", "json"])
    found = json.loads(capsys.readouterr().out)
    assert [(m["line"], m["text"]) for m in found if m["file"].endswith("heading-line.rst")] == [
        (6, "GPU"), (8, "GPUs"), (12, "GPU"), (14, "GPUs"), (15, "GPUs")]


def test_a_long_italic_paragraph_is_prose_a_short_one_a_heading(make_site, build,
                                                                capsys) -> None:
    """An italic paragraph of more words than a heading has is a quote, a caption or an
    answer (AIMET's FAQ, Flax's paper abstracts): linked; a short one, and a bold
    paragraph of any length, are headings. In reST scan names what it cannot mark."""
    site = build(make_site("autolink", SMALL_PAGES), gpuglossary_autolink="all")
    for page in ("italic-rst.html", "italic-md.html"):
        assert links(site.read(page)) == [("quantization", "quantization")], page
    main(["scan", str(site.app.srcdir), "--format", "json"])
    out, err = capsys.readouterr()
    found = json.loads(out)
    assert [(m["file"].rsplit("/", 1)[-1], m["line"], m["column"], m["text"]) for m in found
            if "/italic-" in m["file"]] == [("italic-md.md", 3, 35, "quantization")]
    assert "italic-rst.rst:4: 'quantization' [quantization] cannot be placed: it stands in " \
        "emphasis or bold text" in err
    assert "italic-rst.rst:6" not in err and "italic-rst.rst:8" not in err
