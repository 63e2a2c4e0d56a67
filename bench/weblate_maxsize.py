"""Judge: Weblate's own MaxSizeCheck against mazmorra's fit, entry by entry (issue 41).

    python bench/weblate_maxsize.py [--weblate-python PATH] [--packs cripta,expedicion] [--json OUT]
                                    [--png DIR] [--show N]

For every translated entry with a `max-size` flag of every sample catalogue (Latin: the English and
French catalogues of content/), and for a Japanese draft (tests/packs/kanji, its catalogue plus
real Japanese titles and texts of graded lengths, some just inside and some just outside their box),
it asks two questions of the same translation:

- mazmorra: laid out in its language with the fitting engine, is it set at its box's design size
  (unshrunk)? That is what the entry's design budget promises.
- Weblate 5.14: does `MaxSizeCheck` pass, with the entry's `#,` flags parsed by Weblate and the
  pack's font files uploaded into the font groups the template's header names (with each language's
  override)? Weblate runs in its own interpreter (bench/weblate_render.py; bench/README.md, Weblate,
  says how to install it).

It prints the agreement per pack and language, and every disagreement with both measures. A list
item (`field.N`) is counted apart: its budget is its share of a box the whole list is fitted in.
Exit 1 when Weblate passes a shipped or Japanese translation that the card shrinks (a circular box
aside: bench/README.md, Weblate).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "content"
KANJI = REPO / "tests" / "packs" / "kanji"
WEBLATE_PYTHON = os.environ.get("WEBLATE_PYTHON", str(REPO / ".venv-weblate" / "bin" / "python"))  # make weblate-judge
_GROUP_LINE = re.compile(r"^# ([a-z0-9-]+): (\S+)(?: \((.*)\))?$")

# Real Japanese for the kanji pack's boxes (its subset font's kanji, and kana): titles and rules texts
# of graded lengths, so that some sit just inside their box at the design size and some just outside.
JA_TITLES = (
    "たいまつ",
    "落とし穴",
    "眠れる竜",
    "迷宮の宝箱",
    "見張りのたいまつ",
    "隣の部屋のカギ",
    "眠れる竜の宝箱",
    "通路の奥の落とし穴",
    "迷宮の奥で眠れる竜",
    "通路の奥で眠る竜の宝箱",
    "宝箱を開けるためのカギ",
    "竜を起こさずに宝箱を開けろ！",
    "通路の奥で眠れる竜の宝箱",
    "ドラゴン・スレイヤーのカギ",
    "隣の部屋を照らすたいまつ",
    "迷宮の奥で眠れる竜の宝箱",
    "シャドウ・ドラゴンのねぐら",
)
JA_TEXTS = (
    "隣の部屋を照らす。{coin:1}を得る。",
    "{heart:3}を回復する。その後、このカードを捨てる。",
    "{key}を持たずにこの部屋に入ったら、{heart:2}を失う。",
    "通路の奥で眠る竜を起こさずに宝箱を開けられたら勝利する。",
    "宝箱を開ける。中にはカギが入っている。このカードを捨てて、隣の部屋に入ってもよい。",
    "この部屋に入ったプレイヤーは{heart:1}を失う。ただし、たいまつを持っているなら、かわりに{coin:2}を得る。",
    "竜が起きた！すべてのプレイヤーは{heart:2}を失う。その後、このカードを捨てる。",
    "通路の奥には落とし穴がある。{key}を持っているプレイヤーは、穴をとびこえて隣の部屋に入ってもよい。"
    "持っていないなら{heart:2}を失う。",
    "迷宮の奥で眠る竜の宝箱には、たくさんの{coin:3}が入っている。"
    "竜を起こさずに宝箱を開けられたら、そのプレイヤーの勝利。起こしてしまったら、{heart:3}を失う。",
)


# Sentences of one rules text, real Japanese each: the first k of them make a text as long as a box
# holds (a 14-line body box takes about 180 characters), one sentence more or less either side.
JA_SENTENCES = (
    "迷宮の奥には、眠れる竜の宝箱がある。",
    "宝箱を開けるには、カギを持っていなければならない。",
    "カギを持っているプレイヤーは、隣の部屋に入ってもよい。",
    "その部屋に入ったら、たいまつで部屋を照らす。",
    "落とし穴を見つけたら、{heart:1}を失う。",
    "ただし、たいまつを持っているなら、かわりに{coin:1}を得る。",
    "竜が起きたら、すべてのプレイヤーは{heart:2}を失う。",
    "その後、このカードを捨てる。",
    "竜を起こさずに宝箱を開けられたら、そのプレイヤーの勝利。",
    "ほかのプレイヤーは、つぎのターンまでなにもできない。",
)
JA_TEXTS += tuple("".join(JA_SENTENCES[:k]) for k in range(5, len(JA_SENTENCES) + 1))
JA_TEXTS += tuple("".join(JA_SENTENCES[:k]) + "\n\n" + "".join(JA_SENTENCES[k:]) for k in (3, 6))


@dataclass
class Case:
    """One translation asked of both: its entry, flags, and mazmorra's answer."""

    id: str
    pack: str
    lang: str
    ctx: str
    source: str
    target: str
    flags: str
    tool_fits: bool  # mazmorra sets it at its box's design size
    fitted: float  # pt, the size mazmorra sets it at
    size: float  # pt, the box's design size
    item: bool  # a list's item: its budget is a share of the list's box
    circular: bool = False  # a circular box: Weblate checks a rectangle as roomy as its ellipse
    weblate_fits: bool | None = None
    weblate_width: int | None = None
    weblate_lines: int | None = None
    font: str = ""


def font_groups(pot: Path, pack_dir: Path) -> dict[str, dict[str, str]]:
    """The font groups the template's header names: group -> {"": its file, lang: override file},
    each file found where a Weblate administrator finds it (the pack's fonts/, else the tool's)."""
    from mazmorra.support.paths import PACKAGE_DIR

    def where(name: str) -> str:
        for folder in (pack_dir / "fonts", PACKAGE_DIR / "fonts"):
            if (folder / name).is_file():
                return str(folder / name)
        raise SystemExit(f"{pot}: font file {name} of a font group is neither in the pack nor in mazmorra")

    out: dict[str, dict[str, str]] = {}
    for line in pot.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        m = _GROUP_LINE.match(line)
        if m is None:
            continue
        files = {"": where(m.group(2))}
        for part in (m.group(3) or "").split("; "):
            if part:
                lang, name = part.split(": ")
                files[lang] = where(name)
        out[m.group(1)] = files
    return out


def laid_out(pack_dir: Path, lang: str) -> dict[tuple[str, str], Any]:
    """(component, field) -> the first box its text is set in, laid out in `lang` as a build does."""
    from _common import layout_context

    from mazmorra.layout.faces import lay_out
    from mazmorra.load import load_pack

    pack = load_pack(pack_dir)
    ctx = layout_context(pack, lang, draft=True)
    out: dict[tuple[str, str], Any] = {}
    for deck in pack.decks:
        for item in lay_out(deck, ctx).items():
            for box in item.boxes:
                out.setdefault((item.front.component, box.field), box)
    return out


def catalogue_cases(pack_dir: Path, lang: str, tag: str = "") -> list[Case]:
    """Every translated, current entry of locale/<lang>.po with a max-size flag, with mazmorra's fit."""
    import polib

    boxes = laid_out(pack_dir, lang)
    cases = []
    for e in polib.pofile(str(pack_dir / "locale" / f"{lang}.po"), wrapwidth=0):
        if e.obsolete or not e.msgstr or "fuzzy" in e.flags or not any(f.startswith("max-size:") for f in e.flags):
            continue
        component, field = (e.msgctxt or "").split(".", 1)
        box = boxes.get((component, field.split(".")[0]))
        if box is None:
            continue
        cases.append(
            Case(
                f"{pack_dir.name}/{lang}{tag}/{e.msgctxt}",
                pack_dir.name,
                lang,
                e.msgctxt or "",
                e.msgid,
                e.msgstr,
                ", ".join(e.flags),
                box.fitted >= box.size - 1e-9,
                box.fitted,
                box.size,
                "." in field,
                "circular box" in e.comment,
            )
        )
    return cases


def grown(text: str, words: int) -> str:
    """`text` with `words` more of its own words after it, in turn: as long as a translation may get."""
    own = text.split()
    return " ".join([*own, *(own[n % len(own)] for n in range(words))])


def boundary_cases(pack_dir: Path, lang: str, tmp: Path, most: int) -> list[Case]:
    """Each translated entry grown word by word (its own words) until mazmorra no longer sets it at
    its design size: the last length that fits and the first that does not, one word apart."""
    import polib

    copy = tmp / "boundary" / pack_dir.name
    if not copy.exists():
        shutil.copytree(pack_dir, copy)
    po_path = copy / "locale" / f"{lang}.po"
    shipped = po_path.read_text(encoding="utf-8")
    before: dict[str, Case] = {c.ctx: c for c in catalogue_cases(copy, lang) if c.tool_fits and not c.item}
    out: list[Case] = []
    for words in range(1, most + 1):
        if not before:
            break
        cat = polib.pofile(shipped, wrapwidth=0)
        for e in cat:
            if e.msgctxt in before:
                e.msgstr = grown(e.msgstr, words)
        cat.save(str(po_path))
        now = {c.ctx: c for c in catalogue_cases(copy, lang, f"+{words}")}
        for ctx in list(before):
            case = now.get(ctx)
            if case is None:
                del before[ctx]
            elif not case.tool_fits:
                out += [before.pop(ctx), case]
            else:
                before[ctx] = case
    po_path.write_text(shipped, encoding="utf-8")
    for c in out:
        c.id = "boundary:" + c.id
        c.pack = "boundary"
    return out


def kept_tokens(text: str, source: str) -> str:
    """`text` with the icon tokens of `source` in place of its own, in turn (a translation keeps its
    source's icons; without any, the word カギ, a key), so Weblate's replacements know each one."""
    from mazmorra.model.cardtext import parse

    theirs = [t.written for t in parse(source).tokens]
    mine = parse(text).tokens
    for n, token in reversed(list(enumerate(mine))):
        text = text[: token.start] + (theirs[n % len(theirs)] if theirs else "カギ") + text[token.end :]
    return text


def japanese_cases(tmp: Path) -> tuple[list[Case], dict[str, dict[str, str]]]:
    """The kanji pack's Japanese catalogue as shipped, then once per round with every title and text
    replaced by the next of JA_TITLES and JA_TEXTS (the catalogue's flags as `i18n update` wrote them)."""
    import polib

    pack_dir = tmp / "content" / "kanji"
    shutil.copytree(KANJI, pack_dir)
    subprocess.run([sys.executable, "-m", "mazmorra", "i18n", "update", "kanji"], cwd=tmp, check=True)
    po_path = pack_dir / "locale" / "ja.po"
    shipped = po_path.read_text(encoding="utf-8")
    cases = catalogue_cases(pack_dir, "ja")
    rounds = max(len(JA_TITLES), len(JA_TEXTS))
    for r in range(rounds):
        cat = polib.pofile(shipped, wrapwidth=0)
        for n, e in enumerate(cat):
            if e.msgctxt and e.msgctxt.endswith(".name") and "." not in e.msgctxt.split(".", 1)[0]:
                e.msgstr = JA_TITLES[(r + n) % len(JA_TITLES)]
            elif e.msgctxt and e.msgctxt.endswith(".text"):
                e.msgstr = kept_tokens(JA_TEXTS[(r + n) % len(JA_TEXTS)], e.msgid)
        cat.save(str(po_path))
        cases += catalogue_cases(pack_dir, "ja", f"#{r + 1}")
    return cases, font_groups(pack_dir / "locale" / "kanji.pot", pack_dir)


def weblate(cases: list[Case], fonts: dict[str, dict[str, str]], python: str, png: Path | None, tmp: Path) -> None:
    """Weblate's verdict on every case, filled in place (bench/weblate_render.py in Weblate's Python)."""
    (tmp / "cases.json").write_text(
        json.dumps({"fonts": fonts, "cases": [asdict(c) for c in cases]}, ensure_ascii=False), encoding="utf-8"
    )
    cmd = [python, str(REPO / "bench" / "weblate_render.py"), str(tmp / "cases.json"), str(tmp / "results.json")]
    subprocess.run(cmd + ([str(png)] if png else []), check=True)
    results = json.loads((tmp / "results.json").read_text(encoding="utf-8"))
    for c in cases:
        r = results[c.id]
        c.weblate_fits, c.weblate_width, c.weblate_lines, c.font = r["fits"], r["width"], r["lines"], r["font"]


def report(cases: list[Case], show: int) -> int:
    """Agreement per pack and language, list items apart; the disagreements. The number of them."""
    table: Counter[tuple[str, str, bool, str]] = Counter()
    for c in cases:
        verdict = "agree" if c.tool_fits == c.weblate_fits else "disagree"
        table[(c.pack, c.lang, c.item, verdict)] += 1
    print(f"{'pack':<14}{'lang':<6}{'entries':<10}{'agree':>7}{'disagree':>10}")
    keys = sorted({k[:3] for k in table})
    for pack, lang, item in keys:
        agree, disagree = table[(pack, lang, item, "agree")], table[(pack, lang, item, "disagree")]
        label = "list items" if item else "entries"
        print(f"{pack:<14}{lang:<6}{label:<10}{agree:>7}{disagree:>10}")
    whole = [c for c in cases if not c.item]
    bad = [c for c in whole if c.tool_fits != c.weblate_fits]
    print(f"total (not list items): {len(whole) - len(bad)} of {len(whole)} agree")
    for c in bad[:show]:
        width = re.search(r"max-size:(\d+)(?::(\d+))?", c.flags)
        assert width is not None
        print(
            f"  {c.id}: mazmorra {'fits' if c.tool_fits else 'shrinks'} ({c.fitted:g}/{c.size:g} pt), Weblate "
            f"{'fits' if c.weblate_fits else 'overflows'} ({c.weblate_width} px / {width.group(1)} px, "
            f"{c.weblate_lines} / {width.group(2) or 1} lines, {c.font}): {c.target!r}"
        )
    return len(bad)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weblate-python", default=WEBLATE_PYTHON)
    parser.add_argument("--packs", default="", help="sample packs, comma-separated (default: all)")
    parser.add_argument("--no-japanese", action="store_true")
    parser.add_argument(
        "--boundary", type=int, default=0, metavar="N", help="also grow each translation up to N words past its end"
    )
    parser.add_argument("--json", type=Path, help="write every case with both verdicts")
    parser.add_argument("--png", type=Path, help="write Weblate's picture of every case here")
    parser.add_argument("--show", type=int, default=40, help="disagreements printed")
    args = parser.parse_args()
    names = args.packs.split(",") if args.packs else sorted(p.name for p in SAMPLES.iterdir() if p.is_dir())
    cases: list[Case] = []
    fonts: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="mazmorra-weblate-") as name:
        tmp = Path(name)
        for pack in names:
            pack_dir = SAMPLES / pack
            for po in sorted((pack_dir / "locale").glob("*.po")):
                cases += catalogue_cases(pack_dir, po.stem)
                if args.boundary:
                    cases += boundary_cases(pack_dir, po.stem, tmp, args.boundary)
            fonts.update(font_groups(pack_dir / "locale" / f"{pack}.pot", pack_dir))
        if not args.no_japanese:
            ja, ja_fonts = japanese_cases(tmp)
            cases += ja
            fonts.update(ja_fonts)
        weblate(cases, fonts, args.weblate_python, args.png, tmp)
    report(cases, args.show)
    if args.json:
        args.json.write_text(json.dumps([asdict(c) for c in cases], ensure_ascii=False, indent=1), encoding="utf-8")
    # The promise (tests/i18n/test_weblate_judge.py): Weblate never passes a shipped or Japanese
    # translation the card shrinks, a circular box aside; the one-word-either-side cases are figures.
    broken = [c for c in cases if c.pack != "boundary" and not c.item and not c.circular]
    return 1 if any(c.weblate_fits and not c.tool_fits for c in broken) else 0


if __name__ == "__main__":
    sys.exit(main())
