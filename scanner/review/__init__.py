"""Review by a person of what the scanner cannot settle (issue 17).

The ledger holds entries nobody may present as settled: quarantines, epoch changes waiting for
a re-observation, escalations with a recommended resolution and ``possible`` conflicts, each
with a clarification question. A reviewer (on the page ``contrascan serve`` serves under
``/review``, or an agent through ``POST /v1/reviews``) closes one with one of three actions:

* ``current`` ("this one is current"): a new memory record restating the chosen member is
  written (source ``review:<reviewer>``, source class ``user``, observed now, in the pair's
  epoch); the existing settlement rule (:func:`scanner.core.settlement.settlement`) settles the pair by
  that re-observation where it applies, and the reviewer's decision settles it where the rule
  cannot (escalations, ``possible`` pairs, a member more trusted than a person);
* ``both_true`` ("both are true"): the key holds several values for this user, so the pair and
  every later value mismatch on the key are no conflict (SPEC §2, multi-valued relation);
* ``dismiss``: the entry is closed without choosing; its members stay unresolved.

Every action is one ``review`` ledger entry (uuid5 of the entry it closes, so a double click
writes once) that ``contrascan history`` narrates. Nothing is deleted.

Modules: :mod:`scanner.review.decisions` (pure: records, entries, how decisions change a
scan's verdicts), :mod:`scanner.review.service` (the actions over the store),
:mod:`scanner.review.web` (the HTML pages and the JSON endpoints),
:mod:`scanner.review.browser` (a headless Chromium for tests and screenshots).
"""
