"""The read-only copy of a parse (:mod:`extractors.parsed`) answers as spaCy does.

Every token and span attribute the rules read is compared with spaCy's own answer on the same
parse, over sentences of several shapes (several sentences, a question, punctuation, numbers,
an address, a relative clause, coordination)."""

from __future__ import annotations

import itertools

import pytest

from extractors import load_pipeline
from extractors.parsed import ParsedDoc, ParsedSpan, ParsedToken, parsed

TEXTS = [
    "Noor moved to Lisbon in 2021. She works at a bakery that opened last May!",
    "Did Tomasz sell the boat he bought from his uncle?",
    "The retry limit for the sync job is 7, and the timeout is 30 s.",
    "Write to ines.duarte@example.org or visit https://example.org/help  today.",
    "Priya, who runs the chess club, and I don't eat meat anymore; we cook lentils.",
    "  Leading spaces, then   extra spaces inside.",
    "Ok",
]

TOKEN_ATTRS = ("i", "idx", "text", "text_with_ws", "orth_", "lower_", "lemma_", "pos_",
               "tag_", "dep_", "ent_type_", "whitespace_", "is_sent_start", "is_space",
               "is_punct", "is_alpha", "like_num", "like_url", "like_email", "n_lefts",
               "n_rights")
TOKEN_WALKS = ("children", "lefts", "rights", "subtree", "ancestors")


@pytest.fixture(scope="module")
def docs():
    nlp = load_pipeline()
    return [(doc, parsed(doc)) for doc in nlp.pipe(TEXTS)]


def _i(tokens) -> list[int]:
    return [t.i for t in tokens]


def test_tokens_answer_as_spacy(docs):
    for doc, copy in docs:
        assert isinstance(copy, ParsedDoc) and len(copy) == len(doc)
        assert copy.text == doc.text
        for token, mine in zip(doc, copy):
            assert isinstance(mine, ParsedToken)
            for name in TOKEN_ATTRS:
                assert getattr(mine, name) == getattr(token, name), (doc.text, token.i, name)
            for name in TOKEN_WALKS:
                assert _i(getattr(mine, name)) == _i(getattr(token, name)), (token.i, name)
            assert mine.head.i == token.head.i
            assert (mine.head is mine) == (token.head.i == token.i)
            assert (mine.left_edge.i, mine.right_edge.i) == (token.left_edge.i,
                                                             token.right_edge.i)
            assert (mine.sent.start, mine.sent.end) == (token.sent.start, token.sent.end)
            assert len(mine) == len(token) and str(mine) == str(token)
            assert mine.doc is copy and copy[mine.i] is mine


def test_neighbours_and_order(docs):
    doc, copy = docs[0]
    assert copy[0].nbor().i == 1 and copy[2].nbor(-1).i == 1
    with pytest.raises(IndexError):
        copy[0].nbor(-1)
    with pytest.raises(IndexError):
        copy[-1].nbor()
    assert copy[0] < copy[1] and copy[3] >= copy[3] and not copy[2] > copy[4]
    assert sorted([copy[4], copy[1], copy[3]]) == [copy[1], copy[3], copy[4]]
    assert copy[-1] is copy[len(copy) - 1]
    assert copy[1].is_ancestor(copy[0]) == doc[1].is_ancestor(doc[0])


def test_sentences_and_spans_answer_as_spacy(docs):
    for doc, copy in docs:
        assert [(s.start, s.end) for s in copy.sents] == [(s.start, s.end) for s in doc.sents]
        for a, b in itertools.combinations(range(len(doc) + 1), 2):
            span, mine = doc[a:b], copy[a:b]
            assert isinstance(mine, ParsedSpan)
            assert (mine.start, mine.end, mine.text, mine.text_with_ws, mine.lemma_) == (
                span.start, span.end, span.text, span.text_with_ws, span.lemma_)
            assert (mine.start_char, mine.end_char) == (span.start_char, span.end_char)
            assert mine.root.i == span.root.i, (doc.text, a, b)
            assert (mine.sent.start, mine.sent.end) == (span.sent.start, span.sent.end)
            assert _i(mine) == _i(span) and len(mine) == len(span)
            assert mine[0].i == span[0].i and mine[-1].i == span[-1].i
            assert (mine[1:].start, mine[1:].end) == (span[1:].start, span[1:].end)


@pytest.mark.parametrize("bounds", [(None, None), (-3, None), (2, -1), (-100, 100), (5, 2),
                                    (40, 50)])
def test_slices_clip_as_spacy(docs, bounds):
    doc, copy = docs[0]
    span, mine = doc[slice(*bounds)], copy[slice(*bounds)]
    assert (mine.start, mine.end) == (span.start, span.end)
    with pytest.raises(ValueError):
        copy[0:3:2]


@pytest.mark.parametrize("mode", ["strict", "contract", "expand"])
def test_char_spans_answer_as_spacy(docs, mode):
    for doc, copy in docs:
        for a, b in itertools.combinations(range(len(doc.text) + 1), 2):
            span = doc.char_span(a, b, alignment_mode=mode)
            mine = copy.char_span(a, b, alignment_mode=mode)
            assert (mine is None) == (span is None), (doc.text, a, b, mode)
            if span is not None:
                assert (mine.start, mine.end) == (span.start, span.end), (doc.text, a, b)
    with pytest.raises(ValueError):
        copy.char_span(0, 2, alignment_mode="loose")


def test_other_attributes_come_from_the_source(docs):
    doc, copy = docs[0]
    assert copy[1].morph == doc[1].morph  # not copied: answered by the source token
    assert _i(copy[1].conjuncts) == _i(doc[1].conjuncts)
    assert copy[0:3].label_ == doc[0:3].label_
    with pytest.raises(AttributeError):
        copy[0].no_such_attribute


def test_parsed_refuses_other_objects_and_keeps_a_copy(docs):
    _, copy = docs[0]
    assert parsed(copy) is copy
    with pytest.raises(TypeError, match="spaCy Doc"):
        parsed("Noor moved to Lisbon.")
