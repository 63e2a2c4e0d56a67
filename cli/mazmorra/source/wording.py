"""Our words for what the schema library says: a pydantic error or a field's limits as a designer
reads them, with no "Input should be…", regular expression or Python type name."""

from __future__ import annotations

import re
from typing import Any

# The patterns the models use, in words (model/content.py, model/declared/fields.py, the kinds).
PATTERNS = {
    r"^[a-z0-9][a-z0-9_.-]*$": "lowercase letters, digits, '-', '_' or '.', starting with a letter or digit",
    r"^[a-z][a-z0-9_-]*$": "lowercase letters, digits, '-' or '_', starting with a letter",
    r"^[a-z0-9][a-z0-9_-]*$": "lowercase letters, digits, '-' or '_', starting with a letter or digit",
    r"^[a-z][a-z0-9_]*$": "lowercase letters, digits or '_', starting with a letter",
    r"^[a-z]{2,3}(_[A-Z][a-z]{3})?(_([A-Z]{2}|[0-9]{3}))?$": "a language code such as es, pt_BR, es_419 or zh_Hant",
    r"^#[0-9a-fA-F]{6}$": "a colour written #rrggbb, such as #a04000",
    r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$": "a colour written #rgb or #rrggbb, such as #a04000",
    r"^[^\s]+( [^\s]+)*$": "words separated by single spaces, with no space at either end",
    r"^[^\s0-9]+$": "one to three characters, neither spaces nor digits",
    r"^\S+$": "one word, without spaces",
}
_TYPES = {
    "string_type": "must be text",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "finite_number": "must be a number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "list_type": "must be a list ([a, b] or one '- item' per line)",
    "tuple_type": "must be a list ([a, b] or one '- item' per line)",
    "dict_type": "must be a mapping (key: value lines)",
    "model_type": "must be a mapping (key: value lines)",
    "model_attributes_type": "must be a mapping (key: value lines)",
    "none_required": "must be left out",
}
_PYTHON_NAMES = re.compile(r"\b(NoneType|None|dict|list|str|int|float|bool|tuple)\b")


def pattern_words(pattern: str) -> str:
    """What a value matching `pattern` looks like, in words; a designer's own pattern is named as
    theirs rather than shown."""
    return PATTERNS.get(pattern, "the form the field's `pattern:` asks for")


def error_message(err: Any) -> str:
    """One pydantic error (a dict from `ValidationError.errors()`) in our words."""
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind in _TYPES:
        return _TYPES[kind]
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind in ("literal_error", "enum"):
        return f"must be one of {ctx.get('expected', 'the values listed in the docs')}"
    if kind == "greater_than_equal":
        return f"must be {_num(ctx['ge'])} or more"
    if kind == "greater_than":
        return f"must be more than {_num(ctx['gt'])}"
    if kind == "less_than_equal":
        return f"must be {_num(ctx['le'])} or less"
    if kind == "less_than":
        return f"must be less than {_num(ctx['lt'])}"
    if kind == "string_too_short":
        n = ctx.get("min_length", 1)
        return "must not be empty" if n == 1 else f"must be at least {n} characters long"
    if kind == "string_too_long":
        return f"must be at most {ctx.get('max_length')} characters long"
    if kind == "too_short":
        n = ctx.get("min_length")
        return f"must have at least {n} entr{'y' if n == 1 else 'ies'}"
    if kind == "too_long":
        n = ctx.get("max_length")
        return f"must have at most {n} entr{'y' if n == 1 else 'ies'}"
    if kind == "string_pattern_mismatch":
        return f"must be {pattern_words(str(ctx.get('pattern', '')))}"
    if kind in ("value_error", "assertion_error"):
        return str(err["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    # A type we have not worded yet: pydantic's sentence, without its own turns of phrase.
    text = str(err["msg"]).replace("Input should be", "must be").replace("Input", "the value")
    return _PYTHON_NAMES.sub("value", text)


_JINJA = [
    (
        re.compile(r"'\w+ object' has no attribute '([^']+)'"),
        r"'\1' is not a field or variable here (a misspelt name?)",
    ),
    (re.compile(r"access to attribute '([^']+)' of '\w+' object is unsafe\.?"), r"'\1' is not allowed in a template"),
    (re.compile(r"'\w+ object' is not (iterable|callable)"), r"this value is not \1 here"),
]


def template_words(message: str) -> str:
    """A template engine's message without Python's object words."""
    for pattern, words in _JINJA:
        message = pattern.sub(words, message)
    return message


def given(value: Any) -> str:
    """A value as the designer wrote it (YAML's words, not Python's)."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 60 else value[:60] + "…"
        return f"'{shown}'"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    shown = str(value)
    return shown if len(shown) <= 60 else shown[:60] + "…"


def _num(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
