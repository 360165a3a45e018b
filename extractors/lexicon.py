"""Relation lexicon from ParaRel: patterns, canonical names and cardinalities.

ParaRel (Elazar et al. 2021, "Measuring and Improving Consistency in Pretrained Language
Models", MIT licence) gives 329 human-written paraphrase patterns for 39 Wikidata relations,
e.g. ``"The mother tongue of [X] is [Y]."`` for P103. The lexicon is used twice:

* **pattern matching**: a sentence that instantiates a pattern yields ``(X, relation, Y)``
  directly (rule ``pattern``);
* **relation induction**: every pattern, instantiated with placeholder names, is run through
  the dependency rules; the relation phrase the rules produce is mapped to the pattern's
  relation. "mother tongue", "native language" and "speak as native" then share one key.

The shipped file ``extractors/data/pararel_relations.json`` is rebuilt from the source with
``python -m extractors.lexicon --pararel ../shared/data/pararel``.

Cardinalities are this project's reading of Wikidata's property constraints for the facts an
agent stores: a person has one place of birth (P19, "single-value constraint" on Wikidata),
but many occupations (P106) and instruments (P1303). Relations whose Wikidata property has a
single-value constraint, or that an agent treats as one-at-a-time (current employer P108,
citizenship P27), are functional; the others are multi-valued.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

RELATIONS: dict[str, tuple[str, str]] = {
    # id: (canonical relation name, cardinality)
    "P19": ("place of birth", "functional"),
    "P20": ("place of death", "functional"),
    "P27": ("citizenship", "functional"),
    "P30": ("continent", "functional"),
    "P17": ("located in", "functional"),
    "P131": ("located in", "functional"),
    "P276": ("located in", "functional"),
    "P36": ("capital", "functional"),
    "P1376": ("capital of", "functional"),
    "P103": ("native language", "functional"),
    "P364": ("original language", "functional"),
    "P407": ("language of work", "functional"),
    "P108": ("work at", "functional"),
    "P127": ("owned by", "functional"),
    "P138": ("named after", "functional"),
    "P140": ("religion", "functional"),
    "P159": ("headquarters", "functional"),
    "P176": ("manufacturer", "functional"),
    "P178": ("developer", "functional"),
    "P264": ("record label", "functional"),
    "P413": ("position played", "functional"),
    "P449": ("original network", "functional"),
    "P495": ("country of origin", "functional"),
    "P740": ("location of formation", "functional"),
    "P37": ("official language", "multi_valued"),
    "P101": ("field of work", "multi_valued"),
    "P106": ("occupation", "multi_valued"),
    "P1303": ("instrument", "multi_valued"),
    "P136": ("genre", "multi_valued"),
    "P190": ("twin city", "multi_valued"),
    "P1412": ("languages spoken", "multi_valued"),
    "P39": ("position held", "multi_valued"),
    "P463": ("member of", "multi_valued"),
    "P47": ("shares border with", "multi_valued"),
    "P530": ("diplomatic relation", "multi_valued"),
    "P937": ("work location", "multi_valued"),
    "P279": ("subclass of", "multi_valued"),
    "P361": ("part of", "multi_valued"),
    "P1001": ("jurisdiction", "multi_valued"),
}
"""Wikidata relation id -> (canonical relation, cardinality)."""

INVERSE_RELATIONS: frozenset[str] = frozenset({"capital of"})
"""Relations read from a sentence as the inverse of what it states of its subject: "The
capital city of Austria is Vienna" states Austria's capital (P36) and is read as Vienna's
"capital of" (P1376) too, Wikidata's inverse property of P36 (P1696). The inverse of a
one-valued relation is in general not one-valued (a city is the capital of nested or
successive territories), so declaring every relation one-valued declares the stated one, not
its inverse (:attr:`extractors.RelationTable.all_functional`)."""

CONTINENTS = frozenset({"africa", "antarctica", "asia", "europe", "north america",
                        "south america", "oceania", "australia", "americas", "america"})
"""Objects that make "X is located in Y" the continent relation (P30) rather than P17/P131
("america" is how the rules spell "Americas", a plural proper noun, after lemmatisation)."""

COUNTRY_CONTINENTS = frozenset({"australia"})
"""Names of a continent that are also a country's: "X is located in Australia" is read both
ways, as the continent and as the location (Wikidata Q3960 and Q408)."""


def place_relations(relation: str, value: str) -> tuple[str, ...]:
    """The readings of a location triple: "continent" for a continent's name, "located in"
    for anything else, both for :data:`COUNTRY_CONTINENTS`; other relations unchanged.

    Args:
        relation: canonical relation ("located in", "continent", …).
        value: canonical object ("europe", "australia", "lyon").
    """
    if relation not in ("located in", "continent"):
        return (relation,)
    if value in COUNTRY_CONTINENTS:
        return ("continent", "located in")
    return ("continent",) if value in CONTINENTS else ("located in",)

DATA_FILE = "pararel_relations.json"


@dataclass(frozen=True)
class Pattern:
    """One compiled ParaRel pattern."""

    relation_id: str
    relation: str
    text: str
    regex: re.Pattern
    anchor: str
    literal_chars: int
    objects: frozenset[str] | None = None
    """For a typed pattern, the canonical objects (:func:`extractors.values.normalize_value`)
    it reads; None reads any object."""


_NAME_SLOT = r"(?P<X>[^,;:]+?(?:[,:]\s*[^,;:]+?)*?)"
"""The subject slot: a phrase without commas, or several joined by commas or colons, which a
match keeps only when they spell one name (:func:`name_with_commas`)."""
_PIECE = re.compile(r"\s*[,:]\s*")
_NOT_A_NAME_START = frozenset("""
    a an the this that these those my your his her its our their who whom whose which what
    where when and or but
    """.split())


def name_with_commas(text: str) -> bool:
    """True when a subject that holds commas or colons reads as one name: every piece opens
    with a capital letter or a digit, or (after the first) with lower-case title words
    followed by a capitalised one — "Pavlos, Crown Prince of Greece", "Frank Oberle, Sr.",
    "Louis de Rouvroy, duc de Saint-Simon", "Star Trek: Generations", "Murder, She Wrote".
    An apposition that describes ("Ana, my sister", "Bob, the CEO of Acme") is no part of a
    name. A text without commas or colons is always accepted.

    Names with commas are common in reference data (titles of nobility, works, places
    qualified by their region: "Barnstable (village), Massachusetts"); the first piece's
    grammatical role (a fronted adverbial such as "In 2019, …") is left to the caller, which
    has the parse."""
    pieces = [p for p in _PIECE.split(text.strip())]
    if len(pieces) == 1:
        return True
    if any(not p for p in pieces):
        return False
    for n, piece in enumerate(pieces):
        words = piece.split()
        if words[0][:1].isupper() or words[0][:1].isdigit():
            continue
        if n == 0 or words[0].lower() in _NOT_A_NAME_START or \
                not any(w[:1].isupper() for w in words[1:]):
            return False
    return True


def _compile(pattern: str) -> tuple[re.Pattern, str, int]:
    text = " ".join(pattern.replace(" .", ".").split()).rstrip(".").strip()
    parts = re.split(r"(\[X\]|\[Y\])", text)
    rx = ""
    literals = []
    for part in parts:
        if part == "[X]":
            rx += _NAME_SLOT
        elif part == "[Y]":
            rx += r"(?P<Y>[^,;:]+?)"
        else:
            rx += re.escape(part).replace(r"\ ", r"\s+")
            literals.append(part.strip())
    anchor = max(literals, key=len).lower() if literals else ""
    regex = re.compile(r"^\s*" + rx + r"\s*[.!]?\s*$", re.IGNORECASE)
    return regex, anchor, sum(len(x) for x in literals)


def compile_patterns(items: Iterable[tuple[str, str, str] | tuple[str, str, str,
                                                                   frozenset[str] | None]]
                     ) -> tuple[Pattern, ...]:
    """Compile ``(relation id, relation name, pattern text[, objects])`` tuples, most specific
    first.

    Pattern text uses ParaRel's slots: ``"[X] was born in [Y]."``; ``objects``, when given,
    makes the pattern typed (:attr:`Pattern.objects`).
    """
    out = []
    for rel_id, name, text, *objects in items:
        regex, anchor, n = _compile(text)
        out.append(Pattern(rel_id, name, text, regex, anchor, n,
                           objects[0] if objects else None))
    return tuple(sorted(out, key=lambda p: (-p.literal_chars, p.relation_id, p.text)))


@functools.lru_cache(maxsize=1)
def load_patterns() -> tuple[Pattern, ...]:
    """The shipped ParaRel patterns, compiled; longest literal text first."""
    data = json.loads(resources.files("extractors.data").joinpath(DATA_FILE)
                      .read_text(encoding="utf-8"))
    return compile_patterns(
        (rel_id, RELATIONS.get(rel_id, (entry["name"], "unknown"))[0], text)
        for rel_id, entry in sorted(data["relations"].items()) for text in entry["patterns"])


TRAIN_PATTERNS_FILE = "counterfact_train_patterns.json"


@functools.lru_cache(maxsize=1)
def load_train_patterns() -> tuple[Pattern, ...]:
    """Templates mined from CounterFact's training split, compiled; most specific first.

    Built by ``python -m benchmarks.mine_patterns --ship`` from ``counterfact-train.json``
    only (its SHA-256 and the mining parameters are in the file). CounterFact states facts
    with a prompt per relation ("[X], in [Y].") and rewords them with a small set of templates
    ("The tragic death of [X] occurred in [Y]."). A template is kept, for each relation at
    least 30 % of its training cases state, when at least two cases use it and neither a
    ParaRel pattern nor the rules read it as another known relation ("[X] currently lives in
    [Y]." stays "live in"). A template without a content word, or shared by several
    relations, is typed: each reading applies only to objects of its relation's type, learnt
    from the training objects ("[X], the [Y]." reads "midfielder" as a position, "piano" as
    an instrument; "[X], of [Y]." reads companies as employers)."""
    data = json.loads(resources.files("extractors.data").joinpath(TRAIN_PATTERNS_FILE)
                      .read_text(encoding="utf-8"))
    classes = {t: frozenset(v) for t, v in data.get("object_types", {}).items()}
    kind = data.get("relation_types", {})
    return compile_patterns(("counterfact-train", p["relation"], p["pattern"],
                             classes[kind[p["relation"]]] if p.get("typed") else None)
                            for p in data["patterns"])


PATTERN_PACKS = {"counterfact-train": load_train_patterns}
"""Opt-in pattern packs by name. A pack holds templates learned from a data set's training
split: it may read that data set's wording well and everyday memory text wrongly ("Anna's
parents are from Brazil" read as Anna's place of birth), so no pack is part of the default
extractor; a configuration names the packs it wants (``[extraction] pattern_packs``)."""


def load_pattern_packs(names: Iterable[str]) -> tuple[Pattern, ...]:
    """The compiled patterns of the named packs, in the order given.

    Raises:
        KeyError: a name that is not in :data:`PATTERN_PACKS` (the message lists the known
            names).
    """
    out: tuple[Pattern, ...] = ()
    for name in names:
        if name not in PATTERN_PACKS:
            raise KeyError(f"unknown pattern pack {name!r}; known: {sorted(PATTERN_PACKS)}")
        out += PATTERN_PACKS[name]()
    return out


def cardinalities() -> dict[str, str]:
    """Canonical relation -> cardinality for every lexicon relation."""
    return {name: card for name, card in RELATIONS.values()}


_RUN = re.compile(r"[a-z]+")


class PatternIndex:
    """Compiled patterns indexed by one word each, so that a sentence is tried only against
    the patterns whose literal text it can contain.

    A pattern's key is the longest letter run of its anchor (its longest literal piece) that
    is bounded by non-letters inside the anchor, hence a whole letter run of any sentence that
    contains the anchor ("born" for "was born in"). Patterns without such a run are always
    tried. The order of :func:`compile_patterns` (most specific first) is kept.

    Args:
        patterns: compiled patterns, most specific first.
    """

    def __init__(self, patterns: Sequence[Pattern]):
        self.patterns = tuple(patterns)
        self.always: list[int] = []
        self.by_word: dict[str, list[int]] = {}
        for n, pat in enumerate(self.patterns):
            runs = [m for m in _RUN.finditer(pat.anchor)
                    if m.start() > 0 and m.end() < len(pat.anchor)]
            if not runs:
                self.always.append(n)
                continue
            key = max(runs, key=lambda m: len(m.group())).group()
            self.by_word.setdefault(key, []).append(n)

    def candidates(self, low: str) -> list[Pattern]:
        """Patterns a lower-cased sentence may instantiate, most specific first."""
        found = set(self.always)
        for word in set(_RUN.findall(low)):
            found.update(self.by_word.get(word, ()))
        return [self.patterns[n] for n in sorted(found)]


@functools.lru_cache(maxsize=1)
def _lexicon_index() -> PatternIndex:
    return PatternIndex(load_patterns())


def match_patterns(sentence: str, patterns: Sequence[Pattern] | PatternIndex | None = None
                   ) -> Iterator[tuple[Pattern, tuple[int, int], tuple[int, int]]]:
    """Patterns the whole sentence instantiates, most specific first.

    Args:
        sentence: one sentence.
        patterns: compiled patterns, most specific first, or a :class:`PatternIndex` of them
            (default: the ParaRel lexicon's index).

    Yields:
        ``(pattern, (x_start, x_end), (y_start, y_end))`` character spans in ``sentence``.
        Only the most specific matches are yielded: a pattern with less literal text than the
        best match is skipped (``"[X] plays [Y] music"`` beats ``"[X] plays [Y]"``). A
        subject with commas or colons is kept only when it spells one name
        (:func:`name_with_commas`).
    """
    low = sentence.lower()
    if patterns is None:
        patterns = _lexicon_index()
    if isinstance(patterns, PatternIndex):
        patterns = patterns.candidates(low)
    best = -1
    for pat in patterns:
        if pat.literal_chars < best:
            break
        if pat.anchor and pat.anchor not in low:
            continue
        m = pat.regex.match(sentence)
        if m and name_with_commas(m.group("X")):
            best = pat.literal_chars
            yield pat, m.span("X"), m.span("Y")


def instantiations() -> Iterator[tuple[str, str]]:
    """``(relation, sentence)`` for every pattern with placeholder names filled in, for
    relation induction ("Alan Smith" as subject, "Zembla" as object)."""
    for pat in load_patterns():
        text = pat.text.replace("[X]", "Alan Smith").replace("[Y]", "Zembla")
        yield pat.relation, " ".join(text.replace(" .", ".").split())


def build(pararel_dir: Path, out: Path) -> int:
    """Write the lexicon file from ParaRel's ``graphs_json/P*.jsonl``; returns pattern count."""
    relations = {}
    for path in sorted((pararel_dir / "graphs_json").glob("P*.jsonl")):
        patterns = [json.loads(line)["pattern"] for line in path.read_text().splitlines()
                    if line.strip()]
        rel_id = path.stem
        name, card = RELATIONS.get(rel_id, (rel_id, "unknown"))
        relations[rel_id] = {"name": name, "cardinality": card, "patterns": patterns}
    doc = {"source": "ParaRel (Elazar et al. 2021), data/pattern_data/graphs_json, MIT licence",
           "relations": relations}
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return sum(len(r["patterns"]) for r in relations.values())


def main() -> None:
    """Command line: rebuild ``extractors/data/pararel_relations.json``."""
    ap = argparse.ArgumentParser(description="Rebuild the ParaRel relation lexicon.")
    ap.add_argument("--pararel", type=Path, default=Path("../shared/data/pararel"))
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).parent / "data" / DATA_FILE)
    args = ap.parse_args()
    n = build(args.pararel, args.out)
    print(f"wrote {n} patterns to {args.out}")


if __name__ == "__main__":
    main()
