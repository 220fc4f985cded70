"""The user cache survives anything in its folder and runs no code: the hostile states
of the second hostile-input round, each giving at most a slower build."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sphinxcontrib_gpuglossary.core import cache
from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, load_glossary, parse_glossary
from sphinxcontrib_gpuglossary.core.model import Term

from .conftest import GOOD, ROOTS, build_site

FILES_TEXT = GOOD + """\
  - id: gadget
    category: hardware
    names: {en: Gadget, nl: Ding}
    aliases: {en: [gizmo]}
    status: {en: {gizmo: deprecated}}
    definitions: {en: A tool.}
    related: [widget]
texts:
  disclaimer: {en: Ours.}
  titles: {seed: {en: [A title]}}
"""


@pytest.fixture
def glossary_file(tmp_path: Path) -> list[GlossaryFile]:
    path = tmp_path / "terms.yaml"
    path.write_text(FILES_TEXT)
    return [GlossaryFile(path, "terms.yaml")]


def _stored(folder: Path) -> Path:
    (path,) = folder.glob("glossary-*.json")
    return path


def _field(name: str) -> int:
    """Where a term's field is in its stored row."""
    return [f.name for f in dataclasses.fields(Term)].index(name)


def _expected(files: list[GlossaryFile]):
    return parse_glossary([(f.display, f.read()) for f in files])


def test_the_cache_is_json_of_the_glossary_and_a_hit_equals_a_parse(
        tmp_path: Path, glossary_file: list[GlossaryFile]) -> None:
    folder = tmp_path / "cache"
    first = load_glossary(glossary_file, cache=folder)
    stored = json.loads(_stored(folder).read_bytes())
    assert stored["kind"] == "glossary" and stored["key"] == cache.cache_key(
        [("terms.yaml", FILES_TEXT.encode())])
    terms, texts, bidi = stored["value"]  # a dataclass as the list of its fields
    assert terms["gadget"][_field("status")] == {"en": {"gizmo": "deprecated"}}
    assert (texts["disclaimer"], bidi) == ({"en": "Ours."}, [])
    assert load_glossary(glossary_file, cache=folder) == first == _expected(glossary_file)


def test_a_planted_pickle_runs_nothing(tmp_path: Path, glossary_file: list[GlossaryFile]) -> None:
    """The reproduction: a pickle planted under the cache file's name ran code."""
    folder = tmp_path / "cache"
    load_glossary(glossary_file, cache=folder)
    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    _stored(folder).write_bytes(pickle.dumps(Payload()))
    child = ("import sys; from pathlib import Path\n"
             "from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, load_glossary\n"
             "g = load_glossary([GlossaryFile(Path(sys.argv[1]), 'terms.yaml')], "
             "cache=Path(sys.argv[2]))\nprint(sorted(g.terms)[:2])\n")
    done = subprocess.run([sys.executable, "-c", child, glossary_file[0].path, folder],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (0, "['gadget', 'widget']\n"), done.stderr
    assert not marker.exists()


def test_a_fifo_where_the_file_goes_blocks_nothing(tmp_path: Path,
                                                   glossary_file: list[GlossaryFile]) -> None:
    """The reproduction: a FIFO under the cache file's name blocked every build."""
    folder = tmp_path / "cache"
    load_glossary(glossary_file, cache=folder)
    path = _stored(folder)
    path.unlink()
    os.mkfifo(path)
    child = ("import sys; from pathlib import Path\n"
             "from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, load_glossary\n"
             "print(len(load_glossary([GlossaryFile(Path(sys.argv[1]), 't')], "
             "cache=Path(sys.argv[2])).terms))\n")
    done = subprocess.run([sys.executable, "-c", child, glossary_file[0].path, folder],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (0, "2\n"), done.stderr
    assert stat.S_ISFIFO(path.lstat().st_mode)  # left alone: not ours to remove


def _plant(folder: Path, value: object) -> None:
    """Replace the stored glossary by *value*, under the right key."""
    path = _stored(folder)
    stored = json.loads(path.read_bytes())
    stored["value"] = value
    path.write_text(json.dumps(stored))


@pytest.mark.parametrize("value", [
    None, [], "terms", [[], {}, []], [{}, {}, [], 1], [{"widget": ["widget"]}, {}, []],
    {"terms": {}, "texts": {}, "bidi": []},
], ids=["null", "list", "text", "terms-list", "extra-field", "missing-fields", "mapping"])
def test_a_stored_value_of_the_wrong_shape_is_parsed_again(
        tmp_path: Path, glossary_file: list[GlossaryFile], value: object) -> None:
    """The reproduction: a well-formed file of the wrong shape crashed the build."""
    folder = tmp_path / "cache"
    load_glossary(glossary_file, cache=folder)
    _plant(folder, value)
    assert load_glossary(glossary_file, cache=folder) == _expected(glossary_file)


def _paths(value: object, at: tuple = ()) -> list[tuple]:
    """Every place in a JSON value, as a path of keys and indexes."""
    found = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _paths(v, (*at, i))
    return found


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                           max_leaves=8)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), replacement=json_values)
def test_any_value_anywhere_in_the_file_gives_a_working_glossary(
        tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, replacement: object) -> None:
    """Any part of a stored glossary replaced by any JSON value: a glossary that holds what
    a checked one holds (the planted text, when it has the right shape), never a crash."""
    folder = tmp_path_factory.mktemp("cache")
    path = folder / "terms.yaml"
    path.write_text(FILES_TEXT)
    files = [GlossaryFile(path, "terms.yaml")]
    expected = load_glossary(files, cache=folder)
    stored = json.loads(_stored(folder).read_bytes())
    place = data.draw(st.sampled_from(_paths(stored["value"])))
    value = stored["value"]
    if place:
        for step in place[:-1]:
            value = value[step]
        value[place[-1]] = replacement
    else:
        stored["value"] = replacement
    _stored(folder).write_text(json.dumps(stored))
    glossary = load_glossary(files, cache=folder)
    assert set(glossary.terms) == set(expected.terms) or glossary == expected
    for term in glossary.terms.values():
        assert isinstance(term.names["en"], str) and isinstance(term.related, list)
        assert all(r in glossary.terms for r in term.related)


@pytest.mark.parametrize("content", [
    b"", b"\x80\x81garbage", b"{" * 100_000, b"[" * 100_000 + b"]" * 100_000, b"\x00" * 100,
], ids=["empty", "bytes", "open-braces", "deep", "nul"])
def test_garbage_and_deep_nesting_are_parsed_again(
        tmp_path: Path, glossary_file: list[GlossaryFile], content: bytes) -> None:
    folder = tmp_path / "cache"
    load_glossary(glossary_file, cache=folder)
    _stored(folder).write_bytes(content)
    assert load_glossary(glossary_file, cache=folder) == _expected(glossary_file)


def test_a_link_or_another_users_file_is_not_read(tmp_path: Path,
                                                  glossary_file: list[GlossaryFile]) -> None:
    folder = tmp_path / "cache"
    load_glossary(glossary_file, cache=folder)
    path = _stored(folder)
    planted = json.loads(path.read_bytes())
    planted["value"][0]["widget"][_field("definitions")]["en"] = "Planted."
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps(planted))
    path.unlink()
    path.symlink_to(elsewhere)
    assert load_glossary(glossary_file, cache=folder).terms["widget"].definitions["en"] == \
        "A part."
    if os.geteuid() == 0:  # only root can give a file away
        path.unlink()
        path.write_text(json.dumps(planted))
        os.chown(path, 65534, 65534)
        assert load_glossary(glossary_file, cache=folder).terms["widget"].definitions["en"] \
            == "A part."
    path.unlink()
    path.write_text(json.dumps(planted))  # the user's own file: it is the user's cache
    assert load_glossary(glossary_file, cache=folder).terms["widget"].definitions["en"] == \
        "Planted."


def test_a_shared_folder_is_refused(tmp_path: Path, glossary_file: list[GlossaryFile]) -> None:
    """The reproduction: a world-writable cache folder (a permissive umask, a shared
    GPUGLOSSARY_CACHE_DIR) let anyone plant the next build's glossary."""
    folder = tmp_path / "shared"
    load_glossary(glossary_file, cache=folder)
    terms, _texts, bidi = json.loads(_stored(folder).read_bytes())["value"]
    _plant(folder, [terms, {"disclaimer": {"en": "Planted."}}, bidi])
    folder.chmod(0o777)
    with pytest.raises(cache.UnsafeFolderError, match=r"others can write to it \(mode 777\)"):
        cache.check_folder(folder)
    assert load_glossary(glossary_file, cache=folder).texts["disclaimer"]["en"] == "Ours."
    folder.chmod(0o1777)  # sticky, like /tmp: others still plant new files
    assert load_glossary(glossary_file, cache=folder).texts["disclaimer"]["en"] == "Ours."
    if os.geteuid() == 0:
        folder.chmod(0o700)
        os.chown(folder, 65534, 65534)
        with pytest.raises(cache.UnsafeFolderError, match="another user owns it"):
            cache.check_folder(folder)
        assert load_glossary(glossary_file, cache=folder).texts["disclaimer"]["en"] == "Ours."


def test_a_new_folder_is_private_whatever_the_umask(tmp_path: Path,
                                                    glossary_file: list[GlossaryFile]) -> None:
    old = os.umask(0)
    try:
        load_glossary(glossary_file, cache=tmp_path / "fresh" / "cache")
    finally:
        os.umask(old)
    folder = tmp_path / "fresh" / "cache"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(_stored(folder).stat().st_mode) == 0o600


def test_a_build_with_a_shared_cache_folder_says_so_and_builds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    monkeypatch.setenv(cache.CACHE_ENV, str(folder))
    srcdir = tmp_path / "site"
    shutil.copytree(ROOTS / "test-basic", srcdir)
    built = build_site(srcdir, tmp_path / "out")
    status = built.app._status.getvalue()  # type: ignore[attr-defined]
    assert f"the glossary cache folder {folder} is not used: others can write to it " \
           "(mode 777)" in status
    assert built.warnings == "" and (built.outdir / "glossary.html").exists()
    assert list(folder.iterdir()) == []  # nothing written there


_WRITER = """
import sys
from pathlib import Path
from sphinxcontrib_gpuglossary.core import cache
folder, number = Path(sys.argv[1]), int(sys.argv[2])
seen = set()
for round in range(60):
    cache.write(folder, "k" * 64, {"by": [str(number)] * 2000}, "stress")
    found = cache.read(folder, "k" * 64, "stress", dict[str, list[str]])
    if found is not None:  # whole, from one writer or another: never a part
        assert set(found) == {"by"} and len(found["by"]) == 2000 and len(set(found["by"])) == 1
        seen.add(found["by"][0])
print(len(seen))
"""


def test_builds_writing_one_cache_file_at_once_never_read_a_part(tmp_path: Path) -> None:
    """Two builds at once (each with -j): every writer puts a whole file in place, every
    reader gets one writer's value or none."""
    folder = tmp_path / "cache"
    children = [subprocess.Popen([sys.executable, "-c", _WRITER, folder, str(n)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for n in range(4)]
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err
        assert int(out) >= 1
    assert [p.name for p in folder.iterdir()] == [f"stress-{'k' * 40}.json"]  # no .tmp left
