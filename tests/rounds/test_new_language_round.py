"""A pack given a third language plays its first round with no hand-written label: `i18n add` writes
the removal list's labels into the new label catalogue, a translator fills the catalogues, and
`build --changed-since` prints the removal list in every language."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from conftest import CONTENT, edit, pdf_text, run_cli

pytestmark = pytest.mark.slow

GIT = ["git", "-c", "user.name=d", "-c", "user.email=d@example.org", "-c", "commit.gpgsign=false"]


def _translate(path: Path) -> int:
    """Every entry of a catalogue translated as a translator's script would: "fr " + the source."""
    po = polib.pofile(str(path), wrapwidth=0)
    for e in po:
        if e.msgid_plural:
            e.msgstr_plural = {k: f"fr {e.msgid if k == 0 else e.msgid_plural}" for k in e.msgstr_plural}
        else:
            e.msgstr = f"fr {e.msgid}"
        if "fuzzy" in e.flags:
            e.flags.remove("fuzzy")
    po.save()
    return len(po)


def test_a_three_language_packs_first_round_builds_with_no_hand_written_label(tmp_path: Path) -> None:
    pack = tmp_path / "content" / "muestras"
    shutil.copytree(CONTENT / "muestras", pack)
    res = run_cli("i18n", "add", "fr", "muestras", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    labels = pack / "locale" / "labels" / "fr.po"
    ids = {e.msgid for e in polib.pofile(str(labels))}
    assert {"Take out of the deck", "removed since %(rev)s", "%(n)d copy"} <= ids  # written by `i18n add`
    assert _translate(pack / "locale" / "fr.po") and _translate(labels)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "r1"], ["tag", "v1"]):
        subprocess.run([*GIT, *args], cwd=tmp_path, check=True, capture_output=True)
    deck = pack / "decks" / "cartas.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text[: text.rindex("\n- id:") + 1], encoding="utf-8")  # the last card is taken out
    edit(pack / "pack.yaml", "size: 4", "size: 3")

    res = run_cli("build", "muestras", "--changed-since", "v1", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    out = tmp_path / "output" / "changes" / "muestras"
    assert "fr Take out of the deck" in pdf_text(out / "fr" / "removed.pdf")
    assert "Retirar del mazo" in pdf_text(out / "es" / "removed.pdf")
    assert "Take out of the deck" in pdf_text(out / "en" / "removed.pdf")

    # one label left out: reported at the pack's catalogue (never the tool's folder), and a draft's
    # removal list says so on its band
    po = polib.pofile(str(labels), wrapwidth=0)
    po.find("Take out of the deck", msgctxt="label").msgstr = ""
    po.save()
    res = run_cli("build", "muestras", "--changed-since", "v1", "--lang", "fr", cwd=tmp_path)
    assert res.returncode == 1
    said = [ln for ln in res.stderr.splitlines() if "(i18n.label)" in ln]
    assert len(said) == 1 and said[0].startswith("content/muestras/locale/labels/fr.po:"), res.stderr
    assert "mazmorra:templates/removed.xml.j2:" in said[0] and "cli/mazmorra" not in res.stderr
    res = run_cli("build", "muestras", "--changed-since", "v1", "--lang", "fr", "--draft", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert 'fr UNTRANSLATED (fr): "Take out of the deck"' in pdf_text(out / "fr" / "removed.pdf")
