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


def test_a_third_language_gets_the_removal_lists_words_from_i18n_update(tmp_path: Path) -> None:
    """A pack in French (no shipped French catalogue): `i18n update` puts the removal list's labels in
    its label catalogue for the translator, a missing one is an error at its catalogue entry naming removed.xml.j2's line (was at
    `mazmorra:templates`, no file, with no entry to fill), and once translated the list is in French."""
    from conftest import pdf_text, write_pack

    pack = write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: P\nsource_language: es\nlanguages: [es, fr]\n"
            "decks:\n  - {id: c, kind: card, name: Cartas, file: decks/c.csv}\n",
            "decks/c.csv": "id,name,name@fr,text,text@fr\nuno,Uno,Un,Gana.,Gagne.\ndos,Dos,Deux,Roba.,Pioche.\n",
        },
    )
    assert run_cli("i18n", "update", cwd=pack).returncode == 0
    labels = (pack / "locale" / "labels" / "fr.po").read_text(encoding="utf-8")
    assert 'msgid "Take out of the deck"' in labels and "#: mazmorra:templates/removed.xml.j2:6" in labels, labels
    po = (pack / "locale" / "fr.po").read_text(encoding="utf-8")
    (pack / "locale" / "fr.po").write_text(re.sub(r'msgid "(P|Cartas)"\nmsgstr ""', r'msgid "\1"\nmsgstr "\1"', po))
    shutil.copytree(pack, tmp_path / "round1" / "p")
    edit(pack / "decks" / "c.csv", "dos,Dos,Deux,Roba.,Pioche.\n", "")
    since = str(tmp_path / "round1" / "p")
    res = run_cli("build", "--changed-since", since, "--lang", "fr", "--out", str(tmp_path / "out"), cwd=pack)
    assert res.returncode == 1
    # at the entry the translator fills, naming the shipped line that prints it
    assert "locale/labels/fr.po:" in res.stderr and "template label 'Take out of the deck' has no 'fr'" in res.stderr
    assert "(printed by mazmorra:templates/removed.xml.j2:6)" in res.stderr, res.stderr
    edit(
        pack / "locale" / "labels" / "fr.po",
        'msgid "Take out of the deck"\nmsgstr ""',
        'msgid "Take out of the deck"\nmsgstr "Retirer du paquet"',
    )
    edit(
        pack / "locale" / "labels" / "fr.po",
        'msgid "removed since %(rev)s"\nmsgstr ""',
        'msgid "removed since %(rev)s"\nmsgstr "retirées depuis %(rev)s"',
    )
    edit(
        pack / "locale" / "labels" / "fr.po",
        'msgstr[0] ""\nmsgstr[1] ""',
        'msgstr[0] "%(n)d exemplaire"\nmsgstr[1] "%(n)d exemplaires"',
    )
    res = run_cli("build", "--changed-since", since, "--lang", "fr", "--out", str(tmp_path / "out"), cwd=pack)
    assert res.returncode == 0, res.stderr
    removed = pdf_text(tmp_path / "out" / "changes" / "p" / "fr" / "removed.pdf")
    assert "Retirer du paquet" in removed and "Deux" in removed and "1 exemplaire" in removed, removed
