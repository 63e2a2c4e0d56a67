"""The removal list of a round is sized to its content: a one-line list is a slip, not a sheet."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from conftest import CONTENT, edit, run_cli
from pypdf import PdfReader

MM = 72 / 25.4


def test_a_one_line_removal_list_is_a_slip_without_crop_marks(tmp_path: Path) -> None:
    pack = tmp_path / "content" / "muestras"
    shutil.copytree(CONTENT / "muestras", pack)
    git = ["git", "-c", "user.name=d", "-c", "user.email=d@example.org", "-c", "commit.gpgsign=false"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "r1"], ["tag", "v1"]):
        subprocess.run([*git, *args], cwd=tmp_path, check=True, capture_output=True)
    deck = pack / "decks" / "cartas.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text[: text.rindex("\n- id:") + 1], encoding="utf-8")  # the last card is taken out
    edit(pack / "pack.yaml", "size: 4", "size: 3")
    res = run_cli("build", "muestras", "--changed-since", "v1", "--lang", "es", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    pdf = PdfReader(tmp_path / "output" / "changes" / "muestras" / "es" / "removed.pdf")
    assert len(pdf.pages) == 1
    page = pdf.pages[0]
    trim_h = float(page.trimbox.height) / MM
    assert 30 <= trim_h <= 45, trim_h  # the header and one row, not the sheet's 270 mm
    assert float(page.mediabox.height) / MM > 290  # on the build's paper (A4)
    assert "Retirar del mazo" in page.extract_text()
    content = page.get_contents()
    assert content is not None
    lines = re.findall(r" l\b", content.get_data().decode("latin-1"))
    assert len(lines) == 1, lines  # the rule under the header only: no crop marks (8 more lines)
