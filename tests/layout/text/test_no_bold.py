"""Bold words in a family with no bold face: a warning at the text's line naming the font, never a
silent loss of the emphasis (no bold is synthesised: docs/translating.md, "Any script")."""

from __future__ import annotations

import shutil

import pytest
from conftest import CONTENT, edit, line_of, run_cli

pytestmark = pytest.mark.slow


def test_bold_words_in_a_family_without_bold_are_a_located_warning(pack_copy) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    (pack / "fonts").mkdir()
    shutil.copy(CONTENT / "grimorio" / "fonts" / "Caladea-Regular.ttf", pack / "fonts")  # no bold file
    edit(pack / "pack.yaml", "languages: [es, en]", "languages: [es, en]\nfonts: {en: Caladea}")
    res = run_cli("build", "muestras", "--lang", "es,en", cwd=project)
    assert res.returncode == 0, res.stderr
    said = [ln for ln in res.stderr.splitlines() if "(text.no-bold)" in ln]
    po = pack / "locale" / "en.po"
    line = line_of(po, 'msgctxt "fogata-del-claustro.text"') + 2  # its msgstr: where a translator edits
    assert len(said) == 1, res.stderr  # English only: Spanish keeps the template's DejaVu, which has bold
    assert said[0].startswith(f"content/muestras/locale/en.po:{line}:"), said
    assert "warning" in said[0] and "'Caladea' (Caladea-Regular.ttf)" in said[0]
    assert run_cli("build", "muestras", "--lang", "en", "--strict", cwd=project).returncode == 1
    shutil.copy(CONTENT / "grimorio" / "fonts" / "Caladea-Bold.ttf", pack / "fonts")  # the family's bold
    res = run_cli("build", "muestras", "--lang", "en", "--strict", cwd=project)
    assert res.returncode == 0 and "(text.no-bold)" not in res.stderr, res.stderr
