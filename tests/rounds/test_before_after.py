"""Issue 25, item 4: a round reviewed visually. The gallery of `build --changed-since REV --gallery`
and the live preview of `serve --since REV` show each changed component's earlier faces beside its
new ones, the added ones marked new and the removed ones as they were, in the build's language; on a
git repository made from a copy of the crawler sample (cripta)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import CONTENT, TESTS, edit, need_tool, run_cli
from PIL import Image, ImageChops

pytestmark = [
    pytest.mark.slow,  # not in the fast tier: git rounds, a real server and headless Chromium
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]

PACK = "cripta"
CHANGED, ADDED, REMOVED = "senda-acero", "hacha-pozo", "lanza-hueso"
OLD_TEXT, NEW_TEXT = "Haz un ataque cuerpo a cuerpo más", "Haz dos ataques cuerpo a cuerpo más"
NAMES = {
    "es": {CHANGED: "Senda del acero", REMOVED: "Lanza de hueso"},
    "en": {CHANGED: "Way of Steel", REMOVED: "Bone Spear"},
}
WORDS = {
    "es": {"changed": "Con cambios", "added": "Novedad", "removed": "Retirar del mazo", "before": "Antes (v1)"},
    "en": {"changed": "Changed", "added": "New", "removed": "Take out of the deck", "before": "Before (v1)"},
}
AFTER = {"es": "Después", "en": "After"}
SIDE = {"es": ("anverso", "reverso", "antes", "después"), "en": ("front", "back", "before", "after")}


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=Tester", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false", *args],
        cwd=repo,
        capture_output=True,
        check=True,
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sample tagged v1, then one card's text changed, one card out and one in."""
    root = tmp_path_factory.mktemp("before-after")
    pack = root / "content" / PACK
    shutil.copytree(CONTENT / PACK, pack)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "round 1")
    git(root, "tag", "v1")
    edit(pack / "decks" / "habilidades.yaml", OLD_TEXT, NEW_TEXT)
    equipment = pack / "decks" / "equipo.yaml"
    text = equipment.read_text(encoding="utf-8")
    start = text.index(f"- id: {REMOVED}\n")
    end = text.index("\n- id: ", start + 1) + 1
    text = text[:start] + text[end:]
    text = (
        text.rstrip("\n") + f"\n\n- id: {ADDED}\n  name: Hacha del pozo\n  melee_dice: 3\n  move: -1\n  icon: crush\n"
    )
    equipment.write_text(text, encoding="utf-8")
    return root


class Gallery(HTMLParser):
    """Per component of a gallery page: its round badge, and per figure (`was`: the earlier faces,
    `now`: the new ones, "": outside a round) its caption and its pictures' attributes."""

    def __init__(self, html: str):
        super().__init__()
        self.comps: dict[str, dict] = {}
        self._comp: dict | None = None
        self._figure = ""
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "article":
            self._comp = self.comps.setdefault(a["id"][2:], {"badge": None, "captions": {}, "pictures": {}})
        elif self._comp is None:
            return
        elif tag == "p" and "round" in a.get("class", "").split():
            self._comp["badge"] = a
        elif tag == "figure":
            self._figure = a["class"]
        elif tag == "figcaption":
            self._comp["captions"][self._figure] = a
        elif tag == "img":
            self._comp["pictures"].setdefault(self._figure, []).append(a)

    def handle_endtag(self, tag: str) -> None:
        if tag == "figure":
            self._figure = ""
        elif tag == "article":
            self._comp = None


@pytest.fixture(scope="module")
def gallery(project: Path) -> Callable[[str], tuple[Path, Gallery]]:
    """The round's gallery built in one language: its folder and its page, parsed."""
    made: dict[str, tuple[Path, Gallery]] = {}

    def make(lang: str) -> tuple[Path, Gallery]:
        if lang not in made:
            out = f"out-{lang}"
            args = ["build", PACK, "--changed-since", "v1", "--gallery", "--no-pdf", "--lang", lang, "-o", out]
            res = run_cli(*args, *(["--draft"] if lang == "en" else []), cwd=project)  # en: the new card untranslated
            assert res.returncode == 0, res.stdout + res.stderr
            folder = project / out / "changes" / PACK / "gallery"
            made[lang] = folder, Gallery((folder / "index.html").read_text(encoding="utf-8"))
        return made[lang]

    return make


def _pixels(folder: Path, img: dict) -> Image.Image:
    return Image.open(folder / img["src"]).convert("RGB")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_round_gallery_shows_each_change_beside_what_it_was(gallery, lang: str) -> None:
    folder, page = gallery(lang)
    assert set(page.comps) == {CHANGED, ADDED, REMOVED}, "only what the round changed"
    front, back, before, after = SIDE[lang]
    words = WORDS[lang]

    changed = page.comps[CHANGED]
    was, now = changed["pictures"]["was"], changed["pictures"]["now"]
    assert [i["data-side"] for i in was] == [i["data-side"] for i in now] == ["front", "back"]
    name = NAMES[lang][CHANGED]
    assert [i["alt"] for i in was] == [f"{name} ({front}, {before})", f"{name} ({back}, {before})"]
    assert [i["alt"] for i in now] == [f"{name} ({front}, {after})", f"{name} ({back}, {after})"]
    assert all(i["lang"] == lang for i in was + now)
    assert changed["captions"]["was"][f"data-t-{lang}"] == words["before"]
    assert changed["captions"]["now"][f"data-t-{lang}"] == AFTER[lang]
    assert changed["badge"][f"data-t-{lang}"] == words["changed"] and changed["badge"]["lang"] == lang
    old, new = _pixels(folder, was[0]), _pixels(folder, now[0])
    assert old.size == new.size
    assert ImageChops.difference(old, new).getbbox() is not None, "the earlier front is the earlier text"
    same = ImageChops.difference(_pixels(folder, was[1]), _pixels(folder, now[1]))
    assert same.getbbox() is None, "the back did not change: the same pixels, by the same rasteriser"

    added = page.comps[ADDED]
    assert set(added["pictures"]) == {"now"} and added["badge"][f"data-t-{lang}"] == words["added"]
    assert added["pictures"]["now"][0]["alt"] == f"Hacha del pozo ({front})"

    removed = page.comps[REMOVED]
    assert set(removed["pictures"]) == {"was"} and removed["badge"][f"data-t-{lang}"] == words["removed"]
    name = NAMES[lang][REMOVED]
    assert [i["alt"] for i in removed["pictures"]["was"]] == [
        f"{name} ({front}, {before})",
        f"{name} ({back}, {before})",
    ]
    assert all((folder / i["src"]).is_file() for i in removed["pictures"]["was"])


def test_the_earlier_side_is_what_v1_printed(gallery, project: Path, tmp_path: Path) -> None:
    """The earlier front of the changed card is, pixel for pixel, the card in a gallery of v1 itself."""
    folder, page = gallery("es")
    v1 = tmp_path / "v1"
    git(project, "worktree", "add", "-q", str(v1), "v1")
    try:
        res = run_cli("build", PACK, "--gallery", "--no-pdf", "--lang", "es", "-d", "habilidades", cwd=v1)
        assert res.returncode == 0, res.stderr
        then = Image.open(v1 / "output" / PACK / "gallery" / "img" / "es" / "habilidades" / f"{CHANGED}-front.jpg")
        was = _pixels(folder, page.comps[CHANGED]["pictures"]["was"][0])
        assert ImageChops.difference(then.convert("RGB"), was).getbbox() is None
    finally:
        git(project, "worktree", "remove", "--force", str(v1))


def test_the_live_preview_shows_what_differs_from_the_revision_as_it_is_edited(project: Path, tmp_path: Path) -> None:
    """`serve --since v1`, in-process: the earlier side laid out once, the pairs recomputed after
    each edit (a card edited now pairs up, a card edited back to its v1 text no longer does)."""
    from mazmorra.rounds import earlier
    from mazmorra.rounds.beside import Beside
    from mazmorra.serve.live import live_html
    from mazmorra.serve.preview import Preview

    root = tmp_path / "project"
    shutil.copytree(project, root, ignore=shutil.ignore_patterns("out-*"))
    pack = root / "content" / PACK
    skills = pack / "decks" / "habilidades.yaml"
    with earlier(pack, "v1") as before:
        preview = Preview(pack, None, live_html, False, Beside(before, "v1", None))
        try:
            assert preview.rebuild().ok
            page = Gallery(preview.page.decode("utf-8"))
            rounds = {cid: c["badge"]["class"] for cid, c in page.comps.items() if c["badge"]}
            assert rounds == {
                CHANGED: "round round-changed",
                ADDED: "round round-added",
                REMOVED: "round round-removed",
            }
            assert len(page.comps) > 20, "the preview shows the whole pack, the round's changes marked"
            pair = page.comps[CHANGED]["pictures"]
            assert pair["was"][0]["alt"] == "Senda del acero (anverso, antes)"
            assert pair["was"][0]["data-alt-en"] == "Way of Steel (front, before)"
            assert pair["now"][0]["alt"] == "Senda del acero (anverso, después)"
            for img in pair["was"] + pair["now"] + page.comps[REMOVED]["pictures"]["was"]:
                assert img["src"].split("?")[0] in preview.images, "served from memory"
            assert (
                preview.images[pair["was"][0]["src"].split("?")[0]]
                != preview.images[pair["now"][0]["src"].split("?")[0]]
            )
            drawn = len(preview.earlier_faces)

            edit(skills, "Tu próximo ataque a distancia", "Tu siguiente ataque a distancia")
            assert preview.rebuild({skills}).ok
            page = Gallery(preview.page.decode("utf-8"))
            assert set(page.comps["ojo-halcon"]["pictures"]) == {"was", "now"}
            edit(skills, NEW_TEXT, OLD_TEXT)  # back to what v1 printed: nothing to review
            assert preview.rebuild({skills}).ok
            page = Gallery(preview.page.decode("utf-8"))
            assert page.comps[CHANGED]["badge"] is None and set(page.comps[CHANGED]["pictures"]) == {""}
            # The earlier side is drawn once: only ojo-halcon's fronts, es and en (its back is the deck's, drawn already).
            assert len(preview.earlier_faces) == drawn + 2
        finally:
            preview.close()


def test_serve_since_in_a_real_browser_pairs_a_card_as_it_is_edited(project: Path, tmp_path: Path) -> None:
    """The real server and page: a card edited while the page is open (in English) pairs up with its
    earlier faces in place, in the language being read; the page passes axe-core."""
    need_tool("chromium")
    from cdp import Browser
    from conftest import ServeProcess

    root = tmp_path / "project"
    shutil.copytree(project, root, ignore=shutil.ignore_patterns("out-*", "both"))
    server = ServeProcess(root, PACK, "--since", "v1")
    try:
        url = server.url()
        with Browser(tmp_path / "chromium-profile", width=1100, height=800) as b:
            b.open(url)
            assert b.wait_for("document.documentElement.dataset.status === 'ok'")
            assert b.js(f"document.querySelector('#c-{CHANGED} .round').textContent") == "Con cambios"
            b.js("document.querySelector('button.lang[data-lang=\"en\"]').click()")
            skills = root / "content" / PACK / "decks" / "habilidades.yaml"
            edit(skills, "Tu próximo ataque a distancia", "Tu siguiente ataque a distancia")
            assert b.wait_for("!!document.querySelector('#c-ojo-halcon figure.was')")
            was = "#c-ojo-halcon figure.was"
            assert b.js(f"document.querySelector('{was} figcaption').textContent") == "Before (v1)"
            # the preview now shows a save in stages (the language on screen first): wait for the pair's alt text
            alt = f"document.querySelector('{was} img')?.alt"
            assert b.wait_for(f"{alt} === 'Hawk Eye (front, before)'"), b.js(alt)
            b.js("document.querySelector('#c-ojo-halcon').scrollIntoView()")
            assert b.wait_for(
                "[...document.querySelectorAll('#c-ojo-halcon img')].every(i => i.complete && i.naturalWidth > 0)"
            )
            b.js((TESTS / "vendor" / "axe-core" / "axe.min.js").read_text(encoding="utf-8"))
            assert b.js("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => v.id))") == []
            assert b.errors() == []
    finally:
        code = server.stop()
    assert code == 0, "".join(server.lines)


def test_serve_since_refuses_the_stamp_and_an_unknown_revision(project: Path) -> None:
    res = run_cli("serve", PACK, "--since", "v1", "--stamp", "--port", "0", cwd=project)
    assert res.returncode == 2 and "drop --stamp" in res.stderr, res.stderr
    res = run_cli("serve", PACK, "--since", "v9", "--port", "0", cwd=project)
    assert res.returncode == 2 and "unknown revision 'v9'" in res.stderr, res.stderr


def test_the_round_gallery_is_accessible_and_follows_the_language_switch(project: Path, tmp_path: Path) -> None:
    need_tool("chromium")
    from cdp import Browser

    res = run_cli("build", PACK, "--changed-since", "v1", "--gallery", "--no-pdf", "--draft", "-o", "both", cwd=project)
    assert res.returncode == 0, res.stderr
    page = project / "both" / "changes" / PACK / "gallery" / "index.html"
    axe = (TESTS / "vendor" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
    violations = (
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => "
        "({id: v.id, nodes: v.nodes.map(n => n.html.slice(0, 120))})))"
    )
    with Browser(tmp_path / "chromium-profile", width=1100, height=800) as b:
        b.open(page.as_uri())
        b.js(axe)
        assert b.js(violations) == []
        was = f"#c-{CHANGED} figure.was"
        assert b.js(f"document.querySelector('{was} figcaption').textContent") == "Antes (v1)"
        b.js("document.querySelector('button.lang[data-lang=\"en\"]').click()")
        assert b.js(f"document.querySelector('{was} figcaption').textContent") == "Before (v1)"
        assert b.js(f"document.querySelector('{was} img').alt") == "Way of Steel (front, before)"
        assert b.js(f"document.querySelector('{was} img').lang") == "en"
        assert b.js(f"document.querySelector('#c-{REMOVED} .round').textContent") == "Take out of the deck"
        assert b.js(violations) == []
        assert b.errors() == []


def test_the_earlier_faces_draw_with_the_earlier_font_files(tmp_path: Path) -> None:
    """A pack font changed between rounds: the earlier faces keep drawing with the earlier file (under
    a name of its content), the current ones with the current file."""
    from mazmorra.assets import fonts
    from mazmorra.contracts import RotateOp, TextOp
    from mazmorra.rounds.compare import compared

    earlier = tmp_path / "round1" / "grimorio"
    shutil.copytree(CONTENT / "grimorio", earlier)
    pack = tmp_path / "work" / "content" / "grimorio"
    shutil.copytree(CONTENT / "grimorio", pack)
    with (earlier / "fonts" / "Caladea-Regular.ttf").open("ab") as fh:
        fh.write(b"\0\0\0\0")  # another file, the same glyph outlines
    _, rnd = compared(earlier, pack, "es", "round1")

    def names(ops: tuple) -> set[str]:
        found = set()
        for op in ops:
            found |= names(op.ops) if isinstance(op, RotateOp) else {op.font} if isinstance(op, TextOp) else set()
        return found

    used = set().union(*(names(e.front.ops) for e in rnd.earlier.values()))
    pinned = {n for n in used if n.startswith("Caladea@")}
    assert pinned and all(
        fonts.FONTS[n].resolve() == (earlier / "fonts" / "Caladea-Regular.ttf").resolve() for n in pinned
    )
    assert fonts.FONTS["Caladea"].resolve() != (earlier / "fonts" / "Caladea-Regular.ttf").resolve()
    res = run_cli(
        "build",
        "grimorio",
        "--changed-since",
        str(earlier),
        "--gallery",
        "--no-pdf",
        "--lang",
        "es",
        cwd=tmp_path / "work",
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert list(
        (tmp_path / "work" / "output" / "changes" / "grimorio" / "gallery" / "img" / "es").rglob("before/*.jpg")
    )
