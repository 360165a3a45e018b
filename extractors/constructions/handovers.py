"""Handovers: a role, a duty or a group one runs given to another ("Marcus handed the
treasurer role over to Ingrid", "passed the book club on to Maria"): the giver no longer holds
it, the taker does (FrameNet Giving with a role as theme; Change_of_leadership).
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.clause_frames import CONDITIONED
from extractors.constructions.preferences import _CHANGED
from extractors.syntax import _event, _GROUP_NOUNS, _is_time, _temporary, _phrase, USER
from extractors.times import _TIME_WORDS
from extractors.types import Triple


HANDOVER_VERBS = frozenset({"hand over", "hand off", "pass on", "pass over", "hand", "pass",
                            "turn over"})
"""Verbs that give a role to someone "to" whom it passes (:meth:`ChangeRules._handover`)."""
ROLE_CARRIERS = frozenset({"role", "job", "position", "post", "duty", "seat", "responsibility",
                           "title"})
"""Nouns that carry a role named by their modifier ("the treasurer role", "the on-call
duty")."""


ROLE_NOMINALIZATIONS = {
    "management": "manager", "coaching": "coach", "captaincy": "captain",
    "leadership": "lead", "ownership": "owner", "chairmanship": "chair",
    "editorship": "editor", "presidency": "president", "stewardship": "steward",
    "maintainership": "maintainer", "moderation": "moderator", "coordination": "coordinator",
    "supervision": "supervisor", "administration": "administrator",
}
"""Nouns of an office or its activity, with the agent noun that holds it: a handed-over
"release management" is the release manager's role (Quirk et al. 1985 App. I.27–I.30)."""


ROLE_ACTIVITIES = {
    "management": "manage", "coaching": "coach", "leadership": "lead", "ownership": "own",
    "editorship": "edit", "maintainership": "maintain", "moderation": "moderate",
    "coordination": "coordinate", "supervision": "supervise", "administration": "administer",
}
"""Nouns of an office's activity, with the verb they nominalize: a handed-over "release
management" is managing releases (Quirk et al. 1985 App. I.27-I.30, deverbal -ment, -ion,
-ing, -ship)."""


OCCASION_NOUNS = frozenset({"meeting", "event", "party", "ceremony", "conference", "session",
                            "gathering", "assembly", "agm", "retreat", "offsite", "election",
                            "vote", "handover"})
"""Nouns of an occasion at which something happened ("at the last meeting"): the phrase dates
the event and names no place the role belongs to."""


def _occasion(prep: Token) -> bool:
    """Whether a preposition's phrase dates an event: a time or an occasion ("at the last
    meeting", "in March")."""
    pobj = next((p for p in prep.children if p.dep_ == "pobj"), None)
    return pobj is not None and (_is_time(pobj) or prep.lower_ in ("at", "in") and
                                 pobj.lemma_.lower() in OCCASION_NOUNS)



LEADING_VERBS = ("run", "lead", "head", "manage", "organize")
"""What one does to a group one leads (FrameNet Leadership: lead, head, run, manage; with
Making_arrangements' organize): a group handed on is no longer led so by the giver."""


_BOUNDING_PREPS = frozenset({"until", "till", "til", "through", "during", "throughout"})
"""Prepositions of a span a handing-over lasts or ends at ("until September", "during my
leave"; Quirk et al. 1985 §§9.35–9.37 on duration and span)."""
_BOUNDING_MARKS = frozenset({"while", "whilst", "until", "till", "til"})
"""Subordinators of a clause that bounds the handover's time ("while I travel", "until I'm
back"; Quirk et al. 1985 §15.25 on clauses of time)."""
_SPELL_NOUNS = frozenset("""
    sprint iteration cycle leave holiday holidays vacation trip break absence sabbatical
    tour stay visit interim duration project event match game season semester term
    """.split())
"""Nouns of a bounded spell a role may be handed over for ("for the sprint", "for my
leave": FrameNet Leave_of_absence, Work periods), beside the time nouns
(:func:`extractors.syntax._is_time`)."""
_GIVING_BACK = frozenset({"hand", "pass", "give", "turn", "return"})
"""Verbs of giving whose "back" returns what was given ("she handed it back": FrameNet
Giving with a reversive particle, Quirk et al. 1985 §16.4)."""


def _bounded_phrase(prep: Token) -> bool:
    """A prepositional phrase that bounds a handover in time: a span or end ("until
    September", "during my leave", "through the summer"), a spell ("for two weeks", "for
    the sprint"), or a recurring time ("on Tuesdays", "at weekends")."""
    pobj = next((p for p in prep.children if p.dep_ == "pobj"), None)
    if prep.lower_ in _BOUNDING_PREPS:
        return True
    if pobj is None:
        return False
    if prep.lower_ == "for":
        return _is_time(pobj) or pobj.lemma_.lower() in _SPELL_NOUNS
    if prep.lower_ in ("on", "at", "in") and _is_time(pobj):
        return pobj.tag_ in ("NNS", "NNPS") or pobj.lower_[:-1] in _TIME_WORDS or any(
            t.lower_ in ("every", "each") for t in pobj.subtree)
    return False


def handed_for_a_while(verb: Token) -> bool:
    """Whether a handing-over is temporary or undone, so it ends nothing: bounded by a
    phrase (:func:`_bounded_phrase`) or a clause of time ("while I travel", "until I'm
    back", "while on holiday") on the verb or on the agent noun the tagger read as a
    coordinated verb ("handed the team lead role …": :func:`_lead_misparse`), or followed
    by a handing back ("…, but she handed it back")."""
    heads = [verb] + [c for c in verb.children if c.dep_ in ("conj", "ccomp", "xcomp")
                      and c.i > verb.i and not any(g.dep_ == "nsubj" for g in c.children)]
    for head in heads:
        for c in head.children:
            if c.dep_ == "prep" and _bounded_phrase(c):
                return True
            if c.dep_ in ("advcl", "prep", "mark") and any(
                    m.dep_ in ("mark", "advmod") and m.lower_ in _BOUNDING_MARKS
                    for m in (c, *c.children)):
                return True  # ("while on holiday": the mark hung on the phrase)
    return any(t.i > verb.i and t.lemma_.lower() in _GIVING_BACK and t.pos_ == "VERB" and any(
        c.lower_ == "back" and c.dep_ in ("prt", "advmod") for c in t.children) and not any(
        c.dep_ == "neg" or c.lower_ == "never" for c in t.children) for t in verb.sent)


def _happened_for_good(verb: Token) -> bool:
    """Whether a handover happened, for good: not "offered to hand …" (an inner clause),
    "for a week" (a spell), nor "while I'm on leave" (an adverbial clause)."""
    return _event(verb) and not _temporary(verb) and verb.dep_ not in ("xcomp", "ccomp") \
        and not any(c.dep_ == "advcl" for c in verb.children) and not handed_for_a_while(verb)


def _lead_misparse(verb: Token, obj: Token) -> Token | None:
    """"handed the team lead role to Chris": the tagger may read the agent noun "lead"
    as a verb coordinated with "handed", whose object is the role carrier, or split the
    theme into two objects ("the squad" and "lead role"). Returns the misread verb or the
    second object, whose carrier noun heads the theme (None when the parse is no such
    misreading)."""
    split = next((c for c in verb.children if c.dep_ in ("dobj", "obj") and c.i > obj.i
                  and c.left_edge.i == obj.i + 1 and c.lemma_.lower() in ROLE_CARRIERS), None)
    if split is not None:
        # ("the squad lead role": the tagger's two objects, "squad" and "[lead] role")
        return split
    conj = next((c for c in verb.children if c.dep_ in ("conj", "ccomp") and c.i == obj.i + 1
                 and c.tag_ == "VB" and not any(g.dep_ in ("nsubj", "aux") for g in c.children)),
                None)
    carrier = next((c for c in conj.children if c.dep_ in ("dobj", "obj")
                    and c.i == conj.i + 1 and c.lemma_.lower() in ROLE_CARRIERS),
                   None) if conj is not None else None
    return conj if carrier is not None else None


def _taker(heads: list[Token]) -> Token | None:
    """The one a handover gives to: the object of "to" on the verb, its particle, a
    particle the parser read as a bare preposition ("passed the book club on to Maria"), or
    the role's owner ("for v5 to Carys")."""
    heads = heads + [c for h in heads for c in h.children if c.dep_ in ("prt", "prep")
                     and c.lower_ in ("on", "over", "off") and not any(
                         p.dep_ == "pobj" for p in c.children)]
    return next((p for h in heads for c in h.children if c.dep_ == "prep" and c.lower_ == "to"
                 for p in c.children if p.dep_ == "pobj"), None)


def handed_theme(gerund: Token) -> bool:
    """Whether a verb is part of a handover's theme: an -ing clause ("handed organizing the
    meetup over to Kim": what it states is given away, never stated as done;
    :meth:`HandoverRules._handed_activity` reads it) or an agent noun the tagger read as a
    verb ("handed the team lead role to Chris": :func:`_lead_misparse`)."""
    head = gerund.head
    if gerund.dep_ in ("conj", "ccomp") and head.lemma_.lower() in _HANDING:
        obj = next((c for c in head.children if c.dep_ in ("dobj", "obj")), None)
        if obj is not None and _lead_misparse(head, obj) == gerund:
            return True
    return gerund.tag_ == "VBG" and gerund.dep_ in ("xcomp", "dobj", "obj") and \
        head.lemma_.lower() in _HANDING and head.i < gerund.i and _taker([head, gerund]) is not None


_HANDING = frozenset(v.split()[0] for v in HANDOVER_VERBS)
"""The verbs of :data:`HANDOVER_VERBS` without their particles."""


class HandoverRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin: it
    reads the extractor's ``_value``, ``_entity`` and ``_make``)."""

    def _handed_activity(self, verb: Token, subject: str) -> list[Triple]:
        """"Idris handed organizing the Friday meetup over to Kim": an activity (an -ing
        clause as the theme, Quirk et al. 1985 §15.10) given to another is no longer the
        giver's -> (idris, organize, friday meetup) denied, (kim, organize, friday meetup)."""
        gerund = next((c for c in verb.children if c.dep_ in ("xcomp", "dobj", "obj")
                       and c.tag_ == "VBG" and c.i > verb.i), None)
        obj = next((c for c in gerund.children if c.dep_ in ("dobj", "obj")),
                   None) if gerund is not None else None
        if obj is None or not _happened_for_good(verb) or any(
                c.dep_ in ("nsubj", "advmod", "prep") and c.lower_ != "to"
                and not (c.dep_ == "prep" and c.lower_ in ("on", "over"))
                for c in gerund.children):
            return []
        taker = _taker([verb, gerund])
        value, surface = self._value(obj)
        new = self._value(taker)[0] if taker is not None else ""
        if not value or not new or new == subject:
            return []
        activity = gerund.lemma_.lower()
        return [self._make(subject, activity, value, surface, negated=True, clause=verb,
                           rule="svo"),
                self._make(new, activity, value, surface, negated=False, clause=verb,
                           rule="svo")]

    def _handed_group(self, verb: Token, obj: Token, subject: str) -> list[Triple]:
        """"Wen passed the book club on to Maria": a group one leads handed to another is
        no longer led by the giver (FrameNet Change_of_leadership; group nouns: WordNet
        social_group.n.01) -> (wen, run, book club) denied, and so for each verb of leading
        (:data:`LEADING_VERBS`); (maria, run, book club)."""
        if any(c.dep_ == "poss" and c.lower_ not in ("my", "our") for c in obj.children) or \
                any(c.dep_ == "prep" for c in obj.children) or not _happened_for_good(verb) or \
                any(c.dep_ == "prep" and c.lower_ not in ("on", "over", "off", "to")
                    and not _occasion(c) for c in verb.children):
            return []  # ("passed her club on": someone else's; "the club at school": which)
        taker = _taker([verb])
        value, surface = self._value(obj)
        new = self._value(taker)[0] if taker is not None else ""
        if not value or not new or new == subject:
            return []
        return [self._make(who, relation, value, surface, negated=negated, clause=verb,
                           rule="svo")
                for relation in LEADING_VERBS for who, negated in ((subject, True), (new, False))]

    def _handover(self, verb: Token, subject: str, neg: bool) -> list[Triple]:
        """"Marcus handed the treasurer role over to Ingrid", "Ola passed on the release
        manager job to Thabo": a role given to another is no longer the giver's (FrameNet
        Giving with a role as theme; Change_of_leadership) -> (marcus, be, treasurer)
        denied, (ingrid, be, treasurer); an owner-less role is the scope's, as "the
        treasurer is Ingrid" reads it. An activity or a group handed over ends its doing
        or leading (:meth:`_handed_activity`, :meth:`_handed_group`)."""
        if neg:
            return []
        # (the parser hangs "to" on the verb or on its particle, and may read "passed on
        # the duties" as a preposition and its object)
        obj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None) or next(
            (p for c in verb.children if c.dep_ == "prep" and c.lower_ in ("on", "over")
             for p in c.children if p.dep_ == "pobj"), None)
        if obj is None or obj.tag_ == "VBG":
            return self._handed_activity(verb, subject)
        misread = _lead_misparse(verb, obj)
        if misread is None and obj.lemma_.lower() in _GROUP_NOUNS and obj.pos_ == "NOUN":
            return self._handed_group(verb, obj, subject)
        role_head = obj
        if misread is not None and any(c.dep_ == "poss" and c.lower_ not in ("my", "our")
                                       for c in obj.children):
            return []  # ("handed Ana's team lead role to Chris": hers)
        if misread is not None:
            # "the team lead role": the theme is the carrier after the misread agent noun
            role_head = misread if misread.dep_ in ("dobj", "obj") else next(
                c for c in misread.children if c.dep_ in ("dobj", "obj"))
        head_noun = role_head.lemma_.lower()
        if head_noun not in ROLE_CARRIERS and head_noun not in ROLE_NOMINALIZATIONS:
            return []
        # the role's owner: "of"/"for" on the role noun, or right after it where the parser
        # hangs it on the verb ("handed release management for v2 to Priscilla")
        owner_preps = [c for c in (*role_head.children, *verb.children) if c.dep_ == "prep"
                       and c.lower_ in ("of", "for") and (c.head == role_head
                                                          or c.i == role_head.right_edge.i + 1)]
        owner_token = next((p for c in owner_preps[:1] for p in c.children if p.dep_ == "pobj"),
                           None)
        # (the parser may hang the taker's "to" on the owner: "for v5 to Carys")
        taker = _taker([verb, *(c for c in verb.children if c.dep_ == "prt"),
                        *([owner_token] if owner_token is not None else []),
                        *([misread] if misread is not None else [])])
        if taker is None:
            return []
        if not _happened_for_good(verb) or any(
                c.dep_ == "prep" and c.lower_ in ("at", "of", "for", "in")
                and not _occasion(c) and c not in owner_preps[:1]
                for h in (verb, role_head) for c in h.children):
            # only a handover that happened, for good, of a role held nowhere or by a named
            # owner ("release management for v2"): not "offered to hand …", "for a week",
            # "while I'm on leave", nor "at the tennis club" (which club's role the old
            # memory held is not said)
            return []
        if misread is not None:
            role_tokens = [t for t in obj.doc[obj.left_edge.i:role_head.i]
                           if t.dep_ not in ("det", "poss")]
        else:
            # (a name the tagger made a number's modifier is the role's too: "the under-12
            # coaching role"; a count is not: "the two coaching roles")
            role_tokens = [t for c in role_head.children
                           if (c.dep_ in ("compound", "amod", "nmod")
                               or c.dep_ == "nummod" and not c.like_num)
                           and c.i < role_head.i for t in c.subtree]
        if head_noun in ROLE_NOMINALIZATIONS:
            # "release management" names the release manager's role (Quirk et al. 1985
            # App. I.27-I.30: -ment, -ing, -ship, -cy name the agent noun's activity or office)
            role = " ".join([*_phrase(role_tokens).split(), ROLE_NOMINALIZATIONS[head_noun]])
        elif not role_tokens:
            return []  # "handed the job over": which role is not said
        else:
            role = _phrase(role_tokens)
        owner = self._entity(owner_token) if owner_token is not None else None
        if owner_preps and not owner:
            return []
        new, new_surface = self._value(taker)
        helds = [f"{role} of {owner}" if owner else role]
        named = [t for t in role_tokens if t.pos_ == "PROPN" and t.dep_ == "compound"
                 and t.i == role_tokens[0].i]
        if not owner and named and len(role.split()) > 1:
            # "the PTA treasurer role" is the treasurer of the PTA: a name before an office
            # noun names its owner, as "of" does (Quirk et al. 1985 §17.108 on compounds
            # that paraphrase an "of" genitive)
            office = " ".join(role.split()[len(_phrase(named).split()):])
            helds.append(f"{office} of {_phrase(named)}")
        out = [self._make(who, "be", held, held, negated=negated, clause=verb, rule="copula")
               for held in helds for who, negated in ((subject, True), (new, False)) if who]
        activity = ROLE_ACTIVITIES.get(head_noun)
        if activity and role_tokens:
            # "handed release management for v2 to Priya": no longer manages releases for
            # v2 (restricted to its owner as a denial's focus is: "when for v2",
            # :mod:`extractors.negation_focus`)
            times = [("time", f"{CONDITIONED} for {owner}")] if owner else []
            thing = _phrase(role_tokens)
            out += [self._make(who, activity, thing, thing, negated=negated, clause=verb,
                               rule="svo", qualifiers=times)
                    for who, negated in ((subject, True), (new, False)) if who]
        if owner or not any(c.dep_ == "poss" for c in role_head.children):
            out += [self._make(owner or USER, role, value, surface, negated=negated,
                               clause=verb, rule="attribute",
                               qualifiers=() if negated else (_CHANGED,))
                    for value, surface, negated in ((new, new_surface, False),
                                                    (subject, subject, True)) if value]
        return out
