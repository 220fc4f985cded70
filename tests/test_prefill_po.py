"""``prefill-po`` edits only the empty entries it fills; a translator's file is otherwise sacred."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.core import catalog
from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, glossary_files, load_glossary

TERMS = """\
terms:
  - id: widget
    category: hardware
    names: {en: Widget, nl: Wissel}
    definitions: {en: "A small part.", nl: "Een klein onderdeel."}
  - id: gadget
    category: hardware
    names: {en: Gadget, nl: Gadget-nl}
    definitions: {en: "A tool.", nl: "Een stuk\\ngereedschap met \\"quotes\\"."}
"""

#: A translator's catalog: CRLF line endings, headers of other tools, flags,
#: previous msgids, comments, wrapped translations, obsolete and plural entries.
BEFORE = """\
# Dutch translations for the glossary.
# Translator Name <t@example.org>, 2026.
#
msgid ""
msgstr ""
"Project-Id-Version: Site 1.0\\n"
"PO-Revision-Date: 2026-01-02 03:04+0100\\n"
"Last-Translator: Translator Name <t@example.org>\\n"
"Language: nl\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"X-Generator: Poedit 3.4\\n"
"X-Custom-Header: keep me\\n"

# a translator's comment
#. headword of widget
#, fuzzy, python-format
#| msgid "Wigdet"
msgctxt "widget"
msgid "Widget"
msgstr "Wissel (fuzzy)"

#. definition of widget
msgctxt "widget"
msgid "A small part."
msgstr ""

#. headword of gadget
msgctxt "gadget"
msgid "Gadget"
msgstr ""
"Mijn "
"eigen vertaling"

#. definition of gadget
msgctxt "gadget"
msgid ""
"A "
"tool."
msgstr ""

msgctxt "other"
msgid "One file"
msgid_plural "%(n)s files"
msgstr[0] ""
msgstr[1] ""

#~ msgctxt "widget"
#~ msgid "Old text"
#~ msgstr ""
""".replace("\n", "\r\n")

AFTER = BEFORE.replace(
    'msgid "A small part."\r\nmsgstr ""\r\n',
    'msgid "A small part."\r\nmsgstr "Een klein onderdeel."\r\n',
).replace(
    '"tool."\r\nmsgstr ""\r\n',
    '"tool."\r\nmsgstr ""\r\n"Een stuk\\n"\r\n"gereedschap met \\"quotes\\"."\r\n',
)


@pytest.fixture
def glossary(tmp_path: Path):
    terms = tmp_path / "terms.yaml"
    terms.write_text(TERMS, encoding="utf-8")
    return load_glossary(glossary_files([GlossaryFile(terms, "terms.yaml")], seeded=False))


def locale(tmp_path: Path, text: str | bytes) -> Path:
    po = tmp_path / "locales" / "nl" / "LC_MESSAGES" / "gpu-glossary.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return po


def test_only_the_msgstr_lines_of_filled_entries_change(tmp_path: Path, glossary) -> None:
    po = locale(tmp_path, BEFORE)
    assert catalog.prefill(po, "nl", glossary) == 2
    assert po.read_bytes() == AFTER.encode("utf-8")
    # what babel reads back: the filled texts, the translator's untouched
    filled = catalog.read_translations(po, allow_fuzzy=True)
    assert filled[("gadget", "A tool.")] == 'Een stuk\ngereedschap met "quotes".'
    assert filled[("gadget", "Gadget")] == "Mijn eigen vertaling"
    assert filled[("widget", "Widget")] == "Wissel (fuzzy)"


def test_a_run_that_fills_nothing_does_not_write(tmp_path: Path, glossary) -> None:
    po = locale(tmp_path, AFTER)
    before = po.stat().st_mtime_ns
    time.sleep(0.01)
    assert catalog.prefill(po, "nl", glossary) == 0
    assert po.stat().st_mtime_ns == before and po.read_bytes() == AFTER.encode("utf-8")


def test_lf_catalogs_keep_lf(tmp_path: Path, glossary) -> None:
    po = locale(tmp_path, BEFORE.replace("\r\n", "\n"))
    catalog.prefill(po, "nl", glossary)
    assert po.read_bytes() == AFTER.replace("\r\n", "\n").encode("utf-8")


def prefill_po(*args: str | Path, preexec: Callable[[], None] | None = None,
               ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sphinxcontrib_gpuglossary", "prefill-po",
                           *map(str, args)], capture_output=True, text=True, check=False,
                          preexec_fn=preexec)


def assert_clean_failure(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("gpuglossary: ") and "gpu-glossary.po" in result.stderr
    for word in words:
        assert word in result.stderr


def test_a_catalog_that_is_not_utf8(tmp_path: Path) -> None:
    locale(tmp_path, BEFORE.replace("Translator Name", "Tr\xe4nslator").encode("latin-1"))
    assert_clean_failure(prefill_po(tmp_path / "locales", "--force-shipped"),
                         "gpu-glossary.po:2: not valid UTF-8")


def test_a_catalog_that_is_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "locales" / "nl" / "LC_MESSAGES" / "gpu-glossary.po"
    folder.mkdir(parents=True)
    assert_clean_failure(prefill_po(tmp_path / "locales", "--force-shipped"), "is a folder")


def test_a_catalog_babel_cannot_parse(tmp_path: Path) -> None:
    locale(tmp_path, 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                     'msgctxt "x"\nmsgstr "no msgid"\nbroken line\n')
    assert_clean_failure(prefill_po(tmp_path / "locales", "--force-shipped"), "not a valid catalog")


def _without_file_override() -> None:
    """In the child: drop root's power to ignore file modes (CAP_DAC_OVERRIDE,
    CAP_DAC_READ_SEARCH) from the capabilities the command is started with."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@pytest.mark.parametrize(("mode", "words"), [(0o444, ["cannot write: Permission denied"]),
                                             (0o000, ["cannot read: Permission denied"])])
def test_a_read_only_or_unreadable_catalog(tmp_path: Path, mode: int, words: list[str]) -> None:
    (tmp_path / "terms.yaml").write_text(TERMS, encoding="utf-8")
    po = locale(tmp_path, BEFORE)
    po.chmod(mode)
    as_root = os.geteuid() == 0  # root ignores file modes: the command runs without that power
    result = prefill_po(tmp_path / "locales", "--no-seeded", "--files", tmp_path / "terms.yaml",
                        preexec=_without_file_override if as_root else None)
    po.chmod(0o644)
    assert_clean_failure(result, *words)
    assert po.read_bytes() == BEFORE.encode()


def test_one_bad_catalog_does_not_stop_the_others(tmp_path: Path) -> None:
    good = locale(tmp_path, 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                            'msgctxt "kv-cache"\nmsgid "KV cache"\nmsgstr ""\n')
    bad = tmp_path / "locales" / "fr" / "LC_MESSAGES" / "gpu-glossary.po"
    bad.mkdir(parents=True)
    result = prefill_po(tmp_path / "locales", "--force-shipped")
    assert_clean_failure(result, "locales/fr/LC_MESSAGES/gpu-glossary.po: is a folder")
    assert "locales/nl/LC_MESSAGES/gpu-glossary.po: filled 1 empty entry" in result.stdout
    assert 'msgstr ""' not in good.read_text().split('msgid "KV cache"')[1]


def test_prefill_is_linear_in_text_length(tmp_path: Path) -> None:
    """A 100 KiB text without spaces: babel's wrapping would take minutes."""
    long = "x" * 100_000
    terms = tmp_path / "terms.yaml"
    terms.write_text(TERMS.replace('nl: "Een klein onderdeel."', f"nl: {long}"), encoding="utf-8")
    glossary = load_glossary(glossary_files([GlossaryFile(terms, "terms.yaml")], seeded=False))
    po = locale(tmp_path, BEFORE)
    started = time.perf_counter()
    assert catalog.prefill(po, "nl", glossary) == 2
    pot = tmp_path / "gpu-glossary.pot"
    english = load_glossary(glossary_files([GlossaryFile(terms, "terms.yaml")], seeded=False))
    english.terms["widget"].definitions["en"] = long
    catalog.write_template(catalog.template(english), pot)
    assert time.perf_counter() - started < 5
    assert f'msgstr "{long}"' in po.read_text(encoding="utf-8")
    assert f'msgid "{long}"' in pot.read_text(encoding="utf-8")


KV_ENTRY = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            'msgctxt "kv-cache"\nmsgid "KV cache"\nmsgstr ""\n')


def catalog_for(tmp_path: Path, lang: str) -> Path:
    po = tmp_path / "locales" / lang / "LC_MESSAGES" / "gpu-glossary.po"
    po.parent.mkdir(parents=True)
    po.write_text(KV_ENTRY, encoding="utf-8")
    return po


def test_a_language_the_package_ships_is_skipped_and_says_why(tmp_path: Path) -> None:
    """The package's Russian texts reach a site through the build while its catalog
    entries are empty; prefilled, later fixes in the package would not."""
    russian, polish = catalog_for(tmp_path, "ru"), catalog_for(tmp_path, "pl")
    result = prefill_po(tmp_path / "locales")
    assert result.returncode == 0, result.stderr
    assert ("locales/ru/LC_MESSAGES/gpu-glossary.po: skipped: the package ships Russian texts"
            in result.stdout)
    assert "later fixes" in result.stdout and "--force-shipped" in result.stdout
    assert russian.read_text(encoding="utf-8") == KV_ENTRY
    assert "locales/pl/LC_MESSAGES/gpu-glossary.po: filled 0 empty entries" in result.stdout
    assert polish.read_text(encoding="utf-8") == KV_ENTRY


def test_force_shipped_fills_a_shipped_language(tmp_path: Path) -> None:
    russian = catalog_for(tmp_path, "ru")
    result = prefill_po(tmp_path / "locales", "--force-shipped")
    assert result.returncode == 0, result.stderr
    assert "ru/LC_MESSAGES/gpu-glossary.po: filled 1 empty entry" in result.stdout
    assert 'msgstr "KV-кеш"' in russian.read_text(encoding="utf-8")


def test_a_language_of_the_users_own_files_is_filled(tmp_path: Path) -> None:
    """Not shipped by the package: its texts come from the project's glossary files."""
    terms = tmp_path / "terms.yaml"
    terms.write_text("terms:\n  - id: kv-cache\n    names: {pl: KV-Cache}\n", encoding="utf-8")
    polish = catalog_for(tmp_path, "pl")
    result = prefill_po(tmp_path / "locales", "--files", terms)
    assert "filled 1 empty entry" in result.stdout, result.stderr
    assert 'msgstr "KV-Cache"' in polish.read_text(encoding="utf-8")


def test_language_picks_the_catalogs_to_fill(tmp_path: Path) -> None:
    dutch, french = catalog_for(tmp_path, "nl"), catalog_for(tmp_path, "fr")
    result = prefill_po(tmp_path / "locales", "--language", "fr", "--force-shipped")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("gpu-glossary.po") == 1 and "fr/LC_MESSAGES" in result.stdout
    assert dutch.read_text(encoding="utf-8") == KV_ENTRY
    assert 'msgstr "Cache KV"' in french.read_text(encoding="utf-8")


def test_language_without_a_catalog_says_what_to_run(tmp_path: Path) -> None:
    catalog_for(tmp_path, "nl")
    result = prefill_po(tmp_path / "locales", "--language", "de")
    assert result.returncode == 1 and result.stdout == ""
    assert "no de/LC_MESSAGES/gpu-glossary.po under" in result.stderr
    assert "sphinx-intl update -l LANG" in result.stderr
    assert prefill_po(tmp_path / "locales", "--language", "d e").returncode == 2  # malformed
