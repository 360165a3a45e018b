"""Verbal clauses: active predicates, aspect.

Subject–verb–object and prepositional objects (``svo``, ``prep_object``), aspect verbs ("stopped drinking tea"), light-verb idioms ("found a new
home for"); the changes they state are read by :mod:`extractors.constructions.changes`.
"""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Token

from extractors.syntax import (
    _temporary,
    _CONTAINER_NOUNS,
    _GROUP_NOUNS,
    _ROLE_VERBS,
    _IDENTIFIER,
    _OWNED_NOUNS,
    _SETTING_VERBS,
    _of_object,
    _age,
    _COMPOUND_PREP_HEADS,
    _DESIRE_VERBS,
    _FIRST_PERSON,
    _FORGET,
    _habitual_past,
    _imperative,
    _is_time,
    _lemma,
    _LIKE_VERBS,
    _negated,
    _no_value,
    _OBJECT_PREPS,
    _PARTITIVE_NOUNS,
    _prep_objects,
    _REMEMBER,
    _START_ASPECT,
    _STOP_ASPECT,
    _truth_frame,
    _UNRESOLVED_PRONOUNS,
    USER,
    _VERB_FORMS,
)
from extractors.constructions.descriptions import _names_role_holder
from extractors.constructions.alternatives import after_marker
from extractors.constructions.objects import one_antecedent
from extractors.constructions.pets import _own_name
from extractors.constructions.studies import degree_idiom
from extractors.constructions.verb_words import (
    _ATTENDING,
    _CAUSED_MOTION,
    _CONTINUATION,
    _SHIFTED_PARTICLES,
    _adjacent,
    _extent,
    _participle_clause,
    _whole_object,
    REPLACING_VERBS,
    misread_object,
    raised_objects,
    time_span_object,
    unread_complement,
)
from extractors.referents import GROUP_NOUNS
from extractors.constructions.handovers import HANDOVER_VERBS, handed_theme
from extractors.relations import dwelling_reading
from extractors.types import Triple
from extractors.wishes import WISH_RULE, WISHED_PLACES, polite_volition


class VerbRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``nlp``, ``table``, ``state_changes`` and induced relations)."""

    def _active(self, verb: Token, *, subject: str | None = None,
                negated: bool = False) -> list[Triple]:
        inherited = subject is not None
        if handed_theme(verb):
            return []  # "handed organizing the meetup over to Kim": the handover reads it
        if subject is None:
            subj = self._subject_token(verb)
            if subj is None and _imperative(verb):
                subject = USER  # an instruction is the user's own rule: "Always use tabs."
            elif subj is None:
                return []
            else:
                subject = self._entity(subj)
            if subject is None:
                return []
        neg = negated != _negated(verb)
        lemma = _lemma(verb)
        particle = next((c.lower_ for c in verb.children if c.dep_ == "prt" and _adjacent(
            verb, c) or (
            # "gave the old sofa away": the tagger's adverb right after the object
            c.dep_ == "advmod" and c.lower_ in _SHIFTED_PARTICLES and c.i > verb.i + 1
            and _adjacent(verb, c)) or (
            c.dep_ == "advmod" and (c.tag_ == "RP" or c.lower_ in _SHIFTED_PARTICLES and any(
                # ("gave away my laptop": the tagger's adverb right before the object)
                o.dep_ == "dobj" and o.left_edge.i == c.i + 1 for o in verb.children))
            and c.i == verb.i + 1) or (
            # "stepped down as treasurer": the tagger's adverb before the verb's own
            # preposition is the verb's particle
            c.dep_ == "advmod" and c.lower_ in ("down", "up", "out", "off") and c.i == verb.i + 1
            and c.i + 1 < len(c.doc) and c.nbor(1).dep_ == "prep" and c.nbor(1).head == verb)),
            None)
        timed = particle in ("over", "through") and any(
            c.dep_ in ("dobj", "obj") and _is_time(c) for c in verb.children)
        if timed:
            particle = None  # "broke over the holidays": a time phrase, no phrasal verb
        base = f"{lemma} {particle}" if particle else lemma
        if not inherited and subj is not None and subject != USER:
            # "Daily standup moved to 10:30": an event's new time (FrameNet Change_event_time)
            moved = self._event_time_change(verb, subj, neg)
            if moved:
                return moved
        if not inherited and subj is not None and lemma in _SETTING_VERBS and not any(
                c.dep_ in ("dobj", "obj") for c in verb.children) and (
                _IDENTIFIER.match(subj.text) or self._split_attribute(subj) is not None
                or _names_role_holder(subj, self._change_values(verb),
                                      changed=_lemma(verb) != "move")
                and subject != USER):  # "The user switched to …" is the user's own switch
            # "Nadia's work email changed to …", "Aisha's favourite colour has changed to
            # mustard yellow": an attribute that changes "to" a value (the ergative of "was
            # changed to") states that value, as the passive does
            changed = self._setting_change(verb, subj, neg)
            if changed:
                return changed
        xcomp = next((c for c in verb.children if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
        activity = self._go_activity(verb, subject, neg) if base == "go" else None
        if activity is not None:
            return activity  # "go hiking" = "hike"
        if xcomp is not None and base in _FORGET and neg:
            # "do not forget to use X" affirms "use X": the negation is only mentioned
            return self._active(xcomp, subject=subject, negated=False)
        if xcomp is not None and base in _REMEMBER:
            return self._active(xcomp, subject=subject, negated=neg)
        being = next((c for c in verb.children if c.dep_ == "xcomp" and c.lemma_ == "be"
                      and c.tag_ == "VBG"), None)
        if base in _STOP_ASPECT and _temporary(verb):
            return []  # "quit smoking for a week, then started again": nothing ended
        if being is not None and base in _STOP_ASPECT | _START_ASPECT:
            # "stopped being vegetarian": the state the copula states ends (or begins)
            stated = self._copula(being, aspect=True)
            if base in _STOP_ASPECT:
                # "stopped being shy about singing": the restricted state ends, not "shy"
                stated = [t for t in stated if not (t.rule == "state" and any(
                    u.relation.startswith(f"be {t.object} ") for u in stated))]
            return [Triple(**{**t.to_dict(), "negated": t.negated != (base in _STOP_ASPECT),
                              "qualifiers": t.qualifiers}) for t in stated]
        if xcomp is not None and base in _STOP_ASPECT | _START_ASPECT and not any(
                c.dep_ in ("dobj", "obj") for c in verb.children):
            # (with an object, the infinitive is a purpose: "quit my job to go back to school")
            stated = self._active(xcomp, subject=subject, negated=neg != (base in _STOP_ASPECT))
            situation = self._ended_situation(xcomp) if base in _STOP_ASPECT and not neg \
                else None
            if situation:
                # "stopped watching films at the Curzon", "stopped teaching ceramics to kids":
                # what ended is the activity there or for them, never every showing of it
                stated = [replace(t, qualifiers=tuple(sorted({*t.qualifiers,
                                                              ("place", situation)})))
                          if t.rule == "svo" and t.negated and not t.qualifier("place") else t
                          for t in stated]
            if base in _STOP_ASPECT and not neg and _lemma(xcomp) in _ATTENDING:
                # "stopped going to pottery class" ends what quitting the class ends
                stated += [t for s in stated if s.relation in ("go to", "attend") and s.object
                           for t in self.state_changes.derive(self._make(
                               subject, "quit", s.object, s.object_text, negated=False,
                               clause=verb, rule="svo"))]
            return stated
        if xcomp is not None and _habitual_past(verb, xcomp):
            # "Sam used to live in Lyon": a habit that was, a completed past (as "lived there
            # until 2020"): it never decides against what holds now
            return [Triple(**{**t.to_dict(), "qualifiers": tuple(sorted(
                set(t.qualifiers) | {("time", "past")}))})
                for t in self._active(xcomp, subject=subject, negated=neg)]
        if xcomp is None and base in _STOP_ASPECT | _START_ASPECT:
            found = self._gerund_object(verb)
            if found is not None:
                # "quit smoking", "quit drinking coffee": the parser reads the gerund as a
                # noun (or a compound of the noun after it); the activity is what stops
                activity, rest, gerund = found
                value, surface = self._value(rest) if rest is not None else ("", "")
                # the object's phrase without the gerund the parser compounded into it
                value = value.removeprefix(gerund.lower_ + " ").removeprefix(f"{activity} ")
                surface = surface.removeprefix(gerund.text + " ")
                # (a date may hang on the gerund read as a noun: "took up smoking in 2015")
                times = self._time_qualifiers(verb) or [
                    q for t in (gerund, rest) if t is not None for q in self._times(t)]
                stated = [self._make(subject, activity, value, surface,
                                     negated=neg != (base in _STOP_ASPECT), clause=verb,
                                     rule="svo" if value else "state", qualifiers=times)]
                if base in _STOP_ASPECT and not neg and not value:
                    # "has given up hiking" ends the activity wherever it was the object:
                    # "enjoys hiking" (like hike), "does hiking"
                    ended = self._make(subject, base, activity, gerund.text, negated=False,
                                       clause=verb, rule="svo")
                    stated += self.state_changes.derive(ended)
                return stated
        out: list[Triple] = []
        if xcomp is not None and lemma in _LIKE_VERBS | _DESIRE_VERBS:
            if polite_volition(verb):
                base = "want"  # "would like to work in Norway" wants it
            inner = self._active(xcomp, subject=subject, negated=False)
            if base in _DESIRE_VERBS:
                out.extend(self._wished_places(verb, inner, neg))
            for t in inner:
                # "likes drinking coffee" -> like "coffee" and like "drink coffee"
                for value in {t.object, f"{t.relation} {t.object}".strip()}:
                    if value:
                        out.append(self._make(subject, base, value, t.object_text, negated=neg,
                                              clause=verb, rule="svo"))
            if not inner:
                out.append(self._make(subject, base, _lemma(xcomp), xcomp.text, negated=neg,
                                      clause=verb, rule="svo"))
            elif _lemma(xcomp) in _CONTINUATION and not neg and lemma in _DESIRE_VERBS:
                # "plans to continue volunteering at the youth center": continuing presupposes
                # the activity holds now (Karttunen 1971 on the presuppositions of aspectual
                # verbs), whatever becomes of the plan
                out.extend(t for t in inner if t.object and not t.negated)
            return out
        renamed = self._renaming(verb, next((c for c in verb.children
                                             if c.dep_ in ("dobj", "obj")), None), neg)
        if renamed:
            return renamed
        replaced = self._handover(verb, subject, neg) if base in HANDOVER_VERBS else \
            self._replacement(verb, subject, neg) if lemma in REPLACING_VERBS else \
            self._role_taken(verb, subject, neg) if base in _ROLE_VERBS else \
            self._own_setting_changed(verb, subject, neg) if base in ("switch", "change") \
            else []
        if replaced:
            return replaced
        out.extend(self._idioms(verb, base, subject, neg))
        out.extend(self._degree_from_named_school(verb, base, subject, neg))
        times = self._time_qualifiers(verb)
        objects = [o for c in (*(c for c in verb.children if c.dep_ in ("dobj", "obj")),
                               *raised_objects(verb))
                   for o in self._objects(c) if not _extent(o) and not after_marker(o)
                   and not (timed and _is_time(o)) and not _participle_clause(o, verb)]
        if any(time_span_object(o) for o in objects) \
                and any(p.dep_ == "prep" and p.lower_ in _OBJECT_PREPS
                        for p in (*verb.children, *(c for o in objects for c in o.children))):
            # "works days at a clinic", "works weekends for the council", "works the night
            # shift at the depot": a bare time noun or a work period says when; the
            # prepositional phrase is what the verb is about
            objects = [o for o in objects if not time_span_object(o)]
        # "migrated everything from Todoist": a whole-of-it object says nothing; the
        # prepositional phrase is what the verb is about
        objects = [o for o in objects if not _whole_object(o)]
        if objects and _truth_frame(verb) is not None:
            # "It is false that I live in Lyon": the parser reads "that" as the object
            objects = [o for o in objects if not (o.lower_ == "that" and o.i < verb.i)]
        for obj in objects:
            if obj.lower_ in _UNRESOLVED_PRONOUNS and one_antecedent(obj) is None:
                continue  # (a modified "one" stands for a noun before it: "a new one")
            value, surface = (USER, obj.text) if obj.lower_ in _FIRST_PERSON else self._value(obj)
            out.append(self._make(subject, base, value, surface, negated=neg, clause=verb,
                                  rule="svo", qualifiers=times))
            if lemma == "have" and obj.pos_ == "NOUN" and value and \
                    obj.lemma_.lower() not in _PARTITIVE_NOUNS | _CONTAINER_NOUNS:
                # "I have a weakness for ice cream", "a fear of heights": the noun's own
                # prepositional object is what the light verb construction is about
                for prep in (c for c in obj.children
                             if c.dep_ == "prep" and c.lower_ in ("for", "of", "to")):
                    for pobj in (c for c in prep.children if c.dep_ == "pobj"):
                        for inner in self._objects(pobj):
                            v, surf = self._value(inner)
                            out.append(self._make(subject, f"have {value} {prep.lower_}", v,
                                                  surf, negated=neg, clause=verb,
                                                  rule="prep_object", qualifiers=times))
        misread = None if objects else misread_object(verb)
        if misread:  # "never written any unit tests" (the parser's "tests" a verb)
            out.append(self._make(subject, base, misread, misread, negated=neg, clause=verb,
                                  rule="svo", qualifiers=times))
            return out
        if objects:
            # a group the subject does it in or for is a membership, whatever the object:
            # "plays bass in a band called The Late Trains", "coaches the kids for Ajax"
            for prep in (c for c in verb.children if c.dep_ == "prep"
                         and c.lower_ in ("in", "for", "with")):
                for pobj in (c for c in prep.children if c.dep_ == "pobj"
                             and c.lemma_.lower() in GROUP_NOUNS):
                    for obj in self._objects(pobj):
                        value, surface = self._value(obj)
                        if value:
                            out.append(self._make(subject, f"{base} {prep.lower_}", value,
                                                  surface, negated=neg, clause=verb,
                                                  rule="prep_object", qualifiers=times))
            return out + ([] if neg else self._named_setting(verb, base, subject, times))
        for comp in (c for c in verb.children if c.dep_ in ("acomp", "oprd")):
            age = _age(comp) if lemma in ("turn", "become") else None
            if age is not None:  # "I turned 18 years old yesterday"
                out.append(self._make(subject, "age", age, age, negated=neg, clause=verb,
                                      rule="attribute", qualifiers=times))
            elif comp.pos_ == "ADJ":
                # a linking verb's adjective is its object: "I feel old", "I stay healthy"
                value, surface = self._value(comp)
                if value:
                    out.append(self._make(subject, base, value, surface, negated=neg,
                                          clause=verb, rule="svo", qualifiers=times))
        copula = next((c for c in verb.children if c.dep_ == "xcomp"
                       and c.lemma_.lower() in ("be", "become")), None)
        if copula is not None and any(c.dep_ in ("prep", "dobj", "npadvmod", "advmod")
                                      and verb.i < c.i < copula.i for c in verb.children):
            # "moved back to Dublin to be closer to my parents": an infinitive after the
            # verb's own complements is a purpose adjunct, no complement of the verb (Quirk
            # et al. 1985, §15.48)
            copula = None
        if copula is not None:
            # "I want to be a physical therapist" -> (user, want be, physical therapist)
            for comp in (c for c in copula.children if c.dep_ in ("attr", "acomp")):
                for obj in self._objects(comp):
                    value, surface = self._value(obj)
                    out.append(self._make(subject, f"{base} be", value, surface, negated=neg,
                                          clause=verb, rule="svo", qualifiers=times))
        if out:
            return out
        for prep in self._verb_preps(verb):
            for words, pobj in _prep_objects(prep):
                if _no_value(pobj):
                    # "goes to CrossFit five mornings a week": the parser hung the name on
                    # the time phrase after it; the name is the object
                    pobj = next((c for c in pobj.children if c.dep_ in ("nmod", "compound")
                                 and c.pos_ == "PROPN" and c.i == prep.i + 1), None)
                    if pobj is None:
                        continue
                for obj in self._objects(pobj):
                    value, surface = self._value(obj)
                    # "belongs to a book club": a person's membership, never a location
                    relation = "member of" if f"{base} {words}" == "belong to" and \
                        obj.lemma_.lower() in _GROUP_NOUNS else f"{base} {words}"
                    if any(c.dep_ in ("dobj", "obj") for c in verb.children):
                        # "moved everything to Things 3": a thing moved, not the mover
                        # (FrameNet Cause_motion, not Motion): no residence
                        relation = _CAUSED_MOTION.get(relation, relation)
                    out.append(self._make(subject, relation, value, surface,
                                          negated=neg, clause=verb, rule="prep_object",
                                          qualifiers=times))
            heads = [(prep.lower_, prep)] + [(f"{prep.lower_} {inner.lower_}", inner)
                                             for inner in prep.children if inner.dep_ == "prep"]
            for words, node in heads if not neg else ():
                if base in _STOP_ASPECT or f"{base} {words}" in self.state_changes.endings:
                    # "gave up on learning the piano", "stepped away from volunteering at the
                    # shelter": the activity in the gerund is what ends
                    for clause in (c for c in node.children if c.dep_ == "pcomp"
                                   and c.pos_ == "VERB" and c.tag_ == "VBG"):
                        out.extend(self._active(clause, subject=subject, negated=True))
            for value, surface in self._gerund_values(prep, subject):
                # "I dream of moving to the city" -> (user, dream of, live in city)
                out.append(self._make(subject, f"{base} {prep.lower_}", value, surface,
                                      negated=neg, clause=verb, rule="prep_object",
                                      qualifiers=times))
        # (an ending event said with where it happened is still the event: "passed away at
        # the care home" ends what "passed away" ends)
        ended = base in self.state_changes.possessed and not any(
            c.dep_ in ("dobj", "obj") for c in verb.children)
        if (not out or ended) and (verb.dep_ in ("ROOT", "conj", "ccomp", "parataxis")
                                   or inherited or _truth_frame(verb) is not None) and (
                ended or base in self.state_changes.endings or not (
                    _to_clause(verb) or self.table.canonical(base)[1]
                    or unread_complement(verb))):
            # "declined to focus on the pilot", "I accepted to expand my network": what was
            # declined or accepted is unsaid, and the bare act names no attribute (issue 37,
            # kind 1); nor is "I declined" the denial of every acceptance: an antonym read
            # without its object names no act, nor does a verb whose complement went unread
            # ("never written any unit tests", the parser's "tests" a verb: not a denial of
            # every writing). An ending keeps its bare reading ("quit to focus on running")
            out.append(self._make(subject, base, "", "", negated=neg, clause=verb,
                                  rule="state", qualifiers=times))
            name = None if inherited or "'s " not in subject else _own_name(
                self._subject_token(verb))
            if name is not None:
                # "My dog Biscuit passed away": the same state of the named one, so an
                # ending reaches "I have a dog named Biscuit" as well as "I have a dog"
                owner = subject.rpartition("'s ")[0]
                out.append(self._make(f"{owner}'s {name.text.lower()}", base, "", "",
                                      negated=neg, clause=verb, rule="state",
                                      qualifiers=times))
        return out

    def _ended_situation(self, clause: Token) -> str | None:
        """The phrases after an ended activity's object that say where, to whom or with
        whom it was done ("at the Curzon", "to kids", "with Maria"), as a place qualifier
        opening with its preposition; None without one (times and causes are no situation;
        "for" more often names whom the work was for, the same in both memories: "stopped
        writing articles for the online magazine")."""
        found = []
        for prep in (c for c in clause.children if c.dep_ in ("prep", "dative")
                     and c.lower_ in ("at", "to", "with")):
            pobj = next((p for p in prep.children if p.dep_ == "pobj"), None)
            if pobj is None or _no_value(pobj) or pobj.pos_ not in ("NOUN", "PROPN"):
                continue
            owner = self._entity(pobj)
            if owner:
                found.append(f"{prep.lower_} {owner}")
        return " ".join(found) or None

    def _named_setting(self, verb: Token, base: str, subject: str,
                       times: list[tuple[str, str]]) -> list[Triple]:
        """"teaches ceramics at the Harbourside Arts Centre": besides what is taught, where,
        when the place is named (``(oriana, teach at, harbourside arts center)``), so that
        "stopped teaching at the Harbourside Arts Centre" ends it. Only for an affirmative
        clause: a denial's scope is its object ("doesn't teach maths at Ridge")."""
        out = []
        for prep in verb.children:
            if prep.dep_ != "prep" or prep.lower_ != "at":
                continue
            # (an acronym the tagger took for a common noun is a name: "at UCSD")
            for pobj in (c for c in prep.children if c.dep_ == "pobj" and (
                    c.pos_ == "PROPN" or len(c.text) > 1 and c.text.isupper() and c.text.isalpha())
                         and not _is_time(c)):
                value, surface = self._value(pobj)
                if value:
                    out.append(self._make(subject, f"{base} at", value, surface, negated=False,
                                          clause=verb, rule="prep_object", qualifiers=times))
        return out

    def _gerund_object(self, verb: Token) -> tuple[str, Token | None, Token] | None:
        """The activity in a noun-tagged gerund object of ``verb``, what it acts on, and the
        gerund: ``("smoke", None, smoking)`` for "quit smoking", ``("drink", coffee,
        drinking)`` for "quit drinking coffee" (the small model tags "drinking" as a compound
        noun, or a noun complement: "quit smoking over the summer"); None otherwise."""
        obj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")
                    or c.dep_ == "xcomp" and c.tag_ == "NN"), None)
        if obj is None:
            return None
        first = next((c for c in obj.children if c.dep_ == "compound" and c.i < obj.i), None)
        if first is not None and first.lower_.endswith("ing"):
            base = self._verb_base(first.lower_)
            return (base, obj, first) if base else None
        if obj.lower_.endswith("ing") and obj.tag_ in ("NN", "VBG") and not any(
                c.dep_ in ("det", "poss", "amod", "compound") for c in obj.children):
            base = self._verb_base(obj.lower_)
            return (base, None, obj) if base else None
        return None

    def _verb_base(self, form: str) -> str | None:
        """The verb an ``-ing`` form comes from, by the pipeline's own verb lemma tables
        (spaCy's English lemmatizer: exceptions, suffix rules, the index of known verbs);
        None when no known verb fits ("ceiling", "morning")."""
        if form in _VERB_FORMS:
            return _VERB_FORMS[form]
        lookups = self._verb_tables()
        if lookups is None:
            return None
        exceptions, rules, index = lookups
        if form in exceptions:
            return exceptions[form][0]
        for old, new in rules:
            if old == "ing" and form.endswith(old):
                stem = form[:-len(old)] + new
                if stem in index:
                    return stem
                if len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in index:
                    return stem[:-1]  # "running" -> "run"
        return None

    def _verb_tables(self) -> tuple[dict, list, set] | None:
        if not hasattr(self, "_verb_lookups"):
            try:
                tables = self.nlp.get_pipe("lemmatizer").lookups
                self._verb_lookups = (tables.get_table("lemma_exc")["verb"],
                                      tables.get_table("lemma_rules")["verb"],
                                      set(tables.get_table("lemma_index")["verb"]))
            except (KeyError, ValueError):
                self._verb_lookups = None
        return self._verb_lookups

    @staticmethod
    def _verb_preps(verb: Token) -> list[Token]:
        """The verb's prepositional phrases, with those the parser hung on another one's
        object: a role ("work at a school as a teacher") and a named place after a companion
        ("live with my husband in Pennsylvania") say how and where the verb holds."""
        preps = [c for c in verb.children if c.dep_ == "prep" and c.lower_ in _OBJECT_PREPS]
        # "migrated everything from Todoist": the parser hangs the verb's phrase on a
        # quantifier object
        preps += [c for o in verb.children if o.dep_ == "dobj" and _whole_object(o)
                  for c in o.children if c.dep_ == "prep" and c.lower_ in _OBJECT_PREPS]
        # "works nights at the bakery", "works the night shift at the depot": the parser hangs
        # the verb's phrase on a time object
        preps += [c for o in verb.children if o.dep_ == "dobj" and time_span_object(o)
                  for c in o.children if c.dep_ == "prep" and c.lower_ in _OBJECT_PREPS]
        # a compound preposition: "dropped out of the class" (prep "out" over prep "of"),
        # "stepped away from volunteering" (adverb "away" over prep "from")
        preps += [c for c in verb.children if c.dep_ in ("prep", "advmod")
                  and c.lower_ in _COMPOUND_PREP_HEADS
                  and any(g.dep_ == "prep" for g in c.children)]
        for prep in list(preps):
            for pobj in (c for c in prep.children if c.dep_ == "pobj"):
                for inner in (c for c in pobj.children if c.dep_ == "prep"):
                    named = any(p.dep_ == "pobj" and p.pos_ == "PROPN" for p in inner.children)
                    if inner.lower_ == "as" or (prep.lower_ == "with" and named
                                                and inner.lower_ in ("in", "at")) or (
                            prep.lower_ == "as" and inner.lower_ in ("at", "for", "with")):
                        # "works as a nurse at St. Mary's": where the role is held
                        preps.append(inner)
        return preps

    def _owned_attribute(self, noun: Token) -> tuple[str, str] | None:
        """``(owner, relation phrase)`` for a definite relational noun with an "of" owner
        that names something ("the headquarters / capital / mayor of X"), else None."""
        if noun.pos_ != "NOUN" or noun.lemma_.lower() not in _OWNED_NOUNS or not any(
                c.dep_ == "det" and c.lower_ == "the" for c in noun.children):
            return None
        owner = _of_object(noun)
        if owner is None or owner.pos_ != "PROPN":
            return None
        who = self._entity(owner)
        return (who, noun.lemma_.lower()) if who else None

    def _wished_places(self, verb: Token, inner: list[Triple], neg: bool) -> list[Triple]:
        """A wish of a place of one's life (:data:`extractors.wishes.WISHED_PLACES`; a move's
        destination is where one would live): ``(subject, "want <relation>", place)``, rule
        :data:`extractors.wishes.WISH_RULE`. "Keanu would like to work in Norway" and a later
        "… to work in Portugal" then share a key of unknown cardinality: a possible conflict,
        never decided."""
        out = []
        for t in inner:
            relation, value = dwelling_reading(t.relation, t.object, t.object_text)
            if t.object and not t.negated and relation in WISHED_PLACES and value:
                out.append(replace(t, relation=f"want {relation}", object=value, negated=neg,
                                   rule=WISH_RULE, qualifiers=()))
        return out

    def _idioms(self, verb: Token, base: str, subject: str, neg: bool) -> list[Triple]:
        """A verb, its object noun and that noun's preposition that together name one
        predicate (``state_changes`` ``[idioms]``): "found a new home for her puppy" ->
        (maria, rehome, puppy); "found a job at a tech company" -> (john, find job at, …)."""
        out = []
        for obj in (c for c in verb.children if c.dep_ in ("dobj", "obj")):
            after = [c for c in verb.children if c.dep_ == "prep" and c.i > obj.i]
            # "started a new role as a data scientist at a startup": the place of the role
            within = [p for a in [*obj.children, *after] if a.dep_ == "prep" and a.lower_ == "as"
                      for r in a.children if r.dep_ == "pobj"
                      for p in r.children if p.dep_ == "prep"]
            # "doing a master's in geology at Marlow", "found a job in sales at Acme": the
            # parser hangs the place on the field
            fields = [p for a in [*obj.children, *after] if a.dep_ == "prep" and a.lower_ == "in"
                      for f in a.children if f.dep_ == "pobj"
                      for p in f.children if p.dep_ == "prep" and p.lower_ == "at"]
            for prep in [c for c in obj.children if c.dep_ == "prep"] + after + within + fields:
                phrase = f"{base} {obj.lemma_.lower()} {prep.lower_}"
                relation = self.state_changes.idioms.get(phrase) or degree_idiom(
                    base, obj, prep.lower_, verb)
                if relation is None:
                    continue
                for pobj in (c for c in prep.children if c.dep_ == "pobj" and not _is_time(c)):
                    for token in self._objects(pobj):
                        value, surface = self._value(token)
                        if value:
                            out.append(self._make(subject, relation, value, surface,
                                                  negated=neg, clause=verb, rule="svo"))
        return out

    def _is_verb(self, base: str) -> bool:
        tables = self._verb_tables()
        return tables is not None and base in tables[2]


def _to_clause(verb: Token) -> bool:
    """Whether ``verb`` governs an infinitive clause ("declined to focus", "accepted to
    expand"): its complement or purpose is a clause, not a thing the verb names (Quirk et al.
    1985 §16.38 on infinitive complementation). A bare "to" and one word ("drives to work")
    may be a place as well, and is not taken for one."""
    return any(c.dep_ in ("xcomp", "advcl") and any(t.tag_ == "TO" for t in c.children)
               and any(t.tag_ != "TO" for t in c.children) for c in verb.children)
