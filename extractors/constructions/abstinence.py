"""A habit given up, said without a negated verb: "has been smoke-free for two months",
"sober since March", "three weeks without a drink".

Three forms state that the subject now abstains (FrameNet Activity_stop: the activity no
longer goes on; Ingestion names the habit):

* the combining form "-free" ("free from, without": OED; Quirk et al. 1985, App. I.36) said
  *of the person*, predicatively: "I've been smoke-free for two months", "six weeks smoke free
  today". Said of a thing ("a smoke-free building", "caffeine free tea", "gluten-free dinner")
  it describes the thing and says nothing of anyone's habits;
* "sober" for a spell reaching now ("has been sober since March", "stayed sober for a year"):
  sobriety as abstinence from alcohol (WordNet 3.1 sobriety.n.02 "moderation in or abstinence
  from alcohol or other drugs"); "sober" alone may be the moment's state (not drunk now);
* "without" the habit's object for a spell of weeks or more reaching now, in the perfect or a
  verbless milestone ("I have gone two months without a cigarette", "3 months without a drink
  today"): a state leading up to the present (Quirk et al. 1985, §4.22). A simple past ("went
  a day without coffee") is one occasion, over, and no habit given up.

Each gives the negated habit: ``(user, smoke, "")`` or ``(user, drink, alcohol)``.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.doc_cache import doc_words
from extractors.syntax import USER, _negated
from extractors.times import _is_time
from extractors.types import Triple

HABITS: dict[str, tuple[str, str]] = {
    "smoke": ("smoke", ""), "smoking": ("smoke", ""), "cigarette": ("smoke", ""),
    "tobacco": ("smoke", ""), "nicotine": ("smoke", ""), "cigar": ("smoke", ""),
    "alcohol": ("drink", "alcohol"), "booze": ("drink", "alcohol"), "drink": ("drink", "alcohol"),
    "drinking": ("drink", "alcohol"), "liquor": ("drink", "alcohol"),
    "meat": ("eat", "meat"), "dairy": ("eat", "dairy"), "gluten": ("eat", "gluten"),
    "sugar": ("eat", "sugar"),
}
"""Words of a habit -> the habit they name: tobacco (WordNet smoke.v.01 "inhale and exhale
smoke from cigarettes, cigars, pipes"; nicotine, tobacco.n.01), alcohol (drink.n.02 "a
serving of an alcoholic beverage", drink.v.02, booze.n.01, liquor.n.01) and the foods a diet
leaves out (FrameNet Ingestion; "dairy-free", "gluten-free" said of a person: "eats no dairy",
as a vegan's diet is read)."""

_SPELL_UNITS = frozenset({"week", "month", "year", "fortnight"})
"""Units of a spell long enough to be a habit given up, not one occasion ("a day without
coffee", "a night without a drink" are occasions)."""

_ABSTINENCE_WORDS = frozenset({"free", "sober", "without"})
"""The words one of the three forms needs ("smoke-free", "sober", "without a drink")."""

_NOW_WORDS = frozenset({"now", "today", "currently", "officially"})


def _habit(word: Token) -> tuple[str, str] | None:
    """The habit a word names (:data:`HABITS`), by its form or lemma; for a "-free" word kept
    whole by the tokenizer (:data:`extractors.pipeline.FREE_ADJECTIVE`), what it is free of
    ("smoke-free" -> smoke)."""
    if _fused_free(word):
        return HABITS.get(word.lower_.removesuffix("-free"))
    return HABITS.get(word.lower_) or HABITS.get(word.lemma_.lower())


def _fused_free(word: Token) -> bool:
    """Whether ``word`` is one "-free" token ("smoke-free", "dairy-free")."""
    return word.lower_.endswith("-free") and len(word.lower_) > 5


def _spell(tokens) -> bool:
    """Whether one of ``tokens`` is a spell of weeks or more ("two months", "a year")."""
    return any(t.lemma_.lower() in _SPELL_UNITS for t in tokens)


def _past(head: Token) -> bool:
    """A clause in the simple past or past perfect ("was smoke-free in college", "went a
    month without …", "had been sober"): over, no state of now."""
    if head.tag_ == "VBD":
        return True
    return any(c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for c in head.children)


def _milestone(sent) -> tuple[str, str] | None:
    """The habit of a line that opens with a spell and the habit's "-free" ("Two months
    smoke-free today", "6 weeks alcohol free, …") or with "Sober since …" / "Sober for"
    a spell: a milestone of abstinence counted up to now, whatever the parser made of the
    rest; None otherwise."""
    words = [t for t in sent if not t.is_space]
    if len(words) > 2 and words[0].lower_ == "sober" and (
            words[1].lower_ == "since" or words[1].lower_ == "for" and _spell(words[2:5])):
        return ("drink", "alcohol")  # "Sober since March; …", "Sober for a year now"
    if len(words) < 3 or not (words[0].like_num or words[0].lower_ in ("a", "one")):
        return None
    if words[1].lemma_.lower() not in _SPELL_UNITS:
        return None
    if _fused_free(words[2]):
        # ("six months alcohol-free challenge": the free of a thing)
        return _habit(words[2]) if words[2].head.i <= words[2].i else None
    if len(words) < 4:
        return None
    rest = words[3:] if words[3].tag_ != "HYPH" else words[4:]
    if not rest or rest[0].lower_ != "free" or rest[0].head.i > rest[0].i:
        return None  # ("six months alcohol-free challenge": the free of a thing)
    return _habit(words[2])


_BOUNDING_PREPS = frozenset({"on", "at", "in", "during", "for", "while", "until", "till",
                             "except", "over", "before", "after", "around"})
"""Prepositions of a circumstance that bounds an abstinence to it ("on Mondays", "at work",
"for Lent", "in January", "during the week"); "for" a spell of weeks or more and "since"
reach now instead (:func:`_spell`)."""


def _bounded(head: Token) -> bool:
    """Whether the clause of ``head`` bounds what it says to a time, place, occasion or
    condition: a circumstance phrase (:data:`_BOUNDING_PREPS`, but not "for" a spell of weeks
    or more), a clause of time or condition ("when her eczema flares"), a time noun other than
    now ("weekdays"), or "only". Such a "-free", "sober" or "without" gives up no habit: it is
    the restricted denial of Quirk et al. 1985 §10.64 (the focus of the negation)."""
    nodes = [head, *(a for a in head.children if a.dep_ in ("acomp", "oprd", "attr"))]
    for c in (c for n in nodes for c in n.children):
        if c.dep_ == "prep" and c.lower_ in _BOUNDING_PREPS and not (
                c.lower_ == "for" and _spell(c.subtree)):
            return True
        if c.dep_ == "advcl":
            return True
        if c.dep_ == "npadvmod" and c.lower_ not in _NOW_WORDS and not _spell([c]) and (
                _is_time(c) or c.lower_.endswith("s") and c.pos_ == "NOUN"):
            return True
    return any(t.lower_ == "only" and t.dep_ == "advmod" for t in head.sent)


class AbstinenceRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin: it
    reads the extractor's ``_entity`` and ``_make``)."""

    def _abstinence(self, head: Token) -> list[Triple]:
        """The habits a clause says its subject has given up (see the module's forms), each
        a negated triple; [] for anything else."""
        words = doc_words(head.doc)
        if _ABSTINENCE_WORDS.isdisjoint(words) and not any(w.endswith("-free") for w in words):
            return []  # each form needs "free", "sober" or "without"
        found = _milestone(head.sent) if head.dep_ == "ROOT" else None
        if found is None and (_negated(head) or _past(head)):
            return []
        if found is None and _bounded(head):
            return []  # "dairy-free on weekdays only", "meat-free for Lent", "smoke-free at work"
        found = found or self._free_of(head) or self._sober(head) or self._without(head)
        if found is None:
            return []
        subject = self._abstainer(head)
        if subject is None:
            return []
        relation, obj = found
        return [self._make(subject, relation, obj, obj, negated=True, clause=head,
                           rule="svo" if obj else "state")]

    def _abstainer(self, head: Token) -> str | None:
        """Who abstains: the clause's subject when it is the user or a named person; the
        user in a verbless line with no subject ("Six weeks smoke free today")."""
        subj = next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if head.dep_ == "ROOT" and _milestone(head.sent) is not None:
            return USER  # "Two months smoke-free today 🎉 …": the line's own milestone
        if subj is None:
            verbless = not any(t.pos_ in ("VERB", "AUX") for t in head.sent)
            return USER if verbless and head.dep_ == "ROOT" else None
        who = self._entity(subj)
        if who == USER or (who and subj.pos_ == "PROPN" and not _is_time(subj)):
            return who
        return None

    @staticmethod
    def _free_of(head: Token) -> tuple[str, str] | None:
        """"smoke-free" said of the clause's subject: "free" the complement of a copula
        ("I've been smoke-free", "am nicotine-free now") or heading a verbless line ("Smoke
        free for ninety days", "six weeks smoke free today")."""
        if head.lemma_ == "be" or head.lemma_ in ("stay", "remain", "go"):
            free = next((c for c in head.children if c.dep_ in ("acomp", "oprd")
                         and (c.lower_ == "free" or _fused_free(c))), None)
            attr = next((c for c in head.children if c.dep_ == "attr"), None)
            if free is None and attr is not None and not any(
                    c.dep_ in ("det", "poss") for c in attr.children):
                # "I have been smoke free": the parser makes the habit's noun the attribute
                free = next((c for c in attr.children if c.dep_ == "amod"
                             and c.lower_ == "free" and c.i == attr.i + 1), None)
        elif head.dep_ == "ROOT" and (head.lower_ == "free" or _fused_free(head)):
            free = head
        elif head.dep_ == "ROOT" and head.pos_ == "NOUN":
            # "Smoke free for ninety days": the parser heads the line with the habit's noun
            free = next((c for c in head.children if c.lower_ == "free"
                         and c.dep_ in ("acomp", "amod") and c.i == head.i + 1), None)
        else:
            return None
        if free is None:
            return None
        if _fused_free(free):
            return _habit(free)
        before = free.nbor(-1) if free.i > 0 else None
        if before is not None and before.tag_ == "HYPH" and free.i > 1:
            before = free.nbor(-2)
        if before is None or not (before.head == free or free.head == before):
            return None
        return _habit(before)

    @staticmethod
    def _sober(head: Token) -> tuple[str, str] | None:
        """"sober" for a spell reaching now: "has been sober since March", "stayed sober for
        a year" (a perfect, or "since"/"for" a spell)."""
        if head.lemma_ not in ("be", "stay", "remain") or not any(
                c.dep_ == "acomp" and c.lower_ == "sober" for c in head.children):
            return None
        perfect = any(c.dep_ == "aux" and c.lemma_ == "have" for c in head.children)
        spell = any(c.dep_ == "prep" and (c.lower_ == "since" or c.lower_ == "for" and _spell(
            c.subtree)) for c in head.children)
        return ("drink", "alcohol") if perfect or spell else None

    @staticmethod
    def _without(head: Token) -> tuple[str, str] | None:
        """"without" a habit's object for weeks or more up to now: a verbless line ("3
        months without a cigarette now") or a perfect of "go" ("I've gone two months without
        a drink")."""
        if head.lower_ == "without" and head.dep_ == "ROOT":
            prep, spell = head, [c for c in head.children if c.dep_ == "npadvmod"]
        elif head.lemma_ == "go" and any(c.dep_ == "aux" and c.lemma_ == "have"
                                         for c in head.children):
            prep = next((c for c in head.children if c.dep_ == "prep"
                         and c.lower_ == "without"), None)
            spell = [c for c in head.children if c.dep_ in ("npadvmod", "dobj")]
        else:
            return None
        if prep is None or not _spell(spell):
            return None
        pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if pobj is None or any(c.dep_ == "prep" for c in pobj.children):
            return None  # ("without a drink of water": no alcohol)
        return _habit(pobj)
