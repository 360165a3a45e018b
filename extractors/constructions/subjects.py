"""Subjects: who a clause is about (SPEC §1 canonical subject).

Noun phrase heads to canonical subjects: first person and "the user" are the scope's user,
a relative pronoun its antecedent, "his"/"her" the named subject of the governing clause, a
fronted topic ("On rack 4 the preferred glaze is ...") the owner of an implicit attribute.
"""

from __future__ import annotations

from spacy.tokens import Span, Token

from extractors.parsed import ParsedSpan
from extractors.doc_cache import per_token, span_text
from extractors.relations import RELATIONSHIP_NOUNS
from extractors.syntax import (
    _ANAPHORS,
    _FIRST_PERSON,
    _is_time,
    _misread_subject,
    _NP_DROP,
    _phrase,
    _POSSESSIVE_PRONOUNS,
    _question_antecedent,
    _span_phrase,
    _span_tokens,
    _UNRESOLVED_PRONOUNS,
    USER,
)


_OWNING_VERBS = frozenset({"run", "own", "have", "manage", "start", "found", "keep"})


def _implied_owner(noun: Token) -> Token | None:
    """The named owner of a subject that says whose it is without a possessive in front:
    "the pottery studio Ingrid ran" (a relative clause of owning, its subject a name) and
    "The Lanterns, Nadia's band" (an appositive with a possessor)."""
    for child in noun.children:
        if child.dep_ == "relcl" and child.lemma_.lower() in _OWNING_VERBS:
            subj = next((c for c in child.children if c.dep_ == "nsubj"), None)
            if subj is not None and subj.pos_ == "PROPN":
                return subj
        if child.dep_ == "appos":
            poss = next((c for c in child.children if c.dep_ == "poss"
                         and c.pos_ == "PROPN"), None)
            if poss is not None:
                return poss
    return None


ANIMATE_NOUNS = RELATIONSHIP_NOUNS | frozenset("""
    puppy kitten bird rabbit parrot hamster client customer patient student teacher doctor
    man woman boy girl guy person people colleague manager coach friend mentor neighbour
    """.split())
"""Common nouns of people and animals a "he"/"she" may stand for instead of a named person."""
_MALE_NOUNS = frozenset("""
    father dad brother son husband boyfriend fiance uncle nephew grandfather grandpa landlord
    man boy guy
    """.split())
_FEMALE_NOUNS = frozenset("""
    mother mom mum sister daughter wife girlfriend fiancee aunt niece grandmother grandma
    landlady woman girl
    """.split())
"""Person nouns of lexical gender (Quirk et al. 1985, §5.104-5.109: "he" and "she" nouns);
the others ("cousin", "friend") may be either."""
_PERSONAL_PRONOUNS = {"he", "she"}
"""Subject pronouns that can only mean a person (:meth:`SubjectRules._personal_antecedent`)."""
_NOT_PEOPLE = {"GPE", "LOC", "ORG", "FAC", "NORP", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW",
               "LANGUAGE", "DATE", "TIME", "MONEY", "QUANTITY"}
"""spaCy (OntoNotes) entity types of proper nouns that name no person."""
_PERSON_ROLES = {"nsubj", "nsubjpass", "poss", "dobj", "dative", "npadvmod"}
"""Dependency roles in which a proper noun before a "he"/"she" may be its antecedent (a
preposition's object is more often a place: "moved to Dublin", "lives in Galway");
``npadvmod`` is the small model's usual misreading of a sentence-initial subject name."""

def _the_user(token: Token) -> bool:
    """Whether ``token`` heads "the user" (the scope's user, as memory writers name them)."""
    return token.lower_ == "user" and token.pos_ == "NOUN" and not any(
        c.dep_ in ("poss", "compound", "amod") for c in token.children)


_GROUPS_OF_PEOPLE = frozenset({"couple", "family", "group", "team", "pair", "crew", "band",
                               "neighbor", "neighbour", "roommate", "parent", "kid", "child"})


def _others_between(user: Token, pronoun: Token) -> bool:
    """Whether people other than the user are named between "the user" and a "their" ("The
    user met a couple and their favourite movie is Heat")."""
    return any(t.tag_ in ("NNS", "NNPS") or t.lemma_.lower() in ANIMATE_NOUNS | _GROUPS_OF_PEOPLE
               for t in pronoun.doc[user.i + 1:pronoun.i])


def _user_before(pronoun: Token) -> Token | None:
    """The "the user" a "they" / "their" stands for: the subject "user" of a clause before it
    in its sentence, with no plural noun or other subject between ("The user's parents moved;
    they live in Leeds" is about the parents); None otherwise."""
    before = pronoun.doc[pronoun.sent.start:pronoun.i]
    users = [t for t in before if _the_user(t) and t.dep_ in ("nsubj", "nsubjpass")]
    if not users:
        return None
    if any(t.tag_ in ("NNS", "NNPS") or (t.dep_ in ("nsubj", "nsubjpass") and t.i > users[-1].i)
           or t.dep_ == "poss" and t.head.tag_ in ("NNS", "NNPS")
           for t in before[users[-1].i - before.start:]):
        return None
    return users[-1]


def _reporter(pronoun: Token) -> Token | None:
    """The user's own relation who reports about themselves: "My sister said she moved",
    "My brother told me he left Acme": a "he"/"she" subject of a clause that complements a
    verb whose subject is a person noun the user possesses ("my sister"), of the pronoun's
    gender, with no other person named before the pronoun (the reported clause's subject
    refers to the reporter by preference, logophoric reference, Sells 1987; the user, "my"
    or "me", is no "he"/"she"). None otherwise ("Nina's husband said she …")."""
    clause = pronoun.head
    if pronoun.dep_ not in ("nsubj", "nsubjpass") or clause.dep_ != "ccomp" or \
            clause.head.pos_ != "VERB":
        return None
    subject = next((c for c in clause.head.children if c.dep_ == "nsubj"), None)
    if subject is None or subject.pos_ != "NOUN" or subject.i > clause.head.i:
        return None
    noun = subject.lemma_.lower()
    if noun not in ANIMATE_NOUNS or noun in (
            _FEMALE_NOUNS if pronoun.lower_ == "he" else _MALE_NOUNS):
        return None
    if not any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in subject.children):
        return None
    people = [t for t in pronoun.doc[pronoun.sent.start:pronoun.i]
              if t not in subject.subtree and (
                  t.pos_ == "PROPN" or t.pos_ == "NOUN" and t.lemma_.lower() in ANIMATE_NOUNS
                  or t.pos_ == "PRON" and t.lower_ not in ("i", "me", "my", "we", "us", "our",
                                                          "that"))]
    return None if people else subject


class SubjectRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``nlp``, ``table``, ``state_changes`` and induced relations)."""

    def _span_entity(self, span: Span) -> str | None:
        low = span_text(span.doc, span.start, span.end).lower()
        if low in _FIRST_PERSON or low in ("the user", "user"):
            return USER
        if low in _ANAPHORS and span.start == span.sent.start:
            return self._antecedent_entity(_question_antecedent(span.sent))
        if low in _UNRESOLVED_PRONOUNS:
            return None
        if len(span) > 1 and span[0].lower_ == "my":  # "my father" as _entity spells it
            rest = _span_phrase(span[1:])
            return f"{USER}'s {rest}" if rest else None
        return _span_phrase(span) or None

    # -- subjects ---------------------------------------------------------------------------
    def _subject_token(self, verb: Token) -> Token | None:
        for child in verb.children:
            if child.dep_ in ("nsubj", "nsubjpass", "csubj", "csubjpass", "expl"):
                if child.dep_ == "expl":
                    return None
                return child
        misread = _misread_subject(verb)
        if misread is not None:
            return misread
        if verb.dep_ in ("conj", "xcomp", "advcl") and verb.head != verb:
            return self._subject_token(verb.head)
        if verb.dep_ in ("relcl", "acl") and verb.head != verb:
            return verb.head
        return None

    @per_token
    def _entity(self, token: Token) -> str | None:
        """Canonical subject for a noun phrase head; None for an unresolvable pronoun."""
        low = token.lower_
        if token.text == "i" and self._name_internal(token):
            return None  # "Josep Tarradellas i Joan": Catalan "and", not the pronoun
        regnal = token.text == "I" and any(c.dep_ == "compound" and c.pos_ == "PROPN"
                                           and c.i == token.i - 1 for c in token.children)
        if low in _FIRST_PERSON and not regnal:  # "Stephen I of Hungary" names a king
            return USER
        if token.tag_ in ("WP", "WP$", "WDT"):
            return self._relative_antecedent(token)
        if low in _ANAPHORS and token.i == token.sent.start:
            antecedent = _question_antecedent(token.sent)
            if antecedent is not None:  # "Where is the backup? It is in S3."
                return self._antecedent_entity(antecedent)
        if low in _POSSESSIVE_PRONOUNS and token.dep_ == "poss":
            return self._possessor_antecedent(token)
        if low in _PERSONAL_PRONOUNS and token.dep_ in ("nsubj", "nsubjpass"):
            return self._personal_antecedent(token)
        if low == "they" and token.dep_ in ("nsubj", "nsubjpass") and \
                _user_before(token) is not None:
            return USER  # "The user switched to coffee and says they no longer drink tea"
        if low in _UNRESOLVED_PRONOUNS:
            return None
        if token.dep_ in ("csubj", "csubjpass") or token.pos_ == "VERB":
            return _phrase(t for t in token.subtree)
        # names keep their "of" phrase: "Bank of America", "Club of Queensland"
        tokens = _span_tokens(token, drop=_NP_DROP, keep_of=token.pos_ == "PROPN" or regnal)
        goal = self._goal_value(token)  # "the trip to the East Coast", as its object reads
        text = goal[0] if goal is not None else _phrase(tokens)
        if text in ("user", "the user"):
            return USER
        owner = next((c for c in token.children if c.dep_ == "poss"), None)
        if text and owner is None and token.dep_ in ("nsubj", "nsubjpass"):
            owner = _implied_owner(token)
        if text and owner is not None and token.pos_ in ("NOUN", "PROPN"):
            # "my wife", "Bob's wife": the possessor stays part of who is meant; so does
            # the owner a relative clause or an appositive names ("the studio Ingrid ran",
            # "The Lanterns, Nadia's band")
            who = self._entity(owner)
            return f"{who}'s {text}" if who else None
        return text or None

    def _possessor_antecedent(self, pronoun: Token) -> str | None:
        """What "his" / "her" / "their" refers to: the named subject of the nearest clause
        that governs the pronoun's clause ("Tim says his favourite book is X" -> tim), the
        subject-antecedent preference of pronoun resolution (Hobbs 1978, "Resolving pronoun
        references"). None when no governing clause has a proper-noun subject."""
        own = pronoun.head
        for ancestor in own.ancestors:
            if ancestor.lemma_ == "be" and any(c.dep_ == "attr" and own in c.subtree
                                               for c in ancestor.children):
                # "Wet Leg are her favourite band": the copula's subject is the value
                # the attribute names, never its owner
                continue
            subj = self._subject_token(ancestor)  # (or the small model's misread subject)
            if subj is not None and (subj == own or own in subj.subtree):
                subj = None
            if subj is not None and subj.i < pronoun.i and (
                    subj.pos_ == "PROPN" or any(t.pos_ == "PROPN" for t in subj.subtree)
                    or _the_user(subj) and not _others_between(subj, pronoun)):
                return self._entity(subj)
        user = _user_before(pronoun) if pronoun.lower_ == "their" else None
        if user is not None and not _others_between(user, pronoun):
            # "The user corrected this: their birthday is …": "the user" is the subject of
            # the clause before, which the parser did not make the governing one
            return USER
        return None

    def _personal_antecedent(self, pronoun: Token) -> str | None:
        """Who a subject "he" / "she" is: the one person named before it in its sentence
        ("Tim's placement moved to Dublin, so he won't be living in Galway" -> tim), unless a
        person or animal named by a common noun comes between (:data:`ANIMATE_NOUNS`: "Nina's
        husband is a chef and he works at Noma" is about the husband). A memory
        writer's fact names its person and refers back to them (the subject-antecedent
        preference of Hobbs 1978); with two people named before the pronoun ("Tim told Sam he
        …") the reference is ambiguous and the clause yields nothing. A name counts when it
        is a clause's subject, a possessor or an object (:data:`_PERSON_ROLES`; "moved to
        Dublin" names a place), and not typed a place or organisation where the pipeline
        recognises entities."""
        sentence = pronoun.sent
        before = pronoun.doc[sentence.start:pronoun.i]
        reporter = _reporter(pronoun)
        if reporter is not None:
            return self._entity(reporter)
        if any(t.pos_ == "NOUN" and t.lemma_.lower() in ANIMATE_NOUNS and t.text[:1].islower()
               and t.dep_ != "compound" for t in before):
            # "Nina's husband is a chef; he …", "Liam got a puppy and he …" (a capitalised
            # word or a modifier is part of a name: "a Spider-Man pin")
            return None
        heads = {}
        for token in before:
            if token.pos_ != "PROPN" or token.ent_type_ in _NOT_PEOPLE:
                continue
            head = token
            while head.dep_ in ("compound", "flat") and head.head.pos_ == "PROPN" \
                    and head.head.i < pronoun.i:
                head = head.head
            if head.dep_ in _PERSON_ROLES:
                heads[head.i] = head
        names = {self._entity(h) for h in heads.values()} - {None}
        return names.pop() if len(names) == 1 else None

    def _antecedent_entity(self, antecedent: Token | Span | None) -> str | None:
        """The canonical subject a question's answer is about (:func:`_question_antecedent`):
        a noun phrase head as :meth:`_entity` spells it, a span as :func:`_span_phrase` does."""
        if antecedent is None:
            return None
        if isinstance(antecedent, (Span, ParsedSpan)):
            return _span_phrase(antecedent) or None
        return self._entity(antecedent)

    @staticmethod
    def _name_internal(token: Token) -> bool:
        """A lower-case word between two capitalised ones, as :func:`truecase` leaves it."""
        doc = token.doc
        return (0 < token.i < len(doc) - 1 and doc[token.i - 1].text[:1].isupper()
                and doc[token.i + 1].text[:1].isupper())

    def _relative_antecedent(self, token: Token) -> str | None:
        """The noun a relative pronoun ("who", "whose", "which") stands for."""
        for ancestor in token.ancestors:
            if ancestor.dep_ == "relcl":
                return self._entity(ancestor.head)
        return None

    def _topic(self, cop: Token, subj: Token) -> str | None:
        """A fronted scene-setter that names what an implicit attribute belongs to.

        "On rack 4 the preferred glaze is …" and "Update for rack 4: the preferred glaze
        is …" -> "rack 4"; dates and times are never topics ("In 2021, …").
        """
        candidates = [p for p in cop.children if p.dep_ == "prep" and p.i < subj.i]
        colon = next((t for t in cop.sent if t.text == ":" and t.i < subj.i), None)
        if colon is not None:
            candidates += [t for t in cop.sent if t.dep_ == "prep" and t.i < colon.i
                           and t.lower_ in ("for", "on", "at", "in", "about")]
        for prep in candidates:
            pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
            if pobj is None or _is_time(pobj) or pobj.pos_ == "NUM" or prep.lower_ in (
                    "before", "after", "until", "since"):
                continue  # (a time: "In 2021, …", "After 5pm …")
            topic = self._entity(pobj)
            pointing = next((d.lower_ for d in pobj.children if d.dep_ == "det"
                             and d.lower_ in ("this", "that", "these", "those")), None)
            # ("For this project …" / "For that project …": two projects, never one)
            return f"{pointing} {topic}" if topic and pointing else topic
        return None
