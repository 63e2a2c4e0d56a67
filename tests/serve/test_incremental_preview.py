"""`mazmorra serve`'s rebuild after a save, in this process: the language on screen is built and
published first, only the faces whose inputs changed are laid out, only changed files are parsed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import edit

from mazmorra.build import pipeline
from mazmorra.serve.live import live_html
from mazmorra.serve.preview import Preview
from mazmorra.source import yamlsafe


def test_a_save_builds_the_language_on_screen_first_and_lays_out_only_the_changed_card(
    pack_copy, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    pack: Path = pack_copy("muestras")
    monkeypatch.chdir(pack.parents[1])
    builds: list[tuple[tuple[str, ...] | None, list[str]]] = []
    real = pipeline.build

    def build(pack_dir: Path, opts: pipeline.BuildOptions, *args: object, **kwargs: object) -> pipeline.BuildResult:
        res = real(pack_dir, opts, *args, **kwargs)  # type: ignore[arg-type]
        builds.append((opts.langs, sorted(res.laid_out)))
        return res

    monkeypatch.setattr("mazmorra.serve.preview.build", build)
    parsed: list[str] = []
    parse = yamlsafe.parse_yaml
    monkeypatch.setattr(yamlsafe, "parse_yaml", lambda text, name: parsed.append(name) or parse(text, name))
    preview = Preview(pack, None, live_html)
    try:
        assert preview.rebuild().ok and len(builds) == 1
        preview.viewing = "en"  # the page last asked for an English picture
        parsed.clear()
        edit(pack / "decks/cartas.yaml", "  icon: coin\n", "  icon: chest\n")
        version = preview.status.version
        status = preview.rebuild({pack / "decks/cartas.yaml"})
        assert status.ok and status.version == version + 2  # published twice: English, then Spanish
        assert builds[1:] == [(("en",), ["en/cofre-olvidado/front"]), (("es",), ["es/cofre-olvidado/front"])]
        assert parsed == ["content/muestras/decks/cartas.yaml"]  # pack.yaml and the glossary: as parsed before
        assert any("chest" in str(f.ops) for f in preview.faces)
    finally:
        preview.close()


def test_the_page_turning_to_another_language_during_the_first_stage_still_builds_every_language(
    pack_copy, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """The page asks for a picture in another language while the language on screen is being built
    (a designer switching languages as they save): the save is still built in every language."""
    pack: Path = pack_copy("muestras")
    monkeypatch.chdir(pack.parents[1])
    preview = Preview(pack, None, live_html)
    built: list[tuple[str, ...] | None] = []
    real = pipeline.build

    def build(pack_dir: Path, opts: pipeline.BuildOptions, *args: object, **kwargs: object) -> pipeline.BuildResult:
        built.append(opts.langs)
        if opts.langs == ("en",):
            preview.viewing = "es"  # what the server's thread sets when the page asks for a Spanish picture
        return real(pack_dir, opts, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("mazmorra.serve.preview.build", build)
    try:
        assert preview.rebuild().ok

        def pictures() -> dict[str, str]:  # the card's front picture in each language (its address: its content)
            return {lang: preview.docs["cartas", lang].components["cofre-olvidado"].front for lang in ("es", "en")}

        before = pictures()
        preview.viewing = "en"
        built.clear()
        edit(pack / "decks/cartas.yaml", "  icon: coin\n", "  icon: chest\n")
        assert preview.rebuild({pack / "decks/cartas.yaml"}).ok
        assert built == [("en",), ("es",)]
        after = pictures()
        assert after["es"] != before["es"] and after["en"] != before["en"]
    finally:
        preview.close()
