"""Select the StateBench timelines bundled for ``contrascan demo``.

StateBench v1.0 (github.com/Parslee-ai/statebench, MIT, copyright Parslee, LLC) holds
template-generated timelines of an enterprise assistant: what a user, a policy or a system
said, and which later write supersedes which earlier one. The shared folder keeps its public
splits converted to memory records (``statebench/memories.jsonl``, one user per timeline, one
epoch per timeline) with the labelled updates (``statebench/labels.jsonl``, ``why`` = the
StateBench track); ``convert.py`` there says how.

The rule, fixed before the scanner saw any of it: of each track that has labelled updates
(``supersession``, ``commitment_durability``, ``repair_propagation``, ``brutal_realistic``),
the first :data:`PER_TRACK` timelines in the order of the SHA-256 digests of their ids,
skipping a timeline whose texts, in order, are those of one already chosen (the timelines come
from templates: a third of them repeat another's texts word for word). What the scanner makes
of a timeline never enters the choice. Every memory of a chosen timeline is kept unchanged
(id, text, user, source, time, epoch), in the file's order.

Rebuild: ``python -m benchmarks.demo_timelines`` (``--source DIR`` names another copy of the
converted folder; the default is ``statebench/`` under ``$CONTRASCAN_SHARED/data`` or
``../shared/data`` beside the checkout). The product reads only the file this writes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from benchmarks.pairs import DATA_DIR, SHARED_ENV

PER_TRACK = 3
"""Timelines kept per StateBench track."""
DATA = Path(__file__).resolve().parents[1] / "scanner" / "data"
DEFAULT_OUT = DATA / "demo_statebench.jsonl"
"""The chosen timelines' memories; their labelled updates go beside it
(``demo_statebench_labels.jsonl``, the same lines as in the source's ``labels.jsonl``)."""


def _digest(timeline: str) -> str:
    return hashlib.sha256(timeline.encode("utf-8")).hexdigest()


def select(memory_lines: list[str], labels: list[dict], *, per_track: int = PER_TRACK
           ) -> tuple[list[str], dict[str, list[str]]]:
    """The chosen timelines' memory lines and the timelines chosen per track.

    Args:
        memory_lines: the lines of the converted ``memories.jsonl`` (JSON objects with
            ``user_id`` = the timeline id), kept byte for byte.
        labels: the labelled updates (``update`` = ``<timeline>:<n>``, ``why`` = track).
        per_track: timelines kept per track.

    Returns:
        The lines of the chosen timelines in their order in ``memory_lines``, and
        track -> chosen timeline ids (sorted by digest).
    """
    tracks: dict[str, set[str]] = {}
    for label in labels:
        tracks.setdefault(label["why"], set()).add(label["update"].rsplit(":", 1)[0])
    texts: dict[str, list[str]] = {}
    for line in memory_lines:
        record = json.loads(line)
        texts.setdefault(record["user_id"], []).append(record["text"])
    chosen: dict[str, list[str]] = {}
    for track, timelines in sorted(tracks.items()):
        seen: set[tuple[str, ...]] = set()
        chosen[track] = []
        for timeline in sorted(timelines, key=_digest):
            said = tuple(texts.get(timeline, ()))
            if said in seen:
                continue
            seen.add(said)
            chosen[track].append(timeline)
            if len(chosen[track]) == per_track:
                break
    wanted = {t for ts in chosen.values() for t in ts}
    kept = [line for line in memory_lines if json.loads(line)["user_id"] in wanted]
    return kept, chosen


def main() -> None:
    """Command line: rebuild ``scanner/data/demo_statebench.jsonl``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", type=Path, default=DATA_DIR / "statebench",
                    help="the converted StateBench folder (default: %(default)s)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--per-track", type=int, default=PER_TRACK)
    args = ap.parse_args()
    if not (args.source / "memories.jsonl").is_file():
        ap.error(f"{args.source}/memories.jsonl is missing: pass --source, or set "
                 f"{SHARED_ENV} to the folder whose data/statebench holds it")
    lines = [line for line in (args.source / "memories.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    labels = [json.loads(line) for line in (args.source / "labels.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    kept, chosen = select(lines, labels, per_track=args.per_track)
    wanted = {t for ts in chosen.values() for t in ts}
    label_lines = [line for line in (args.source / "labels.jsonl").read_text(
        encoding="utf-8").splitlines()
        if line.strip() and json.loads(line)["update"].rsplit(":", 1)[0] in wanted]
    labels_out = args.out.with_name(args.out.stem + "_labels.jsonl")
    args.out.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    labels_out.write_text("".join(line + "\n" for line in label_lines), encoding="utf-8")
    for track, timelines in chosen.items():
        print(f"{track}: {', '.join(timelines)}")
    for path, what in ((args.out, f"{len(kept)} memories of {len(wanted)} timelines"),
                       (labels_out, f"{len(label_lines)} labelled updates")):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"wrote {what} to {path} (sha256 {digest[:16]})")


if __name__ == "__main__":
    main()
