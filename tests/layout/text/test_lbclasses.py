"""The UAX #14 class table shipped for the first 12,288 code points (layout/text/lbclasses.py) says what
uniseg says of every one of them, so a Latin, Greek or Cyrillic build need not import uniseg.

Refresh the table after upgrading uniseg: `python tests/layout/text/test_lbclasses.py --update`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from uniseg.linebreak import line_break

from mazmorra.layout.text import lbclasses
from mazmorra.layout.text.segment import _class

TABLE = Path(lbclasses.__file__)


def _runs() -> list[tuple[int, str]]:
    runs: list[tuple[int, str]] = []
    for c in range(lbclasses.LIMIT):
        cls = str(line_break(chr(c)).name)
        if not runs or runs[-1][1] != cls:
            runs.append((c, cls))
    return runs


def _source(runs: list[tuple[int, str]]) -> str:
    starts = ",".join(f"{c:#x}" for c, _ in runs)
    names = " ".join(cls for _, cls in runs)
    return (
        '"""UAX #14 line-breaking classes of the code points below LIMIT (Latin, Greek, Cyrillic, general\n'
        "punctuation, symbols…), as runs: generated from uniseg by tests/layout/text/test_lbclasses.py --update.\n"
        "A build whose text stays below LIMIT never imports uniseg (70 ms and 7 MB).\n"
        '"""\n\n'
        "from __future__ import annotations\n\n"
        "from bisect import bisect_right\n\n"
        f"LIMIT = {lbclasses.LIMIT:#x}\n"
        f"_STARTS = ({starts},)  # fmt: skip\n"
        f'_NAMES = "{names}".split()  # fmt: skip\n\n\n'
        "def line_break_class(ch: str) -> str | None:\n"
        '    """The character\'s UAX #14 class as uniseg names it, or None above LIMIT (ask uniseg)."""\n'
        "    c = ord(ch)\n"
        "    if c >= LIMIT:\n"
        "        return None\n"
        "    return _NAMES[bisect_right(_STARTS, c) - 1]\n"
    )


def test_the_table_agrees_with_uniseg_at_every_code_point() -> None:
    for c in range(lbclasses.LIMIT):
        assert lbclasses.line_break_class(chr(c)) == str(line_break(chr(c)).name), hex(c)
    assert lbclasses.line_break_class(chr(lbclasses.LIMIT)) is None


def test_the_table_is_what_the_generator_writes() -> None:
    assert TABLE.read_text(encoding="utf-8") == _source(_runs()), (
        "run: python tests/layout/text/test_lbclasses.py --update"
    )


def test_classes_above_the_table_still_come_from_uniseg() -> None:
    assert _class("「") == "OP" and _class("」") == "CL" and _class("。") == "CL"
    assert _class("(") == "OP" and _class("?") == "EX" and _class("«") == "QU"


if __name__ == "__main__":
    if "--update" in sys.argv:
        TABLE.write_text(_source(_runs()), encoding="utf-8")
        print(f"wrote {TABLE}")
