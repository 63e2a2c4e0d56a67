"""The one name maker (support/filenames.py) and the one CSV writer (safetext.csv_bytes), on their own:
what the builds in render/sinks/test_hostile_names.py rely on."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from mazmorra.support.filenames import BadPattern, Names, OutsideOutput, output_path, parse_pattern, safe_name
from mazmorra.support.safetext import csv_bytes

HOSTILE = ["con", "=cmd|' /C calc'!A0", "..\\..\\x", "a\rb"]


@pytest.mark.parametrize(
    "value, name",
    [
        ("con", "_con"),
        ("CON.pdf", "_CON.pdf"),
        ("nul.txt", "_nul.txt"),
        ("lpt1", "_lpt1"),
        ("com9.tar.gz", "_com9.tar.gz"),
        ("con-front.png", "con-front.png"),  # only the part before the first dot is reserved
        ("console", "console"),
        ("..\\..\\x", "x"),
        ("../../etc/passwd", "etc-passwd"),
        ("=cmd|' /C calc'!A0", "cmd-C-calc-A0"),
        ("a\rb", "a-b"),
        ("a.", "a"),  # Windows drops a trailing dot
        ("..", "file"),
        (".hidden", "hidden"),
        ("-rf", "rf"),
        ("Ojo del vigía", "Ojo-del-vigia"),
    ],
)
def test_a_safe_name_is_plain_ascii_and_never_reserved(value: str, name: str) -> None:
    assert safe_name(value) == name


def test_a_long_name_keeps_its_extension() -> None:
    name = safe_name("x" * 300 + ".pdf")
    assert len(name) == 100 and name.endswith("x.pdf")


@pytest.mark.parametrize("value", HOSTILE)
def test_a_value_never_adds_a_folder_nor_leaves_the_root(tmp_path: Path, value: str) -> None:
    target = output_path(tmp_path, "{pack}/{lang}/{deck}.pdf", pack=value, lang="es", deck=value)
    rel = target.relative_to(tmp_path)
    assert len(rel.parts) == 3 and rel.parts[1] == "es"
    assert all(part not in (".", "..") and part.split(".")[0].lower() != "con" for part in rel.parts)


def test_the_same_request_gets_the_same_name_and_another_one_a_number(tmp_path: Path) -> None:
    names = Names()
    first = output_path(tmp_path, "{component}-{n}-front.png", names, component="a", n=2)
    assert output_path(tmp_path, "{component}-{n}-front.png", names, component="a", n=2) == first
    other = output_path(tmp_path, "{component}-front.png", names, component="a-2")  # lands on a-2-front.png
    assert (first.name, other.name) == ("a-2-front.png", "a-2-front-2.png")
    upper = output_path(tmp_path, "{component}-front.png", names, component="A-2")  # Windows and macOS: the same
    assert upper.name == "A-2-front-3.png"
    again = Names()  # another document, another build: the same names in the same order
    assert output_path(tmp_path, "{component}-{n}-front.png", again, component="a", n=2) == first


def test_a_link_out_of_the_output_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out, elsewhere = tmp_path / "output", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "pack").symlink_to(elsewhere)
    with pytest.raises(OutsideOutput, match="outside") as refused:
        output_path(out, "{pack}/{deck}.pdf", pack="pack", deck="d")
    assert " /" not in f" {refused.value}", "no absolute path in a message: a folder of this machine"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OutsideOutput) as refused:
        output_path(out, "{pack}/{deck}.pdf", pack="pack", deck="d")
    assert (
        str(refused.value)
        == "output/pack/d.pdf would be written outside output (a link inside it leads to elsewhere/d.pdf)"
    )


def test_a_document_s_names_refuse_links_out_as_well(tmp_path: Path) -> None:
    """With a document's `Names` (every sink's files), folders are resolved once for the document and
    a file is followed only where it is a link: a linked folder or a linked file is refused the same."""
    out, elsewhere = tmp_path / "output", tmp_path / "elsewhere"
    (out / "own").mkdir(parents=True)
    elsewhere.mkdir()
    (out / "pack").symlink_to(elsewhere)
    (out / "own" / "d.pdf").symlink_to(elsewhere / "d.pdf")
    names = Names()
    with pytest.raises(OutsideOutput, match="outside"):
        output_path(out, "{pack}/{deck}.pdf", names, pack="pack", deck="d")
    with pytest.raises(OutsideOutput, match="outside"):
        output_path(out, "{pack}/{deck}.pdf", names, pack="own", deck="d")
    assert output_path(out, "{pack}/{deck}.pdf", names, pack="own", deck="e") == out / "own" / "e.pdf"


def test_a_document_resolves_each_folder_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    resolved: list[Path] = []
    real = Path.resolve
    monkeypatch.setattr(Path, "resolve", lambda self, strict=False: resolved.append(self) or real(self, strict))
    names = Names()
    for n in range(50):  # a deck's card images: one folder
        output_path(tmp_path, "{deck}/{n}-front.png", names, deck="d", n=n)
    assert sorted(resolved) == sorted([tmp_path, tmp_path / "d"])


def test_numbers_are_padded_as_the_pattern_says(tmp_path: Path) -> None:
    assert output_path(tmp_path, "{deck}/{n:03d}-{component}.pdf", deck="d", n=7, component="c").name == "007-c.pdf"


@pytest.mark.parametrize(
    "text, message",
    [
        ("../../../../x.pdf", "'..' climbs out"),
        ("{deck}/../{n}.pdf", "'..' climbs out"),
        (".{deck}.pdf", "hidden"),
        ("/etc/{deck}.pdf", "starts with '/'"),
        ("{deck}//{n}.pdf", "empty name"),
        ("{deck.__class__}.pdf", "unknown placeholder '{deck.__class__}'"),
        ("{deck[0]}.pdf", "unknown placeholder '{deck[0]}'"),
        ("{name}.pdf", "unknown placeholder '{name}'"),
        ("{n:>9}.pdf", "unknown placeholder '{n:>9}'"),
        ("{deck}\\x.pdf", "the character '\\\\'"),
        ("{deck} x.pdf", "the character ' '"),
        ("{deck.pdf", "an unmatched brace"),
    ],
)
def test_a_pattern_with_a_climb_an_attribute_or_an_unknown_placeholder_is_refused(text: str, message: str) -> None:
    with pytest.raises(BadPattern) as err:
        parse_pattern(text, ["deck", "n", "component", "side", "lang"])
    assert message in str(err.value)


def test_every_cell_reads_back_as_written_one_row_each_never_a_formula() -> None:
    rows = [["n", "name"], *([str(i), text] for i, text in enumerate(HOSTILE)), ["5", 'say "hi", \n\t@once']]
    read = list(csv.reader(io.StringIO(csv_bytes(rows).decode("utf-8-sig"), newline="")))
    assert len(read) == len(rows)
    assert [r[1] for r in read[1:]] == ["con", "'=cmd|' /C calc'!A0", "..\\..\\x", "a\rb", 'say "hi", \n\t@once']


def test_plain_rows_are_written_as_the_csv_module_writes_them() -> None:
    rows = [["component", "name", "copies"], ["cofre-olvidado", "Cofre olvidado", "2"], ["a", 'b, "c"', "1"]]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    assert csv_bytes(rows) == buf.getvalue().encode("utf-8-sig")  # the csv module's rows, after Excel's BOM


def test_the_file_starts_with_the_byte_order_mark_excel_needs_for_utf8() -> None:
    data = csv_bytes([["name"], ["Ojo del vigía"]])
    assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\xef\xbb\xbf") == 1
    assert data[3:].decode("utf-8") == "name\nOjo del vigía\n"
