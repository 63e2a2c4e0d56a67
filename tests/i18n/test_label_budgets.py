"""Labels' budgets: every label entry of the label catalogues (locale/labels.pot, labels/<lang>.po)
names the box its label is printed in (the tightest, where it prints in several) with both budgets
in words and as Weblate's flags, or says why it has none (inside a longer text, in no box); and what
a build makes of them: a translated label at its design budget prints at the design size, one more
character shrinks it (`i18n.shrunk` at its catalogue entry), one over the hard limit overflows."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import polib
import pytest
from conftest import CONTENT, edit, need_tool, pdf_read, run_cli
from test_budgets import BUDGET, _filler, budgets_of, flag_values, weblate_flags

from mazmorra.contracts import TextBox
from mazmorra.i18n.catalogues.budgets import PX_PER_PT, LabelBox
from mazmorra.i18n.catalogues.labelcat import label_entries
from mazmorra.i18n.labels import CALIBRATION_WORDS, Label
from mazmorra.load import load_pack
from mazmorra.render.impose.calibrate import CALIBRATION_SHEET

SAMPLES = sorted(p.name for p in CONTENT.iterdir() if (p / "locale" / "labels.pot").is_file())
LABEL_CATALOGUES = sorted(
    p.relative_to(CONTENT).as_posix()
    for name in SAMPLES
    for p in [CONTENT / name / "locale" / "labels.pot", *sorted((CONTENT / name / "locale" / "labels").glob("*.po"))]
)
BOX = re.compile(
    r"box (\d+\.\d)×(\d+\.\d) mm \((\w+)\): ([\d.]+) pt design size, ([\d.]+) pt at least"
    r"(?:; the tightest of its (\d+) boxes)?; at (.+?)(?::(\d+))? \(on ([^)]+)\)"
)
NO_BUDGET = ("no box of its own: no size budget", "printed by no text box of this pack's components")
# The labels of the tool's own pages and bands, printed by none of a pack's templates: every pack
# measures them where they print (the removal list of a round, the draft band).
BUILT_IN = ("Take out of the deck", "removed since %(rev)s", "%(n)d copy", "UNTRANSLATED", "FUZZY")
DRAFT_BAND = "the draft band"
SHEET_WORDS = {w for w, _ in CALIBRATION_WORDS}
FORMATS = {"python-format", "python-brace-format", "fuzzy"}
LABEL = "Under the card"  # cripta's marker, a one-line label box: 6 pt, 5.5 pt at least


def _words(e: polib.POEntry) -> str:
    return " ".join(e.comment.splitlines())


@pytest.mark.parametrize("name", LABEL_CATALOGUES)
def test_every_label_entry_names_its_box_and_both_budgets_or_why_it_has_none(name: str) -> None:
    """In words (Poedit) and as Weblate's flags, as card texts: the box and where the template writes
    it, the design budget within the hard limit, the width at the design size in the pack's font
    group, `max-length` (the hard limit) for a one-line box in a Latin script; a label with no box of
    its own says so and carries no width."""
    cat = polib.pofile(str(CONTENT / name), wrapwidth=0)
    pack = name.split("/")[0]
    assert len(cat) > 0
    for e in (e for e in cat if not e.obsolete):
        words = _words(e)
        found = budgets_of(e)
        if found is None:
            assert e.msgid not in BUILT_IN, (name, e.msgid, words)  # measured where the tool prints it
            assert any(n in words for n in NO_BUDGET), (name, e.msgid, words)
            assert not {"max-size", "font-size", "font-family", "max-length"} & flag_values(e).keys(), e.msgid
            continue
        box = BOX.search(words)
        assert box is not None, (name, e.msgid, words)
        room, hard = found
        assert 0 < room <= hard, (name, e.msgid)
        m = BUDGET.search(words)
        assert m is not None
        size, px, width, lines = float(m.group(1)), int(m.group(8)), int(m.group(6)), int(m.group(7) or 1)
        assert float(box.group(4)) == size and float(box.group(5)) == float(m.group(5))
        flags = flag_values(e)
        assert flags["max-size"] == [str(width), str(lines)], e.msgid
        assert flags["font-size"] == [str(px)] and px == round(size * PX_PER_PT)
        assert flags["font-family"][0].startswith(f"{pack}-"), e.msgid
        assert abs(width - float(box.group(1)) * 72 / 25.4 * px / size) <= 1.5, e.msgid  # 1 pt = px/size
        if lines == 1:
            assert flags["max-length"] == [str(hard)], e.msgid
        where = box.group(7)
        if where == DRAFT_BAND:  # drawn by the tool itself: no template line
            assert e.msgid in BUILT_IN and box.group(8) is None, e.msgid
            continue
        if where == CALIBRATION_SHEET:  # drawn in code too (mazmorra calibrate), on the pack's paper
            assert e.msgid in SHEET_WORDS and box.group(9).endswith(" paper"), e.msgid
            continue
        assert box.group(8) is not None, (e.msgid, words)
        file = CONTENT / pack / where if not where.startswith("mazmorra:") else None
        assert where.startswith("mazmorra:templates/") or (file is not None and file.is_file()), where


@pytest.mark.parametrize("name", LABEL_CATALOGUES)
def test_every_label_flag_parses_with_weblates_grammar(name: str) -> None:
    for line in (CONTENT / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("#, "):
            for flag, params in weblate_flags(line[3:]):
                assert flag in FORMATS or flag in {
                    "max-size",
                    "font-size",
                    "font-family",
                    "font-spacing",
                    "max-length",
                }, line
                assert flag not in FORMATS or not params, line


def test_most_labels_have_a_box_and_the_rest_are_counted() -> None:
    """Where a label prints alone in a box, the box is found: on the pack's cards, and where the tool
    prints the removal page's labels and the draft band's words, in every sample pack."""
    for pack, least in (("expedicion", 50), ("cripta", 40), ("generada", 19)):
        cat = polib.pofile(str(CONTENT / pack / "locale" / "labels.pot"), wrapwidth=0)
        boxed = [e.msgid for e in cat if budgets_of(e) is not None]
        assert len(boxed) >= least, (pack, len(boxed))
    for pack in SAMPLES:
        cat = polib.pofile(str(CONTENT / pack / "locale" / "labels.pot"), wrapwidth=0)
        for word in BUILT_IN:
            e = cat.find(word)
            assert e is not None and budgets_of(e) is not None, (pack, word)
            box = BOX.search(_words(e))
            assert box is not None, (pack, word, _words(e))
            if word in ("UNTRANSLATED", "FUZZY"):  # the band as it prints: 2.7 mm tall, below its 7 pt
                assert box.group(7) == DRAFT_BAND and float(box.group(2)) == 2.7, _words(e)
                assert float(box.group(5)) == 5.5 < float(box.group(4)) < 7, _words(e)
            else:
                assert box.group(7) == "mazmorra:templates/removed.xml.j2", _words(e)
                assert box.group(9) == "the removed cards' page", _words(e)
        title, since = (BOX.search(_words(e)) for e in (cat.find(BUILT_IN[0]), cat.find(BUILT_IN[1])) if e is not None)
        assert title is not None and since is not None
        assert (title.group(4), title.group(5)) == ("16", "9"), title.group(0)  # as removed.xml.j2 writes it
        assert float(since.group(1)) < float(title.group(1)) - 4  # the line less the pack's name beside it
    inline = polib.pofile(str(CONTENT / "expedicion" / "locale" / "labels.pot"), wrapwidth=0).find("Instant")
    assert inline is not None and "inside a longer text (mazmorra:templates/artimana.xml.j2:21" in _words(inline)


def test_a_label_printed_in_several_boxes_has_the_tightest() -> None:
    cat = polib.pofile(str(CONTENT / "cripta" / "locale" / "labels.pot"), wrapwidth=0)
    e = cat.find("Defence")
    assert e is not None
    box = BOX.search(_words(e))
    assert box is not None and int(box.group(6)) >= 2, _words(e)
    assert box.group(7) == "mazmorra:templates/crawler-ui.j2"


def test_label_entries_count_characters_only_in_alphabetic_scripts() -> None:
    """A label's entry in Japanese: the width budget, no character count; in Spanish: both."""
    pack = load_pack(CONTENT / "cripta")
    box = TextBox("", 40.0, 4.0, 6.0, 5.5, 6.0, "label", capacity=30, room=25, lines=1, font="sans")
    label = Label(LABEL, box=LabelBox(box, "mazmorra:templates/marker.xml.j2:19", "energia", 1, 0), measured=True)
    (ja,) = label_entries("ja", [label], pack=pack)
    (es,) = label_entries("es", [label], pack=pack)
    assert "max-size" in flag_values(ja) and "max-length" not in flag_values(ja), ja.flags
    assert flag_values(es)["max-length"] == ["30"] and flag_values(es)["max-size"] == flag_values(ja)["max-size"]
    assert "about 25 characters" in _words(es) and "at most 30 characters" in _words(ja)


def _label_entry(po: Path) -> tuple[polib.POFile, polib.POEntry]:
    cat = polib.pofile(str(po), wrapwidth=0)
    entry = cat.find(LABEL)
    assert entry is not None
    return cat, entry


def _sizes_of(project: Path, text: str) -> set[float]:
    pdfs = sorted((project / "output" / "cripta" / "es").glob("*.pdf"))
    return {round(size, 2) for pdf in pdfs for run, size in pdf_read(pdf)[1] if run.strip() == text}


def _shrunk_line(po: Path) -> int:
    lines = po.read_text(encoding="utf-8").splitlines()
    at = lines.index(f'msgid "{LABEL}"')
    return next(i for i in range(at, len(lines)) if lines[i].startswith("msgstr")) + 1


@pytest.mark.slow  # builds a sample pack (and again)
def test_a_label_at_its_design_budget_prints_at_the_design_size_and_one_more_is_reported(pack_copy) -> None:
    """Built and read back from the PDF: a translation of exactly the design budget's characters is
    drawn at the design size; the next character shrinks it, reported at the label's catalogue entry
    (an error under --strict); one character over the hard limit overflows, said there too."""
    pack = pack_copy("cripta")
    project = pack.parents[1]
    po = pack / "locale" / "labels" / "es.po"
    cat, entry = _label_entry(po)
    found = budgets_of(entry)
    m = BUDGET.search(_words(entry))
    assert found is not None and m is not None
    (room, hard), design, least = found, float(m.group(1)), float(m.group(5))
    assert least < design
    at = _filler(LABEL, room)
    assert len(at) == room
    entry.msgstr = at
    cat.save()
    res = run_cli("build", "cripta", "--lang", "es", "--strict", cwd=project)
    assert res.returncode == 0, res.stderr
    assert "i18n.shrunk" not in res.stderr
    assert _sizes_of(project, at) == {design}
    over = _filler(LABEL, room + 1)
    over = over if len(over) > room else _filler(LABEL, room + 2)  # the next character was a space
    cat, entry = _label_entry(po)
    entry.msgstr = over
    cat.save()
    res = run_cli("build", "cripta", "--lang", "es", cwd=project)
    assert res.returncode == 0, res.stderr
    located = [ln for ln in res.stderr.splitlines() if ln.endswith("(i18n.shrunk)")]
    assert len(located) == 1, res.stderr  # once, whichever markers print it
    assert located[0].startswith(f"content/cripta/locale/labels/es.po:{_shrunk_line(po)}:1: warning"), located
    assert f"the label '{LABEL}'" in located[0] and f"design size {design:g} pt to " in located[0]
    (size,) = _sizes_of(project, over)
    assert least <= size < design
    strict = run_cli("build", "cripta", "--lang", "es", "--strict", cwd=project)
    assert strict.returncode == 1 and "(i18n.shrunk)" in strict.stderr
    cat, entry = _label_entry(po)
    over_hard = _filler(LABEL, hard + 1)
    entry.msgstr = over_hard if len(over_hard) > hard else _filler(LABEL, hard + 2)
    cat.save()
    res = run_cli("validate", "cripta", cwd=project)
    assert res.returncode == 1
    overflow = [ln for ln in res.stderr.splitlines() if ln.endswith("(text.overflow)")]
    assert overflow and overflow[0].startswith(f"content/cripta/locale/labels/es.po:{_shrunk_line(po)}:"), overflow


@pytest.mark.slow  # builds a sample pack (and again)
def test_the_label_as_written_does_not_report_its_own_shrink(pack_copy) -> None:
    """A label whose English is set below its design size: a translation set no smaller is not said."""
    pack = pack_copy("engranajes")
    project = pack.parents[1]
    res = run_cli("build", "engranajes", "--lang", "es", "--strict", cwd=project)
    assert res.returncode == 0 and "i18n.shrunk" not in res.stderr, res.stderr
    po = pack / "locale" / "labels" / "es.po"
    cat = polib.pofile(str(po), wrapwidth=0)
    entry = cat.find("Added to your combat value")
    assert entry is not None
    entry.msgstr = "Se suma a tu valor de combate"  # set smaller than the English: said
    cat.save()
    res = run_cli("build", "engranajes", "--lang", "es", cwd=project)
    assert "(i18n.shrunk)" in res.stderr and "its source text is set at 7 pt" in res.stderr, res.stderr


def _round(pack: Path) -> Path:
    """The pack's project committed and tagged v1, then its last card taken out: a round whose build
    prints the removal list."""
    project = pack.parents[1]
    git = ["git", "-c", "user.name=d", "-c", "user.email=d@example.org", "-c", "commit.gpgsign=false"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "r1"], ["tag", "v1"]):
        subprocess.run([*git, *args], cwd=project, check=True, capture_output=True)
    deck = pack / "decks" / "cartas.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text[: text.rindex("\n- id:") + 1], encoding="utf-8")
    edit(pack / "pack.yaml", "size: 4", "size: 3")
    return project


@pytest.mark.slow  # builds a round of a sample pack (twice)
def test_the_removal_pages_title_at_its_budget_prints_at_the_design_size_and_one_more_is_reported(
    pack_copy,
) -> None:
    """The removal list's title, measured where the round prints it: a translation of its design
    budget is drawn at its 16 pt, one character more shrinks it, said at its catalogue entry."""
    pack = pack_copy("muestras")
    project = _round(pack)
    po = pack / "locale" / "labels" / "es.po"
    title = BUILT_IN[0]
    for extra in (0, 1):
        cat = polib.pofile(str(po), wrapwidth=0)
        entry = cat.find(title)
        assert entry is not None
        found = budgets_of(entry)
        assert found is not None
        text = _filler(title, found[0] + extra)
        text = text if len(text) == found[0] + extra or not extra else _filler(title, found[0] + 2)
        entry.msgstr = text
        cat.save()
        res = run_cli("build", "muestras", "--changed-since", "v1", "--lang", "es", cwd=project)
        assert res.returncode == 0, res.stderr
        pdf = project / "output" / "changes" / "muestras" / "es" / "removed.pdf"
        sizes = {round(size, 2) for run, size in pdf_read(pdf)[1] if run.strip() == text}
        shrunk = [ln for ln in res.stderr.splitlines() if ln.endswith("(i18n.shrunk)")]
        if not extra:
            assert sizes == {16.0} and not shrunk, (sizes, res.stderr)
        else:
            (size,) = sizes
            assert 9 <= size < 16, sizes
            line = _shrunk_line_of(po, title)
            assert len(shrunk) == 1 and shrunk[0].startswith(f"content/muestras/locale/labels/es.po:{line}:"), shrunk
            assert f"the label '{title}'" in shrunk[0], shrunk


def _shrunk_line_of(po: Path, msgid: str) -> int:
    lines = po.read_text(encoding="utf-8").splitlines()
    at = lines.index(f'msgid "{msgid}"')
    return next(i for i in range(at, len(lines)) if lines[i].startswith("msgstr")) + 1


def test_the_label_catalogues_stay_clean_for_msgfmt(tmp_path: Path) -> None:
    need_tool("msgfmt")
    for name in LABEL_CATALOGUES:
        if name.endswith(".po"):
            res = subprocess.run(
                ["msgfmt", "--check", "-o", str(tmp_path / "out.mo"), str(CONTENT / name)],
                capture_output=True,
                text=True,
            )
            assert res.returncode == 0 and not res.stderr, (name, res.stderr)


@pytest.mark.parametrize("word", ["UNTRANSLATED", "FUZZY"])
def test_a_band_word_at_its_budget_prints_at_the_bands_size_beside_its_count(word: str) -> None:
    """The draft band of cripta's narrowest face with the word translated to its design budget and a
    two-digit count: set at the band's size (the entry's design size); far over it, smaller."""
    from mazmorra.assets.icons import IconSet
    from mazmorra.contracts import Face, TextOp
    from mazmorra.i18n.labels import Labels
    from mazmorra.layout.face import draft_marker
    from mazmorra.support.paths import templates_dir

    pack = load_pack(CONTENT / "cripta")
    entry = polib.pofile(str(CONTENT / "cripta" / "locale" / "labels" / "es.po"), wrapwidth=0).find(word)
    assert entry is not None
    found, m = budgets_of(entry), BUDGET.search(_words(entry))
    assert found is not None and m is not None
    design, w = float(m.group(1)), min(d.size_mm[0] for d in pack.decks)
    marks = [(f"f{i}", "fuzzy" if word == "FUZZY" else "untranslated") for i in range(40)]  # counted: 40
    sizes = []
    for n in (found[0], found[0] + 12):
        labels = Labels(pack.root, templates_dir(), "es")
        labels.table[word] = _filler(word, n)
        face = draft_marker(
            Face("x", "front", w, 88.0, 0.0, ()), "es", marks, IconSet.for_pack(pack.root), pack, labels
        )
        sizes.append({round(op.size, 2) for op in face.ops if isinstance(op, TextOp)})
    assert sizes[0] == {design}, sizes
    assert max(sizes[1]) < design, sizes
