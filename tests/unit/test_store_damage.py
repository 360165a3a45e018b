"""A collection or tenant deleted from outside: the error, its HTTP answer and the readiness
probe's problem (the store side: tests/integration/test_store_isolation.py)."""

from __future__ import annotations

import pickle

from scanner.api.errors import ErrorCode, classify
from scanner.errors import StoreDamaged
from scanner.health import ReadinessMonitor


def test_the_error_names_what_is_gone_and_survives_pickling():
    tenant = StoreDamaged("ContrascanMemory", "potter-1")
    assert str(tenant).startswith("tenant 'potter-1' of collection ContrascanMemory is gone "
                                  "from Weaviate (this process saw it before)")
    collection = StoreDamaged("ContrascanMemoryLedger", evidence="it was there before")
    assert str(collection).startswith("collection ContrascanMemoryLedger is gone from Weaviate "
                                      "(it was there before)")
    for err in (tenant, collection):  # a scan worker sends it back pickled
        again = pickle.loads(pickle.dumps(err))
        assert (type(again), str(again), again.collection, again.tenant, again.evidence) == \
            (StoreDamaged, str(err), err.collection, err.tenant, err.evidence)


def test_it_is_answered_503_store_damaged():
    err = StoreDamaged("ContrascanMemory", "potter-1")
    assert classify(err) == (503, ErrorCode.store_damaged, str(err))


def test_readiness_says_why_a_check_failed_and_forgets_it_once_one_passes():
    answers = iter([StoreDamaged("ContrascanMemory", "potter-1"), False, True])

    def check() -> bool:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    monitor = ReadinessMonitor(check)
    assert monitor.check_now() is False and not monitor.ready
    assert monitor.problem is not None and monitor.problem.startswith(
        "tenant 'potter-1' of collection ContrascanMemory is gone")
    assert monitor.check_now() is False and monitor.problem is None  # no reason given
    assert monitor.check_now() is True and monitor.ready and monitor.problem is None
