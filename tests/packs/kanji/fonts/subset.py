"""Make fonts/TansakuGothic.ttf: IPAex Gothic (IPA Font License v1.0) subset to the characters this
pack prints, plus kana, CJK punctuation and ASCII, under a name of its own (the licence requires it).

Usage: python subset.py PATH/TO/ipaexg.ttf  (ipaexg.ttf 003.01 ships in the japanize-matplotlib sdist on PyPI)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

HERE = Path(__file__).parent
FAMILY = "Tansaku Gothic"
KANA = [*range(0x3041, 0x3097), *range(0x30A1, 0x30FB), 0x30FC]  # hiragana, katakana, the long-vowel mark
PUNCTUATION = "、。「」『』・（）！？：〜…―　"
ASCII = range(0x20, 0x7F)


def pack_characters() -> set[str]:
    """Every character of the pack's Japanese catalogue."""
    text = (HERE.parent / "locale" / "ja.po").read_text(encoding="utf-8")
    return set("".join(re.findall(r'"(.*)"', text)))


def main(source: str) -> None:
    chars = pack_characters() | {chr(c) for c in [*KANA, *ASCII]} | set(PUNCTUATION)
    options = subset.Options()
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14, 16, 17]
    options.hinting = False  # small on paper: the outlines are all a PDF needs
    font = TTFont(source)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=sorted(ord(c) for c in chars))
    sub.subset(font)
    names = font["name"]
    for rec in list(names.names):  # the licence: no "IPA" in a derived font's names
        if rec.nameID in (1, 3, 4, 6, 16, 17):
            names.removeNames(nameID=rec.nameID)
    for name_id, value in ((1, FAMILY), (2, "Regular"), (3, FAMILY + " subset"), (4, FAMILY), (6, "TansakuGothic")):
        names.setName(value, name_id, 3, 1, 0x409)
        names.setName(value, name_id, 1, 0, 0)
    font.save(HERE / "TansakuGothic.ttf")


if __name__ == "__main__":
    main(sys.argv[1])
