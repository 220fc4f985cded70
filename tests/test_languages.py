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
