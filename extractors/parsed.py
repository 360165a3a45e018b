"""A parsed document as plain Python objects, for the rules to read.

spaCy's :class:`~spacy.tokens.Token` is a view that is built anew on every access
(``doc[i]``, ``token.head``, each child of ``token.children``) and reads every attribute
through its C struct and the string store: about 0.2 µs an attribute and 2–3 µs a walk over
a token's children. The rules ask hundreds of such questions of every clause, so that cost
was most of the time spent after the parse. :func:`parsed` copies a finished parse once
(one ``Doc.to_array`` call and one string lookup a value) into :class:`ParsedDoc`,
:class:`ParsedToken` and :class:`ParsedSpan`: one object per token, with its head and
children as references, and attributes as plain slots (about 0.02 µs each).

The three classes answer the part of spaCy's API the rules use, with spaCy's semantics
(https://spacy.io/api/token, /api/span, /api/doc): the same values, the same order of
``children``/``lefts``/``rights``/``subtree``/``ancestors`` (sequences instead of
generators), ``doc[i]`` and ``doc[a:b]`` with spaCy's slice clipping, ``Span.root`` by the
shortest path to the sentence root, ``Doc.char_span`` with its three alignment modes, and
tokens ordered by position. Anything else (a lexical flag, ``morph``, ``left_edge``) is
answered by the spaCy object the copy was made from, with tokens and spans in the answer
mapped to their copies. The copy is read-only: a repair of the parse happens before it is
taken (:func:`extractors.reading.nominal_gerunds`).

``tests/unit/test_parsed.py`` compares every token and span attribute with spaCy's on
parsed sentences. One difference is meant: a token is one object, so ``token is other``
holds for the same token, as the rules' identity tests assume; with spaCy's views it never
did ("I eat meat never" now keeps "never" out of the restriction it negates). Extracting
10,643 memory, pair-set, CounterFact and persona texts gave identical triples with and
without the copy.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from spacy.attrs import DEP, ENT_TYPE, HEAD, IDX, IS_ALPHA, IS_PUNCT, IS_SPACE, LEMMA, \
    LIKE_EMAIL, LIKE_NUM, LIKE_URL, LOWER, ORTH, POS, SENT_START, SPACY, TAG
from spacy.tokens import Doc, Span, Token

__all__ = ["ParsedDoc", "ParsedSpan", "ParsedToken", "parsed"]

_COLUMNS = [ORTH, LOWER, LEMMA, POS, TAG, DEP, HEAD, IDX, SPACY, ENT_TYPE, SENT_START,
            IS_SPACE, IS_PUNCT, IS_ALPHA, LIKE_NUM, LIKE_URL, LIKE_EMAIL]
_WRAP, _HALF = 2 ** 64, 2 ** 63
"""``Doc.to_array`` answers in ``uint64``: a negative value (a head to the left, a token
that starts no sentence) wraps."""


def parsed(doc: Doc | ParsedDoc) -> ParsedDoc:
    """A read-only copy of a parsed ``doc`` (returned as is when it is one already).

    Raises:
        TypeError: ``doc`` is neither a spaCy ``Doc`` nor a :class:`ParsedDoc`.
    """
    if isinstance(doc, ParsedDoc):
        return doc
    if not isinstance(doc, Doc):
        raise TypeError(f"parsed() takes a spaCy Doc, not {type(doc).__name__}")
    return ParsedDoc(doc)


class ParsedToken:
    """One token of a :class:`ParsedDoc`; spaCy's ``Token`` attributes of the same names."""

    __slots__ = ("doc", "i", "idx", "text", "lower_", "lemma_", "pos_", "tag_", "dep_",
                 "ent_type_", "whitespace_", "head", "children", "lefts", "rights",
                 "is_sent_start", "is_space", "is_punct", "is_alpha", "like_num", "like_url",
                 "like_email", "_subtree", "_edges")

    @property
    def text_with_ws(self) -> str:
        return self.text + self.whitespace_

    @property
    def orth_(self) -> str:
        return self.text

    @property
    def n_lefts(self) -> int:
        return len(self.lefts)

    @property
    def n_rights(self) -> int:
        return len(self.rights)

    @property
    def sent(self) -> ParsedSpan:
        doc = self.doc
        return doc._sentences()[doc._sentence_of[self.i]]

    @property
    def subtree(self) -> tuple[ParsedToken, ...]:
        """The token and its descendants in spaCy's order (each left child's subtree, the
        token, each right child's subtree)."""
        found = self._subtree
        if found is None:
            found = []
            for child in self.lefts:
                found.extend(child.subtree)
            found.append(self)
            for child in self.rights:
                found.extend(child.subtree)
            found = self._subtree = tuple(found)
        return found

    @property
    def left_edge(self) -> ParsedToken:
        """The first token of the subtree (spaCy's ``l_edge``: the least position in it)."""
        return self._span_edges()[0]

    @property
    def right_edge(self) -> ParsedToken:
        """The last token of the subtree (the greatest position in it)."""
        return self._span_edges()[1]

    def _span_edges(self) -> tuple[ParsedToken, ParsedToken]:
        if self._edges is None:
            subtree = self.subtree
            self._edges = (min(subtree, key=_position), max(subtree, key=_position))
        return self._edges

    @property
    def ancestors(self) -> list[ParsedToken]:
        """The heads above the token, nearest first (at most ``len(doc)``, as spaCy)."""
        out: list[ParsedToken] = []
        token = self
        while token.head is not token and len(out) < len(self.doc):
            token = token.head
            out.append(token)
        return out

    def is_ancestor(self, descendant: ParsedToken) -> bool:
        """Whether this token is a head above ``descendant``."""
        return any(a is self for a in descendant.ancestors)

    def nbor(self, i: int = 1) -> ParsedToken:
        """The token ``i`` places away.

        Raises:
            IndexError: the position is outside the document.
        """
        j = self.i + i
        if j < 0 or j >= len(self.doc):
            raise IndexError(f"token {self.i}: no neighbour at offset {i} in a document of "
                             f"{len(self.doc)} tokens")
        return self.doc.tokens[j]

    def __len__(self) -> int:
        return len(self.text)

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__

    # spaCy orders tokens by their character offset
    def __lt__(self, other: ParsedToken) -> bool:
        return self.idx < other.idx

    def __le__(self, other: ParsedToken) -> bool:
        return self.idx <= other.idx

    def __gt__(self, other: ParsedToken) -> bool:
        return self.idx > other.idx

    def __ge__(self, other: ParsedToken) -> bool:
        return self.idx >= other.idx

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self.doc._mapped(getattr(self.doc.source[self.i], name))


class ParsedSpan:
    """``doc[start:end]`` of a :class:`ParsedDoc`; spaCy's ``Span`` attributes of the same
    names."""

    __slots__ = ("doc", "start", "end")

    def __init__(self, doc: ParsedDoc, start: int, end: int):
        self.doc, self.start, self.end = doc, start, end

    @property
    def text(self) -> str:
        if self.end <= self.start:
            return ""
        tokens = self.doc.tokens
        last = tokens[self.end - 1]
        return self.doc.text[tokens[self.start].idx:last.idx + len(last.text)]

    @property
    def text_with_ws(self) -> str:
        return self.text + (self.doc.tokens[self.end - 1].whitespace_ if self.end > self.start
                            else "")

    @property
    def start_char(self) -> int:
        return self.doc.tokens[self.start].idx if self.start < self.end else \
            self._source().start_char

    @property
    def end_char(self) -> int:
        if self.end <= self.start:
            return self._source().end_char
        last = self.doc.tokens[self.end - 1]
        return last.idx + len(last.text)

    @property
    def lemma_(self) -> str:
        return "".join(t.lemma_ + t.whitespace_ for t in self).strip()

    @property
    def sent(self) -> ParsedSpan:
        doc = self.doc
        return doc._sentences()[doc._sentence_of[min(self.start, len(doc) - 1)]]

    @property
    def root(self) -> ParsedToken:
        """The token with the shortest path to the sentence root, the first of equals, a
        childless space or punctuation mark last (spaCy's ``Span.root``)."""
        tokens = self.doc.tokens
        for i in range(self.start, self.end):
            if tokens[i].head is tokens[i]:
                return tokens[i]
        best, root = len(tokens), None
        for i in range(self.start, self.end):
            if self.start <= tokens[i].head.i < self.end:
                continue
            steps, token = 0, tokens[i]
            if (token.is_space or token.is_punct) and not token.children:
                steps = len(tokens) - 1  # a bare space or mark is root only of itself
            else:
                while token.head is not token and steps < len(tokens):
                    token, steps = token.head, steps + 1
            if steps < best:
                best, root = steps, tokens[i]
        return root if root is not None else tokens[self.start]

    def _source(self) -> Span:
        return self.doc.source[self.start:self.end]

    def __len__(self) -> int:
        return self.end - self.start

    def __iter__(self) -> Iterator[ParsedToken]:
        return iter(self.doc.tokens[self.start:self.end])

    def __getitem__(self, i: int | slice) -> ParsedToken | ParsedSpan:
        if isinstance(i, slice):
            start, end = _normalized(len(self), i)
            return ParsedSpan(self.doc, self.start + start, self.start + end)
        at = self.end + i if i < 0 else self.start + i
        if not self.start <= at < self.end:
            raise IndexError(f"token {i} of a span of {len(self)} tokens")
        return self.doc.tokens[at]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ParsedSpan) and other.doc is self.doc and \
            (other.start, other.end) == (self.start, self.end)

    def __hash__(self) -> int:
        return hash((id(self.doc), self.start, self.end))

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self.doc._mapped(getattr(self._source(), name))


class ParsedDoc:
    """A read-only copy of a parsed spaCy ``Doc``; spaCy's ``Doc`` attributes of the same
    names, and ``source``, the ``Doc`` it was copied from.

    Attributes:
        tokens: one :class:`ParsedToken` per token, in order.
        text: the document's text.
        user_data: a dict for caches of the rules (a fresh one, not the source's).
    """

    __slots__ = ("source", "tokens", "text", "user_data", "_sentence_of", "_sent_starts",
                 "_sents", "__weakref__")

    def __init__(self, doc: Doc):
        self.source = doc
        self.user_data: dict = {}
        self._sents: list[ParsedSpan] | None = None
        strings = doc.vocab.strings
        tokens: list[ParsedToken] = []
        heads: list[int] = []
        starts: list[int] = []
        sentence_of: list[int] = []
        rows = doc.to_array(_COLUMNS).tolist() if len(doc) else []
        sentence = -1
        for i, (orth, lower, lemma, pos, tag, dep, head, idx, space, ent, start, *flags) in \
                enumerate(rows):
            t = ParsedToken()
            t.doc, t.i, t.idx = self, i, idx
            t.text, t.lower_, t.lemma_ = strings[orth], strings[lower], strings[lemma]
            t.pos_, t.tag_, t.dep_ = strings[pos], strings[tag], strings[dep]
            t.ent_type_ = strings[ent] if ent else ""
            start = start - _WRAP if start >= _HALF else start
            t.whitespace_ = " " if space else ""
            t.is_sent_start = True if start > 0 else (False if start < 0 else None)
            t.is_space, t.is_punct, t.is_alpha, t.like_num, t.like_url, t.like_email = map(
                bool, flags)
            t.children, t.lefts, t.rights, t._subtree, t._edges = [], [], [], None, None
            if i == 0 or start > 0:
                sentence += 1
                starts.append(i)
            sentence_of.append(sentence)
            heads.append(i + (head - _WRAP if head >= _HALF else head))
            tokens.append(t)
        for t, h in zip(tokens, heads):
            head = t.head = tokens[h]
            if head is not t:
                head.children.append(t)
                (head.lefts if t.i < h else head.rights).append(t)
        self.tokens = tokens
        self.text = "".join([t.text + t.whitespace_ for t in tokens])  # as spaCy's Doc.text
        self._sentence_of = sentence_of
        self._sent_starts = starts

    @property
    def sents(self) -> Iterator[ParsedSpan]:
        """The sentences, as spaCy's ``Doc.sents``.

        Raises:
            ValueError: the parse sets no sentence boundaries (as spaCy's E030).
        """
        return iter(self._sentences())

    def _sentences(self) -> list[ParsedSpan]:
        if self._sents is None:
            if not self.source.has_annotation("SENT_START"):
                raise ValueError("the document has no sentence boundaries (spaCy E030)")
            ends = self._sent_starts[1:] + [len(self.tokens)]
            self._sents = [ParsedSpan(self, a, b) for a, b in zip(self._sent_starts, ends)]
        return self._sents

    @property
    def text_with_ws(self) -> str:
        return self.text

    @property
    def vocab(self):
        return self.source.vocab

    def has_annotation(self, attr: str) -> bool:
        """As spaCy's ``Doc.has_annotation`` of the source."""
        return self.source.has_annotation(attr)

    def char_span(self, start_idx: int, end_idx: int, alignment_mode: str = "strict"
                  ) -> ParsedSpan | None:
        """The span of ``text[start_idx:end_idx]``, as spaCy's ``Doc.char_span``: ``None``
        where no token holds an end, or where ``"strict"`` finds an end inside a token.

        Raises:
            ValueError: an ``alignment_mode`` other than strict, contract or expand.
        """
        if alignment_mode not in ("strict", "contract", "expand"):
            raise ValueError(f"alignment_mode {alignment_mode!r}: strict, contract or expand")
        tokens = self.tokens
        start = self._token_at(start_idx)
        if start < 0 or (alignment_mode == "strict" and start_idx != tokens[start].idx):
            return None
        end = self._token_at(end_idx - 1)
        if end < 0 or (alignment_mode == "strict"
                       and end_idx != tokens[end].idx + len(tokens[end].text)):
            return None
        if alignment_mode == "contract":
            if tokens[start].idx < start_idx:
                start += 1
            if end_idx < tokens[end].idx + len(tokens[end].text):
                end -= 1
            if end < start:
                return None
        elif alignment_mode == "expand" and start_idx == tokens[start].idx + len(
                tokens[start].text):
            start += 1
        return ParsedSpan(self, start, end + 1)

    def _token_at(self, char: int) -> int:
        """The token whose text or trailing space holds offset ``char``; -1 for none."""
        tokens = self.tokens
        lo, hi = 0, len(tokens) - 1
        while lo <= hi:
            mid = (lo + hi) // 2
            t = tokens[mid]
            if char < t.idx:
                hi = mid - 1
            elif char >= t.idx + len(t.text) + len(t.whitespace_):
                lo = mid + 1
            else:
                return mid
        return -1

    def _mapped(self, value: Any) -> Any:
        """A value from the source document with its tokens and spans mapped to copies."""
        if isinstance(value, Token):
            return self.tokens[value.i] if value.doc is self.source else value
        if isinstance(value, Span):
            return ParsedSpan(self, value.start, value.end) if value.doc is self.source \
                else value
        if isinstance(value, (list, tuple)) or hasattr(value, "__next__"):
            return [self._mapped(v) for v in value]
        if callable(value):
            def call(*args, **kwargs):
                return self._mapped(value(*(self._source_of(a) for a in args), **kwargs))
            return call
        return value

    def _source_of(self, value: Any) -> Any:
        if isinstance(value, ParsedToken):
            return self.source[value.i]
        if isinstance(value, ParsedSpan):
            return self.source[value.start:value.end]
        return value

    def __len__(self) -> int:
        return len(self.tokens)

    def __iter__(self) -> Iterator[ParsedToken]:
        return iter(self.tokens)

    def __getitem__(self, i: int | slice) -> ParsedToken | ParsedSpan:
        if isinstance(i, slice):
            return ParsedSpan(self, *_normalized(len(self.tokens), i))
        return self.tokens[i]

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


def _position(token: ParsedToken) -> int:
    return token.i


def _normalized(length: int, i: slice) -> tuple[int, int]:
    """spaCy's ``normalize_slice``: clipped ``(start, stop)``; a step is refused.

    Raises:
        ValueError: a step other than 1.
    """
    if i.step not in (None, 1):
        raise ValueError("a span takes no step")
    start = 0 if i.start is None else (i.start + length if i.start < 0 else i.start)
    start = min(length, max(0, start))
    stop = length if i.stop is None else (i.stop + length if i.stop < 0 else i.stop)
    return start, min(length, max(start, stop))
