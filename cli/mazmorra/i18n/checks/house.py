"""The house style of rules text, in every language a pack prints (warnings, declared in its glossary).

- `style.bold`: a term the glossary marks `bold: true` (a keyword such as **Cancel**) is bold
  wherever a text holds it.
- `style.icon-verb`: an icon with a number (`{draw:2}`) is a noun, what a verb written in words
  acts on ("draw {draw:2}", "take {stun:1}"), never the verb of the sentence ("Then, {draw:1}."). A
  glossary entry with `icon: draw` lists that verb's forms in each language; the check looks for one
  of them among the three words before the icon, in the same clause.
- `style.number-words`: a number from 2 to 12 is written in digits in rules text ("3 cards", not
  "three cards"); names, titles and flavour text may spell them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from mazmorra.errors import Problem, Severity
from mazmorra.i18n.checks.glossary import Term, load_glossary
from mazmorra.model.cardtext import parse

if TYPE_CHECKING:
    from mazmorra.i18n.localise import Localisation
    from mazmorra.model.content import Pack
    from mazmorra.support.memo import Memo

# Numbers a rules text writes in digits. "one" is left out: it is also an article or a pronoun.
NUMBER_WORDS = {
    "es": "dos tres cuatro cinco seis siete ocho nueve diez once doce",
    "en": "two three four five six seven eight nine ten eleven twelve",
    "fr": "deux trois quatre cinq six sept huit neuf dix onze douze",
}
PROSE_FIELDS = frozenset({"name", "title", "exalted_title", "flavour", "subtitle"})  # not rules text
_CLAUSE_END = re.compile(r"[.:;,/!?¡¿()\[\]\n]")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)
_VERB_WINDOW = 3  # words


@lru_cache(maxsize=16)
def _spelled(numbers: str) -> re.Pattern[str]:
    """A language's number words as whole words (compiled once per language)."""
    return re.compile(rf"(?<!\w)({'|'.join(numbers.split())})(?!\w)", re.IGNORECASE)


def house_problems(pack: Pack, localisation: Localisation, memo: Memo | None = None) -> list[Problem]:
    """Every house-style warning of one language's texts (source or translated), at the text's line.
    With a `memo`, what an earlier build found in a text with this glossary is not looked for again."""
    terms = load_glossary(pack.root)
    k = memo.key("house", repr(terms), localisation.lang) if memo is not None else ""
    stored = memo.get("house", k) if memo is not None else None
    known: dict[tuple[str, str, bool], list[tuple[str, str]]] = stored if isinstance(stored, dict) else {}
    used: dict[tuple[str, str, bool], list[tuple[str, str]]] = {}
    out: list[Problem] = []
    for local in localisation.components:
        for key, t in local.texts.items():
            if t.status not in ("source", "translated"):
                continue  # a list is checked item by item; an untranslated text is reported already
            lang = t.lang or localisation.lang
            text = (t.text, lang, key.split(".")[0] in PROSE_FIELDS)
            found = known.get(text)
            if found is None:
                found = style_of(t.text, lang, terms, prose=text[2])
            used[text] = found
            for rule, message in found:
                out.append(Problem(rule, message, t.loc, local.component.id, key, severity=Severity.WARNING, lang=lang))
    if memo is not None and used.keys() != known.keys():  # what this build looked at, and only that
        memo.put(k, used)
    return out


def style_of(text: str, lang: str, terms: Iterable[Term], prose: bool = False) -> list[tuple[str, str]]:
    """(rule id, message) of every house-style problem of one text written in `lang`."""
    found: list[tuple[str, str]] = []
    card = parse(text)
    bold = [m.span(1) for m in _BOLD.finditer(text)]
    for term in terms:
        if not (term.bold or term.icon):
            continue  # a plain term is the glossary check's (i18n/checks/glossary.py), not a style rule
        pattern = term.pattern(lang)
        if pattern is None:
            continue
        if term.bold:
            for m in pattern.finditer(text):
                if not any(a <= m.start() and m.end() <= b for a, b in bold):
                    found.append(
                        (
                            "style.bold",
                            f"{m.group(0)!r} is a keyword: write it bold, **{m.group(0)}** (glossary, {term.loc})",
                        )
                    )
        if term.icon:
            for tok in card.tokens:
                if tok.groups[0] != term.icon or not tok.numbered:
                    continue
                clause = _CLAUSE_END.split(card.untokened[: tok.start].replace("*", ""))[-1]
                words = [w.lower() for w in _WORD.findall(clause)][-_VERB_WINDOW:]
                if not pattern.search(" ".join(words)):
                    verbs = ", ".join(repr(f) for f in term.forms[lang][:3])
                    found.append(
                        (
                            "style.icon-verb",
                            f"{tok.written} is a noun in rules text: write its verb before it ({verbs}…), "
                            f"never the icon alone as the verb (glossary, {term.loc})",
                        )
                    )
    numbers = NUMBER_WORDS.get(lang.split("_")[0])
    if numbers and not prose:
        spelled = _spelled(numbers)
        for m in spelled.finditer(card.untokened):
            found.append(("style.number-words", f"{m.group(0)!r}: write numbers as digits in rules text"))
    return found
