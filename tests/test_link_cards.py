"""Text inside sphinx-design grids and cards (as product sites' landing pages use them) is
running text: scan reports it, --fix marks it, auto-linking links it; a card's title is a
heading and takes no link."""

from __future__ import annotations

import json

from sphinxcontrib_gpuglossary.cli import main

from .test_autolink import links

CONF = """\
extensions = ["sphinx_design", "sphinxcontrib_gpuglossary"]
project = "Cards"
show_warning_types = True
"""
INDEX = """\
Cards
=====

.. grid:: 2

   .. grid-item-card:: Serving with a KV cache

      Keep a KV cache per request on one GPU.

   .. grid-item-card:: Training

      Shard the optimizer state with FSDP.

.. toctree::

   glossary
"""
GLOSSARY = "Glossary\n========\n\n.. glossary-table::\n   :terms: kv-cache, gpu, fsdp\n"


def site(tmp_path):
    srcdir = tmp_path / "cards"
    srcdir.mkdir()
    for name, text in {"conf.py": CONF, "index.rst": INDEX, "glossary.rst": GLOSSARY}.items():
        (srcdir / name).write_text(text, encoding="utf-8")
    return srcdir


def test_scan_reports_and_fixes_text_in_cards(tmp_path, capsys, build) -> None:
    srcdir = site(tmp_path)
    before = build(srcdir)
    main(["scan", str(srcdir), "--format", "json"])
    found = [(m["line"], m["text"], m["term"]) for m in json.loads(capsys.readouterr().out)]
    assert found == [(8, "KV cache", "kv-cache"), (8, "GPU", "gpu"), (12, "FSDP", "fsdp")]
    assert main(["scan", str(srcdir), "--fix"]) == 0
    capsys.readouterr()
    text = (srcdir / "index.rst").read_text(encoding="utf-8")
    assert "Keep a :gpu-term:`KV cache` per request on one :gpu-term:`GPU`." in text
    assert ".. grid-item-card:: Serving with a KV cache" in text  # the title stays as written
    after = build(srcdir, freshenv=True)
    assert after.warnings == before.warnings == ""
    assert [t for t, _ in links(after.read("index.html"))] == ["kv-cache", "gpu", "fsdp"]


def test_autolink_links_text_in_cards(tmp_path, build) -> None:
    srcdir = site(tmp_path)
    html = build(srcdir, gpuglossary_autolink="first").read("index.html")
    assert links(html) == [("kv-cache", "KV cache"), ("gpu", "GPU"), ("fsdp", "FSDP")]


HEADER_INDEX = """\
Cards
=====

.. grid:: 2

   .. grid-item-card::
      :link: glossary
      :link-type: doc

      Does the scheduler need a GPU?
      ^^^
      Keep a KV cache per request on one GPU.

   .. card::

      .. card-header::

         Why shard the optimizer state with FSDP?

      Shard the optimizer state with FSDP.

.. toctree::

   glossary
"""


def test_a_cards_header_takes_no_link(tmp_path, capsys, build) -> None:
    """A card's header (before ``^^^``, or ``card-header``) heads the card as a title does:
    scan does not report it, auto-linking does not link it, ``--explain`` says why; the
    card's body is running text."""
    srcdir = site(tmp_path)
    (srcdir / "conf.py").write_text(CONF + 'suppress_warnings = ["design.card_legacy"]\n',
                                    encoding="utf-8")
    (srcdir / "index.rst").write_text(HEADER_INDEX, encoding="utf-8")
    main(["scan", str(srcdir), "--format", "json"])
    found = [(m["line"], m["text"]) for m in json.loads(capsys.readouterr().out)]
    assert found == [(12, "KV cache"), (12, "GPU"), (20, "FSDP")]
    main(["scan", str(srcdir), "--explain", "--format", "json"])
    explained = {(m["line"], m["text"]): m for m in json.loads(capsys.readouterr().out)}
    assert "a card's header" in json.dumps(explained[(10, "GPU")])
    assert "a card's header" in json.dumps(explained[(18, "FSDP")])
    html = build(srcdir, gpuglossary_autolink="all").read("index.html")
    assert links(html) == [("kv-cache", "KV cache"), ("gpu", "GPU"), ("fsdp", "FSDP")]
