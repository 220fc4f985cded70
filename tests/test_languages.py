"""Text direction by language code, without loading Babel's per-locale data."""

from __future__ import annotations

import pytest
from babel import Locale
from babel.localedata import locale_identifiers

from sphinxcontrib_gpuglossary.core.languages import text_direction


def test_direction_agrees_with_babels_locale_data_for_every_locale() -> None:
    checked = 0
    for identifier in locale_identifiers():
        expected = Locale.parse(identifier).text_direction
        if expected not in ("ltr", "rtl"):  # Mongolian script: "ttb", not an HTML dir
            assert text_direction(identifier) == "ltr", identifier
            continue
        assert text_direction(identifier) == expected, identifier
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize(("code", "direction"), [
    ("ar", "rtl"), ("ar-EG", "rtl"), ("fa", "rtl"), ("he", "rtl"), ("ur", "rtl"),
    ("pa", "ltr"), ("pa_Arab", "rtl"), ("sd_Deva", "ltr"), ("en", "ltr"), ("bn", "ltr"),
    ("ru", "ltr"), ("sr@latin", "ltr"), ("xx", "ltr"),
])
def test_direction_of_codes_as_written_in_conf_py(code: str, direction: str) -> None:
    assert text_direction(code) == direction


RECORD_BABEL = '''
import json
from pathlib import Path


def setup(app):
    def record(app, exception):
        import babel.core
        import babel.localedata

        loaded = {"locales": sorted(babel.localedata._cache),
                  "global": babel.core._global_data is not None}
        Path(app.outdir, "babel.json").write_text(json.dumps(loaded))

    app.connect("build-finished", record)
'''


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_build_reads_no_babel_data_once_the_cache_knows_its_answers(
        make_site, tmp_path, monkeypatch, language: str) -> None:
    """CLDR's list separator, language names and directions come from the user cache
    (Babel's data files cost about 40 ms a build); the pages stay the same."""
    import json

    from sphinxcontrib_gpuglossary.core.cache import CACHE_ENV

    from .conftest import sphinx_build

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    srcdir = make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n",
                                 "record_babel.py": RECORD_BABEL})
    with (srcdir / "conf.py").open("a") as conf:
        conf.write("\nimport sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n"
                   "extensions = [*extensions, 'record_babel']\n")
    pages, loaded = [], []
    for number in range(2):
        out = tmp_path / f"out{number}"
        done = sphinx_build("-q", "-E", "-D", f"language={language}", srcdir, out)
        assert done.returncode == 0, done.stderr
        pages.append((out / "glossary.html").read_text(encoding="utf-8"))
        loaded.append(json.loads((out / "babel.json").read_text()))
    assert loaded[0]["locales"]  # the first build asked Babel
    assert loaded[1] == {"locales": [], "global": False}
    assert pages[0] == pages[1]


def test_preloaded_answers_are_babels(tmp_path) -> None:
    import json

    from sphinxcontrib_gpuglossary.core import cache, languages

    langs = ["en", "ar", "fa", "he", "ja", "zh_TW", "bn", "ru", "pa_Arab", "xx"]
    asked = {lang: (languages.list_separator(lang),
                    {o: (languages.text_direction(o), languages.language_name(o, lang))
                     for o in langs}) for lang in langs}
    for lang in langs:
        languages.preload(lang, langs, tmp_path)
    stored = {}
    for path in tmp_path.glob("cldr-*.json"):
        stored.update(cache.read(tmp_path, json.loads(path.read_bytes())["key"], "cldr",
                                 dict[tuple[str, ...], str]))
    # a separator and a direction per language, a name per pair
    assert len(stored) == 2 * len(langs) + len(langs) ** 2
    for lang, (separator, others) in asked.items():
        assert stored["separator", lang] == separator
        for other, (direction, name) in others.items():
            assert stored["direction", other] == direction
            assert stored["name", other, lang] == name
