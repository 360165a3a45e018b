"""``source batch-scan`` draws its progress on a terminal, never into its report (issue 35,
item 5): run as a person runs it, stderr on a pseudo-terminal, against a LangChain collection in
the session's Weaviate; with ``--json`` nothing is drawn and stdout is the summary alone."""

from __future__ import annotations

import json
import uuid

import pytest

pytest.importorskip("langchain_weaviate", reason="needs the contrascan[langchain] extra")

from langchain_weaviate import WeaviateVectorStore  # noqa: E402

from scanner.integrations.langchain import SentenceEmbeddings  # noqa: E402
from scanner.store.server import API_KEY_ENV  # noqa: E402
from tests.integration.attached_support import dropped_afterwards, source_collections  # noqa: E402
from tests.terminal import run_at_terminal  # noqa: E402

pytestmark = pytest.mark.integration
USER = "lc-progress"


def test_batch_scan_progress_is_drawn_on_the_terminal_never_in_json(embedded_weaviate):
    name = f"LangChain_{uuid.uuid4().hex[:12]}"
    with embedded_weaviate.client() as client, \
            dropped_afterwards(client, *source_collections(name)):
        store = WeaviateVectorStore(client, name, "text", embedding=SentenceEmbeddings())
        for text, when in (("The preferred glaze is celadon.", "2026-03-01T10:00:00+00:00"),
                           ("The preferred glaze is tenmoku.", "2026-03-05T10:00:00+00:00"),
                           ("The kiln fires to cone 10.", "2026-03-03T10:00:00+00:00")):
            store.add_texts([text], metadatas=[{"user_id": USER, "observed_at": when}])
        args = ["source", "batch-scan", "--preset", "langchain", "--collection", name,
                "--weaviate-url", embedded_weaviate.url]
        env = {API_KEY_ENV: embedded_weaviate.api_key}
        shown = run_at_terminal(args, env=env)
        assert shown.returncode == 0, shown.terminal[-2000:]
        assert b"reading" in shown.terminal and b"scanning" in shown.terminal
        assert shown.stdout.startswith(f"{name}: read 3, cached 0, extracted 3")
        assert "\x1b" not in shown.stdout and "reading" not in shown.stdout  # the summary

        quiet = run_at_terminal([*args, "--json"], env=env)
        assert quiet.returncode == 0, quiet.terminal[-2000:]
        assert b"reading" not in quiet.terminal and b"scanning" not in quiet.terminal
        summary = json.loads(quiet.stdout)  # the whole of stdout is the summary
        synced = summary["sync"]
        assert (synced["read"], synced["cached"], synced["extracted"]) == (3, 3, 0)
        assert summary["scanned"] == 3 and summary["conflicts"] == 1
