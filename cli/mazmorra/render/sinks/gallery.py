"""A static HTML gallery of a pack: output/<pack>/gallery/index.html plus img/<lang>/<deck>/*.jpg.

Every component, front and back, in every language built, with a language switch, each
component's translation state per language (from stage 3, carried by each item) and its build problems;
click a picture to enlarge it; in a playtest round, each change beside what it was
(`beforeafter.py`). One self-contained file: inline CSS and JS, no network, opens from the file
system. The rasteriser is imported by the step that draws: the sink table reads this module's
declaration without it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.errors import Problem, Severity, once
from mazmorra.render.sinks import beforeafter
from mazmorra.render.sinks.beforeafter import CHANGED, REMOVED, Before, ShownComponent, per_lang, pictures
from mazmorra.render.sinks.sink import Part, Sink, SinkContext, back_image, prune
from mazmorra.render.sinks.table import SinkDecl, SinkOption
from mazmorra.support.filenames import output_path

if TYPE_CHECKING:
    from mazmorra.assets.icons import IconSet
    from mazmorra.contracts import Document, Earlier, Face, Item, Round
    from mazmorra.model.content import Pack

DPI = 150  # enough to read a card enlarged on a screen; thumbnails are the same files, shown small
MAX_PIXELS = 12e6  # a poster-sized map is shown at a lower resolution: still larger than any screen


@dataclass
class _Deck:
    names: dict[str, str] = field(default_factory=dict)  # lang -> name
    components: dict[str, dict[str, ShownComponent]] = field(default_factory=dict)  # id -> lang -> shown
    pack_names: dict[str, str] = field(default_factory=dict)  # lang -> the pack's name in it


class GallerySink(Sink):
    """The HTML gallery."""

    def __init__(self, ctx: SinkContext):
        super().__init__(ctx)
        self.folder = output_path(ctx.out_dir, "{pack}/gallery", pack=ctx.pack.id)
        self.langs: list[str] = []
        self.decks: dict[str, _Deck] = {}
        self._doc = _Deck()  # the document being added
        self._backs: dict[Path, str] = {}  # a deck back's image -> its address in the page
        self._base: Path | None = None  # the document's image folder (named once a document)
        self.problems: list[Problem] = []  # every document's, as absorbed
        self.rounds: dict[str, Round] = ctx.rounds  # a playtest round's earlier faces, per language
        self._earlier_icons: dict[Path | None, IconSet] = {}

    def start(self, doc: Document) -> None:
        self._doc, self._backs, self._base = _Deck(), {}, None

    def add(self, doc: Document, item: Item) -> None:
        deck = self._doc
        deck.names[doc.lang] = doc.deck_name
        deck.pack_names[doc.lang] = doc.pack_name
        comp = item.front.component
        if doc.lang in deck.components.get(comp, {}):  # a component drawn copy by copy: its first, all counted
            deck.components[comp][doc.lang].copies += item.copies
            return
        if self._base is None:  # one folder a document: named (and checked) once, not once a face
            self._base = output_path(self.folder, "img/{lang}/{deck}", lang=doc.lang, deck=doc.file_name)
        base = self._base
        wanted = [(self.file(base, "{component}-front.jpg", component=comp), item.front)]
        keys = [item.keys[0]]  # each wanted face's face-cache key
        image = None  # the back's
        if item.back is not None:
            pattern, values = back_image(doc, item, ".jpg")
            image = self.file(base, pattern, **values)
            if image not in self._backs:  # a deck back is drawn once per deck and language
                wanted.append((image, item.back))
                keys.append(item.keys[1])
        pictures = self.jpegs(doc.lang, wanted, keys=keys)
        srcs = {target: self.picture(target, data) for (target, _), data in zip(wanted, pictures)}
        back = ""
        if image is not None:
            if item.shared_back:
                self._backs.setdefault(image, srcs.get(image, ""))
            back = srcs.get(image) or self._backs[image]
        status = self.status(doc, item)
        before = None
        if status is not None:
            rnd = self.rounds.get(doc.lang)
            earlier = rnd.earlier.get(comp) if rnd is not None else None
            before = Before(status, copies=earlier.copies if earlier is not None else 0)
            if status == CHANGED and earlier is not None and rnd is not None:
                before = self.earlier_pictures(doc.lang, doc.deck_id, comp, earlier, rnd.root, status, self.picture)
        deck.components.setdefault(comp, {})[doc.lang] = ShownComponent(
            item.name, srcs[wanted[0][0]], back, item.copies, item.state, item.untranslated, item.stamp, before
        )

    def status(self, doc: Document, item: Item) -> str | None:
        """How a component differs from a playtest round's earlier revision (None: as before, or no
        round): the round's own comparison."""
        rnd = self.rounds.get(doc.lang)
        return rnd.status.get(item.front.component) if rnd is not None else None

    def earlier_pictures(
        self,
        lang: str,
        deck: str,
        comp: str,
        earlier: Earlier,
        root: Path | None,
        status: str,
        picture: Callable[[Path, bytes], str],
    ) -> Before:
        """A component's earlier faces, drawn with the earlier revision's icons and images by the
        gallery's own rasteriser, as `picture` stages them."""
        from mazmorra.assets.icons import IconSet

        if root not in self._earlier_icons:
            self._earlier_icons[root] = IconSet.for_pack(root)
        icons = self._earlier_icons[root]
        name = next((d.file_name(lang) for d in self.pack.decks if d.id == deck), deck)  # a deck since removed: its id
        base = output_path(self.folder, "img/{lang}/{deck}/before", lang=lang, deck=name)
        wanted = [(self.file(base, "{component}-front.jpg", component=comp), earlier.front)]
        if earlier.back is not None:
            wanted.append((self.file(base, "{component}-back.jpg", component=comp), earlier.back))
        srcs = [picture(target, data) for (target, _), data in zip(wanted, self.jpegs(lang, wanted, icons))]
        return Before(status, srcs[0], srcs[1] if len(srcs) > 1 else "", earlier.copies)

    def removed(self, picture: Callable[[Path, bytes], str]) -> dict[str, dict[str, dict[str, ShownComponent]]]:
        """Deck -> component -> language -> the components a round took out, with their earlier faces."""
        out: dict[str, dict[str, dict[str, ShownComponent]]] = {}
        for lang, rnd in self.rounds.items():
            for comp, status in rnd.status.items():
                earlier = rnd.earlier.get(comp)
                if status != REMOVED or earlier is None:
                    continue
                before = self.earlier_pictures(lang, earlier.deck, comp, earlier, rnd.root, REMOVED, picture)
                shown = ShownComponent(earlier.name, "", "", earlier.copies, "source", (), "", before)
                out.setdefault(earlier.deck, {}).setdefault(comp, {})[lang] = shown
        return out

    def jpegs(
        self, lang: str, wanted: list[tuple[Path, Face]], icons: IconSet | None = None, keys: Sequence[str] = ()
    ) -> list[bytes]:
        """The JPEG of every wanted face (drawn with `icons`: a round's earlier revision's); `keys`, when
        given, are the faces' face-cache keys (what a sink keeping pictures may find them by)."""
        from mazmorra.render.raster import Rasteriser, dpi_frame, fitting_dpi, jpeg_bytes

        frames = [(f, dpi_frame(f, fitting_dpi(f, DPI, False, MAX_PIXELS), bleed=False)) for _, f in wanted]
        images = Rasteriser(icons or self.icons, lang).images(frames)
        return [jpeg_bytes(img, 85) for img in images]

    def picture(self, target: Path, data: bytes) -> str:
        """Stage one picture of the gallery; returns its address from the page."""
        self.write(target, data)
        return target.relative_to(self.folder).as_posix()

    def end(self, doc: Document) -> Part:
        part = super().end(doc)
        part.data = self._doc
        return part

    def absorb(self, doc: Document, part: Part, problems: list[Problem]) -> None:
        super().absorb(doc, part, problems)
        self.problems += problems
        shown: _Deck = part.data
        if not shown.components:
            return
        if doc.lang not in self.langs:
            self.langs.append(doc.lang)
        deck = self.decks.setdefault(doc.deck_id, _Deck())
        deck.names.update(shown.names)
        deck.pack_names.update(shown.pack_names)
        for comp, langs in shown.components.items():
            deck.components.setdefault(comp, {}).update(langs)

    def finish(self, earlier: list[Problem]) -> list[Problem]:
        for deck_id, comps in self.removed(self._stage_now).items():
            deck = self.decks.setdefault(deck_id, _Deck())
            for comp, langs in comps.items():
                deck.components.setdefault(comp, {}).update(langs)
                for lang in langs:
                    deck.names.setdefault(lang, self.rounds[lang].earlier[comp].deck_name)
                    self.langs += [] if lang in self.langs else [lang]
        if self.langs:
            since = next(iter(self.rounds.values())).since if self.rounds else ""
            numbers = self.numbers()
            page = render_gallery(
                self.pack, self.langs, self.decks, once(earlier + self.problems), extra=numbers, since=since
            )
            target = output_path(self.folder, "index.html")
            self.ctx.stage(target).write_bytes(page.encode("utf-8"))
            self.written.setdefault(self.folder, set()).add(target)
        return []

    def numbers(self) -> str:
        """The Numbers page beside the gallery (what the pack's components do in play, `mazmorra
        stats` as charts with their tables) and the gallery's link to it."""
        from mazmorra.stats.statspage import gallery_numbers

        target = output_path(self.folder, "numbers.html")
        self.ctx.stage(target).write_bytes(gallery_numbers(self.pack, self.langs).encode("utf-8"))
        self.written.setdefault(self.folder, set()).add(target)
        return '<footer><a href="numbers.html">Numbers: odds, dice tables and curves</a></footer>'

    def _stage_now(self, target: Path, data: bytes) -> str:
        """Stage one picture of the page itself (not of a document): a removed component's."""
        self.ctx.stage(target).write_bytes(data)
        self.written.setdefault(target.parent, set()).add(target)
        return target.relative_to(self.folder).as_posix()

    def committed(self) -> None:
        prune(self.folder / "img", {f for files in self.written.values() for f in files}, (".jpg",))

    def summary(self) -> list[str]:
        files = [f for found in self.written.values() for f in found]
        images = sum(f.suffix == ".jpg" for f in files)
        return [f"{self.folder / 'index.html'} ({images} images)"] if files else []


SINK = SinkDecl(
    "gallery",
    GallerySink,
    "docs/exports.md#gallery",
    (
        SinkOption(
            "gallery",
            "--gallery",
            bool,
            False,
            "An HTML gallery with translation status: output/<pack>/gallery/index.html.",
            asks=True,
        ),
    ),
    order=60,
)


PAGE_PART, SUMMARY_PART = "\0page", "\0summary"  # `parts`: the page without its components, its summary


def render_gallery(
    pack: Pack,
    langs: list[str],
    decks: dict[str, _Deck],
    problems: list[Problem],
    extra: str = "",
    since: str = "",
    parts: dict[str, str] | None = None,
) -> str:
    """The gallery page: plain HTML, the language switch a few lines of inline JS; `extra` is more
    HTML for the end of the body (the live preview's links, overlay and script); `since`: a playtest
    round's earlier revision, whose faces show beside the changed ones. The page's own words are
    English; every text of the pack (names, picture descriptions, a round's before and after)
    switches language with it, marked with its `lang`. `parts`, when given, receives each
    component's `<article>` by its element id, the page with those left out (PAGE_PART) and the
    summary line (SUMMARY_PART): the live preview sends a page that differs only in a few
    components as those components."""
    by_comp: dict[tuple[str, str], list[Problem]] = {}
    for p in problems:
        if p.component:
            by_comp.setdefault((p.component, p.lang or ""), []).append(p)
    first = langs[0]
    words = {lang: _words(pack, lang) for lang in langs}

    def in_langs(attr: str, values: dict[str, str]) -> str:
        return per_lang(attr, values, langs)

    cards, bare = [], []  # each deck's section; the same without its components (`parts`)
    totals = {"components": 0, "faces": 0, "problems": 0}
    for deck_id, deck in decks.items():
        items, ids = [], []
        for comp_id, shown in deck.components.items():
            one = shown.get(first) or next(iter(shown.values()))
            totals["components"] += 1
            faces, badge, count = pictures(shown, first, langs, words, since)
            totals["faces"] += count
            wide = " in-round" if any(s.round is not None and s.round.front and s.front for s in shown.values()) else ""
            status = []
            for lang in langs:
                here = shown.get(lang)
                if here is not None and not here.front:
                    continue  # removed in a round: no translation to judge
                state, fields = (here.state, here.fields) if here else ("source", ())
                title = f' title="{escape(", ".join(fields))}"' if fields else ""
                status.append(
                    f'<li class="st st-{state}" data-lang="{escape(lang)}"{title}><b>{escape(lang)}</b> {state}</li>'
                )
            notes = []
            for lang in ["", *langs]:
                for p in by_comp.get((comp_id, lang), []):
                    kind = "error" if p.severity is Severity.ERROR else "warning"
                    label = "overflow" if p.rule == "text.overflow" else kind
                    notes.append(
                        f'<li class="pb pb-{kind}" data-lang="{escape(lang)}">'
                        f"<b>{escape(lang or 'all')}</b> {label}: {escape(p.message)} "
                        f"<code>{escape(str(p.loc or ''))}</code></li>"
                    )
            totals["problems"] += len(notes)
            ok = '<li class="pb pb-ok">valid, no overflow</li>' if not notes else ""
            ids.append(f"c-{comp_id}")
            items.append(
                f'<article class="comp{wide}" id="c-{escape(comp_id)}">{badge}{faces}'
                f'<h3 class="name" lang="{escape(first)}" {in_langs("data-t", {lg: s.name for lg, s in shown.items()})}>'
                f"{escape(one.name)}</h3>"
                f'<p class="meta"><code>{escape(comp_id)}</code> {beforeafter.copies(shown, first)}'
                f"{_stamp(shown, first, in_langs)}</p>"
                f'<ul class="status">{"".join(status)}</ul>'
                f'<ul class="problems">{"".join(notes) or ok}</ul></article>'
            )
        head = (
            f'<section class="deck" id="d-{escape(deck_id)}" aria-labelledby="h-{escape(deck_id)}">'
            f'<h2 id="h-{escape(deck_id)}" lang="{escape(first)}" {in_langs("data-t", deck.names)}>'
            f'{escape(deck.names.get(first, deck_id))}</h2><div class="grid">'
        )
        cards.append(f"{head}{''.join(items)}</div></section>")
        if parts is not None:
            parts.update(zip(ids, items))
            bare.append(f"{head}{chr(0).join(ids)}</div></section>")
    toc = "".join(
        f'<a href="#d-{escape(d)}" lang="{escape(first)}" {in_langs("data-t", deck.names)}>'
        f"{escape(deck.names.get(first, d))}</a>"
        for d, deck in decks.items()
    )
    buttons = "".join(
        f'<button type="button" class="lang" data-lang="{escape(lang)}" '
        f'aria-pressed="{str(lang == first).lower()}">{escape(lang)}</button>'
        for lang in langs
    )
    names = {lang: n for deck in decks.values() for lang, n in deck.pack_names.items() if n}
    title = names.get(first, pack.spec.name)
    summary = f"{totals['components']} components, {totals['faces']} faces, {totals['problems']} warning(s)"
    page = {
        "lang": escape(first),
        "title": escape(title),
        "titles": in_langs("data-t", names),
        "buttons": buttons,
        "toc": toc,
        "langs": json.dumps(langs),
        "css": _CSS + beforeafter.CSS,
        "js": _JS,
        "extra": extra,
    }
    if parts is not None:
        parts[PAGE_PART] = _PAGE.format(**page, summary="", decks="".join(bare))
        parts[SUMMARY_PART] = summary
    return _PAGE.format(**page, summary=escape(summary), decks="".join(cards))


def _stamp(shown: dict[str, ShownComponent], first: str, per_lang: Callable[[str, dict[str, str]], str]) -> str:
    """A component's version stamp in a playtest build (its hash differs from language to language)."""
    one = shown.get(first) or next(iter(shown.values()))
    if not one.stamp:
        return ""
    stamps = {lang: s.stamp for lang, s in shown.items()}
    return f' <code class="stamp" title="version stamp" {per_lang("data-t", stamps)}>{escape(one.stamp)}</code>'


def _words(pack: Pack, lang: str) -> dict[str, str]:
    """How pictures are described in `lang` ("{name} (front)"…) and a round's words (before, after,
    new…), from the label catalogues (the pack's, then the tool's); English where a language has
    none yet."""
    from mazmorra.i18n.labels import Labels
    from mazmorra.support.paths import templates_dir

    labels = Labels(pack.root, templates_dir(), lang)
    return {w: labels(w) for w in beforeafter.WORDS}


_CSS = """
:root { --ink: #222; --paper: #f4f1ea; --line: #d8d2c4; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--ink); background: var(--paper); }
header { position: sticky; top: 0; z-index: 1; display: flex; gap: 1em; align-items: center;
  padding: .6em 1.2em; background: #2b2622; color: #fff; }
header h1 { font-size: 1.2em; margin: 0; flex: 1; }
header .summary { opacity: .8; }
button.lang { font: inherit; padding: .2em .8em; border: 1px solid #fff8; background: none; color: #fff;
  border-radius: 3px; cursor: pointer; text-transform: uppercase; }
button.lang[aria-pressed="true"] { background: #fff; color: #2b2622; }
main { padding: 0 1.2em 2em; }
.toc { display: flex; flex-wrap: wrap; gap: .3em 1em; padding: .8em 0 0; }
.toc a { color: inherit; }
.deck { scroll-margin-top: 3em; }
.deck h2 { border-bottom: 1px solid var(--line); padding-bottom: .2em; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(15em, 1fr)); gap: 1em; }
.comp { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .6em; }
.faces { display: flex; gap: .4em; align-items: flex-start; }
a.zoom { width: calc(50% - .2em); cursor: zoom-in; border-radius: 3px; }
a.zoom:focus-visible { outline: 3px solid #1f5fa8; outline-offset: 2px; }
.thumb { display: block; width: 100%; height: auto; border-radius: 3px; box-shadow: 0 1px 3px #0004; }
.comp h3 { font-size: 1em; margin: .5em 0 0; }
.meta { margin: 0; color: #666; font-size: .85em; }
ul { list-style: none; margin: .3em 0 0; padding: 0; font-size: .85em; }
.status { display: flex; flex-wrap: wrap; gap: .3em; }
.st { padding: 0 .4em; border-radius: 3px; }
.st-source, .st-translated { background: #dff0d8; }
.st-fuzzy { background: #fcf0c8; }
.st-untranslated { background: #f6d3d0; }
.st.current { outline: 2px solid #2b2622; }
.pb-ok { color: #3c763d; }
.pb-warning { color: #8a6d3b; }
.pb-error { color: #a94442; }
.pb.other { display: none; }
#zoom { position: fixed; inset: 0; z-index: 2; display: flex; align-items: center; justify-content: center;
  background: #000c; cursor: zoom-out; }
#zoom[hidden] { display: none; }
#zoom img { max-width: 95vw; max-height: 90vh; box-shadow: 0 0 2em #000; cursor: default; }
#zoom .close { position: fixed; top: 1em; right: 1em; font: inherit; padding: .3em 1em; border: 0;
  border-radius: 3px; background: #fff; color: #222; cursor: pointer; }
#zoom .close:focus-visible, button.lang:focus-visible { outline: 3px solid #7fb2f0; outline-offset: 2px; }
"""

_JS = """
(function () {
  var langs = JSON.parse(document.getElementById('langs').textContent);
  // Everything in `root` (itself included) shown in `lang`: pictures, texts, statuses, problems.
  function localise(root, lang) {
    var key = lang.toLowerCase();
    function each(selector, fn) {
      if (root.matches && root.matches(selector)) { fn(root); }
      root.querySelectorAll(selector).forEach(fn);
    }
    each('[data-src-' + key + ']', function (el) {
      el.setAttribute(el.tagName === 'A' ? 'href' : 'src', el.getAttribute('data-src-' + key));
    });
    each('[data-t-' + key + ']', function (el) {
      el.textContent = el.getAttribute('data-t-' + key);
      if (el.hasAttribute('lang')) { el.lang = lang; }
    });
    each('[data-alt-' + key + ']', function (el) {
      el.alt = el.getAttribute('data-alt-' + key);
      el.lang = lang;
    });
    each('.st', function (el) {
      el.classList.toggle('current', el.dataset.lang === lang);
    });
    each('[data-langs]', function (el) {
      el.hidden = el.dataset.langs.split(' ').indexOf(lang) < 0;
    });
    each('.pb[data-lang]', function (el) {
      el.classList.toggle('other', el.dataset.lang !== '' && el.dataset.lang !== lang);
    });
  }
  window.mzLocalise = localise;  // the live preview's swapped-in components
  function setLang(lang) {
    localise(document, lang);
    document.title = document.querySelector('header h1').textContent;
    document.querySelectorAll('button.lang').forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.dataset.lang === lang));
    });
    if (location.hash !== '#' + lang) { history.replaceState(null, '', '#' + lang); }
  }
  document.querySelectorAll('button.lang').forEach(function (b) {
    b.addEventListener('click', function () { setLang(b.dataset.lang); });
  });
  // The enlarged picture: a dialog opened by a thumbnail's link (click, Enter or Space), closed by
  // its button, a click outside the picture or Escape; the keyboard focus goes in and comes back.
  var zoom = document.getElementById('zoom'), big = zoom.querySelector('img');
  var close = zoom.querySelector('button'), opener = null;
  function shut() {
    if (zoom.hidden) { return; }
    zoom.hidden = true;
    if (opener) { opener.focus(); }
  }
  document.addEventListener('click', function (e) {
    var link = e.target.closest && e.target.closest('a.zoom');
    if (!link || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    e.preventDefault();
    var img = link.querySelector('img');
    big.src = img.src;
    big.alt = img.alt;
    big.lang = img.lang;
    opener = link;
    zoom.hidden = false;
    close.focus();
  });
  document.addEventListener('keydown', function (e) {
    if (e.key === ' ' && e.target.matches && e.target.matches('a.zoom')) { e.preventDefault(); e.target.click(); }
    if (e.key === 'Escape') { shut(); }
    if (e.key === 'Tab' && !zoom.hidden) { e.preventDefault(); close.focus(); }  // the dialog keeps the focus
  });
  zoom.addEventListener('click', function (e) { if (e.target !== big) { shut(); } });
  var wanted = location.hash.slice(1);
  setLang(langs.indexOf(wanted) >= 0 ? wanted : langs[0]);
})();
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="data:,">
<style>{css}</style>
</head>
<body>
<header><h1 lang="{lang}" {titles}>{title}</h1><span class="summary">{summary}</span>
<nav aria-label="Language">{buttons}</nav></header>
<main><nav class="toc" aria-label="Decks">{toc}</nav>{decks}</main>
<div id="zoom" role="dialog" aria-modal="true" aria-label="Enlarged picture" hidden>
<img alt=""><button type="button" class="close">Close</button></div>
<script type="application/json" id="langs">{langs}</script>
<script>{js}</script>
{extra}
</body>
</html>
"""
