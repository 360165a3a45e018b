"""The cross-encoder pair judge, as trained and cached by :mod:`scanner.pair_judge.training`."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from scanner.pair_judge import LABELS, Judgment

CACHE_SIZE = 65_536
"""Readings kept per judge, the least recently used dropped first: a read-time scan meets the
same pairs of a user's memories query after query, and the model gives a pair the same
reading every time (about 200 bytes each: ~13 MB when full)."""

MAX_LENGTH = 256
"""Word pieces read of one pair (both memories); longer pairs are cut from the end of the
longer memory (the tokenizer's ``longest_first``)."""


class CrossEncoderJudge:
    """Labels ``(earlier, later)`` memory pairs with the cached cross-encoder.

    Args:
        model_dir: a trained judge's folder; None = the default judge, built first when it is
            not cached yet (:func:`scanner.pair_judge.training.ensure_judge`, a few minutes once).
        batch_size: pairs per forward pass.
        threads: torch threads while judging (restored after); None = the process's setting
            (:func:`scanner.embeddings.compute_threads` when the model loads).
        cache_size: readings kept for pairs judged again (:data:`CACHE_SIZE`; 0 = none).

    Attributes:
        seconds_per_pair: wall time of each judged pair (its batch's time over its size), for
            the benchmarks' p50/p99 (``benchmarks/bench_pair_judge.py``); a pair read
            from the cache adds none.
    """

    def __init__(self, model_dir: str | Path | None = None, *, batch_size: int = 64,
                 threads: int | None = None, cache_size: int = CACHE_SIZE):
        self._dir = None if model_dir is None else str(model_dir)
        self.batch_size = batch_size
        self.threads = threads
        self.cache_size = cache_size
        self.seconds_per_pair: list[float] = []
        self._readings: OrderedDict[tuple[str, str], Judgment] = OrderedDict()
        self._lock = threading.Lock()

    def __getstate__(self) -> dict:
        """What a scan worker process receives (:mod:`scanner.scan_workers` pickles the
        configuration): the settings, never the lock or the readings, which it keeps anew."""
        return {k: v for k, v in self.__dict__.items() if k not in ("_lock", "_readings")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._readings = OrderedDict()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        """The trained judge's folder, which names its data and settings (the cache key): a
        batch scan's checkpoint digests the configuration by it
        (:func:`scanner.batch.decision_digest`), so it must not change between processes."""
        return f"CrossEncoderJudge({self.model_dir!r})"

    @property
    def model_dir(self) -> str:
        """The folder the judge loads (built on first use for the default judge)."""
        if self._dir is None:
            from scanner.pair_judge.training import ensure_judge

            self._dir = str(ensure_judge())
        return self._dir

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[Judgment]:
        """One :class:`~scanner.pair_judge.Judgment` per ``(earlier, later)`` pair, in order."""
        if not pairs:
            return []
        pairs = [tuple(p) for p in pairs]
        with self._lock:  # (scans on several threads share one judge)
            known = {p: self._readings[p] for p in pairs if p in self._readings}
        wanted = list(dict.fromkeys(p for p in pairs if p not in known))
        known.update(zip(wanted, self._model_judge(wanted) if wanted else []))
        with self._lock:
            for pair in pairs:
                self._readings[pair] = known[pair]
                self._readings.move_to_end(pair)
            while len(self._readings) > self.cache_size:
                self._readings.popitem(last=False)
        return [known[p] for p in pairs]

    def _model_judge(self, pairs: list[tuple[str, str]]) -> list[Judgment]:
        import torch

        from scanner.embeddings import load_cross_encoder

        model = load_cross_encoder(self.model_dir)
        before = torch.get_num_threads()
        if self.threads:
            torch.set_num_threads(self.threads)
        try:
            return self._judge(model, pairs)
        finally:
            torch.set_num_threads(before)

    def _judge(self, model, pairs: Sequence[tuple[str, str]]) -> list[Judgment]:
        # batches of pairs of like length pad little (a batch is as long as its longest pair)
        order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
        out: list[Judgment | None] = [None] * len(pairs)
        for start in range(0, len(order), self.batch_size):
            chosen = order[start:start + self.batch_size]
            batch = [list(pairs[i]) for i in chosen]
            began = time.perf_counter()
            probs = model.probabilities(batch)
            each = (time.perf_counter() - began) / len(batch)
            self.seconds_per_pair.extend([each] * len(batch))
            for i, row in zip(chosen, probs):
                out[i] = Judgment(**{name: float(row[k]) for k, name in enumerate(LABELS)})
        return out
