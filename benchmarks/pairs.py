"""Labelled sentence pairs built by code from the public files in ``../shared/data``.

Nothing here is typed by hand: every pair is derived from a data file, so anyone can rebuild
the sets and check them. Three sources:

* **CounterFact** (Meng et al. 2022, ROME; the EasyEdit/MEND copy in ``counterfact/``): six pair
  classes per case, defined by issue 5 —

  1. ``paraphrase``: (fact, reworded fact), not a conflict;
  2. ``contradiction_same_wording``: (fact, counterfactual update);
  3. ``contradiction_reworded``: (reworded fact, counterfactual update), the hard one;
  4. ``same_relation_other_subject``: (fact, its neighbourhood fact), not a conflict;
  5. ``same_subject_other_relation``: two true facts about one subject under different
     relations, not a conflict;
  6. ``both_true_multi_valued``: two true facts about one subject under one relation with
     different objects (a city's twin cities), not a conflict. Also reported by variant:
     pairs on a relation the product holds functional (:data:`FUNCTIONAL_RELATIONS`: "PAX is
     located in Boston" and "… in Melbourne", the data's exceptions to that cardinality) and
     pairs on any other relation; both count in class 6.

  A *fact* is ``prompt + " " + ground_truth + "."``; the *update* is the same prompt with
  ``target_new``; the *reworded fact* is the last sentence of ``rephrase_prompt`` (its first
  sentences are unrelated filler) with the ground truth; the *neighbourhood fact* is
  ``locality_prompt`` with ``locality_ground_truth``.

  Relations: a case's *template* is its prompt with the subject replaced by ``{}``. Templates
  are mapped to Wikidata relation ids through the ParaRel patterns (Elazar et al. 2021, the
  patterns CounterFact's prompts come from) and, for templates ParaRel does not spell out, by
  a majority vote of the training cases' neighbourhood prompts matched against the same
  patterns; a template voted to several relations ("{}, the": position, instrument, genre)
  is settled per case by which relation's training objects hold the case's true object.
  That table is built on ``counterfact-train.json`` only; ``edit`` and ``val`` are
  never read to build it. Contradiction pairs on relations not in
  :data:`FUNCTIONAL_RELATIONS` are labelled ``None`` (reported as *possible*, never counted as
  missed conflicts).

  Splits: a pair is ``train`` when every case it comes from is in ``counterfact-train.json``,
  otherwise ``eval`` (edit + val), so nothing tuned on ``train`` has seen an evaluation case.

* **Breaking NLI** (Glockner et al. 2018): premise/hypothesis pairs that differ in one word.
  Synonym swaps labelled entailment are the non-conflicts; one-word swaps labelled
  contradiction are the conflicts, reported per category.

* **Persona statements** (ConvAI2 persona lines and utterances with Dialogue NLI triples,
  Welleck et al. 2019): sentences carrying exactly one annotated triple; two sentences with the
  same annotated subject and relation form a conflict when their objects differ and a
  non-conflict when they agree, for the relations in :data:`PERSONA_FUNCTIONAL` only.
"""

from __future__ import annotations

import ast
import hashlib
import json
import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.shared_data import SHARED_ENV, shared_dir
from extractors.lexicon import RELATIONS as LEXICON_RELATIONS
from extractors.relations import DEFAULT_TABLE, Cardinality


DATA_DIR = shared_dir() / "data"
"""``data/`` of the shared folder (:func:`benchmarks.shared_data.shared_dir`: the
``CONTRASCAN_SHARED`` variable, else ``shared/`` beside the checkout or one of its parents);
the runners take ``--data-dir`` to name another."""


def missing_data(data_dir: Path, what: str) -> FileNotFoundError:
    """The error for a data set that is not under ``data_dir``: says how to name another."""
    return FileNotFoundError(
        f"{Path(data_dir) / what} is missing: pass --data-dir, or set {SHARED_ENV} to the "
        "folder whose data/ holds the public data sets")

COUNTERFACT_SPLITS = ("train", "edit", "val")
TRAIN = "train"
EVAL = "eval"
TEST = "test"

PARAPHRASE = "paraphrase"
SAME_WORDING = "contradiction_same_wording"
REWORDED = "contradiction_reworded"
OTHER_SUBJECT = "same_relation_other_subject"
OTHER_RELATION = "same_subject_other_relation"
MULTI_VALUED = "both_true_multi_valued"
COUNTERFACT_CLASSES = (PARAPHRASE, SAME_WORDING, REWORDED, OTHER_SUBJECT, OTHER_RELATION,
                       MULTI_VALUED)
"""The six CounterFact pair classes of issue 5, in its order."""
CONFLICT_CLASSES = (SAME_WORDING, REWORDED)
REPHRASE_WITH_CONTEXT = "rephrase_with_context"
REPHRASE_BARE = "rephrase_bare"
ON_FUNCTIONAL = "functional_relation"
"""Variant of a class-6 pair whose relation the product holds functional ("PAX is located in
Boston" and "… in Melbourne": both true in the data, flagged by design)."""
ON_MULTI_VALUED = "multi_valued_relation"
"""Variant of a class-6 pair on any other relation (a city's twin cities)."""

NLI_ENTAILMENT = "synonym_entailment"
NLI_CONTRADICTION = "one_word_contradiction"
PERSONA_SAME = "same_object"
PERSONA_DIFFERENT = "different_object"


@dataclass(frozen=True, slots=True)
class Pair:
    """Two sentences and whether they cannot both be true.

    Attributes:
        pair_id: unique, stable id ("cf:2:paraphrase").
        dataset: ``counterfact`` | ``breaking_nli`` | ``persona``.
        kind: the pair class (``paraphrase``, ``contradiction_reworded``, ...).
        label: 1 = conflict, 0 = both can be true, ``None`` = a contradiction on a relation
            that is not functional (reported as *possible*, excluded from binary metrics).
        left: the first sentence; the search query for retrieval scores.
        right: the second sentence; the hit whose score is read.
        split: ``train`` (thresholds and tables may be chosen on it), ``eval`` or ``test``.
        relation: relation template ("The mother tongue of {} is"), NLI category, or DNLI
            relation.
        relation_id: Wikidata property id ("P103") when known, else "".
        functional: the relation holds one value at a time.
        pool: retrieval pool: the small store the pair's sentences share in Weaviate.
        variant: for pairs holding CounterFact's reworded fact (classes 1 and 3), where the
            rewording comes from: ``rephrase_with_context`` or ``rephrase_bare`` (see
            :attr:`CounterFactCase.rephrase_with_context`); for class 6, whether the relation
            is held functional (:data:`ON_FUNCTIONAL`, :data:`ON_MULTI_VALUED`); else "".
    """

    pair_id: str
    dataset: str
    kind: str
    label: int | None
    left: str
    right: str
    split: str
    relation: str
    relation_id: str = ""
    functional: bool = True
    pool: str = ""
    variant: str = ""


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# ------------------------------------------------------------------------------- CounterFact

@dataclass(frozen=True, slots=True)
class CounterFactCase:
    """One CounterFact record (EasyEdit/MEND format) and the split file it came from."""

    case_id: int
    split: str
    subject: str
    prompt: str
    ground_truth: str
    target_new: str
    rephrase_prompt: str
    locality_prompt: str
    locality_ground_truth: str

    @property
    def template(self) -> str:
        """The prompt with its (first) subject mention replaced by ``{}``."""
        return self.prompt.replace(self.subject, "{}", 1)

    @property
    def fact(self) -> str:
        """The true fact: prompt + ground truth."""
        return complete(self.prompt, self.ground_truth)

    @property
    def update(self) -> str:
        """The counterfactual update: prompt + ``target_new``."""
        return complete(self.prompt, self.target_new)

    @property
    def reworded(self) -> str:
        """The reworded fact: last sentence of ``rephrase_prompt`` + ground truth."""
        return complete(last_sentence(self.rephrase_prompt, self.subject), self.ground_truth)

    @property
    def rephrase_with_context(self) -> bool:
        """True when ``rephrase_prompt`` has a sentence before the rewording.

        ROME's CounterFact (Meng et al. 2022) has two kinds of rewordings: *paraphrase
        prompts*, a reworded relation template prefixed by an unrelated generated sentence
        ("The family then returned to Price. The headquarter of X is located in"), and
        *generation prompts*, bare and often stating an associated fact rather than the
        relation ("X currently lives in" for a place of birth, "X is my favorite product out
        of everything created by" for a manufacturer). This copy's ``rephrase_prompt`` mixes
        both; the prefix tells them apart (16% of cases have one).
        """
        return last_sentence(self.rephrase_prompt, self.subject) != self.rephrase_prompt.strip()

    @property
    def neighbour(self) -> str:
        """The neighbourhood fact: same relation, another subject, its true object."""
        return complete(self.locality_prompt, self.locality_ground_truth)


def complete(prompt: str, obj: str) -> str:
    """A statement from a cloze prompt and its object: ``"<prompt> <obj>."``."""
    text = f"{prompt.strip()} {obj.strip()}"
    return text if text.endswith((".", "!", "?")) else text + "."


_BOUNDARY = re.compile(r"""[.!?]["')\]]*\s+(?=["'(\[]?[A-Z0-9])""")


def last_sentence(text: str, subject: str = "") -> str:
    """The last sentence of ``text``, never cutting through ``subject``.

    A boundary is ``.``, ``!`` or ``?`` (closing quotes or brackets allowed) followed by white
    space and a capital letter or digit. The latest boundary after which ``subject`` still
    occurs wins, so "Clifford D. Simak passed away in" stays whole.

    Args:
        text: one or more sentences.
        subject: a name that the returned sentence must keep when ``text`` contains it.

    Returns:
        The stripped last sentence (``text`` itself when it has no boundary).
    """
    ends = [m.end() for m in _BOUNDARY.finditer(text)]
    for start in sorted(ends, reverse=True):
        if not subject or subject in text[start:] or subject not in text:
            return text[start:].strip()
    return text.strip()


def load_counterfact(data_dir: Path = DATA_DIR,
                     splits: Sequence[str] = COUNTERFACT_SPLITS) -> list[CounterFactCase]:
    """Read ``counterfact/counterfact-<split>.json`` for each split.

    Returns:
        Cases in file order, ``split`` set from the file name.

    Raises:
        FileNotFoundError: ``data_dir`` has no ``counterfact/`` (:func:`missing_data`).
        OSError: a file cannot be read.
    """
    if not (Path(data_dir) / "counterfact").is_dir():
        raise missing_data(data_dir, "counterfact")
    cases = []
    for split in splits:
        path = Path(data_dir) / "counterfact" / f"counterfact-{split}.json"
        with open(path, encoding="utf-8") as stream:
            for row in json.load(stream):
                cases.append(CounterFactCase(
                    case_id=int(row["case_id"]), split=split, subject=row["subject"],
                    prompt=row["prompt"], ground_truth=row["ground_truth"],
                    target_new=row["target_new"], rephrase_prompt=row["rephrase_prompt"],
                    locality_prompt=row["locality_prompt"],
                    locality_ground_truth=row["locality_ground_truth"]))
    return cases


def sample_cases(cases: Sequence[CounterFactCase], n: int | None,
                 seed: int = 0) -> list[CounterFactCase]:
    """About ``n`` cases drawn as whole subjects (seeded), so classes 5 and 6 — which need two
    cases of one subject — keep their share. ``None`` or ``n >= len(cases)`` keeps all."""
    if n is None or n >= len(cases):
        return list(cases)
    by_subject: dict[str, list[CounterFactCase]] = defaultdict(list)
    for case in cases:
        by_subject[case.subject].append(case)
    subjects = sorted(by_subject)
    random.Random(seed).shuffle(subjects)
    chosen: set[str] = set()
    total = 0
    for subject in subjects:
        if total >= n:
            break
        chosen.add(subject)
        total += len(by_subject[subject])
    return [c for c in cases if c.subject in chosen]


RELATION_REASONS: dict[str, str] = {
    # functional in the product's table (extractors.relations.DEFAULT_TABLE)
    "P17": "country: a place or organisation lies in one country",
    "P19": "place of birth: one birth",
    "P20": "place of death: one death",
    "P27": "country of citizenship: CounterFact gives one; dual citizenship is the exception",
    "P30": "continent: one (transcontinental states are the exception)",
    "P36": "capital: one seat of government",
    "P103": "native language: one mother tongue",
    "P108": "employer: one current employer (SPEC §1 lists 'works at' as functional); "
            "2 of 148 training subjects have two",
    "P127": "owned by: one owner at a time",
    "P131": "located in the administrative entity: one at a given level",
    "P138": "named after: one namesake",
    "P140": "religion: one affiliation at a time",
    "P159": "headquarters location: one head office",
    "P176": "manufacturer: one maker of a product",
    "P178": "developer: one developer of a product",
    "P264": "record label: one current label; no training subject has two",
    "P276": "location: one place",
    "P364": "original language of a work: one",
    "P407": "language of a work: one",
    "P413": "position played: one position per player in CounterFact (1 of 512 training "
            "subjects has two)",
    "P449": "original broadcaster: one first network",
    "P495": "country of origin: one",
    "P740": "location of formation: one founding place",
    # multi-valued in the product's table
    "P1376": "capital of: a city is the capital of nested territories (Lisbon: Portugal, "
             "Lisbon District); all 56 training P36 cases have a neighbour fact naming the "
             "same city as another territory's capital",
    "P37": "official language: many countries have several",
    "P39": "position held: a career holds several",
    "P47": "shares border with: several neighbours",
    "P101": "field of work: several",
    "P106": "occupation: several (actor and singer)",
    "P136": "genre: several",
    "P190": "twin city: several",
    "P279": "subclass of: several",
    "P361": "part of: several wholes",
    "P463": "member of: several organisations",
    "P530": "diplomatic relation: many countries",
    "P937": "work location: several",
    "P1001": "applies to jurisdiction: a law or office can apply to several",
    "P1303": "instrument: several",
    "P1412": "languages spoken, written or signed: several",
}
"""Why each Wikidata property of the ParaRel lexicon has the cardinality the product gives it.
The cardinality itself is not decided here: it is read from the product's own table
(:data:`extractors.relations.DEFAULT_TABLE`, which ``Engine.scan`` uses, applied to each
property's name in :data:`extractors.lexicon.RELATIONS`), so the benchmark labels
a counterfactual pair a conflict exactly when the product's contract (SPEC §1) says two values
of that relation cannot both hold. The training counts quoted are subjects of
``counterfact-train.json`` with several true objects under one relation (recorded in every
run's JSON as ``counterfact_train_evidence``)."""

FUNCTIONAL_RELATIONS: dict[str, str] = {
    rid: RELATION_REASONS[rid] for rid, (name, _) in sorted(LEXICON_RELATIONS.items())
    if DEFAULT_TABLE.cardinality(name) is Cardinality.functional}
"""Wikidata properties the product treats as functional (one value at a time), with the
reason. A counterfactual update on one of these cannot hold together with the fact."""

MULTI_VALUED_RELATIONS: dict[str, str] = {
    rid: RELATION_REASONS[rid] for rid in sorted(LEXICON_RELATIONS)
    if rid not in FUNCTIONAL_RELATIONS}
"""Wikidata properties the product treats as multi-valued: a counterfactual object may be true
alongside the fact, so those pairs are *possible* (label ``None``)."""


def load_pararel_templates(data_dir: Path = DATA_DIR) -> dict[str, frozenset[str]]:
    """ParaRel patterns that end in the object, as CounterFact templates.

    ``"The mother tongue of [X] is [Y]."`` becomes ``"The mother tongue of {} is"``.

    Returns:
        template -> the relation ids whose pattern files contain it (some patterns, such as
        ``"{} is located in"``, belong to several relations).

    Raises:
        OSError: the pattern folder cannot be read.
    """
    out: dict[str, set[str]] = defaultdict(set)
    for path in sorted((Path(data_dir) / "pararel" / "graphs_json").glob("P*.jsonl")):
        relation_id = path.stem
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            pattern = json.loads(line)["pattern"].strip().rstrip(".").rstrip()
            if pattern.endswith("[Y]") and pattern.count("[X]") == 1:
                out[pattern[:-3].rstrip().replace("[X]", "{}")].add(relation_id)
    return {k: frozenset(v) for k, v in out.items()}


def _template_regex(template: str) -> re.Pattern[str]:
    head, tail = template.split("{}", 1)
    return re.compile("^" + re.escape(head) + r"(.+?)" + re.escape(tail) + "$")


@dataclass(frozen=True)
class RelationMap:
    """CounterFact template -> Wikidata relation id, built from training cases only.

    Attributes:
        templates: template -> relation id.
        votes: template -> relation id -> number of training cases that voted for it.
        source: template -> how it was mapped (``pararel`` exact and unambiguous,
            ``train_vote`` by neighbourhood prompts of training cases).
        pararel: the ParaRel templates, for templates never seen in training.
        objects: relation id -> the objects (lower-cased ``ground_truth`` and ``target_new``)
            of the training cases whose template maps to it alone (one ParaRel relation, or a
            unanimous vote): the relation's object type, as far as training shows it.
    """

    templates: Mapping[str, str]
    votes: Mapping[str, Mapping[str, int]]
    source: Mapping[str, str]
    pararel: Mapping[str, frozenset[str]] = field(default_factory=dict)
    objects: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def relation_id(self, template: str, obj: str = "") -> str:
        """The relation id of a template, or ``""`` when neither training nor an unambiguous
        ParaRel pattern names it.

        A template the training votes give to several relations ("{}, the" is a position
        played, an instrument or a genre) is settled per case by its true object ``obj``:
        when exactly one of the voted relations has ``obj`` among its training objects
        (:attr:`objects`) and the product names it differently from the majority (P17, P131
        and P276 are all "located in" and stay one relation), that one; otherwise the
        template's majority.
        """
        votes = self.votes.get(template, {})
        if obj and len(votes) > 1 and template in self.templates:
            key = obj.strip().lower()
            fits = [r for r in sorted(votes) if key in self.objects.get(r, ())]
            if len(fits) == 1 and _product_name(fits[0]) != _product_name(
                    self.templates[template]):
                return fits[0]
        if template in self.templates:
            return self.templates[template]
        ids = self.pararel.get(template, frozenset())
        return next(iter(ids)) if len(ids) == 1 else ""

    def to_json(self) -> dict:
        """The table as plain JSON (recorded in every run's results)."""
        return {t: {"relation_id": r, "source": self.source[t], "votes": dict(self.votes[t])}
                for t, r in sorted(self.templates.items())}


def _product_name(relation_id: str) -> str:
    """The product's canonical relation for a Wikidata id (:data:`extractors.lexicon.RELATIONS`)."""
    return LEXICON_RELATIONS.get(relation_id, (relation_id, ""))[0]


def build_relation_map(train_cases: Iterable[CounterFactCase],
                       pararel: Mapping[str, frozenset[str]]) -> RelationMap:
    """Map every training template to one relation id.

    A template that is exactly one ParaRel pattern of one relation maps to it. Otherwise each
    training case votes with the relations whose ParaRel patterns match its neighbourhood
    prompt (same relation, other subject), intersected with the template's own ParaRel
    relations when it has any; the template takes the majority (ties: the smaller id). A
    template with votes for several relations is settled per case by the case's true object
    (:meth:`RelationMap.relation_id`).

    Args:
        train_cases: cases of ``counterfact-train.json`` only (others raise).
        pararel: :func:`load_pararel_templates`.

    Raises:
        ValueError: a case from another split was passed.
    """
    train_cases = list(train_cases)
    regexes = [(_template_regex(t), ids) for t, ids in sorted(pararel.items())]
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for case in train_cases:
        if case.split != TRAIN:
            raise ValueError(f"case {case.case_id} is from {case.split!r}, not train")
        own = pararel.get(case.template, frozenset())
        if len(own) == 1:
            votes[case.template][next(iter(own))] += 1
            continue
        found: set[str] = set()
        for regex, ids in regexes:
            if regex.match(case.locality_prompt.strip()):
                found |= ids
        if own:
            found = (found & own) or set(own)
        for relation_id in found:
            votes[case.template][relation_id] += 1
    templates, source = {}, {}
    for template, counter in votes.items():
        best = min(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        templates[template] = best
        own = pararel.get(template, frozenset())
        source[template] = "pararel" if len(own) == 1 else "train_vote"
    objects: dict[str, set[str]] = defaultdict(set)
    for case in train_cases:
        if len(votes.get(case.template, {})) == 1:
            objects[templates[case.template]].update(
                o.strip().lower() for o in (case.ground_truth, case.target_new))
    return RelationMap(templates=templates, votes={t: dict(v) for t, v in votes.items()},
                       source=source, pararel=dict(pararel),
                       objects={r: frozenset(v) for r, v in objects.items()})


def is_functional(relation_id: str) -> bool:
    """Whether a Wikidata relation id is in :data:`FUNCTIONAL_RELATIONS`."""
    return relation_id in FUNCTIONAL_RELATIONS


def counterfact_pairs(cases: Sequence[CounterFactCase], relations: RelationMap) -> list[Pair]:
    """The six CounterFact pair classes (module docstring) for ``cases``.

    Classes 5 and 6 pair the cases of one subject: two cases whose relation ids differ (or, when
    either is unmapped, whose templates differ) give class 5; two cases of one relation with
    different true objects give class 6; two cases of one relation with the same object
    restate each other and give no pair. Each unordered pair of cases appears once, the lower
    case id on the left.

    Args:
        cases: any mix of splits.
        relations: the template table from :func:`build_relation_map` (training cases only).

    Returns:
        Pairs in case order; pool = the subject, so every sentence about one subject shares a
        retrieval pool.
    """
    out: list[Pair] = []
    by_subject: dict[str, list[CounterFactCase]] = defaultdict(list)
    for case in cases:
        by_subject[case.subject].append(case)
    for case in cases:
        rid = relations.relation_id(case.template, case.ground_truth)
        functional = is_functional(rid)
        split = TRAIN if case.split == TRAIN else EVAL
        pool = f"cf:{case.subject}"
        conflict = 1 if functional else None

        variant = REPHRASE_WITH_CONTEXT if case.rephrase_with_context else REPHRASE_BARE

        def pair(kind: str, left: str, right: str, label: int | None, variant: str = "",
                 _case: CounterFactCase = case, _rid: str = rid, _split: str = split,
                 _functional: bool = functional, _pool: str = pool) -> Pair:
            return Pair(pair_id=f"cf:{_case.case_id}:{kind}", dataset="counterfact", kind=kind,
                        label=label, left=left, right=right, split=_split,
                        relation=_case.template, relation_id=_rid, functional=_functional,
                        pool=_pool, variant=variant)

        out.append(pair(PARAPHRASE, case.fact, case.reworded, 0, variant))
        out.append(pair(SAME_WORDING, case.fact, case.update, conflict))
        out.append(pair(REWORDED, case.reworded, case.update, conflict, variant))
        out.append(pair(OTHER_SUBJECT, case.fact, case.neighbour, 0))
        for other in by_subject[case.subject]:
            if other.case_id <= case.case_id:
                continue
            orid = relations.relation_id(other.template, other.ground_truth)
            same_relation = (rid == orid) if (rid and orid) else case.template == other.template
            if not same_relation:
                kind = OTHER_RELATION
            elif other.ground_truth.strip().lower() != case.ground_truth.strip().lower():
                kind = MULTI_VALUED
            else:
                continue
            # class 6 is also broken down by the relation's cardinality in the product's table:
            # two true objects on a relation held functional are the data's exception to it
            both_true = (ON_FUNCTIONAL if functional else ON_MULTI_VALUED) \
                if kind == MULTI_VALUED else ""
            out.append(Pair(
                pair_id=f"cf:{case.case_id}+{other.case_id}:{kind}", dataset="counterfact",
                kind=kind, label=0, left=case.fact, right=other.fact,
                split=TRAIN if case.split == TRAIN and other.split == TRAIN else EVAL,
                relation=case.template, relation_id=rid, functional=functional, pool=pool,
                variant=both_true))
    return out


# ------------------------------------------------------------------------------ Breaking NLI

def breaking_nli_pairs(data_dir: Path = DATA_DIR) -> list[Pair]:
    """Breaking NLI: synonym-swap entailments (label 0) and one-word-swap contradictions
    (label 1, ``relation`` = the category). Other entailments (hypernyms such as "saxophone" ->
    "instrument") and neutral pairs are left out. Pool = the premise.

    Raises:
        OSError: ``breaking_nli/data/dataset.jsonl`` cannot be read.
    """
    out = []
    path = Path(data_dir) / "breaking_nli" / "data" / "dataset.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        gold, category = row["gold_label"], row["category"]
        if gold == "entailment" and category == "synonyms":
            kind, label = NLI_ENTAILMENT, 0
        elif gold == "contradiction":
            kind, label = NLI_CONTRADICTION, 1
        else:
            continue
        out.append(Pair(pair_id=f"bnli:{row['pairID']}", dataset="breaking_nli", kind=kind,
                        label=label, left=row["sentence1"].strip(),
                        right=row["sentence2"].strip(), split=TEST, relation=category,
                        pool=f"bnli:{row['sentence1'].strip()}"))
    return out


# ---------------------------------------------------------------------------------- persona

PERSONA_FUNCTIONAL: dict[str, str] = {
    "has_age": "a person has one age",
    "gender": "one gender per person in these personas",
    "marital_status": "married, single, divorced, engaged: one at a time",
    "job_status": "employed, retired, unemployed: one at a time",
    "live_in_citystatecountry": "one place of residence (SPEC §1: lives in is functional)",
    "employed_by_company": "one employer named (SPEC §1: works at is functional)",
    "favorite_color": "a favourite names one choice (SPEC §1: preferred X)",
    "favorite_food": "a favourite names one choice",
    "favorite_season": "a favourite names one choice",
    "favorite_sport": "a favourite names one choice",
    "favorite_animal": "a favourite names one choice",
    "favorite_drink": "a favourite names one choice",
    "favorite_music": "a favourite names one choice",
    "favorite_music_artist": "a favourite names one choice",
    "favorite_movie": "a favourite names one choice",
    "favorite_show": "a favourite names one choice",
    "favorite_activity": "a favourite names one choice",
    "favorite_hobby": "a favourite names one choice",
    "favorite_place": "a favourite names one choice",
}
"""Dialogue NLI relations treated as functional, with the reason. Left out on purpose:
``has_profession`` and ``previous_profession`` (people hold two jobs), ``place_origin`` and
``live_in_general`` (objects mix levels: "a farm" and "wisconsin" can both be true),
``school_status`` and ``attend_school`` (mixed object types), the untyped ``favorite``, and every
``like_*``, ``have_*``, ``own`` and ``want*`` relation (many values at once)."""

_BLANK_OBJECT = re.compile(r"<blank>")


def read_persona_sentences(data_dir: Path = DATA_DIR) -> dict[str, tuple[str, str, str]]:
    """Distinct sentences of the ConvAI2 Dialogue NLI files that carry exactly one triple.

    Persona lines look like ``"your persona: <text>\\t[triple]"``, utterances like
    ``"<n>\\t<text>\\t[triple]\\t[triple]..."``; a triple is a Python list literal
    ``['i', 'favorite_color', 'purple']``.

    Returns:
        sentence -> ``(subject, relation, object)``; a sentence annotated with different
        single triples in different places is dropped.

    Raises:
        OSError: a file cannot be read.
    """
    seen: dict[str, set[tuple[str, str, str]]] = defaultdict(set)
    folder = Path(data_dir) / "convai2_dnli_triples"
    for path in sorted(folder.glob("*_both_original_dialogueNLI.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            parts = line.split("\t")
            if "persona:" in parts[0]:
                text, annotations = parts[0].split("persona:", 1)[1], parts[1:]
            elif len(parts) >= 2:
                text, annotations = parts[1], parts[2:]
            else:
                continue
            triples = [a for a in annotations if a.startswith("[")]
            if len(triples) != 1:
                continue
            subject, relation, obj = (str(x).strip() for x in ast.literal_eval(triples[0]))
            seen[text.strip()].add((subject, relation, obj))
    return {text: next(iter(ts)) for text, ts in seen.items() if len(ts) == 1 and text}


def persona_pairs(data_dir: Path = DATA_DIR, seed: int = 0) -> list[Pair]:
    """Persona pairs on :data:`PERSONA_FUNCTIONAL` relations.

    For each sentence (in sorted order), one partner with the same subject, relation and
    object (label 0, ``same_object``) and one with the same subject and relation but another
    object (label 1, ``different_object``) are drawn with a seeded generator; each unordered
    pair is kept once. Objects containing ``<blank>`` are skipped. Pool = the left sentence.

    Raises:
        OSError: a file cannot be read.
    """
    sentences = read_persona_sentences(data_dir)
    groups: dict[tuple[str, str], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for text in sorted(sentences):
        subject, relation, obj = sentences[text]
        if relation in PERSONA_FUNCTIONAL and obj and not _BLANK_OBJECT.search(obj):
            groups[(subject, relation)][obj].append(text)
    rng = random.Random(seed)
    out: list[Pair] = []
    done: set[tuple[str, str]] = set()
    for (subject, relation), by_object in sorted(groups.items()):
        objects = sorted(by_object)
        for obj in objects:
            for text in by_object[obj]:
                same = [t for t in by_object[obj] if t != text]
                other = [t for o in objects if o != obj for t in by_object[o]]
                for kind, label, pool_ in ((PERSONA_SAME, 0, same),
                                           (PERSONA_DIFFERENT, 1, other)):
                    if not pool_:
                        continue
                    partner = rng.choice(pool_)
                    key = (min(text, partner), max(text, partner))
                    if key in done:
                        continue
                    done.add(key)
                    out.append(Pair(
                        pair_id=f"persona:{len(out)}", dataset="persona", kind=kind,
                        label=label, left=text, right=partner, split=TEST, relation=relation,
                        pool=f"persona:{text}"))
    return out


def data_files(data_dir: Path = DATA_DIR) -> list[Path]:
    """Every data file the pair builders read (for the hashes recorded with each run)."""
    root = Path(data_dir)
    files = [root / "counterfact" / f"counterfact-{s}.json" for s in COUNTERFACT_SPLITS]
    files += sorted((root / "pararel" / "graphs_json").glob("P*.jsonl"))
    files.append(root / "breaking_nli" / "data" / "dataset.jsonl")
    files += sorted((root / "convai2_dnli_triples").glob("*_both_original_dialogueNLI.txt"))
    return files
