"""Preferences: the attributes a person prefers, how they are said and how they change.

"likes Spider-Man as her favourite superhero" (an "as" complement), a specific preference and
its generic reading ("favourite guiding book" -> "favourite book", rule ``attribute_generic``),
the marks of a changed value ("is now", "these days", "new favourite"), and what restricts a
preference after its noun ("favourite sport to watch").
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.relations import SETTING_MODIFIERS
from extractors.relations import CLASSIFIER_NOUNS  # noqa: F401 - also re-exported (copula)
from extractors.syntax import _lemma, _negated, _NP_DROP, _phrase, _span_tokens
from extractors.types import Triple

GENERIC_RULE = "attribute_generic"
KIND_READING = "kind"
"""The ``reading`` qualifier of a generic reading that drops a classifier noun ("favourite
movie genres" read as "favourite movies")."""
_CHANGED = ("change", "now")
_CHANGE_ADVERBS = frozenset({"now", "nowadays", "currently", "actually", "anymore"})
"""Adverbs that mark a value as replacing an earlier one ("Caroline's favourite book is now
X", "Actually, her favourite …"; with "these days" and a "new" attribute, the markers of
change of state in Quirk et al. 1985 §8.63 on temporal "now")."""


def _marks_change(cop: Token, noun: Token) -> bool:
    """Whether the copular clause marks its value as a change (:data:`_CHANGE_ADVERBS`,
    "these days", "her new favourite …")."""
    for t in cop.subtree:
        if t.dep_ == "advmod" and t.lower_ in _CHANGE_ADVERBS and t.head == cop:
            return True
        if t.lower_ == "days" and any(c.lower_ == "these" for c in t.children):
            return True
    return any(c.dep_ == "amod" and c.lower_ == "new" for c in noun.children)


def _preference_restriction(noun: Token, rel_tokens: list[Token], table) -> list[Token]:
    """What restricts a preference noun after it: "favourite sport to watch", "favourite
    cuisine for breakfast", "favourite book of the year" name other attributes than
    "favourite sport" (each may hold its own value); empty for any other attribute or an
    "of" owner ("the favourite dish of Maria" is Maria's)."""
    if not table.canonical(_phrase(rel_tokens))[0].startswith("preferred "):
        return []
    out: list[Token] = []
    for child in noun.children:
        if child.i < noun.i or child in rel_tokens:
            continue
        if child.dep_ in ("acl", "relcl") and any(a.lower_ == "to" for a in child.children):
            out += [t for t in child.subtree if t.pos_ != "PUNCT"]
        elif child.dep_ == "prep" and child.lower_ in ("for", "of", "at", "in", "on") and not (
                child.lower_ == "of" and any(p.pos_ == "PROPN" for p in child.children
                                             if p.dep_ == "pobj")):
            # (a named place restricts too: "favourite restaurant in Lisbon")
            out += [t for t in child.subtree if t.pos_ != "PUNCT" and t.dep_ != "det"]
    return sorted(out, key=lambda t: t.i)


_REGARD_VERBS = frozenset({"like", "love", "regard", "consider", "see", "count", "name",
                           "pick", "choose", "rank", "list", "describe", "cite", "use"})
"""Verbs whose "as" complement predicates an attribute of their object (:meth:`CopulaRules.
_as_attribute`)."""


class PreferenceRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``table``, ``_subject_token``, ``_entity``, ``_value`` and
    ``_make``)."""

    def _generic_preference(self, phrase: str, rel_tokens: list[Token]) -> str | None:
        """The generic attribute of a specific preference: "favourite guiding book" ->
        "favourite book" (the head noun keeps the preference word), "favourite movie genre"
        -> "favourite movie" (a classifier noun dropped: :data:`CLASSIFIER_NOUNS`); None when
        the attribute is no preference or has no other modifier. Its triple (rule ``attribute_generic``)
        meets only a later marked change of the generic attribute
        (:func:`scanner.core.detect._generic_meets`)."""
        head = rel_tokens[-1]
        if head.pos_ != "NOUN" or any(t.lower_ == "of" for t in rel_tokens):
            return None
        relation, _ = self.table.canonical(phrase)
        if not relation.startswith("preferred "):
            return None
        if head.lemma_.lower() in CLASSIFIER_NOUNS and len(rel_tokens) > 2 and \
                rel_tokens[-2].pos_ == "NOUN":
            # "favourite movie genres" name kinds of movies: "favourite movies"
            generic = _phrase([*rel_tokens[:-2], rel_tokens[-2]])
            return generic if self.table.canonical(generic)[0].startswith("preferred ") \
                else None
        marks = [t for t in rel_tokens[:-1] if self.table.canonical(
            _phrase([t, head]))[0].startswith("preferred ")]
        if not marks:
            return None
        generic = _phrase([marks[0], head])
        return generic if self.table.canonical(generic)[0] != relation else None

    def _as_attribute(self, verb: Token) -> list[Triple]:
        """An attribute stated by the "as" complement of a verb of regard or liking: "Joanna
        likes Spider-Man as her favourite superhero", "Sam regards Dune as his favourite book"
        -> (joanna, preferred superhero, spider man). The object is what the "as" phrase
        predicates of it, as a copula's subject is (complex-transitive "as" complements:
        Huddleston & Pullum 2002, ch. 4 §5). Only an attribute the relation table knows as a
        preference ("favourite", "preferred", "go-to" X) is read: "works as a nurse" or "sees
        her as a mentor" say something else."""
        if _lemma(verb) not in _REGARD_VERBS or _negated(verb):
            return []
        obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
        # (the parser may hang the "as" phrase on the object: "uses Vim as her main editor")
        noun = next((p for c in [*verb.children, *(obj.children if obj is not None else ())]
                     if c.dep_ == "prep" and c.lower_ == "as"
                     for p in c.children if p.dep_ == "pobj" and p.pos_ == "NOUN"), None)
        subj = self._subject_token(verb)
        if obj is None or noun is None or subj is None:
            return []
        subject = self._entity(subj)
        rel_tokens = [t for t in _span_tokens(noun, drop=_NP_DROP) if t.dep_ != "poss"]
        phrase = _phrase(rel_tokens)
        relation, _ = self.table.canonical(phrase)
        setting = _lemma(verb) == "use" and len(rel_tokens) > 1 and rel_tokens[0].lower_ in \
            SETTING_MODIFIERS  # "uses Chrome as (her) default browser"
        if not subject or not (relation.startswith("preferred ") or setting):
            return []
        value, surface = self._value(obj)
        return [self._make(subject, phrase, value, surface, negated=False, clause=verb,
                           rule="attribute")] if value else []
