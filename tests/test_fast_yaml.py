"""The fast reader gives exactly PyYAML's located values, or declines.

Each case is read by :func:`parse_block_yaml` and by :func:`parse_yaml` (PyYAML):
where the fast reader answers, its values, keys and every line and column must
equal PyYAML's; where it declines, PyYAML's reading is what the loader uses.
Cases also say whether the fast reader must take them, so that a reader that
declined everything would fail here.
"""

from __future__ import annotations

import pytest

from benchmarks import sitegen
from sphinxcontrib_gpuglossary.errors import GlossaryError
from sphinxcontrib_gpuglossary.fastyaml import parse_block_yaml
from sphinxcontrib_gpuglossary.loader import _parse_glossary, seeded_files
from sphinxcontrib_gpuglossary.yamlsource import YList, YMap, YValue, parse_yaml

TAKEN, DECLINED = True, False


def located(value: YValue) -> object:
    """Everything a reading says: texts, keys, and where each key and value starts."""
    if isinstance(value, YMap):
        assert set(value.key_at) == set(value) == set(value.value_at)
        return ("map", value.line, value.column,
                [(key, value.key_at[key], value.value_at[key], located(item))
                 for key, item in value.items()])
    if isinstance(value, YList):
        assert len(value.item_at) == len(value)
        return ("list", value.line, value.column,
                [(at, located(item)) for item, at in zip(value, value.item_at, strict=True)])
    assert type(value) is str
    return value


def compare(raw: bytes) -> bool:
    """Check the fast reading of *raw* against PyYAML's; True if the fast reader took it."""
    fast = parse_block_yaml(raw)
    try:
        slow, at = parse_yaml(raw, "case.yaml")
    except GlossaryError:
        assert fast is None, "the fast reader accepted what PyYAML refuses"
        return False
    if fast is None:
        return False
    assert located(fast) == located(slow)
    assert (fast.line, fast.column) == at
    return True


@pytest.mark.parametrize("path", seeded_files(), ids=lambda p: p.name)
def test_seeded_files_are_read_fast_and_alike(path) -> None:  # type: ignore[no-untyped-def]
    assert compare(path.read_bytes()) is TAKEN


@pytest.mark.parametrize(("count", "seed", "coverage"), [(3, 1, 1.0), (150, 2, 0.5), (600, 7, 1.0)])
def test_generated_glossaries_are_read_fast_and_alike(count: int, seed: int,
                                                      coverage: float) -> None:
    text, _ = sitegen.generated_glossary(count, seed=seed, coverage=coverage)
    assert compare(text.encode()) is TAKEN


def test_the_10k_benchmark_file_takes_the_fast_path() -> None:
    text, _ = sitegen.generated_glossary(10000)
    root = parse_block_yaml(text.encode())
    assert isinstance(root, YMap) and len(root["terms"]) == 10000
    first = root["terms"][0]
    assert (first.line, first.column) == (2, 3)
    assert first.value_at["id"] == (2, 7)


def test_seeded_glossary_is_the_same_either_way() -> None:
    contents = [(p.name, p.read_bytes()) for p in seeded_files()]
    assert _parse_glossary(contents, fast=True) == _parse_glossary(contents, fast=False)


CASES = {
    # scalars
    "plain": ("k: some text, with [brackets] and {braces}\n", TAKEN),
    "plain with colons and hashes": ("k: http://x.org/a#b 10:30 a:b\n", TAKEN),
    "plain then comment": ("k: text   # a comment: with colon\n", TAKEN),
    "plain with trailing spaces": ("k: text   \nj: b\n", TAKEN),
    "plain starting with dash": ("k: -1\nj: -x\n", TAKEN),
    "two spaces after colon": ("k:  text\n", TAKEN),
    "single quoted": ("k: 'it''s # not a comment: really'\n", TAKEN),
    "double quoted escapes": ('k: "tab\\t nl\\n q\\" bs\\\\ \\x41\\u00e9\\U0001F600 \\/"\n', TAKEN),
    "double quoted then comment": ('k: "a: b # c"  # d\n', TAKEN),
    "escaped control character": ('k: "bell\\a"\n', DECLINED),
    "unknown escape": ('k: "\\q"\n', DECLINED),
    "quoted over two lines": ('k: "one\n  two"\n', DECLINED),
    "plain over two lines": ("k: one\n  two\nj: x\n", DECLINED),
    "ends with colon": ("k: a:\n", DECLINED),
    "colon space inside": ("k: a: b\n", DECLINED),
    "empty value": ("k:\nj: x\n", DECLINED),
    "empty value with comment": ("k: # nothing\nj: x\n", DECLINED),
    "tag": ("k: !!str 1\n", DECLINED),
    "anchor and alias": ("a: &x 1\nb: *x\n", DECLINED),
    # block scalars
    "literal": ("k: |\n  line one\n\n  # not a comment\n  key: not a key\nj: x\n", TAKEN),
    "literal strip": ("k: |-\n  a\n  b\n\n\nj: x\n", TAKEN),
    "literal keep": ("k: |+\n  a\n\n\nj: x\n", TAKEN),
    "literal keep at end": ("k: |+\n  a\n\n", TAKEN),
    "literal indentation indicator": ("k: |2\n    deeper\n  base\n", TAKEN),
    "indicators either order": ("k: >-2\n    a\n  b\nj: |+1\n  c\n", TAKEN),
    "literal leading blank lines": ("k: |\n\n \n  a\n   b\n", TAKEN),
    "folded": ("k: >\n  one\n  two\n\n  three\n    more\n  four\n\n\n  five\n", TAKEN),
    "folded in a sequence": ("k:\n- >\n  a\n  b\n- |\n  c\n", TAKEN),
    "folded with comment": ("k: > # note\n  a\n  b\n", TAKEN),
    "block scalar without final newline": ("k: |\n  a", DECLINED),
    "wide leading blank line": ("k: |\n    \n  a\n", DECLINED),
    "line of spaces inside": ("k: |\n  a\n     \n  b\n", DECLINED),
    "empty block scalar": ("k: |\nj: x\n", DECLINED),
    # collections
    "nested and indentless": ("terms:\n- id: a\n  names:\n    en: A\n  related:\n  - b\n"
                              "  -   c\n- id: b\n", TAKEN),
    "indented sequence": ("k:\n    - a\n    - b: c\n      d: e\nj: x\n", TAKEN),
    "comments everywhere": ("# head\nk:   # c\n# at margin\n      # deep\n  a: b  # c\n\n"
                            "   \n  c: d\n# end\n", TAKEN),
    "flow sequence": ("k: [a, 'b c', \"d\", e f ]  # c\nj: []\nl: [ x ]\n", TAKEN),
    "flow sequence trailing comma": ("k: [a, b,]\n", DECLINED),
    "flow sequence over lines": ("k: [a,\n  b]\n", DECLINED),
    "flow sequence with colon": ("k: [a: b]\n", DECLINED),
    "flow mapping": ("names: {en: Widget}\n", DECLINED),
    "keys needing quotes": ("'002': a\n\"a: b\": c\n'x y': d\n\"#k\": e\n'it''s': f\n", TAKEN),
    "key with spaces": ("a b: c\n", TAKEN),
    "duplicate keys": ("k: a\nk: b\n", DECLINED),
    "duplicate quoted key": ("k: a\n'k': b\n", DECLINED),
    "complex key": ("? k\n: v\n", DECLINED),
    "sequence at root": ("- a\n- b\n", DECLINED),
    "scalar at root": ("hello\n", DECLINED),
    "indented root": ("  k: v\n", DECLINED),
    "only comments": ("# nothing\n", DECLINED),
    "empty entry": ("k:\n-\n- a\n", DECLINED),
    "nested sequence entry": ("k:\n- - a\n", DECLINED),
    "entry below dash": ("k:\n-\n  a: b\n", DECLINED),
    "sequence at key column inside mapping": ("k: a\n- b\n", DECLINED),
    "odd indentation": ("k:\n    a: b\n  c: d\n", DECLINED),
    # text and lines
    "unicode": ("ar: مرحبا بالعالم:لا\nbn: সংজ্ঞাগুলো ধারণাটি ব্যাখ্যা করে।\n"
                "ru: «Определения» — да\nzh: 术语表\nemoji: 🙂 ok\n", TAKEN),
    "right-to-left quoted": ("ar: \"تشرح التعريفات: المفهوم\"\n", TAKEN),
    "no final newline": ("k: a\nj: b", TAKEN),
    "crlf": ("k: a\r\nj:\r\n  - b\r\nl: |\r\n  c\r\n  d\r\n", TAKEN),
    "lone carriage return": ("k: a\rj: b\n", DECLINED),
    "tab": ("k: a\tb\n", DECLINED),
    "tab indentation": ("k:\n\ta: b\n", DECLINED),
    "byte order mark": ("\ufeffk: a\n", DECLINED),
    "line separator": ("k: a\u2028b\n", DECLINED),
    "next line": ("k: a\x85b\n", DECLINED),
    "document start": ("---\nk: a\n", DECLINED),
    "document end": ("k: a\n...\n", DECLINED),
    "directive": ("%YAML 1.1\n---\nk: a\n", DECLINED),
    "two documents": ("k: a\n---\nj: b\n", DECLINED),
}


@pytest.mark.parametrize("name", CASES)
def test_tricky_yaml(name: str) -> None:
    text, expected = CASES[name]
    assert compare(text.encode()) is expected


def test_not_utf8_is_declined() -> None:
    assert parse_block_yaml("k: caf\xe9\n".encode("latin-1")) is None
