"""Benchmarks (issue 5): pair builders on slices of the real files, metric code against
scikit-learn, and the structural detector wrapper against ``scan-file``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import (average_precision_score, f1_score, precision_score, recall_score,
                             roc_auc_score)

from benchmarks import pairs as P
from benchmarks.detectors import (AGREEMENT, FLAG_THRESHOLD, FLAGGED, NONE, OUTCOME_SCORES,
                                  POSSIBLE, UNCONFIRMED, StructuralDetector, agreeing_pairs,
                                  outcomes_from_report, jaccard, pair_records)
from benchmarks.evaluators import (ContradictionEvaluator, ThresholdChooser, at_threshold,
                                   average_precision, best_f1_threshold, choose_orientation,
                                   roc_auc)
from benchmarks.report import BEGIN, END, markdown_table, write_readme

DATA = P.DATA_DIR
needs_data = pytest.mark.skipif(
    not (DATA / "counterfact").exists(),
    reason=f"{DATA / 'counterfact'} is not present (set {P.SHARED_ENV} to the folder whose "
           "data/ holds it)")


# ------------------------------------------------------------------------------ CounterFact

@pytest.fixture(scope="module")
def counterfact():
    return P.load_counterfact(DATA)


@pytest.fixture(scope="module")
def relations(counterfact):
    return P.build_relation_map([c for c in counterfact if c.split == P.TRAIN],
                                P.load_pararel_templates(DATA))


@needs_data
def test_counterfact_files_and_sentences(counterfact):
    assert Counter(c.split for c in counterfact) == {"train": 10000, "edit": 10000,
                                                     "val": 1919}
    assert len({c.case_id for c in counterfact}) == 21919
    case = next(c for c in counterfact if c.case_id == 0)
    assert case.split == "edit"
    assert case.template == "The mother tongue of {} is"
    assert case.fact == "The mother tongue of Danielle Darrieux is French."
    assert case.update == "The mother tongue of Danielle Darrieux is English."
    assert case.reworded == "Where Danielle Darrieux is from, people speak the language of French."
    assert case.neighbour == "Michel Rocard is a native speaker of French."


@pytest.mark.parametrize("text, subject, expected", [
    ("and Sallie Beavers Riley. Autonomous University of Madrid is located in",
     "Autonomous University of Madrid", "Autonomous University of Madrid is located in"),
    ("Heartwell is a village in Kearney County, Nebraska, United States. Kip S. Thorne works "
     "in the field of", "Kip S. Thorne", "Kip S. Thorne works in the field of"),
    ("Code optimization \nSee the main article at Optimization (computer science). The "
     "official religion of L. Ron Hubbard is", "L. Ron Hubbard",
     "The official religion of L. Ron Hubbard is"),
    ("Isaac Newton is known for", "Isaac Newton", "Isaac Newton is known for"),
    ("First one. Second one? Third one", "", "Third one"),
])
def test_last_sentence_keeps_the_subject(text, subject, expected):
    assert P.last_sentence(text, subject) == expected


@needs_data
def test_last_sentence_on_every_rephrase_prompt_keeps_the_subject(counterfact):
    assert all(c.subject in P.last_sentence(c.rephrase_prompt, c.subject) for c in counterfact)


@needs_data
def test_relation_map_is_built_on_train_only(counterfact, relations):
    with pytest.raises(ValueError, match="not train"):
        P.build_relation_map([c for c in counterfact if c.split == "edit"][:3],
                             P.load_pararel_templates(DATA))
    assert relations.relation_id("The mother tongue of {} is") == "P103"
    assert relations.source["The mother tongue of {} is"] == "pararel"
    # an ambiguous ParaRel pattern is settled by training votes, among its own relations
    assert relations.relation_id("{} is located in") in {"P17", "P131", "P30", "P276"}
    assert set(P.FUNCTIONAL_RELATIONS).isdisjoint(P.MULTI_VALUED_RELATIONS)


def test_functional_relations_are_the_products_table():
    from extractors.lexicon import RELATIONS
    from extractors.relations import DEFAULT_TABLE, Cardinality

    assert set(P.RELATION_REASONS) == set(RELATIONS)
    assert set(P.FUNCTIONAL_RELATIONS) | set(P.MULTI_VALUED_RELATIONS) == set(RELATIONS)
    for rid, (name, _) in RELATIONS.items():
        functional = DEFAULT_TABLE.cardinality(name) is Cardinality.functional
        assert P.is_functional(rid) == functional, (rid, name)
    # SPEC §1: "works at" is functional, so the employer relation is too
    assert P.is_functional("P108") and not P.is_functional("P106")


@needs_data
def test_rewordings_with_and_without_a_context_sentence(counterfact, relations):
    by_id = {c.case_id: c for c in counterfact}
    assert not by_id[0].rephrase_with_context  # "Where Danielle Darrieux is from, people ..."
    assert by_id[1].rephrase_with_context  # "Regarding individual vitamin ... Edwin of ..."
    built = P.counterfact_pairs([by_id[0], by_id[1]], relations)
    variants = {(p.pair_id, p.variant) for p in built if p.variant}
    assert variants == {("cf:0:paraphrase", P.REPHRASE_BARE),
                        ("cf:0:contradiction_reworded", P.REPHRASE_BARE),
                        ("cf:1:paraphrase", P.REPHRASE_WITH_CONTEXT),
                        ("cf:1:contradiction_reworded", P.REPHRASE_WITH_CONTEXT)}
    share = sum(c.rephrase_with_context for c in counterfact) / len(counterfact)
    assert 0.15 < share < 0.17


@needs_data
def test_counterfact_pair_classes_on_a_slice(counterfact, relations):
    subjects = Counter(c.subject for c in counterfact)
    several = [s for s, n in subjects.items() if n > 2][:40]
    chosen = [c for c in counterfact if c.subject in several][:120]
    chosen += [c for c in counterfact if c.case_id in (0, 3)]
    built = P.counterfact_pairs(chosen, relations)
    kinds = Counter(p.kind for p in built)
    for kind in (P.PARAPHRASE, P.SAME_WORDING, P.REWORDED, P.OTHER_SUBJECT):
        assert kinds[kind] == len(chosen)
    assert kinds[P.OTHER_RELATION] > 0 and kinds[P.MULTI_VALUED] > 0
    by_case = {c.case_id: c for c in chosen}
    for pair in built:
        case = by_case[int(pair.pair_id.split(":")[1].split("+")[0])]
        assert pair.pool == f"cf:{case.subject}"
        if pair.kind in P.CONFLICT_CLASSES:
            assert pair.label == (1 if P.is_functional(pair.relation_id) else None)
            assert pair.right == case.update
        else:
            assert pair.label == 0
        if pair.kind == P.MULTI_VALUED:
            assert pair.variant == (P.ON_FUNCTIONAL if pair.functional else P.ON_MULTI_VALUED)
        if "+" in pair.pair_id:
            a, b = (by_case[int(x)] for x in pair.pair_id.split(":")[1].split("+"))
            assert a.subject == b.subject and a.case_id < b.case_id
            assert pair.split == ("train" if a.split == b.split == "train" else "eval")
            same = (relations.relation_id(a.template, a.ground_truth)
                    == relations.relation_id(b.template, b.ground_truth))
            assert same == (pair.kind == P.MULTI_VALUED)
        else:
            assert pair.split == ("train" if case.split == "train" else "eval")
    assert [p for p in built if p.pair_id == "cf:0:paraphrase"][0].relation_id == "P103"
    assert len({p.pair_id for p in built}) == len(built)


@needs_data
def test_sample_keeps_whole_subjects(counterfact):
    sample = P.sample_cases(counterfact, 500, seed=1)
    assert 500 <= len(sample) < 520
    subjects = {c.subject for c in sample}
    assert len(sample) == sum(1 for c in counterfact if c.subject in subjects)
    assert P.sample_cases(counterfact, 500, seed=1) == sample
    assert P.sample_cases(counterfact, None) == counterfact


# ------------------------------------------------------------------ Breaking NLI and persona

@needs_data
def test_breaking_nli_pairs():
    built = P.breaking_nli_pairs(DATA)
    assert Counter((p.kind, p.label) for p in built) == {
        (P.NLI_CONTRADICTION, 1): 7164, (P.NLI_ENTAILMENT, 0): 894}
    assert {p.relation for p in built if p.label == 0} == {"synonyms"}
    assert "synonyms" not in {p.relation for p in built if p.label == 1}
    first = next(p for p in built if p.pair_id == "bnli:3107")
    assert first.left == "Several women stand on a platform near the yellow line."
    assert first.right == "Several women stand on a platform near the red line."
    assert first.relation == "colors" and first.pool == f"bnli:{first.left}"


@needs_data
def test_persona_pairs_use_functional_relations_and_annotated_objects():
    sentences = P.read_persona_sentences(DATA)
    assert sentences["horror movies are my favorites."] == ("i", "favorite_movie", "horror")
    assert sentences["i read twenty books a year."] == ("i", "has_hobby", "reading")
    built = P.persona_pairs(DATA, seed=0)
    assert built == P.persona_pairs(DATA, seed=0)
    assert {p.relation for p in built} <= set(P.PERSONA_FUNCTIONAL)
    for pair in built:
        a, b = sentences[pair.left], sentences[pair.right]
        assert a[:2] == b[:2] == (a[0], pair.relation)
        assert pair.label == int(a[2] != b[2])
        assert pair.kind == (P.PERSONA_DIFFERENT if pair.label else P.PERSONA_SAME)
    labels = Counter(p.label for p in built)
    assert labels[0] > 500 and labels[1] > 500
    keys = [tuple(sorted((p.left, p.right))) for p in built]
    assert len(keys) == len(set(keys))


def test_data_files_are_listed_and_hashed(tmp_path):
    (tmp_path / "x.txt").write_bytes(b"abc")
    assert P.sha256_file(tmp_path / "x.txt") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")


# ------------------------------------------------------------------------------- metrics

LABELS = np.array([0, 0, 1, 1, 0, 1, 1, 0, 1, 0])
SCORES = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.55, 0.6, 0.3, 0.05])


def test_roc_auc_and_average_precision_match_scikit_learn():
    assert roc_auc(LABELS, SCORES) == pytest.approx(roc_auc_score(LABELS, SCORES))
    assert average_precision(LABELS, SCORES) == pytest.approx(
        average_precision_score(LABELS, SCORES))
    assert roc_auc([1, 1], [0.2, 0.3]) is None
    assert average_precision([0, 0], [0.2, 0.3]) is None


def test_best_f1_threshold_is_the_best_of_every_cut():
    best = best_f1_threshold(LABELS, SCORES)
    cuts = {t: f1_score(LABELS, (SCORES >= t).astype(int)) for t in SCORES}
    assert best.f1 == pytest.approx(max(cuts.values()))
    assert cuts[best.threshold] == pytest.approx(best.f1)
    flagged = (SCORES >= best.threshold).astype(int)
    assert best.precision == pytest.approx(precision_score(LABELS, flagged))
    assert best.recall == pytest.approx(recall_score(LABELS, flagged))
    with pytest.raises(ValueError):
        best_f1_threshold([0, 0], [0.1, 0.2])


def test_at_threshold_and_orientation():
    res = at_threshold(LABELS, SCORES, 0.5)
    flagged = (SCORES >= 0.5).astype(int)
    assert res.precision == pytest.approx(precision_score(LABELS, flagged))
    assert res.recall == pytest.approx(recall_score(LABELS, flagged))
    assert res.f1 == pytest.approx(f1_score(LABELS, flagged))
    assert res.flagged_negatives == pytest.approx(flagged[LABELS == 0].mean())
    assert choose_orientation(LABELS, SCORES) == 1
    assert choose_orientation(LABELS, -SCORES) == -1


def _pairs(labels, kinds) -> list[P.Pair]:
    return [P.Pair(pair_id=str(i), dataset="t", kind=k, label=lab, left="a", right="b",
                   split="test", relation="r" if i % 2 else "s")
            for i, (lab, k) in enumerate(zip(labels, kinds))]


def test_evaluator_matches_scikit_learn_and_keeps_possible_apart():
    kinds = ["neg" if lab == 0 else "pos" for lab in LABELS]
    pairs = _pairs(list(LABELS) + [None, None], kinds + ["pos", "pos"])
    scores = np.concatenate([SCORES, [0.99, 0.01]])
    evaluator = ContradictionEvaluator(pairs, "t", positive_kinds=["pos"], min_group=1)
    assert evaluator.primary_metric == "t_roc_auc"
    # lower score = conflict: direction -1, threshold in the score's own units
    out = evaluator(-scores, direction=-1, threshold=-0.5)
    assert out["t_roc_auc"] == pytest.approx(roc_auc_score(LABELS, SCORES))
    assert out["t_average_precision"] == pytest.approx(average_precision_score(LABELS, SCORES))
    flagged = (SCORES >= 0.5).astype(int)
    assert out["t_recall"] == pytest.approx(recall_score(LABELS, flagged))
    assert out["t_precision"] == pytest.approx(precision_score(LABELS, flagged))
    assert out["t_n"] == 10 and out["t_class_pos_possible_n"] == 2
    assert out["t_class_pos_flagged"] == pytest.approx(recall_score(LABELS, flagged))
    assert out["t_class_pos_possible_flagged"] == pytest.approx(0.5)
    best = best_f1_threshold(LABELS, SCORES)
    assert out["t_oracle_f1"] == pytest.approx(best.f1)
    assert out["t_oracle_threshold"] == pytest.approx(-best.threshold)
    rows = [i for i in range(10) if i % 2]
    assert out["t_relations"]["r"]["roc_auc"] == pytest.approx(
        roc_auc_score(LABELS[rows], SCORES[rows]))
    with pytest.raises(ValueError):
        evaluator(SCORES)


def test_evaluator_reports_variants_and_classes_per_relation():
    kinds = ["neg" if lab == 0 else "pos" for lab in LABELS]
    pairs = [P.Pair(pair_id=str(i), dataset="t", kind=k, label=int(lab), left="a", right="b",
                    split="test", relation="r", relation_id="P1" if i < 6 else "",
                    variant="v" if i < 4 else "")
             for i, (lab, k) in enumerate(zip(LABELS, kinds))]
    out = ContradictionEvaluator(pairs, "t", positive_kinds=["pos"], min_group=1)(
        SCORES, threshold=0.5)
    flagged = SCORES >= 0.5
    for kind in ("pos", "neg"):
        rows = [i for i in range(4) if kinds[i] == kind]
        if rows:
            assert out[f"t_class_{kind}__v_n"] == len(rows)
            assert out[f"t_class_{kind}__v_flagged"] == pytest.approx(flagged[rows].mean())
    classes = out["t_relations"]["r"]["classes"]
    for kind in ("pos", "neg"):
        rows = [i for i in range(10) if kinds[i] == kind]
        assert classes[kind] == {"n": len(rows), "labelled": len(rows),
                                 "flagged": pytest.approx(flagged[rows].mean())}
    assert set(out["t_relation_ids"]) == {"P1", "unmapped"}
    assert out["t_relation_ids"]["P1"]["n"] == 6


def test_threshold_chooser_picks_direction_and_threshold_on_its_pairs():
    chooser = ThresholdChooser(_pairs(list(LABELS), ["k"] * 10), "train")
    assert chooser.primary_metric == "train_f1"
    out = chooser(1 - SCORES)
    assert out["train_direction"] == -1
    best = best_f1_threshold(LABELS, SCORES)
    assert out["train_threshold"] == pytest.approx(1 - best.threshold)
    assert out["train_f1"] == pytest.approx(best.f1)


def test_jaccard():
    assert jaccard("The cat sat.", "the cat sat") == 1.0
    assert jaccard("a b", "b c") == pytest.approx(1 / 3)


# ------------------------------------------------------------------- structural detector

HAND_MADE = [
    ("On rack 4 the preferred glaze is celadon.", "On rack 4 the preferred glaze is tenmoku.",
     {FLAGGED}),
    ("Acme acquired Beta in 2021.", "Beta was acquired by Acme in 2021.", {AGREEMENT, NONE}),
    ("The user tested with model A.", "The user tested with model B.", {NONE}),
]


def test_structural_detector_on_hand_made_pairs(engine, tmp_path: Path):
    pairs = [P.Pair(pair_id=f"h{i}", dataset="hand", kind="k", label=None, left=a, right=b,
                    split="test", relation="r") for i, (a, b, _) in enumerate(HAND_MADE)]
    detector = StructuralDetector(engine)
    outcomes = detector.outcomes(pairs)
    for outcome, (_, _, allowed) in zip(outcomes, HAND_MADE):
        assert outcome in allowed
    scores, again = detector.scores(pairs)
    assert again == outcomes and scores[0] == 1.0 and scores[2] == OUTCOME_SCORES[NONE]

    # the same records through `contrascan scan-file`'s method give the same conflicts
    path = tmp_path / "pairs.jsonl"
    with open(path, "w", encoding="utf-8") as stream:
        for i, pair in enumerate(pairs):
            for record in pair_records(i, pair):
                stream.write(record.model_dump_json(exclude_none=True) + "\n")
    report = engine.scan_file(path)
    assert not report.rejected
    flagged = {tuple(c.members) for c in report.conflicts if c.verdict != "possible"}
    possible = {tuple(c.members) for c in report.conflicts if c.verdict == "possible"}
    for i, outcome in enumerate(outcomes):
        members = (f"p{i}-a", f"p{i}-b")
        assert (members in flagged) == (outcome in (FLAGGED, UNCONFIRMED))
        assert (members in possible) == (outcome == POSSIBLE)


def test_outcomes_read_the_strongest_verdict_of_each_pair():
    from scanner.models import Conflict, ConflictKey, ScanReport

    def conflict(i: int, verdict: str, rule: str | None) -> Conflict:
        key = ConflictKey(user_id=f"bench-{i}", subject="x", relation="r")
        return Conflict(key=key, kind="value_mismatch", members=[f"p{i}-a", f"p{i}-b"],
                        values={f"p{i}-a": "a", f"p{i}-b": "b"}, verdict=verdict, rule=rule)

    report = ScanReport(scanned=12, conflicts=[
        conflict(0, "resolved", "recency"), conflict(1, "quarantined", "subject_unconfirmed"),
        conflict(2, "possible", "unknown_cardinality"), conflict(4, "possible", None),
        conflict(4, "quarantined", "subject_unconfirmed"), conflict(5, "resolved", "recency")],
        duplicates=[["p3-a", "p3-b"], ["p5-a", "p5-b"]])
    outcomes = outcomes_from_report(report, 6)
    assert outcomes == [FLAGGED, UNCONFIRMED, POSSIBLE, AGREEMENT, UNCONFIRMED, FLAGGED]
    assert outcomes_from_report(report, 2, offset=4) == [UNCONFIRMED, FLAGGED]
    order = [OUTCOME_SCORES[o] for o in (FLAGGED, UNCONFIRMED, POSSIBLE, NONE, AGREEMENT)]
    assert order == sorted(order, reverse=True) and len(set(order)) == 5
    assert FLAG_THRESHOLD == OUTCOME_SCORES[UNCONFIRMED]


def test_agreement_is_one_key_with_a_shared_value():
    from extractors import Triple

    def triple(subject: str, relation: str, obj: str, negated: bool = False) -> Triple:
        return Triple(subject=subject, relation=relation, object=obj, negated=negated)

    def pair(i: int) -> list:
        return list(pair_records(i, P.Pair(pair_id=f"h{i}", dataset="hand", kind="k",
                                           label=None, left="a", right="b", split="test",
                                           relation="r")))

    records = pair(0) + pair(1) + pair(2) + pair(3)
    triples = [
        # 0: same key, same value, and an extra triple on one side: agreement
        [triple("x", "capital", "paris")],
        [triple("x", "capital", "paris"), triple("x", "continent", "europe")],
        # 1: same key, different values (a multi-valued relation gives no conflict): none
        [triple("x", "twin city", "rome")], [triple("x", "twin city", "kyoto")],
        # 2: different keys: none (its left record states pair 0's fact, in another scope)
        [triple("x", "capital", "paris")], [triple("y", "capital", "paris")],
        # 3: asserted vs denied is a polarity question, not an agreement
        [triple("x", "like", "tea")], [triple("x", "like", "tea", negated=True)],
    ]
    assert agreeing_pairs(records, triples) == {0}


# ---------------------------------------------------------------------------- README table

def _document() -> dict:
    det = {"direction": 1, "threshold": 0.5, "train": {"fixed": False},
           "counterfact_eval": {"roc_auc": 0.6, "average_precision": 0.5,
                                f"class_{P.SAME_WORDING}_flagged": 0.9,
                                f"class_{P.REWORDED}_flagged": 0.7, "flagged_negatives": 0.4,
                                f"class_{P.PARAPHRASE}_flagged": 0.8, "f1": 0.6,
                                "oracle_f1": 0.61},
           "breaking_nli": {"roc_auc": 0.2, "roc_auc_best_direction": 0.8},
           "persona": {"roc_auc": 0.3, "roc_auc_best_direction": 0.7}}
    structural = json.loads(json.dumps(det))
    structural["train"]["fixed"] = True
    structural["counterfact_eval"].update({
        f"class_{P.PARAPHRASE}_n": 10, f"class_{P.PARAPHRASE}_share_flagged": 0.0,
        f"class_{P.PARAPHRASE}_share_possible": 0.1,
        f"class_{P.PARAPHRASE}_share_none": 0.9, "roc_auc": 0.98,
        f"class_{P.SAME_WORDING}_flagged": 0.99, f"class_{P.REWORDED}_flagged": 0.5,
        "flagged_negatives": 0.01})
    return {"command": "python -m benchmarks.run_similarity --sample 10", "sample": 10,
            "run_seconds": 60.0, "environment": {"cpu_count": 2, "contrascan_commit": "abc"},
            "models": {"embedding": {"name": "all-MiniLM-L6-v2"},
                       "spacy_pipeline": {"name": "sm", "version": "3.8.0"},
                       "weaviate": {"server_version": "1.39.0"}},
            "relations": {"counterfact_cases": 10},
            "pairs": {"counterfact": {"eval": {"paraphrase": {"0": 10}}}},
            "headline": {"mean_cosine_paraphrase": 0.866,
                         "mean_cosine_contradiction_same_wording": 0.828,
                         "roc_auc_one_minus_cosine_paraphrase_vs_contradiction": 0.655},
            "detectors": {"cosine": det, "structural": structural}}


def test_markdown_table_and_readme_block(tmp_path: Path):
    table = markdown_table(_document())
    assert "| cosine | ≥ 0.5 | 0.600 | 0.500 | 90.0% | 70.0% | 40.0% | 80.0% |" in table
    assert "| **structural** | conflict | 0.980 |" in table
    assert "reworded recall 50.0% vs ≥ 80% (**not met**)" in table
    assert "non-conflicts flagged 1.0% vs ≤ 2% (met; by class 1 80.0% (**not met**)" in table
    assert "0.866" in table and "0.655" in table
    doc = _document()
    doc["detectors"]["structural"]["counterfact_eval"]["relations"] = {
        "{} is in": {"relation_id": "P131", "classes": {
            P.SAME_WORDING: {"n": 10, "labelled": 10, "flagged": 0.8},
            P.REWORDED: {"n": 10, "labelled": 10, "flagged": 0.5},
            P.PARAPHRASE: {"n": 10, "labelled": 10, "flagged": 0.0}}},
        "{} has": {"relation_id": "P1", "classes": {
            P.SAME_WORDING: {"n": 4, "labelled": 4, "flagged": 1.0}}}}
    assert "| `{} is in` | P131 | 80.0% | 50.0% | 7 |" in markdown_table(doc)
    assert "`{} has`" not in markdown_table(doc)
    doc = tmp_path / "similarity.json"
    doc.write_text(json.dumps(_document()), encoding="utf-8")
    readme = tmp_path / "README.md"
    begin, end = BEGIN.format(block="sample"), END.format(block="sample")
    full = f"{BEGIN.format(block='full')}\nfull-table\n{END.format(block='full')}\n"
    readme.write_text(f"# x\n\nbefore\n{begin}\nstale-table\n{end}\nafter\n{full}",
                      encoding="utf-8")
    assert write_readme(readme, doc) == "sample"
    text = readme.read_text(encoding="utf-8")
    assert "stale-table" not in text and table in text and "full-table" in text
    assert text.startswith("# x\n\nbefore\n") and text.endswith(f"{end}\nafter\n{full}")
    readme.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(ValueError):
        write_readme(readme, doc)


def test_relation_id_settles_a_shared_template_by_the_case_object():
    relations = P.RelationMap(
        templates={"{}, the": "P413", "{} is in": "P131"},
        votes={"{}, the": {"P413": 34, "P1303": 15}, "{} is in": {"P131": 9, "P17": 4}},
        source={"{}, the": "train_vote", "{} is in": "train_vote"},
        objects={"P413": frozenset({"midfielder"}), "P1303": frozenset({"guitar"}),
                 "P17": frozenset({"france"}), "P131": frozenset({"texas"})})
    assert relations.relation_id("{}, the", "Guitar") == "P1303"
    assert relations.relation_id("{}, the", "midfielder") == "P413"
    assert relations.relation_id("{}, the", "oboe") == "P413"  # unseen object: the majority
    assert relations.relation_id("{}, the") == "P413"
    # P17 and P131 are one product relation ("located in"): no per-case split
    assert relations.relation_id("{} is in", "France") == "P131"
