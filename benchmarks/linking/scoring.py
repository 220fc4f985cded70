"""Score what scan reports against the labels: precision and recall, per term and overall.

A reported mention is matched to a label on the same file and line: first by column and
text, then by text alone (the column moved), then by overlapping words (``tokens`` reported
inside the labelled ``tokens/s``). It is right when its term is the label's gold term. A
mention on a known candidate that the random sample left out is *not sampled*; any other
mention no label covers on a judged page is *unjudged*: neither counts. Recall is over the
labels with a gold term: found when a mention with that term matches it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .corpus import Label


@dataclass(frozen=True)
class Mention:
    """What scan reports (its JSON fields), with *file* relative to the docs folder."""

    file: str
    line: int
    column: int
    text: str
    term: str

    @property
    def end(self) -> int:
        return self.column + len(self.text.split("\n")[0])


@dataclass
class Score:
    """Counts of one site, one set, or one term."""

    right: int = 0  # reported mentions whose term is the gold term
    wrong: int = 0  # reported mentions where the gold is another term or none
    found: int = 0  # labels with a gold term that a mention reports
    missed: int = 0  # labels with a gold term that no mention reports

    @property
    def precision(self) -> float | None:
        total = self.right + self.wrong
        return self.right / total if total else None

    @property
    def recall(self) -> float | None:
        total = self.found + self.missed
        return self.found / total if total else None

    def add(self, other: Score) -> None:
        self.right += other.right
        self.wrong += other.wrong
        self.found += other.found
        self.missed += other.missed

    def as_dict(self) -> dict[str, float | int | None]:
        return {"right": self.right, "wrong": self.wrong, "found": self.found, "missed": self.missed,
                "precision": self.precision, "recall": self.recall}


@dataclass
class Result:
    """The score of one site, with the mentions and labels behind every figure."""

    score: Score = field(default_factory=Score)
    by_term: dict[str, Score] = field(default_factory=lambda: defaultdict(Score))
    false_positives: list[tuple[Mention, Label]] = field(default_factory=list)
    false_negatives: list[Label] = field(default_factory=list)
    unjudged: list[Mention] = field(default_factory=list)
    not_sampled: int = 0  # mentions on candidates the random sample left out
    outside: int = 0  # mentions on pages that were not judged


def match(mentions: list[Mention], labels: list[Label],
          unsampled: dict[str, list[tuple[int, int, int]]] | None = None
          ) -> dict[Mention, Label | None]:
    """The label each mention falls on, or None. A label at another column of the line is
    taken only where no candidate the sample left out (*unsampled*: a follow-up the judge
    skipped) stands at the mention's own place: that candidate is the mention."""
    by_line: dict[tuple[str, int], list[Label]] = defaultdict(list)
    for label in labels:
        by_line[(label.file, label.line)].append(label)
    matched: dict[Mention, Label | None] = {}
    for mention in mentions:
        here = by_line.get((mention.file, mention.line), [])
        exact = [lb for lb in here if lb.column == mention.column and lb.text == mention.text]
        if not exact and _left_out(mention, unsampled or {}):
            matched[mention] = None
            continue
        same_text = sorted((lb for lb in here if lb.text == mention.text),
                           key=lambda lb: abs(lb.column - mention.column))
        overlapping = [lb for lb in here if lb.column < mention.end and mention.column < lb.end]
        found = exact or same_text or overlapping
        matched[mention] = found[0] if found else None
    return matched


def _left_out(mention: Mention, unsampled: dict[str, list[tuple[int, int, int]]]) -> bool:
    """Whether *mention* falls on a candidate the sample left out."""
    return any(line == mention.line and column < mention.end and mention.column < column + length
               for line, column, length in unsampled.get(mention.file, ()))


def score(mentions: list[Mention], labels: list[Label], judged_pages: set[str],
          first: bool = False, unsampled: dict[str, list[tuple[int, int, int]]] | None = None) -> Result:
    """Precision over *mentions*, recall over *labels* (with *first*: over the first right
    label per page and term, which ``scan --first`` must report)."""
    result = Result()
    left_out = unsampled or {}
    matched = match(mentions, labels, left_out)
    reported: dict[Label, set[str]] = defaultdict(set)
    for mention, label in matched.items():
        if mention.file not in judged_pages:
            result.outside += 1
            continue
        if label is None:
            if _left_out(mention, left_out):
                result.not_sampled += 1
            else:
                result.unjudged.append(mention)
            continue
        reported[label].add(mention.term)
        term_score = result.by_term[mention.term]
        if label.gold == mention.term:
            result.score.right += 1
            term_score.right += 1
        else:
            result.score.wrong += 1
            term_score.wrong += 1
            result.false_positives.append((mention, label))
    for label in first_right(labels) if first else [lb for lb in labels if lb.gold]:
        assert label.gold is not None
        if label.gold in reported.get(label, ()):
            result.score.found += 1
            result.by_term[label.gold].found += 1
        else:
            result.score.missed += 1
            result.by_term[label.gold].missed += 1
            result.false_negatives.append(label)
    return result


def first_right(labels: list[Label]) -> list[Label]:
    """The first label of each gold term on each page, in reading order."""
    firsts: dict[tuple[str, str], Label] = {}
    for label in sorted(labels, key=lambda lb: (lb.file, lb.line, lb.column)):
        if label.gold:
            firsts.setdefault((label.file, label.gold), label)
    return list(firsts.values())
