"""The extraction rules, one module per construction, combined by
:class:`extractors.rules.TripleExtractor`:

* :mod:`~extractors.constructions.subjects`: who a clause is about;
* :mod:`~extractors.constructions.objects`: canonical values of object heads;
* :mod:`~extractors.constructions.copula`: "X's Y is Z", states, identifier settings;
* :mod:`~extractors.constructions.verbs`: active and passive clauses, aspect, idioms,
  replacements, state changes;
* :mod:`~extractors.constructions.key_values`: ``key: value`` lines;
* :mod:`~extractors.constructions.patterns`: ParaRel pattern matches.

Each is a mixin over the extractor's ``nlp``, ``table`` and ``state_changes``; the sentences
each rule reads are the tables of ``tests/unit/test_extractor.py`` and
``tests/unit/test_state_changes.py``.
"""
