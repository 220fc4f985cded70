"""Whether a word spelt like a term is the term: the rules of one term and of the language.

A rule about one term lives in the glossary data (``linking:``: the longer
names in which it means something else, the phrases it links only in), so a
site's own term file can say it too; :class:`Phrase` is one such phrase made
ready to compare. A rule about the language lives here: idioms, names of
products and libraries written in capitals, identifiers. Each rule that says
no gives the reason a writer is told (``scan --explain``).

Nothing here imports Sphinx or docutils.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .words import Word, capitalised, gap, is_cjk, word_start, words

#: Around inline code in the text the rules read, as a source writes it: the words on
#: either side of code are no phrase (``the `model` parameter``).
CODE_MARK = "`"
#: ``#`` in a phrase: a number as model sizes and counts are written (``7B``, ``1.5T``, ``70``).
_NUMBER = re.compile(r"\d[\d.,]*(?:[a-zA-Z]{1,2})?|\d+x\d+[a-zA-Z]?")
#: Idioms in which a term's word means something else, whatever the glossary: the
#: phrase and the word of it that is spelt like a term.
IDIOMS = ("pay attention", "pays attention", "paid attention", "paying attention",
          "your attention", "our attention", "my attention", "their attention",
          "serving as", "serves as", "serve as", "serving two purposes", "serving a purpose",
          "serving the purpose", "serving a dual purpose", "loss of generality",
          "at a loss", "without loss of", "the attention of", "draw attention", "draws attention",
          "drew attention", "drawn attention", "drawing attention", "bring attention",
          "brings attention",
          # a verb and one word between ("pay close attention", "attracting growing attention")
          "pay * attention", "pays * attention", "paid * attention", "paying * attention",
          "attract attention", "attracts attention", "attracted attention",
          "attracting attention", "attract * attention", "attracts * attention",
          "attracted * attention", "attracting * attention", "gained attention",
          "gaining attention", "gained * attention", "gaining * attention",
          "garnered attention", "garnered * attention", "deserve attention",
          "deserves attention", "deserved attention", "deserve * attention",
          "deserves * attention", "deserved * attention", "draw * attention",
          "draws * attention", "drew * attention", "drawn * attention", "drawing * attention",
          # codes of conduct (the Contributor Covenant)
          "sexual attention")
#: Words after a name that say it names a software package (``the transformers library``).
_PACKAGE_WORDS = frozenset({"library", "libraries", "package", "packages", "module", "modules",
                            "sdk", "crate"})
#: What ends a sentence: after it a capital says nothing about a name.
_SENTENCE_END = re.compile(r"(?:^|[.!?:;]|\n\s*\n)[\s\"'“‘(\[*_]*$")
#: Marks that glue a word into code when they touch it: ``--flag``, ``a=b``, ``f(x)``.
_CODE_BEFORE = frozenset("=@#$%\\<>{}")
_CODE_AFTER = frozenset("=(@$\\<>{}")


_Way = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Phrase:
    """A phrase of a term's ``linking`` rules, as the words before and after the term's
    own: one way per spelling of the term the phrase holds (``Hugging Face Hub`` holds
    ``Hugging Face Hub`` and ``Hugging Face``). Tuples throughout: a build keeps a
    thousand of these, and the garbage collector skips tuples of strings."""

    text: str
    #: ``(before, own words, after)``, longest own words first (one or two, most often)
    ways: tuple[_Way, ...]

    @classmethod
    def make(cls, text: str, spellings: Sequence[tuple[int, Collection[tuple[str, ...]]]],
             firsts: Collection[str] | None = None) -> Phrase | None:
        """*text* split around each spelling of the term it holds; *spellings*: the term's
        spellings as folded words, by their number of words, the most first; *firsts*:
        their first words, when the caller has them (a term has many phrases)."""
        folded = text.casefold()
        if firsts is None:
            firsts = first_words(spellings)
        if not any(first in folded for first in firsts):
            return None  # (most phrases of a term are in the build's other languages)
        parts = [w for token in folded.split() for w in _token_words(token)]
        starts = [i for i, part in enumerate(parts) if part in firsts]
        ways = []
        for size, spelt in spellings:
            for i in starts:
                own = tuple(parts[i:i + size])
                if len(own) == size and own in spelt:
                    ways.append((tuple(parts[:i]), own, tuple(parts[i + size:])))
        return cls(text, tuple(ways)) if ways else None

    def alternatives(self) -> list[tuple[tuple[str, ...], str]]:
        """Regular expressions of the phrase as a page may write it (read in any case),
        one a way, each with its words spelt out (every word but ``#`` and ``*``): words
        apart with spaces or hyphens, or none beside a CJK character; the words after the
        term's own, or its own last word, also in the plural."""
        return [(tuple(w for w in (*before, *own, *after) if w not in ("#", "*")),
                 _way_pattern(before, own, after)) for before, own, after in self.ways]

    def around(self, text: str, found: list[Word], first: int, last: int) -> bool:
        """Whether words *first* to *last* of *found* (in *text*) stand inside this phrase:
        where the phrase holds these very words, or else another spelling of as many
        words (``model parameters`` holds ``parameter`` too)."""
        own = tuple(w.text.casefold() for w in found[first:last + 1])
        # a phrase that is only a spelling rules that spelling alone (not_in: [transformers]);
        # words run together are the same spelling (HuggingFace for Hugging Face)
        ways = [way for way in self.ways if way[1] == own]
        if not ways:
            joined = "".join(own)
            around = [way for way in self.ways if way[0] or way[2]]
            ways = [way for way in around if "".join(way[1]) == joined] \
                or [way for way in around if len(way[1]) == len(own)
                    and not (way[2] and _plural_of(own[-1], way[1][-1]))]
        return any(_stands_in(text, found, first, last, before, after)
                   for before, _own, after in ways)


def _plural_of(written: str, word: str) -> bool:
    """Whether *written* is the plural of *word*: a noun before the word it qualifies is
    in the singular (``parameters and allocated memory`` holds no ``parameter memory``)."""
    return written != word and written.startswith(word) and written[len(word):] in ("s", "es")


def first_words(spellings: Sequence[tuple[int, Collection[tuple[str, ...]]]]) -> frozenset[str]:
    """The first words of a term's *spellings* (as :meth:`Phrase.make` takes them)."""
    return frozenset(own[0] for _size, spelt in spellings for own in spelt)


def _way_pattern(before: tuple[str, ...], own: tuple[str, ...], after: tuple[str, ...]) -> str:
    """One way of a phrase (:meth:`Phrase.pattern`)."""
    spelt = (*before, *own, *after)
    plural = len(spelt) - 1 if not after else len(before) + len(own)  # the first that may be
    out = ""
    for k, word in enumerate(spelt):
        if k:
            out += "" if is_cjk(spelt[k - 1][-1]) or is_cjk(word[0]) else r"[\s-]+"
        out += _word_pattern(word, k >= plural)
    # \b where a word character stands at the edge: five times faster than a lookaround
    return (_edge(spelt[0], 0, r"(?<!\w)") + f"(?:{out})" + _edge(spelt[-1], -1, r"(?!\w)"))


def plain_phrase_pattern(phrase: str) -> str:
    """A regular expression of a phrase of plain words (no term in it), as a page may
    write it: whole words, apart with spaces or hyphens."""
    spelt = phrase.split()
    out = r"[\s-]+".join(re.escape(word) for word in spelt)
    before, after = spelt[0][0], spelt[-1][-1]
    return ("" if is_cjk(before) else r"\b" if before.isalnum() else r"(?<!\w)") \
        + f"(?:{out})" + ("" if is_cjk(after) else r"\b" if after.isalnum() else r"(?!\w)")


def _edge(word: str, at: int, around: str) -> str:
    """What must stand outside a phrase whose first or last word (*at*) is *word*."""
    if is_cjk(word[at]):
        return ""
    return around if word == "*" else r"\b"


def _word_pattern(word: str, plural: bool) -> str:
    if word == "#":
        return _NUMBER.pattern
    if word == "*":
        return r"[^\s]+"
    return re.escape(word) + ("(?:e?s)?" if plural and word.isalpha() else "")


@functools.lru_cache(maxsize=4096)
def _token_words(token: str) -> tuple[str, ...]:
    """The words of one token of a phrase (``#`` and ``*`` are words of their own there);
    the tokens of a term's phrases repeat (every phrase holds the term)."""
    return (token,) if token in ("#", "*") else tuple(w.text for w in words(token))


class Phrases:
    """A term's phrases of one kind (``not_in`` or ``only_in``), looked up by the words
    on either side of the term's own: a phrase is read only where a word beside the term
    is the word it has there (or it has a wildcard there, or no word at all). A term
    such as *Hugging Face* has hundreds of phrases in fourteen languages."""

    __slots__ = ("_always", "_beside", "phrases")

    def __init__(self, phrases: Sequence[Phrase]) -> None:
        self.phrases = tuple(phrases)
        beside: dict[str, list[int]] = {}
        always: list[int] = []
        for n, phrase in enumerate(self.phrases):
            keys: set[str] = set()
            for before, _own, after in phrase.ways:
                sides = [side for side in (before[-1:], after[:1]) if side]
                if not sides or any(side[0] in ("*", "#") for side in sides):
                    always.append(n)
                    break
                keys.update(side[0] for side in sides)
            else:
                for key in keys:
                    beside.setdefault(key, []).append(n)
        self._beside = {key: tuple(numbers) for key, numbers in beside.items()}
        self._always = tuple(always)

    def __bool__(self) -> bool:
        return bool(self.phrases)

    def __iter__(self) -> Iterator[Phrase]:
        return iter(self.phrases)

    def holding(self, text: str, found: list[Word], first: int, last: int) -> Phrase | None:
        """The first phrase that words *first* to *last* stand inside, if any."""
        after = last + 1
        if after < len(found) and (found[after].text.casefold() in _CONJUNCTIONS
                                   or text[found[last].end:found[last].end + 1] in (",", "/")):
            numbers: Iterable[int] = range(len(self.phrases))  # coordinated: any head after
        else:
            near = [found[first - 1].text.casefold()] if first else []
            if after < len(found):
                near.append(found[after].text.casefold())
                near += [near[-1][:-cut] for cut in (1, 2) if _same(near[-1][:-cut], near[-1])]
            numbers = sorted({*self._always, *(n for word in near
                                               for n in self._beside.get(word, ()))})
        return next((self.phrases[n] for n in numbers
                     if self.phrases[n].around(text, found, first, last)), None)


#: Words that join the last of coordinated words (``PyTorch and TurboMind engines``).
_CONJUNCTIONS = frozenset({"and", "or"})
_MOST_CONJUNCTS = 4


def last_conjunct(text: str, found: list[Word], i: int) -> int | None:
    """The index of the last of the single words coordinated with word *i* (``tensor,
    pipeline, and expert`` in ``tensor, pipeline, and expert parallelism``), if any."""
    k = i
    for _ in range(_MOST_CONJUNCTS):
        if k + 2 >= len(found):
            return None
        between = text[found[k].end:found[k + 1].start]
        joining = found[k + 1].text.casefold() in _CONJUNCTIONS
        if between in (", ", ",") and not joining:
            k += 1
            continue
        if between == "/":
            return k + 1
        if between in (" ", ", ") and joining \
                and text[found[k + 1].end:found[k + 2].start] == " ":
            return k + 2
        return None
    return None


def _stands_in(text: str, found: list[Word], first: int, last: int,
               before: tuple[str, ...], after: tuple[str, ...]) -> bool:
    if _stands_in_as_written(text, found, first, last, before, after):
        return True
    if not after or after[0] in ("*", "#") or before or last + 1 >= len(found) or not (
            text[found[last].end:found[last].end + 1] in (",", "/")
            or found[last + 1].text.casefold() in _CONJUNCTIONS):
        return False
    # the phrase's head after coordinated words: "PyTorch and TurboMind backends" (a head
    # that is a word, not a wildcard: "fine-tuning and training of AI models" holds no
    # "fine-tuning * * models"); not after the term's own word again, which names the
    # longer thing beside the term itself ("SDXL and SDXL-Turbo")
    k = last_conjunct(text, found, last)
    return k is not None and found[k].text.casefold() != found[last].text.casefold() \
        and _stands_in_as_written(text, found, k, k, (), after)


def _stands_in_as_written(text: str, found: list[Word], first: int, last: int,
                          before: tuple[str, ...], after: tuple[str, ...]) -> bool:
    start, end = first - len(before), last + 1 + len(after)
    if start < 0 or end > len(found):
        return False
    if any(gap(text, found[k], found[k + 1]) is None for k in range(start, end - 1)):
        return False
    return all(_same(want, w.text.casefold(), plural=False)
               for want, w in zip(before, found[start:first], strict=True)) \
        and all(_same(want, w.text.casefold()) for want, w in zip(after, found[last + 1:end],
                                                                   strict=True))


def _same(want: str, got: str, plural: bool = True) -> bool:
    """Whether the word *got* is the phrase's word *want*, or (with *plural*: a word
    after the term) its plural: ``Hugging Face config`` holds ``Hugging Face configs``,
    while a word before the term is read as written (``models parameter`` is no ``model
    parameter``)."""
    if want == "#":
        return bool(_NUMBER.fullmatch(got))
    return want == "*" or want == got or (
        plural and got[len(want):] in ("s", "es") and got.startswith(want) and want.isalpha())


def _idiom_ways() -> dict[tuple[str, ...], list[tuple[str, tuple[str, ...], tuple[str, ...]]]]:
    """Each run of words of each idiom, with the idiom and its words before and after."""
    ways: dict[tuple[str, ...], list[tuple[str, tuple[str, ...], tuple[str, ...]]]] = {}
    for name in IDIOMS:
        parts = tuple(name.casefold().split())  # ("*": any one word)
        for i in range(len(parts)):
            for j in range(i + 1, len(parts) + 1):
                ways.setdefault(parts[i:j], []).append((name, parts[:i], parts[j:]))
    return ways


_IDIOM_WAYS = _idiom_ways()


def idiom(text: str, found: list[Word], first: int, last: int) -> str | None:
    """The idiom words *first* to *last* of *found* stand in, if any."""
    spelt = tuple(w.text.casefold() for w in found[first:last + 1])
    return next((name for name, before, after in _IDIOM_WAYS.get(spelt, ())
                 if _stands_in(text, found, first, last, before, after)), None)


def sentence_start(text: str, word: Word) -> bool:
    """Whether *word* opens a sentence (or the text)."""
    return bool(_SENTENCE_END.search(text[:word.start]))


def _title(word: str) -> bool:
    """``Inference``: a capital, then small letters (not ``GPU``, ``PyTorch``)."""
    return word[:1].isupper() and word[1:] == word[1:].lower()


#: Small words a title leaves in lower case.
_TITLE_SMALL = frozenset({"a", "an", "the", "of", "and", "or", "for", "to", "in", "on", "with",
                          "per", "by", "vs", "at", "from", "as"})


def title_case_text(text: str) -> bool:
    """Whether *text* is written in title case, every word capitalised but the small
    ones: a label or table cell (``GPU Memory Bandwidth Usage``), whose capitals say
    nothing about names."""
    found = [w.text for w in words(text) if w.text[:1].isalpha()]
    return len(found) > 1 and all(capitalised(w) or w in _TITLE_SMALL for w in found)


#: Small words that open a sentence with a capital they would not have inside it.
_OPENERS = _TITLE_SMALL | frozenset({
    "this", "these", "that", "those", "our", "your", "its", "their", "my", "each", "every",
    "all", "some", "both", "any", "no", "when", "if", "while", "after", "before", "use",
    "using", "enable", "enabling", "run", "running", "see", "why", "how", "what"})

#: Last words of a product's or service's name (``Cloud Autoscaling API``).
_PRODUCT_HEADS = frozenset({"api", "apis", "server", "service", "engine", "runtime", "toolkit",
                            "operator", "platform", "sdk", "cloud", "registry", "system",
                            "suite", "studio", "hub", "gateway"})


def part_of_name(text: str, found: list[Word], first: int, last: int) -> str | None:
    """The capitalised name that words *first* to *last* (a common word: the term is
    no proper name) are part of: ``Triton Inference Server``, ``Hugging Face
    Transformers``, ``NVIDIA Container Runtime``, ``Transformer Engine``, ``Token-Level
    Policy Gradient Loss`` (a hyphen joins the name after the term, not before it:
    ``Multi-Model Serving`` is serving). In a text all
    in title case (a label, a table cell) only a name that ends like a product's does
    (``Cloud Autoscaling API``, not ``GPU Memory Bandwidth Usage``)."""
    span = found[first:last + 1]
    if not all(_title(w.text) for w in span):
        return None
    start, end = first, last
    while start and capitalised(found[start - 1].text) \
            and text[found[start - 1].end:found[start].start] == " " \
            and not sentence_start(text, found[start]):
        start -= 1
    while end + 1 < len(found) and capitalised(found[end + 1].text) \
            and text[found[end].end:found[end + 1].start] in (" ", "-") \
            and found[end + 1].text not in ("I", "A"):
        end += 1
    if start == first and end == last:
        return None
    if start == first - 1 and end == last and sentence_start(text, found[start]) \
            and found[start].text.casefold() in _OPENERS:
        return None  # "The Inference": a small word that opens a sentence says nothing
    if title_case_text(text) and found[end].text.casefold() not in _PRODUCT_HEADS:
        return None
    return text[found[start].start:found[end].end]


#: Words hyphened on before a term to say what kind of it (``Multi-GPU``, ``Per-tensor``,
#: ``Non-tensor``, ``High-throughput``, ``Full-parameter``, ``Native-PyTorch``): no name.
_KIND_PREFIXES = frozenset({
    "multi", "single", "dual", "per", "non", "high", "low", "full", "half", "mixed", "cross",
    "semi", "sub", "pre", "post", "co", "self", "auto", "inter", "intra", "mid", "over",
    "under", "re", "un", "anti", "pseudo", "quasi", "super", "ultra", "hyper", "all", "any",
    "native", "fine", "large", "small", "long", "short", "zero", "one", "two", "four", "eight",
    "fast", "slow", "end", "open", "custom", "out", "off", "on", "top", "user",
    "ai", "ml", "dl"})
#: A number format's name (``FP32-FP16``, ``INT4-FP8``): two formats, no name.
_NUMBER_FORMAT = re.compile(r"(?:U?INT|FP|BF|TF|E\dM)\d+")


def hyphened_name(text: str, found: list[Word], first: int,
                  term_words: Collection[str]) -> str | None:
    """The name the term is hyphened onto, which it is only a part of: a model's
    (``Qwen2-MoE``, ``DeepSeek-MoE``: a word with small letters and a digit or an inner
    capital; not ``8-GPU``), or a library's, model's or method's (``Dask-CUDA``,
    ``RAD-TTS``, ``Lion-Pytorch``, ``MTL-LoRA``, ``Ring-Attention``: a capitalised word
    that begins no term, *term_words* folded, and is no English word that says what kind,
    ``Multi-GPU``, ``Per-tensor``; ``LLM-MoE``, ``Prefill-Decode`` and ``FP32-FP16`` join
    two terms and stay linked). The model's name is given up to the term, the other up to
    the end of the hyphened word."""
    if not first:
        return None
    before = found[first - 1]
    name = before.text
    if text[before.end:found[first].start] != "-":
        return None
    start = before.start
    while start and not text[start - 1].isspace():
        start -= 1
    if any(c.islower() for c in name) and (
            any(c.isdigit() for c in name) or name[1:] != name[1:].lower()):
        return text[start:found[first].end]
    folded = name.casefold()
    if not name[:1].isupper() or folded in term_words or folded in _KIND_PREFIXES \
            or _NUMBER_FORMAT.fullmatch(name):
        return None
    end = found[first].end
    while end < len(text) and not text[end].isspace() and text[end] not in ",;:)]}\"'`*":
        end += 1
    return text[start:end].rstrip(".")


#: The colon of Chinese and Japanese text, which writers used to it also put after an
#: English label, with no space after it (``Attention：demo sdk need``).
_FULL_WIDTH_COLON = "\uff1a"
#: A dash between spaces after a label (``Docker - build it in a container``).
_DASHES = frozenset({" - ", " – ", " — "})
#: Words a label opening a paragraph or list item may have (``Dataset:``, ``GPU memory:``).
_LABEL_WORDS = 3


#: After a label's colon: the end of its line, then its paragraph's text.
_OVER_TEXT = re.compile(r":[ \t]*\n\s*\S")


def _label_line(text: str, opening: Word, end: int) -> bool:
    """Whether the words from *opening* to *end* and a colon are a line of their own over
    their paragraph's text, not a line that leads into a code block nor one a preposition
    opens (``On GPU platforms:``)."""
    return bool(_OVER_TEXT.match(text, end)) and opening.text.casefold() not in _TITLE_SMALL


def field_label(text: str, found: list[Word], first: int, last: int) -> str | None:
    """The label that opens the text and that words *first* to *last* stand in, if any: two
    words, or three in title case or on a line of their own, then a colon (a full-width
    one too) or a spaced dash (``Dataset: GSM8K``, ``Inference: see the guide``, ``Docker -
    build it``, ``Attention：demo``, ``Latest checkpoint detection:`` over the text of its
    paragraph, not ``Merge LoRA weights:`` alone before a code block), as a list item or
    paragraph names its subject first."""
    if first >= _LABEL_WORDS or text[:found[0].start].strip(" \t\n*-•"):
        return None
    for k in range(last, min(len(found), _LABEL_WORDS)):
        after = text[found[k].end:found[k].end + 3]
        colon = after[:1] == _FULL_WIDTH_COLON or (
            after[:1] == ":" and after[1:2] in (" ", "\n", "\t", ""))
        if colon or after in _DASHES:
            label = text[found[0].start:found[k].end]
            if any(c in label for c in ".,;:!?()") or (
                    k == 2 and not all(capitalised(w.text) for w in found[:3])
                    and not _label_line(text, found[0], found[k].end)):
                return None  # three words in lower case may be a clause: "FSDP shards weights:"
            return label + (after[:1] if colon else f" {after.strip()}")
        if k + 1 < len(found) and not _spaced(text, found[k], found[k + 1]):
            return None
    return None


#: A hyphened tail with a digit: a version or size that makes the words a model's id.
_MODEL_TAIL = re.compile(r"-[a-z]*\d[\w.]*|-[a-z]+(?:-[\w.]+)*-v?\d[\w.]*")


#: A variant's name after a model's dotted version (``FLUX.1-dev``, ``FLUX.1-schnell``;
#: ``FP16-speed`` is no variant: a format's width is no version).
_VARIANT_TAIL = re.compile(r"-[a-z]{2,}\b")


def model_id(text: str, start: int, end: int) -> str | None:
    """``stable-diffusion-v1.5``, ``stable-diffusion-xl-base-1.0``, ``FLUX.1-dev``: words
    in lower case with a hyphened tail that holds a version or size, or a name with a
    dotted version and a variant's, as model ids are written."""
    written = text[start:end]
    tail = _MODEL_TAIL.match(text, end) if written.islower() else \
        _VARIANT_TAIL.match(text, end) if written[-1:].isdigit() and "." in written else None
    return None if tail is None else written + tail.group()


#: The word before a parenthesis that may be an acronym, and how far back its "(" may stand.
_ACRONYM_BEFORE = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9-]{1,11}) ?$")
_EXPANSION_CHARACTERS = 160
#: An acronym in parentheses after the name it spells: ``(ConFIG)``, ``(SDPA)``.
_ACRONYM_IN_PARENTHESES = re.compile(r"\(([A-Za-z][A-Za-z0-9-]{1,11})\)")


def acronym_expansion(text: str, found: list[Word], first: int, last: int,
                      term_words: Collection[str]) -> str | None:
    """The name words *first* to *last* are part of where it spells out the acronym
    before it: ``iBOT (image BERT pre-training with Online Tokenizer)``, ``JWT (JSON Web
    Token)``, ``MTP (Multi-Token Prediction)``; the acronym's letters are initials of its
    words, in order. Not where the term is all of it (``TP (tensor parallelism)``), nor
    where every word begins a term (*term_words*: ``PD (Prefill-Decode)`` names two)."""
    start, end = found[first].start, found[last].end
    opening = text.rfind("(", max(0, start - _EXPANSION_CHARACTERS), start)
    closing = text.find(")", end, end + _EXPANSION_CHARACTERS)
    if opening < 0 or closing < 0 or ")" in text[opening:start]:
        return None
    acronym = _ACRONYM_BEFORE.search(text, 0, opening)
    if acronym is None or sum(c.isupper() for c in acronym.group(1)) < 2:
        return None
    # the words between the parentheses (no word holds one)
    begin = bisect.bisect_right(found, opening, key=word_start)
    stop = bisect.bisect_left(found, closing, key=word_start)
    inside = found[begin:stop]
    if begin == first and stop == last + 1:
        return None  # the term is the whole name
    if all(w.text.casefold() in term_words for w in inside):
        return None
    letters = [c for c in acronym.group(1).casefold() if c.isalpha()]
    if not _spelt_by(letters, _initials(inside)):
        return None
    return text[opening + 1:closing]


def name_before_acronym(text: str, found: list[Word], first: int, last: int,
                        term_words: Collection[str]) -> tuple[str, str] | None:
    """The name words *first* to *last* are part of where the acronym in parentheses
    after it spells it out, with the acronym: ``Conflict-free inverse gradient (ConFIG)``,
    ``Scaled Dot-Product Attention (SDPA)``; the acronym's first letter and capitals are
    initials of the name's words, in order, the name's first word giving the first. Not
    where the term is all of it (``Tensor Parallelism (TP)``), nor where every word begins
    a term."""
    end = found[last].end
    opening = text.find("(", end, end + _EXPANSION_CHARACTERS)
    if opening < 0 or any(c in ".,;:!?()" for c in text[end:opening]):
        return None  # none, or the term's sentence or clause ends before it
    acronym = _ACRONYM_IN_PARENTHESES.match(text, opening)
    if acronym is None or sum(c.isupper() for c in acronym.group(1)) < 2:
        return None
    stop = bisect.bisect_left(found, opening, key=word_start)  # the first word after the name
    spelt = acronym.group(1)
    letters = [spelt[0].casefold(), *(c.casefold() for c in spelt[1:] if c.isupper())]
    for begin in range(first, max(-1, first - len(letters)), -1):
        name = found[begin:stop]
        if begin == first and stop == last + 1:
            continue  # the term is the whole name
        if all(w.text.casefold() in term_words for w in name):
            return None
        initials = _initials(name)
        if len(initials) == len(letters) and _spelt_by(letters, initials):
            return text[found[begin].start:acronym.end()], spelt
    return None


def acronym_meanings(page: str, acronym: str) -> Iterator[str]:
    """The names *page* spells *acronym* out as: ``Adversarial Motion Priors (AMP)``, ``AMP
    (Adversarial Motion Priors)``. The acronym's first letter and capitals are the initials
    of the name's words, in order: exactly so for a name before the parenthesis (read back
    to the start of its clause), and among them, the first word giving the first, for a
    name inside it."""
    letters = [acronym[0].casefold(), *(c.casefold() for c in acronym[1:] if c.isupper())]
    parenthesised = f"({acronym})"
    at = page.find(parenthesised)
    while at >= 0:
        clause = page[max(0, at - _EXPANSION_CHARACTERS):at]
        clause = clause[max(map(clause.rfind, ".,;:!?()\n")) + 1:]  # the name's clause
        name = words(clause)[-len(letters):]
        if len(name) == len(letters) and _initials(name) == letters:
            yield clause[name[0].start:name[-1].end]
        at = page.find(parenthesised, at + 1)
    if f"{acronym}(" not in page and f"{acronym} (" not in page:
        return  # (most pages that write an acronym never spell it out: a look is enough)
    inside_pattern = rf"(?<![\w-]){re.escape(acronym)} ?\(([^()\n]{{3,{_EXPANSION_CHARACTERS}}})\)"
    for spelt in re.finditer(inside_pattern, page):
        inside = words(spelt.group(1))
        if len(inside) <= 2 * len(letters) and _spelt_by(letters, _initials(inside)):
            yield spelt.group(1)


def _initials(name: list[Word]) -> list[str]:
    """The first letters of the words of *name* that begin with a letter, case-folded."""
    return [w.text[0].casefold() for w in name if w.text[0].isalpha()]


def _spelt_by(letters: list[str], initials: list[str]) -> bool:
    """Whether *letters* are among *initials* in order, the first initial the first letter."""
    if not initials or initials[0] != letters[0]:
        return False
    remaining = iter(initials)
    return all(letter in remaining for letter in letters)  # in order (``in`` consumes)


def package_name(text: str, found: list[Word], last: int) -> str | None:
    """``the transformers library``: the word after the term in the plural says it names
    a package. A word in the singular there says what the package is for (``a tensor
    library``, ``the quantization module``, ``loss modules``)."""
    word = found[last].text.casefold()
    if not word.endswith("s") or word.endswith("ss"):
        return None
    after = _word_after(text, found, last)
    if after is not None and after.text.casefold() in _PACKAGE_WORDS:
        return f"{found[last].text} {after.text}"
    return None


def _word_after(text: str, found: list[Word], last: int) -> Word | None:
    """The word one space after word *last*, if any (what a name's head word would be)."""
    if last + 1 < len(found) and text[found[last].end:found[last + 1].start] == " ":
        return found[last + 1]
    return None


#: Words after a product's name that make the two the name of another project's part
#: named after the product (``a custom Ollama provider``, ``the Ollama distribution`` of
#: a stack). Not *frontend*: a framework's is often its own (``PyTorch frontend APIs``,
#: ``the cuDNN frontend``), as against a compiler's for it (``the PyTorch frontend`` of
#: hls4ml).
_COMPONENT_WORDS = frozenset({"provider", "providers", "distribution", "distributions"})


def component_name(text: str, found: list[Word], last: int) -> str | None:
    """``an Ollama provider``: a product's name and a word after it, in small letters,
    that says it names a part of this project made for the product, not the product (a
    table's column head, capitalised, names what the column lists: ``Ollama`` under
    *Provider* is the product)."""
    after = _word_after(text, found, last)
    if after is not None and after.text in _COMPONENT_WORDS:
        return f"{found[last].text} {after.text}"
    return None


#: After a gerund: it takes an object, so it is a verb (``offloading these tensors``).
#: Not *that*: after a gerund it is a relative pronoun (``activation checkpointing that
#: recomputes``).
_OBJECTS = frozenset({"the", "a", "an", "this", "these", "those", "its", "their",
                      "our", "your", "my", "his", "her", "each", "every", "all", "some",
                      "both", "several", "multiple", "it", "them", "us", "you"})
#: After ``to`` and a word's base form, an object's determiner makes it an infinitive.
_DETERMINERS = frozenset({"the", "a", "an", "this", "these", "those", "its", "their", "our",
                          "your", "my"})
#: Endings of words that are no verb's base form (``to quantization the``).
_NOUN_ENDINGS = ("tion", "sion", "ing", "ment", "ness", "ity", "ism")
#: After a name, an apostrophe and a verb's ending make it a verb (``SSH'ing``, ``SSH'd``).
_APOSTROPHE_VERB = re.compile(r"['\u2019](?:ing|ed|d)(?!\w)")
#: Before a gerund: a form of *be* makes it a verb (``we're fine-tuning``).
_BE = frozenset({"am", "is", "are", "was", "were", "be", "been", "being", "re", "m"})
#: Before ``to`` and a word's base form: an infinitive follows (``how to inference``).
_TO_VERB = frozenset({"how", "want", "wants", "need", "needs", "able", "unable", "going",
                      "tries", "try", "learn", "used"})
#: Before a word's base form: a modal makes it a verb (``will warmup``).
_MODALS = frozenset({"will", "would", "can", "could", "should", "may", "might", "must",
                     "shall", "cannot"})
#: Before *not*, with a modal: the auxiliary *do* (``does not overfit``).
_DO = frozenset({"do", "does", "did"})
#: Before ``n't`` (split off as a word ``t``): the auxiliaries (``doesn't overfit``).
_NEGATED = frozenset({"don", "doesn", "didn", "won", "can", "couldn", "wouldn", "shouldn",
                      "mustn"})


def verb_use(text: str, found: list[Word], first: int, last: int) -> str | None:
    """Whether the term's word is used as a verb: a gerund with an object, after *be* or
    after *not* (``fine-tuning a base model``, ``we're fine-tuning``, ``when not
    fine-tuning``), a word after a modal or a negated auxiliary (``will warmup``,
    ``doesn't overfit``), or a name made a verb with an apostrophe (``after SSH'ing
    into it``). A term is a thing or a process, never an action in a clause."""
    ending = _APOSTROPHE_VERB.match(text, found[last].end)
    if ending is not None:
        return text[found[first].start:ending.end()]
    word = found[last].text.casefold()
    before = found[first - 1].text.casefold() \
        if first and _spaced(text, found[first - 1], found[first]) else ""
    after = found[last + 1].text.casefold() \
        if last + 1 < len(found) and _spaced(text, found[last], found[last + 1]) else ""
    if word.endswith("ing") and (after in _OBJECTS or before in _BE or before == "not"):
        return text[found[first - 1 if before else first].start:
                    found[last + 1 if after in _OBJECTS else last].end]
    if first == last and word.isalpha() and word.islower():
        auxiliary = _auxiliary(text, found, first - 1) if before else None
        if auxiliary is not None:
            return text[found[auxiliary].start:found[first].end]
    if before == "to" and first > 1 and word.islower() \
            and found[first - 2].text.casefold() in _TO_VERB \
            and _spaced(text, found[first - 2], found[first - 1]):
        return text[found[first - 2].start:found[last].end]  # "how to inference models"
    if before == "to" and after in _DETERMINERS and first == last and word.islower() \
            and not word.endswith(_NOUN_ENDINGS):
        return text[found[first - 1].start:found[last + 1].end]  # "code to inference the model"
    return None


def _auxiliary(text: str, found: list[Word], k: int) -> int | None:
    """Where the modal or negated auxiliary that word *k* ends begins (``will``,
    ``cannot``, ``does not``, ``doesn't``), if it is one: a word after it is a verb."""
    word = found[k].text.casefold()
    if word in _MODALS:
        return k
    if k and word == "not" and found[k - 1].text.casefold() in _DO | _MODALS \
            and _spaced(text, found[k - 1], found[k]):
        return k - 1
    if k and word == "t" and found[k - 1].text.casefold() in _NEGATED \
            and text[found[k - 1].end:found[k].start] in ("'", "\u2019"):
        return k - 1
    return None


def _spaced(text: str, left: Word, right: Word) -> bool:
    """Whether only spaces (or an apostrophe: ``we're``) stand between two words."""
    between = text[left.end:right.start]
    return between.isspace() or between in ("'", "’")


_SENTENCE = re.compile(r"[.!?](?:\s|$)|\n\s*\n")


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence of *text* that holds *start*..*end* starts and ends."""
    opening = max((m.end() for m in _SENTENCE.finditer(text, 0, start)), default=0)
    closing = _SENTENCE.search(text, end)
    return opening, closing.start() if closing else len(text)


#: ``f(x)``, ``model.parameters()``: a call, written as code.
_CALL = re.compile(r"\([\w.,\s=]*\)")
#: A colon glued to what follows: a device, port or tag (``cuda:0``, ``:8000``, ``:latest``).
_DEVICE = re.compile(r":[\w.-]")
#: An acronym's number, as prose writes a degree or setting (``TP=4``, ``LR=1e-4``).
_SETTING = re.compile(r"=\d[\d.]*(?:e-?\d+)?")
#: A path: from the root or home, relative, or with a file's extension or a scheme.
_PATH = re.compile(r"^(?:/|~|\.{1,2}/)|://|/[\w-]+\.\w{1,5}\b|\.\w{1,5}/")


def in_code(text: str, start: int, end: int) -> str | None:
    """The piece of code the match at *start*..*end* is glued into (``--max-batch-size``,
    ``batch_size=8``, ``model.parameters()``, ``/v1/tokens``), if any. Words joined by a
    slash (``DP/TP/EP``, ``tokenizer/chat-template``) are prose."""
    token_start, token_end = start, end
    while token_start and not text[token_start - 1].isspace():
        token_start -= 1
    while token_end < len(text) and not text[token_end].isspace():
        token_end += 1
    raw = text[token_start:token_end]
    token = raw.rstrip(".,;:!?)]}\"'”’").lstrip("([{\"'“‘")
    if token == text[start:end]:
        return None
    inner_start = token_start + len(raw) - len(raw.lstrip("([{\"'“‘"))
    before = text[inner_start:start]
    after = text[end:inner_start + len(token)]
    if not before and text[start:end].isupper() and _SETTING.fullmatch(after):
        return None  # "TP=4, PP=1": a degree or setting, as prose writes it
    if (token.startswith("-") and not token.startswith("- ")) or "_" in token:
        return token
    if (before and before[-1] in _CODE_BEFORE) or (after and after[0] in _CODE_AFTER - {"("}):
        return token
    if _CALL.match(after) or "::" in token or "." in before or _PATH.search(token):
        return token
    if _DEVICE.match(after):  # cuda:0, host:8000, image:tag
        return token
    return None


#: A small letter then a capital inside one word: a name as code writes it (``batchSize``).
CAMEL = re.compile(r"[a-z][A-Z]")


#: What follows a cited work's title in quotes (``", in Proceedings of Interspeech"``,
#: ``." Advances in ...``, ``", arXiv ..."``), or what comes before it (``et al.``, a year).
_VENUE_AFTER = re.compile(r"[\s,.;:]*(?:in\s+)?(?:The\s+)?(?:Proceedings?|Proc\.|Advances in|International|"
                          r"under review|to appear|submitted to|"
                          r"Conference|Workshop|Journal|Transactions|arXiv|IEEE|ACM|(?:19|20)\d\d\b"
                          # a journal's name, then the year: ``, Speech Communication, 2018``
                          r"|[A-Z][\w&.-]*(?:\s+(?:of|on|and|&|[A-Z][\w&.-]*)){0,6},\s*(?:19|20)\d\d\b)")
#: its authors' *et al.* or the year just before it, or an author's initial and surname
#: (``M. Ravanelli, M. Omologo, "Automatic ..."``)
_AUTHORS_BEFORE = re.compile(r"(?:et al\.?|\((?:19|20)\d\d\)|\b(?:19|20)\d\d"
                             r"|\b[A-Z]\.\s?(?:[A-Z]\.\s?)?[A-Z][\w'-]+)[\s,.:]*$")
#: Opening and closing double quotes; a title runs at most this far from the term.
_QUOTES = {"\"": "\"", "\u201c": "\u201d"}
_TITLE_REACH = 200
_TITLE_WORDS = 4


def cited_title(text: str, start: int, end: int) -> str | None:
    """The title of a cited work, in double quotes, that the match at *start* to *end* is
    part of: at least four words, with its venue or year after it or its authors' *et al.*
    or year before it (``P. Mermelstein (1976), "Distance measures for speech
    recognition, ..." in ...``). A paper's title names its subject, not the term. A
    title may run over lines of its paragraph (a reference wrapped in the source), not
    over a blank line."""
    paragraph_start = text.rfind("\n\n", 0, start) + 1
    for opening, closing in _QUOTES.items():
        at = text.rfind(opening, max(paragraph_start, start - _TITLE_REACH), start)
        if at < 0 or (opening == closing and text.count(opening, paragraph_start, at) % 2):
            continue  # no quote before it in its paragraph, or the one before closes a quote
        close = text.find(closing, end, end + _TITLE_REACH)
        if close < 0 or "\n\n" in text[end:close]:
            continue
        title = text[at + 1:close]
        if len(title.split()) >= _TITLE_WORDS and (
                _VENUE_AFTER.match(text, close + 1)
                or _AUTHORS_BEFORE.search(text, max(paragraph_start, at - 40), at)):
            return f"{opening}{' '.join(title.split())}{closing}"
    return None


#: A command-line option just before a word, after a space or a bracket or at the start:
#: ``--run latency``, ``--model-config-name=h100``, ``-t TOKEN`` (searched from a little
#: before the word, the lookbehind reading the whole text: a hyphen inside a word that the
#: search starts at is no option's)
_OPTION_BEFORE = re.compile(r"(?<![^\s(\[])(--?[A-Za-z][\w-]*)[ =]$")
_OPTION_REACH = 60


def after_option(text: str, start: int) -> str | None:
    """The command-line option that the word at *start* follows (``validate --run
    latency``, ``--dtype=bf16``, ``the --work-dir parameter``): the word is the option's
    value, or names the option. Corpus: 9 such mentions, none linked."""
    match = _OPTION_BEFORE.search(text, max(0, start - _OPTION_REACH), start)
    return match.group(1) if match is not None else None


def quoted_value(text: str, start: int, end: int) -> str | None:
    """The value a lower-case match stands for when straight quotes wrap exactly it, as
    settings, option values, keys and columns are written (``such as "cuda" or "cpu"``,
    ``the key "loss"``, ``a column called "tokens"``). The matcher asks it of a name, and
    of a common word only when it is one word: quotes around a term of several words
    introduce it (``known as "continuous batching"``)."""
    written = text[start:end]
    if not written.islower() or start == 0 or end >= len(text):
        return None
    quote = text[start - 1]
    return f"{quote}{written}{quote}" if quote in "\"'" and text[end] == quote else None
