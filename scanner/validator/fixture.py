"""The bundled fixture: a canned three-episode story plus the seven falsification rows
(issue 7).

The story, in ``scanner/data/validator_fixture.jsonl``:

* episode ``a_initial_write`` — two ADDs: a user preference (answers as bullet summaries) and a
  tool-result fact (the staging deploy region);
* episode ``b_temporal_conflict`` — the user now wants prose, so the preference is UPDATEd, and a
  later tool result shows the region moved, so the stale fact is DELETEd; both carry a conflict
  edge and downgrade evidence;
* episode ``c_cold_replay`` — a NOOP that adopts the current preference into the prompt after the
  evidence it depends on, then one task replayed cold with memory on and off, bound by an
  answer-delta record whose credit rests on an evidence handle;
* episode ``n_falsification`` — one row per falsification case of
  :class:`~scanner.validator.models.NegativeCase`, each declared with ``negative_case``.

The memory bodies and replay answers (short synthetic sentences) are in
``scanner/data/validator_fixture_bodies.jsonl``, so every digest in the log is checked and a
tampered body fails.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from scanner.validator import ValidationResult, ValidatorConfig, validate_log

FIXTURE_LOG = Path(str(resources.files("scanner.data") / "validator_fixture.jsonl"))
"""The fixture log (JSON Lines)."""
FIXTURE_BODIES = Path(str(resources.files("scanner.data") / "validator_fixture_bodies.jsonl"))
"""The bodies behind the fixture's digests (JSON Lines of ``{"ref", "body"}``)."""


def fixture_config(**overrides: object) -> ValidatorConfig:
    """The config a fixture run uses: the defaults, with all seven negative cases required."""
    return ValidatorConfig(**{"require_negative_cases": True, **overrides})


def run_fixture(out_dir: str | Path | None = None,
                config: ValidatorConfig | None = None) -> ValidationResult:
    """Validate the bundled fixture with its bodies.

    Args:
        out_dir: where to write the four records; ``None`` writes nothing.
        config: defaults to :func:`fixture_config`.

    Raises:
        OutputError: ``out_dir`` cannot be written.
    """
    return validate_log(FIXTURE_LOG, out_dir=out_dir, config=config or fixture_config(),
                        bodies=FIXTURE_BODIES)
