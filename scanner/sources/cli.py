"""``contrascan source …``: the three calls on an attached source (issue 16), and the history
of one of its memories.

A source is named either by a TOML file (``--sources FILE --source NAME``, see
:func:`scanner.sources.mapping.load_sources`) or by a preset and a collection
(``--preset mem0 --collection Mem0Memories``).

``scan`` and ``scan-hits`` with ``--sidecar URL`` ask a running ``contrascan serve --sources
FILE`` instead (``POST /v1/sources/{name}/…`` through :class:`scanner.client.Contrascan`):
the sidecar has spaCy, the model and the connection loaded, so the command answers in well
under a second, where loading them here takes several seconds a call. Such a call imports
neither the store, spaCy nor torch.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from scanner.cli.base import (
    FiniteFloatRange,
    _errors_to_exit,
    _json_option,
    _open_service,
    _phases,
    _policy_options,
    _store_options,
    emit_report,
)
from scanner.defaults import DEFAULT_ALPHA, DEFAULT_LIMIT
from scanner.errors import ConfigurationError
from scanner.models import MAX_SOURCE_CHARS
from scanner.sources.mapping import SourceMapping, load_sources, preset
from scanner.wording import counted


class DeclaredSource(click.ParamType):
    """The value of ``--declare-source``: ``''`` (declare none, overriding the preset's
    default of the collection's name), or a source that is not blank and holds at most
    :data:`~scanner.models.MAX_SOURCE_CHARS` characters (a memory record's own limit, SPEC §4).

    Checked as the command line is read, before any store is opened: a blank source (spaces
    only) would declare nothing while every verdict said it was declared, and a longer one
    would make every memory of the collection unreadable.
    """

    name = "source"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value)
        if text and not text.strip():
            self.fail("the source is empty: give the name memories without one are said to "
                      "come from (e.g. the collection's name).", param, ctx)
        if len(text) > MAX_SOURCE_CHARS:
            self.fail(f"the source is {len(text):,} characters long; a source holds at most "
                      f"{MAX_SOURCE_CHARS:,}, as a memory record's does.", param, ctx)
        return text


def _source_options(func):
    for option in reversed([
        click.option("--sources", "sources_file", type=click.Path(exists=True, dir_okay=False,
                                                                  path_type=Path),
                     help="TOML file of [sources.<name>] tables."),
        click.option("--source", "source_name", help="The source's name in --sources."),
        click.option("--preset", type=click.Choice(["mem0", "langchain", "llamaindex"]),
                     help="Read --collection with a framework's preset instead."),
        click.option("--collection", help="The attached collection (with --preset)."),
        click.option("--declare-store-time", metavar="PROPERTY",
                     help="With --preset: declare a store-wide time as observed_at (the mem0 "
                          "preset declares created_at; '' declares none); recorded in every "
                          "verdict."),
        click.option("--declare-source", metavar="SOURCE", type=DeclaredSource(),
                     help="With --preset: declare the source of every memory that names "
                          "none (default: the collection's name; '' declares none; at most "
                          "1,024 characters); recorded in every verdict."),
    ]):
        func = option(func)
    return func


def _mapping(sources_file: Path | None, source_name: str | None, preset_name: str | None,
             collection: str | None, store_time: str | None, single_epoch: bool,
             source: str | None = None) -> SourceMapping:
    if preset_name:
        if not collection:
            raise ConfigurationError("--collection", "required with --preset")
        # only what was given: the preset's own declarations stay otherwise
        given = {k: v for k, v in (("source_default", source),
                                   ("store_time_as_observed_at", store_time)) if v is not None}
        if single_epoch:
            given["single_epoch"] = True
        return preset(preset_name, collection, **given)
    if source is not None:
        raise ConfigurationError("--declare-source", "only with --preset (a --sources table "
                                 "sets source_default itself)")
    if not sources_file:
        raise ConfigurationError("--sources", "give --sources FILE or --preset")
    sources = load_sources(sources_file)
    if source_name is None and len(sources) == 1:
        source_name = next(iter(sources))
    if source_name not in sources:
        raise ConfigurationError("--source", f"{source_name!r} is not in {sources_file} "
                                             f"(has: {', '.join(sorted(sources))})")
    mapping = sources[source_name]
    return mapping.model_copy(update={"single_epoch": True}) if single_epoch else mapping


def _sidecar_option(func):
    return click.option(
        "--sidecar", metavar="URL", envvar="CONTRASCAN_SIDECAR_URL", default=None,
        help="Ask the running 'contrascan serve --sources FILE' at URL (env "
             "CONTRASCAN_SIDECAR_URL; API key from CONTRASCAN_API_KEY): it has spaCy, the "
             "model and the connection loaded, so the answer comes in well under a second. "
             "The source is the sidecar's --source NAME (with --preset: the collection's "
             "name); the sidecar's own configuration decides.")(func)


_DECIDED_BY_THE_SIDECAR = (("declare_store_time", "--declare-store-time"),
                           ("declare_source", "--declare-source"),
                           ("single_epoch", "--single-epoch"),
                           ("recency_override", "--recency-override"))


def _served_name(kw: dict[str, Any]) -> str:
    """The name of the source a ``--sidecar`` call asks for.

    Raises:
        ConfigurationError: an option that would change the sidecar's verdicts is given,
            or nothing names the source.
    """
    for key, flag in _DECIDED_BY_THE_SIDECAR:
        if kw.get(key) not in (None, False):
            raise ConfigurationError(flag, "not with --sidecar: the sidecar scans with the "
                                           "mapping and policy it was started with")
    if kw["source_name"]:
        return kw["source_name"]
    if kw["preset"]:
        if not kw["collection"]:
            raise ConfigurationError("--collection", "required with --preset")
        return kw["collection"]  # a preset source is named after its collection
    if kw["sources_file"]:
        sources = load_sources(kw["sources_file"])
        if len(sources) == 1:
            return next(iter(sources))
        raise ConfigurationError("--source", f"name one of {', '.join(sorted(sources))}")
    raise ConfigurationError("--source", "with --sidecar, name the source the sidecar serves")


@contextmanager
def _attached(weaviate_url, data_dir, mapping: SourceMapping, *, quiet: bool,
              recency_override: bool):
    from scanner.sources.service import AttachedSource

    with _open_service(weaviate_url, data_dir, quiet=quiet,
                       recency_override=recency_override) as service:
        yield AttachedSource(service.store.client, mapping, config=service.engine.config)


@click.group("source")
def source_group() -> None:
    """Scan memories an agent keeps in its own Weaviate collection (Mem0, LangChain,
    LlamaIndex or any mapped collection) without importing them.

    \b
    Example:
      contrascan source scan --preset mem0 --collection Mem0Memories --user u1 --query glaze
    """


@source_group.command("scan")
@click.option("--user", "user_id", required=True, help="The scope's user.")
@click.option("--query", required=True, help="What the agent is about to answer.")
@click.option("--limit", default=DEFAULT_LIMIT, show_default=True, type=click.IntRange(1, 1000))
@click.option("--alpha", default=DEFAULT_ALPHA, show_default=True, type=FiniteFloatRange(0, 1))
@_source_options
@_sidecar_option
@_store_options
@_json_option
@_policy_options
@_errors_to_exit
def source_scan_cmd(user_id: str, query: str, limit: int, alpha: float, **kw: Any) -> None:
    """Scoped hybrid search on the attached collection, then the scan of its hits.

    \b
    Example:
      contrascan source scan --sources sources.toml --source support-bot --user u1 \\
        --query "preferred glaze"
      contrascan source scan --sidecar http://127.0.0.1:8765 --source support-bot \\
        --user u1 --query "preferred glaze"
    """
    if kw["sidecar"]:
        from scanner.client import Contrascan

        with Contrascan(kw["sidecar"], timeout_s=60.0) as sidecar:
            report = sidecar.source_scan(_served_name(kw), user_id, query, limit=limit,
                                         alpha=alpha).report()
    else:
        mapping, opts = _split(kw)
        with _attached(mapping=mapping, **opts) as source:
            report = source.search(user_id, query, limit=limit, alpha=alpha).report
    emit_report(report, as_json=kw["as_json"],
                fail_on_conflict=kw["fail_on_conflict"], title=f"{user_id}: {query!r}")


@source_group.command("scan-hits")
@click.argument("ids", nargs=-1, required=True)
@click.option("--user", "user_id", required=True, help="The scope the hits were searched in.")
@_source_options
@_sidecar_option
@_store_options
@_json_option
@_policy_options
@_errors_to_exit
def source_scan_hits_cmd(ids: tuple[str, ...], user_id: str, **kw: Any) -> None:
    """Scan the hits the agent's own search returned (object uuids), with no second search.

    \b
    Example:
      contrascan source scan-hits --preset mem0 --collection Mem0Memories --user u1 \\
        0d34f3c6-3d80-4325-803c-7edca98fab2c 69c1afc8-1cb8-4131-b164-5471a29ebbfb
    """
    if kw["sidecar"]:
        from scanner.client import Contrascan

        with Contrascan(kw["sidecar"], timeout_s=60.0) as sidecar:
            report = sidecar.source_scan_hits(_served_name(kw), user_id,
                                              ids=list(ids)).report()
    else:
        mapping, opts = _split(kw)
        with _attached(mapping=mapping, **opts) as source:
            report = source.scan_hits(user_id, ids=list(ids)).report
    emit_report(report, as_json=kw["as_json"],
                fail_on_conflict=kw["fail_on_conflict"], title=f"{user_id}: {counted(len(ids), 'hit')}")


@source_group.command("batch-scan")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64))
@_source_options
@_store_options
@_json_option
@_policy_options
@_errors_to_exit
def source_batch_scan_cmd(workers: int, **kw: Any) -> None:
    """Batch scan of a whole attached collection (after a bulk import): new or changed
    objects are extracted and cached, then every user is scanned; a re-run writes nothing.
    On a terminal, progress bars on stderr (reading, then scanning); none with --json.

    \b
    Example:
      contrascan source batch-scan --preset langchain --collection LangChain_notes --json
    """
    mapping, opts = _split(kw)
    with _attached(mapping=mapping, **opts) as source, \
            _phases(not kw["as_json"]) as phases:
        result = source.batch_scan_source(workers=workers, phases=phases)
    summary = {"sync": result.sync.to_json_dict(), "scanned": result.scan.scanned,
               "conflicts": sum(t.conflicts for t in result.scan.tenants),
               "by_verdict": _by_verdict(result.scan.tenants),
               "seconds": round(result.scan.seconds, 3),
               "statuses_written": result.statuses_written}
    if result.declared:
        summary["declared"] = list(result.declared)
    if kw["as_json"]:
        click.echo(json.dumps(summary, indent=2, sort_keys=True))
        return
    s = result.sync
    rate = f", {s.extraction_rate:.0f}/s" if s.extraction_rate else ""
    click.echo(f"{mapping.collection}: read {s.read}, cached {s.cached}, extracted "
               f"{s.extracted}{rate}, rejected {len(s.rejected)}")
    click.echo(f"scanned {counted(summary['scanned'], 'memory')} of "
               f"{counted(len(result.scan.tenants), 'user')}: "
               f"{counted(summary['conflicts'], 'conflict')} {summary['by_verdict']}")
    from scanner.render import declared_lines

    for line in declared_lines(result.declared):
        click.echo(line)
    if kw["fail_on_conflict"] and summary["conflicts"]:
        raise SystemExit(3)


@source_group.command("history")
@click.argument("memory_id")
@click.option("--user", "user_id", default=None, help="The memory's user (faster when given).")
@_source_options
@_store_options
@_json_option
@_errors_to_exit
def source_history_cmd(memory_id: str, user_id: str | None, **kw: Any) -> None:
    """What changed around one memory of the attached collection (its object's uuid), and
    why: the supersedes chain and the ledger, as 'contrascan history' prints them, read
    from the source's triple cache (the objects as contrascan last read them).

    \b
    Example:
      contrascan source history --preset langchain --collection Notes --user potter-1 \\
        0d34f3c6-3d80-4325-803c-7edca98fab2c
    """
    kw.update(single_epoch=False, recency_override=False)
    mapping, opts = _split(kw)
    with _attached(mapping=mapping, **opts) as source:
        history = source.history_report(memory_id, user_id)
    if kw["as_json"]:
        click.echo(json.dumps(history.to_json_dict(), indent=2, ensure_ascii=False))
        return
    from scanner.render import render_history

    render_history(history.chain, memory_id, story=history.story)


def _by_verdict(tenants) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in tenants:
        for verdict, n in t.by_verdict.items():
            out[verdict] = out.get(verdict, 0) + n
    return out


def _split(kw: dict[str, Any]) -> tuple[SourceMapping, dict[str, Any]]:
    mapping = _mapping(kw["sources_file"], kw["source_name"], kw["preset"], kw["collection"],
                       kw["declare_store_time"], kw["single_epoch"], kw["declare_source"])
    return mapping, {"weaviate_url": kw["weaviate_url"], "data_dir": kw["data_dir"],
                     "quiet": kw["as_json"], "recency_override": kw["recency_override"]}


@source_group.command("demo")
@click.option("--queries", default=3, show_default=True, type=click.IntRange(0, 50),
              help="Read-time retrievals to show.")
@_store_options
@_json_option
@_errors_to_exit
def source_demo_cmd(queries: int, weaviate_url: str | None, data_dir: Path | None,
                    as_json: bool) -> None:
    """The attach path on a collection written by LangChain (needs contrascan[langchain]):
    the bundled demo memories written with langchain-weaviate, batch scan, retrievals.

    \b
    Example:
      contrascan source demo
    """
    from scanner.sources.demo import run_source_demo

    with _open_service(weaviate_url, data_dir, quiet=as_json) as service:
        out = run_source_demo(service.store.client, queries=queries,
                              say=(lambda _line: None) if as_json else click.echo)
    if as_json:
        click.echo(json.dumps(out, indent=2, sort_keys=True))
