"""Issue 27: a font an earlier build parsed is taken from the output folder's cache: the same ReportLab
font to the last attribute, the same PDF bytes; a damaged entry is parsed again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFNameBytes, TTFont

from mazmorra.assets import fonts
from mazmorra.layout.cache.facecache import FaceCache
from mazmorra.support.memo import Memo

pytestmark = pytest.mark.slow  # not in the fast tier: builds twice

_BUILD = """
import json, sys
from mazmorra.support import memo
from mazmorra.commands import main
missed = []
real = memo.Memo.get
def get(self, kind, k):
    value = real(self, kind, k)
    missed.extend([k] if kind == "font" and value is None else [])
    return value
memo.Memo.get = get
sys.argv = ["mazmorra", "build", "muestras", "--out", "output"]
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(len(missed)))
"""


def _same_font(fresh: TTFont, kept: TTFont) -> None:
    assert vars(fresh).keys() == vars(kept).keys()
    for key, value in vars(fresh).items():
        if key not in ("face", "encoding", "state"):
            assert vars(kept)[key] == value, key
    assert vars(fresh.encoding) == vars(kept.encoding)
    assert vars(fresh.face).keys() == vars(kept.face).keys()
    for key, value in vars(fresh.face).items():
        if key == "_pdfScale":
            assert [value(x) for x in (0, 1, 737.5, 2048)] == [kept.face._pdfScale(x) for x in (0, 1, 737.5, 2048)]
            continue
        other = vars(kept.face)[key]
        assert other == value and type(other) is type(value), key
        if isinstance(value, TTFNameBytes):
            assert other.ustr == value.ustr, key


def test_every_bundled_font_comes_back_the_same(tmp_path: Path) -> None:
    store = FaceCache(tmp_path / "checks", tmp_path / "scratch")
    try:
        for name in sorted(fonts.BUNDLED):
            source = str(fonts.FONTS[name])
            fonts.use_memo(Memo(store, b"tool"))
            fonts._font("Mz-test", source)
            memo = Memo(store, b"tool")
            fonts.use_memo(memo)
            kept = fonts._font("Mz-test", source)
            assert (memo.read, memo.written) == (1, 0), name
            _same_font(TTFont("Mz-test", source), kept)
        entry = next(p for p in (tmp_path / "checks").rglob("*") if p.is_file())
        entry.write_bytes(entry.read_bytes()[:100])
        for name in sorted(fonts.BUNDLED):
            fonts._font("Mz-test", str(fonts.FONTS[name]))  # the damaged one parsed again, never wrong
    finally:
        fonts.use_memo(None)


def test_a_build_with_kept_fonts_writes_the_same_bytes(pack_copy) -> None:
    project = pack_copy("muestras").parents[1]
    pdfs = {}
    for run in ("cold", "kept"):
        res = subprocess.run(
            [sys.executable, "-c", _BUILD],
            cwd=project,
            capture_output=True,
            text=True,
            env={"PATH": "/usr/bin:/bin", "MAZMORRA_JOBS": "1", "PYTHONDONTWRITEBYTECODE": "1", "CI": "1"},
            timeout=300,
        )
        assert res.returncode == 0, res.stderr
        missed = json.loads(res.stdout.strip().splitlines()[-1])
        assert (missed > 0) if run == "cold" else (missed == 0), (run, missed)
        pdfs[run] = {p.relative_to(project): p.read_bytes() for p in sorted((project / "output").rglob("*.pdf"))}
        for pdf in (project / "output").rglob("*.pdf"):
            pdf.unlink()  # built again in full by the next run
    assert pdfs["cold"] and pdfs["kept"] == pdfs["cold"]
