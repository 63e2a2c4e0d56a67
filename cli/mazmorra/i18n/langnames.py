"""Language names a designer types (`english`, `Español`, `francés`) read as the codes packs use."""

from __future__ import annotations

from collections.abc import Iterable

from mazmorra.errors import did_you_mean

# The languages whose names are looked for, in their own words and in these (the samples' languages).
_IN = ("en", "es", "fr", "de", "it", "pt", "ca", "ja")


def _names(code: str) -> set[str]:
    """What a designer may call the language `code`: its name in English, in itself and in a few others."""
    from babel import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(code.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return set()
    base = Locale(locale.language)  # pt_BR is "portuguese" too
    names = {code.replace("_", "-")}
    for one in (locale, base):
        names |= {one.get_display_name(one) or "", one.english_name or ""}
        names |= {one.get_display_name(other) or "" for other in _IN}
    return {n.casefold() for n in names if n}


def suggest_code(given: str, codes: Iterable[str]) -> str:
    """ "; did you mean 'en'?" for a language given by its name (or a near miss of a code), or ""."""
    codes = list(codes)
    said = given.strip().casefold().replace("_", "-")
    named = [code for code in codes if said in _names(code)]
    if named:
        return f"; did you mean {named[0]!r}?"
    return did_you_mean(given, codes)


def code_named(given: str) -> str | None:
    """The code of the language `given` names (`english` -> 'en', `francés` -> 'fr'), if one does."""
    from babel import Locale

    said = given.strip().casefold()
    for other in _IN:
        for code, name in Locale(other).languages.items():
            if name.casefold() == said and "_" not in code:
                return str(code)
    return None
