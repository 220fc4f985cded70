"""The linking benchmark: matching reported mentions to labels, the figures, the runner on a
tiny site with a real scan, the candidate pass, and the committed corpus's consistency."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from benchmarks.linking import run, sheet
from benchmarks.linking.candidates import near_misses, spellings
from benchmarks.linking.corpus import Label, line_digest, load_corpus, load_site, stale_labels
from benchmarks.linking.scoring import Mention, first_right, match, score
from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

ROOT = Path(__file__).parent / "roots" / "test-linking-benchmark"
SOURCES = ROOT / "sources"
CORPUS = ROOT / "corpus"
WHY_KINDS = {"other-sense", "longer-name", "idiom", "verb", "library-or-product", "position", "identifier"}


def label(line: int, column: int, text: str, gold: str | None, file: str = "a.rst") -> Label:
    return Label(file=file, line=line, column=column, text=text, gold=gold,
                 why=None if gold else "other-sense: test")


def mention(line: int, column: int, text: str, term: str, file: str = "a.rst") -> Mention:
    return Mention(file=file, line=line, column=column, text=text, term=term)


@pytest.fixture(scope="module")
def glossary_ids() -> set[str]:
    return set(load_glossary(glossary_files([])).terms)


# -- matching ---------------------------------------------------------------------------------

def test_a_mention_matches_the_label_at_its_column_and_text() -> None:
    here, beside = label(3, 10, "GPU", "gpu"), label(3, 20, "GPU", "gpu")
    assert match([mention(3, 20, "GPU", "gpu")], [here, beside]) == {mention(3, 20, "GPU", "gpu"): beside}


def test_a_moved_column_matches_the_nearest_label_with_the_same_words() -> None:
    near, far = label(3, 10, "GPU", "gpu"), label(3, 40, "GPU", "gpu")
    assert match([mention(3, 13, "GPU", "gpu")], [far, near])[mention(3, 13, "GPU", "gpu")] == near


def test_a_mention_on_a_skipped_follow_up_is_not_sampled_not_the_label_beside_it() -> None:
    # "**EP** lead-in ... EP": the judge labelled the lead-in (null) and skipped the later
    # EP as a follow-up; scan reporting the later one is no mention of the lead-in
    lead_in = label(7, 3, "EP", None)
    later = mention(7, 40, "EP", "expert-parallelism")
    assert match([later], [lead_in], {"a.rst": [(7, 40, 2)]}) == {later: None}
    result = score([later], [lead_in], {"a.rst"}, unsampled={"a.rst": [(7, 40, 2)]})
    assert (result.score.wrong, result.not_sampled) == (0, 1)
    assert match([later], [lead_in]) == {later: lead_in}  # no candidate left out there


def test_a_shorter_or_longer_mention_matches_the_label_its_words_overlap() -> None:
    wide = label(5, 8, "tokens/s", "tokens-per-second")
    assert match([mention(5, 8, "tokens", "token")], [wide])[mention(5, 8, "tokens", "token")] == wide
    assert match([mention(5, 2, "880 tokens/s", "tokens-per-second")], [wide]) == {
        mention(5, 2, "880 tokens/s", "tokens-per-second"): wide}


def test_a_mention_on_another_line_or_file_matches_nothing() -> None:
    labels = [label(3, 10, "GPU", "gpu")]
    assert match([mention(4, 10, "GPU", "gpu"), mention(3, 10, "GPU", "gpu", file="b.rst")], labels) == {
        mention(4, 10, "GPU", "gpu"): None, mention(3, 10, "GPU", "gpu", file="b.rst"): None}


# -- figures ----------------------------------------------------------------------------------

def test_precision_counts_reported_mentions_and_recall_counts_gold_labels() -> None:
    labels = [label(1, 1, "GPU", "gpu"), label(2, 1, "parameters", None), label(3, 1, "KVCache", "kv-cache"),
              label(4, 1, "tokens/s", "tokens-per-second")]
    mentions = [mention(1, 1, "GPU", "gpu"), mention(2, 1, "parameters", "parameter"),
                mention(4, 1, "tokens", "token")]
    result = score(mentions, labels, {"a.rst"})
    assert (result.score.right, result.score.wrong, result.score.found, result.score.missed) == (1, 2, 1, 2)
    assert result.score.precision == pytest.approx(1 / 3)
    assert result.score.recall == pytest.approx(1 / 3)
    assert [(m.text, lb.why, lb.gold) for m, lb in result.false_positives] == [
        ("parameters", "other-sense: test", None), ("tokens", None, "tokens-per-second")]
    assert [lb.text for lb in result.false_negatives] == ["KVCache", "tokens/s"]
    assert result.by_term["parameter"].precision == 0
    assert result.by_term["gpu"].as_dict()["precision"] == 1
    assert result.by_term["kv-cache"].recall == 0


def test_a_label_two_mentions_fall_on_is_found_once_and_each_wrong_mention_counts() -> None:
    peft = label(1, 5, "parameter-efficient finetuning", "peft")
    mentions = [mention(1, 5, "parameter", "parameter"), mention(1, 25, "finetuning", "fine-tuning")]
    result = score(mentions, [peft], {"a.rst"})
    assert (result.score.right, result.score.wrong, result.score.found, result.score.missed) == (0, 2, 0, 1)


def test_unlabelled_mentions_are_unjudged_not_sampled_or_outside_and_never_counted() -> None:
    mentions = [mention(1, 1, "vLLM", "vllm"), mention(2, 4, "CUDA", "cuda"),
                mention(1, 1, "GPU", "gpu", file="other.rst")]
    result = score(mentions, [], {"a.rst"}, unsampled={"a.rst": [(2, 3, 6)]})
    assert [m.text for m in result.unjudged] == ["vLLM"]
    assert (result.not_sampled, result.outside) == (1, 1)
    assert result.score.precision is None and result.score.recall is None


def test_first_mode_recall_asks_for_the_first_right_label_per_page_and_term() -> None:
    labels = [label(1, 1, "checkpoint", None), label(2, 1, "checkpoint", "training-checkpoint"),
              label(3, 1, "checkpoints", "training-checkpoint"), label(1, 1, "GPU", "gpu", file="b.rst")]
    assert [(lb.file, lb.line) for lb in first_right(labels)] == [("a.rst", 2), ("b.rst", 1)]
    reports_the_wrong_first = [mention(1, 1, "checkpoint", "training-checkpoint"),
                               mention(1, 1, "GPU", "gpu", file="b.rst")]
    result = score(reports_the_wrong_first, labels, {"a.rst", "b.rst"}, first=True)
    assert (result.score.right, result.score.wrong, result.score.found, result.score.missed) == (1, 1, 1, 1)
    assert [lb.line for lb in result.false_negatives] == [2]


# -- the runner, with a real scan of a tiny site -------------------------------------------------

@pytest.mark.parametrize(("first", "expected"), [
    (False, {"right": 2, "wrong": 1, "found": 2, "missed": 1, "unjudged": 1, "not_sampled": 1}),
    (True, {"right": 2, "wrong": 1, "found": 2, "missed": 0, "unjudged": 1, "not_sampled": 0}),
])
def test_the_runner_scores_a_real_scan_of_a_tiny_site(tmp_path: Path, first: bool, expected: dict) -> None:
    out = tmp_path / "figures.json"
    args = ["--sources", str(SOURCES), "--corpus", str(CORPUS), "--json", str(out), "--set", "dev"]
    assert run.main(args + (["--first"] if first else [])) == 0
    figures = json.loads(out.read_text(encoding="utf-8"))
    site = figures["sites"]["example+site"]
    assert {key: site[key] for key in expected} == expected
    assert site["outside_judged_pages"] == 1
    assert [(fp["text"], fp["why"]) for fp in site["false_positives"]] == [
        ("NCCL", "other-sense: a test label")]
    assert [m["text"] for m in site["unjudged_mentions"]] == ["vLLM"]
    assert figures["sets"]["dev"]["precision"] == pytest.approx(2 / 3)
    assert figures["mode"] == ("first" if first else "all")


def test_the_runner_prints_figures_per_site_and_term(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--sources", str(SOURCES), "--corpus", str(CORPUS), "--min-labels", "1", "--details"]
    assert run.main(args) == 0
    printed = capsys.readouterr().out
    assert "example+site [dev, training]" in printed and "precision  66.7% (2/3)" in printed
    assert "  gpu " in printed and "FN index.rst:6:5 'accelerator' is gpu" in printed
    assert "unjudged mentions: 1" in printed


def test_the_runner_refuses_a_checkout_whose_labelled_lines_changed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES, sources)
    page = sources / "example+site" / "docs" / "index.rst"
    page.write_text(page.read_text(encoding="utf-8").replace("one GPU", "two GPUs"), encoding="utf-8")
    assert stale_labels(load_site(CORPUS / "example+site.yaml"), sources) == ["index.rst:4"] * 3
    with pytest.raises(SystemExit):
        run.main(["--sources", str(sources), "--corpus", str(CORPUS)])
    assert "3 labelled lines differ" in capsys.readouterr().err


def test_the_runner_names_a_missing_checkout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run.main(["--sources", str(tmp_path), "--corpus", str(CORPUS)])
    assert "check out example/site at 0000000" in capsys.readouterr().err


# -- the permissive candidate pass --------------------------------------------------------------

@pytest.mark.parametrize(("text", "found"), [
    ("We keep a KVCache per request.", [("KVCache", "kv-cache")]),
    ("Shard it with FSDP2 first.", [("FSDP2", "fsdp")]),
    ("Use tensor parallel inference.",
     [("tensor parallel", "tensor-parallelism"), ("inference", "inference")]),
    ("Train with vLLM+Megatron today.", [("vLLM", "vllm"), ("Megatron", "megatron-lm")]),
    ("支持FSDP训练", [("FSDP", "fsdp")]),
    ("Install nccl and sglang.", [("nccl", "nccl"), ("sglang", "sglang")]),
    ("It runs at 880 tokens/s.", [("tokens/s", "tokens-per-second")]),
    ("Set ``GPU`` and `CUDA <https://x>`_ here.", []),
    ("Take the rest.", []),
])
def test_the_candidate_pass_finds_the_forms_scan_misses(text: str, found: list[tuple[str, str]]) -> None:
    patterns = spellings(load_glossary(glossary_files([])))
    assert [(words, term) for _, _, words, term in near_misses(text, ".rst", patterns)] == found


def test_the_candidate_pass_skips_code_blocks_and_headings_and_keeps_columns() -> None:
    patterns = spellings(load_glossary(glossary_files([])))
    myst = "# GPU notes\n\n```python\ngpu = 1\n```\n\nOne GPU here.\n"
    assert near_misses(myst, ".md", patterns) == [(7, 5, "GPU", "gpu")]
    rst = "GPU notes\n=========\n\n.. code-block:: python\n\n   gpu = 1\n\nOne GPU::\n\n   GPU\n"
    assert near_misses(rst, ".rst", patterns) == [(8, 5, "GPU", "gpu")]


# -- the labelling sheet ----------------------------------------------------------------------

def test_a_sheet_of_a_site_becomes_a_corpus_file_the_runner_reads(tmp_path: Path) -> None:
    made = tmp_path / "site.sheet.yaml"
    assert sheet.main(["make", "--sources", str(SOURCES), "--site", "example+site", "--docs", "docs",
                       "--skip", "other.rst", "--out", str(made)]) == 0
    entries = yaml.safe_load(made.read_text(encoding="utf-8"))["entries"]
    assert [(e["line"], e["text"], e["term"], e["follow_up"]) for e in entries] == [
        (4, "CUDA", "cuda", False), (4, "GPU", "gpu", False), (4, "NCCL", "nccl", False),
        (5, "vLLM", "vllm", False), (5, "CUDA", "cuda", True)]
    assert ">    4 We compile CUDA kernels" in entries[0]["context"]
    judged = tmp_path / "site.tsv"  # the follow-up is left out: CUDA's first mention is right
    judged.write_text("1\tcuda\t\n2\tgpu\t\n3\tnull\tother-sense: a test label\n4\tvllm\t\n",
                      encoding="utf-8")
    out = tmp_path / "corpus" / "example+site.yaml"
    out.parent.mkdir()
    assert sheet.main(["corpus", str(made), "--labels", str(judged), "--sources", str(SOURCES),
                       "--repository", "example/site", "--commit", "0" * 40, "--licence", "BSD-3-Clause",
                       "--kind", "training", "--set", "dev", "--out", str(out)]) == 0
    site = load_site(out)
    assert [(lb.line, lb.text, lb.gold, lb.why) for lb in site.labels] == [
        (4, "CUDA", "cuda", None), (4, "GPU", "gpu", None), (4, "NCCL", None, "other-sense: a test label"),
        (5, "vLLM", "vllm", None)]
    assert site.judged_pages == ["index.rst"] and site.unsampled == {"index.rst": [(5, 26, 4)]}
    assert stale_labels(site, SOURCES) == []
    result = tmp_path / "f.json"
    assert run.main(["--sources", str(SOURCES), "--corpus", str(out.parent), "--json", str(result)]) == 0
    figures = json.loads(result.read_text(encoding="utf-8"))["sites"]["example+site"]
    assert (figures["right"], figures["wrong"], figures["unjudged"], figures["not_sampled"]) == (3, 1, 0, 1)


def test_a_sheet_judges_only_files_sphinx_reads_as_pages(tmp_path: Path) -> None:
    """A Markdown file of a site that builds reST only is no page of it (FlashInfer's
    design notes): nobody would link in it, so it has no candidates to judge."""
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES, sources)
    (sources / "example+site" / "docs" / "notes.md").write_text(
        "# Notes\n\nThe GPU runs CUDA.\n", encoding="utf-8")
    conf = sources / "example+site" / "docs" / "conf.py"  # an extension that prints, as some do
    conf.write_text(conf.read_text(encoding="utf-8") + "\nprint('social cards are off')\n",
                    encoding="utf-8")
    made = tmp_path / "site.sheet.yaml"
    assert sheet.main(["make", "--sources", str(sources), "--site", "example+site", "--docs", "docs",
                       "--out", str(made)]) == 0
    made_sheet = yaml.safe_load(made.read_text(encoding="utf-8"))
    assert made_sheet["judged_pages"] == ["index.rst", "other.rst"]
    # a sheet made before, with the file in it: its entries there are left out of the corpus
    made_sheet["judged_pages"].append("notes.md")
    made_sheet["entries"].append({"file": "notes.md", "line": 3, "column": 5, "text": "GPU",
                                  "term": "gpu", "found": None, "follow_up": False,
                                  "context": "", "gold": "gpu", "why": None})
    made.write_text(yaml.safe_dump(made_sheet), encoding="utf-8")
    judged = tmp_path / "site.tsv"
    judged.write_text("".join(f"{n}\tnull\tother-sense: a test label\n"
                              for n in range(1, len(made_sheet["entries"]))), encoding="utf-8")
    out = tmp_path / "example+site.yaml"
    sheet.main(["corpus", str(made), "--labels", str(judged), "--sources", str(sources),
                "--repository", "example/site", "--commit", "0" * 40, "--licence", "MIT",
                "--kind", "training", "--set", "dev", "--out", str(out)])
    site = load_site(out)
    assert "notes.md" not in site.judged_pages and {lb.file for lb in site.labels} <= {
        "index.rst", "other.rst"}


def test_a_sheet_with_an_unjudged_entry_is_refused(tmp_path: Path) -> None:
    made = tmp_path / "site.sheet.yaml"
    sheet.main(["make", "--sources", str(SOURCES), "--site", "example+site", "--docs", "docs",
                "--out", str(made)])
    judged = tmp_path / "site.tsv"
    judged.write_text("1\tcuda\t\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"index\.rst:4 is not judged"):
        sheet.main(["corpus", str(made), "--labels", str(judged), "--sources", str(SOURCES), "--repository",
                    "example/site", "--commit", "0" * 40, "--licence", "MIT", "--kind", "training",
                    "--set", "dev", "--out", str(tmp_path / "x.yaml")])


# -- the committed corpus --------------------------------------------------------------------------

def test_the_corpus_has_its_sets_and_consistent_labels(glossary_ids: set[str]) -> None:
    sites = load_corpus()
    kinds = {(s.set, s.kind) for s in sites}
    assert {("dev", "training"), ("dev", "serving"), ("test", "training"), ("test", "serving")} <= kinds
    assert sum(s.set == "dev" for s in sites) >= 8 and sum(s.set == "test" for s in sites) >= 4
    for site in sites:
        # at least 70 labels: the Furiosa SDK's 20 pages, every one with a candidate judged, hold 73
        assert len(site.commit) == 40 and 70 <= len(site.labels) <= 450, site.name
        places = [(lb.file, lb.line, lb.column) for lb in site.labels]
        assert len(places) == len(set(places)), site.name
        for lb in site.labels:
            assert lb.file in site.judged_pages and lb.text.strip() and len(lb.digest or "") == 8, lb
            assert lb.gold is None or lb.gold in glossary_ids, lb
            assert lb.found is None or lb.found in glossary_ids, lb
            assert (lb.why is None) == (lb.gold is not None), lb
            assert lb.gold or lb.why_kind in WHY_KINDS, lb


def test_a_commit_that_yaml_reads_as_a_number_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "example+site.yaml"
    bad.write_text((CORPUS / "example+site.yaml").read_text(encoding="utf-8").replace(
        '"0000000000000000000000000000000000000000"', "0000000000000000000000000000000000000000"),
        encoding="utf-8")
    with pytest.raises(ValueError, match="quoted 40-hex commit"):
        load_site(bad)


def test_a_label_digest_is_of_the_stripped_line() -> None:
    assert line_digest("  One GPU here.\n") == line_digest("One GPU here.")
    assert line_digest("One GPU here.") != line_digest("Two GPUs here.")


def test_scan_runs_in_the_sites_docs_folder_as_its_make_html_does(tmp_path: Path,
                                                                  monkeypatch) -> None:
    """A site's extension may read files relative to the working directory at start-up
    (AWS Neuron's archives its examples): the runner scans from the docs folder, and
    reads the mentions' paths from there."""
    docs = tmp_path / "site" / "docs"
    docs.mkdir(parents=True)
    (docs / "examples.txt").write_text("kept\n", encoding="utf-8")
    (docs / "needs_cwd.py").write_text(
        "def setup(app):\n"
        "    app.connect('builder-inited', lambda app: open('examples.txt').read())\n"
        "    return {'parallel_read_safe': True}\n", encoding="utf-8")
    (docs / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n"
                                  "extensions = ['needs_cwd']\n", encoding="utf-8")
    (docs / "index.rst").write_text("Home\n====\n\nThe KV cache lives on the GPU.\n",
                                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    mentions = run.run_scan(run.DEFAULT_SCAN, Path("site/docs"), first=False)
    assert [(m.file, m.line, m.text) for m in mentions] == [
        ("index.rst", 4, "KV cache"), ("index.rst", 4, "GPU")]
