"""Read the labelled corpus (``corpus/<owner>+<name>.yaml``) and check a checkout against it."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

CORPUS_DIR = Path(__file__).with_name("corpus")


@dataclass(frozen=True)
class Label:
    """A judged place: *gold* is the term a careful writer links there, or None (then *why* says why not)."""

    file: str
    line: int
    column: int
    text: str
    gold: str | None
    found: str | None = None  # the term scan reported there when the label was made
    why: str | None = None
    digest: str | None = None  # 8 hex of sha256 of the stripped source line

    @property
    def end(self) -> int:
        """The column just after the label's words on its first line."""
        return self.column + len(self.text.split("\n")[0])

    @property
    def why_kind(self) -> str:
        """The fixed-set reason (``other-sense``, ``position``, ...) without its note."""
        return (self.why or "").split(":", 1)[0].strip()


@dataclass
class Site:
    """One documentation site of the corpus and its labels."""

    name: str  # owner+name, also the folder of its checkout under the sources folder
    repository: str
    commit: str
    docs: str
    licence: str
    kind: str  # training | serving
    set: str  # dev | test
    pages: int
    judged_pages: list[str]
    labels: list[Label] = field(default_factory=list)
    #: candidates on judged pages that the random sample left out: file -> [(line, column, length)]
    unsampled: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)

    def docs_dir(self, sources: Path) -> Path:
        return sources / self.name / self.docs


def line_digest(line: str) -> str:
    """The digest a label keeps of its source line."""
    return hashlib.sha256(line.strip().encode("utf-8")).hexdigest()[:8]


def load_site(path: Path) -> Site:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    info = data["site"]
    if not (isinstance(info["commit"], str) and re.fullmatch(r"[0-9a-f]{40}", info["commit"])):
        raise ValueError(f"{path}: site.commit must be a quoted 40-hex commit, not {info['commit']!r}")
    labels = [Label(**entry) for entry in data.get("labels") or []]
    unsampled = {file: [_place(place) for place in places]
                 for file, places in (data.get("unsampled") or {}).items()}
    return Site(name=path.stem, repository=info["repository"], commit=info["commit"], docs=info["docs"],
                licence=info["licence"], kind=info["kind"], set=info["set"], pages=info["pages"],
                judged_pages=list(info["judged_pages"]), labels=labels, unsampled=unsampled)


def _place(text: str) -> tuple[int, int, int]:
    line, column, length = (int(part) for part in text.split(":"))
    return line, column, length


def load_corpus(directory: Path = CORPUS_DIR) -> list[Site]:
    """Every site of the corpus, by name."""
    return [load_site(path) for path in sorted(directory.glob("*.yaml"))]


def stale_labels(site: Site, sources: Path) -> list[str]:
    """``file:line`` of every label whose source line is missing or differs from the one judged."""
    docs = site.docs_dir(sources)
    texts: dict[str, list[str] | None] = {}
    stale = []
    for label in site.labels:
        if label.file not in texts:
            path = docs / label.file
            texts[label.file] = path.read_text(encoding="utf-8").split("\n") if path.is_file() else None
        lines = texts[label.file]
        if lines is None or label.line > len(lines) or (
                label.digest and line_digest(lines[label.line - 1]) != label.digest):
            stale.append(f"{label.file}:{label.line}")
    return stale
