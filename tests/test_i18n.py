"""Localization: build language, the glossary catalog round trip with sphinx-intl, labels."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from sphinxcontrib_gpuglossary.core import catalog
from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

from .html_terms import definitions

SEEDED = load_glossary(glossary_files([]))
KV_EN = SEEDED.terms["kv-cache"].definitions["en"]
KV_NL = SEEDED.terms["kv-cache"].definitions["nl"]
POLISH = "Zapisane w pamięci podręcznej tensory kluczy i wartości wcześniejszych tokenów."


def tooltip(html: str, term_id: str) -> dict[str, str]:
    """The one definition the page carries for *term_id* (text, lang, dir, fallback)."""
    (found,) = definitions(html)[term_id]
    return found


def sphinx_intl(*args: str | Path, cwd: Path) -> None:
    subprocess.run([sys.executable, "-m", "sphinx_intl", *map(str, args)], cwd=cwd, check=True,
                   capture_output=True, text=True)


def edit_po(path: Path, context: str, msgid: str, msgstr: str, fuzzy: bool = False) -> None:
    with path.open("rb") as f:
        po = read_po(f)
    message = po.get(msgid, context=context)
    message.string = msgstr
    if fuzzy:
        message.flags.add("fuzzy")
    with path.open("wb") as f:
        write_po(f, po)


def test_seeded_language_needs_no_catalog(make_site, build) -> None:
    site = build(make_site("basic"), language="nl")
    assert tooltip(site.read("guide.html"), "kv-cache")["text"] == KV_NL
    assert KV_NL in site.read("glossary.html")
    assert "<p>Definitie</p>" in site.read("glossary.html")  # our own labels, in Dutch


def test_gettext_writes_a_glossary_catalog_with_context_and_comments(make_site, build) -> None:
    site = build(make_site("basic"), "gettext")
    pot = site.outdir / "gpu-glossary.pot"
    with pot.open("rb") as f:
        template = read_po(f)
    entry = template.get(KV_EN, context="kv-cache")
    assert entry is not None and entry.string == ""
    assert "category: inference" in entry.auto_comments
    assert any("seeded: ar definition: 000_" in c for c in entry.auto_comments)
    assert template.get("KV cache", context="kv-cache") is not None  # the headword
    # every headword but the language-neutral ones, every definition and note, the disclaimer
    neutral = sum(t.neutral for t in SEEDED.terms.values())
    assert template.get("CUDA", context="cuda") is None and neutral > 0
    assert len([m for m in template if m.id]) == len(list(catalog.messages(SEEDED))) \
        >= 2 * len(SEEDED.terms) - neutral
    # no copies in the page catalogs
    assert KV_EN not in site.read("glossary.pot") and KV_EN not in site.read("guide.pot")


def test_unchanged_catalog_is_not_rewritten(make_site, build) -> None:
    srcdir = make_site("basic")
    pot = build(srcdir, "gettext").outdir / "gpu-glossary.pot"
    first = pot.stat().st_mtime_ns
    build(srcdir, "gettext", freshenv=True)
    assert pot.stat().st_mtime_ns == first


def test_a_link_where_the_template_goes_is_not_written_through(make_site, build,
                                                               tmp_path: Path) -> None:
    srcdir = make_site("basic")
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("not ours")
    outdir = srcdir / "_build" / "gettext-en" / "gettext"
    outdir.mkdir(parents=True)
    (outdir / "gpu-glossary.pot").symlink_to(elsewhere)
    site = build(srcdir, "gettext")
    assert elsewhere.read_text() == "not ours"
    assert "gpu-glossary.pot is a symbolic link; not writing through it" in site.warnings
    assert "[gpuglossary.catalog]" in site.warnings


def test_round_trip_for_an_unseeded_language(make_site, build) -> None:
    srcdir = make_site("basic")
    gettext = build(srcdir, "gettext").outdir
    sphinx_intl("update", "-p", gettext, "-l", "pl", "-d", "locales", cwd=srcdir)
    po = srcdir / "locales" / "pl" / "LC_MESSAGES" / "gpu-glossary.po"
    assert po.exists()
    edit_po(po, "kv-cache", KV_EN, POLISH)
    site = build(srcdir, language="pl", locale_dirs=["locales"])
    assert POLISH in site.read("glossary.html")
    kv_cache = tooltip(site.read("guide.html"), "kv-cache")
    assert kv_cache["text"] == POLISH and kv_cache["lang"] == "pl" and not kv_cache["fallback"]
    # an untranslated term falls back to English, visibly
    vram = tooltip(site.read("guide.html"), "vram")
    assert vram["lang"] == "en" and vram["dir"] == "ltr" and vram["fallback"]


def test_editing_the_po_rereads_the_pages_that_show_the_term(make_site, build) -> None:
    srcdir = make_site("basic")
    gettext = build(srcdir, "gettext").outdir
    sphinx_intl("update", "-p", gettext, "-l", "pl", "-d", "locales", cwd=srcdir)
    po = srcdir / "locales" / "pl" / "LC_MESSAGES" / "gpu-glossary.po"
    build(srcdir, language="pl", locale_dirs=["locales"])
    edit_po(po, "kv-cache", KV_EN, POLISH)
    read: list[str] = []
    site = build(srcdir, language="pl", locale_dirs=["locales"],
                 connect={"env-before-read-docs": lambda app, env, docs: read.extend(docs)})
    assert sorted(read) == ["glossary", "guide"]
    assert tooltip(site.read("guide.html"), "kv-cache")["text"] == POLISH


def test_fuzzy_translations_follow_gettext_allow_fuzzy_translations(make_site, build) -> None:
    srcdir = make_site("basic")
    gettext = build(srcdir, "gettext").outdir
    sphinx_intl("update", "-p", gettext, "-l", "pl", "-d", "locales", cwd=srcdir)
    po = srcdir / "locales" / "pl" / "LC_MESSAGES" / "gpu-glossary.po"
    edit_po(po, "kv-cache", KV_EN, POLISH, fuzzy=True)
    assert POLISH not in build(srcdir, language="pl", locale_dirs=["locales"]).read("glossary.html")
    allowed = build(srcdir, language="pl", locale_dirs=["locales"], freshenv=True,
                    gettext_allow_fuzzy_translations=True)
    assert POLISH in allowed.read("glossary.html")


def test_a_changed_english_text_makes_the_catalog_translation_fuzzy(make_site, build) -> None:
    """Catalog translations keep gettext's own staleness: sphinx-intl marks the entry
    fuzzy (keeping the translation for the translator to revise), and the build shows the new
    English instead of a translation of the old one."""
    srcdir = make_site("basic")
    sphinx_intl("update", "-p", build(srcdir, "gettext").outdir, "-l", "pl", "-d", "locales",
                cwd=srcdir)
    po = srcdir / "locales" / "pl" / "LC_MESSAGES" / "gpu-glossary.po"
    edit_po(po, "kv-cache", KV_EN, POLISH)
    assert POLISH in build(srcdir, language="pl", locale_dirs=["locales"]).read("glossary.html")
    changed = KV_EN + " It is kept per request."
    (srcdir / "english.yaml").write_text(
        f'terms:\n- id: kv-cache\n  definitions:\n    en: "{changed}"\n', encoding="utf-8")
    sphinx_intl("update", "-p", build(srcdir, "gettext", gpuglossary_files=["english.yaml"]).outdir,
                "-l", "pl", "-d", "locales", cwd=srcdir)
    with po.open("rb") as f:
        entry = read_po(f).get(changed, context="kv-cache")
    assert entry.fuzzy and entry.string == POLISH  # kept for the translator, marked fuzzy
    html = build(srcdir, language="pl", locale_dirs=["locales"],
                 gpuglossary_files=["english.yaml"]).read("glossary.html")
    assert POLISH not in html and changed in html
    assert tooltip(build(srcdir, language="pl", locale_dirs=["locales"],
                         gpuglossary_files=["english.yaml"]).read("guide.html"),
                   "kv-cache")["fallback"]


def test_a_catalog_translation_beats_the_seed_text(make_site, build) -> None:
    srcdir = make_site("basic")
    gettext = build(srcdir, "gettext").outdir
    sphinx_intl("update", "-p", gettext, "-l", "nl", "-d", "locales", cwd=srcdir)
    po = srcdir / "locales" / "nl" / "LC_MESSAGES" / "gpu-glossary.po"
    edit_po(po, "kv-cache", KV_EN, "Herziene Nederlandse definitie.")
    site = build(srcdir, language="nl", locale_dirs=["locales"])
    assert tooltip(site.read("guide.html"), "kv-cache")["text"] == "Herziene Nederlandse definitie."
    assert tooltip(site.read("guide.html"), "vram")["text"] == SEEDED.terms["vram"].definitions["nl"]


def test_prefill_fills_empty_entries_from_the_seeds_and_keeps_translators_text(
        make_site, build) -> None:
    srcdir = make_site("basic")
    gettext = build(srcdir, "gettext").outdir
    sphinx_intl("update", "-p", gettext, "-l", "nl", "-d", "locales", cwd=srcdir)
    po = srcdir / "locales" / "nl" / "LC_MESSAGES" / "gpu-glossary.po"
    edit_po(po, "vram", SEEDED.terms["vram"].definitions["en"], "Eigen vertaling.")
    filled = catalog.prefill(po, "nl", SEEDED)
    with po.open("rb") as f:
        result = read_po(f)
    assert result.get(KV_EN, context="kv-cache").string == KV_NL
    assert result.get(SEEDED.terms["vram"].definitions["en"], context="vram").string \
        == "Eigen vertaling."
    expected = sum(1 for m in catalog.messages(SEEDED)
                   if catalog._text_in(SEEDED, m, "nl")) - 1  # all Dutch texts but our own
    assert filled == expected
    assert catalog.prefill(po, "nl", SEEDED) == 0  # a second run changes nothing


def test_a_project_can_override_a_label(make_site, build) -> None:
    srcdir = make_site("basic")
    folder = srcdir / "locales" / "nl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    from babel.messages.catalog import Catalog
    override = Catalog(locale="nl", domain="sphinxcontrib-gpuglossary")
    override.add("Definition", "Betekenis")
    with (folder / "sphinxcontrib-gpuglossary.po").open("wb") as f:
        write_po(f, override)
    html = build(srcdir, language="nl", locale_dirs=["locales"]).read("glossary.html")
    assert "<p>Betekenis</p>" in html and "<p>Term</p>" in html  # others stay ours


def test_labels_of_one_build_do_not_leak_into_the_next(make_site, build) -> None:
    srcdir = make_site("basic")
    assert "<p>Definitie</p>" in build(srcdir, language="nl").read("glossary.html")
    assert "<p>Définition</p>" in build(make_site("basic"), language="fr",
                                        freshenv=True).read("glossary.html")


def test_prefill_po_command_over_a_locale_folder(make_site, build) -> None:
    srcdir = make_site("basic")
    gettext = build(srcdir, "gettext").outdir
    sphinx_intl("update", "-p", gettext, "-l", "nl", "-l", "ru", "-l", "pl", "-d", "locales",
                cwd=srcdir)
    prefill = [sys.executable, "-m", "sphinxcontrib_gpuglossary", "prefill-po", srcdir / "locales"]
    result = subprocess.run(prefill, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    # the package ships Dutch and Russian texts: their catalogs are left to the build
    assert re.findall(r"locales/(\w+)/LC_MESSAGES/gpu-glossary.po: skipped", result.stdout) \
        == ["nl", "ru"]
    result = subprocess.run([*prefill, "--force-shipped"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    counts = dict(re.findall(r"locales/(\w+)/LC_MESSAGES/gpu-glossary.po: filled (\d+) empty",
                             result.stdout))
    expected = {lang: str(sum(1 for m in catalog.messages(SEEDED) if catalog._text_in(SEEDED, m, lang)))
                for lang in ("nl", "ru", "pl")}
    # Russian is complete: every message of the catalog is filled; Polish has nothing
    assert counts == expected and expected["pl"] == "0"
    assert expected["ru"] == str(len(list(catalog.messages(SEEDED))))
    # the filled Dutch catalog drives a Dutch build like the seed text itself
    site = build(srcdir, language="nl", locale_dirs=["locales"])
    assert tooltip(site.read("guide.html"), "kv-cache")["text"] == KV_NL


def test_prefill_po_without_catalogs_says_what_to_do(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "sphinxcontrib_gpuglossary", "prefill-po",
                             tmp_path], capture_output=True, text=True, check=False)
    assert result.returncode == 1 and "run sphinx-build -b gettext and sphinx-intl update" \
        in result.stderr


def test_english_closes_every_fallback_chain(make_site, build) -> None:
    """Polish (no texts) falls back to Russian, and where Russian has nothing, to English,
    although English is not in the configured chain."""
    terms = ("terms:\n  - id: widget\n    category: hardware\n    names: {en: Widget}\n"
             "    definitions: {en: A part of the machine.}\n")
    guide = "Guide\n=====\n\n:gpu-term:`KV cache` and :gpu-term:`Widget`.\n"
    site = build(make_site("basic", {"terms.yaml": terms, "guide.rst": guide}), language="pl",
                 gpuglossary_fallback_languages=["ru"], gpuglossary_files=["terms.yaml"])
    assert site.warnings == ""
    guide_html = site.read("guide.html")
    assert tooltip(guide_html, "kv-cache")["text"] == SEEDED.terms["kv-cache"].definitions["ru"]
    assert tooltip(guide_html, "kv-cache")["lang"] == "ru"
    assert tooltip(guide_html, "widget")["text"] == "A part of the machine."
    assert tooltip(guide_html, "widget")["lang"] == "en"
    glossary = site.read("glossary.html")
    assert "A part of the machine." in glossary


def test_the_fallback_marker_speaks_the_build_language(make_site, build) -> None:
    html = build(make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n"
                                                     "   :terms: gpipe\n"}),
                 language="he").read("glossary.html")
    assert re.search(r'<span class="gpu-fallback-badge gpu-text" dir="rtl" lang="he">'
                     r'אנגלית</span>', html)


def test_generated_headings_and_labels_stay_out_of_page_catalogs(make_site, build) -> None:
    site = build(make_site("basic", {"glossary.rst": "Glossary\n========\n\n"
                                                     ".. glossary-table::\n   :group: letter\n\n"
                                                     ".. glossary-table::\n   :group: category\n"}),
                 "gettext")
    messages = re.findall(r'^msgid "(.+)"$', site.read("glossary.pot"), re.M)
    assert messages == ["Glossary"]
