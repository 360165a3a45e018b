"""Mine extraction patterns from CounterFact's training split (``counterfact-train.json`` only).

CounterFact states each fact with a prompt ("[X], in [Y].") and rewords it with a small set of
templates ("The tragic death of [X] occurred in [Y]."). Every training case votes for its
relation (:func:`case_relations`: its prompt's ParaRel pattern, else its neighbourhood fact's)
with two templates: its prompt, and the last sentence of its ``rephrase_prompt``, each with
``[X]`` for the subject and ``[Y]`` after it. A template seen at least ``min_support`` times (2)
is kept for each relation that at least ``min_agreement`` (0.3) of its cases share; a template
with no content word, or shared by several relations, is kept *typed* (see :func:`mine`). This
is pattern bootstrapping in the manner of DIPRE (Brin 1998) and Snowball (Agichtein & Gravano
2000), limited to the training file so that the edit and val files stay untouched for
evaluation (issue 5).

A template must also be :func:`specific`: no ParaRel pattern reading it already as that
relation (a template the lexicon reads as another keeps the training reading typed, beside the
lexicon's), and no other curated relation in the rules' own reading of it. The result is a JSON file under
``results/`` (never committed) or, with ``--ship``, the extractor's data file
``extractors/data/counterfact_train_patterns.json`` with the input's SHA-256, the parameters
and the typed readings' object vocabularies, which the extractor loads by default.

Usage: ``python -m benchmarks.mine_patterns [--ship] --counterfact ../shared/data/counterfact``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from extractors.lexicon import match_patterns

DEFAULT_OUT = Path("results") / "counterfact-train-patterns.json"


def last_sentence(text: str) -> str:
    """The last sentence of a ``rephrase_prompt`` (earlier ones are distractor text)."""
    return re.split(r"(?<=[.?!])\s+", text.strip())[-1]


def _relations_of(prompt: str, obj: str) -> set[str]:
    """The lexicon relations whose ParaRel patterns read ``prompt + obj`` with exactly ``obj``
    as their object: a pattern whose object slot swallows words of the prompt is not the
    prompt's relation ("[X] is affiliated with [Y]." reads "… is affiliated with the religion
    Islam" with the object "the religion Islam": it is not the membership relation).

    "continent" counts as "located in": the extractor tells the two apart by the object
    (:func:`extractors.lexicon.place_relations`), so a template learnt for either serves both.
    """
    sentence = f"{prompt} {obj}."
    return {"located in" if pat.relation == "continent" else pat.relation
            for pat, _, (ys, ye) in match_patterns(sentence)
            if sentence[ys:ye].strip().lower() == obj.strip().lower()}


def prompt_relation(case: dict) -> str | None:
    """The lexicon relation the case's prompt + true object instantiates, if exactly one."""
    matches = _relations_of(case["prompt"], case["ground_truth"])
    return min(matches) if len(matches) == 1 else None


def neighbour_relations(case: dict) -> set[str]:
    """The lexicon relations of the case's neighbourhood fact (``locality_prompt`` + its
    answer): CounterFact draws it from the same relation about another subject (Meng et al.
    2022, §3.1 "neighborhood prompts"), so it names the case's relation when the prompt itself
    is a fragment no ParaRel pattern reads ("Toko Yasuda, the")."""
    return _relations_of(case["locality_prompt"], case["locality_ground_truth"])


def object_key(text: str) -> str:
    """How an object is compared with a typed template's vocabulary: the extractor's own
    canonical value (:func:`extractors.values.normalize_value`)."""
    from extractors.values import normalize_value

    return normalize_value(text)


Occurrences = dict[str, Counter]
"""Object (as :func:`object_key` spells it) -> how often each relation has it as the true or
the counterfactual object of a training case."""


def case_relations(cases: list[dict]) -> tuple[list[str | None], Occurrences]:
    """The relation of every case, and the relations' object occurrences.

    A case's relation is its prompt's (:func:`prompt_relation`), else its neighbourhood
    fact's when that names one (:func:`neighbour_relations`), else the one of the neighbour's
    candidates whose objects (from the first two kinds) hold the case's true object, else
    None. Both the true and the counterfactual object count as the relation's
    (``ground_truth`` and ``target_new``: CounterFact draws the new object from the same
    relation's objects).
    """
    keys = [(object_key(c["ground_truth"]), object_key(c["target_new"])) for c in cases]
    relations: list[str | None] = []
    pending: list[tuple[int, set[str]]] = []
    for n, case in enumerate(cases):
        relation = prompt_relation(case)
        if relation is None:
            candidates = neighbour_relations(case)
            if len(candidates) == 1:
                relation = next(iter(candidates))
            elif candidates:
                pending.append((n, candidates))
        relations.append(relation)
    first: dict[str, set[str]] = defaultdict(set)
    for pair, relation in zip(keys, relations):
        if relation:
            first[relation].update(pair)
    for n, candidates in pending:
        fits = [r for r in sorted(candidates) if keys[n][0] in first.get(r, ())]
        if len(fits) == 1:
            relations[n] = fits[0]
    occurrences: Occurrences = defaultdict(Counter)
    for pair, relation in zip(keys, relations):
        if relation:
            for obj in pair:
                occurrences[obj][relation] += 1
    return relations, dict(occurrences)


def vocabularies(occurrences: Occurrences, min_object_share: float = 0.1
                 ) -> dict[str, set[str]]:
    """Relation -> its objects: each object kept for the relations that hold at least
    ``min_object_share`` (0.1) of its occurrences. ParaRel's looser patterns send some owner
    facts ("iAd is from Apple") to the country of origin, and one such vote must not make
    "apple" a country (on the training file Google is 55 % developer, 25 % owner, 7 % country
    of origin; France 43 % country of origin, 30 % citizenship, 21 % location)."""
    vocabulary: dict[str, set[str]] = defaultdict(set)
    for obj, counts in occurrences.items():
        total = sum(counts.values())
        for relation, n in counts.items():
            if n / total >= min_object_share:
                vocabulary[relation].add(obj)
    return dict(vocabulary)


def _templated(sentence: str, subject: str) -> str | None:
    if sentence.count(subject) != 1:
        return None
    return sentence.replace(subject, "[X]").rstrip() + " [Y]."


def template(case: dict) -> str | None:
    """The case's rephrase as a pattern with ``[X]``/``[Y]`` slots, or None."""
    return _templated(last_sentence(case["rephrase_prompt"]), case["subject"])


def prompt_template(case: dict) -> str | None:
    """The case's own prompt as a pattern ("[X], in [Y]."), or None. A prompt with a question
    before its answer keeps its last sentence only, as the extractor reads sentence by
    sentence ("Which position does [X] play? They play as [Y]." gives "They play as [Y].",
    whose subject is the question's)."""
    sentence = last_sentence(case["prompt"])
    if case["subject"] not in sentence:
        sentence = re.sub(r"^(They|It|He|She)\b", "[X]", sentence)
        return sentence.rstrip() + " [Y]." if sentence.startswith("[X]") else None
    return _templated(sentence, case["subject"])


_FUNCTION_WORDS = frozenset("""
    a an the is was are were be been being has have had do does did in on at of from to by
    for with and or but that which who whom whose it its his her their this these those as
    s into onto than then there
    """.split())
"""English function words: a template whose literal text has nothing else ("[X] from [Y].",
"[X], the [Y].") names no relation by itself; only the type of its object does."""


def _literal_words(pattern: str) -> list[str]:
    """The lower-cased words of a template's literal text (its slots left out)."""
    return re.findall(r"[a-z]+", re.sub(r"\[[XY]\]", " ", pattern).lower())


def has_content_word(pattern: str) -> bool:
    """True when the template's literal text holds a word outside :data:`_FUNCTION_WORDS`."""
    return any(w not in _FUNCTION_WORDS for w in _literal_words(pattern))


def names_relation(relation: str, pattern: str) -> bool:
    """True when the template's literal text holds a content word of the relation's own name
    ("[X], who plays the position [Y]." names "position played"; "[X] currently lives in
    [Y]." names neither "place of birth" nor "citizenship")."""
    own = {w for w in re.findall(r"[a-z]+", relation.lower()) if w not in _FUNCTION_WORDS}
    return bool(own & set(_literal_words(pattern)))


def specific(relation: str, pattern: str, reader=None, beside_lexicon: bool = False) -> bool:
    """True when no ParaRel pattern already reads the template with the placeholders as its
    slots — or, with ``beside_lexicon``, none reads it as ``relation`` itself — and, unless
    the template :func:`names_relation`, the dependency rules of ``reader`` (a
    :class:`extractors.TripleExtractor`, optional) do not read it as a different relation of
    the curated table (the lexicon's own readings aside): "[X] currently lives in [Y]." stays
    "live in" although CounterFact uses it to reword birthplaces and citizenships, while
    "[X], who plays the position [Y]." is the position played although the rules read the
    verb "play". :func:`mine` passes ``beside_lexicon`` for a template the lexicon reads, so
    the lexicon's reading stays and another relation can be kept beside it, typed."""
    sentence = pattern.replace("[X]", "Alan Smith").replace("[Y]", "Zembla")
    lexicon = lexicon_relations(pattern)
    if lexicon and (not beside_lexicon or relation in lexicon):
        return False
    if reader is None or names_relation(relation, pattern):
        return True
    table = reader.table
    curated = set(table.functional) | set(table.multi_valued) | set(table.synonyms.values())
    readings = [t for t in reader.extract(sentence)
                if {t.subject, t.object} == {"alan smith", "zembla"}]
    return not any(t.relation in curated and t.relation != relation
                   and t.relation not in lexicon for t in readings)


def lexicon_relations(pattern: str) -> set[str]:
    """The relations whose ParaRel patterns read the template with its slots as theirs."""
    sentence = pattern.replace("[X]", "Alan Smith").replace("[Y]", "Zembla")
    return {pat.relation for pat, (xs, xe), (ys, ye) in match_patterns(sentence)
            if sentence[xs:xe] == "Alan Smith" and sentence[ys:ye] == "Zembla"}


@dataclass(frozen=True)
class Mined:
    """One kept reading of a template: ``relation`` for sentences matching ``pattern``;
    ``typed`` readings apply only to objects of the relation's type (:func:`object_types`)."""

    relation: str
    pattern: str
    support: int
    typed: bool


def mine(cases: list[dict], *, min_support: int = 2, min_agreement: float = 0.3,
         min_typed_agreement: float = 0.1, min_object_share: float = 0.1
         ) -> tuple[list[Mined], dict[str, dict]]:
    """Every kept template reading, most supported first, and the object types the typed
    readings use (:func:`object_types`).

    Templates come from each training case's rephrase (:func:`template`) and its own prompt
    (:func:`prompt_template`); each case votes for its relation (:func:`case_relations`). A
    template seen at least ``min_support`` times is kept for each relation that at least
    ``min_agreement`` of its cases state, when it is :func:`specific`. A template that keeps
    one relation and has a content word is *untyped*: it reads any object. One without a
    content word ("[X], in [Y].") or shared by several relations is *typed*: each relation
    that at least ``min_typed_agreement`` of its cases state is kept, and applies only to
    objects of that relation's type (:func:`object_types`), so "[X], the [Y]." reads
    "midfielder" as a position and "piano" as an instrument. A template that a ParaRel
    pattern already reads keeps that reading (the lexicon's), and any other relation that at
    least ``min_agreement`` of its cases state is kept beside it, typed: ParaRel lists
    "[X] originates from [Y]" for the place of birth only, but 97 of the 157 settled training
    cases that say "[X] originated from [Y]." are a group's location of formation, and 61 of
    120 that say "[X] was born in [Y]." a native language (CounterFact's rewording). Before,
    the lexicon's reading alone was kept and those rewordings were read as birthplaces. An object's type is what disambiguates a template
    whose words do not, as in typed relation patterns (Nakashole et al. 2012, PATTY).
    ``min_agreement`` (0.3) was chosen on a sample of the training file (0.8 / 0.5 / 0.3 / 0.2
    gave reworded recall 0.66 / 0.78 / 0.88 / 0.89 there, non-conflict flags 0.4 %
    throughout); ``min_typed_agreement`` (0.1) is lower because the object type already
    filters a typed reading: "[X], the [Y]." keeps the instrument reading (9 of its 54
    votes) beside the position (45).
    """
    relations, occurrences = case_relations(cases)
    votes: dict[str, Counter] = defaultdict(Counter)
    for case, relation in zip(cases, relations):
        if not relation:
            continue
        for tmpl in {template(case), prompt_template(case)} - {None}:
            votes[tmpl][relation] += 1
    from extractors import TripleExtractor

    reader = TripleExtractor(use_train_patterns=False)
    kept: list[Mined] = []
    for tmpl, counts in votes.items():
        total = sum(counts.values())
        if total < min_support:
            continue
        major = [r for r, n in counts.items() if n / total >= min_agreement]
        beside = bool(lexicon_relations(tmpl))
        typed = not has_content_word(tmpl) or len(major) > 1 or beside
        floor = min_typed_agreement if typed and not beside else min_agreement
        for relation, n in counts.most_common():
            if n / total >= floor and specific(relation, tmpl, reader, beside):
                kept.append(Mined(relation, tmpl, n, typed))
    used = {m.relation for m in kept if m.typed}
    return (sorted(kept, key=lambda k: (-k.support, k.pattern, k.relation)),
            object_types(occurrences, vocabularies(occurrences, min_object_share), used))


def type_classes(vocabulary: dict[str, set[str]], min_overlap: float = 0.3) -> dict[str, str]:
    """Relation -> its object type: relations whose vocabularies share at least
    ``min_overlap`` of the smaller one are joined, transitively (on the training file: one
    type for places — birth, death, location, headquarters, citizenship, country of origin,
    …; one for companies — developer, manufacturer, owner, employer; one for languages; the
    others alone). A type is named by its alphabetically first relation."""
    names = sorted(vocabulary)
    parent = {r: r for r in names}

    def root(r: str) -> str:
        while parent[r] != r:
            r = parent[r]
        return r

    for i, a in enumerate(names):
        for b in names[i + 1:]:
            small = min(len(vocabulary[a]), len(vocabulary[b]))
            if small and len(vocabulary[a] & vocabulary[b]) / small >= min_overlap:
                parent[root(b)] = root(a)
    members: dict[str, list[str]] = defaultdict(list)
    for r in names:
        members[root(r)].append(r)
    return {r: min(group) for group in members.values() for r in group}


def object_types(occurrences: Occurrences, vocabulary: dict[str, set[str]],
                 used: set[str], min_second_share: float = 0.25) -> dict[str, dict]:
    """The objects a typed reading accepts: ``{"relations": relation -> type, "classes":
    type -> sorted objects}`` for the relations in ``used``.

    Each training object gets the type that holds most of its occurrences
    (:func:`type_classes`), counted over all relations, typed or not, and any other type
    that holds at least ``min_second_share`` (0.25) of them; a typed reading of a relation
    accepts every object of the relation's type. Google (93 % company, 7 % country of
    origin) is a company only, so "[X] is from [Y]." reads it as an owner and never as a
    country; ESPN (67 % broadcaster, 33 % company) is a company as well, so "[X], of [Y]."
    reads it as an employer, as it reads any company. The majority type alone left such
    objects untyped for every typed reading but one, or for all of them when the majority
    was a type no typed reading uses. 0.25 was chosen on the training file: at 0.1 (the
    vocabularies' share) the places that own roads and arenas (Germany 18 %, Houston 13 %
    company) became employers in "[X], of [Y].".
    """
    kind = type_classes(vocabulary)
    wanted = {kind[r] for r in used if r in kind}
    classes: dict[str, set[str]] = defaultdict(set)
    for obj, counts in occurrences.items():
        by_type: Counter = Counter()
        for relation, n in counts.items():
            if relation in kind:
                by_type[kind[relation]] += n
        if not by_type:
            continue
        best = min(by_type.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        total = sum(by_type.values())
        for kind_, n in by_type.items():
            if kind_ in wanted and (kind_ == best or n >= min_second_share * total):
                classes[kind_].add(obj)
    return {"relations": {r: kind[r] for r in sorted(used) if r in kind},
            "classes": {t: sorted(classes[t]) for t in sorted(wanted)}}


SHIPPED = Path(__file__).resolve().parents[1] / "extractors" / "data" / "counterfact_train_patterns.json"
"""The committed copy the extractor loads by default (:func:`extractors.lexicon.load_train_patterns`)."""


def main() -> None:
    """Command line: write the mined patterns as a contrascan configuration file, or with
    ``--ship`` as the extractor's data file, with its provenance (input hash, parameters)."""
    ap = argparse.ArgumentParser(description="Mine patterns from counterfact-train.json.")
    ap.add_argument("--counterfact", type=Path, default=Path("../shared/data/counterfact"))
    ap.add_argument("--out", type=Path, default=None,
                    help=f"output file (default {DEFAULT_OUT}, or {SHIPPED.name} with --ship)")
    ap.add_argument("--ship", action="store_true",
                    help="write the extractor's data file extractors/data/" + SHIPPED.name)
    ap.add_argument("--min-support", type=int, default=2)
    ap.add_argument("--min-agreement", type=float, default=0.3)
    ap.add_argument("--min-typed-agreement", type=float, default=0.1)
    ap.add_argument("--min-object-share", type=float, default=0.1)
    args = ap.parse_args()
    source = args.counterfact / "counterfact-train.json"
    raw = source.read_bytes()
    kept, types = mine(json.loads(raw), min_support=args.min_support,
                       min_agreement=args.min_agreement,
                       min_typed_agreement=args.min_typed_agreement,
                       min_object_share=args.min_object_share)
    out = args.out or (SHIPPED if args.ship else DEFAULT_OUT)
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = {"source": "CounterFact (Meng et al. 2022), counterfact-train.json only",
           "source_sha256": hashlib.sha256(raw).hexdigest(),
           "script": "python -m benchmarks.mine_patterns --ship",
           "min_support": args.min_support, "min_agreement": args.min_agreement,
           "min_typed_agreement": args.min_typed_agreement,
           "min_object_share": args.min_object_share,
           "patterns": [{"relation": m.relation, "pattern": m.pattern, "support": m.support,
                         "typed": m.typed} for m in kept],
           "relation_types": types["relations"],
           "object_types": types["classes"]}
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"mined {len(kept)} patterns from {source} (sha256 "
          f"{hashlib.sha256(raw).hexdigest()[:16]}) -> {out}")


if __name__ == "__main__":
    main()
