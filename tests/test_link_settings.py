"""The site decides: terms switched off and on in conf.py or on the command line, and one
spot marked as not a term with ``:gpu-plain:``."""

from __future__ import annotations

import json

from sphinxcontrib_gpuglossary.cli import main

from .conftest import ROOTS
from .test_autolink import links

PAGE = """\
Settings
========

A KV cache on the GPU, a random seed, and :gpu-plain:`VRAM` then VRAM.

.. glossary-table::
   :terms: kv-cache, gpu, seed, vram
"""


def test_conf_switches_terms_off_and_on(make_site, build) -> None:
    srcdir = make_site("linking", {"positions.rst": PAGE})
    site = build(srcdir, gpuglossary_link_exclude=["GPU"], gpuglossary_link_include=["seed"])
    assert links(site.read("positions.html")) == [
        ("kv-cache", "KV cache"), ("seed", "random seed"), ("vram", "VRAM")]
    assert site.warnings == ""


def test_an_unknown_term_in_the_settings_is_warned_about(make_site, build) -> None:
    site = build(make_site("linking", {"positions.rst": PAGE}),
                 gpuglossary_link_exclude=["KV cahce"])
    assert "gpuglossary_link_exclude names 'KV cahce', which is no GPU glossary term" \
        in site.warnings
    assert "did you mean 'KV cache'" in site.warnings and "[gpuglossary.option]" in site.warnings


def test_gpu_plain_is_never_linked_and_renders_as_plain_text(make_site, build) -> None:
    marked = build(make_site("linking", {"positions.rst": PAGE})).read("positions.html")
    assert ("vram", "VRAM") in links(marked)  # the second VRAM
    plain = build(make_site("linking", {"positions.rst": PAGE.replace(":gpu-plain:`VRAM`",
                                                                      "VRAM")}),
                  gpuglossary_autolink="first").read("positions.html")
    body = marked[marked.index('<section id="settings">'):marked.index("</section>")]
    # "first": the unmarked page links its first VRAM where the marked page links the second
    unmarked = plain[plain.index('<section id="settings">'):plain.index("</section>")]
    assert body.count('data-gpu-term="vram"') == unmarked.count('data-gpu-term="vram"') == 1
    assert body.index("then <a") > body.index("and VRAM then") > 0
    assert "gpu-plain" not in marked


def test_scan_obeys_the_site_and_the_command_line(make_site, capsys) -> None:
    conf = (ROOTS / "test-linking" / "conf.py").read_text()
    srcdir = make_site("linking", {"positions.rst": PAGE,
                                   "conf.py": conf + 'gpuglossary_link_exclude = ["kv-cache"]\n'})
    main(["scan", str(srcdir), "--format", "json"])
    found = [(m["text"], m["term"]) for m in json.loads(capsys.readouterr().out)
             if m["file"].endswith("positions.rst")]
    assert found == [("GPU", "gpu"), ("VRAM", "vram")]  # no KV cache, no random seed
    main(["scan", str(srcdir), "--format", "json", "--exclude-term", "GPU",
          "--include-term", "Seed"])
    found = [(m["text"], m["term"]) for m in json.loads(capsys.readouterr().out)
             if m["file"].endswith("positions.rst")]
    assert found == [("KV cache", "kv-cache"), ("random seed", "seed"), ("VRAM", "vram")]


EXPLAINED = PAGE.replace("and :gpu-plain:`VRAM` then VRAM.",
                         "and VRAM.\n\nThe API takes two parameters on Triton Inference Server.\n\n"
                         "KV cache\n   A definition-list term.")


def test_scan_explain_says_why_a_word_is_not_linked(make_site, capsys) -> None:
    srcdir = make_site("linking", {"positions.rst": EXPLAINED})
    assert main(["scan", str(srcdir), "--explain"]) == 1
    lines = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()
             if "positions.rst" in line]
    assert lines == [
        "KV cache [kv-cache]", "GPU [gpu]",
        "random seed [seed] not linked: a common word (autolink: false)",
        "VRAM [vram]",
        "parameters [parameter] not linked: not in one of the phrases of the term's "
        "linking.only_in",
        "Inference [inference] not linked: part of the name 'Triton Inference Server'",
        "KV cache [kv-cache] not linked: definition-list term",
    ]


def test_scan_explain_in_json_marks_what_is_linked(make_site, capsys) -> None:
    srcdir = make_site("linking", {"positions.rst": EXPLAINED})
    main(["scan", str(srcdir), "--explain", "--format", "json"])
    records = [r for r in json.loads(capsys.readouterr().out)
               if r["file"].endswith("positions.rst")]
    assert [(r["text"], r["linked"], r.get("reason")) for r in records][:3] == [
        ("KV cache", True, None), ("GPU", True, None),
        ("random seed", False, "a common word (autolink: false)")]
    # the plain list (without --explain) is what --fix --from takes: the linked ones only
    main(["scan", str(srcdir), "--format", "json"])
    plain = [r for r in json.loads(capsys.readouterr().out) if r["file"].endswith("positions.rst")]
    assert [r["text"] for r in plain] == [r["text"] for r in records if r["linked"]]


def test_scan_explain_does_not_go_with_fix(make_site, capsys) -> None:
    assert main(["scan", str(make_site("linking")), "--explain", "--fix"]) == 2
    assert "--explain lists what is and is not linked" in capsys.readouterr().err


NAMED = """\
Named
=====

The vLLM Production Stack deploys vLLM on a GPU.
"""


def test_the_sites_own_name_is_no_term_in_autolink_and_scan(make_site, build, capsys) -> None:
    """A term inside the site's ``project`` name, with more words, is part of the site's
    product's name there; elsewhere on the page it is the term."""
    srcdir = make_site("linking", {"named.rst": NAMED})
    site = build(srcdir, gpuglossary_autolink="all", project="vLLM Production Stack")
    html = site.read("named.html")
    assert "<p>The vLLM Production Stack deploys <" in html  # the name plain, then the term
    assert html.count('data-gpu-term="vllm"') == 1 and ("gpu", "GPU") in links(html)
    other = build(srcdir, gpuglossary_autolink="all").read("named.html")  # another project
    assert other.count('data-gpu-term="vllm"') == 2
    # a conf.py that cannot run here still names its project to scan
    conf = (ROOTS / "test-linking" / "conf.py").read_text()
    ipex = NAMED.replace("vLLM Production Stack", "Intel® Extension for PyTorch*")
    make_site("linking", {"named.rst": ipex, "conf.py": "import not_installed_here\n" + conf
                          + "project = 'Intel&#174 Extension for PyTorch*'\n"})
    main(["scan", str(srcdir), "--explain"])
    out, err = capsys.readouterr()
    assert "part of the site's own name 'Intel® Extension for PyTorch*' (conf.py project)" in out
    assert "scanning with its literal settings" in err and "project" in err
