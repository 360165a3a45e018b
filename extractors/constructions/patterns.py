"""ParaRel pattern matches (rule ``pattern``, :mod:`extractors.lexicon`)."""

from __future__ import annotations

from spacy.tokens import Doc

from extractors.lexicon import match_patterns
from extractors.doc_cache import span_text
from extractors.syntax import (
    _CONTAINER_NOUNS,
    _fronted_modifier,
    _is_question,
    _is_time,
    _span_phrase,
)
from extractors.types import Triple
from extractors.values import is_quantity, normalize_value


class PatternRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``nlp``, ``table``, ``state_changes`` and induced relations)."""

    def _pattern_triples(self, doc: Doc) -> list[Triple]:
        """Triples of sentences that instantiate a ParaRel pattern (rule ``pattern``)."""
        out = []
        for sent in doc.sents:
            seen = set()
            if _is_question(sent):
                continue
            for pat, (xs, xe), (ys, ye) in match_patterns(
                    span_text(doc, sent.start, sent.end), self._pattern_index):
                base = sent.start_char
                x = doc.char_span(base + xs, base + xe, alignment_mode="expand")
                y = doc.char_span(base + ys, base + ye, alignment_mode="expand")
                if x is None or y is None:
                    continue
                # a slot at the end of a pattern runs to the end of the sentence: it ends
                # where the phrase of its head ends ("works as [a nurse at St. Mary's] and
                # finds the shifts long")
                head = next((t for t in y if not y.start <= t.head.i < y.end or t.head == t),
                            y.root)
                end = next((t.i for t in y if t.i > head.i and head not in t.ancestors),
                           y.end)
                if y.start < end < y.end:
                    y = doc[y.start:end]
                if any(span.start > sent.start and span[0].pos_ in ("VERB", "AUX")
                       and not span[0].text[:1].isupper() for span in (x, y)):
                    continue  # a slot after literal text swallowed a clause: "is known for …"
                    # (a capitalised one is a title: "The language of Being Julia is …")
                if _is_time(y.root) and not _is_time(x.root):
                    continue  # "passed away in November": a time is no place, person or thing
                if _fronted_modifier(x):
                    continue  # "In 2019, Bob was born in Paris": "In 2019" is no part of Bob
                if any(t.pos_ in ("VERB", "AUX") and t.text.islower() for t in x):
                    continue  # "The user left Deloitte and now works as …": a clause
                cut = next((t.i for t in x if (t.dep_ == "neg" or t.dep_ == "advmod" and (
                    t.head.i >= x.end or t.head.i < x.start)) and t.text.islower()), None)
                if cut is not None:
                    # "The user no longer plays …", "X professionally plays …": the clause's
                    # adverb is no part of its subject (a title's is: "Google Now")
                    if cut == x.start:
                        continue
                    x = doc[x.start:cut]
                subject = self._span_entity(x)
                surface = span_text(doc, y.start, y.end)
                if (y.root.pos_ == "NOUN" and y.root.lemma_.lower() in _CONTAINER_NOUNS and
                        y.root.i == y.start + (y[0].dep_ == "det")) or any(
                        t.dep_ == "compound" and t.lemma_.lower() in _CONTAINER_NOUNS
                        for t in y if t.head == y.root):
                    value, surface = self._value(y.root)  # "the city of Barcelona"
                else:
                    value = normalize_value(surface) if is_quantity(surface) else \
                        normalize_value(_span_phrase(y))
                if not subject or not value or (pat.relation, value) in seen:
                    continue
                if pat.objects is not None and value not in pat.objects \
                        and normalize_value(surface) not in pat.objects:
                    continue  # a typed pattern: not an object of its relation
                seen.add((pat.relation, value))
                out.append(Triple(subject=subject, relation=pat.relation, object=value,
                                  start=sent.start_char, end=sent.end_char,
                                  object_text=surface, rule="pattern"))
        return out
