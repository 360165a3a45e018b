"""No memory text, key or user id leaks through logs, the server's environment or the terminal
(issue 18 item 3), against a real Weaviate and a real `contrascan serve`."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from weaviate.classes.config import Configure, DataType, Property
from weaviate.classes.data import DataObject

from scanner.cli import main
from scanner.store import server
from scanner.store.batching import insert_objects

pytestmark = pytest.mark.integration

SECRET_TEXT = "the safe combination is 31-07-99"


def test_a_rejected_object_is_counted_in_the_log_not_dumped(weaviate_server, caplog):
    name = "Leak" + uuid.uuid4().hex[:10]
    collection = weaviate_server.collections.create(
        name, properties=[Property(name="text", data_type=DataType.TEXT),
                          Property(name="count", data_type=DataType.INT)],
        vector_config=Configure.Vectors.self_provided())
    try:
        # a value of the wrong type: Weaviate rejects the object (an undeclared property is
        # refused before sending, scanner.store.schema.undeclared)
        objects = [DataObject(properties={"text": "fine"}, uuid=uuid.uuid4(), vector=[1.0, 0.0]),
                   DataObject(properties={"text": SECRET_TEXT, "count": "many"},
                              uuid=uuid.uuid4(), vector=[0.0, 1.0])]
        with caplog.at_level(logging.INFO):
            failed = insert_objects(collection, objects)
        assert [oid for oid, _ in failed] == [str(objects[1].uuid)]
        assert "1 object(s) of a batch were rejected" in caplog.text
        assert SECRET_TEXT not in caplog.text
    finally:
        weaviate_server.collections.delete(name)


def _get(url: str) -> int:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as err:
        return err.code
    except OSError:
        return 0


def test_serve_keeps_keys_and_ids_out_of_the_access_log_and_weaviates_env(tmp_path):
    port, grpc_port = server.free_ports()
    http_port = server.free_port()
    api_key = "sidecar-" + uuid.uuid4().hex
    data_dir = tmp_path / "data"
    proc = subprocess.Popen(
        [sys.executable, "-m", "scanner.cli", "serve", "--port", str(http_port),
         "--data-dir", str(data_dir), "--weaviate-port", str(port),
         "--weaviate-grpc-port", str(grpc_port), "--log-level", "info"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,  # access log: stdout
        env={**os.environ, "HF_HUB_OFFLINE": "1", "CONTRASCAN_API_KEY": api_key})
    try:
        deadline = time.monotonic() + 300
        while _get(f"http://127.0.0.1:{http_port}/healthz") != 200:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.5)
        state = json.loads((data_dir / server.STATE_FILE_NAME).read_text())
        environ = Path(f"/proc/{state['server_pid']}/environ").read_bytes()
        assert api_key.encode() not in environ
        base = f"http://127.0.0.1:{http_port}"
        assert _get(f"{base}/v1/memories/mem-private-7/history?user_id=alice-private"
                    f"&api_key={api_key}") == 401
        assert _get(f"{base}/v1/batch-scans/job-private-9?user_id=bob-private") == 401
        assert _get(f"{base}/healthz?token={api_key}") == 200
        proc.send_signal(signal.SIGTERM)
        log, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert '"GET /v1/memories/{memory_id}/history?… HTTP/1.1" 401' in log, log
    assert '"GET /v1/batch-scans/{job_id}?… HTTP/1.1" 401' in log
    for secret in (api_key, "alice-private", "bob-private", "mem-private-7", "job-private-9"):
        assert secret not in log


def test_history_shows_escape_sequences_of_memory_text_escaped(tmp_path):
    port, grpc_port = server.free_ports()
    memories = tmp_path / "m.jsonl"
    evil = "\x1b[2J\x1b]0;pwned\x07"
    rows = [{"id": "g1", "user_id": "ansi-user", "text": f"The preferred glaze is {evil}celadon.",
             "source": f"chat{evil}", "source_class": "user",
             "observed_at": "2026-03-01T00:00:00Z", "epoch": f"e{evil}"}]
    memories.write_text("".join(json.dumps(r) + "\n" for r in rows))
    store = ["--data-dir", str(tmp_path / "data"), "--port", str(port),
             "--grpc-port", str(grpc_port)]
    runner = CliRunner()
    imported = runner.invoke(main, ["import", str(memories), *store, "--json"])
    assert imported.exit_code == 0, imported.output
    shown = runner.invoke(main, ["history", "g1", "--user", "ansi-user", *store])
    assert shown.exit_code == 0, shown.output
    assert "\x1b" not in shown.stdout and "\x07" not in shown.stdout
    assert "\\x1b]0;pwned\\x07" in shown.stdout
