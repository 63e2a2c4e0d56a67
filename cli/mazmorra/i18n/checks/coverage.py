"""Glyph coverage: every character a player reads in a language that has its own fonts (pack.yaml
`fonts: {ja: …}`) is in those fonts, checked before layout, each gap at the text's own line."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from mazmorra.assets import fonts
from mazmorra.errors import Loc, Problem, did_you_mean, shown
from mazmorra.i18n.labels import Label, Labels
from mazmorra.i18n.localise import Localisation
from mazmorra.model.cardtext import parse
from mazmorra.model.content import Pack
from mazmorra.source.yamlsafe import locate

RULE = "font.missing-glyph"
ALWAYS = "0123456789+-"  # numbers every face prints: costs, icon numbers, counts


def language_faces(pack: Pack, own: dict[str, fonts.Faces], lang: str) -> tuple[fonts.Faces, fonts.Faces] | None:
    """The (body, title) faces pack.yaml gives a language, or None: the templates' own fonts."""
    chosen = pack.spec.fonts.get(lang)
    if chosen is None:
        return None
    spec = chosen
    body, title = fonts.faces(spec.body, own), fonts.faces(spec.title_family, own)
    return (body, title) if body is not None and title is not None else None


def coverage_problems(
    pack: Pack, localisation: Localisation, labels: Labels, printed: Iterable[Label]
) -> list[Problem]:
    """Every character the language's texts, labels, enum words and numbers use that its fonts lack,
    one problem per text and font file, naming the characters and their code points."""
    lang = localisation.lang
    chosen = pack.spec.fonts.get(lang)
    if chosen is None:
        return []
    spec = chosen
    where = (locate(pack.raw, ("fonts", lang)) if pack.raw is not None else None) or pack.loc
    own, _ = fonts.pack_fonts(pack.root)  # an unreadable file is reported by the layout context
    problems = []
    for family in dict.fromkeys((spec.body, spec.title_family)):
        if fonts.faces(family, own) is None:
            known = sorted(f for f in own if not f.endswith(("-bold", "-italic")))
            problems.append(
                Problem(
                    "font.unknown-family",
                    f"fonts: {lang}: no font family '{family}' in the pack's fonts/ folder (families there: "
                    f"{', '.join(known) or 'none'}){did_you_mean(family, known)}",
                    where,
                    "pack",
                    f"fonts.{lang}",
                    lang=lang,
                )
            )
    if problems:
        return problems
    faces = language_faces(pack, own, lang)
    assert faces is not None
    body, title = faces
    for text, loc, component, fld in _read(localisation, labels, printed):
        problems += _gaps(text, spec.body, body, lang, loc, component, fld)
        if title != body and fld == "name":  # what the templates set as titles; other title boxes: at layout
            problems += _gaps(text, spec.title_family, title, lang, loc, component, fld)
    problems += _gaps(ALWAYS, spec.body, body, lang, where, "pack", f"fonts.{lang}")
    return problems


def _read(
    localisation: Localisation, labels: Labels, printed: Iterable[Label]
) -> Iterator[tuple[str, Loc | None, str | None, str | None]]:
    """Each text a player reads in the language: (what it draws, where it is written, component, field)."""
    for loc_comp in localisation.components:
        for fld, lt in loc_comp.texts.items():
            if lt.status != "list":  # a list field's items come one by one as well
                yield parse(lt.text).drawn, lt.loc, loc_comp.component.id, fld
    for ctx, lt in localisation.names.items():  # the game's and the decks' names
        yield parse(lt.text).drawn, lt.loc, ctx.removesuffix(".name"), "name"
    for label in printed:
        words = dict(label.words).get(localisation.lang)
        text = words or labels.table.get(label.msgid) or " ".join(labels.plurals.get(label.msgid, ()))
        if text:
            yield text, labels.where.get(label.msgid, label.loc), "labels", label.msgid


def _gaps(
    text: str,
    family: str,
    faces: fonts.Faces,
    lang: str,
    loc: Loc | None,
    component: str | None,
    fld: str | None,
) -> list[Problem]:
    """The characters of text the family's regular or bold face lacks (bold runs and icon numbers
    are set in bold): one problem naming them and the files that lack them."""
    missing: set[str] = set()
    files = []
    for face in dict.fromkeys((faces.regular, faces.bold)):
        gone = fonts.missing_chars(text, face)
        if gone:
            missing |= gone
            files.append(shown(fonts.FONTS[face]))
    if not missing:
        return []
    chars = sorted(missing)
    return [
        Problem(
            RULE,
            f"the '{lang}' font '{family}' ({', '.join(files)}) has no glyph for {' '.join(chars)} "
            f"({' '.join(f'U+{ord(c):04X}' for c in chars)}); use another character or a font that has it "
            f"(pack.yaml fonts: {lang}:)",
            loc,
            component,
            fld,
            lang=lang,
        )
    ]
