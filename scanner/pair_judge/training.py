"""Train the pair judge from pairs the project wrote, deterministically, and cache it.

The training pairs are ``scanner/data/judge_pairs/*.jsonl`` (written for this project by
writers who saw neither the rules nor any benchmark; MIT like the project; PROVENANCE.md
beside them). No benchmark's data is read here (BEAM, LoCoMo, DECODE and SICK are evaluation
only; StateBench is kept as a yardstick). One line per pair::

    {"earlier": "...", "later": "...", "kind": "update", "form": "labelled", "domain": "money"}

``kind`` is ``update``, ``contradiction``, ``compatible`` (or ``negative``) or
``restatement``. Every pair is also read in the other order with the same label: whether two
memories can both be current does not depend on which came first (time picks the winner, SPEC
§3), and a backfilled import meets them in either order.

The model is all-MiniLM-L6-v2's encoder (the packaged weights) with a new 4-way classification
head, fine-tuned with AdamW, linear warm-up and decay, seeded, on a fixed number of CPU
threads, so that the same data gives the same weights. The result is cached in
``<user cache>/contrascan/pair-judge-<key>``, ``key`` a hash of the data, this module's
settings and the base model, as the Weaviate binary is (``python -m scanner.pair_judge``).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import random
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from scanner.errors import ConfigurationError, RecordError
from scanner.pair_judge import LABELS

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "judge_pairs"
JUDGE_ENV = "CONTRASCAN_PAIR_JUDGE"
"""``on`` (the cached default judge), a trained judge's folder, or ``off``/unset (the rules
alone: :func:`scanner.engine.with_default_judge`)."""

KINDS = {"update": "update", "contradiction": "contradiction", "compatible": "compatible",
         "negative": "compatible", "restatement": "restatement"}


@dataclass(frozen=True)
class TrainingSettings:
    """Hyper-parameters (they are part of the cache key)."""

    epochs: int = 3
    batch_size: int = 16
    learning_rate: float = 4e-5
    warmup: float = 0.1
    """Share of the steps with a linearly rising learning rate."""
    seed: int = 13
    threads: int = 2
    """torch CPU threads while training (fixed: the sums' order, hence the weights, depend on
    it)."""
    max_length: int = 256


@dataclass(frozen=True)
class Example:
    """One training pair: ``(earlier, later)`` and its label index into :data:`LABELS`."""

    earlier: str
    later: str
    label: int


def read_pairs(paths: list[Path]) -> list[Example]:
    """The examples of JSON Lines files, each pair in both orders.

    Raises:
        RecordError: a line is not a JSON object with text ``earlier``/``later`` and a known
            ``kind`` (names the file's line and the field).
    """
    out: list[Example] = []
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as err:
                raise RecordError(line=n, record_id=None, field="<line>",
                                  reason=f"{path.name}: not JSON ({err.msg})") from err
            for name in ("earlier", "later"):
                if not isinstance(row.get(name), str) or not row[name].strip():
                    raise RecordError(line=n, record_id=None, field=name,
                                      reason=f"{path.name}: a non-empty text is required")
            kind = KINDS.get(row.get("kind"))
            if kind is None:
                raise RecordError(line=n, record_id=None, field="kind",
                                  reason=f"{path.name}: one of {sorted(KINDS)} is required")
            label = LABELS.index(kind)
            out.append(Example(row["earlier"], row["later"], label))
            out.append(Example(row["later"], row["earlier"], label))
    return out


def data_files(data_dir: Path = DATA_DIR) -> list[Path]:
    """The training files, sorted by name."""
    return sorted(data_dir.glob("*.jsonl"))


def cache_key(files: list[Path], settings: TrainingSettings, base: str) -> str:
    """16 hex digits over the data, the settings and the base model's name."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(json.dumps(settings.__dict__, sort_keys=True).encode())
    digest.update(base.encode())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """``<user cache>/contrascan``."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("contrascan", appauthor=False))


def train(examples: list[Example], out_dir: Path, settings: TrainingSettings = TrainingSettings(),
          *, base: str | None = None, log=None) -> Path:
    """Fine-tune a cross-encoder on ``examples`` and save it to ``out_dir``.

    Args:
        examples: the pairs (:func:`read_pairs`).
        out_dir: folder to write (created).
        settings: hyper-parameters.
        base: the model to start from; None = the packaged all-MiniLM-L6-v2.
        log: a callable taking one line of progress, or None.

    Returns:
        ``out_dir``.
    """
    import torch

    from scanner.embeddings import new_cross_encoder, resolve_model_path

    random.seed(settings.seed)
    torch.manual_seed(settings.seed)
    torch.set_num_threads(settings.threads)
    encoder = new_cross_encoder(base or resolve_model_path(), num_labels=len(LABELS),
                                max_length=settings.max_length)
    torch.set_num_threads(settings.threads)  # the loader sets its serving default
    model, tokenizer = encoder.model, encoder.tokenizer
    model.config.id2label = dict(enumerate(LABELS))
    model.config.label2id = {name: i for i, name in enumerate(LABELS)}
    order = list(range(len(examples)))
    steps = settings.epochs * -(-len(order) // settings.batch_size)
    warm = max(1, int(settings.warmup * steps))
    optimiser = torch.optim.AdamW(model.parameters(), lr=settings.learning_rate,
                                  weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: (s + 1) / warm if s < warm else max(0.0, (steps - s) / (steps - warm)))
    rng = random.Random(settings.seed)
    model.train()
    began, step = time.monotonic(), 0
    for epoch in range(settings.epochs):
        rng.shuffle(order)
        total = 0.0
        for start in range(0, len(order), settings.batch_size):
            batch = [examples[i] for i in order[start:start + settings.batch_size]]
            encoded = tokenizer([e.earlier for e in batch], [e.later for e in batch],
                                padding=True, truncation="longest_first",
                                max_length=settings.max_length, return_tensors="pt")
            loss = model(**encoded, labels=torch.tensor([e.label for e in batch])).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
            optimiser.zero_grad()
            total += loss.item() * len(batch)
            step += 1
        if log:
            log(f"epoch {epoch + 1}/{settings.epochs}: loss {total / len(order):.4f}, "
                f"{time.monotonic() - began:.0f} s")
    model.eval()
    out_dir.mkdir(parents=True, exist_ok=True)
    encoder.save(str(out_dir))
    return out_dir


def ensure_judge(settings: TrainingSettings = TrainingSettings(), *, quiet: bool = False) -> Path:
    """The default judge's folder: ``$CONTRASCAN_PAIR_JUDGE``, else the cached build for the
    shipped data, trained first when absent (a few minutes on two cores, once per machine;
    one process trains while others wait on a lock).

    Raises:
        ConfigurationError: ``$CONTRASCAN_PAIR_JUDGE`` names no folder, or no training data.
    """
    chosen = os.environ.get(JUDGE_ENV, "")
    if chosen and chosen.lower() not in ("on", "off"):
        if not Path(chosen).is_dir():
            raise ConfigurationError("pair_judge", f"${JUDGE_ENV}={chosen!r} is no folder")
        return Path(chosen)
    files = data_files()
    if not files:
        raise ConfigurationError("pair_judge", f"no training pairs in {DATA_DIR}")
    from scanner.embeddings import DEFAULT_MODEL

    root = cache_root()
    target = root / f"pair-judge-{cache_key(files, settings, DEFAULT_MODEL)}"
    if (target / ".complete").exists():
        return target
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "pair-judge.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / ".complete").exists():
            return target
        log = None if quiet else (lambda line: print(f"pair judge: {line}", file=sys.stderr))
        if log:
            log(f"training once from {len(files)} files of {DATA_DIR} into {target}")
        staging = target.with_name(target.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        train(read_pairs(files), staging, settings, log=log)
        (staging / ".complete").write_text("")
        shutil.rmtree(target, ignore_errors=True)
        staging.rename(target)
    return target
