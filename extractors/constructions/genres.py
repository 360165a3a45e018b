"""Performing a genre: "Mara performs opera" says Mara's genre is opera.

A bare singular noun after "perform" (no article, no number) names a kind, not one work or act
(the kind reading of bare nouns: Carlson 1977, *Reference to Kinds in English*; Quirk et al.
1985, *A Comprehensive Grammar of the English Language*, §5.52–5.59 on generic reference).
When that kind is a genre of music, drama or fiction, the clause states the performer's genre
(Wikidata P136 "genre": "creative work's genre or an artist's field of work"): "Mara performs
opera" -> ``(mara, genre, opera)`` beside ``(mara, perform, opera)``; "is known for performing
jazz" too (:mod:`extractors.constructions.repute`). "Mara performed the opera" (one work)
and "performs surgery" (no genre) give no genre.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.constructions.repute import modifier_gerunds, repute_gerunds
from extractors.syntax import _lemma, _negated
from extractors.types import Triple

GENRE_NOUNS = frozenset("""
    opera operetta ballet musical jazz blues rock pop folk country reggae rap soul funk punk
    metal disco techno gospel classical swing bluegrass ska grunge salsa tango flamenco
    zarzuela cabaret vaudeville burlesque comedy drama tragedy farce satire melodrama pantomime
    mime thriller horror fantasy romance mystery western sitcom documentary anime cartoon
    science-fiction noir tragicomedy improv standup stand-up
    """.split())
"""Genre names: the hyponyms of WordNet 3.0 music_genre.n.01 (popular_music.n.01, jazz.n.01,
blues.n.01, rock.n.01, folk_music.n.01, country_music.n.01, reggae.n.01, rap.n.01,
soul.n.02, gospel.n.01, classical_music.n.01, …), of drama.n.01 / dramatic_composition.n.01
(opera.n.01, ballet.n.01, musical.n.01, comedy.n.01, tragedy.n.01, farce.n.01, melodrama.n.01,
pantomime.n.01, …) and of genre.n.02 (thriller.n.01, fantasy.n.02, romance.n.04,
western.n.01, sitcom.n.01, documentary.n.01, …), single words only."""
PERFORM = "perform"
GENRE = "genre"


def performed_kinds(head: Token) -> list[Token]:
    """The bare genre nouns performed by ``head`` ("performs opera") or by the gerunds of its
    repute predicate ("known for performing opera")."""
    verbs = [head] if _lemma(head) == PERFORM else []
    verbs += [g for g in repute_gerunds(head) if _lemma(g) == PERFORM]
    nouns = [c for v in verbs for c in v.children if c.dep_ == "dobj"]
    nouns += [noun for gerund, noun in modifier_gerunds(head) if _lemma(gerund) == PERFORM]
    return [n for n in nouns if n.pos_ == "NOUN" and genre_name(n)
            and not any(c.dep_ in ("det", "nummod", "poss") for c in n.children)]


def genre_name(noun: Token) -> str | None:
    """The genre a noun names, as written or by its lemma ("blues" is no plural of "blue")."""
    for form in (noun.lower_, noun.lemma_.lower()):
        if form in GENRE_NOUNS:
            return form
    return None


class GenreRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_subject_token``, ``_entity`` and ``_make``)."""

    def _performed_genre(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found`` and the genre of a performed kind (module doc)."""
        kinds = performed_kinds(head) if head.pos_ in ("VERB", "AUX") else []
        subj = self._subject_token(head) if kinds else None
        subject = self._entity(subj) if subj is not None else None
        if not subject:
            return found
        return found + [self._make(subject, GENRE, genre_name(n), n.text,
                                   negated=_negated(head), clause=head, rule="svo")
                        for n in kinds]
