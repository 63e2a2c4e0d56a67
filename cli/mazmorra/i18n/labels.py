"""Template labels: the fixed words templates print (`_("Action")`, `ngettext("%(n)d card", …, n)`).

Labels are English inside templates. Their translations ship in the tool's templates/locale/<lang>.po
and a pack may override them in its own catalogue (msgctxt "label"). They are found with Jinja's own
babel extractor, so a label inside a Jinja comment is not a label and every label knows its line; a
`{# note: … #}` comment written before a label (no other label between) is its note for translators.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from jinja2 import TemplateSyntaxError
from jinja2.ext import babel_extract

from mazmorra.errors import ContentError, Loc, Problem, rel
from mazmorra.i18n.po import catalogue_path, labels_path, load_po, msgstr_line

if TYPE_CHECKING:
    from mazmorra.i18n.catalogues.budgets import LabelBox
    from mazmorra.model.content import Kind
    from mazmorra.support.memo import Memo

LABEL_CTX = "label"
TEMPLATE_LANG = "en"  # the language labels are written in inside templates
KEYWORDS = ("_", "ngettext")
NOTE_TAG = "note:"  # `{# note: what the label is #}` before a label: its note in the catalogues
# The shipped templates of pages every pack may print whatever its kinds (rounds/removal.py's removal
# list): their labels belong to every pack's label catalogue.
PAGE_TEMPLATES = ("removed.xml.j2",)
# What a face printed in the source language that is not a label: another component's text
# (`components[id].name`), noted among its labels as BORROWED + "id.field".
BORROWED = "\x1f"
# The draft band's words (layout/face.py), translated like labels; English where a language has none.
BAND_WORDS = (
    ("UNTRANSLATED", "the draft band over a face that prints a text in another language"),
    ("FUZZY", "the draft band over a face that prints a text whose translation is marked fuzzy"),
)
# The duplex calibration sheet's words (`mazmorra calibrate`, render/impose/calibrate.py), translated
# like labels: the tool's catalogue, then a pack's when the sheet is made for one.
_SHEET = "the duplex calibration sheet (mazmorra calibrate)"
CALIBRATION_WORDS = (
    ("X mm (+ right)", f"{_SHEET}: the horizontal scale's caption; + is to the right"),
    ("Y mm (+ down)", f"{_SHEET}: the vertical scale's caption; + is downwards"),
    ("TOP", f"{_SHEET}: beside arrows that point to the top edge of the sheet"),
    ("Duplex calibration · front · %(paper)s", f"{_SHEET}: the front page's title; paper: A4, LETTER…"),
    ("Back · read here · %(paper)s", f"{_SHEET}: the back page's title; paper: A4, LETTER…"),
    ("%(paper)s landscape", f"{_SHEET}: a paper size turned sideways (A4 landscape)"),
    ("long edge", f"{_SHEET}: the edge a duplex printer flips the sheet on"),
    ("short edge", f"{_SHEET}: the edge a duplex printer flips the sheet on"),
    (
        "Print both pages double-sided, flipping on the %(edge)s, at actual size (never “fit to page”).",
        f"{_SHEET}: step 1; edge: long edge or short edge, translated",
    ),
    (
        "Hold the sheet up to a light with the back facing you and the TOP arrows at the top.",
        f"{_SHEET}: step 2; TOP as translated on the sheet",
    ),
    (
        "Read where this side's centre cross shows through on the back's scales: X on the horizontal "
        "scale (+ right), Y on the vertical one (+ down).",
        f"{_SHEET}: step 3",
    ),
    (
        "Build with --back-offset X,Y (for example --back-offset 1.5,-0.5), then print this sheet again "
        "with the same --back-offset: both sides' marks should now coincide.",
        f"{_SHEET}: step 4; --back-offset is the command's option, never translated",
    ),
    (
        "The front's centre cross falls at X, Y on these scales: pass --back-offset X,Y.",
        f"{_SHEET}: the back page's first line; --back-offset is never translated",
    ),
    (
        "The four corner crosses should be off by as much as the centre; if they differ, the printer "
        "scales or skews its backs: print at actual size.",
        f"{_SHEET}: the back page",
    ),
    (
        "If the TOP arrows point down through the paper, the sheet was flipped on the other edge: use "
        "--duplex %(other)s.",
        f"{_SHEET}: the back page; other: short or long, the option's value, never translated",
    ),
    (
        "This back is already moved by --back-offset %(x)s,%(y)s.",
        f"{_SHEET}: the back page, when it was made with an offset",
    ),
)
# The template environment's whitespace options, as the extractor wants them.
_EXTRACT_OPTIONS = {"trim_blocks": "true", "lstrip_blocks": "true"}


@dataclass(frozen=True)
class Label:
    msgid: str
    plural: str | None = None
    loc: Loc | None = None  # where a template first prints it
    words: tuple[tuple[str, str], ...] = ()  # an enum value's own word per language (no catalogue needed there)
    note: str = ""  # what the template says of it (`{# note: … #}`), for translators
    box: LabelBox | None = None  # where it prints and the box it has (layout/text/budget.py), when measured
    measured: bool = False  # its box was looked for (i18n update, add): its entries carry its budgets


def band_labels() -> list[Label]:
    """The draft band's words, as labels (a pack may translate them)."""
    return [Label(word, note=note) for word, note in BAND_WORDS]


def calibration_labels() -> list[Label]:
    """The calibration sheet's words, as labels (a pack may translate them)."""
    return [Label(word, note=note) for word, note in CALIBRATION_WORDS]


def template_labels(files: Iterable[Path]) -> list[Label]:
    """Labels the given template files print, in first-seen order (file by file, line by line), each
    at its first line, with the first note written for it."""
    seen: dict[str, Label] = {}
    for path in files:
        real = path.resolve()
        found = _file_labels(real, path.stat().st_mtime_ns)
        name = rel(real)  # from the folder the command runs in now (the parse is kept across folders)
        for label in found:
            first = seen.get(label.msgid)
            if first is None:
                seen[label.msgid] = replace(label, loc=Loc(name, label.loc.line, 1)) if label.loc else label
            elif label.note and not first.note:  # a note written where the label prints again
                seen[label.msgid] = replace(first, note=label.note)
    return list(seen.values())


def choice_labels(kinds: Iterable[Kind]) -> list[Label]:
    """The labels of the enum values kinds declare with a word and an icon (`values: {reach: {label:
    Reach}}`): labels like a template's, each at the line of the field that declares it."""
    seen: dict[str, Label] = {}
    for kind in kinds:
        for name, decl in kind.fields.items():
            item = decl.item() if decl.type == "list" else decl
            for choice in item.choices.values():
                words = tuple(sorted(choice.label.items())) if isinstance(choice.label, dict) else ()
                seen.setdefault(choice.msgid, Label(choice.msgid, None, kind.declared_at.get(name, kind.source), words))
    return list(seen.values())


@cache
def _file_labels(path: Path, mtime_ns: int) -> tuple[Label, ...]:
    out = []
    name = str(path)  # absolute: shown relative to the working folder by template_labels
    with path.open("rb") as fh:
        try:
            for line, func, message, comments in babel_extract(fh, KEYWORDS, [NOTE_TAG], _EXTRACT_OPTIONS):
                where = Loc(name, line, 1)
                note = " ".join(" ".join(c.split()) for c in comments)
                if func == "ngettext" and isinstance(message, tuple) and len(message) >= 2:
                    if isinstance(message[0], str) and isinstance(message[1], str):
                        out.append(Label(message[0], message[1], where, note=note))
                elif isinstance(message, str):
                    out.append(Label(message, None, where, note=note))
        except TemplateSyntaxError:  # reported, with its line, when the template is compiled
            return ()
    return tuple(out)


class Labels:
    """Template labels in one language: the pack's label catalogue (locale/labels/<lang>.po), its main
    catalogue, then the tool's, then English as written.

    Callable as `_("Label")`; `ngettext(singular, plural, n)` picks the plural form of the language
    (its catalogue's Plural-Forms) and fills `%(n)s`/`%(n)d` with n. Labels with no translation
    are remembered in `missing`, to be reported at the template line that prints them; so are labels
    the pack's own catalogues mark fuzzy (`fuzzy`: where), which print as if the entry were not there.
    """

    def __init__(self, pack_root: Path | None, shared: Path, lang: str, memo: Memo | None = None):
        self.lang = lang
        self.table: dict[str, str] = {}
        self.plurals: dict[str, list[str]] = {}
        self.missing: dict[str, None] = {}
        self.where: dict[str, Loc] = {}  # a label's translation: its catalogue and line
        self.fuzzy: dict[str, Loc] = {}  # labels the pack's catalogues mark fuzzy: the entry's line
        self.plural_index: Callable[[int], int] = gettext.c2py("(n != 1)")
        for n, po in enumerate(
            (
                load_po(shared / "locale" / f"{lang}.po", memo),  # (a catalogue an earlier build read: from `memo`)
                load_po(catalogue_path(pack_root, lang), memo) if pack_root is not None else None,  # (no pack: the
                load_po(labels_path(pack_root, lang), memo) if pack_root is not None else None,  # tool's words only)
            )
        ):
            if po is None:
                continue
            forms = po.metadata.get("Plural-Forms", "")
            m = re.search(r"plural\s*=\s*([^;]+)", forms)
            if m:
                try:
                    self.plural_index = gettext.c2py(m.group(1).strip())
                except (ValueError, SyntaxError):
                    raise ContentError(
                        [
                            Problem(
                                "i18n.po-syntax",
                                f"malformed Plural-Forms header: {forms!r}",
                                Loc(rel(po.fpath), 1, 1),
                            )
                        ]
                    ) from None
            name = rel(po.fpath)  # once per catalogue: it resolves the path
            for e in po:
                if e.msgctxt not in (None, LABEL_CTX) or e.obsolete:
                    continue
                if "fuzzy" in e.flags:
                    if n and e.msgctxt == LABEL_CTX:  # the pack's own: said, never printed silently
                        self.fuzzy[e.msgid] = Loc(name, msgstr_line(e), 1)
                    continue
                self.fuzzy.pop(e.msgid, None)  # a later catalogue's translation stands
                if e.msgid_plural and e.msgstr_plural and all(e.msgstr_plural.values()):
                    self.plurals[e.msgid] = [e.msgstr_plural[k] for k in sorted(e.msgstr_plural)]
                elif e.msgstr:
                    self.table[e.msgid] = e.msgstr
                else:
                    continue
                self.where[e.msgid] = Loc(name, msgstr_line(e), 1)

    def __call__(self, msgid: str) -> str:
        return self.word(msgid, self.missing)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.words(singular, plural, n, self.missing)

    def word(self, msgid: str, missing: dict[str, None]) -> str:
        """A label in this language; one it has no translation for (or a fuzzy one) is noted in `missing`."""
        if msgid in self.table and msgid not in self.fuzzy:
            return self.table[msgid]
        if self.lang != TEMPLATE_LANG or msgid in self.fuzzy:
            missing.setdefault(msgid, None)
        return self.table.get(msgid, msgid)

    def words(self, singular: str, plural: str, n: int, missing: dict[str, None]) -> str:
        """A plural label for n in this language; one it has no translation for is noted in `missing`."""
        forms = self.plurals.get(singular) if singular not in self.fuzzy else None
        if forms:
            text = forms[min(self.plural_index(n), len(forms) - 1)]
        else:
            if self.lang != TEMPLATE_LANG or singular in self.fuzzy:
                missing.setdefault(singular, None)
            text = singular if n == 1 else plural
        return text.replace("%(n)d", str(n)).replace("%(n)s", str(n))


class FaceLabels:
    """The labels one face (or page) prints: looked up in its language's `Labels`, and the ones it
    finds untranslated noted here, on what the face hands back, never in the language's table."""

    def __init__(self, labels: Labels):
        self.labels = labels
        self.lang = labels.lang
        self.missing: dict[str, None] = {}
        # what it returned -> (the label's msgid, the label as written): the face's <text> boxes find
        # their labels in it (layout/text/labelbox.py)
        self.said: dict[str, tuple[str, str]] = {}

    def __call__(self, msgid: str) -> str:
        text = self.labels.word(msgid, self.missing)
        self.said.setdefault(text, (msgid, msgid))
        return text

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        text = self.labels.words(singular, plural, n, self.missing)
        written = (singular if n == 1 else plural).replace("%(n)d", str(n)).replace("%(n)s", str(n))
        self.said.setdefault(text, (singular, written))
        return text

    def translated(self, msgid: str) -> Loc | None:
        """Where the label's translation printed here is written (its catalogue entry), None when it
        prints as written (English, or a fuzzy or missing entry's fallback)."""
        if self.lang == TEMPLATE_LANG or msgid in self.labels.fuzzy or msgid in self.missing:
            return None
        return self.labels.where.get(msgid)

    def borrowed(self, component: str, field: str) -> None:
        """Another component's text the face printed in the source language (a draft's fallback)."""
        self.missing.setdefault(f"{BORROWED}{component}.{field}", None)


def printed_labels(noted: Iterable[str]) -> list[str]:
    """The labels among what a face noted untranslated (not other components' texts)."""
    return [m for m in noted if not m.startswith(BORROWED)]


def number_formatter(lang: str) -> Callable[..., str]:
    """`num(2.5)` in templates: a number written the way the language writes it (2,5 in Spanish);
    `num(x, 1)`: with exactly one decimal (8,3 and 25,0)."""
    from babel.numbers import format_decimal

    def num(value: float, decimals: int | None = None) -> str:
        pattern = None if decimals is None else "#,##0." + "0" * decimals if decimals > 0 else "#,##0"
        try:
            return str(format_decimal(value, format=pattern, locale=lang))
        except Exception:  # an unknown locale: plain digits
            return str(value) if decimals is None else f"{value:.{decimals}f}"

    return num
