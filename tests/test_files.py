"""core.files: every file written for a user is written whole or not at all, and
never where the overwrite policy forbids."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sphinxcontrib_gpuglossary.core.files import WriteRefusedError, check_output, write_atomic, write_output

#: A child that writes under a file-size limit (RLIMIT_FSIZE): the write fails part-way.
_LIMITED_WRITE = """
import resource, signal, sys
from pathlib import Path
from sphinxcontrib_gpuglossary.core.files import write_atomic
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
try:
    write_atomic(Path(sys.argv[1]), b"x" * 100_000)
except OSError as exc:
    print("failed:", exc.strerror)
"""


def test_a_write_cut_short_leaves_the_old_file_whole(tmp_path: Path) -> None:
    """The reproduction: a 400-term glossary written under a file-size limit became a
    cut-off file; now the old one stays, byte for byte, and no temporary is left."""
    target = tmp_path / "glossary.yaml"
    target.write_bytes(b"terms: []\n" * 300)
    done = subprocess.run([sys.executable, "-c", _LIMITED_WRITE, str(target)],
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith("failed: File too large")
    assert target.read_bytes() == b"terms: []\n" * 300
    assert sorted(p.name for p in tmp_path.iterdir()) == ["glossary.yaml"]


def test_a_replaced_file_keeps_its_mode_and_a_new_one_gets_the_umask(tmp_path: Path) -> None:
    kept = tmp_path / "kept.txt"
    kept.write_bytes(b"old")
    kept.chmod(0o640)
    write_atomic(kept, b"new")
    assert kept.read_bytes() == b"new" and stat.S_IMODE(kept.stat().st_mode) == 0o640
    old_umask = os.umask(0o027)
    try:
        write_atomic(tmp_path / "fresh.txt", b"x")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE((tmp_path / "fresh.txt").stat().st_mode) == 0o640


def test_a_symbolic_link_at_the_target_is_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_bytes(b"someone else's")
    link = tmp_path / "out.json"
    link.symlink_to(elsewhere)
    for attempt in (lambda: write_atomic(link, b"x"),
                    lambda: write_output(link, b"x", force=True)):
        with pytest.raises(WriteRefusedError, match="is a symbolic link"):
            attempt()
    assert elsewhere.read_bytes() == b"someone else's" and link.is_symlink()
    write_atomic(link, b"asked for", follow_symlinks=True)
    assert elsewhere.read_bytes() == b"asked for" and link.is_symlink()


def test_folders_fifos_and_devices_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for target in (tmp_path, fifo, Path("/dev/null")):
        with pytest.raises(WriteRefusedError, match="not a regular file"):
            write_output(target, b"x", force=True)
        with pytest.raises(WriteRefusedError, match="not a regular file"):
            write_atomic(target, b"x")


def test_an_existing_file_needs_force_and_an_input_is_never_replaced(tmp_path: Path) -> None:
    existing = tmp_path / "out.yaml"
    existing.write_bytes(b"mine")
    with pytest.raises(WriteRefusedError, match=r"out.yaml exists; pass --force"):
        write_output(existing, b"x")
    assert existing.read_bytes() == b"mine"
    write_output(existing, b"forced", force=True)
    assert existing.read_bytes() == b"forced"
    # an input, named another way (relative, through a link, a hard link): never
    link = tmp_path / "alias.yaml"
    link.symlink_to(existing)
    hard = tmp_path / "hard.yaml"
    os.link(existing, hard)
    for name in (existing, link, hard):
        with pytest.raises(WriteRefusedError, match="is an input of this command"):
            write_output(hard, b"x", inputs=[name], force=True)
    assert existing.read_bytes() == b"forced"
    write_output(tmp_path / "new.yaml", b"new", inputs=[existing])
    assert (tmp_path / "new.yaml").read_bytes() == b"new"


def test_check_output_refuses_before_any_work(tmp_path: Path) -> None:
    (tmp_path / "taken").write_bytes(b"")
    check_output(tmp_path / "free")
    with pytest.raises(WriteRefusedError):
        check_output(tmp_path / "taken")


#: File names a hostile project can hold: escape sequences, bidi overrides, newlines.
hostile_names = st.lists(
    st.sampled_from(["a", "é", "\x1b", "[2J", "\u202e", "\n", "\r", "\t", " ", "\x07", "ﬁ", "."]),
    min_size=1, max_size=8).map("".join).filter(lambda n: n not in (".", ".."))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=hostile_names)
def test_any_file_name_is_written_and_named_printably(tmp_path: Path, name: str) -> None:
    target = tmp_path / name
    target.unlink(missing_ok=True)
    write_output(target, b"data")
    assert target.read_bytes() == b"data"
    with pytest.raises(WriteRefusedError) as refused:
        write_output(target, b"again")
    message = str(refused.value)
    assert not any(c in message for c in "\x1b\x07\r\n\u202e"), message
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_read_only_file_is_not_replaced(tmp_path: Path) -> None:
    """As open("w") would refuse it; root, who may write anything, runs without that power."""
    from .test_prefill_po import _without_file_override

    target = tmp_path / "read-only.po"
    target.write_bytes(b"kept")
    target.chmod(0o444)
    child = ("import sys; from pathlib import Path\n"
             "from sphinxcontrib_gpuglossary.core.files import write_atomic\n"
             "try:\n    write_atomic(Path(sys.argv[1]), b'new')\n"
             "except PermissionError as exc:\n    print(exc.strerror)\n")
    done = subprocess.run([sys.executable, "-c", child, str(target)], capture_output=True,
                          text=True, check=True,
                          preexec_fn=_without_file_override if os.geteuid() == 0 else None)
    assert done.stdout == "Permission denied\n" and target.read_bytes() == b"kept"


@pytest.mark.parametrize("name", ["a" * 250 + ".yaml", "\U0001f600" * 60 + ".csv"],
                         ids=["250-letters", "245-bytes"])
def test_a_name_as_long_as_the_system_allows_is_written(tmp_path: Path, name: str) -> None:
    """The temporary file beside it once took the whole name and more: "File name too long"."""
    write_output(tmp_path / name, b"data")
    assert [p.name for p in tmp_path.iterdir()] == [name]
    assert (tmp_path / name).read_bytes() == b"data"


def test_a_file_put_at_the_target_while_writing_is_replaced_only_with_force(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The name was free when checked; another program takes it while the data goes to
    disk (here: as the data is flushed). os.replace replaced its file without --force."""
    target = tmp_path / "out.json"
    flush = os.fsync

    def another_program_writes(fd: int) -> None:
        flush(fd)
        if not target.exists():
            target.write_bytes(b"theirs")

    monkeypatch.setattr(os, "fsync", another_program_writes)
    with pytest.raises(WriteRefusedError, match="exists; pass --force to replace it"):
        write_output(target, b"ours")
    assert target.read_bytes() == b"theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # no temporary file left
    target.unlink()
    write_output(target, b"ours", force=True)
    assert target.read_bytes() == b"ours"
