"""Running the rules over texts: each text prepared for the parse, the texts parsed in
batches (in forked workers when asked), and the triples' offsets mapped back to the texts as
written. A mixin of :class:`extractors.rules.TripleExtractor`: it reads the extractor's
``nlp``, ``_readable``, ``_repaired`` / ``_repaired_many`` (:mod:`extractors.reading`) and
``triples_from_doc``.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable

from extractors.chat_forms import chat_forms_read
from extractors.chat_with import bare_with_read
from extractors.offsets import offsets_back
from extractors.orthography import apostrophes_restored, contraction_table
from extractors.reading import nominal_gerunds
from extractors.types import Triple

__all__ = ["TextRunner"]


class TextRunner:
    """:meth:`extract` and :meth:`extract_many` of :class:`extractors.rules.TripleExtractor`."""

    def extract(self, text: str) -> list[Triple]:
        """Triples of one text, deduplicated, in text order."""
        read, edits = self._prepared(text)
        doc, edit = self._repaired(self.nlp(read), edits[-1])
        nominal_gerunds(doc)
        return self._as_written(self.triples_from_doc(doc), (*edits[:-1], edit))

    def _prepared(self, text: str) -> tuple[str, tuple]:
        """The text as parsed and its four edits (:class:`extractors.offsets.Edits`, in the
        order made; :meth:`_readable`'s last): chat forms read (:mod:`extractors.chat_forms`,
        then :mod:`extractors.chat_with`), apostrophes restored
        (:mod:`extractors.orthography`), then :meth:`_readable`."""
        text, chat = chat_forms_read(text)
        text, bare = bare_with_read(text, self._is_verb, self._irregular_past())
        text, inserted = apostrophes_restored(text, self._contractions())
        read, edit = self._readable(text)
        return read, (chat, bare, inserted, edit)

    @staticmethod
    def _as_written(triples: list[Triple], edits: tuple) -> list[Triple]:
        """Triples with the offsets of :meth:`_prepared`'s text mapped to the text as
        written (the edits undone in reverse order, :func:`extractors.offsets.offsets_back`);
        ``edits`` may carry the repair's edit in place of the reading's."""
        return offsets_back(triples, edits)

    def _contractions(self) -> dict[str, str]:
        """:func:`extractors.orthography.contraction_table` of this pipeline, made once."""
        table = getattr(self, "_contraction_table", None)
        if table is None:
            lookups = self.nlp.get_pipe("lemmatizer").lookups
            words = [w for name in ("lemma_index", "lemma_exc") if lookups.has_table(name)
                     for forms in lookups.get_table(name).values() for w in forms]
            table = self._contraction_table = contraction_table(self.nlp.tokenizer.rules,
                                                                words)
        return table

    def extract_many(self, texts: Iterable[str], batch_size: int = 256,
                     n_process: int = 1) -> list[list[Triple]]:
        """Triples for many texts, parsed in batches with ``nlp.pipe``; one list per text.

        Args:
            texts: the texts.
            batch_size: texts per parser batch.
            n_process: worker processes. With more than one, the texts are cut into chunks and
                each worker parses *and* extracts its chunks, returning only triples (parsed
                ``Doc`` objects never cross a process boundary). Workers are forked, so they
                share this extractor's loaded pipeline and tables instead of loading them
                again; where ``fork`` is unavailable the texts are processed here.

        Returns:
            ``len(texts)`` lists of triples, in input order, equal to ``[extract(t) for t in
            texts]``.
        """
        texts = list(texts)
        chunk = max(batch_size, -(-len(texts) // (4 * max(1, n_process))))
        if (n_process <= 1 or len(texts) <= batch_size
                or "fork" not in multiprocessing.get_all_start_methods()):
            return self._extract_chunk(texts, batch_size)
        chunks = [texts[i:i + chunk] for i in range(0, len(texts), chunk)]
        _FORKED[:] = [self]
        try:
            with multiprocessing.get_context("fork").Pool(n_process) as pool:
                parts = pool.map(_extract_in_worker,
                                 [(part, batch_size) for part in chunks], chunksize=1)
        finally:
            _FORKED.clear()
        return [triples for part in parts for triples in part]

    def _extract_chunk(self, texts: list[str], batch_size: int) -> list[list[Triple]]:
        prepared = [self._prepared(t) for t in texts]
        out: list[list[Triple]] = []
        docs = self.nlp.pipe((read for read, _ in prepared), batch_size=batch_size)
        for at in range(0, len(texts), batch_size):
            part = prepared[at:at + batch_size]
            batch = [(next(docs), edits[-1]) for _, edits in part]
            out += [self._as_written(self.triples_from_doc(doc), (*edits[:-1], edit))
                    for (doc, edit), (_, edits) in zip(
                        map(nominal_gerunds, self._repaired_many(batch, batch_size)), part)]
        return out


_FORKED: list[TextRunner] = []
"""The extractor a forked worker inherits from :meth:`TextRunner.extract_many`."""


def _extract_in_worker(job: tuple[list[str], int]) -> list[list[Triple]]:
    texts, batch_size = job
    return _FORKED[0]._extract_chunk(texts, batch_size)
