"""Definitions cover the senses in which GPU and ML documentation uses their terms.

A serving site's "maximum batch size" once got a training-only definition, and
"tokens per second" of a training run an inference-only one (issue 27). These
tests read the loaded glossary: a term used on both sides names both, its first
sentence (the core meaning) belongs to neither side alone, and every language
a reader sees says both, in a project translation or, where the seed text stays
narrow, in the reader note beside it.
"""

from __future__ import annotations

import re

import pytest

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.core.model import Glossary, Term

#: Terms that GPU documentation uses for training and for inference alike.
BOTH_SIDES = ("batch-size", "tokens-per-second")
#: How each language names the two sides (a stem, matched case-insensitively).
TRAINING = {"en": "training", "fr": "entraînement", "nl": "training", "ar": "التدريب",
            "bn": "প্রশিক্ষণ", "ru": "обучени"}
INFERENCE = {"en": "inference", "fr": "inférence", "nl": "inferentie", "ar": "الاستدلال",
             "bn": "ইনফারেন্স", "ru": "инференс"}
#: What each side of a term means, in English words the definition must use.
SENSES = {
    "batch-size": {"a training step": ("optimizer step",),
                   "requests an inference server batches": ("request", "forward pass")},
    "tokens-per-second": {"training throughput": ("training", "per gpu"),
                          "generation speed": ("generate", "per request")},
    "training-checkpoint": {"resuming a run": ("resum", "optimizer state"),
                            "a released model's weights": ("released",)},
    "streaming": {"LLM tokens": ("token",), "speech": ("audio", "transcript"),
                  "agents": ("agent",)},
    # Coqui TTS's training clips and their "transcriptions" (round 32)
    "transcript": {"what ASR outputs": ("asr system recognizes",),
                   "a speech dataset's text": ("reference text", "speech dataset")},
    # reinforcement learning's epochs (garage, Stable-Baselines3, RLinf)
    "epoch": {"a pass over a dataset": ("pass", "dataset"),
              "a round of reinforcement learning": ("reinforcement learning", "policy")},
}
#: Where a seed text stays narrower than the English, the words of the Russian reader
#: note that adds the sense it leaves out.
RUSSIAN_NOTES = {"transcript": "эталонный текст", "epoch": "обучении с подкреплением",
                 "streaming": "распознавания речи"}


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return load_glossary(glossary_files([]))


#: A sentence ends at a full stop before a capital (not the one of "e.g." or "i.e.").
SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)[.!?]\s+(?=[A-Z0-9])")


def first_sentence(text: str) -> str:
    return SENTENCE_END.split(text, maxsplit=1)[0]


def read_by(term: Term, lang: str) -> str:
    """What a reader of ``lang`` sees: the definition and, below it, the note."""
    return " ".join(filter(None, (term.definitions.get(lang), term.notes.get(lang)))).lower()


@pytest.mark.parametrize("term_id", SENSES)
def test_english_definition_covers_every_sense(glossary: Glossary, term_id: str) -> None:
    definition = glossary.terms[term_id].definitions["en"].lower()
    missing = [sense for sense, words in SENSES[term_id].items()
               if not all(word in definition for word in words)]
    assert missing == [], f"{term_id} lost the sense(s) {missing}: {definition}"


@pytest.mark.parametrize("term_id", BOTH_SIDES)
def test_core_meaning_belongs_to_neither_side(glossary: Glossary, term_id: str) -> None:
    """The first sentence states what the term means everywhere: it names both
    training and inference, or neither."""
    core = first_sentence(glossary.terms[term_id].definitions["en"]).lower()
    sides = {side for side, words in (("training", TRAINING), ("inference", INFERENCE))
             if words["en"] in core}
    assert len(sides) != 1, f"{term_id}'s first sentence speaks of {sides} only: {core}"


@pytest.mark.parametrize("lang", sorted(TRAINING))
@pytest.mark.parametrize("term_id", BOTH_SIDES)
def test_every_language_says_both_sides(glossary: Glossary, term_id: str, lang: str) -> None:
    """A project translation follows the English; a seed text (the Russian ones)
    stays verbatim and its reader note adds the side it leaves out."""
    shown = read_by(glossary.terms[term_id], lang)
    assert TRAINING[lang] in shown and INFERENCE[lang] in shown, (term_id, lang, shown)


def test_definitions_stay_hover_sized(glossary: Glossary) -> None:
    """Covering more senses must not turn a hover into a paragraph: one to three
    sentences, as docs/user-files.rst asks of every definition."""
    long = {t.id: n for t in glossary.terms.values()
            if (n := len(SENTENCE_END.split(t.definitions["en"]))) > 3}
    assert long == {}


@pytest.mark.parametrize("term_id", sorted(RUSSIAN_NOTES))
def test_a_narrow_seed_text_gets_the_sense_it_leaves_out_from_its_note(
        glossary: Glossary, term_id: str) -> None:
    term = glossary.terms[term_id]
    assert RUSSIAN_NOTES[term_id] not in term.definitions["ru"].lower()  # the seed's own
    assert RUSSIAN_NOTES[term_id] in read_by(term, "ru")
