"""`mazmorra build --changed-only` (what `make` runs, tests/smoke/test_make.py): a deck is rebuilt when
the options it was made with change, even with its inputs unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO, edit, run_cli

from mazmorra.errors import ContentError
from mazmorra.support.paths import templates_dir


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with its own copy of the shipped templates (as tests/smoke/test_make.py's) and muestras."""
    shutil.copytree(templates_dir(), tmp_path / "templates")
    shutil.copytree(REPO / "content" / "muestras", tmp_path / "content" / "muestras")
    return tmp_path


@pytest.mark.slow
def test_changed_options_rebuild_even_with_unchanged_inputs(project: Path) -> None:
    env = {"MAZMORRA_TEMPLATES": str(project / "templates")}
    assert run_cli("build", "muestras", "--lang", "es", cwd=project, env=env).returncode == 0
    pdf = project / "output/muestras/es/cartas.pdf"
    first = pdf.read_bytes()
    res = run_cli("build", "muestras", "--lang", "es", "--changed-only", cwd=project, env=env)
    assert res.returncode == 0 and pdf.read_bytes() == first and "0 PDF(s)" in res.stderr
    res = run_cli(
        "build",
        "muestras",
        "--lang",
        "es",
        "--changed-only",
        "--layout",
        "fold",
        cwd=project,
        env=env,
    )
    assert res.returncode == 0 and pdf.read_bytes() != first  # made with other options: rebuilt


def test_the_stamps_make_lists_come_from_pack_yaml_alone(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    """`python -m mazmorra.build.incremental` (the Makefile's listing) says what `mazmorra outputs --stamps`
    says without loading any pack: a deck file that does not even parse changes nothing; a pack.yaml
    that does not name its id makes it fail, so make asks `mazmorra validate` why."""
    from mazmorra.build import incremental

    monkeypatch.chdir(project)
    listed = run_cli("outputs", "--stamps", cwd=project)
    assert listed.returncode == 0 and listed.stdout.split() == [
        "output/.stamps/muestras/es.stamp",
        "output/.stamps/muestras/en.stamp",
    ]
    (project / "content/muestras/decks/cartas.yaml").write_text("- [unclosed", encoding="utf-8")
    assert incremental.main(["output"]) == 0
    assert capsys.readouterr().out.split() == listed.stdout.split()
    pack_yaml = project / "content/muestras/pack.yaml"
    pack_yaml.write_text(
        pack_yaml.read_text(encoding="utf-8").replace("id: muestras", "ids: muestras"), encoding="utf-8"
    )
    assert incremental.main(["output"]) == 1


@pytest.mark.slow
def test_changed_only_localises_validates_and_lays_out_only_what_is_stale(
    pack_copy, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """A second `--changed-only` build with nothing changed loads the pack and stops there (nothing
    validated, localised or laid out); after one deck file is saved, only that deck is laid out and
    written, in the languages it is stale in, and the pack is still validated whole."""
    from mazmorra.build import pipeline
    from mazmorra.build.pipeline import BuildOptions, build

    pack = pack_copy("cripta")
    monkeypatch.chdir(pack.parents[1])
    out = pack.parents[1] / "output"
    opts = BuildOptions(out_dir=out, changed_only=True)
    first = build(pack, opts)
    assert {deck for deck, _ in first.documents} == {p.stem for p in (pack / "decks").iterdir()}
    calls: list[str] = []
    for stage in ("validate", "localise", "lay_out"):
        real = getattr(pipeline, stage)
        monkeypatch.setattr(pipeline, stage, lambda *a, _r=real, _s=stage, **k: calls.append(_s) or _r(*a, **k))
    pdfs = {p: p.stat().st_mtime_ns for p in out.rglob("*.pdf")}
    again = build(pack, opts)
    assert calls == [] and again.documents == {} and again.outputs == [] and again.laid_out == []
    edit(pack / "decks/enemigos.yaml", "  defence: -1\n", "  defence: 0\n")  # rata-osario
    saved = build(pack, opts)
    # the enemies' deck, and the dice's, whose template prints enemies (components[...]): nothing else
    assert sorted(saved.documents) == [(d, lang) for d in ("dados", "enemigos") for lang in ("en", "es")]
    assert calls.count("validate") == 1 and calls.count("localise") == 2
    assert sorted(str(p.relative_to(out)) for p in saved.outputs) == [
        "cripta/en/enemies.pdf",
        "cripta/en/enemy-dice.pdf",
        "cripta/es/dados.pdf",
        "cripta/es/enemigos.pdf",
    ]
    assert {face.split("/")[1] for face in saved.laid_out} == {"rata-osario", "dado-cripta"}  # not dado-hondo
    untouched = {p: t for p, t in pdfs.items() if p.stem not in ("enemigos", "dados", "enemies", "enemy-dice")}
    assert untouched and all(p.stat().st_mtime_ns == t for p, t in untouched.items())
    edit(pack / "decks/enemigos.yaml", "  defence: 0\n", "  defence: 99\n")  # out of range: the build fails
    with pytest.raises(ContentError):
        build(pack, opts)
    assert all(p.stat().st_mtime_ns == t for p, t in untouched.items())


@pytest.mark.slow
def test_every_file_a_dependency_file_names_can_be_found(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dependency files name files as make opens them from the working folder, the tool's own fonts
    and icons included (not as messages name them, `mazmorra:fonts/…`, which would make every deck
    out of date forever)."""
    from mazmorra.build.incremental import read_rule

    res = run_cli("build", "muestras", "--lang", "es", cwd=project)  # the shipped templates, fonts and icons
    assert res.returncode == 0, res.stderr
    monkeypatch.chdir(project)
    rule = read_rule(Path("output/.deps/muestras/es/cartas.d"))
    assert rule is not None
    target, deps, _ = rule
    assert Path(target).is_file() and any(d.endswith(".ttf") for d in deps)
    assert [d for d in deps if not Path(d).is_file()] == []
    res = run_cli("build", "muestras", "--lang", "es", "--changed-only", cwd=project)
    assert res.returncode == 0 and "0 PDF(s)" in res.stderr, res.stderr  # up to date


@pytest.mark.slow
def test_a_dependency_file_names_the_icons_its_pages_drew_also_from_the_chunk_cache(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The icons a PDF's pages drew ride back on the PDF sink's part (`render.made_from`): the deck's
    dependency file names them, and names them again when a warm build takes every chunk of the
    PDF from the chunk cache instead of drawing it."""
    from mazmorra.build.incremental import depfile_path, read_rule
    from mazmorra.build.pipeline import BuildOptions, build
    from mazmorra.render.draw import chunks

    monkeypatch.chdir(project)
    opts = BuildOptions(langs=("es",), decks=("cartas",), jobs=1)

    def icons() -> list[str]:
        (pdf,) = build(Path("content/muestras"), opts).outputs
        rule = read_rule(depfile_path(opts.out_dir, pdf))
        assert rule is not None
        return sorted(Path(d).name for d in rule[1] if Path(d).suffix == ".svg")

    cold = icons()
    assert {"coin.svg", "campfire.svg"} <= set(cold), cold
    drawn = len(chunks.DRAWN)
    assert icons() == cold and len(chunks.DRAWN) == drawn  # every chunk taken from the chunk cache
