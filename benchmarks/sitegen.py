"""Generate benchmark sites: the same prose in four variants, and large user glossaries.

Variants of one site (identical prose, identical terms at identical places):

``plain``
    the headword as plain text (plain Sphinx, no extension);
``abbr``
    docutils ``:abbr:`KV cache (definition)``` on every use (plain Sphinx);
``term``
    Sphinx ``:term:`KV cache``` on every use, plus a ``glossary`` page with a
    ``.. glossary::`` holding every term and its definition (plain Sphinx);
``gpu``
    ``:gpu-term:`KV cache``` on every use, plus a ``glossary`` page with a
    ``.. glossary-table::`` (this extension).

Everything is drawn from one :class:`random.Random` seeded by the caller, so
the same parameters give the same files byte for byte.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

VARIANTS = ("plain", "abbr", "term", "gpu")
LANGUAGES = ("en", "nl", "ar", "fr", "bn", "ru")

try:
    from yaml import CSafeDumper as _Dumper
except ImportError:  # pragma: no cover
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]


@dataclass(frozen=True)
class ProseTerm:
    """What the prose needs of one term: its English headword and definition."""

    id: str
    headword: str
    definition: str


# -- glossaries ------------------------------------------------------------------

#: Headwords the ``:abbr:`` role cannot carry (it splits at the first parenthesis).
_UNUSABLE = re.compile(r"[()`<>]")


def seeded_terms() -> tuple[list[ProseTerm], list[ProseTerm]]:
    """The seeded glossary's English terms: ``(all, usable in prose)``."""
    from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

    glossary = load_glossary(glossary_files([], seeded=True))
    every = [ProseTerm(t.id, t.names["en"], t.definitions["en"]) for t in glossary.terms.values()]
    return every, _usable(every, glossary)


def _usable(terms: list[ProseTerm], glossary: object) -> list[ProseTerm]:
    """Terms whose headword names them alone and that every variant's role can carry."""
    from sphinxcontrib_gpuglossary.core.lookup import TermIndex

    index = TermIndex(glossary)  # type: ignore[arg-type]
    return [t for t in terms if not _UNUSABLE.search(t.headword)
            and index.find(t.headword).candidates == (t.id,)]


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Word lists for generated glossaries: real words of each language, so texts have
# realistic byte lengths (Arabic, Bengali and Russian take 2-3 bytes a letter).
_WORDS = {
    "en": _words("memory kernel tensor batch cache shard model token layer weight gradient stream "
                 "device node cluster queue buffer scheduler request latency throughput precision "
                 "accelerator runtime driver compiler graph operator pipeline replica checkpoint "
                 "optimizer activation attention embedding sequence context bandwidth interconnect "
                 "partition allocation workload inference training serving quantization"),
    "nl": _words("geheugen rekenkern tensor reeks buffer opslag model laag gewicht gradiënt stroom "
                 "apparaat knooppunt wachtrij planner verzoek vertraging doorvoer nauwkeurigheid "
                 "versneller omgeving stuurprogramma vertaler graaf bewerking pijplijn kopie "
                 "controlepunt optimalisator activatie aandacht inbedding context bandbreedte "
                 "verbinding verdeling toewijzing werklast inferentie training"),
    "ar": _words("ذاكرة نواة موتر دفعة تخزين نموذج رمز طبقة وزن تدرج تدفق جهاز عقدة عنقود طابور مخزن "
                 "مجدول طلب تأخير إنتاجية دقة مسرع بيئة تشغيل مترجم رسم عملية خط نسخة نقطة محسن تنشيط "
                 "انتباه تضمين تسلسل سياق عرض ترابط تقسيم تخصيص حمل استدلال تدريب"),
    "fr": _words("mémoire noyau tenseur lot cache fragment modèle jeton couche poids gradient flux "
                 "appareil nœud grappe file tampon ordonnanceur requête latence débit précision "
                 "accélérateur environnement pilote compilateur graphe opérateur chaîne réplique "
                 "sauvegarde optimiseur activation attention plongement séquence contexte bande "
                 "interconnexion partition allocation charge inférence entraînement"),
    "bn": _words("মেমরি কার্নেল টেনসর ব্যাচ ক্যাশ মডেল টোকেন স্তর ওজন গ্রেডিয়েন্ট প্রবাহ যন্ত্র নোড "
                 "ক্লাস্টার সারি বাফার অনুরোধ বিলম্ব থ্রুপুট নির্ভুলতা ত্বরক রানটাইম ড্রাইভার "
                 "কম্পাইলার গ্রাফ অপারেটর পাইপলাইন প্রতিলিপি চেকপয়েন্ট অপ্টিমাইজার সক্রিয়করণ মনোযোগ "
                 "এমবেডিং অনুক্রম প্রসঙ্গ ব্যান্ডউইথ বিভাজন বরাদ্দ কাজ অনুমান প্রশিক্ষণ"),
    "ru": _words("память ядро тензор пакет кэш шард модель токен слой вес градиент поток устройство "
                 "узел кластер очередь буфер планировщик запрос задержка пропускная точность "
                 "ускоритель среда драйвер компилятор граф оператор конвейер реплика контрольная "
                 "оптимизатор активация внимание вложение последовательность контекст полоса "
                 "соединение раздел выделение нагрузка инференс обучение"),
}
_MODIFIERS = _words("paged sharded fused pinned unified streaming sparse dense mixed static dynamic "
                    "async remote local global fast lazy eager cached tiled packed grouped chunked "
                    "speculative persistent elastic hybrid warm cold")
_CATEGORIES = ("hardware", "inference", "training", "parallelism", "image-generation", "speech",
               "ml-fundamentals", "infrastructure", "billing-and-api")


def _sentence(rng: random.Random, lang: str, words: int) -> str:
    text = " ".join(rng.choice(_WORDS[lang]) for _ in range(words))
    return text[0].upper() + text[1:] + ("।" if lang == "bn" else ".")


def _definition(rng: random.Random, lang: str) -> str:
    """Two or three sentences, 130-330 characters like the seeded English definitions."""
    target = rng.randint(130, 330)
    sentences: list[str] = []
    while sum(len(s) + 1 for s in sentences) < target:
        sentences.append(_sentence(rng, lang, rng.randint(7, 14)))
    return " ".join(sentences)[:target].rstrip(" ,") + "."


def _headwords(rng: random.Random, count: int) -> list[str]:
    """*count* distinct English headwords of one to three words."""
    nouns = _WORDS["en"]
    space = [f"{m} {n}" for m in _MODIFIERS for n in nouns]
    space += [f"{m} {a} {n}" for m in _MODIFIERS for a in nouns for n in nouns if a != n]
    chosen = rng.sample(space, count)
    return [h[0].upper() + h[1:] for h in chosen]


def generated_glossary(count: int, seed: int = 1,
                       coverage: float = 1.0) -> tuple[str, list[ProseTerm]]:
    """A user glossary file of *count* terms in six languages: ``(YAML text, terms)``.

    Every term has an English headword and definition; *coverage* is the share
    of terms translated into each of the five other languages (1: all of them).
    """
    rng = random.Random(seed)
    headwords = _headwords(rng, count)
    ids = [re.sub(r"[^a-z0-9]+", "-", h.lower()).strip("-") for h in headwords]
    entries = []
    for number, (term_id, headword) in enumerate(zip(ids, headwords, strict=True)):
        names = {"en": headword}
        definitions = {}
        for lang in LANGUAGES:
            if lang != "en" and rng.random() >= coverage:
                continue
            if lang != "en":
                names[lang] = " ".join(rng.choice(_WORDS[lang]) for _ in range(rng.randint(1, 3)))
            definitions[lang] = _definition(rng, lang)
        entry: dict[str, object] = {"id": term_id, "category": _CATEGORIES[number % 9],
                                    "names": names, "definitions": definitions}
        if number % 3 == 0:
            entry["aliases"] = {"en": [headword.lower() + "s"]}
        if number % 2 == 0:
            entry["related"] = sorted({ids[rng.randrange(count)] for _ in range(2)} - {term_id})
        if number % 10 == 0:
            entry["notes"] = {"en": _sentence(rng, "en", 12)}
        entries.append(entry)
    text = yaml.dump({"terms": entries}, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                     width=100000)
    terms = [ProseTerm(i, h, e["definitions"]["en"])  # type: ignore[index]
             for i, h, e in zip(ids, headwords, entries, strict=True)]
    return text, terms


def usable_generated(text: str, terms: list[ProseTerm]) -> list[ProseTerm]:
    """The generated terms whose English headword names them alone."""
    from sphinxcontrib_gpuglossary.core.loader import parse_glossary

    return _usable(terms, parse_glossary([("terms.yaml", text.encode())]))


# -- prose -----------------------------------------------------------------------

_FILLER = (
    "the service keeps one copy per request and frees it when the answer is complete",
    "operators size it from the expected traffic and watch the dashboards for spikes",
    "this matters most when several tenants share the same machine and budget",
    "a short benchmark on the target hardware settles the question faster than theory",
    "the defaults are conservative and most teams raise them after a week in production",
    "the numbers below come from the staging cluster and are rounded to two digits",
    "see the previous section for the settings that interact with this one",
    "nothing here changes the public interface or the billing of existing jobs",
)


@dataclass(frozen=True)
class Page:
    """One page: a title and paragraphs; each paragraph alternates filler and term uses."""

    title: str
    #: paragraphs of segments: a ``str`` is filler, an ``int`` indexes the prose terms
    paragraphs: tuple[tuple[str | int, ...], ...]


def plan_pages(count: int, uses: int, terms: Sequence[ProseTerm], distinct: int,
               seed: int = 1) -> list[Page]:
    """The prose of *count* pages with *uses* term uses each.

    Each page is about *distinct* terms (0: any term, drawn uniformly, so most
    uses on a page are of different terms); within a page the uses follow
    Zipf's law over its terms, as topic words do in real text.
    """
    rng = random.Random(seed)
    pages = []
    for number in range(count):
        if distinct:
            topic = rng.sample(range(len(terms)), min(distinct, len(terms)))
            weights = [1 / (rank + 1) for rank in range(len(topic))]
            picks = rng.choices(topic, weights, k=uses)
        else:
            picks = [rng.randrange(len(terms)) for _ in range(uses)]
        paragraphs: list[tuple[str | int, ...]] = []
        for start in range(0, uses, 4):
            segments: list[str | int] = []
            for pick in picks[start:start + 4]:
                segments += [rng.choice(_FILLER).capitalize() + " with ", pick, ". "]
            segments.append(rng.choice(_FILLER).capitalize() + ".")
            paragraphs.append(tuple(segments))
        if not paragraphs:
            paragraphs.append((rng.choice(_FILLER).capitalize() + ".",))
        pages.append(Page(f"Operations note {number + 1}", tuple(paragraphs)))
    return pages


_RST_SPECIAL = re.compile(r"([\\`*_|\[\]<>])")


def rst_escape(text: str) -> str:
    """*text* as reStructuredText that renders exactly as *text*."""
    return _RST_SPECIAL.sub(r"\\\1", text)


def render_use(variant: str, term: ProseTerm) -> str:
    """One use of *term* in the markup of *variant*."""
    if variant == "plain":
        return rst_escape(term.headword)
    if variant == "abbr":
        return f":abbr:`{rst_escape(term.headword)} ({rst_escape(term.definition)})`"
    if variant == "term":
        return f":term:`{rst_escape(term.headword)}`"
    assert variant == "gpu", variant
    return f":gpu-term:`{rst_escape(term.headword)}`"


def render_page(page: Page, variant: str, terms: Sequence[ProseTerm]) -> str:
    lines = [page.title, "=" * len(page.title), ""]
    for number, paragraph in enumerate(page.paragraphs):
        if number and number % 3 == 0:
            heading = f"Part {number // 3 + 1}"
            lines += [heading, "-" * len(heading), ""]
        lines += ["".join(s if isinstance(s, str) else render_use(variant, terms[s])
                          for s in paragraph), ""]
    return "\n".join(lines)


# -- sites -------------------------------------------------------------------------

def page_name(number: int) -> str:
    return f"p{number:04d}"


def used_terms(pages: Sequence[Page], terms: Sequence[ProseTerm]) -> list[ProseTerm]:
    """The terms the prose of *pages* uses, in glossary order."""
    used = {s for page in pages for paragraph in page.paragraphs for s in paragraph
            if isinstance(s, int)}
    return [term for number, term in enumerate(terms) if number in used]


def write_site(root: Path, variant: str, pages: Sequence[Page], terms: Sequence[ProseTerm],
               glossary_terms: Sequence[ProseTerm], user_glossary: str | None,
               shown: Sequence[ProseTerm] | None = None, used_option: bool = False) -> Path:
    """Write the *variant* of a site to *root*; *user_glossary* is YAML, else the seeded one.

    The glossary page shows *glossary_terms*, or only *shown* when given (the gpu
    variant with *used_option*: through ``:used:``, with a ``pages`` column).
    """
    root.mkdir(parents=True)
    conf = ['project = "Benchmark"', 'language = "en"']
    if variant == "gpu":
        conf.append('extensions = ["sphinxcontrib_gpuglossary"]')
        if user_glossary is not None:
            (root / "terms.yaml").write_text(user_glossary, encoding="utf-8")
            conf += ["gpuglossary_seeded = False", 'gpuglossary_files = ["terms.yaml"]']
    (root / "conf.py").write_text("\n".join(conf) + "\n", encoding="utf-8")
    names = [page_name(n) for n in range(len(pages))]
    if variant in ("term", "gpu"):
        names.append("glossary")
        (root / "glossary.rst").write_text(glossary_page(variant, glossary_terms, shown,
                                                         used_option), encoding="utf-8")
    toctree = "".join(f"   {name}\n" for name in names)
    (root / "index.rst").write_text(f"Benchmark\n=========\n\n.. toctree::\n\n{toctree}",
                                    encoding="utf-8")
    for number, page in enumerate(pages):
        (root / f"{page_name(number)}.rst").write_text(render_page(page, variant, terms),
                                                       encoding="utf-8")
    return root


def glossary_page(variant: str, terms: Sequence[ProseTerm],
                  shown: Sequence[ProseTerm] | None = None, used_option: bool = False) -> str:
    """The glossary page of *variant*: every term of the glossary, or only *shown*
    (the gpu variant with *used_option*: the terms the site uses, with their pages)."""
    head = "Glossary\n========\n\n"
    if variant == "gpu":
        if shown is None:
            return head + ".. glossary-table::\n"
        if used_option:
            return head + ".. glossary-table::\n   :used:\n   :columns: term, definition, pages\n"
        return head + f".. glossary-table::\n   :terms: {', '.join(t.id for t in shown)}\n"
    entries = "".join(f"   {rst_escape(t.headword)}\n      {rst_escape(t.definition)}\n\n"
                      for t in (terms if shown is None else shown))
    return head + ".. glossary::\n\n" + entries


def expected_distinct(uses: int, terms: int) -> float:
    """Distinct terms expected on a page when *uses* are drawn uniformly from *terms*."""
    return terms * (1 - math.pow(1 - 1 / terms, uses))
