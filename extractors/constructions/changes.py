"""Changes stated by a verb: settings changed "to" a value, replacements, and the states a
predicate ends or leaves behind.

"max_retries was raised to 8", "Nadia's work email changed to …" (a setting's new value),
"Nate switched his main game from CS:GO to Valorant" (the subject's own attribute), "Y has
replaced X as Z's W" (replacements), and every predicate's endings and results
(:mod:`extractors.state_changes`), with a carrier noun's place ("dropped her Saturday shifts
at the shelter").
"""

from __future__ import annotations

from typing import NamedTuple

from spacy.tokens import Token

from extractors.constructions.descriptions import _names_role_holder, _premodified
from extractors.clause_frames import CONDITIONED, FUTURE, with_time
from extractors.constructions.handovers import _HANDING, handed_for_a_while
from extractors.constructions.particulars import mark_particular
from extractors.constructions.preferences import _CHANGED
from extractors.relations import MOVE_RELATIONS, SETTING_MODIFIERS
from extractors.state_changes import CARRIER_NOUNS
from extractors.syntax import _event, _IDENTIFIER, _RECIPROCAL, _is_time, _temporary, _lemma, _phrase, _POSSESSIVE_PRONOUNS, \
    _SETTING_VERBS, USER
from extractors.types import Triple


_RENAMING_VERBS = frozenset({"rename", "retitle", "rebrand"})
"""Verbs that give what they act on a new name (:meth:`ChangeRules._renaming`)."""
_NAMING_VERBS = frozenset({"call", "name", "nickname", "dub"})
"""Verbs that give what they act on a name ("calls the assistant Nova")."""




_NO_ONE = frozenset({"nothing", "none", "nobody", "noone", "neither"})
"""Negative pronouns: a replacement by none of them is no replacement (Quirk et al. §6.62)."""


def _bare_setting(noun: Token) -> bool:
    """A setting noun written without a determiner: "switched default browser to Firefox"."""
    return not any(c.dep_ in ("det", "poss") for c in noun.children) and any(
        c.dep_ in ("amod", "compound") and c.lower_ in SETTING_MODIFIERS for c in noun.children)


def _definite_setting(noun: Token) -> bool:
    """A setting named by a definite or bare compound ("switched the UI theme to light",
    "Switched UI theme to light", "changed the Wi-Fi password to …"): the user's own, as the
    owner-less "the preferred glaze" is."""
    return not any(c.dep_ == "det" and c.lower_ != "the" for c in noun.children) and not any(
        c.dep_ == "poss" for c in noun.children) and any(
        c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN") or c.dep_ == "amod"
        and c.lower_ in SETTING_MODIFIERS for c in noun.children)


_SPELL_BOUND = frozenset({"live in", *MOVE_RELATIONS, *_RECIPROCAL})
"""Relations of a change that a spell bounds to a stay ("moved to Bari for the summer",
"separated for the summer"); a state's own duration bounds nothing ("has been married for
five years")."""


_OTHERS_PRONOUNS = frozenset({"his", "her", "their", "its"})


def _others_thing(verb: Token) -> bool:
    """Whether the verb's object is someone else's by its genitive: a noun ("my son's bike",
    "Ana's car") or, after a first-person subject, a third-person pronoun ("I sold her
    bike"; Quirk et al. 1985 §5.115 on the genitive's possessor)."""
    obj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
    if obj is None:
        return False
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    for poss in (c for c in obj.children if c.dep_ == "poss"):
        if poss.pos_ in ("NOUN", "PROPN"):
            return True
        if poss.lower_ in _OTHERS_PRONOUNS and subject is not None and subject.lower_ in (
                "i", "we"):
            return True
    return False


class _Carried(NamedTuple):
    carrier: str
    """The carrier noun's value ("café job")."""
    triple: Triple
    """The triple with the carried place as object ("starbucks")."""


_SEPARATING = frozenset({"divorce", "separate", "split"})
"""Verbs of a couple's parting whose "from" phrase names the other party."""


class ChangeRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``state_changes``, ``_value``, ``_entity``, ``_split_attribute``,
    ``_split_key`` and ``_make``)."""

    def _setting_change(self, verb: Token, patient: Token, neg: bool) -> list[Triple]:
        """"max_retries was raised to 8", "the default branch was renamed from master to
        main": a setting changed to a new value states the value (and no longer the old one),
        as the copula "max_retries is 8" does."""
        if _lemma(verb) not in _SETTING_VERBS or neg:
            return []
        new = self._change_values(verb)
        if _lemma(verb) == "move" and any(
                any(c.dep_ in ("det", "poss") for c in o.children)
                or ((o.pos_ == "PROPN" or o.text[:1].isupper()) and not _is_time(o))
                for o in new):
            # "was moved to the spam folder", "the office moved to Leeds": a thing moved
            # somewhere, no setting ("the standup moved to Wednesdays" is one); a capitalised
            # name the tagger took for a plural noun too ("my bf tom moved to Leeds")
            return []
        old = [o for c in verb.children if c.dep_ == "prep" and c.lower_ == "from"
               for p in c.children if p.dep_ == "pobj" for o in self._objects(p)]
        if not new:
            return []
        if _IDENTIFIER.match(patient.text):
            subject, relation = self._split_key(patient.text.replace(".", " "))
            rule = "key_value"
        else:
            split = self._split_attribute(patient)
            if split is not None:
                subject, rule = split[0], "attribute"
                relation = _phrase(split[1])
            elif _names_role_holder(patient, new, changed=_lemma(verb) != "move"):
                # "the default region was switched to eu-central-1", as "the default region
                # is eu-central-1" names its one value
                subject, relation, rule = USER, _phrase(_premodified(patient)), "attribute"
            else:
                subject, relation, rule = self._entity(patient), "be", "copula"
        if not subject:
            return []
        # "was set to English for the demo account", "changed to 8am on Saturdays": the
        # value holds in that situation, qualified as the copula's is
        return self._changed_values(subject, relation, new, old, verb, rule,
                                    self._value_restriction(verb, new))

    def _change_values(self, verb: Token) -> list[Token]:
        """The values a change verb gives "to" ("was switched to eu-central-1")."""
        # (a one-word value the parser made the preposition's clause: "changed to daily";
        # "to" the parser hung on "back": "switched back to light")
        heads = [verb] + [c for c in verb.children if c.dep_ == "advmod" and c.lower_ == "back"]
        return [o for h in heads for c in h.children if c.dep_ == "prep" and c.lower_ == "to"
                for p in c.children if p.dep_ == "pobj" or (
                    p.dep_ == "pcomp" and p.pos_ in ("ADV", "ADJ") and not any(p.children))
                for o in self._objects(p)]

    def _changed_values(self, subject: str, relation: str, new: list[Token], old: list[Token],
                        verb: Token, rule: str, times: list[tuple[str, str]] = ()
                        ) -> list[Triple]:
        """The new values of a change, marked as a change, and the old ones denied (at the
        ``times`` the change is restricted to)."""
        out = []
        for tokens, negated in ((new, False), (old, True)):
            for token in tokens:
                value, surface = self._value(token)
                if value:
                    out.append(self._make(subject, relation, value, surface, negated=negated,
                                          clause=verb, rule=rule, qualifiers=[*times, *(
                                              () if negated else (_CHANGED,))]))
        return out

    def _renaming(self, verb: Token, patient: Token | None, neg: bool) -> list[Triple]:
        """"renamed the assistant to Atlas", "renamed the dog Biscuit", "the repo was renamed
        from tally to ledger": what is renamed has the new name (rule ``attribute``, as "the
        assistant's name is Atlas" has) and no longer the old one (an "x-ed" naming verb
        with a resulting name: Levin 1993, §29.3 "dub" verbs)."""
        lemma = _lemma(verb)
        if patient is None or neg or lemma not in _RENAMING_VERBS | _NAMING_VERBS:
            return []
        named = [c for c in patient.children if c.dep_ in ("amod", "compound") and c.i < patient.i
                 and c.text.islower()] if patient.pos_ == "PROPN" else []
        if named:
            # "calls the assistant Nova": the parser made one noun phrase of the thing named
            # and its name
            subject = _phrase(t for c in named for t in c.subtree)
            value, surface = patient.lower_, patient.text
            quals = (_CHANGED,) if lemma in _RENAMING_VERBS else ()
            return [self._make(subject, "name", value, surface, negated=False, clause=verb,
                               rule="attribute", qualifiers=quals)] if subject else []
        second = next((c for c in [*patient.children, *verb.children]
                       if c.dep_ in ("appos", "oprd", "attr") and c.i > patient.i), None)
        if lemma in _NAMING_VERBS and second is not None:
            # "calls the vacuum robot Atlas", "call me Sam": the second object is its name
            subject = self._entity(patient)
            value, surface = self._value(second)
            return [self._make(subject, "name", value, surface, negated=False, clause=verb,
                               rule="attribute")] if subject and value else []
        if lemma not in _RENAMING_VERBS:
            return []
        subject = self._entity(patient)
        new = [o for c in [*verb.children, *patient.children]
               if c.dep_ == "prep" and c.lower_ in ("to", "as")
               for p in c.children if p.dep_ == "pobj" for o in self._objects(p)]
        new += [c for c in verb.children if c.dep_ in ("oprd", "attr")
                or c.dep_ in ("dobj", "npadvmod") and c != patient and c.i > patient.i
                and not _is_time(c)]
        old = [o for c in verb.children if c.dep_ == "prep" and c.lower_ == "from"
               for p in c.children if p.dep_ == "pobj" for o in self._objects(p)]
        if not subject or not new:
            return []
        return self._changed_values(subject, "name", new, old, verb, "attribute")

    def _own_setting_changed(self, verb: Token, subject: str, neg: bool) -> list[Triple]:
        """"Nate switched his main game from CS:GO to Valorant": the subject's own attribute
        (a possessive object) changed, as "Nate's main game is Valorant" says; the old
        value is read as "switched from CS:GO" too, so what the switch ends ends."""
        obj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
        if obj is None or neg or obj.pos_ != "NOUN" or not (any(
                c.dep_ == "poss" and c.lower_ in _POSSESSIVE_PRONOUNS | {"my"} for c in obj.children)
                or _bare_setting(obj) or subject == USER and _definite_setting(obj)):
            return []
        preps = [c for c in [*verb.children, *obj.children] if c.dep_ == "prep"]
        for prep in preps:  # "from A to B": the parser hangs "to" on "from" or on A
            preps += [g for c in [prep, *(p for p in prep.children if p.dep_ == "pobj")]
                      for g in c.children if g.dep_ == "prep" and g not in preps]
        ends = {c.lower_: [o for p in c.children if p.dep_ == "pobj" for o in self._objects(p)]
                for c in preps if c.lower_ in ("from", "to")}
        if not ends.get("to"):
            # "switched UI theme to light": the tagger may read a bare value as an
            # infinitive; after a setting's object, "to" + one word is its new value
            ends["to"] = [c for c in verb.children if c.dep_ in ("advcl", "xcomp")
                          and c.i > obj.i and [(d.dep_, d.lower_) for d in c.children]
                          == [("aux", "to")]]
        if not ends.get("to"):
            return []
        relation = _phrase(sorted([obj] + [t for c in obj.children
                                           if c.dep_ in ("amod", "compound") and c.i < obj.i
                                           for t in c.subtree], key=lambda t: t.i))
        out = []
        for word, negated in (("to", False), ("from", True)):
            for token in ends.get(word, ()):
                value, surface = self._value(token)
                if value:
                    out.append(self._make(subject, relation, value, surface, negated=negated,
                                          clause=verb, rule="attribute"))
                    if negated:
                        out.append(self._make(subject, f"{_lemma(verb)} from", value, surface,
                                              negated=False, clause=verb, rule="prep_object"))
        return out

    def _role_taken(self, verb: Token, subject: str, neg: bool) -> list[Triple]:
        """"Priyanka took over as release manager for v2": the subject now holds the role
        of its owner -> (v2, release manager, priyanka), as "the release manager for v2 is
        Priyanka" says."""
        role = next((p for c in verb.children if c.dep_ == "prep" and c.lower_ == "as"
                     for p in c.children if p.dep_ == "pobj"), None)
        subj = self._subject_token(verb)
        if role is None or subj is None or role.pos_ != "NOUN":
            return []
        owner_token = next((p for c in role.children if c.dep_ == "prep"
                            and c.lower_ in ("for", "of") for p in c.children
                            if p.dep_ == "pobj"), None)
        owner = self._entity(owner_token) if owner_token is not None else None
        if not owner and not any(c.dep_ in ("det", "poss") for c in role.children):
            # "Kenji has taken over as on-call lead": an owner-less role is the scope's, as
            # "The on-call lead is Aisha" reads it
            owner = USER
        if not owner:
            return []
        rel_tokens = [t for t in role.subtree if t.i <= role.i and t.dep_ not in ("det",)]
        value, surface = self._value(subj)
        # "… this week", "… next month", "… while Aisha is on holiday": a holding for a
        # time, or for the span of another state ("while" spans a period, Quirk et al. 1985
        # §15.25), which is no holding from now on ("yesterday", "last week" date its start)
        spans = [" ".join(t.lower_ for t in c.subtree) for c in verb.children
                 if c.dep_ in ("npadvmod", "advmod") and _is_time(c) and not any(
                     t.lower_ in ("yesterday", "last", "ago") for t in c.subtree)] + [
            " ".join(t.lower_ for t in c.subtree) for c in verb.children
            if c.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in ("while", "until",
                                                                          "till")
                                         for m in c.children)]
        # (a spell to come is a future, "next month"; any other spell restricts the holding
        # to itself, as a "when" clause does: it meets only a statement of that spell)
        times = self._time_qualifiers(verb) + [
            ("time", f"{FUTURE if {'next', 'tomorrow'} & set(w.split()) else CONDITIONED} {w}")
            for w in spans]
        out = [self._make(owner, _phrase(rel_tokens), value, surface, negated=neg,
                          clause=verb, rule="attribute", qualifiers=times)] if value else []
        # "… from Aisha Bello": the one it was taken from no longer holds it
        for before in (p for c in verb.children if c.dep_ == "prep" and c.lower_ == "from"
                       for p in c.children if p.dep_ == "pobj" and not neg):
            value, surface = self._value(before)
            if value and out:
                out.append(self._make(owner, _phrase(rel_tokens), value, surface, negated=True,
                                      clause=verb, rule="attribute"))
        return out

    def _replacement(self, verb: Token, subject: str, neg: bool) -> list[Triple]:
        """"Salsa has replaced contemporary as Gina's favourite style of dance": the role
        names an attribute of its owner, whose value is now the subject and no longer the
        object -> (gina, preferred dance style, salsa) and its negated old value; an agent's
        replacement names the new value with "with" ("replaced X with Y as her main
        editor"). The new value is marked as a change (qualifier ``change``)."""
        role = next((p for c in verb.children if c.dep_ == "prep" and c.lower_ == "as"
                     for p in c.children if p.dep_ == "pobj"), None)
        subj = self._subject_token(verb)
        old = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
        if role is None or subj is None or old is None or neg or _temporary(verb) or \
                subj.lower_ in _NO_ONE or any(c.dep_ == "det" and c.lower_ == "no"
                                              for c in subj.children):
            # ("Nothing has replaced X", "Y has almost / briefly replaced X": no change)
            return []
        split = self._split_attribute(role)
        if split is None:
            return []
        owner, rel_tokens = split
        if owner == self._entity(subj) and verb.dep_ == "ccomp":
            # "The user says Fontaines D.C. have overtaken X as their favourite band": no
            # value is its own favourite; "their" is the reporting clause's subject
            speaker = self._subject_token(verb.head)
            owner = self._entity(speaker) if speaker is not None else None
            if not owner:
                return []
        phrase = _phrase(rel_tokens + [t for c in role.children
                                       if c.dep_ == "prep" and c.lower_ == "of"
                                       for t in c.subtree])
        # "The user replaced Sublime Text with Neovim as their main editor": an agent's
        # replacement names the new value with "with"
        new = next((p for c in [*verb.children, *old.children]
                    if c.dep_ == "prep" and c.lower_ == "with"
                    for p in c.children if p.dep_ == "pobj"), subj)
        out = []
        for token, negated in ((new, False), (old, True)):
            value, surface = self._value(token)
            if value:
                # a replacement marks its value as a change, as "is now" does: it meets the
                # generic reading of a more specific attribute ("favourite board game")
                out.append(self._make(owner, phrase, value, surface, negated=negated,
                                      clause=verb, rule="attribute",
                                      qualifiers=() if negated else (_CHANGED,)))
        return out

    def _parties(self, verb: Token) -> dict[str, str]:
        """The other party an ending's clause names, by subject: a "with" phrase of the verb
        or its object ("split up with Sam", "ended my relationship with Sam": ``{"": "sam"}``),
        or the other of two coordinated subjects ("Jordan and I broke up", a reciprocal,
        Quirk et al. 1985 §6.30: ``{"user": "jordan", "jordan": "user"}``; the parser may
        leave the first name outside the clause)."""
        out: dict[str, str] = {}
        # (a separation's "from" names the party too: "divorced from Tom", "separated from
        # the band"; FrameNet Forming_relationships, Partner_2)
        preps = ("with", "from") if _lemma(verb) in _SEPARATING else ("with",)
        for prep in (c for h in [verb, *(o for o in verb.children if o.dep_ in ("dobj", "obj"))]
                     for c in h.children if c.dep_ == "prep" and c.lower_ in preps):
            for pobj in (c for c in prep.children if c.dep_ == "pobj"):
                value = self._value(pobj)[0]
                if value:
                    out[""] = value
        subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subj is not None and not out:
            # (with a "with" party named, coordinated subjects act together: "Tom and I ended
            # things with our contractor" ends nothing between Tom and me)
            members = [subj, *(c for c in subj.children if c.dep_ == "conj")]
            if subj.i >= 2 and subj.nbor(-1).lower_ == "and" and \
                    subj.nbor(-2).pos_ in ("PROPN", "NOUN"):
                members.append(subj.nbor(-2))
            if len(members) == 2:
                # (an unresolved party is still a party: "my co-founder and I")
                a, b = (self._entity(m) or m.lemma_.lower() for m in members)
                if a and b and a != b:
                    out[a], out[b] = b, a
        return out

    def _with_state_changes(self, verb: Token, triples: list[Triple]) -> list[Triple]:
        """``triples`` and what their predicates end or leave behind
        (:meth:`extractors.state_changes.StateChanges.derive`). A verb's change is an event:
        it ends a state only in the past or the perfect ("sold her car", "has been
        cancelled"), never in a habitual present ("Rolls-Royce cars are sold by BMW", "she
        sells cars"); a copula's state ends in any tense ("the trip is off")."""
        if verb.pos_ == "VERB" and (_temporary(verb) or _lemma(verb) in _HANDING
                                    and handed_for_a_while(verb)):
            # a change undone or bounded ends nothing ("rehomed Rex temporarily") and holds
            # only for its spell: a move for the summer says where one stays then, never
            # where one lives; a separation for the summer ends no marriage
            return [with_time(t, f"{CONDITIONED} {_lemma(verb)}")
                    if t.relation in _SPELL_BOUND else t for t in triples]
        if verb.pos_ == "VERB" and not _event(verb) and not _done(verb):
            return triples
        governed = {c.lower_ for c in verb.children if c.dep_ in ("prep", "dative", "prt")}
        # a thing finished at a place is no leaving of the place: "finished my Spanish course
        # at the university", "finished my shift at the hospital" (FrameNet Activity_finish:
        # the place is a circumstance of the activity, not what ends)
        carried = [] if _lemma(verb) in _FINISHING else self._carried_places(verb, triples)
        # a carrier noun with a place names that place: "left the café job at Starbucks"
        # ends working at Starbucks, not at every café
        placed = {c.carrier for c in carried}
        sources = [t for t in triples if t.object not in placed] + [c.triple for c in carried]
        parties = self._parties(verb)
        derived = [d for t in sources for d in self.state_changes.derive(t, governed, parties)]
        endings = [e for t in sources for e in self.state_changes.endings.get(t.relation, ())
                   if e.change_class.startswith("possession")] if derived else []
        if derived and _others_thing(verb):
            # "sold my son's bike": the possession that ends is the son's, not the seller's
            held = {s for e in endings if e.change_class == "possession" for s in e.states}
            derived = [d for d in derived if d.relation not in held]
        if endings:  # "sold the laptop I used at university": that one, not every laptop
            derived = mark_particular(verb, derived, {s for e in endings for s in e.states})
        if _lemma(verb) in _QUITTING or any(t.relation in _QUIT_RELATIONS for t in sources):
            # "quit Harbour Mills", "handed in my notice at Harbour Mills": the employer, at
            # any of its sites
            derived = [with_qualifier(d, QUIT_QUALIFIER, _lemma(verb))
                       if d.relation == "work at" else d for d in derived]
        return triples + derived if derived else triples

    def _carried_places(self, verb: Token, triples: list[Triple]) -> list[_Carried]:
        """For an object that is a carrier noun with a place ("dropped her Saturday shifts at
        the Eastside shelter", "cancelled her membership at the climbing gym"), the triple with
        the place as object, so what the verb ends is also ended there (carrier nouns:
        :data:`extractors.state_changes.CARRIER_NOUNS`)."""
        out = []
        for obj in (c for c in verb.children if c.dep_ in ("dobj", "obj")
                    and c.lemma_.lower() in CARRIER_NOUNS):
            carried, _ = self._value(obj)
            # (the parser hangs the place on the object or on the verb right after it)
            preps = [c for c in obj.children if c.dep_ == "prep"] + [
                c for c in verb.children if c.dep_ == "prep" and c.i == obj.i + 1]
            for place in (p for c in preps if c.lower_ in ("at", "with", "in")
                          for p in c.children if p.dep_ == "pobj"):
                value, surface = self._value(place)
                out += [_Carried(carried, Triple(**{**t.to_dict(), "object": value,
                                                    "object_text": surface,
                                                    "qualifiers": t.qualifiers}))
                        for t in triples if t.object == carried and not t.negated and value]
        return out


_QUITTING = frozenset({"quit", "resign"})
"""Verbs of leaving one's employment that name no other leaving (FrameNet Quitting: quit.v,
resign.v; "leave" is also Departing, "left Leeds"; "retire" may be from a sport): their
employer is qualified with :data:`QUIT_QUALIFIER`."""
_QUIT_RELATIONS = frozenset({"resign from"})
"""Relations of quitting one's employment that idioms name ("handed in my notice at X",
``[idioms]`` of :mod:`extractors.state_changes`: FrameNet Quitting)."""
QUIT_QUALIFIER = "quit"
"""The qualifier of an ending of work at an employer by quitting it: the name is a firm's,
which also ends work at a site named by it ("the Harbour Mills depot":
:func:`scanner.core.named_referents.workplace_of`)."""


def with_qualifier(triple: Triple, name: str, value: str) -> Triple:
    """``triple`` with the qualifier ``(name, value)`` added."""
    quals = tuple(sorted({*triple.qualifiers, (name, value)}))
    return Triple(**{**triple.to_dict(), "qualifiers": quals})


_FINISHING = frozenset({"finish", "complete", "wrap"})
"""Verbs of finishing an activity (FrameNet Activity_finish: finish, complete, wrap up)."""


def _done(verb: Token) -> bool:
    """"I'm done at Tellis": the participle of "do" after "be" is the adjective of having
    finished (WordNet done.s.01), a state that, like a copula's, ends in any tense."""
    return verb.lower_ == "done" and verb.tag_ == "VBN" and any(
        c.dep_ in ("auxpass", "aux") and c.lemma_ == "be" for c in verb.children)

