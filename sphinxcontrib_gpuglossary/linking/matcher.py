"""Find the glossary's terms in running text and decide whether each is the term.

One matcher serves auto-linking in a build and ``gpuglossary scan`` outside
one. Headwords, aliases and forms of the given languages match as whole words
(:mod:`.words`), the longest spelling first, so a longer entry or its spelling
variants win over a shorter term inside it. One-word spellings with two
capitals or more (``GPU``, ``vLLM``, ``LoRA``) match only as written, unless
the term's data says its name is no common word in any case. Then the rules
(:mod:`.rules`) say whether the words are the term: the term's own ``linking``
phrases, idioms, names of products and libraries, code. A term keeps one sense
per paragraph (``not_near``) and per page (``other_senses``, and
``only_on_pages_with``: the words of its field; the caller asks
:meth:`Matcher.page_senses` of the page's text, then passes the answer on).
Every candidate the rules turn down keeps its words (a shorter term inside is
not looked for) and carries the reason, for ``scan --explain``.
"""

from __future__ import annotations

import bisect
import functools
import html
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, compress
from itertools import count as numbers

from ..core.model import Glossary, Term
from . import rules
from .pagesearch import PageSearch
from .words import (
    Word,
    case_sensitive,
    gap,
    has_cjk,
    is_cjk,
    placed,
    spelling_keys,
    word_pieces,
    word_start,
    words,
)

#: The reason of a term's later occurrences where a page links each term once.
SETTLED = "linked already on this page"


@dataclass(frozen=True)
class Candidate:
    """Words spelt like a term; *reason* says why they are not linked (``None``: linked)."""

    start: int
    end: int
    term: str
    reason: str | None = None


@dataclass
class _Rules:
    not_in: rules.Phrases = field(default_factory=lambda: rules.Phrases(()))
    other_senses: rules.Phrases = field(default_factory=lambda: rules.Phrases(()))
    only_in: rules.Phrases = field(default_factory=lambda: rules.Phrases(()))
    not_near: frozenset[str] = frozenset()
    #: the spellings (words run together) ``only_in`` restricts: those its phrases hold;
    #: a longer name of the term that needs no phrase (``learning rate warmup``,
    #: ``学习率预热``) is not among them
    restricted: frozenset[str] = frozenset()
    #: every spelling of the term as folded words, for one sense per paragraph, and the
    #: first words of those (a paragraph is read for them only where one stands)
    spellings: tuple[tuple[str, ...], ...] = ()
    first_words: frozenset[str] = frozenset()
    #: the site's own names that hold the term with more words (``Torch-TensorRT``)
    longer_site_names: rules.Phrases = field(default_factory=lambda: rules.Phrases(()))
    #: the site's own names spelt as the term, a common word (MosaicML's ``Streaming``):
    #: written as the site writes its name, they name the site's product
    site_spelt: frozenset[str] = frozenset()


@dataclass
class Matcher:
    """Word n-grams of every matchable spelling, for a list of languages."""

    exact: dict[str, str] = field(default_factory=dict)  # spelling as written -> term id
    folded: dict[str, str] = field(default_factory=dict)  # case-folded spelling -> term id
    compact: dict[str, str] = field(default_factory=dict)  # words run together -> term id
    closed: dict[str, str] = field(default_factory=dict)  # one-word spellings, likewise
    longest: int = 1  # most words in one spelling
    #: terms that never link, with the reason (``autolink: false``, the site's settings);
    #: a spelling two terms share maps, in the tables, to ``"\0"`` and their ids
    refused: dict[str, str] = field(default_factory=dict)
    #: each term's own rules, compiled the first time the term is found (a site uses a
    #: few dozen of the glossary's terms; compiling all of them took about 50 ms)
    rules: dict[str, _Rules | None] = field(default_factory=dict)
    _uncompiled: dict[str, tuple[Term, list[str]]] = field(default_factory=dict)
    #: the site's own names (its ``project``): a term inside one with more words is part
    #: of the site's product's name there (``Intel® Extension for PyTorch*``)
    site_names: tuple[str, ...] = ()
    site_words: frozenset[str] = frozenset()  # the site names' words, folded
    #: the site's names of two words or more as they may follow a term that qualifies
    #: them (``vLLM Production Stack``): as written or with capitals, after a space
    site_name_after: re.Pattern[str] | None = None
    named: set[str] = field(default_factory=set)  # terms with a spelling's word among them
    proper: set[str] = field(default_factory=set)  # terms whose names are proper names
    #: folded keys of proper names spelt with a capital only, and of their words run
    #: together: written in lower case, such a name is a command, module, package or
    #: value (``docker run``, ``"megatron"``, ``huggingface``)
    capitalised_only: set[str] = field(default_factory=set)
    #: spellings of one word with a small letter then a capital (``PagedAttention``):
    #: written so, the words of another spelling run together are a name in code
    #: (``batchSize``, ``DataParallel``)
    camel_spellings: set[str] = field(default_factory=set)
    #: folded keys of one-word spellings in capitals or with two of them (``GPU``,
    #: ``H100``, ``ROCm``): a word written in capitals is a term only where one of its
    #: spellings is; a common word so written (``TOKEN``, ``FLOAT16``) is a constant's name
    capital_keys: set[str] = field(default_factory=set)
    #: every key's beginnings, so that a run of words grows only while it can still
    #: become a key: the folded keys' up to each joiner, the compact keys' every prefix
    folded_starts: set[str] = field(default_factory=set)
    compact_starts: set[str] = field(default_factory=set)
    #: the folded first word of every key: a word not among them starts no term, unless
    #: it and the next begin a compact key or are one (``KV-Cache``, ``fine-tuning``)
    first_words: set[str] = field(default_factory=set)
    compact_heads: set[str] = field(default_factory=set)  # compact keys and their beginnings
    #: where a compact key's spellings have word breaks: the text may run words together
    #: (``KVCache``) but not break them elsewhere (``to PP`` is no ``top p``)
    compact_breaks: dict[str, set[int]] = field(default_factory=dict)
    #: one sense per page: the terms with ``other_senses`` phrases in the build's
    #: languages, each with the first of the term's own words in them (a page without
    #: one is not searched) and the phrases to search for, in any case
    senses: dict[str, tuple[frozenset[str], PageSearch]] = field(default_factory=dict)
    #: the terms whose one-word spellings link only on a page with a word of their field
    #: (``only_on_pages_with``): those spellings (a page without one is not searched),
    #: the words to search for, in any case, and as the reason names them
    fields: dict[str, tuple[frozenset[str], PageSearch, str]] = \
        field(default_factory=dict)
    #: the last text read (:class:`_Block`): auto-linking asks for each text node of a block
    _last: _Block = field(default_factory=lambda: _Block("", [], [], [], []))
    #: the last text :meth:`may_start` folded, and what :func:`_fold` made of it: most
    #: paragraphs are one text node, whose block is the same text
    _probed: tuple[str, tuple[list[str], list[Word] | None, list[str]]] = \
        ("", ([], [], []))
    #: each term with one-word spellings in capitals (``AMP``, ``TP``): those, and the
    #: folded words of all its spellings; made when a page first asks (:meth:`_acronyms`)
    _acronym_table: dict[str, tuple[tuple[str, ...], frozenset[str]]] | None = None

    @classmethod
    def build(cls, glossary: Glossary, languages: list[str], include: Iterable[str] = (),
              exclude: Iterable[str] = (), site_names: Iterable[str] = ()) -> Matcher:
        """The matcher for *languages*; *include* and *exclude* (term ids) are the site's
        choice: terms to link although ``autolink: false``, and terms never to link;
        *site_names* the site's own names (``project`` of its ``conf.py``)."""
        names = tuple(html.unescape(n).strip() for n in site_names if n and n.strip())
        # a project named as its package or repository (``pytorch_geometric``,
        # ``production-stack``) is written with spaces
        names += tuple(re.sub(r"[_-]", " ", n) for n in names if re.search(r"\w[_-]\w", n))
        matcher = cls(site_names=names, site_words=frozenset(
            w.text.casefold() for name in names for w in words(name)))
        # a name of two words or more: one word after a term may be what the term's
        # thing is for (a *ROCm JAX plugin* is a JAX plugin for ROCm)
        longer = [n for n in names if len(words(n)) > 1]
        if longer:
            ways = {way for n in longer for way in (n, n.title())}
            alternatives = "|".join(re.escape(way) for way in sorted(ways, key=len, reverse=True))
            matcher.site_name_after = re.compile(rf"[ \t]+(?:{alternatives})(?!\w)")
        include, exclude = set(include), set(exclude)
        shared: dict[str, set[str]] = {}
        for term in glossary.terms.values():
            if term.id in exclude:
                matcher.refused[term.id] = "switched off by the site"
            elif not term.autolink and term.id not in include:
                matcher.refused[term.id] = "a common word (autolink: false)"
            if term.neutral:
                matcher.proper.add(term.id)
            spellings = [s for lang in languages for s in _spellings(term, lang)]
            for spelling in spellings:
                matcher._add(spelling, term, shared)
                if rules.CAMEL.search(spelling):
                    matcher.camel_spellings.add(spelling)
            if term.neutral and not term.linking.any_case:
                matcher.capitalised_only.update(_capitalised_keys(spellings))
            matcher._uncompiled[term.id] = (term, spellings)
            if term.linking.other_senses and term.id not in matcher.refused:
                matcher._page_sense(term, spellings)
            if term.linking.only_on_pages_with and term.id not in matcher.refused:
                matcher._page_field(term, spellings)
        matcher.first_words.update(matcher.compact, matcher.closed)
        matcher.join_heads()
        for table in (matcher.exact, matcher.folded, matcher.compact, matcher.closed):
            for key, ids in shared.items():
                if key in table:
                    table[key] = "\0" + " ".join(sorted(ids))  # a spelling two terms share
        return matcher

    def join_heads(self) -> None:
        """Work out :attr:`compact_heads` from the compact keys and their beginnings."""
        self.compact_heads = self.compact_starts | self.compact.keys() | self.closed.keys()

    def _add(self, spelling: str, term: Term, shared: dict[str, set[str]]) -> None:
        found = spelling_keys(spelling)
        if found is None:
            return
        count, spelt = found
        self.longest = max(self.longest, count)
        self.first_words.add(spelt.parts[0])
        if count == 1 and (spelling.isupper() or sum(c.isupper() for c in spelling) >= 2):
            self.capital_keys.add(spelt.folded)  # GPU, ROCm, H100
        if not self.site_words.isdisjoint(spelt.parts):
            self.named.add(term.id)
        if case_sensitive(count, spelling) and not term.linking.any_case:
            entries = [(self.exact, spelt.exact)]
        else:
            entries = [(self.folded, spelt.folded)]
            key = spelt.folded  # each beginning with its joiner: "kv ", "tokens/"
            self.folded_starts.update(key[:joiner.end()] for joiner in _JOINERS.finditer(key))
            if not key.isascii():  # (no CJK character in ASCII: most keys)
                self.folded_starts.update(key[:i] for i in range(1, len(key)) if _cjk_edge(key, i))
            if spelt.compact is not None:
                # a closed compound (one word: "dataset") meets hyphened words only:
                # "log it" is no "logit"
                entries.append((self.compact if count > 1 else self.closed, spelt.compact))
                self.compact_breaks.setdefault(spelt.compact, set()).update(spelt.breaks)
                self.compact_starts.update(accumulate(spelt.compact[:-1]))  # each beginning
        for table, key in entries:
            if table.get(key, term.id) != term.id:
                shared.setdefault(key, {table[key]}).add(term.id)
            table[key] = term.id

    def _rules_of(self, term_id: str) -> _Rules | None:
        if term_id not in self.rules:
            self.rules[term_id] = self._compile(*self._uncompiled.pop(term_id))
        return self.rules[term_id]

    def _compile(self, term: Term, spellings: list[str]) -> _Rules | None:
        phrases = (term.linking.not_in, term.linking.other_senses, term.linking.only_in)
        named = term.id in self.named
        if not any(phrases) and not term.linking.not_near and not named:
            return None
        parts, most_first = _parts(spellings)
        not_in, other_senses, only_in = (rules.Phrases(_phrases(texts, most_first))
                                         for texts in phrases)
        compiled = _Rules(not_in, other_senses, only_in)
        if named:
            compiled.longer_site_names, compiled.site_spelt = self._site_rules(term.id, most_first)
        if not (any(phrases) or term.linking.not_near or compiled.longer_site_names
                or compiled.site_spelt):
            return None
        compiled.not_near = frozenset(w.casefold() for w in term.linking.not_near)
        compiled.spellings = tuple(parts)
        compiled.first_words = frozenset(part[0] for part in parts)
        compiled.restricted = frozenset("".join(way[1]) for phrase in compiled.only_in
                                        for way in phrase.ways)
        return compiled

    def _page_sense(self, term: Term, spellings: list[str]) -> None:
        """Note the expression of *term*'s ``other_senses`` phrases in the build's
        languages (none of them: the term has no sense to keep on a page)."""
        made = _phrases(term.linking.other_senses, _parts(spellings)[1])
        if made:
            self.senses[term.id] = (
                frozenset(own[0] for phrase in made for _before, own, _after in phrase.ways),
                PageSearch(way for phrase in made for way in phrase.alternatives()))

    def _page_field(self, term: Term, spellings: list[str]) -> None:
        """Note *term*'s one-word spellings and the words of its field (its
        ``only_on_pages_with``) as one expression."""
        own = frozenset(part[0] for part in _parts(spellings)[0] if len(part) == 1)
        if own:
            listed = term.linking.only_on_pages_with
            named = ", ".join(repr(w) for w in listed[:3]) + (" ..." if len(listed) > 3 else "")
            self.fields[term.id] = (own, PageSearch(
                (tuple(w.casefold().split()), rules.plain_phrase_pattern(w)) for w in listed),
                named)

    def page_senses(self, page: str) -> PageSenses:
        """One sense per page: the terms whose one-word spellings the text of a *page*
        reads in another sense, each with the reason. A page that holds one of a term's
        ``other_senses`` phrases means it by the word (a page that says *type inference*
        means it by *inference*); a page that says none of a term's ``only_on_pages_with``
        words is not about the term's field (*streaming* on a page that never names a
        token or a response). Pass the answer to :meth:`candidates`: it searches the page
        for a term only when asked about it (a page names few of the terms)."""
        return PageSenses(self, page)

    def _sense_on_page(self, term_id: str, page: str, folded: str) -> str | None:
        """Why *term_id*'s one-word spellings mean something else on *page* (*folded*:
        its ``casefold()``), or ``None``."""
        sense = self.senses.get(term_id)
        if sense is not None and any(word in folded for word in sense[0]):
            match = sense[1].search(page, folded)
            if match is not None:
                return f"{' '.join(match.group().split())!r} on this page: the word means " \
                       "that here (the term's linking.other_senses)"
        acronyms = self._acronyms().get(term_id)
        if acronyms is not None:
            for acronym in acronyms[0]:
                if acronym in page:
                    for name in rules.acronym_meanings(page, acronym):
                        if acronyms[1].isdisjoint(w.text.casefold() for w in words(name)):
                            return f"{name!r} on this page: {acronym} stands for that here"
        field_ = self.fields.get(term_id)
        if field_ is not None:
            own, pattern, named = field_
            if any(word in folded for word in own) and _says_a_word(folded, own) \
                    and not pattern.holds(page, folded):
                return f"none of {named} on this page: the word may mean something " \
                       "else here (the term's linking.only_on_pages_with)"
        return None

    def _acronyms(self) -> dict[str, tuple[tuple[str, ...], frozenset[str]]]:
        """:attr:`_acronym_table`, made the first time a page asks: a page that spells out
        one of a term's acronyms as a name none of whose words is one of the term's
        (*Adversarial Motion Priors (AMP)*) means that name by the acronym there."""
        if self._acronym_table is None:
            capitals: dict[str, list[str]] = {}
            for key, term_id in self.exact.items():
                capitals_in = sum(c.isupper() for c in key)
                if _ACRONYM.fullmatch(key) and capitals_in >= 2 and 2 * capitals_in >= len(key) \
                        and not term_id.startswith("\0"):
                    capitals.setdefault(term_id, []).append(key)
            own: dict[str, set[str]] = {term_id: set() for term_id in capitals}
            for table in (self.exact, self.folded):  # the words of those terms' spellings only
                for key, term_id in table.items():
                    if term_id in own:
                        own[term_id].update(_JOINERS.split(key.casefold()))
            self._acronym_table = {term_id: (tuple(spelt), frozenset(own[term_id]))
                                   for term_id, spelt in capitals.items()}
        return self._acronym_table

    def _site_rules(self, term_id: str,
                    spellings: Sequence[tuple[int, Collection[tuple[str, ...]]]]
                    ) -> tuple[rules.Phrases, frozenset[str]]:
        """The site's names that hold the term with more words (a longer name), and those
        spelt as the term: the site's product where the term is a common word ("Streaming"
        on MosaicML's site), the term itself where it is a product ("Megatron Core")."""
        made = [(name, rules.Phrase.make(name, spellings)) for name in self.site_names]
        longer = rules.Phrases([p for _name, p in made if p and all(
            before or after for before, _own, after in p.ways)])
        spelt = frozenset() if term_id in self.proper else frozenset(
            name for name, p in made
            if p and any(not before and not after for before, _own, after in p.ways))
        return longer, spelt

    # -- finding ------------------------------------------------------------------

    def find(self, text: str, start: int = 0, end: int | None = None,
             settled: Collection[str] = (), senses: Mapping[str, str] | None = None
             ) -> list[tuple[int, int, str]]:
        """``(start, end, term_id)`` of each term to link in ``text[start:end]``, left to
        right; the rest of *text* is the context the rules read. The terms *settled*
        (linked once already, where a page links each term once) are not judged again;
        *senses* is what :meth:`page_senses` says of the page."""
        return [(c.start, c.end, c.term)
                for c in self.candidates(text, start, end, settled, senses) if c.reason is None]

    def may_start(self, text: str) -> bool:
        """Whether a word of *text* alone may begin a term: if none does, :meth:`candidates`
        finds nothing in *text* in whatever block it stands (a word of the block inside
        *text* is a word of *text* too), and the block need not be read."""
        made = _fold(text)
        self._probed = (text, made)
        folded = made[2]
        return not (self.first_words.isdisjoint(folded)
                    and self.compact_heads.isdisjoint(folded))

    def candidates(self, text: str, start: int = 0, end: int | None = None,
                   settled: Collection[str] = (), senses: Mapping[str, str] | None = None
                   ) -> list[Candidate]:
        """Every run of words in ``text[start:end]`` spelt like a term, longest first, left
        to right, each with the reason it is not linked (``None``: linked); a term in
        *settled* is not judged, its reason is :data:`SETTLED`; *senses*: the page's
        (:meth:`page_senses`)."""
        end = len(text) if end is None else end
        if self._last.text is not text:
            self._last = self._read(text)
        block = self._last
        out: list[Candidate] = []
        if not block.starts:
            return out
        found, folded = block.split(), block.folded
        i = bisect.bisect_left(found, start, key=word_start)  # the text node's first word
        for at in block.starts[bisect.bisect_left(block.starts, i):]:
            if found[at].end > end:
                break
            if at < i:
                continue  # inside the words matched last
            i = at
            size, term_id = self._longest(text, found, folded, i, end)
            if size <= 1 and folded[i] + " " in self.folded_starts:
                # "tensor and expert parallel": the word shares the head after it
                term_id = self._coordinated(text, found, folded, i) or term_id
                size = 1
            if term_id is None:
                i += 1
                continue
            if term_id in settled:
                out.append(Candidate(found[i].start, found[i + size - 1].end, term_id, SETTLED))
            else:
                out.append(self._judge(text, found, i, i + size - 1, term_id, senses))
            i += size
        return out

    def _read(self, text: str) -> _Block:
        """*text*'s folded words and where a term may begin: a word that starts a key, or
        one that runs together with the next into a compact key's beginning."""
        probed, made = self._probed
        pieces, found, folded = made if probed == text else _fold(text)
        first, joins = self.first_words, self.compact_heads
        starts: set[int] = set()  # (found with the loops in C: a page has thousands of words)
        if not first.isdisjoint(folded):
            starts.update(compress(numbers(), map(first.__contains__, folded)))
        if not joins.isdisjoint(folded):  # run together with the next only where it begins one
            starts.update(i for i in compress(numbers(), map(joins.__contains__, folded[:-1]))
                          if folded[i] + folded[i + 1] in joins)
        return _Block(text, folded, sorted(starts), pieces, found)

    def _longest(self, text: str, found: list[Word], folded: list[str], i: int,
                 end: int) -> tuple[int, str | None]:
        """The longest run of words from word *i* (ending by *end*) that spells a term:
        its length and the term (or a shared spelling's marker)."""
        best: tuple[int, str | None] = (0, self.exact.get(found[i].text))
        if best[1] is not None:
            best = (1, best[1])
        f_key = c_key = folded[i]
        size, spaced = 1, False
        spaces: tuple[int, ...] = ()  # where in c_key the text has spaces between words
        while True:
            term_id = self.folded.get(f_key) if f_key is not None else None
            if term_id is None and c_key is not None:
                term_id = self.compact.get(c_key)
                if term_id is not None and spaces and not self.compact_breaks[c_key].issuperset(
                        spaces):
                    term_id = None  # "to PP" is no "top p": a space where the term has none
                if term_id is None and not spaced:
                    term_id = self.closed.get(c_key)
            if term_id is not None and size > best[0]:
                best = (size, term_id)
            k = i + size
            if size >= self.longest or k >= len(found) or found[k].end > end:
                break
            joined = gap(text, found[k - 1], found[k])
            if joined is None or (joined == "" and not (found[k - 1].cjk or found[k].cjk)):
                break
            f_key = f_key + joined + folded[k] \
                if f_key is not None and f_key + joined in self.folded_starts else None
            space = any(c.isspace() for c in text[found[k - 1].end:found[k].start])
            if space and c_key is not None:
                spaces += (len(c_key),)
            c_key = c_key + folded[k] \
                if c_key is not None and joined in " " and c_key in self.compact_starts else None
            if f_key is None and c_key is None:
                break
            spaced = spaced or space
            size += 1
        return best

    def _coordinated(self, text: str, found: list[Word], folded: list[str],
                     i: int) -> str | None:
        """The term word *i* names when it is the first of coordinated words that share
        the head after the last (``data and tensor parallelism``, ``tensor, pipeline, or
        expert parallel``): both it and the last word with that head spell a term."""
        k = rules.last_conjunct(text, found, i)
        if k is None:
            return None
        head = k + 1
        if head >= len(found) or text[found[k].end:found[head].start] not in (" ", "-"):
            return None
        for size in range(1, min(self.longest, len(found) - head + 1)):
            words_after = " ".join(folded[head:head + size])
            shared = self.folded.get(f"{folded[i]} {words_after}")
            if shared is not None and not shared.startswith("\0") \
                    and self.folded.get(f"{folded[k]} {words_after}") is not None:
                return shared
        return None

    def _judge(self, text: str, found: list[Word], first: int, last: int,
               term_id: str, senses: Mapping[str, str] | None) -> Candidate:
        start, end = found[first].start, found[last].end
        if term_id.startswith("\0"):
            ids = term_id[1:].split()
            return Candidate(start, end, ids[0], f"a spelling the terms {', '.join(ids)} share")
        reason = self._reason(text, found, first, last, term_id)
        if reason is None and first == last and senses is not None:
            reason = senses.get(term_id)
        return Candidate(start, end, term_id, reason)

    def _near(self, text: str, found: list[Word], first: int, last: int,
              words_near: frozenset[str]) -> str | None:
        """The first of *words_near* in the sentence of words *first* to *last* that does
        not open a longer term (``tensor`` of *tensor parallel* says nothing), or that is
        a part of a name in snake case there (``moe`` of ``moe_router_type``)."""
        if not words_near:
            return None
        start, end = rules.sentence_span(text, found[first].start, found[last].end)
        folded = self._folded(found)
        # the sentence's words: those that start in it
        for k in range(bisect.bisect_left(found, start, key=word_start),
                       bisect.bisect_left(found, end, key=word_start)):
            if first <= k <= last:
                continue
            if folded[k] in words_near:
                size, _term = self._longest(text, found, folded, k, len(text))
                if size <= 1:
                    return folded[k]
            elif "_" in folded[k]:
                part = next((p for p in folded[k].split("_") if p in words_near), None)
                if part is not None:
                    return part
        return None

    def _folded(self, found: list[Word]) -> list[str]:
        """The case-folded words of *found*: those of the last text when it is that one."""
        return self._last.folded if self._last.found is found \
            else [w.text.casefold() for w in found]

    def _other_sense(self, text: str, found: list[Word], first: int, last: int,
                     own: _Rules) -> str | None:
        """Why the term's own rules say words *first* to *last* mean something else."""
        phrase = own.not_in.holding(text, found, first, last)
        if phrase is not None:
            return f"part of {phrase.text!r} (the term's linking.not_in)"
        phrase = own.other_senses.holding(text, found, first, last)
        if phrase is not None:
            return f"part of {phrase.text!r} (the term's linking.other_senses)"
        phrase = own.longer_site_names.holding(text, found, first, last)
        if phrase is not None:
            return f"part of the site's own name {phrase.text!r} (conf.py project)"
        written = text[found[first].start:found[last].end]
        if written in own.site_spelt:
            return f"the site's own name {written!r} (conf.py project)"
        near = self._near(text, found, first, last, own.not_near)
        if near is not None:
            return f"{near!r} in the same sentence (the term's linking.not_near)"
        return None

    def _sense_of_paragraph(self, text: str, found: list[Word], first: int, last: int,
                            own: _Rules) -> str | None:
        """One sense per paragraph: the term written elsewhere in *text*, in any of its
        spellings, where the term's ``not_near`` words read it in another sense (``token
        authorization ... the tokens for API calls``), says so here too. A ``not_in``
        phrase names another thing, not the paragraph's sense (``Hugging Face
        transformers`` beside a Hugging Face dataset)."""
        if not own.not_near:
            return None
        folded = self._folded(found)
        for k in compress(numbers(), map(own.first_words.__contains__, folded)):
            for spelling in own.spellings:
                size = len(spelling)
                if k != first and folded[k] == spelling[0] and tuple(folded[k:k + size]) == spelling \
                        and self._near(text, found, k, k + size - 1, own.not_near) is not None:
                    said = text[found[k].start:found[k + size - 1].end]
                    return f"{said!r} means something else elsewhere in this paragraph"
        return None

    def _scare_quoted(self, text: str, found: list[Word], last: int, term_id: str) -> bool:
        """Whether the quotes around words ending at *last* set apart the first words of a
        longer spelling of the same term, which the word after them completes (``a "loss"
        function``): a writer's scare quotes, not a value."""
        after = last + 1
        if after >= len(found) or text[found[last].end:found[after].start] not in ('" ', "' "):
            return False
        folded = self._folded(found)
        return self.folded.get(f"{folded[last]} {folded[after]}") == term_id

    def _joined_to_a_term(self, text: str, found: list[Word], first: int, last: int,
                          name: str) -> bool:
        """Whether *name*, which words *first* to *last* open, is the term hyphened to
        another term (``Prefill-Decode``): two terms, each linked, not one name."""
        after, end = last + 1, found[first].start + len(name)
        if after >= len(found) or text[found[last].end:found[after].start] != "-" \
                or not text.startswith(name, found[first].start):
            return False
        size, term_id = self._longest(text, found, self._folded(found), after, end)
        return term_id is not None and found[after + size - 1].end == end

    def _reason(self, text: str, found: list[Word], first: int, last: int,
                term_id: str) -> str | None:
        if term_id in self.refused:
            return self.refused[term_id]
        own = self._rules_of(term_id)
        if own is not None:
            other = self._other_sense(text, found, first, last, own)
            if other is not None:
                return other
            if own.restricted and "".join(self._folded(found)[first:last + 1]) in own.restricted \
                    and own.only_in.holding(text, found, first, last) is None:
                return "not in one of the phrases of the term's linking.only_in"
            other = self._sense_of_paragraph(text, found, first, last, own)
            if other is not None:
                return other
        code = rules.in_code(text, found[first].start, found[last].end)
        if code is not None:
            return f"part of the code {code!r}"
        option = rules.after_option(text, found[first].start)
        if option is not None:
            return f"after the command-line option {option!r}: its value, or its name"
        written = text[found[first].start:found[last].end]
        if self.site_name_after is not None:
            name = self.site_name_after.match(text, found[last].end)
            if name is not None:
                return f"part of {written + name.group()!r}: the site's own name after it " \
                       "(conf.py project)"
        if written.islower() and not any(c.isspace() for c in written) \
                and written.casefold() in self.capitalised_only:  # "docker", "megatron-core"
            return f"a name written in lower case, as code writes it: {written!r}"
        if first == last and term_id not in self.proper and rules.CAMEL.search(written) \
                and written not in self.camel_spellings:
            return f"a name in camel case, as code writes it: {written!r}"
        if first == last and written.isupper() and written.casefold() in self.folded \
                and written.casefold() not in self.capital_keys:  # (not KVCACHE: KV cache)
            return f"a common word in capitals, as code writes a constant: {written!r}"
        if term_id in self.proper or (first == last and "-" not in written):
            value = rules.quoted_value(text, found[first].start, found[last].end)
            if value is not None and not self._scare_quoted(text, found, last, term_id):
                return f"a value in quotes: {value}"
        title = rules.cited_title(text, found[first].start, found[last].end)
        if title is not None:
            return f"in the title of a cited work: {title}"
        label = rules.field_label(text, found, first, last)
        if label is not None:
            return f"a label that opens the paragraph: {label!r}"
        said = rules.idiom(text, found, first, last)
        if said is not None:
            return f"the idiom {said!r}"
        model = rules.hyphened_name(text, found, first, self.first_words) or \
            rules.model_id(text, found[first].start, found[last].end)
        if model is not None:
            return f"part of the name {model!r}"
        expansion = rules.acronym_expansion(text, found, first, last, self.first_words)
        if expansion is not None:
            return f"part of {expansion!r}, the name the acronym before it spells out"
        verb = rules.verb_use(text, found, first, last)
        if verb is not None:
            return f"a verb: {verb!r}"
        if term_id in self.proper:
            component = rules.component_name(text, found, last)
            if component is not None:
                return f"a component named after the product: {component!r}"
        else:
            name = rules.part_of_name(text, found, first, last)
            if name is not None and not self._joined_to_a_term(text, found, first, last, name):
                return f"part of the name {name!r}"
            package = rules.package_name(text, found, last)
            if package is not None:
                return f"the name of a package: {package!r}"
        named = rules.name_before_acronym(text, found, first, last, self.first_words)
        if named is not None and not self._spells(named[1], term_id):
            # (not where the acronym is the term too: auto-mixed-precision (AMP))
            return f"part of {named[0]!r}, the name the acronym after it stands for"
        return None

    def _spells(self, written: str, term_id: str) -> bool:
        """Whether *written*, one word, is a spelling of the term *term_id*."""
        return term_id in (self.exact.get(written), self.folded.get(written.casefold()),
                           self.closed.get(written.casefold()))


#: What joins the words of a folded key (:meth:`Matcher._add`).
_JOINERS = re.compile("[ /+&]")
#: A one-word spelling that may be an acronym, with capitals for at least half its
#: letters (``AMP``, ``LoRA``; not ``H100``, nor ``ControlNet``).
_ACRONYM = re.compile(r"[A-Z][A-Za-z]*[A-Z][A-Za-z]*")


class _Block:
    """A text as :meth:`Matcher.candidates` reads it: its folded words, the indexes of
    those a term may begin with, and its words with their places, placed when asked
    (from the :func:`.words.word_pieces` of text without CJK, read once)."""

    __slots__ = ("folded", "found", "pieces", "starts", "text")

    def __init__(self, text: str, folded: list[str], starts: list[int],
                 pieces: list[str], found: list[Word] | None) -> None:
        self.text, self.folded, self.starts = text, folded, starts
        self.pieces, self.found = pieces, found

    def split(self) -> list[Word]:
        if self.found is None:
            self.found = placed(self.pieces)
        return self.found


class PageSenses(Mapping[str, str]):
    """What :meth:`Matcher.page_senses` says of a page: each term read in another sense
    there, with the reason; a term's phrases are searched for the first time it is asked
    about."""

    __slots__ = ("_found", "_matcher", "folded", "page")

    def __init__(self, matcher: Matcher, page: str) -> None:
        self._matcher, self.page, self.folded = matcher, page, page.casefold()
        self._found: dict[str, str | None] = {}

    def __getitem__(self, term_id: str) -> str:
        reason = self.get(term_id)
        if reason is None:
            raise KeyError(term_id)
        return reason

    def get(self, term_id: str, default: str | None = None) -> str | None:  # type: ignore[override]
        """As :meth:`__getitem__`, without raising for the many terms the page does not
        read in another sense (asked for every candidate judged)."""
        if term_id not in self._found:
            self._found[term_id] = self._matcher._sense_on_page(term_id, self.page, self.folded)
        reason = self._found[term_id]
        return default if reason is None else reason

    def __iter__(self) -> Iterator[str]:
        return (term_id for term_id in dict.fromkeys([*self._matcher.senses,
                                                      *self._matcher.fields,
                                                      *self._matcher._acronyms()])
                if term_id in self)

    def __len__(self) -> int:
        return sum(1 for _term in self)


def _fold(text: str) -> tuple[list[str], list[Word] | None, list[str]]:
    """*text*'s :func:`.words.word_pieces` and placed words (``None`` where they are placed
    only when asked, from the pieces), and its words case-folded."""
    if not has_cjk(text):  # (folding neither splits nor joins these words)
        pieces = word_pieces(text)
        return pieces, None, list(map(str.lower if text.isascii() else str.casefold,
                                      pieces[1::2]))
    found = words(text)
    return [], found, [w.text.casefold() for w in found]


def _says_a_word(folded: str, own: frozenset[str]) -> bool:
    """Whether the case-folded page *folded* holds one of the words *own* as a word, not
    inside a longer one (*EP* is not in *step*); a word outside ASCII, which CJK text
    may run into, anywhere."""
    if any(not word.isascii() and word in folded for word in own):
        return True
    pattern = _whole_words(own)
    return pattern is not None and pattern.search(folded) is not None


@functools.cache
def _whole_words(own: frozenset[str]) -> re.Pattern[str] | None:
    """The ASCII words of *own*, each between characters that are no ASCII letter or digit."""
    listed = sorted(w for w in own if w.isascii())
    if not listed:
        return None
    return re.compile(f"(?<![a-z0-9])(?:{'|'.join(map(re.escape, listed))})(?![a-z0-9])")


def _cjk_edge(key: str, i: int) -> bool:
    """Whether a CJK character stands at one side of position *i* of *key* (words meet
    there without a joiner)."""
    return is_cjk(key[i - 1]) or is_cjk(key[i])


def _parts(spellings: list[str]) -> tuple[list[tuple[str, ...]],
                                         list[tuple[int, set[tuple[str, ...]]]]]:
    """*spellings* as folded words, sorted, and by their number of words, the most first.
    Only the build's languages: a phrase that holds none of them (another language's)
    can never stand around a word this matcher finds."""
    parts = sorted({tuple(w.text.casefold() for w in words(s)) for s in spellings} - {()})
    by_size: dict[int, set[tuple[str, ...]]] = {}
    for part in parts:
        by_size.setdefault(len(part), set()).add(part)
    return parts, sorted(by_size.items(), reverse=True)


def _phrases(texts: Iterable[str],
             most_first: Sequence[tuple[int, Collection[tuple[str, ...]]]]) -> list[rules.Phrase]:
    firsts = rules.first_words(most_first)
    return [p for p in (rules.Phrase.make(t, most_first, firsts) for t in texts) if p]


def _spellings(term: Term, lang: str) -> list[str]:
    return [s for s in (term.names.get(lang), *term.aliases.get(lang, ()),
                        *term.forms.get(lang, ())) if s]


def _capitalised_keys(spellings: list[str]) -> set[str]:
    """The folded keys of a proper name's *spellings* that are never written in lower
    case, with the words of each run together (``Hugging Face``: ``hugging face`` and
    ``huggingface``)."""
    lower = {s.casefold() for s in spellings if s == s.lower()}
    keys: set[str] = set()
    for spelling in spellings:
        if spelling.casefold() in lower:
            continue
        keys.add(spelling.casefold())
        found = spelling_keys(spelling)
        if found is not None and found[0] > 1 and found[1].compact is not None:
            keys.add(found[1].compact)
    return keys - lower
