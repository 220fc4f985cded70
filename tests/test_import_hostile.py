"""Import against the second hostile-input round: clear messages, never a traceback, and
round trips that keep every text."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sphinxcontrib_gpuglossary.core import imports
from sphinxcontrib_gpuglossary.core.exports import join_list, to_csv, to_tbx
from sphinxcontrib_gpuglossary.core.model import Glossary, Term

from .test_cli import call

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<tbx><text><body>\n'
ENTRY = ('<conceptEntry id="{id}"><descrip type="subjectField">hardware</descrip>'
         '<langSec xml:lang="en"><descrip type="definition">A part.</descrip>'
         '<termSec><term>{name}</term></termSec></langSec></conceptEntry>\n')


@pytest.mark.parametrize(("name", "data", "message"), [
    ("deep.tbx", (HEAD + "<note>" * 1000 + "</note>" * 1000 + "</body></text></tbx>").encode(),
     "deep.tbx:3: elements nest more than 64 deep"),
    ("header.tbx", ('<?xml version="1.0"?>\n<tbx><tbxHeader><p>gpuglossary texts: '
                    + "[" * 100_000 + "]" * 100_000 + "</p></tbxHeader></tbx>").encode(),
     "header.tbx:2: the glossary texts in the header are not"),
    ("enc.tbx", b'<?xml version="1.0" encoding="x-no-such"?>\n<tbx/>',
     "enc.tbx:1: unknown encoding"),
    ("big.csv", ("id,language,headword\nwidget,en," + "x" * 140_000 + "\n").encode(),
     "big.csv:2: a cell is longer than 131,072 characters, the limit of a cell"),
    ("dup.tbx", (HEAD + ENTRY.format(id="a", name="A") + ENTRY.format(id="a", name="B")
                 + "</body></text></tbx>").encode(),
     "dup.tbx:4: a second entry with id 'a' (the first is at line 3)"),
    ("dup.csv", b"id,language,headword\nwidget,de,Teil\nwidget,de,Ding\n",
     "dup.csv:3: a second row for 'widget' in 'de' (the first is at line 2)"),
], ids=["nesting", "json-nesting", "encoding", "csv-cell", "duplicate-id", "duplicate-row"])
def test_hostile_termbases_get_a_message_not_a_traceback(capsys, in_tmp: Path, name: str,
                                                         data: bytes, message: str) -> None:
    (in_tmp / name).write_bytes(data)
    code, out, err = call(capsys, "import", name, "--category", "hardware")
    assert code == 1 and out == "" and "Traceback" not in err
    assert message in err, err


def test_a_termbase_over_the_limit_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(imports, "MAX_BYTES", 100)
    base = imports.read_tbx(b"<tbx>" + b" " * 200 + b"</tbx>", "big.tbx")
    assert [str(p) for p in base.problems] == [
        "big.tbx: the file has 211 bytes; a termbase may have at most 100 (split it and "
        "import the parts)"]


texts = st.lists(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from(
    ["'", "=", "|", " | ", "\\", " ", "\t", "+", "-", "@"]), min_size=1, max_size=8) \
    .map("".join).filter(lambda t: t.strip())


def _glossary(name: str, alias: str, definition: str) -> Glossary:
    term = Term(id="widget", category="hardware", names={"en": name}, aliases={"en": [alias]},
                definitions={"en": definition}, forms={"en": [alias + "s"]})
    return Glossary(terms={"widget": term})


@settings(max_examples=150, deadline=None)
@given(name=texts, alias=texts, definition=texts)
def test_csv_and_tbx_round_trips_keep_every_text(name: str, alias: str, definition: str) -> None:
    """The reproductions: a text starting with '= lost its quote, a name holding " | "
    split, TBX stripped leading and trailing spaces."""
    glossary = _glossary(name, alias, definition)
    for read, write in ((imports.read_csv, lambda g: to_csv(g).encode("utf-8")),
                        (imports.read_tbx, lambda g: to_tbx(g).encode("utf-8"))):
        base = read(write(glossary), "round")
        assert base.problems == []
        (concept,) = base.concepts
        assert concept.names["en"] == name
        assert concept.definitions["en"] == definition
        assert alias in concept.aliases.get("en", []) or alias == name
        assert concept.forms["en"] == [alias + "s"]


@given(st.lists(texts, max_size=5))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_list_cell_splits_into_what_was_joined(items: list[str]) -> None:
    assert imports.split_list(join_list(items)) == items
