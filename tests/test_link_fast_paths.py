"""Shortcuts that make auto-linking cheaper give the answers of the long way round."""

from __future__ import annotations

import inspect

import pytest
from docutils import nodes
from sphinx import addnodes

from sphinxcontrib_gpuglossary import nodes as our_nodes
from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.linking import context

from .html_terms import definitions, term_uses

SEEDED = load_glossary(glossary_files([]))


def _reason_the_long_way(element: nodes.Element) -> str | None:
    """What :func:`context._reason` answered before it kept its checks per class."""
    asked = tuple(kind for kinds, *_rest in (*context.NEVER, *context._WHERE) for kind in kinds)
    if not isinstance(element, asked) or context.moved_text(element):
        return None
    for kinds, reason in context.NEVER:
        if isinstance(element, kinds):
            return reason
    for kinds, holds, reason in context._WHERE:
        if isinstance(element, kinds) and holds(element):
            return reason
    return None


def _element_classes() -> list[type[nodes.Element]]:
    found = {kind for module in (nodes, addnodes, our_nodes)
             for _name, kind in inspect.getmembers(module, inspect.isclass)
             if issubclass(kind, nodes.Element) and kind is not nodes.document}
    return sorted(found, key=lambda kind: f"{kind.__module__}.{kind.__qualname__}")


@pytest.mark.parametrize("kind", _element_classes(), ids=lambda kind: kind.__qualname__)
def test_where_links_belong_is_asked_per_class_as_per_element(kind: type[nodes.Element]) -> None:
    """Every element class of docutils, Sphinx and ours, alone and in a paragraph (where
    bold text may be a lead-in and a paragraph a heading line)."""
    if kind is our_nodes.gpu_text:
        element: nodes.Element = kind("Single GPU Multi-Replica", "en", "ltr")
    elif issubclass(kind, nodes.TextElement):
        element = kind("", "Single GPU Multi-Replica")
    elif kind is nodes.system_message:  # it needs its level, type and place
        element = kind("", nodes.Text("Single GPU Multi-Replica"), level=2, type="WARNING",
                       source="index.rst", line=1)
    else:
        element = kind("", nodes.Text("Single GPU Multi-Replica"))
    paragraph = nodes.paragraph("", "", element)
    nodes.section("", paragraph)
    for node in (element, paragraph):
        assert context._reason(node) == _reason_the_long_way(node)


def test_a_terms_tag_made_once_per_build_is_its_own_on_every_page(make_site, build) -> None:
    """The start tags of terms are kept per build (:func:`.writers._start_tag`): pages at
    two depths get their own links, each page's first use its definition, and a second
    build in another language in the same process its own language's tags."""
    srcdir = make_site("basic", {
        "other.rst": "Other\n=====\n\nA :gpu-term:`KV cache` and :gpu-term:`VRAM`.\n",
        "index.rst": "Basic site\n==========\n\n.. toctree::\n\n   guide\n   other\n"
                     "   deep/guide\n   glossary\n",
    })
    (srcdir / "deep").mkdir()
    (srcdir / "deep" / "guide.rst").write_text((srcdir / "guide.rst").read_text(encoding="utf-8"),
                                               encoding="utf-8")
    english = build(srcdir, freshenv=True)
    for page, href in (("guide.html", "glossary.html"), ("other.html", "glossary.html"),
                       ("deep/guide.html", "../glossary.html")):
        uses = term_uses(english.read(page))
        assert {u.attrs["href"] for u in uses if u.term_id == "kv-cache"} == \
            {f"{href}#gpu-term-kv-cache"}
        assert [u.definition["text"] for u in uses if u.definition is not None
                and u.term_id == "kv-cache"] == [SEEDED.terms["kv-cache"].definitions["en"]]
    # the same page one folder down: the same tags but for the links
    assert [u.attrs | {"href": ""} for u in term_uses(english.read("guide.html"))] == \
        [u.attrs | {"href": ""} for u in term_uses(english.read("deep/guide.html"))]
    dutch = build(srcdir, freshenv=True, language="nl")
    (kv,) = definitions(dutch.read("other.html"))["kv-cache"]
    assert kv["text"] == SEEDED.terms["kv-cache"].definitions["nl"]


@pytest.mark.parametrize("text", [
    "", "   ", "KV cache", "  the KV-cache, of llama.cpp (FLUX.1)... max_batch_size=8 ",
    "a.b. c..d .e f. 7B 1.5T x\ty\n\nz", "tokens/s & A+B", "end.",
])
def test_words_of_ascii_text_are_the_expressions_matches(text: str) -> None:
    """:func:`.words.words` places ASCII words from one split: the matches' own places."""
    from sphinxcontrib_gpuglossary.linking import words

    assert words.words(text) == [words.Word(m.start(), m.end(), m.group())
                                 for m in words._RUN.finditer(text)]


_ALTERNATIVES = [(("type", "inference"), r"\b(?:type[\s-]+inference(?:e?s)?)\b"),
                 (("inference",), r"\b(?:inference)\b"),
                 (("bayesian", "inference"), r"\b(?:bayesian[\s-]+inference(?:e?s)?)\b"),
                 ((), r"\b(?:\d+[\s-]+inferences)\b")]


@pytest.mark.parametrize("page", [
    "No such words here.", "Type inference, then inference.", "an inference; type inference",
    "2 inferences and Bayesian inference", "Bayesian-Inference", "TYPE İNFERENCE and ınference",
    "type ınference", "İnference", "é inference", "bayesian", "type\ninference",
])
def test_a_page_search_finds_what_one_expression_of_every_alternative_finds(page: str) -> None:
    """Searching only the alternatives whose words the page says, each alone, finds the
    leftmost match, the first alternative there; a page with letters that any case takes
    for ASCII ones though they fold apart (``İ``, ``ı``) is searched for every one."""
    import re

    from sphinxcontrib_gpuglossary.linking.pagesearch import PageSearch

    whole = re.compile("|".join(p for _w, p in _ALTERNATIVES), re.IGNORECASE).search(page)
    found = PageSearch(_ALTERNATIVES).search(page, page.casefold())
    assert (found and (found.span(), found.group())) == (whole and (whole.span(), whole.group()))


@pytest.mark.parametrize("children", [
    [], [nodes.Text("")], [nodes.Text("  \n ")], [nodes.Text("A Heading Line")],
    [nodes.Text("Ends well. "), nodes.Text(" \n")], [nodes.Text("Bold "), nodes.strong("", "Text")],
    [nodes.emphasis("", "See"), nodes.Text(":  "), nodes.Text("")],
    [nodes.Text("x"), nodes.literal("", "code()  "), nodes.inline("", " ")],
])
def test_a_paragraphs_last_character_is_its_whole_texts(children: list[nodes.Node]) -> None:
    """:func:`context.heading_line` reads the last character from the last children only."""
    paragraph = nodes.paragraph("", "", *children)
    assert context._last_character(paragraph) == paragraph.astext().strip()[-1:]


_NEAR_TEXTS = [
    "The token. Token auth uses an API token; tokens are tokens. Another token here",
    "Set the learning rate. The rate limit applies per token, the token_limit too.",
    "A model. The model's tensor parallel size; tensor, model and data parallelism.",
]


@pytest.mark.parametrize("text", _NEAR_TEXTS)
def test_the_words_near_a_term_are_read_in_its_sentence_only(text: str) -> None:
    """:meth:`Matcher._near` reads the words of the sentence only (found by place), as a
    pass over every word of the text that keeps those in the sentence does."""
    from sphinxcontrib_gpuglossary.linking import rules
    from sphinxcontrib_gpuglossary.linking.matcher import Matcher
    from sphinxcontrib_gpuglossary.linking.words import words

    matcher = Matcher.build(SEEDED, ["en"])
    found = words(text)
    folded = [w.text.casefold() for w in found]
    near = frozenset(folded)
    for first in range(len(found)):
        start, end = rules.sentence_span(text, found[first].start, found[first].end)
        expected = None
        for k, word in enumerate(found):
            if start <= word.start < end and k != first and folded[k] in near \
                    and matcher._longest(text, found, folded, k, len(text))[0] <= 1:
                expected = folded[k]
                break
        assert matcher._near(text, found, first, first, near) == expected


_NOT_CJK_TEXTS = [
    "Don’t offload the KV cache — it’s the GPU’s.",
    "Größe des KV-Cache: straße, Maße (ß folds to ss).",
    "Кэш KV на GPU → быстрее; «квантизация» весов.",
    "ذاكرة التخزين المؤقت KV على وحدة GPU.",
    "মডেল এবং GPU, কোয়ান্টাইজেশন…",
    "llama.cpp runs FLUX.1 — 🚀 max_batch_size=8 … done.",
]


@pytest.mark.parametrize("text", _NOT_CJK_TEXTS)
def test_text_without_cjk_splits_into_the_same_words_by_the_fast_path(text: str) -> None:
    """A page with a curly quote or a dash is not ASCII; without CJK characters its words
    are one split in C, the same as a run-by-run reading finds them."""
    from sphinxcontrib_gpuglossary.linking.words import _RUN, has_cjk, words

    assert not has_cjk(text)
    assert words(text) == [(m.start(), m.end(), m.group()) for m in _RUN.finditer(text)]


def test_text_with_cjk_is_split_around_each_character() -> None:
    from sphinxcontrib_gpuglossary.linking.words import has_cjk, words

    assert has_cjk("使用GPU进行推理’")
    assert [w.text for w in words("使用GPU进行")] == ["使", "用", "GPU", "进", "行"]


@pytest.mark.parametrize("text", _NOT_CJK_TEXTS)
def test_the_matcher_reads_text_without_cjk_as_words_reads_it(text: str) -> None:
    """:meth:`Matcher._read` folds the words of the fast split, as of :func:`words`."""
    from sphinxcontrib_gpuglossary.linking.matcher import Matcher
    from sphinxcontrib_gpuglossary.linking.words import words

    matcher = Matcher.build(SEEDED, ["en", "de", "ru", "ar", "bn"])
    block = matcher._read(text)
    assert block.found is None  # the split in C, its words placed when asked
    assert block.split() == words(text)
    assert block.folded == [w.text.casefold() for w in words(text)]


@pytest.mark.parametrize("page", [
    "No such words here.", "Type inference, then inference.", "2 inferences and Bayesian inference",
    "TYPE İNFERENCE and ınference", "type ınference", "bayesian", "type\ninference",
])
def test_a_page_search_holds_a_match_where_it_finds_one(page: str) -> None:
    """A term's field is asked only whether the page holds one of its words: the search
    stops at the first alternative that matches, and answers as the whole search does."""
    from sphinxcontrib_gpuglossary.linking.pagesearch import PageSearch

    search = PageSearch(_ALTERNATIVES)
    assert search.holds(page, page.casefold()) is (search.search(page, page.casefold()) is not None)


_PAGE = ("Streaming sends each token as it is made. Our container runs in Docker; "
         "the access token of the API is kept apart. Inference on one GPU.")


def test_a_pages_senses_are_searched_for_a_term_only_when_asked() -> None:
    """A page names few of the terms: their phrases are searched when a term is judged
    there, and the answers are those of the whole page read at once."""
    from sphinxcontrib_gpuglossary.linking.matcher import Matcher

    matcher = Matcher.build(SEEDED, ["en"])
    asked = matcher.page_senses(_PAGE)
    assert asked.get("token") is not None  # "access token": another sense on this page
    assert set(asked._found) == {"token"}
    whole = dict(matcher.page_senses(_PAGE))
    assert "token" in whole and "streaming" not in whole
    assert {term: asked.get(term) for term in [*matcher.senses, *matcher.fields]
            if asked.get(term) is not None} == whole


_BLOCKS = [
    "Use the KV cache on one GPU; fine-tuning with LoRA and FSDP2 needs a KVCache.",
    "The tensor and expert parallel sizes, a mixture of experts (MoE), EP=8 and vLLM+Megatron.",
    "在GPU上使用KV缓存进行推理，然后 quantization.",
    "A KeyValue cache, GPUPass through and a CloudGPU instance.",  # words run together
    *_NOT_CJK_TEXTS,
]


@pytest.mark.parametrize("block", _BLOCKS)
def test_a_text_none_of_whose_words_begins_a_term_holds_no_candidate(block: str) -> None:
    """Auto-linking reads a text node's block only if a word of the node may begin a term:
    every piece of a block (cut at every place between two words, as inline markup cuts
    it) where none may begins no candidate of the block either."""
    import itertools

    from sphinxcontrib_gpuglossary.linking.matcher import Matcher
    from sphinxcontrib_gpuglossary.linking.words import words

    matcher = Matcher.build(SEEDED, ["en", "zh"])
    cuts = sorted({0, len(block), *(w.start for w in words(block)), *(w.end for w in words(block))})
    skipped = found = 0
    for start, end in itertools.combinations(cuts, 2):
        if matcher.may_start(block[start:end]):
            found += bool(matcher.candidates(block, start, end))
        else:
            skipped += 1
            assert matcher.candidates(block, start, end) == [], block[start:end]
    assert skipped and (found or not matcher.candidates(block))


def test_the_walks_of_a_page_find_what_findall_finds(make_site, build) -> None:
    """:func:`terms_in` and :func:`running_texts` walk a page without a generator per
    node: the same nodes, in the same order, as ``findall`` on pages with tables, lists,
    literal blocks, a parsed literal with inline markup, footnotes and terms."""
    srcdir = make_site("autolink", {"index.rst": (
            "Home\n====\n\nThe :gpu-term:`KV cache` and *the GPU* [#n]_.\n\n"
            "* a list with **CUDA** and `a link <https://example.org>`_\n"
            "* nested\n\n  1. the tensor parallelism\n\n"
            "+-------+-----------------+\n| head  | FSDP and NCCL   |\n+=======+=================+\n"
            "| cell  | quantization    |\n+-------+-----------------+\n\n"
            "::\n\n   code with a GPU\n\n"
            ".. parsed-literal::\n\n   parsed *GPU* text and the KV cache\n\n"
            ".. [#n] A footnote on checkpoint files.\n")})
    conf = srcdir / "conf.py"
    conf.write_text(conf.read_text() + "gpuglossary_autolink = 'all'\n")
    doctree = build(srcdir).app.env.get_doctree("index")
    assert our_nodes.terms_in(doctree) == list(doctree.findall(our_nodes.gpu_term))
    assert len(our_nodes.terms_in(doctree)) >= 5
    texts = [t for t in doctree.findall(nodes.Text) if isinstance(t.parent, nodes.TextElement)]
    assert our_nodes.running_texts(doctree) == texts
    assert any(isinstance(t.parent, nodes.FixedTextElement) for t in texts)


def test_running_texts_leave_out_text_whose_parent_holds_no_text() -> None:
    """A text node right inside a structural element (as an extension may leave one) is
    no running text; the paragraph's is."""
    section = nodes.section("", nodes.Text("loose"), nodes.paragraph("", "kept"))
    assert [str(t) for t in our_nodes.running_texts(section)] == ["kept"]


@pytest.mark.parametrize("block", _BLOCKS)
def test_a_block_whose_text_was_just_probed_is_read_as_a_fresh_one(block: str) -> None:
    """:meth:`Matcher.may_start` keeps the words it folded; a paragraph of one text node
    is then read from them (its block is the same text, another string object): the same
    candidates as a matcher that never probed it, and as one that probed another text."""
    from sphinxcontrib_gpuglossary.linking.matcher import Matcher

    fresh, probed, elsewhere = (Matcher.build(SEEDED, ["en", "zh"]) for _ in range(3))
    probed.may_start(block)
    elsewhere.may_start("Another text, with a GPU in it.")
    same = "".join(list(block))  # equal, not identical
    assert same is not block and probed._probed[0] == same
    expected = fresh.candidates(block)
    assert probed.candidates(same) == expected
    assert elsewhere.candidates(same) == expected


def test_a_phrase_made_with_the_terms_first_words_given_is_the_one_made_without() -> None:
    from sphinxcontrib_gpuglossary.linking import rules
    from sphinxcontrib_gpuglossary.linking.matcher import _parts

    for term in SEEDED.terms.values():
        most_first = _parts([term.names["en"], *term.aliases.get("en", ())])[1]
        firsts = rules.first_words(most_first)
        for text in (*term.linking.not_in, *term.linking.only_in, *term.linking.other_senses):
            assert rules.Phrase.make(text, most_first, firsts) == \
                rules.Phrase.make(text, most_first)
