"""The extension's own labels in every shipped language, and how fallback text is marked.

Catalogs: complete, compiled from their ``.po``. Builds of ``tests/roots/test-labels``
(English-only terms, so every label and marker shows up) in each language: no
English label, one marker per row at most, a summary above each table, list
punctuation of the language, the hover notice in the page's language.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from sphinxcontrib_gpuglossary.core.languages import language_name

PACKAGE = Path(__file__).parent.parent / "sphinxcontrib_gpuglossary"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "sphinxcontrib-gpuglossary.pot"
#: the languages documentation sites build in that must ship labels (issue 12)
REQUIRED = {"ar", "bn", "de", "es", "fa", "fr", "he", "hi", "id", "it", "ja", "ko", "nl", "pl",
            "pt_BR", "ru", "tr", "uk", "vi", "zh_CN", "zh_TW"}
SHIPPED = sorted(p.name for p in LOCALE.iterdir() if p.is_dir())
#: labels every build of test-labels shows in its glossary blocks
ON_PAGE = ["Term", "Definition", "Category", "Also called", "See also", "Source", "Hardware",
           "Inference", "Training", "Parallelism", "Image generation", "Speech", "ML fundamentals",
           "Infrastructure", "Billing and API", "See also:", "Note:", "Also defined as:",
           "not translated", "Disclaimer:", "Used on"]
SUMMARY = ("%(count)d definition is not translated yet and is shown in another language: "
           "%(languages)s.",
           "%(count)d definitions are not translated yet and are shown in another language: "
           "%(languages)s.")
HOVER = "Not translated yet; shown in another language: %(language)s"
ALL_FALLBACK = ("The definitions in this table are not translated yet and are shown in another "
                "language: %(languages)s.")
MOST_FALLBACK = ("%(count)d of %(total)d definitions in this table is not translated yet and is "
                 "shown in another language: %(languages)s.",
                 "%(count)d of %(total)d definitions in this table are not translated yet and are "
                 "shown in another language: %(languages)s.")
NAMES_IN = "%(language)s:"
FALLBACK_DEFINITIONS = 8  # English-only definitions in test-labels (cuda-x has a German one)
TERMS = 9


def fallbacks(lang: str) -> int:
    """How many definitions of test-labels a build in *lang* shows in English."""
    return FALLBACK_DEFINITIONS + (lang != "de")


def catalog(lang: str, suffix: str = ".po") -> dict:
    path = LOCALE / lang / "LC_MESSAGES" / f"sphinxcontrib-gpuglossary{suffix}"
    with path.open("rb") as f:
        return {m.id if isinstance(m.id, str) else tuple(m.id): m.string
                for m in (read_mo(f) if suffix == ".mo" else read_po(f)) if m.id}


def translations(lang: str):
    from babel.support import Translations

    with (LOCALE / lang / "LC_MESSAGES" / "sphinxcontrib-gpuglossary.mo").open("rb") as f:
        return Translations(f)


# -- catalogs ------------------------------------------------------------------

def test_every_required_language_ships_labels() -> None:
    assert set(SHIPPED) >= REQUIRED, sorted(REQUIRED - set(SHIPPED))


@pytest.mark.parametrize("lang", SHIPPED)
def test_packaged_label_catalog_is_complete_and_compiled(lang: str) -> None:
    with TEMPLATE.open("rb") as f:
        template = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(f) if m.id}
    path = LOCALE / lang / "LC_MESSAGES" / "sphinxcontrib-gpuglossary.po"
    with path.open("rb") as f:
        po = read_po(f)
    strings = catalog(lang)
    assert set(strings) == template
    for msgid, string in strings.items():
        forms = [string] if isinstance(msgid, str) else list(string)
        assert all(form.strip() for form in forms), (lang, msgid)
        if not isinstance(msgid, str):
            assert len(forms) == po.num_plurals, (lang, po.num_plurals)
    mo = {k: (v if isinstance(v, str) else tuple(v)) for k, v in catalog(lang, ".mo").items()}
    assert mo == {k: (v if isinstance(v, str) else tuple(v)) for k, v in strings.items()}


def test_every_label_in_the_code_is_in_the_template() -> None:
    used: set[str | tuple[str, str]] = set()
    for module in ("labels.py", "domain.py"):
        source = (PACKAGE / module).read_text()
        # a label may be written as adjacent literals across lines, as Python joins them
        used |= {"".join(re.findall(r'"([^"]*)"', literals))
                 for literals in re.findall(r'\b_\(((?:"[^"]*"\s*)+)\)', source)}
        for singular, plural in re.findall(r'ngettext\(((?:"[^"]*"\s*)+),\s*((?:"[^"]*"\s*)+),',
                                           source):
            used.add(("".join(re.findall(r'"([^"]*)"', singular)),
                      "".join(re.findall(r'"([^"]*)"', plural))))
    with TEMPLATE.open("rb") as f:
        assert used == {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(f) if m.id}
    assert SUMMARY in used and HOVER in used


# -- builds --------------------------------------------------------------------

class _Texts(HTMLParser):
    """The text inside glossary blocks, each piece with the nearest ``lang`` around it."""

    VOID = {"br", "img", "meta", "link", "input", "hr", "col", "wbr", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str, bool]] = [("", "", False)]
        self.texts: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        values = dict(attrs)
        _tag, lang, inside = self.stack[-1]
        inside = inside or "gpu-glossary" in (values.get("class") or "").split()
        self.stack.append((tag, values.get("lang") or lang, inside))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass  # <col ... />: no text, nothing to close

    def handle_endtag(self, tag: str) -> None:
        while len(self.stack) > 1:
            if self.stack.pop()[0] == tag:
                return

    def handle_data(self, data: str) -> None:
        _tag, lang, inside = self.stack[-1]
        if inside and data.strip():
            self.texts.append((data.strip(), lang))


def block_texts(page: str, lang: str) -> list[str]:
    """The texts of the glossary blocks that are in the build's language *lang*
    (marked with its BCP 47 tag, ``zh-CN`` for ``zh_CN``)."""
    from sphinxcontrib_gpuglossary.core.languages import language_tag

    parser = _Texts()
    parser.feed(page)
    return [text for text, text_lang in parser.texts if text_lang == language_tag(lang)]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    """test-labels built once per language in this module."""
    import shutil
    from io import StringIO

    from sphinx.testing.util import SphinxTestApp

    from .conftest import ROOTS

    sites: dict[str, Path] = {}

    def make(lang: str) -> Path:
        if lang not in sites:
            srcdir = tmp_path_factory.mktemp(f"labels-{lang}")
            shutil.copytree(ROOTS / "test-labels", srcdir, dirs_exist_ok=True)
            warnings = StringIO()
            app = SphinxTestApp("html", srcdir=srcdir, confoverrides={"language": lang},
                                status=StringIO(), warning=warnings)
            try:
                app.build()
            finally:
                app.cleanup()
            # docutils has no words of its own for some languages (bn, hi, id, tr, vi): not ours
            ours = [w for w in warnings.getvalue().splitlines() if "[docutils]" not in w]
            assert ours == [], ours
            sites[lang] = Path(app.outdir)
        return sites[lang]

    return make


@pytest.mark.parametrize("lang", SHIPPED)
def test_a_build_shows_every_label_in_its_language_and_none_in_english(built, lang: str) -> None:
    outdir = built(lang)
    texts = block_texts((outdir / "glossary.html").read_text(encoding="utf-8"), lang)
    strings = catalog(lang)
    english = {msgid for msgid in ON_PAGE if strings[msgid] != msgid}
    assert not english & set(texts), sorted(english & set(texts))
    assert not [t for t in texts if "not translated" in t or "another language" in t]
    missing = [msgid for msgid in ON_PAGE if strings[msgid].strip() not in texts]
    assert missing == []
    # most definitions are English: one note above each table with definitions in the
    # build language, in the plural form of the language, naming English in it
    name = language_name("en", lang)
    values = {"count": fallbacks(lang), "total": TERMS, "languages": name}
    note = (translations(lang).gettext(ALL_FALLBACK) if fallbacks(lang) == TERMS else
            translations(lang).ngettext(*MOST_FALLBACK, fallbacks(lang))) % values
    assert texts.count(note) == 2
    # the marker names English in the build language: on the one headword of the
    # :languages: table that falls back (CUDA-X is language-neutral)
    capitalized = name[:1].upper() + name[1:]
    assert name != "English" and capitalized in texts
    # the English names of "Also called", under the name of their language
    assert translations(lang).gettext(NAMES_IN) % {"language": capitalized} in texts
    # the hover text says it in words, in the page's language
    uses = html.unescape((outdir / "uses.html").read_text(encoding="utf-8"))
    notice = translations(lang).gettext(HOVER) % {"language": name}
    # widget, and CUDA-X unless the build has its German definition
    assert uses.count(f'data-gpu-fallback="{notice}"') == (1 if lang == "de" else 2)


def test_an_english_build_has_no_marker_and_no_summary(built) -> None:
    page = (built("en") / "glossary.html").read_text(encoding="utf-8")
    assert "gpu-fallback-badge" not in page and "gpu-fallback-summary" not in page
    assert "data-gpu-fallback" not in (built("en") / "uses.html").read_text(encoding="utf-8")


ROW = re.compile(r"<tr[ >].*?</tr>", re.S)


def filler(lang: str, count: int) -> str:
    """Glossary terms translated into *lang*: with them, the English-only terms of
    test-labels are the odd ones out of a table."""
    return "terms:\n" + "".join(
        f"  - id: filler-{n}\n    category: hardware\n"
        f"    names: {{en: Filler {n}, {lang}: Filler {n} ({lang})}}\n"
        f"    definitions: {{en: Filler text {n}., {lang}: Filler text {n} ({lang}).}}\n"
        for n in range(count))


def odd_ones_out(make_site, build, lang: str, fallback_ids: list[str], translated: int) -> str:
    """glossary.html of a table of *fallback_ids* (English only) and *translated* terms
    translated into *lang*."""
    terms = fallback_ids + [f"filler-{n}" for n in range(translated)]
    srcdir = make_site("labels", {"filler.yaml": filler(lang, translated),
                                  "glossary.rst": "G\n=\n\n.. glossary-table::\n"
                                                  f"   :terms: {', '.join(terms)}\n"})
    files = ["terms.yaml", "filler.yaml"] if translated else ["terms.yaml"]
    return build(srcdir, language=lang, gpuglossary_files=files).read("glossary.html")


@pytest.mark.parametrize("lang", ["de", "ar", "he", "ja"])
def test_a_table_that_mostly_falls_back_has_one_note_and_no_marker(built, lang: str) -> None:
    page = (built(lang) / "glossary.html").read_text(encoding="utf-8")
    tables = page.split('class="gpu-glossary"')[1:]
    assert len(tables) == 4  # the fourth: the used terms and the pages that use them
    for table in tables[:2]:  # every definition English but CUDA-X's German one
        assert table.count('class="gpu-fallback-summary"') == 1
        rows = [r for r in ROW.findall(table) if "<td" in r]
        assert len(rows) == TERMS and not [r for r in rows if "gpu-fallback-badge" in r]


@pytest.mark.parametrize("lang", ["de", "ar", "he", "ja"])
def test_the_odd_fallback_row_keeps_its_marker(make_site, build, lang: str) -> None:
    page = odd_ones_out(make_site, build, lang, ["widget", "cuda-x"], 3)
    rows = [r for r in ROW.findall(page) if "<td" in r]
    marked = [r for r in rows if "gpu-fallback-badge" in r]
    assert len(rows) == 5 and [r.count("gpu-fallback-badge") for r in marked] == [1] * len(marked)
    assert {re.search(r'id="gpu-term-([\w-]+)"', r).group(1) for r in marked} == \
        ({"widget"} if lang == "de" else {"widget", "cuda-x"})
    for row in rows:
        if 'id="gpu-term-cuda-x"' in row:
            # a neutral name is never marked: CUDA-X's mark is on its definition, if any
            # (kept whole and left to right in right-to-left text)
            assert re.search(r'<strong>(<span class="gpu-latin" dir="ltr">)?CUDA-X(</span>)?'
                             r'</strong>', row)
    # the marker is a label in the page's language, after the text it marks
    assert re.search(r'</span> <span class="gpu-fallback-badge gpu-text" dir="(ltr|rtl)" '
                     rf'lang="{lang}">', page)
    summary = translations(lang).ngettext(*SUMMARY, len(marked)) % {
        "count": len(marked), "languages": language_name("en", lang)}
    assert re.findall(r'<p class="gpu-fallback-summary">([^<]*)</p>', page) == [summary]


def test_a_headword_is_marked_where_the_table_shows_no_definition(make_site, build) -> None:
    """Without a definition column the headwords count: one English of three is marked,
    with no note; a table of English headwords gets the note instead."""
    srcdir = make_site("labels", {"filler.yaml": filler("de", 2),
                                  "glossary.rst": "G\n=\n\n.. glossary-table::\n"
                                                  "   :terms: widget, filler-0, filler-1\n"
                                                  "   :columns: term, category\n\n"
                                                  ".. glossary-table::\n"
                                                  "   :terms: widget, gadget, cuda-x\n"
                                                  "   :columns: term, category\n"})
    page = build(srcdir, language="de", gpuglossary_files=["terms.yaml", "filler.yaml"]
                 ).read("glossary.html")
    first, second = page.split('class="gpu-glossary"')[1:]
    rows = [r for r in ROW.findall(first) if "<td" in r]
    assert [r.count("gpu-fallback-badge") for r in rows] == [1 if "widget" in r else 0 for r in rows]
    assert "gpu-fallback-summary" not in first
    assert "gpu-fallback-badge" not in second.split("gpu-disclaimer")[0]
    (note,) = re.findall(r'<p class="gpu-fallback-summary">([^<]*)</p>', second)
    assert note == ("2 von 3 Begriffen dieser Tabelle sind noch nicht übersetzt und stehen hier "
                    "auf Englisch.")


@pytest.mark.parametrize(("lang", "count", "expected"), [
    ("ru", 1, "1 определение ещё не переведено"),
    ("ru", 2, "2 определения ещё не переведены"),
    ("ru", 8, "8 определений ещё не переведены"),
    ("ar", 2, "تعريفان لم يُترجَما بعد"),
    ("pl", 2, "2 definicje nie są jeszcze"),
    ("de", 2, "2 Definitionen sind noch nicht übersetzt und stehen hier auf Englisch."),
])
def test_the_summary_takes_the_plural_form_of_the_count(make_site, build, lang: str, count: int,
                                                        expected: str) -> None:
    terms = ["widget", "gadget", "rack-unit", "picture-maker", "talker", "loss", "rack",
             "invoice"][:count]
    page = odd_ones_out(make_site, build, lang, terms, count + 1)
    (summary,) = re.findall(r'<p class="gpu-fallback-summary">([^<]*)</p>', page)
    assert summary.startswith(expected), summary
    assert page.count('class="gpu-fallback-badge') == count + 1  # the rows and the disclaimer


@pytest.mark.parametrize(("lang", "expected"), [
    ("de", "Die Definitionen dieser Tabelle sind noch nicht übersetzt und stehen hier auf "
           "Englisch."),
    ("ru", "В этой таблице ещё не переведено определений: 3 из 5; язык текста: английский."),
    ("fr", "3 définitions de ce tableau sur 5 ne sont pas encore traduites\u00a0: elles "
           "s'affichent en anglais."),
])
def test_the_note_of_a_table_that_mostly_falls_back(make_site, build, lang: str,
                                                   expected: str) -> None:
    translated = 2 if lang != "de" else 0
    page = odd_ones_out(make_site, build, lang, ["widget", "gadget", "rack"], translated)
    (note,) = re.findall(r'<p class="gpu-fallback-summary">([^<]*)</p>', page)
    assert html.unescape(note) == expected


@pytest.mark.parametrize(("lang", "separator"), [
    ("ar", "، "), ("fa", "، "), ("he", ", "), ("ja", "、"), ("zh_CN", "、"), ("zh_TW", "、"),
    ("de", ", "), ("ko", ", "),
])
def test_lists_use_the_punctuation_of_the_language(built, lang: str, separator: str) -> None:
    page = (built(lang) / "glossary.html").read_text(encoding="utf-8")
    widget = next(r for r in ROW.findall(page) if 'id="gpu-term-widget"' in r)
    related = re.search(r'<p class="gpu-related">(.*?)</p>', widget).group(1)
    between = re.findall(r"</a>([^<]*)<a ", related)
    assert between == [separator, separator]  # three links, nothing else between them
    if 'dir="rtl"' in page[:page.index('class="gpu-glossary"') + 60]:
        # English names in a right-to-left list: each a box with its comma, so that a
        # name never splits over two lines
        aliases = re.search(r'widgets</span>([^<]*)</span>( )<span class="gpu-name">', widget)
        assert aliases.group(1) + aliases.group(2) == separator
    else:
        aliases = re.search(r"widgets</span>([^<]*)<span", widget).group(1)
        assert aliases == separator


@pytest.mark.parametrize(("lang", "after"), [("de", " "), ("ar", " "), ("ja", ""),
                                             ("zh_CN", "")])
def test_nothing_stray_beside_a_label(built, lang: str, after: str) -> None:
    page = (built(lang) / "glossary.html").read_text(encoding="utf-8")
    label = catalog(lang)["See also:"]
    found = re.findall(rf'<span class="gpu-label">{re.escape(label)}</span>(.*?)<a ', page)
    assert found and set(found) == {after}  # one space, none after a full-width colon


def test_a_project_catalog_still_overrides_a_shipped_label(make_site, build) -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    srcdir = make_site("labels")
    folder = srcdir / "locales" / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    override = Catalog(locale="ja", domain="sphinxcontrib-gpuglossary")
    override.add("See also:", "参照：")
    with (folder / "sphinxcontrib-gpuglossary.po").open("wb") as f:
        write_po(f, override)
    texts = block_texts(build(srcdir, language="ja", locale_dirs=["locales"]).read("glossary.html"),
                        "ja")
    assert "参照：" in texts and "関連項目：" not in texts and "用語" in texts
