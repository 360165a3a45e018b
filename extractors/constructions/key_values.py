"""Key: value lines ("retry_timeout = 30s", "Timeout for service A: 30s")."""

from __future__ import annotations

import re

from spacy.tokens import Doc

from extractors.relations import SPELLING
from extractors.syntax import _FIRST_PERSON, _KEY_VALUE, _phrase, _surface, USER
from extractors.types import Triple
from extractors.values import is_quantity, normalize_value


class KeyValueRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``nlp``, ``table``, ``state_changes`` and induced relations)."""

    # -- key: value lines --------------------------------------------------------------------
    def _key_values(self, doc: Doc) -> list[Triple]:
        out: list[Triple] = []
        offset = 0
        for line in doc.text.split("\n"):
            m = _KEY_VALUE.match(line)
            start = offset
            offset += len(line) + 1
            if not m:
                continue
            value_span = doc.char_span(start + m.start("value"), start + m.end("value"),
                                       alignment_mode="expand")
            if value_span is None or len(value_span) > 6 or any(
                    t.pos_ in ("VERB", "AUX") for t in value_span):
                continue
            subject, relation = self._split_key(m["key"])
            if not relation:
                continue
            neg = any(t.dep_ == "neg" or t.lower_ in ("not", "no", "never") for t in value_span)
            words = [t for t in value_span if t.lower_ not in ("not", "no", "never")]
            surface = _surface(words) if words else m["value"]
            value = normalize_value(surface) if is_quantity(surface) else normalize_value(
                _phrase(words))
            relation, flips = self.table.canonical(relation)
            out.append(Triple(subject=subject, relation=relation, object=value,
                              negated=neg != flips, start=start, end=start + len(line),
                              object_text=surface, rule="key_value"))
        return out

    def _split_key(self, key: str) -> tuple[str, str]:
        """"Timeout for service A" -> ("service a", "timeout"); "retry_timeout" -> (user, ..)."""
        key = " ".join(key.replace("_", " ").replace("-", " ").split()).lower()
        for pattern in (r"^(?P<rel>.+?) (?:for|of) (?P<subj>.+)$", r"^(?P<subj>.+?)'s (?P<rel>.+)$"):
            m = re.match(pattern, key)
            if m:
                subject = m["subj"]
                subject = re.sub(r"^(?:the|a|an) ", "", subject)
                return (USER if subject in _FIRST_PERSON or subject == "user" else subject,
                        m["rel"])
        words = [SPELLING.get(w, w) for w in re.sub(r"^(?:the|my|our) ", "", key).split()]
        return USER, " ".join(words)
