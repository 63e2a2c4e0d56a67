"""Benchmark: text fitting, the layout's hot path, in cards per second.

    python bench/text.py [--cards 1000] [--repeat 3]

1. **Lay-out stage**: a synthetic deck of N distinct artimaña cards (`synth.py`) laid out in Spanish
   and in English (templates, text fitting, ops), in this process, no PDF drawn: cards per second.
   The text-block cache is cleared before each run, so every card's text is fitted afresh.
2. **fit() alone**: every distinct text of those cards fitted in its box (the effect box of the
   artimaña template: 51 × 22 mm, 9 pt down to 5.5 pt), timed without templates: texts per second.
3. **Baseline** measured in the same run: the same texts measured word by word with the same fonts
   (`fonts.width`, what any line breaker must at least do once per word) - the ratio says what
   breaking and shrinking cost on top of measuring.
4. **The Unicode line breaker** (layout/text/segment.py: UAX #14 and BudouX): fit() of the same texts with
   it switched off (every chunk whole and every space a break, as before it), in the same run: the
   ratio is its cost on Latin text. Then 28-character Japanese rules texts (`--ja`, made from phrases of the test pack)
   fitted phrase by phrase: texts per second.

Best of --repeat runs. Figures move by tens of percent on a shared machine; compare in one run.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import layout_context  # noqa: E402
from synth import make_pack  # noqa: E402


def lay_out_all(pack_dir: Path, lang: str) -> int:
    """Lay out every card of the pack in `lang` (no drawing); the number of faces laid out."""
    from mazmorra.layout import lay_out
    from mazmorra.layout.text.textbox import _text_block
    from mazmorra.load import load_pack

    _text_block.cache_clear()
    p = load_pack(pack_dir)
    ctx = layout_context(p, lang)
    faces = 0
    for deck in p.decks:
        for item in lay_out(deck, ctx).items():
            faces += 1 + (item.back is not None)
    return faces


def texts_of(pack_dir: Path) -> list[tuple[str, str]]:
    """(text, language) for every card effect of the pack, in both languages."""
    import polib
    import yaml

    cards = yaml.safe_load((pack_dir / "decks" / "cartas.yaml").read_text(encoding="utf-8"))
    en = [e.msgstr for e in polib.pofile(str(pack_dir / "locale" / "en.po")) if e.msgctxt.endswith(".effect")]
    return [(c["effect"], "es") for c in cards] + [(t, "en") for t in en]


def fit_all(texts: list[tuple[str, str]]) -> None:
    from mazmorra.assets import fonts
    from mazmorra.layout.text import fit as fitmod
    from mazmorra.layout.text.fit import Style, fit
    from mazmorra.layout.text.linebreak import word_splits
    from mazmorra.layout.text.segment import segments
    from mazmorra.model import cardtext
    from mazmorra.model.units import PT_PER_MM

    for cache in (fitmod.breakable, segments, fitmod.split_points, fitmod.piece, word_splits):
        cache.cache_clear()  # every text segmented, hyphenated and measured afresh, with or without the breaker
    parse = getattr(cardtext, "parse", None)  # and parsed afresh (a revision before model/cardtext.parse has none)
    if parse is not None:
        parse.cache_clear()
    style = Style(font=fonts.DEFAULT)
    for text, lang in texts:
        fit(text, 51 * PT_PER_MM, 22 * PT_PER_MM, style, 9.0, 5.5, lang)


def fit_unsegmented(texts: list[tuple[str, str]]) -> None:
    """fit_all with the Unicode line breaker off: each chunk between spaces whole, as before it."""
    from mazmorra.layout.text import fit as fitmod

    kept = fitmod.segments, fitmod.held
    fitmod.segments = lambda chunk, lang: (chunk,)  # type: ignore[assignment]
    fitmod.held = lambda chunks: chunks
    try:
        fit_all(texts)
    finally:
        fitmod.segments, fitmod.held = kept


def japanese(n: int) -> list[tuple[str, str]]:
    """n distinct Japanese rules texts of about 28 characters, with an icon token in each."""
    import random

    rng = random.Random(7)
    heads = ["隣の部屋を照らす", "通路の奥で眠る竜を起こさずに", "このカードを捨てて", "宝箱を開けたら"]
    tails = ["{coin:1}を得る。", "{heart:2}を失う。", "カードを1枚引く。", "その後、{key}を使う。"]
    return [(f"{rng.choice(heads)}{i}回、{rng.choice(heads)}、{rng.choice(tails)}", "ja") for i in range(n)]


def measure_all(texts: list[tuple[str, str]]) -> None:
    from mazmorra.assets import fonts
    from mazmorra.layout.text.fit import Style, unit_widths
    from mazmorra.model.cardtext import split_blocks

    style = Style(font=fonts.DEFAULT)
    for text, _ in texts:
        for block in split_blocks(text):
            unit_widths(block.lines, style)


def timed(fn, *args) -> float:  # type: ignore[no-untyped-def]
    gc.collect()  # no run pays for the garbage of the one before
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from mazmorra.assets import fonts

    fonts.register_all()
    with tempfile.TemporaryDirectory() as tmp:
        pack = make_pack(Path(tmp), args.cards)
        texts = texts_of(pack)
        lay_out_all(pack, "es")  # warm: imports, fonts, templates compiled once per process anyway
        runs = {"es": [], "en": []}  # type: dict[str, list[float]]
        fits, base, plain, ja = [], [], [], []  # type: list[float], list[float], list[float], list[float]
        ja_texts = japanese(args.cards)
        for _ in range(args.repeat):
            for lang in ("es", "en"):
                runs[lang].append(timed(lay_out_all, pack, lang))
            fonts.unit_width.cache_clear()  # both start from cold word widths
            base.append(timed(measure_all, texts))
            pair = [(fits, fit_all), (plain, fit_unsegmented)]
            for times, fn in pair if len(fits) % 2 else pair[::-1]:  # alternated: neither always runs first
                fonts.unit_width.cache_clear()
                times.append(timed(fn, texts))
            fonts.unit_width.cache_clear()
            ja.append(timed(fit_all, ja_texts))
    n = args.cards
    print(f"text fitting, {n} distinct cards (best of {args.repeat})")
    for lang, times in runs.items():
        print(f"  lay out {lang}: {n / min(times):8.0f} cards/s  ({min(times) * 1000:.0f} ms)")
    print(f"  fit() alone: {len(texts) / min(fits):8.0f} texts/s  ({min(fits) * 1000:.0f} ms)")
    print(f"  measuring words (baseline): {len(texts) / min(base):8.0f} texts/s")
    print(f"  fit / measure ratio: {min(fits) / min(base):.1f}")
    print(f"  fit() without the Unicode line breaker: {len(texts) / min(plain):8.0f} texts/s")
    print(f"  Unicode line breaker's cost on Latin text (fit / fit without it): {min(fits) / min(plain):.2f}")
    print(f"  fit() of {len(ja_texts)} Japanese texts (phrases): {len(ja_texts) / min(ja):8.0f} texts/s")


if __name__ == "__main__":
    main()
