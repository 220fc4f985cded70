"""The auto-linking matcher kept in the user's cache: a hit is the matcher a build
makes, and a change to the term data, languages, settings or site names makes another."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.core.model import Glossary
from sphinxcontrib_gpuglossary.linking import matchercache
from sphinxcontrib_gpuglossary.linking.matcher import Matcher
from sphinxcontrib_gpuglossary.linking.matchercache import cached_matcher, matcher_key, stored_form

SEEDED = load_glossary(glossary_files([]))
TEXT = ("We keep the KV cache on the GPU; type inference is not inference here. "
        "Hugging Face models use LoRA adapters, PagedAttention and tensor parallelism.")


def _digests(glossary: Glossary) -> dict[str, str]:
    return {t.id: hashlib.sha256(repr(t).encode()).hexdigest() for t in glossary.terms.values()}


def _matcher(folder: Path, glossary: Glossary = SEEDED, languages: tuple[str, ...] = ("en",),
             site: str = "AnchorGPU") -> Matcher:
    return cached_matcher(glossary, _digests(glossary), list(languages), ["gpu"], ["vram"],
                          [site], folder)


def _refuse_to_build(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_args: object, **_kwargs: object) -> Matcher:
        raise AssertionError("built, not read from the cache")

    monkeypatch.setattr(matchercache.Matcher, "build", refused)


@pytest.mark.parametrize("languages", [("en",), ("zh_CN", "en"), ("ja", "en")])
def test_a_hit_is_the_matcher_a_build_makes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            languages: tuple[str, ...]) -> None:
    built = _matcher(tmp_path, languages=languages)
    assert list(tmp_path.glob("matcher-*.json"))
    _refuse_to_build(monkeypatch)
    read = _matcher(tmp_path, languages=languages)
    assert stored_form(read) == stored_form(built)
    assert read.compact_heads == built.compact_heads  # (worked out again, not stored)
    assert read.page_senses(TEXT) == built.page_senses(TEXT)
    assert read.candidates(TEXT) == built.candidates(TEXT)
    assert [c.term for c in read.candidates(TEXT)]  # (it found terms)


def test_another_language_setting_or_site_name_is_another_key() -> None:
    digests = _digests(SEEDED)
    keys = {matcher_key(digests, ["en"], [], [], ["A"]),
            matcher_key(digests, ["nl", "en"], [], [], ["A"]),
            matcher_key(digests, ["en"], ["gpu"], [], ["A"]),
            matcher_key(digests, ["en"], [], ["gpu"], ["A"]),
            matcher_key(digests, ["en"], [], [], ["B"]),
            matcher_key({**digests, "gpu": "changed"}, ["en"], [], [], ["A"])}
    assert len(keys) == 6


def test_changed_term_data_is_built_again(tmp_path: Path) -> None:
    """A term with a new alias (a user's glossary file edited) finds it: no stale tables."""
    assert _matcher(tmp_path).candidates("a KV stash here") == []
    changed = dataclasses.replace(SEEDED, terms=dict(SEEDED.terms))
    term = changed.terms["kv-cache"]
    changed.terms["kv-cache"] = dataclasses.replace(
        term, aliases={**term.aliases, "en": [*term.aliases.get("en", ()), "KV stash"]})
    found = _matcher(tmp_path, changed).candidates("a KV stash here")
    assert [(c.term, c.reason) for c in found] == [("kv-cache", None)]
    assert len(list(tmp_path.glob("matcher-*.json"))) == 2


def test_a_stored_file_that_lacks_a_terms_tables_is_built_again(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    _matcher(tmp_path)
    (path,) = tmp_path.glob("matcher-*.json")
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'"kv-cache":\[[^\]]*\],?', "", text, count=1), encoding="utf-8")
    built = []
    build = Matcher.build
    monkeypatch.setattr(matchercache.Matcher, "build",
                        lambda *a, **k: built.append(1) or build(*a, **k))
    assert [c.term for c in _matcher(tmp_path).candidates("the KV cache")] == ["kv-cache"]
    assert built == [1]


def test_a_build_reads_the_matcher_the_last_build_kept(make_site, build,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Two fresh builds of a site, the second without building the matcher: the same
    pages; and a term file edited between builds links the new spelling."""
    site = make_site("autolink")
    first = build(site, freshenv=True).read("untouched.html")
    _refuse_to_build(monkeypatch)
    assert build(site, freshenv=True).read("untouched.html") == first
    monkeypatch.undo()
    (site / "terms.yaml").write_text(
        "terms:\n  - id: kv-cache\n    aliases: {en: [key-value store]}\n", encoding="utf-8")
    (site / "untouched.rst").write_text(
        (site / "untouched.rst").read_text(encoding="utf-8")
        + "\nThe key-value store holds them.\n", encoding="utf-8")
    html = build(site, freshenv=True, gpuglossary_files=["terms.yaml"],
                 gpuglossary_autolink="all").read("untouched.html")
    assert 'data-gpu-term="kv-cache"' in html and ">key-value store</a>" in html


def test_parallel_builds_with_a_cold_and_a_warm_cache_equal_a_serial_build(
        make_site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """-j 2 with the matcher read from the cache, and with none there yet (made once in
    the main process, before the readers start), writes the pages -j 1 writes."""
    import filecmp

    from sphinxcontrib_gpuglossary.core.cache import CACHE_ENV

    from .conftest import sphinx_build

    pages = {f"page{n}.rst": f"Page {n}\n=======\n\nThe KV cache of page {n} sits on the GPU.\n"
             for n in range(10)}
    pages["index.rst"] = "Home\n====\n\n.. toctree::\n\n   untouched\n   markdown\n   glossary\n" + \
        "".join(f"   page{n}\n" for n in range(10))
    srcdir = make_site("autolink", pages)
    outputs = []
    for run, (jobs, cache) in enumerate([("1", "one"), ("2", "one"), ("2", "two")]):
        monkeypatch.setenv(CACHE_ENV, str(tmp_path / cache))
        out = tmp_path / f"out{run}"
        result = sphinx_build("-E", "-j", jobs, "-b", "html", "-d", tmp_path / f"dt{run}",
                              srcdir, out)
        assert result.returncode == 0, result.stderr
        outputs.append(out)
    assert len(list((tmp_path / "one").glob("matcher-*.json"))) == 1
    htmls = sorted(p.relative_to(outputs[0]) for p in outputs[0].rglob("*.html"))
    assert 'data-gpu-term="kv-cache"' in (outputs[0] / "page9.html").read_text()
    for out in outputs[1:]:
        _match, mismatch, errors = filecmp.cmpfiles(outputs[0], out, htmls, shallow=False)
        assert mismatch == [] and errors == []
