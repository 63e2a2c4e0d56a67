"""A pack's glossary: one term per concept in every language, checked on every translation.

content/<pack>/glossary.yaml lists the game's terms, each in every language of the pack (its
forms: singular, plural…) with a note for translators:

    - es: [becario, becarios]
      en: [Apprentice, Apprentices]
      note: a helper granted by a trick card; never "intern" or "assistant"

Wherever a text holds a term (any form, whole words, any case), its translation must hold the same
term in the other language (`glossary.term`), and must not hold the term of the text's own language
left untranslated (`glossary.untranslated`; a form both languages share, like "Clan", is exempt).
Both checks run on the pack's texts (source language to each other) and on the template labels
its decks print (written in English, to each other language).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.errors import ContentError, Loc, Problem, rel
from mazmorra.i18n.labels import TEMPLATE_LANG
from mazmorra.i18n.localise import pack_messages
from mazmorra.model.cardtext import parse
from mazmorra.source.yamlsafe import YamlError, YList, YMap, load_yaml

if TYPE_CHECKING:
    from mazmorra.i18n.labels import Label, Labels
    from mazmorra.i18n.localise import Localisation
    from mazmorra.model.content import Pack
    from mazmorra.support.memo import Memo

FILE = "glossary.yaml"
_SETTINGS = frozenset({"note", "bold", "icon"})  # an entry's keys that are not languages


@dataclass(frozen=True)
class Term:
    """One concept: its forms in each language, a note, where it is declared."""

    forms: dict[str, tuple[str, ...]]
    note: str
    loc: Loc
    bold: bool = False  # a keyword, bold wherever a text holds it (i18n/checks/house.py)
    icon: str = ""  # the verb an icon with a number follows, not a term to translate (i18n/checks/house.py)

    def pattern(self, lang: str) -> re.Pattern[str] | None:
        """Any form of the term in `lang`, as a whole word, in any case."""
        forms = self.forms.get(lang)
        return _pattern(forms) if forms else None

    def name(self, lang: str) -> str:
        return self.forms.get(lang, ("?",))[0]


@lru_cache(maxsize=4096)
def _pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    """Compiled once per term and language: the glossary runs over every text of every build, more
    patterns than the re module's own cache keeps."""
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def load_glossary(pack_root: Path) -> tuple[Term, ...]:
    """The pack's glossary (empty without a glossary.yaml); a malformed one is a located problem."""
    path = pack_root / FILE
    if not path.is_file():
        return ()
    return _load(path.resolve(), path.stat().st_mtime_ns)


@cache
def _load(path: Path, mtime_ns: int) -> tuple[Term, ...]:
    name = rel(path)
    try:
        data = load_yaml(path, name)
    except YamlError as exc:
        raise ContentError([exc.problem]) from None
    problems: list[Problem] = []
    terms = []
    if not isinstance(data, YList):
        raise ContentError([Problem("glossary.syntax", "a glossary is a list of terms", Loc(name, 1, 1))])
    for item, at in zip(data, data.locs):
        if not isinstance(item, YMap):
            problems.append(Problem("glossary.syntax", "each term is a mapping: language -> its forms, note", at))
            continue
        forms: dict[str, tuple[str, ...]] = {}
        for key, value in item.items():
            if key in _SETTINGS:
                continue
            values = value if isinstance(value, list) else [value]
            if not values or not all(isinstance(v, str) and v.strip() for v in values):
                problems.append(
                    Problem("glossary.syntax", f"'{key}': a term or a list of its forms", item.locs.get(key, at))
                )
                continue
            forms[str(key)] = tuple(v.strip() for v in values)
        if len(forms) < 2:
            problems.append(Problem("glossary.syntax", "a term needs its forms in two languages at least", at))
            continue
        bold, icon = item.get("bold", False), item.get("icon", "")
        if not isinstance(bold, bool) or not isinstance(icon, str):
            problems.append(Problem("glossary.syntax", "'bold' is true or false, 'icon' an icon's name", at))
            continue
        terms.append(Term(forms, str(item.get("note", "")), at, bold, icon))
    if problems:
        raise ContentError(problems)
    return tuple(terms)


@dataclass(frozen=True)
class Pair:
    """A text and its translation, with where the translation stands (for problems)."""

    source: str
    text: str
    loc: Loc
    component: str
    field: str


def check_glossary(
    terms: Iterable[Term],
    source_lang: str,
    lang: str,
    pairs: Iterable[Pair],
    memo: Memo | None = None,
    part: str = "texts",
) -> list[Problem]:
    """glossary.term and glossary.untranslated for every pair translated from source_lang to lang.

    What each pair met is kept for the process and, with a `memo`, between builds: keyed by the
    glossary as loaded (forms, notes, where each is declared) and the languages, so only a text or
    translation never judged with this glossary is judged (`part` keeps texts and labels apart)."""
    judged = _memo(terms, source_lang, lang, part)
    k = memo.key("glossary", part, repr(terms), source_lang, lang) if memo is not None else ""
    if memo is not None and not judged:  # this process's first look: what an earlier build judged
        stored = memo.get("glossary", k)
        if isinstance(stored, dict):
            judged.update(stored)
    rules: list[Rule] | None = None
    used: dict[tuple[str, str], list[tuple[str, str]]] = {}
    new = False
    problems: list[Problem] = []
    for pair in pairs:
        found = judged.get((pair.source, pair.text))
        if found is None:  # a text checked once (the live preview checks again only what changed)
            rules = _rules(terms, source_lang, lang) if rules is None else rules
            found = judged[(pair.source, pair.text)] = _judge(
                rules, source_lang, lang, parse(pair.source).words, parse(pair.text).words
            )  # icon names are no words
            new = True
        used[(pair.source, pair.text)] = found
        problems += [Problem(rule, message, pair.loc, pair.component, pair.field, lang=lang) for rule, message in found]
    if memo is not None and new:  # what this build judged, and only that: the entry never grows stale
        memo.put(k, used)
    return problems


def _rules(terms: Iterable[Term], source_lang: str, lang: str) -> list[Rule]:
    """Each term to check between the two languages, its patterns compiled and the forms they share."""
    rules: list[Rule] = []
    for term in terms:
        src, dst = term.pattern(source_lang), term.pattern(lang)
        if src is None or dst is None or term.icon:  # an icon's verbs are a style rule, not a term
            continue
        shared = {f.lower() for f in term.forms[source_lang]} & {f.lower() for f in term.forms[lang]}
        rules.append((term, src, dst, shared))
    return rules


_MEMO: dict[tuple[int, str, str, str], tuple[object, dict[tuple[str, str], list[tuple[str, str]]]]] = {}


def _memo(
    terms: Iterable[Term], source_lang: str, lang: str, part: str
) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """What each (source, translation) pair met with these terms, kept for the process: a glossary
    loaded once is one tuple for as long as it is unchanged (`_load`), so its identity is its key."""
    if not isinstance(terms, tuple):
        return {}
    if len(_MEMO) > 16:
        _MEMO.clear()
    kept = _MEMO.setdefault((id(terms), source_lang, lang, part), (terms, {}))  # the tuple kept: its id stays its own
    return kept[1]


Rule = tuple[Term, "re.Pattern[str]", "re.Pattern[str]", set[str]]


def _judge(rules: list[Rule], source_lang: str, lang: str, source: str, text: str) -> list[tuple[str, str]]:
    """(rule id, message) of every glossary problem of one text and its translation."""
    out = []
    spans = {id(t): [m.span() for m in src.finditer(source)] for t, src, _, _ in rules}
    for term, src, dst, shared in rules:
        own = [s for s in spans[id(term)] if not _inside_longer(s, spans, id(term))]  # "quest room", not "room"
        if own and not dst.search(text):
            out.append(
                (
                    "glossary.term",
                    f"the source says {source[own[0][0] : own[0][1]]!r}: the '{lang}' text should say "
                    f"{' / '.join(repr(f) for f in term.forms[lang])} (glossary, {term.loc})"
                    + (f"; {term.note}" if term.note else ""),
                )
            )
        left = [m.group(0) for m in src.finditer(text) if m.group(0).lower() not in shared]
        if left:
            out.append(
                (
                    "glossary.untranslated",
                    f"{left[0]!r} is the '{source_lang}' term, left untranslated in the '{lang}' text: "
                    f"{term.name(lang)!r} (glossary, {term.loc})",
                )
            )
    return out


def _inside_longer(span: tuple[int, int], spans: dict[int, list[tuple[int, int]]], own: int) -> bool:
    """Whether another term's match holds this one and more (the longer term is the one meant)."""
    a, b = span
    return any(x <= a and b <= y and (y - x) > (b - a) for key, found in spans.items() if key != own for x, y in found)


def glossary_problems(
    pack: Pack, localisation: Localisation, labels: Labels, printed: Iterable[Label], memo: Memo | None = None
) -> list[Problem]:
    """The glossary's checks on one language of a pack: its texts, and the labels its decks print
    (with a `memo`, what earlier builds judged is not judged again)."""
    terms = load_glossary(pack.root)
    lang, source = localisation.lang, pack.spec.source_language
    if not terms:
        return []
    problems = []
    if lang != source:
        by_id = {loc.component.id: loc for loc in localisation.components}
        pairs = []
        for msg in pack_messages(pack):
            owner = by_id.get(msg.component)
            local = localisation.names.get(msg.ctx) if owner is None else owner.texts.get(msg.field)
            if local is not None and local.status == "translated":
                pairs.append(Pair(msg.source, local.text, local.loc, msg.component, msg.field))
        problems += check_glossary(terms, source, lang, pairs, memo)
    if lang != TEMPLATE_LANG:
        pairs = []
        for label in printed:
            text = labels.table.get(label.msgid) or " ".join(labels.plurals.get(label.msgid, ()))
            if text:
                where = labels.where.get(label.msgid, label.loc or Loc("templates"))
                pairs.append(Pair(f"{label.msgid} {label.plural or ''}", text, where, "templates", label.msgid))
        problems += check_glossary(terms, TEMPLATE_LANG, lang, pairs, memo, "labels")
    return problems
