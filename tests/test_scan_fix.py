"""gpuglossary scan --fix on hostile input: where it writes, what it refuses, what it prints.

``--fix`` writes only regular files inside the source folder, reached through no
symbolic link, each replaced whole (mode and line endings kept); it refuses a
project whose conf.py does not load the extension or cannot run; it applies
exactly the reviewed list it is given; every file name and text it prints is
printable; no page that cannot be read stops the scan or goes unnamed.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sphinxcontrib_gpuglossary.cli import main

CONF = 'extensions = ["sphinxcontrib_gpuglossary"]\n'
PAGE = "{title}\n{rule}\n\nThe KV cache grows in VRAM.\n"


def page(title: str = "Page") -> str:
    return PAGE.format(title=title, rule="=" * len(title))


def site(root: Path, files: dict[str, str | bytes], conf: str = CONF) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text(conf, encoding="utf-8")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
    return root


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main(["scan", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


# -- where --fix writes -----------------------------------------------------------------

def test_fix_never_writes_through_a_symlinked_page_or_folder(tmp_path: Path, capsys) -> None:
    elsewhere = site(tmp_path / "other-repo", {"linked.rst": page("Linked"),
                                               "folder/inner.rst": page("Inner")})
    before = {p: p.read_bytes() for p in elsewhere.rglob("*.rst")}
    srcdir = site(tmp_path / "docs", {
        "index.rst": page("Home") + "\n.. toctree::\n   :glob:\n\n   *\n   folder/*\n"})
    (srcdir / "linked.rst").symlink_to(elsewhere / "linked.rst")
    (srcdir / "folder").symlink_to(elsewhere / "folder")
    code, _out, err = run(capsys, srcdir, "--fix")
    assert code == 1
    assert {p: p.read_bytes() for p in elsewhere.rglob("*.rst")} == before
    assert ":gpu-term:`KV cache`" in (srcdir / "index.rst").read_text()
    assert "not written: " in err and "linked.rst (2 mentions): " in err
    assert "linked.rst is a symbolic link; --fix writes only files inside the source " \
           "folder, reached through no link" in err
    assert "inner.rst (2 mentions): " in err and "docs/folder is a symbolic link" in err
    assert "marked 2 mentions" in err


def test_fix_replaces_a_file_whole_keeping_its_mode(tmp_path: Path, capsys) -> None:
    srcdir = site(tmp_path, {"index.rst": page()})
    os.chmod(srcdir / "index.rst", 0o640)
    inode = (srcdir / "index.rst").stat().st_ino
    run(capsys, srcdir, "--fix")
    fixed = srcdir / "index.rst"
    assert stat.S_IMODE(fixed.stat().st_mode) == 0o640
    assert fixed.stat().st_ino != inode  # a new file put in place, not the old one cut
    assert fixed.read_text() == "Page\n====\n\nThe :gpu-term:`KV cache` grows in :gpu-term:`VRAM`.\n"
    assert not [p for p in srcdir.iterdir() if p.name.endswith(".tmp")]


def test_fix_refuses_a_conf_py_without_the_extension(tmp_path: Path, capsys) -> None:
    srcdir = site(tmp_path, {"index.rst": page()}, conf="extensions = []\n")
    code, out, err = run(capsys, srcdir, "--fix")
    assert code == 1 and out == ""
    assert "--fix refused: " in err
    assert "conf.py does not load 'sphinxcontrib_gpuglossary', so a build of the marked " \
           "pages would fail on an unknown role" in err
    assert (srcdir / "index.rst").read_text() == page()
    code, out, _err = run(capsys, srcdir)  # scanning is fine: it writes nothing
    assert code == 1 and "KV cache [kv-cache]" in out


def test_fix_refuses_a_folder_without_conf_py(tmp_path: Path, capsys) -> None:
    srcdir = site(tmp_path, {"index.rst": page()})
    (srcdir / "conf.py").unlink()
    code, _out, err = run(capsys, srcdir, "--fix")
    assert code == 1 and "--fix refused: there is no " in err and "give its folder with -c" in err
    assert (srcdir / "index.rst").read_text() == page()


def test_fix_refuses_a_conf_py_that_cannot_run(tmp_path: Path, capsys) -> None:
    """Its computed exclude_patterns would be lost, and excluded drafts rewritten."""
    srcdir = site(tmp_path, {"index.rst": page(), "drafts/draft.rst": page("Draft")},
                  conf="import not_installed_package\n" + CONF +
                       "exclude_patterns = [p for p in ['drafts']]\n")
    code, _out, err = run(capsys, srcdir, "--fix")
    assert code == 1
    assert "--fix refused: " in err
    assert "conf.py could not run here, so its computed settings (exclude_patterns" in err
    assert (srcdir / "drafts/draft.rst").read_text() == page("Draft")
    assert (srcdir / "index.rst").read_text() == page()


# -- review before it lands -------------------------------------------------------------

def test_fix_applies_exactly_the_reviewed_list(tmp_path: Path, capsys, monkeypatch) -> None:
    srcdir = site(tmp_path, {"index.rst": page() + "\nThe KV cache again.\n"})
    monkeypatch.chdir(tmp_path)
    _code, out, _err = run(capsys, srcdir, "--format", "json")
    found = json.loads(out)
    assert [(m["line"], m["text"]) for m in found] == [(4, "KV cache"), (4, "VRAM"),
                                                       (6, "KV cache")]
    kept = [found[0], found[2]]  # the writer rejects VRAM
    (tmp_path / "kept.json").write_text(json.dumps(kept), encoding="utf-8")
    code, out, err = run(capsys, srcdir, "--diff", "--from", tmp_path / "kept.json")
    assert code == 1 and "VRAM`" not in out
    assert [line for line in out.splitlines() if line.startswith("+")] == [
        "+++ b/index.rst",
        "+The :gpu-term:`KV cache` grows in VRAM.", "+The :gpu-term:`KV cache` again."]
    code, _out, err = run(capsys, srcdir, "--fix", "--from", tmp_path / "kept.json")
    assert (code, "marked 2 mentions" in err) == (0, True)
    assert (srcdir / "index.rst").read_text() == (
        "Page\n====\n\nThe :gpu-term:`KV cache` grows in VRAM.\n\nThe :gpu-term:`KV cache` "
        "again.\n")
    # the same list again: its entries are roles now, not mentions; said so, nothing written
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(json.dumps(kept)))
    code, _out, err = run(capsys, srcdir, "--fix", "--from", "-")
    assert code == 1 and "marked 0 mentions" in err
    assert "entry 1 (index.rst:4:5 'KV cache') not applied: not a mention scan finds " \
           "there now" in err


@pytest.mark.parametrize("text, message", [
    ("{", "not JSON (line 1, column 2"),
    ('{"file": "x"}', "not a list of mentions"),
    ('[{"file": "x", "line": "4"}]', "entry 1 needs file, line, column, text and term"),
])
def test_a_bad_reviewed_list_is_a_usage_error(tmp_path: Path, capsys, text: str,
                                              message: str) -> None:
    srcdir = site(tmp_path / "docs", {"index.rst": page()})
    (tmp_path / "list.json").write_text(text)
    code, _out, err = run(capsys, srcdir, "--fix", "--from", tmp_path / "list.json")
    assert code == 2 and message in err and "Traceback" not in err
    assert (srcdir / "index.rst").read_text() == page()
    code, _out, err = run(capsys, srcdir, "--from", tmp_path / "list.json")
    assert code == 2 and "give --fix or --diff with it" in err


# -- pages that cannot be read, encodings -----------------------------------------------

def test_a_page_that_cannot_be_read_is_named_and_the_rest_scanned(tmp_path: Path,
                                                                   capsys) -> None:
    srcdir = site(tmp_path, {
        "index.rst": page() + "\n.. toctree::\n   :glob:\n\n   *\n",
        "bad.rst": page("Bad").encode() + b"Not UTF-8: \xff.\n"})
    (srcdir / "gone.rst").symlink_to(tmp_path / "nowhere.rst")
    code, out, err = run(capsys, srcdir, "--format", "json")
    assert code == 1 and [m["text"] for m in json.loads(out)] == ["KV cache", "VRAM"]
    assert "bad.rst: not read: not valid utf-8 (byte b'\\xff' at offset 48); save it as " \
           "utf-8, or set source_encoding" in err
    assert "gone.rst: not read: a symbolic link to nothing" in err
    assert "2 files not read" in err and "Traceback" not in err


def test_another_source_encoding_is_read_and_written_in_it(tmp_path: Path, build,
                                                           capsys) -> None:
    text = "Café\n====\n\nLe KV cache du café grandit.\n"
    srcdir = site(tmp_path, {"index.rst": text.encode("latin-1")},
                  conf=CONF + 'source_encoding = "latin-1"\n')
    code, out, _err = run(capsys, srcdir)
    assert code == 1 and out.endswith("index.rst:4:4: KV cache [kv-cache]\n")
    before = build(srcdir, "text", freshenv=True)
    run(capsys, srcdir, "--fix")
    assert (srcdir / "index.rst").read_bytes() == text.replace(
        "KV cache", ":gpu-term:`KV cache`").encode("latin-1")
    after = build(srcdir, "text", freshenv=True)
    assert after.read("index.txt") == before.read("index.txt")
    assert after.warnings == before.warnings


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(encoding=st.sampled_from(["latin-1", "cp1252", "iso-8859-15", "utf-8-sig", "utf-8"]),
       words=st.lists(st.sampled_from(["café", "naïve", "Ærø", "plain", "€uro", "Œuvre"]),
                      min_size=1, max_size=4))
def test_any_source_encoding_round_trips(tmp_path_factory, capsys, encoding: str,
                                         words: list[str]) -> None:
    """Whatever the source encoding, the mention is found at its column in characters, and
    --fix writes the page back in that encoding with the role and nothing else changed."""
    words = [w for w in words if _encodable(w, encoding)] or ["plain"]
    prose = " ".join(words)
    text = f"Page\n====\n\n{prose} and the KV cache.\n"
    data = text.encode(encoding)
    conf = CONF + f"source_encoding = {encoding!r}\n"
    srcdir = site(tmp_path_factory.mktemp("enc"), {"index.rst": data}, conf=conf)
    code, out, err = run(capsys, srcdir, "--format", "json")
    assert code == 1 and "not read" not in err
    assert [(m["line"], m["column"]) for m in json.loads(out)] == [(4, len(prose) + 10)]
    run(capsys, srcdir, "--fix")
    assert (srcdir / "index.rst").read_bytes() == text.replace(
        "KV cache", ":gpu-term:`KV cache`").encode(encoding)


def _encodable(word: str, encoding: str) -> bool:
    try:
        word.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


# -- what scan prints is printable -------------------------------------------------------

HOSTILE = st.lists(st.sampled_from(["a", "é", " ", "\x1b[31m", "\u202e", "\x07", "\t", "-",
                                    "\u2028", "ب"]), min_size=1, max_size=6).map("".join)


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=HOSTILE)
def test_every_file_name_printed_is_printable(tmp_path_factory, capsys, name: str) -> None:
    """Text, github, --diff and --fix output never carries a control character or a bidi
    override from a file name; the JSON keeps the name itself, and --from applies it."""
    name = name.replace("/", "_") + ".rst"
    srcdir = site(tmp_path_factory.mktemp("names"), {
        "index.rst": page() + "\n.. toctree::\n   :glob:\n\n   *\n", name: page("Odd")})
    for args in (["--format", "text"], ["--format", "github"], ["--diff"]):
        _code, out, err = run(capsys, srcdir, *args)
        for output in (out, err):
            assert not any(c in output for c in "\x1b\x07\u202e\u2028"), (args, output)
    _code, out, _err = run(capsys, srcdir, "--format", "json")
    found = json.loads(out)
    assert sorted({Path(m["file"]).name for m in found}) == sorted({"index.rst", name})
    listed = srcdir / "kept.json"
    listed.write_text(json.dumps([m for m in found if Path(m["file"]).name == name]))
    code, out, err = run(capsys, srcdir, "--fix", "--from", listed)
    assert not any(c in out + err for c in "\x1b\x07\u202e\u2028")
    assert code == 0 and "marked 2 mentions" in err
    assert (srcdir / name).read_text().count(":gpu-term:") == 2
    assert ":gpu-term:" not in (srcdir / "index.rst").read_text()
