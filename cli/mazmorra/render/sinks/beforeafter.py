"""A playtest round in the gallery: each changed component's earlier faces beside its new ones, the
added ones marked new, the removed ones with their earlier faces only.

The gallery's pictures of one component, in every language it is built in, as HTML; its words
(before, after, new…) are template labels, translated by the pack's catalogue, then the tool's, so
they follow the gallery's language switch like every text of the pack.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

ADDED, REMOVED, CHANGED = "added", "removed", "changed"  # as `rounds.compare` names them

# The words of a round's gallery, in English as the labels are written; `{name}` and `{rev}` are
# filled in.
WORDS = (
    "{name} (front)",
    "{name} (back)",
    "Before ({rev})",
    "After",
    "New",
    "Changed",
    "Take out of the deck",
    "{name} (front, before)",
    "{name} (back, before)",
    "{name} (front, after)",
    "{name} (back, after)",
)
_BADGE = {ADDED: "New", CHANGED: "Changed", REMOVED: "Take out of the deck"}
SIDES = ("front", "back")


@dataclass
class Before:
    """A component's part in a round, in one language: how it differs from the earlier revision and
    the addresses of its earlier pictures ("": none)."""

    status: str  # added | removed | changed
    front: str = ""
    back: str = ""
    copies: int = 0  # the earlier revision's


@dataclass
class ShownComponent:
    """One component in one language, as the gallery shows it."""

    name: str
    front: str  # image path relative to the gallery ("": none, a removed component)
    back: str  # "" when it has no back
    copies: int
    state: str  # source | translated | fuzzy | untranslated (stage 3's verdict)
    fields: tuple[str, ...]  # the texts behind that state
    stamp: str = ""  # its version stamp (a playtest build)
    round: Before | None = None  # a playtest round: how it differs from the earlier revision


def per_lang(attr: str, values: dict[str, str], langs: list[str]) -> str:
    """One attribute per language (`data-t-es="…" data-t-en="…"`), read by the language switch."""
    return " ".join(f'{attr}-{lang.lower()}="{escape(values.get(lang, ""))}"' for lang in langs)


def _picture(side: str, srcs: dict[str, str], alts: dict[str, str], first: str, langs: list[str]) -> str:
    src = srcs.get(first) or next(s for s in srcs.values() if s)
    return (
        f'<a class="zoom" href="{escape(src)}" {per_lang("data-src", srcs, langs)}>'
        f'<img class="thumb" data-side="{side}" src="{escape(src)}" lang="{escape(first)}" '
        f'{per_lang("data-src", srcs, langs)} alt="{escape(alts.get(first) or next(iter(alts.values())))}" '
        f'{per_lang("data-alt", alts, langs)} loading="lazy"></a>'
    )


def pictures(
    shown: dict[str, ShownComponent], first: str, langs: list[str], words: dict[str, dict[str, str]], since: str
) -> tuple[str, str, int]:
    """A component's pictures (the `.faces` block), its round badge ("" outside a round) and how many
    faces it shows. In a round, a changed component's earlier faces come first, captioned, then its
    new ones; in a language where it did not change, its faces alone."""
    one = shown.get(first) or next(iter(shown.values()))
    rounds = {lang: s.round for lang, s in shown.items() if s.round is not None}

    def now(suffix: dict[str, str]) -> list[str]:
        out = []
        for side in SIDES:
            srcs = {lang: getattr(s, side) for lang, s in shown.items()}
            if not getattr(one, side):
                continue
            alts = {lang: words[lang]["{name} (" + side + suffix.get(lang, "") + ")"] for lang in shown}
            out.append(
                _picture(
                    side, srcs, {lang: a.replace("{name}", shown[lang].name) for lang, a in alts.items()}, first, langs
                )
            )
        return out

    if not rounds:
        imgs = now({})
        return f'<div class="faces">{"".join(imgs)}</div>', "", len(imgs)
    changed = [lang for lang, b in rounds.items() if b.front]  # earlier pictures shown
    figures, count = [], 0
    if changed:
        earlier = []
        for side in SIDES:
            srcs = {lang: getattr(b, side) for lang, b in rounds.items() if getattr(b, side)}
            if not srcs:
                continue
            alts = {
                lang: words[lang]["{name} (" + side + ", before)"].replace("{name}", shown[lang].name) for lang in srcs
            }
            earlier.append(_picture(side, srcs, alts, first, langs))
        caption = {lang: words[lang]["Before ({rev})"].replace("{rev}", since) for lang in langs}
        figures.append(_figure("was", earlier, caption, changed, first, langs))
        count += len(earlier)
    imgs = now({lang: ", after" for lang in changed})
    if imgs:
        caption = {lang: words[lang]["After"] if lang in changed else "" for lang in langs}
        figures.append(_figure("now", imgs, caption, list(shown), first, langs))
        count += len(imgs)
    badge = {lang: words[lang][_BADGE[b.status]] for lang, b in rounds.items()}
    status = rounds.get(first, next(iter(rounds.values()))).status
    html = (
        f'<p class="round round-{status}" lang="{escape(first)}" {per_lang("data-t", badge, langs)}>'
        f"{escape(badge.get(first, ''))}</p>"
    )
    return f'<div class="faces before-after">{"".join(figures)}</div>', html, count


def _figure(cls: str, imgs: list[str], caption: dict[str, str], shown: list[str], first: str, langs: list[str]) -> str:
    """One side of the comparison, captioned; hidden in the languages it has no pictures in."""
    hidden = " hidden" if first not in shown else ""
    return (
        f'<figure class="{cls}" data-langs="{escape(" ".join(shown))}"{hidden}>'
        f'<figcaption lang="{escape(first)}" {per_lang("data-t", caption, langs)}>{escape(caption.get(first, ""))}'
        f'</figcaption><div class="pair">{"".join(imgs)}</div></figure>'
    )


def copies(shown: dict[str, ShownComponent], first: str) -> str:
    """`× n`, or `× 2 → 3` when a round changed the copies."""
    one = shown.get(first) or next(iter(shown.values()))
    if one.round is not None and one.round.status == CHANGED and one.round.copies != one.copies:
        return f"× {one.round.copies} → {one.copies}"
    return f"× {one.copies}"


CSS = """
.comp.in-round { grid-column: span 2; }
.before-after { display: flex; gap: .6em; align-items: flex-start; }
.before-after figure { margin: 0; flex: 1; display: flex; flex-wrap: wrap; gap: .4em; min-width: 0; }
.before-after figure[hidden] { display: none; }
.before-after figcaption { width: 100%; font-size: .85em; font-weight: bold; }
.before-after figcaption:empty { display: none; }
.before-after .was figcaption { color: #7a3e00; }
.before-after .pair { display: flex; gap: .4em; width: 100%; }
.before-after .was .thumb { outline: 2px dashed #b07020; outline-offset: 1px; }
.round { display: inline-block; margin: 0 0 .4em; padding: 0 .5em; border-radius: 3px; font-size: .85em;
  font-weight: bold; background: #fcf0c8; color: #222; }
.round:empty { display: none; }
.round-added { background: #dff0d8; }
.round-removed { background: #f6d3d0; }
"""
