"""The pure core: what a scan decides, as values, with no store, service, API or CLI in sight.

================================  ==========================================================
:mod:`scanner.core.keys`          grouping triples by ``(scope, subject, relation)``; aliases
:mod:`scanner.core.stances`       what one record says under one key (its stance)
:mod:`scanner.core.detect`        which records of one key conflict, which restate (SPEC §2)
:mod:`scanner.core.names`         a name and its short form as values: "Lena" / "Lena Fischer"
:mod:`scanner.core.policy_config` the settings a verdict runs under; named strategies
:mod:`scanner.core.policy`        one verdict per pair: SPEC §3 as an ordered table of rows
:mod:`scanner.core.questions`     the clarification question of an unresolved pair
:mod:`scanner.core.settlement`    settlement of a quarantine or epoch change by re-observation
:mod:`scanner.core.report`        the SPEC §5 report: ``cite``, ``withhold``, ``unresolved``
:mod:`scanner.core.ledger`        ledger entries of a scan's verdicts, their ids and statuses
:mod:`scanner.core.key_decision`  which resolutions of a key are recorded (one per loser)
:mod:`scanner.core.effects`       the edges and statuses a set of verdicts implies
:mod:`scanner.core.convergence`   what a scan of every memory does with earlier state
:mod:`scanner.core.ledger_stats`  conflict statistics counted from ledger entries
================================  ==========================================================

Modules here import only each other, :mod:`scanner.models`, :mod:`scanner.short_forms` and
:mod:`extractors` (``tests/unit/test_store_layout.py`` checks it).
"""
