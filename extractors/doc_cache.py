"""Per-document caches for the rules: answers computed once per parsed document.

spaCy rebuilds ``Doc.text`` and a span's text from its tokens on every access, scans the
sentence boundaries anew for every ``Token.sent``, and the rules ask such questions many times
a clause. These helpers keep the answers in the document's ``user_data`` (for a spaCy ``Doc``
or a :class:`extractors.parsed.ParsedDoc`); :func:`cached_sentences` scopes the answers that
hold only while the parse stays unchanged, and :func:`per_token` remembers a rule's answer
per token inside it.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator

from spacy.attrs import IDX, LEMMA, LENGTH, LOWER
from spacy.tokens import Doc

from extractors.parsed import ParsedDoc

__all__ = ["cached_sentences", "doc_lemmas", "doc_text", "doc_words", "has_quote_marks",
           "per_token", "span_text"]


_TEXT_KEY = ("contrascan", "text")


_QUOTE_CHARS = frozenset("'\"‘’“”`")
_QUOTES_KEY = ("contrascan", "quotes")


def has_quote_marks(doc: Doc) -> bool:
    """Whether the document's text holds a quotation mark or apostrophe (``'"‘’“”` ``),
    computed once per document: without one, no token is a quotation mark."""
    found = doc.user_data.get(_QUOTES_KEY)
    if found is None:
        found = doc.user_data[_QUOTES_KEY] = not _QUOTE_CHARS.isdisjoint(doc_text(doc))
    return found


def doc_text(doc: Doc) -> str:
    """``doc.text``, computed once per document: spaCy rebuilds it from the tokens on every
    access (about 20 µs for a short sentence), and the rules read it several times. Merging
    tokens (``Doc.retokenize``) keeps the text, so the cached value stays right."""
    text = doc.user_data.get(_TEXT_KEY)
    if text is None:
        text = doc.user_data[_TEXT_KEY] = doc.text
    return text


def span_text(doc: Doc, start: int, end: int) -> str:
    """``doc[start:end].text`` for ``0 <= start, end <= len(doc)``, cut from the cached
    :func:`doc_text` (spaCy joins the span's tokens anew on every access, about 2 µs a
    token): a span's text runs from its first token's offset to its last token's end."""
    if end <= start:
        return ""
    starts, ends = _offsets(doc)
    return doc_text(doc)[starts[start]:ends[end - 1]]


_OFFSETS_KEY = ("contrascan", "offsets")


def _offsets(doc: Doc) -> tuple[list[int], list[int]]:
    """Each token's start and end offset in the text, computed once per document (a merge
    happens before the parse only, :func:`quoted_titles`)."""
    found = doc.user_data.get(_OFFSETS_KEY)
    if found is None and isinstance(doc, ParsedDoc):
        found = doc.user_data[_OFFSETS_KEY] = ([t.idx for t in doc.tokens],
                                               [t.idx + len(t.text) for t in doc.tokens])
    elif found is None:
        rows = doc.to_array([IDX, LENGTH]).tolist() if len(doc) else []
        found = doc.user_data[_OFFSETS_KEY] = ([a for a, _ in rows], [a + n for a, n in rows])
    return found


_WORDS_KEY = ("contrascan", "words")


def doc_words(doc: Doc) -> frozenset[str]:
    """The lower-cased words (``Token.lower_``) of a document, computed once per document:
    a rule that needs a word ("instead", "sober") is skipped at once where it is missing."""
    found = doc.user_data.get(_WORDS_KEY)
    if found is None and isinstance(doc, ParsedDoc):
        found = doc.user_data[_WORDS_KEY] = frozenset(t.lower_ for t in doc.tokens)
    elif found is None:
        strings = doc.vocab.strings
        found = doc.user_data[_WORDS_KEY] = frozenset(
            strings[h] for h in set(doc.to_array([LOWER]).ravel().tolist())) if len(doc) \
            else frozenset()
    return found


def doc_lemmas(doc: Doc) -> frozenset[str]:
    """The lower-cased lemmas of a document; remembered inside :func:`cached_sentences`
    only (the repairs after the parse may still change a lemma), computed anew elsewhere."""
    memo = doc.user_data.get(_MEMO_KEY)
    found = memo.get(_LEMMAS_KEY) if memo is not None else None
    if found is None and isinstance(doc, ParsedDoc):
        found = frozenset(t.lemma_.lower() for t in doc.tokens)
    elif found is None:
        strings = doc.vocab.strings
        found = frozenset(strings[h].lower() for h in set(
            doc.to_array([LEMMA]).ravel().tolist())) if len(doc) else frozenset()
        if memo is not None:
            memo[_LEMMAS_KEY] = found
    return found


_LEMMAS_KEY = ("lemmas",)


@contextlib.contextmanager
def cached_sentences(doc: Doc) -> Iterator[Doc]:
    """While inside, ``doc.sents``, ``Token.sent`` and ``Span.sent`` answer from the
    sentences found on entry instead of scanning the sentence boundaries anew (about 8 µs
    for each ``Token.sent``, which the rules ask for many times a clause), and the methods
    marked :func:`per_token` remember their answers. The answers are spaCy's: the sentence
    that holds the token, or the span's first token. Only for code that leaves the parse
    unchanged; the document's own hooks are restored and the answers forgotten on exit."""
    if isinstance(doc, ParsedDoc):  # its sentences are found once already
        doc.user_data[_MEMO_KEY] = {}
        try:
            yield doc
        finally:
            doc.user_data.pop(_MEMO_KEY, None)
        return
    if not len(doc) or not doc.has_annotation("SENT_START"):
        yield doc
        return
    sents = list(doc.sents)
    index = [0] * len(doc)
    for n, sent in enumerate(sents):
        index[sent.start:sent.end] = [n] * len(sent)
    last = len(doc) - 1
    hooks = ((doc.user_hooks, "sents", lambda _doc: iter(sents)),
             (doc.user_token_hooks, "sent", lambda token: sents[index[token.i]]),
             (doc.user_span_hooks, "sent", lambda span: sents[index[min(span.start, last)]]))
    saved = [(table, key, table.get(key, _ABSENT)) for table, key, _ in hooks]
    for table, key, hook in hooks:
        table[key] = hook
    doc.user_data[_MEMO_KEY] = {}
    try:
        yield doc
    finally:
        doc.user_data.pop(_MEMO_KEY, None)
        for table, key, value in saved:
            if value is _ABSENT:
                table.pop(key, None)
            else:
                table[key] = value


_MEMO_KEY = ("contrascan", "memo")


def per_token(fn: Callable) -> Callable:
    """Remember ``fn(token)`` (or the method ``fn(self, token)``) per token inside
    :func:`cached_sentences`, where the parse stays unchanged: for a function whose answer
    (an immutable value or a token) depends on the token and fixed tables only. Elsewhere,
    and for keyword arguments, it is computed on every call."""
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def remembered(*args, **kwargs):
        token = args[-1]
        memo = token.doc.user_data.get(_MEMO_KEY)
        if memo is None or kwargs:
            return fn(*args, **kwargs)
        key = (name, token.i)
        if key in memo:
            return memo[key]
        found = memo[key] = fn(*args)
        return found

    return remembered


_ABSENT = object()
