"""The version stamp of a playtest build (`build --stamp`, issue 25 item 1): on every face, in the
safe area, passing the print checks; its hash follows exactly the component's content; off unless
asked for; the same text in the TTS descriptions and the gallery."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import CONTENT, edit, have, pdf_text, run_cli, write_pack
from golden import context

from mazmorra.build.pipeline import BuildOptions, BuildResult, build
from mazmorra.contracts import Face, Item, TextOp
from mazmorra.layout import lay_out
from mazmorra.layout.printcheck.ink import glyph_boxes
from mazmorra.layout.versionstamp import SEP, digest, pack_version, stamp_text
from mazmorra.load import load_pack
from mazmorra.render import Outputs

pytestmark = pytest.mark.slow  # not in the fast tier: stamped builds of every sample pack


def _copy(tmp: Path, name: str, version: str | None = "0.3") -> Path:
    """A sample pack copied out of the git work tree, with `version:` in its pack.yaml."""
    dst = tmp / "content" / name
    shutil.copytree(CONTENT / name, dst)
    if version is not None:
        edit(dst / "pack.yaml", "\nname: ", f'\nversion: "{version}"\nname: ')
    return dst


def _items(pack_dir: Path, lang: str = "es", stamp: bool = True, version: str | None = "0.3") -> list[Item]:
    pack = load_pack(pack_dir)
    ctx = replace(context(pack, lang), stamp=stamp, version=version if stamp else None)
    return [item for deck in pack.decks for item in lay_out(deck, ctx).items()]


def _faces(items: list[Item]) -> list[Face]:
    return [f for item in items for f in (item.front, item.back) if f is not None]


@pytest.fixture(scope="module")
def stamped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BuildResult]:
    """The crawler sample (cards, tiles, tokens, shared and own backs) built with --stamp, in Spanish,
    with its TTS objects and gallery."""
    tmp = tmp_path_factory.mktemp("stamped")
    pack_dir = _copy(tmp, "cripta")
    opts = BuildOptions(
        langs=("es",),
        out_dir=tmp / "output",
        outputs=Outputs(pdf=True, tts=True, gallery=True),
        stamp=True,
    )
    return tmp / "output", build(pack_dir, opts)


def test_a_stamped_build_passes_every_print_check(stamped: tuple[Path, BuildResult]) -> None:
    _, res = stamped
    assert [p for p in res.warnings if p.rule.startswith(("print.", "stamp."))] == []


def test_every_face_carries_the_stamp_in_the_safe_area(tmp_path: Path) -> None:
    pack_dir = _copy(tmp_path, "cripta")
    items = _items(pack_dir)
    assert not [p for item in items for p in item.problems], "laying out met problems"
    safe = load_pack(pack_dir).spec.print.safe_mm
    for item in items:
        assert item.stamp.startswith("0.3" + SEP) and len(item.stamp.rsplit(SEP, 1)[1]) == 6
        for face in (item.front, item.back):
            if face is None:
                continue
            last = face.ops[-1]  # drawn over everything
            assert isinstance(last, TextOp), (face.component, face.side)
            assert last.size == 5.5 and last.font == "sans"  # the label's legibility floor
            if not item.shared_back or face is item.front:
                assert last.text in (item.stamp, item.stamp.rsplit(SEP, 1)[1]), (face.component, last.text)
            boxes = glyph_boxes(last)
            x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
            x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
            if face.shape == "rect" and min(face.w, face.h) >= 40:  # a card: the pack's margin
                assert safe <= x0 and x1 <= face.w - safe and safe <= y0 and y1 <= face.h - safe, (
                    face.component,
                    face.side,
                    (x0, y0, x1, y1),
                )


def test_the_stamp_keeps_clear_of_pointers_and_rings_where_it_can() -> None:
    """The crawler's cards have a pointer (a triangle the template lets overlap the frame) at the
    bottom centre: the stamp goes where it crosses no such shape (it used to sit on the pointer)."""
    from mazmorra.contracts import CircleOp, PolyOp

    faces = _faces(_items(CONTENT / "cripta", "en"))
    assert len(faces) > 40
    for face in faces:
        stamp = face.ops[-1]
        assert isinstance(stamp, TextOp)
        em = stamp.size / 72 * 25.4
        x0, y0, x1, y1 = stamp.x, stamp.y - 0.8 * em, stamp.x + len(stamp.text) * em * 0.6, stamp.y + 0.3 * em
        for op in face.ops[:-1]:
            if isinstance(op, PolyOp):
                xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
                box = (min(xs), min(ys), max(xs), max(ys))
            elif isinstance(op, CircleOp):
                box = (op.cx - op.r, op.cy - op.r, op.cx + op.r, op.cy + op.r)
            else:
                continue
            assert not (box[0] < x1 and x0 < box[2] and box[1] < y1 and y0 < box[3]), (face.component, stamp, op)


def test_every_sample_pack_is_stamped_within_the_print_checks() -> None:
    """Every face of every sample pack (in its source language) carries its stamp, passing every
    print check, except the 16 mm tokens with no edge to spare, each said so (stamp.no-room)."""
    from mazmorra.load import all_packs

    unstamped = 0
    for pack_dir in all_packs(CONTENT):
        said: set[tuple[str | None, str]] = set()  # (component, side) of each face reported with no room
        for item in _items(pack_dir, load_pack(pack_dir).spec.source_language):
            assert [p.rule for p in item.problems if p.rule != "stamp.no-room"] == [], item.front.component
            said |= {(p.component, p.message.split(":")[0]) for p in item.problems}
            for face in (item.front, item.back):
                if face is None:
                    continue
                if (face.component, face.side) in said:
                    unstamped += 1
                    assert min(face.w, face.h) <= 16, (face.component, face.side)
                    continue
                last = face.ops[-1]
                assert isinstance(last, TextOp) and last.text.startswith(("0.3" + SEP, last.text[-6:])), (
                    face.component,
                    face.side,
                )
                if not (item.shared_back and face is item.back):
                    assert last.text.endswith(item.stamp[-6:]), (face.component, face.side)
    assert unstamped < 20


def test_the_pdf_prints_each_component_s_stamp(stamped: tuple[Path, BuildResult]) -> None:
    _, res = stamped
    text = "\n".join(pdf_text(p) for p in res.outputs)
    hashes = {item.stamp.rsplit(SEP, 1)[1] for item in _items(res.pack.root)}
    assert hashes and all(h in text for h in hashes)
    assert text.count("0.3" + SEP) >= res.components


def test_tts_descriptions_and_the_gallery_show_the_stamp(stamped: tuple[Path, BuildResult]) -> None:
    out, res = stamped
    stamps = {item.name: item.stamp for item in _items(res.pack.root)}
    shown = 0
    for path in (out / "cripta" / "es" / "tts").glob("*.json"):
        saved = json.loads(path.read_text(encoding="utf-8"))
        for obj in saved["ObjectStates"]:
            for one in obj.get("ContainedObjects", [obj]):  # a deck's cards, a bag's tiles, or a lone one
                assert one["Name"] in ("Card", "Custom_Tile") and one["Description"].endswith(stamps[one["Nickname"]])
                shown += 1
    assert shown >= res.components
    page = (out / "cripta" / "gallery" / "index.html").read_text(encoding="utf-8")
    assert all(s in page for s in stamps.values())


def _stamps(pack_dir: Path) -> dict[str, tuple[str, str]]:
    """Each component's stamp, and the one its (shared) back prints."""
    out = {}
    for item in _items(pack_dir):
        assert item.back is not None and isinstance(item.back.ops[-1], TextOp)
        out[item.front.component] = (item.stamp, item.back.ops[-1].text)
    return out


def test_the_hash_changes_for_exactly_the_component_edited(tmp_path: Path) -> None:
    pack_dir = _copy(tmp_path, "muestras")
    before = _stamps(pack_dir)
    deck = pack_dir / "decks" / "cartas.yaml"
    edit(deck, "- id: fogata", "# a comment changes nothing it prints\n- id: fogata")
    edit(deck, "  copies: 2\n", "  copies: 3\n")  # how many print, not what each prints
    assert _stamps(pack_dir) == before
    edit(deck, "Descansa junto al fuego.", "Descansa junto a la hoguera.")
    after = _stamps(pack_dir)
    assert [c for c in before if before[c] != after[c]] == ["fogata-del-claustro"]
    assert after["fogata-del-claustro"][1] == before["fogata-del-claustro"][1]  # the deck's back is the same
    assert _stamps(pack_dir) == after  # stable from run to run


def test_the_hash_is_the_content_s_whatever_the_run_or_machine() -> None:
    """A fixed value: the same content prints the same stamp on any machine, with any key order,
    in any later version of the tool (a change here makes every printed card look changed)."""
    data = {"id": "a", "name": "Á", "n": [1, 2.5]}
    assert digest(data) == "9ab346"
    assert stamp_text("0.3", {"copies": 4, **dict(reversed(data.items()))}) == "0.3 · 9ab346"
    assert stamp_text(None, data) == "9ab346"
    code = "from mazmorra.layout.versionstamp import digest; print(digest({'s': set('abcdefgh'), 'n': 1.5}))"
    runs = {  # a set's order changes with the hash seed; its hash must not
        subprocess.run(
            [sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True, text=True
        ).stdout
        for seed in ("1", "2")
    }
    assert len(runs) == 1 and len(runs.pop().strip()) == 6


def test_without_stamp_nothing_changes(tmp_path: Path) -> None:
    pack_dir = _copy(tmp_path, "muestras", version=None)
    items = _items(pack_dir, stamp=False)
    plain = _items(CONTENT / "muestras", stamp=False)
    assert [i.stamp for i in items] == [""] * len(items)
    assert _faces(items) == _faces(plain)  # the golden layouts stay as they are
    assert BuildOptions().stamp is False


def test_cli_stamp_option_reaches_the_layout(tmp_path: Path) -> None:
    pack_dir = _copy(tmp_path, "muestras", version="v7")
    res = run_cli("build", str(pack_dir), "--stamp", "--lang", "en", "-o", str(tmp_path / "out"), "-j", "1")
    assert res.returncode == 0, res.stderr
    assert f"v7{SEP}" in pdf_text(tmp_path / "out" / "muestras" / "en" / "loose-cards.pdf")
    res = run_cli("build", str(pack_dir), "--stamp", "--lang", "en", "-o", str(tmp_path / "j2"), "-j", "2")
    assert res.returncode == 0, res.stderr
    pdfs = [tmp_path / out / "muestras" / "en" / "loose-cards.pdf" for out in ("out", "j2")]
    assert pdfs[0].read_bytes() == pdfs[1].read_bytes()  # stamped in worker processes alike
    res = run_cli("build", str(pack_dir), "--lang", "en", "-o", str(tmp_path / "plain"), "-j", "1")
    assert res.returncode == 0, res.stderr
    assert "v7" not in pdf_text(tmp_path / "plain" / "muestras" / "en" / "loose-cards.pdf")
    assert "--stamp" in run_cli("build", "--help").stdout


def test_version_falls_back_to_git_describe(tmp_path: Path) -> None:
    assert pack_version(tmp_path, "1.2") == "1.2"
    assert pack_version(tmp_path, None) is None  # not a work tree: no version, quietly
    if not have("git"):
        pytest.skip("git is not installed")
    env = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"]
    (tmp_path / "pack.yaml").write_text("id: p\n", encoding="utf-8")
    for cmd in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"], ["tag", "playtest-1"]):
        subprocess.run(["git", *env, *cmd], cwd=tmp_path, check=True, capture_output=True)
    assert pack_version(tmp_path, None) == "playtest-1"
    (tmp_path / "pack.yaml").write_text("id: q\n", encoding="utf-8")
    assert pack_version(tmp_path, None) == "playtest-1-dirty(pack.yaml)"  # says what is dirty
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "nuevas.yaml").write_text("[]\n", encoding="utf-8")
    assert pack_version(tmp_path, None) == "playtest-1-dirty(2 files)"


def test_the_playtest_loop_in_its_documented_order_stamps_the_new_round(tmp_path: Path) -> None:
    """docs/playtest.md's loop, step by step: round 2 prints `v2`, not `v1-dirty`; a change outside the
    pack (the round's notes) leaves it clean; an uncommitted edit of the pack is named."""
    if not have("git"):
        pytest.skip("git is not installed")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"]
    pack = _copy(tmp_path, "muestras", None)
    project = pack.parents[1]
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "round 1"], ["tag", "v1"]):
        subprocess.run([*git, *cmd], cwd=project, check=True, capture_output=True)
    deck = pack / "decks" / "cartas.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("ganas 2", "ganas 3", 1), encoding="utf-8")
    notes = run_cli("diff", "muestras", "--since", "v1", "--format", "markdown", cwd=project)
    assert notes.returncode == 0, notes.stderr
    (project / "round-2.md").write_text(notes.stdout, encoding="utf-8")  # untracked, outside the pack
    assert run_cli("i18n", "update", "muestras", cwd=project).returncode == 0
    assert pack_version(pack, None) == "v1-dirty(3 files)"  # before the commit: the deck and two catalogues
    for cmd in (["commit", "-qam", "round 2"], ["tag", "v2"]):
        subprocess.run([*git, *cmd], cwd=project, check=True, capture_output=True)
    assert pack_version(pack, None) == "v2"  # the round printed after the tag, as the docs' loop does
    res = run_cli("build", "muestras", "--changed-since", "v1", "--stamp", "--lang", "es", cwd=project)
    assert res.returncode == 0, res.stderr
    printed = pdf_text(project / "output" / "changes" / "muestras" / "es" / "cartas.pdf")
    assert f"v2{SEP}" in printed and "dirty" not in printed


STAMP_TEMPLATE = """<card background="#20303a">
  <rect x="3" y="3" w="{{ w - 6 }}" h="{{ h - 6 }}" fill="#f4efe4"/>
  <text x="6" y="6" w="{{ w - 12 }}" h="20" field="name">{{ card.name }}</text>
  {% if stamp %}<rect x="3" y="{{ h - 9 }}" w="{{ w - 6 }}" h="6" fill="#20303a"/>{% endif %}
  <stamp x="4" y="{{ h - 8 }}" w="{{ w - 8 }}" align="right"/>
</card>
"""


def _own_template(tmp_path: Path, template: str) -> Path:
    pack = _copy(tmp_path, "muestras")
    (pack / "templates").mkdir()
    (pack / "templates" / "card.xml.j2").write_text(template, encoding="utf-8")
    return pack


def test_a_template_places_the_stamp_with_its_element(tmp_path: Path) -> None:
    pack = _own_template(tmp_path, STAMP_TEMPLATE)
    items = _items(pack)
    assert not [p for i in items for p in i.problems]
    for item in items:
        last = item.front.ops[-1]
        assert isinstance(last, TextOp) and last.text == item.stamp
        right = last.x + max(b[2] for b in glyph_boxes(last)) - last.x
        assert right == pytest.approx(item.front.w - 4, abs=0.3)  # right-aligned in its box
        assert last.y > item.front.h - 8 and last.color in ("#e6e6e6", "#ffffff")  # light on the dark band
    assert [len(i.front.ops) for i in _items(pack, stamp=False)] == [2] * len(items)  # off: draws nothing


def test_a_template_that_prints_the_stamp_variable_gets_no_second_one(tmp_path: Path) -> None:
    own = STAMP_TEMPLATE.replace(
        '<stamp x="4" y="{{ h - 8 }}" w="{{ w - 8 }}" align="right"/>',
        '<text role="label" x="4" y="{{ h - 8 }}" w="{{ w - 8 }}" h="4" size="6" color="#ffffff">{{ stamp }}</text>',
    )
    items = _items(_own_template(tmp_path, own))
    assert not [p for i in items for p in i.problems]
    for item in items:
        texts = [op.text for op in item.front.ops if isinstance(op, TextOp)]
        assert sum(item.stamp.rsplit(SEP, 1)[1] in t for t in texts) == 1, texts


def test_a_stamp_below_the_label_floor_is_a_template_error(tmp_path: Path) -> None:
    pack = _own_template(tmp_path, STAMP_TEMPLATE.replace("<stamp ", '<stamp size="4" '))
    problems = [p for i in _items(pack, stamp=False) for p in i.problems]
    assert problems and problems[0].rule == "template.element" and "5.5 pt" in problems[0].message


def test_a_face_with_no_room_says_so(tmp_path: Path) -> None:
    pack = write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: P\nversion: '1'\nlanguages: [es]\ndecks:\n"
            "  - {id: d, kind: card, name: D, file: d.yaml, card_size: 10x10mm}\n",
            "d.yaml": "- {id: a, name: A, text: t}\n",
            "templates/card.xml.j2": "<card></card>",  # 4 mm of safe area: narrower than the hash
        },
    )
    items = _items(pack)
    assert items[0].stamp and items[0].front.ops == ()
    no_room = [p for p in items[0].problems if p.rule == "stamp.no-room"]
    assert [p.message.split(":")[0] for p in no_room] == ["front"] and "<stamp" in no_room[0].message


def test_the_live_preview_may_stamp(tmp_path: Path) -> None:
    from mazmorra.serve.live import live_html
    from mazmorra.serve.preview import Preview

    pack_dir = _copy(tmp_path, "muestras")
    stamps = [i.stamp for i in _items(pack_dir)]
    for stamp, shown in ((True, True), (False, False)):
        preview = Preview(pack_dir, ("es",), live_html, stamp=stamp)
        try:
            assert preview.rebuild().ok
            page = preview.page.decode("utf-8")
            assert all((s in page) is shown for s in stamps)
            assert (
                all(
                    isinstance(f.ops[-1], TextOp) and f.ops[-1].text in stamps
                    for f, _ in preview.drawn.values()  # every face the page shows
                    if "deck:" not in f.component
                )
                is shown
            )
        finally:
            preview.close()


def test_print_shop_pngs_carry_the_stamp_only_when_asked(tmp_path: Path) -> None:
    from PIL import Image, ImageChops

    pack_dir = _copy(tmp_path, "muestras")
    for name, extra in (("plain", ()), ("stamped", ("--stamp",))):
        args = ("build", str(pack_dir), "--lang", "es", "--no-pdf", "--png-profile", "mpc", "-j", "1", *extra)
        res = run_cli(*args, "-o", str(tmp_path / name))
        assert res.returncode == 0, res.stderr
    items = {i.front.component: i for i in _items(pack_dir)}
    for comp, item in items.items():
        plain, stamped = (
            Image.open(tmp_path / n / "muestras" / "es" / "png" / "cartas" / f"{comp}-front.png")
            for n in ("plain", "stamped")
        )
        box = ImageChops.difference(plain.convert("RGB"), stamped.convert("RGB")).getbbox()
        assert box is not None, comp  # the stamp is there, and nothing else moved:
        last = item.front.ops[-1]
        assert isinstance(last, TextOp)
        px = 300 / 25.4
        ox, oy = (822 - item.front.w * px) / 2, (1122 - item.front.h * px) / 2  # the trim, centred
        assert box[1] >= oy + (last.y - 2.5) * px and box[3] <= oy + (last.y + 1) * px, (comp, box)
        assert box[0] >= ox + (last.x - 0.5) * px, (comp, box)


def test_a_version_the_font_cannot_draw_is_an_error(tmp_path: Path) -> None:
    pack_dir = _copy(tmp_path, "muestras")
    problems = [p for i in _items(pack_dir, version="第一版") for p in i.problems]
    assert problems and {p.rule for p in problems} == {"text.missing-glyph"} and "第" in problems[0].message


def test_pack_yaml_version_reads_as_written(tmp_path: Path) -> None:
    from mazmorra.errors import ContentError

    pack_dir = _copy(tmp_path, "muestras", version=None)
    edit(pack_dir / "pack.yaml", "\nname: ", "\nversion: 0.3\nname: ")
    assert load_pack(pack_dir).spec.version == "0.3"  # a number in YAML, printed as written
    edit(pack_dir / "pack.yaml", "version: 0.3", "version: [0, 3]")
    with pytest.raises(ContentError) as exc:
        load_pack(pack_dir)
    assert any("version" in p.message or p.field == "version" for p in exc.value.problems)
