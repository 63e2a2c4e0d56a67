"""`mazmorra serve`'s rebuild after a save, in this process: the language on screen is built and
published first, only the faces whose inputs changed are laid out, only changed files are parsed."""

from __future__ import annotations

import re
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
        assert any("chest" in str(face.ops) for face, _ in preview.drawn.values())
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


def _patched(page: str, patch: dict[str, object]) -> str:
    """The page as the browser makes it from a patch: each component's <article> replaced by the one
    sent, the summary line set (the rest of the page is left as it was)."""
    import re

    parts = patch["parts"]
    assert isinstance(parts, dict)
    for element_id, html in parts.items():
        found = re.search(rf'<article class="[^"]*" id="{re.escape(element_id)}">.*?</article>', page)
        assert found is not None, element_id
        page = page[: found.start()] + html + page[found.end() :]
    return re.sub(r'(<span class="summary">)[^<]*(</span>)', rf"\g<1>{patch['summary']}\g<2>", page, count=1)


def test_a_card_edit_is_sent_as_the_changed_components_the_page_made_whole_from_them(pack_copy, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A save that changes a few components publishes them (`patch`): the page of the last good build
    with those <article>s swapped in is exactly the new page, byte for byte; a change to the page
    around them (a deck's name) or a failed build in between sends the page whole."""
    pack: Path = pack_copy("muestras")
    monkeypatch.chdir(pack.parents[1])
    deck = pack / "decks/cartas.yaml"
    preview = Preview(pack, None, live_html)
    try:
        first = preview.rebuild()
        assert first.ok and first.patch is None  # the first page: nothing to patch
        page = preview.page.decode()
        preview.viewing = "es"
        edit(deck, "name: Cofre olvidado\n", "name: Cofre perdido\n")
        last = preview.rebuild({deck})  # published in Spanish, then in English (this status)
        assert last.ok and last.patch is not None
        sent = last.as_dict()["patch"]
        assert isinstance(sent, dict) and sent["base"] == first.version + 1  # the Spanish stage's page
        assert list(sent["parts"]) == ["c-cofre-olvidado"] and "Cofre perdido" in sent["parts"]["c-cofre-olvidado"]
        assert sent["summary"] == re.search(r'class="summary">([^<]*)<', preview.page.decode())[1]  # type: ignore[index]

        # Both stages' patches, applied in order to the first page, make the page served now.
        preview.status = first  # replay: collect the two statuses of one more edit
        statuses: list[dict[str, object]] = []
        monkeypatch.setattr(
            preview, "_publish", lambda s: statuses.append(s.as_dict()) or setattr(preview, "status", s)
        )
        page = preview.page.decode()
        edit(deck, "name: Cofre perdido\n", "name: Cofre hundido\n")
        assert preview.rebuild({deck}).ok
        assert [s["version"] for s in statuses] == [first.version + 1, first.version + 2]
        for status in statuses:
            patch = status["patch"]
            assert isinstance(patch, dict) and list(patch["parts"]) == ["c-cofre-olvidado"]
            page = _patched(page, patch)
        assert "Cofre hundido" in page and page == preview.page.decode()

        # The deck's name is in the page around the components: the page is sent whole.
        statuses.clear()
        edit(pack / "pack.yaml", "name: Cartas sueltas\n", "name: Cartas a granel\n")
        assert preview.rebuild({pack / "pack.yaml"}).ok
        assert statuses and all("patch" not in s for s in statuses)

        # A failed build between two good ones: the good one's patch starts from the last good page.
        statuses.clear()
        edit(deck, "  copies: 2\n", "  copies: dos\n")
        assert not preview.rebuild({deck}).ok
        edit(deck, "  copies: dos\n", "  copies: 2\n")
        edit(deck, "name: Cofre hundido\n", "name: Cofre abierto\n")
        assert preview.rebuild({deck}).ok
        good = [s for s in statuses if s["ok"]]
        failed = [s for s in statuses if not s["ok"]]
        assert failed and good and all("patch" not in s for s in failed)
        assert good[0]["patch"]["base"] == failed[0]["version"] - 1  # type: ignore[index]
        assert list(good[0]["patch"]["parts"]) == ["c-cofre-olvidado"]  # type: ignore[index]
    finally:
        preview.close()


def test_a_template_edit_that_leaves_a_face_as_it_was_keeps_its_picture(pack_copy, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Every face's key changes with its template, so the pictures are found by face too: an edit
    that draws nothing new (a comment) draws no picture again; one that does draws those faces."""
    import shutil

    from mazmorra.render.sinks.gallery import GallerySink
    from mazmorra.support.paths import templates_dir

    pack: Path = pack_copy("muestras")
    monkeypatch.chdir(pack.parents[1])
    own = tmp_path / "templates"
    shutil.copytree(templates_dir(), own)
    monkeypatch.setenv("MAZMORRA_TEMPLATES", str(own))
    drawn: list[str] = []
    real = GallerySink.jpegs

    def jpegs(self, lang, wanted, icons=None):  # type: ignore[no-untyped-def]
        drawn.extend(f"{lang}/{face.component}/{face.side}" for _, face in wanted)
        return real(self, lang, wanted, icons)

    monkeypatch.setattr(GallerySink, "jpegs", jpegs)
    preview = Preview(pack, None, live_html)
    try:
        assert preview.rebuild().ok and drawn
        template = own / "card.xml.j2"
        drawn.clear()
        template.write_text("{# a designer's note #}\n" + template.read_text(encoding="utf-8"), encoding="utf-8")
        assert preview.rebuild({template}).ok
        assert preview.status.rebuilt > 0 and drawn == []  # laid out again, every face as it was
        edit(pack / "decks/cartas.yaml", "  icon: coin\n", "  icon: chest\n")
        assert preview.rebuild({pack / "decks/cartas.yaml"}).ok
        assert sorted(drawn) == ["en/cofre-olvidado/front", "es/cofre-olvidado/front"]
    finally:
        preview.close()
