"""Clarification questions: the short English question an agent can ask its user about a pair
the policy left unresolved (``quarantined``, ``epoch_change``, ``escalated``; seed 000: the
contradiction is "re-observed against the live world").

Pure: imports nothing of the store, the service, the API or the CLI.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scanner.core.detect import CandidatePair, Stance, contested
from scanner.core.experience import denies_experience
from scanner.core.policy_config import PolicyConfig, epoch_of

FIRST_PERSON = frozenset({"user", "i", "me", "my", "we", "us", "our"})
"""Subjects that are the user: asked about as "you"."""


def _surface(canonical: str, *texts: str) -> str:
    """``canonical`` as first written in one of ``texts`` (case kept), else itself."""
    if not canonical:
        return canonical
    for text in texts:
        at = text.lower().find(canonical)
        if at >= 0:
            return text[at:at + len(canonical)]
    return canonical


_PREPOSITIONS = frozenset({"in", "at", "on", "to", "for", "with", "from", "of", "by", "about",
                           "into", "as", "under", "over"})


def _verb_like(relation: str, texts: Sequence[str]) -> bool:
    """Whether a relation reads as a verb ("live in", "like": "Does Sam still live in …?")
    rather than a noun ("headquarters", "native language": "Is the headquarters of … still
    …?"): it ends in a preposition, or it is one word the texts use as a verb form."""
    words = relation.split()
    if not words:
        return False
    if len(words) > 1:
        return words[-1] in _PREPOSITIONS
    form = re.compile(rf"\b{re.escape(words[0])}(?:s|es|d|ed|ing)?\b", re.IGNORECASE)
    return any(form.search(t) for t in texts)


def _older_newer(pair: CandidatePair) -> tuple[Stance, Stance]:
    """The two stances ordered by ``observed_at`` (unknown times first, then by id)."""
    def when(s: Stance) -> tuple:
        t = s.record.observed_at
        return (t is not None, t.timestamp() if t else 0.0, s.record.id)
    return tuple(sorted((pair.a, pair.b), key=when))  # type: ignore[return-value]


def clarification_question(pair: CandidatePair, *, epochs: bool = False,
                           config: PolicyConfig | None = None) -> str:
    """A short question the agent can ask the user about an unresolved pair.

    "Which is right: “Deployed the app on Render” or “I have never deployed this app”?"
    (contradictory statements), "Is the preferred glaze still celadon, or tenmoku?" (attribute
    relations), "Does Sam still
    live in Lyon, or Nice?" (verb relations), "Do you still like coffee?" (polarity), "Are
    “Sam” and “Sam Lee” the same?" (identity not confirmed). The older value comes first; with
    ``epochs`` each value names the epoch it was recorded under.

    Args:
        pair: the candidate pair (its stances give values and record texts).
        epochs: add each value's epoch (for ``epoch_change`` verdicts).
        config: for declared epochs.

    Returns:
        One sentence ending in a question mark.
    """
    config = config or PolicyConfig()
    older, newer = _older_newer(pair)
    texts = (older.record.text, newer.record.text)
    relation = pair.key.relation
    subject = pair.key.subject
    me = subject in FIRST_PERSON
    who = _surface(subject, *texts)
    if pair.subject_unconfirmed and pair.other_key is not None:
        other = _surface(pair.other_key.subject, *texts)
        return f"Are “{who}” and “{other}” the same?"
    attribute = older.attribute or newer.attribute or not _verb_like(relation, texts)
    if pair.found_by == "never" or (pair.judgment is not None
                                    and pair.judgment.label == "contradiction") or (
            pair.kind == "polarity" and denies_experience(newer.record.text)):
        # one speaker's statements that cannot both hold: time does not settle them (SPEC §2)
        said = [t.strip().rstrip(".") for t in texts]
        return f"Which is right: “{said[0]}” or “{said[1]}”?"
    if pair.kind == "polarity":
        disputed = sorted(contested(older, newer))
        obj = _surface(disputed[0], *texts) if disputed else ""
        if obj and not attribute and not relation.startswith("be "):
            return (f"Do you still {relation} {obj}?" if me
                    else f"Does {who} still {relation} {obj}?")
        positive = newer if disputed and disputed[0] in older.denied else older
        return f"Is this still true: “{positive.record.text.strip().rstrip('.')}”?"

    def value(s: Stance) -> str:
        shown = ", ".join(_surface(v, s.record.text) for v in s.value_text(relation).split(", "))
        if epochs:
            epoch = epoch_of(s.record, config)
            shown += f" (epoch {epoch})" if epoch else ""
        return shown

    old, new = value(older), value(newer)
    if relation == "be" or relation.startswith("be "):
        return f"Are you still {old}, or {new}?" if me else f"Is {who} still {old}, or {new}?"
    if attribute:
        owner = f"the {relation}" if me else f"the {relation} of {who}"
        return f"Is {owner} still {old}, or {new}?"
    if _participle(relation):  # "located in", "owned by": a state, asked with "be"
        return (f"Are you still {relation} {old}, or {new}?" if me
                else f"Is {who} still {relation} {old}, or {new}?")
    if me:
        return f"Do you still {relation} {old}, or {new}?"
    return f"Does {who} still {relation} {old}, or {new}?"


_IRREGULAR_PARTICIPLES = frozenset({"born", "made", "written", "known", "held", "built",
                                    "sold", "run", "kept", "found", "set", "given", "taken"})


def _participle(relation: str) -> bool:
    """Whether a verb-like relation starts with a past participle ("located in", "owned by",
    "born in"), which English asks about with "be", not "do"."""
    first = relation.split()[0] if relation.split() else ""
    return len(relation.split()) > 1 and (first.endswith("ed") or first in _IRREGULAR_PARTICIPLES)
