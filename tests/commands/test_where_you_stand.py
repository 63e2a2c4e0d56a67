"""Commands run where the designer stands: inside a pack, or any folder under it, they need no PACK."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import CONTENT, run_cli


@pytest.fixture
def own_folder(tmp_path: Path) -> Path:
    """A pack kept in a designer's own folder (no content/): ~/juegos/muestras."""
    pack = tmp_path / "juegos" / "muestras"
    shutil.copytree(CONTENT / "muestras", pack)
    return pack


@pytest.mark.parametrize("where", [".", "decks"])
def test_validate_inside_a_pack_and_a_subfolder(own_folder: Path, where: str) -> None:
    res = run_cli("validate", cwd=own_folder / where)
    assert res.returncode == 0, res.stderr
    assert "✓ muestras: valid" in res.stderr


def test_build_from_a_subfolder_writes_beside_the_pack(own_folder: Path) -> None:
    """Not decks/output/: output/ beside the pack (its parent folder here), said in the summary."""
    res = run_cli("build", "--lang", "es", cwd=own_folder / "decks")
    assert res.returncode == 0, res.stderr
    assert "writing to ../../output" in res.stderr
    assert (own_folder.parent / "output" / "muestras" / "es" / "cartas.pdf").is_file()
    assert not (own_folder / "decks" / "output").exists() and not (own_folder / "output").exists()
    assert "../../output/muestras/es/cartas.pdf" in res.stdout


def test_build_inside_a_pack_under_content_writes_beside_content(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("muestras")
    res = run_cli("build", "--lang", "es", cwd=pack / "decks")
    assert res.returncode == 0, res.stderr
    assert (pack.parent.parent / "output" / "muestras" / "es" / "cartas.pdf").is_file()


def test_an_explicit_out_is_kept(own_folder: Path) -> None:
    res = run_cli("build", "--lang", "es", "--out", "pdfs", cwd=own_folder / "decks")
    assert res.returncode == 0, res.stderr
    assert (own_folder / "decks" / "pdfs" / "muestras" / "es" / "cartas.pdf").is_file()
    assert "writing to" not in res.stderr


def test_diff_and_i18n_status_from_a_subfolder(own_folder: Path) -> None:
    before = own_folder.parent / "ronda1"
    shutil.copytree(own_folder, before)
    res = run_cli("diff", "--since", "../../ronda1", "--format", "json", cwd=own_folder / "decks")
    assert res.returncode == 0, res.stderr
    assert isinstance(json.loads(res.stdout), dict)
    res = run_cli("i18n", "status", "--json", cwd=own_folder / "locale")
    assert res.returncode == 0, res.stderr
    assert {row["pack"] for row in json.loads(res.stdout)} == {"muestras"}


def test_serve_finds_the_pack_it_stands_in(own_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mazmorra.commands.options import one_pack

    monkeypatch.chdir(own_folder / "decks")
    found = one_pack(None, "preview")
    assert found == Path("../../muestras") and found.resolve() == own_folder.resolve()


def test_outside_any_pack_it_says_where_it_looked(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    res = run_cli("validate", cwd=tmp_path / "a" / "b")
    assert res.returncode == 2, res.stderr
    assert "no pack.yaml in '.' or the" in res.stderr and "no 'content' folder in '.'" in res.stderr
    assert str(tmp_path) not in res.stderr


def test_printer_twice_builds_for_each(own_folder: Path) -> None:
    res = run_cli("build", "--lang", "es", "--printer", "drivethrucards", "--printer", "thegamecrafter", cwd=own_folder)
    assert res.returncode == 0, res.stderr
    es = own_folder.parent / "output" / "muestras" / "es"
    assert any((es / "drivethrucards").rglob("*.pdf")) and any((es / "thegamecrafter").rglob("*.png"))


def test_lang_twice_means_both(own_folder: Path) -> None:
    res = run_cli("validate", "--lang", "es", "--lang", "en", "--json", cwd=own_folder)
    assert res.returncode == 0, res.stderr
    res = run_cli("build", "--lang", "es", "--lang", "en", cwd=own_folder)
    assert res.returncode == 0, res.stderr
    out = own_folder.parent / "output" / "muestras"
    assert (out / "es" / "cartas.pdf").is_file() and (out / "en" / "loose-cards.pdf").is_file()


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("build", "--page", "a4", "--page", "letter"), "--page"),
        (("build", "--png", "--dpi", "100", "--dpi=200"), "--dpi"),
        (("build", "-o", "a", "--out", "b"), "--out"),
        (("diff", "--since", "v1", "--since", "v2"), "--since"),
    ],
)
def test_a_single_value_option_given_twice_is_refused(own_folder: Path, args: tuple[str, ...], flag: str) -> None:
    res = run_cli(*args, cwd=own_folder)
    assert res.returncode == 2
    assert flag in res.stderr and "given 2 times" in res.stderr
    assert not (own_folder.parent / "output").exists() and not (own_folder / "a").exists()


def test_serve_inside_a_pack_and_ctrl_c_prints_no_library_noise(own_folder: Path) -> None:
    import signal

    from conftest import ServeProcess

    server = ServeProcess(own_folder / "decks")
    try:
        assert "previewing muestras at http://" in server.wait_line("previewing ")
    finally:
        code = server.stop(signal.SIGINT)
    said = "".join(server.lines)
    assert code == 0, said
    assert "stopped" in said and "KeyboardInterrupt" not in said and "Traceback" not in said


def test_listings_inside_a_pack_include_its_own(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("grimorio")
    kinds = run_cli("kinds", cwd=pack / "decks")
    assert kinds.returncode == 0, kinds.stderr
    assert "(declared in grimorio)" in kinds.stdout
    printers = run_cli("printers", cwd=pack / "decks")
    assert printers.returncode == 0 and printers.stdout.startswith("grimorio:"), printers.stdout[:200]
    icons = run_cli("icons", cwd=pack / "decks")
    assert icons.stdout.startswith("grimorio: "), icons.stdout[:200]


def test_i18n_update_names_the_files_it_wrote_from_where_the_designer_stands(own_folder: Path) -> None:
    """Inside the pack `locale/en.po` (a path that opens from there), from a subfolder `../locale/en.po`;
    not `muestras/locale/en.po`, which opens from neither."""
    res = run_cli("i18n", "update", cwd=own_folder)
    assert res.returncode == 0, res.stderr
    assert "✓ locale/en.po: " in res.stderr and "muestras/locale" not in res.stderr, res.stderr
    res = run_cli("i18n", "update", cwd=own_folder / "decks")
    assert "✓ ../locale/en.po: " in res.stderr, res.stderr
    res = run_cli("i18n", "update", "juegos/muestras", cwd=own_folder.parent.parent)  # from above: the path from there
    assert "✓ juegos/muestras/locale/en.po: " in res.stderr, res.stderr
