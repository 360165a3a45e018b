"""``contrascan source scan --sidecar URL`` asks a running sidecar (issue 35, item 5): the app
served by uvicorn on a loopback port over the session's Weaviate, with a LangChain collection
attached; the command's report is the one the command computes in-process, ``scan-hits``
likewise, options that would change the sidecar's verdicts are refused, a source it does not
serve is a one-line error."""

from __future__ import annotations

import json
import uuid

import pytest

pytest.importorskip("langchain_weaviate", reason="needs the contrascan[langchain] extra")

from click.testing import CliRunner  # noqa: E402
from langchain_weaviate import WeaviateVectorStore  # noqa: E402

from scanner.api import ApiSettings, create_app  # noqa: E402
from scanner.cli import main  # noqa: E402
from scanner.integrations.langchain import SentenceEmbeddings  # noqa: E402
from scanner.sources import load_sources  # noqa: E402
from scanner.store.server import API_KEY_ENV  # noqa: E402
from tests.integration.attached_support import source_collections, source_report  # noqa: E402
from tests.integration.conftest import scoped_service  # noqa: E402
from tests.integration.serve_process import app_in_thread  # noqa: E402

pytestmark = pytest.mark.integration
USER = "lc-sidecar"
TIMELINE = [  # a LangChain user's writes: text, user, when it was said
    ("celadon", "The preferred glaze is celadon.", "2026-03-01T10:00:00+00:00"),
    ("tenmoku", "The preferred glaze is tenmoku.", "2026-03-05T10:00:00+00:00"),
    ("kiln", "The kiln fires to cone 10.", "2026-03-03T10:00:00+00:00"),
]


@pytest.fixture(scope="module")
def notes(weaviate_server, extractor, tmp_path_factory):
    """A LangChain collection, and the sidecar serving it (named after the collection, as a
    preset names it) under uvicorn in a thread: (collection, ids, sidecar URL)."""
    from scanner.engine import Engine

    name = f"LangChain_{uuid.uuid4().hex[:12]}"
    store = WeaviateVectorStore(weaviate_server, name, "text", embedding=SentenceEmbeddings())
    ids = {key: str(store.add_texts([text], metadatas=[{"user_id": USER, "observed_at": when}])[0])
           for key, text, when in TIMELINE}
    path = tmp_path_factory.mktemp("sources") / "sources.toml"
    path.write_text(f'[sources.{name}]\npreset = "langchain"\ncollection = "{name}"\n')
    with scoped_service(weaviate_server, Engine(extractor=extractor), "Sidecar") as service:
        app = create_app(service, settings=ApiSettings(), warm_up=False,
                         sources=load_sources(path))
        with app_in_thread(app) as url:
            yield name, ids, url
    for coll in source_collections(name):
        weaviate_server.collections.delete(coll)


def _cli(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env={API_KEY_ENV: None, **(env or {})})


def test_the_sidecar_answers_what_the_command_computes_itself(notes, embedded_weaviate):
    name, ids, url = notes
    preset = ("--preset", "langchain", "--collection", name)
    through = _cli("source", "scan", *preset, "--sidecar", url, "--user", USER,
                   "--query", "preferred glaze", "--json")
    assert through.exit_code == 0, (through.output, through.exception)
    report = json.loads(through.stdout)
    assert report["withhold"] == [ids["celadon"]] and ids["tenmoku"] in report["cite"]
    assert report["declared"] == ["declared:single_epoch", f"declared:source={name}"]
    assert "hits" not in report and "extracted" not in report  # the SPEC §5 report alone
    itself = source_report(embedded_weaviate, *preset, "--user", USER,
                           "--query", "preferred glaze")
    assert report == itself

    # the sidecar's name for the source works alike, and so do the printed report and
    # "scan these hits"
    named = _cli("source", "scan", "--source", name, "--sidecar", url, "--user", USER,
                 "--query", "preferred glaze")
    assert named.exit_code == 0, (named.output, named.exception)
    assert "withhold 1, unresolved 0" in named.stdout
    assert f"assumed (declared:source={name})" in named.stdout
    hits = _cli("source", "scan-hits", *preset, "--sidecar", url, "--user", USER, "--json",
                ids["celadon"], ids["tenmoku"])
    assert hits.exit_code == 0, (hits.output, hits.exception)
    assert json.loads(hits.stdout)["withhold"] == [ids["celadon"]]


def test_what_the_sidecar_decides_is_not_asked_of_the_command(notes):
    name, _, url = notes
    for flag in (["--single-epoch"], ["--recency-override"], ["--declare-source", "chat"]):
        refused = _cli("source", "scan", "--preset", "langchain", "--collection", name,
                       "--sidecar", url, "--user", USER, "--query", "glaze", *flag)
        assert refused.exit_code == 1
        assert f"'{flag[0]}': not with --sidecar" in " ".join(refused.stderr.split())
    unknown = _cli("source", "scan", "--source", "nope", "--sidecar", url, "--user", USER,
                   "--query", "glaze")
    assert unknown.exit_code == 1
    assert unknown.stderr.startswith("contrascan: sidecar answered 404 not_found: no source "
                                     "'nope'")
    assert unknown.stderr.count("\n") == 1  # one line, no traceback
