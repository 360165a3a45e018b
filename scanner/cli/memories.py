"""Commands over the stored memories and their ledger: ``import``, ``history``, ``stats``,
``demo`` and ``setup-weaviate``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from scanner.cli.base import (
    EXIT_ERROR,
    EXIT_REJECTED,
    _echo_failures,
    _echo_ignored,
    _errors_to_exit,
    _json_option,
    _open_service,
    _progress,
    _store_options,
    main,
)


@main.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_store_options
@_json_option
@_errors_to_exit
def import_cmd(file: Path, weaviate_url: str | None, data_dir: Path | None,
               as_json: bool) -> None:
    """Import a JSON Lines file of memories (triples extracted once, here).

    Ids already stored are left as they are. Bad lines are reported; the rest are stored.
    Exit 65 when a line was not stored: rejected, or its id already stored with another text
    or provenance.

    \b
    Example:
      contrascan import memories.jsonl
    """
    from scanner.records import IgnoredFields, read_jsonl

    ignored = IgnoredFields()
    records, rejected = read_jsonl(file, ignored=ignored)
    _echo_ignored(ignored)
    for bad in rejected:
        who = f" (id {bad.id!r})" if bad.id else ""
        click.echo(f"contrascan: line {bad.line}{who}: field '{bad.field}': {bad.reason}",
                   err=True)
    with _open_service(weaviate_url, data_dir, quiet=as_json) as service:
        with _progress(len(records), "importing", not as_json) as advance:
            result = service.import_records(records, progress=advance)
    _echo_failures(result)
    for mid in result.differing:
        click.echo(f"contrascan: id {mid!r} is already stored with another text or "
                   "provenance; the stored memory is kept (memories are never overwritten: "
                   "import the correction under a new id)", err=True)
    summary = {"read": len(records) + len(rejected), "written": result.written,
               "unchanged": result.unchanged, "differing": len(result.differing),
               "rejected": len(rejected), "failed": len(result.failures)}
    if as_json:
        click.echo(json.dumps({**summary, "ignored": [f.model_dump(mode="json")
                                                      for f in ignored.fields()]}))
    else:
        click.echo(", ".join(f"{k} {v}" for k, v in summary.items()))
    if result.failures:
        sys.exit(EXIT_ERROR)
    if rejected or result.differing:
        # a line whose id is stored with another text was not stored either (two imports of
        # different files under the same ids: the one that lost exits so, not 0)
        sys.exit(EXIT_REJECTED)


@main.command("history")
@click.argument("memory_id")
@click.option("--user", "user_id", default=None, help="The memory's user (faster when given).")
@_store_options
@_json_option
@_errors_to_exit
def history_cmd(memory_id: str, user_id: str | None, weaviate_url: str | None,
                data_dir: Path | None, as_json: bool) -> None:
    """What changed around a memory, and why: the supersedes chain and the ledger.

    Every value with its source, source class, epoch and observation time, the rule and
    the memory that retired it, then the ledger: epoch changes, quarantines with their
    re-observation requests, escalations, settlements. A memory of an attached collection
    (its object's uuid) is found in the source's triple cache. With --json: {"memory_id",
    "user_id", "collection", "chain", "ledger", "story"}.

    \b
    Example:
      contrascan history maya-29 --user maya
    """
    from scanner.sources.history import history_anywhere

    with _open_service(weaviate_url, data_dir, quiet=as_json) as service:
        history = history_anywhere(service, memory_id, user_id)
        own = service.store.name
    if as_json:
        click.echo(json.dumps(history.to_json_dict(), indent=2, ensure_ascii=False))
        return
    from scanner.render import render_history
    if history.collection != own:
        click.echo(f"{memory_id} is a memory of an attached source: the objects as "
                   f"{history.collection} last read them")
    render_history(history.chain, memory_id, story=history.story)


@main.command("stats")
@click.option("--user", "user_id", default=None, help="Only this user (default: every user).")
@_store_options
@_json_option
@_errors_to_exit
def stats_cmd(user_id: str | None, weaviate_url: str | None, data_dir: Path | None,
              as_json: bool) -> None:
    """Conflict statistics from the ledger: by relation, verdict and rule; the conflict
    rate of each import; the share of read-time scans whose hits held incompatible values.
    The sidecar answers the same --json document at GET /v1/stats.

    \b
    Example:
      contrascan stats --user potter-1
      contrascan stats --json
    """
    with _open_service(weaviate_url, data_dir, quiet=as_json) as service:
        stats = service.stats(user_id)
    if as_json:
        click.echo(json.dumps(stats.to_json_dict(), indent=2, ensure_ascii=False))
        return
    from scanner.render import render_stats
    render_stats(stats)


@main.command("demo")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the JSON report (default: demo-report.json beside the "
                   "embedded data directory).")
@click.option("--queries", default=3, show_default=True, type=click.IntRange(0, 3),
              help="Read-time scans to show (the questions written with the demo's stream).")
@_store_options
@_json_option
@_errors_to_exit
def demo_cmd(out: Path | None, queries: int, weaviate_url: str | None, data_dir: Path | None,
             as_json: bool) -> None:
    """The main job on bundled agent memories that change over weeks.

    One user's ten weeks (written for the project) and twelve StateBench timelines are
    imported; then four steps: the batch scan (verdicts by kind, an example of each), a
    read-time scan before an answer (what is withheld and why), what changed and when (a
    history), and where the review page is. The whole report is written as JSON.

    \b
    Example:
      contrascan demo --out report.json
    """
    from scanner.demo import run_demo

    run_demo(out=out, queries=queries, weaviate_url=weaviate_url, data_dir=data_dir,
             as_json=as_json, open_service=_open_service, progress=_progress)


@main.command("setup-weaviate")
@_errors_to_exit
def setup_weaviate_cmd() -> None:
    """Provision the pinned Weaviate server binary (reuse, else go install) and print its path.

    \b
    Example:
      contrascan setup-weaviate
    """
    from scanner.store.server import ensure_binary

    path = ensure_binary(log=lambda line: click.echo(line, err=True))
    click.echo(str(path) if path else "not provisioned: the client will try its own download")
