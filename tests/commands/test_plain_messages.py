"""Messages in the designer's words, naming no path of this machine: language names, revisions."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import CONTENT, run_cli


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A designer's git repository (tags v1, v1.1, ronda-2) holding one pack: the pack folder."""
    pack = tmp_path / "juegos" / "muestras"
    shutil.copytree(CONTENT / "muestras", pack)
    git = ["git", "-c", "user.name=d", "-c", "user.email=d@example.org"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "r1"], ["tag", "v1"], ["tag", "v1.1"]):
        subprocess.run([*git, *args], cwd=pack.parent, check=True)
    subprocess.run([*git, "tag", "ronda-2"], cwd=pack.parent, check=True)
    return pack


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (("validate", "--lang", "english"), "'en'"),
        (("build", "--lang", "Español"), "'es'"),
        (("diff", "--since", "v1", "--lang", "inglés"), "'en'"),
        (("build", "--lang", "EN"), "'en'"),
        (("i18n", "add", "french"), "'fr'"),
    ],
)
def test_a_language_by_name_gets_its_code(repo: Path, args: tuple[str, ...], meant: str) -> None:
    res = run_cli(*args, cwd=repo / "decks")
    assert res.returncode == 2, res.stderr
    assert f"did you mean {meant}?" in res.stderr
    assert not (repo.parent / "output").exists()


@pytest.mark.parametrize(
    ("since", "listed"),
    [("v1.2", "nearest tags: v1.1, v1"), ("ronda2", "nearest tags: ronda-2"), ("zzz", "newest tags: ")],
)
def test_an_unknown_revision_lists_the_tags_there_are(repo: Path, since: str, listed: str) -> None:
    res = run_cli("diff", "--since", since, cwd=repo / "decks")
    assert res.returncode == 2
    assert listed in res.stderr and "repository at ../.." in res.stderr
    assert str(repo.parent) not in res.stderr


def test_messages_from_inside_a_pack_name_no_path_of_this_machine(repo: Path) -> None:
    res = run_cli("i18n", "add", "fr", cwd=repo / "locale")
    assert res.returncode == 0, res.stderr
    assert "translate ../../muestras/locale/fr.po" in res.stderr
    for args in (("diff", "--since", "v1"), ("validate",), ("i18n", "update"), ("build", "--lang", "fr")):
        res = run_cli(*args, cwd=repo / "locale")
        assert "muestras" in res.stderr + res.stdout or "✓ fr.po: " in res.stderr, args  # a file from here
        assert str(repo.parent) not in res.stderr + res.stdout, args


def test_a_shipped_template_is_named_mazmorra_colon_not_a_climb_out_of_the_pack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A finding at a template the tool ships reads `mazmorra:templates/card.xml.j2:5:3` in the
    terminal and in the JSON (the preview's panel reads the JSON), wherever the tool is installed."""
    pack = tmp_path / "juegos" / "p"
    (pack / "decks").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "id: p\nname: P\nsource_language: en\nlanguages: [en]\n"
        "decks:\n  - {id: c, kind: card, name: Cards, file: decks/c.yaml}\n",
        encoding="utf-8",
    )
    (pack / "decks" / "c.yaml").write_text('- id: a\n  name: Pale\n  colour: "#fafafa"\n', encoding="utf-8")
    res = run_cli("build", "--out", str(tmp_path / "out"), cwd=pack / "decks")
    assert res.returncode == 1 and "print.contrast" in res.stderr, res.stderr
    assert "\nmazmorra:templates/card.xml.j2:5:3: error [a] (en): front: text “Pale”" in "\n" + res.stderr, res.stderr
    assert "../" not in res.stderr and "cli/mazmorra" not in res.stderr, res.stderr
    from mazmorra.errors import Loc, Problem, rel
    from mazmorra.support.paths import templates_dir

    for cwd in (pack, templates_dir(), Path("/")):  # inside a pack, inside the tool's own folder, anywhere
        monkeypatch.chdir(cwd)
        loc = Loc(rel(templates_dir() / "card-back.xml.j2"), 3, 1)  # a Loc's file is rel() of where it ran
        assert str(loc) == "mazmorra:templates/card-back.xml.j2:3:1", cwd
        assert Problem("x.y", "z", loc).as_dict()["file"] == "mazmorra:templates/card-back.xml.j2", cwd
