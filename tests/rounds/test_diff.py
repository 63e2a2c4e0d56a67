"""Playtest rounds: `mazmorra diff PACK --since REV` and `mazmorra build PACK --changed-since REV`,
on a git repository made from a copy of the crawler sample (cripta), judged by what is printed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import CONTENT, REPO, edit, pdf_text, run_cli, write_pack

pytestmark = [
    pytest.mark.slow,  # not in the fast tier: git rounds of a sample pack built twice
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]

PACK = "cripta"
TEXTS = {  # three card texts changed
    "senda-acero": ("Haz un ataque cuerpo a cuerpo más", "Haz dos ataques cuerpo a cuerpo más"),
    "ojo-halcon": ("Tu próximo ataque a distancia", "Tu siguiente ataque a distancia"),
    "luz-farol": ("Los enemigos adyacentes a ti", "Los enemigos junto a ti"),
}
COST = "piel-piedra"  # its energy cost: 2 -> 1
HEROES = ["ilda", "tome", "nerea", "bruno"]  # the kind whose template moves a box
REMOVED, ADDED = "lanza-hueso", "hacha-pozo"
UNCHANGED_NAMES = ["Paso de sombra", "Espada del farolero", "Voz de mando"]


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=Tester", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def project(root: Path, own_template: str | None = None) -> Path:
    """A git repository holding a copy of the sample pack, its first version tagged v1 (with one
    shipped template copied into the pack, when asked, so that the next round can change it)."""
    shutil.copytree(CONTENT / PACK, root / "content" / PACK)
    if own_template:
        (root / "content" / PACK / "templates").mkdir()
        shutil.copy(REPO / "cli/mazmorra/templates" / own_template, root / "content" / PACK / "templates")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "round 1")
    git(root, "tag", "v1")
    return root / "content" / PACK


def block(text: str, cid: str) -> tuple[int, int]:
    """Where a component's entry starts and ends in a YAML deck file."""
    start = text.index(f"- id: {cid}\n")
    end = text.find("\n- id: ", start + 1)
    return start, len(text) if end < 0 else end + 1


def play_a_round(pack: Path) -> None:
    """Three texts, one cost, one template coordinate of the hero kind; a card out, a card in."""
    skills = pack / "decks" / "habilidades.yaml"
    for old, new in TEXTS.values():
        edit(skills, old, new)
    text = skills.read_text(encoding="utf-8")
    start, end = block(text, COST)
    skills.write_text(text[:start] + text[start:end].replace("energy: 2", "energy: 1") + text[end:], encoding="utf-8")
    edit(pack / "templates" / "hero.xml.j2", 'y="18" w="24"', 'y="18.5" w="24"')
    equipment = pack / "decks" / "equipo.yaml"
    text = equipment.read_text(encoding="utf-8")
    start, end = block(text, REMOVED)
    text = text[:start] + text[end:]
    equipment.write_text(
        text.rstrip("\n") + f"\n\n- id: {ADDED}\n  name: Hacha del pozo\n  melee_dice: 3\n  move: -1\n  icon: crush\n",
        encoding="utf-8",
    )


@pytest.fixture(scope="module")
def round_two(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project after one round of changes since v1 (not committed: a designer diffs before committing)."""
    root = tmp_path_factory.mktemp("rounds")
    play_a_round(project(root, "hero.xml.j2"))
    return root


def diff_json(root: Path, *args: str, pack: str = PACK) -> dict:
    res = run_cli("diff", pack, "--format", "json", *args, cwd=root)
    assert res.returncode == 0, res.stdout + res.stderr
    return json.loads(res.stdout)


def test_diff_since_a_tag_lists_exactly_what_changed(round_two: Path) -> None:
    data = diff_json(round_two, "--since", "v1")
    by_status: dict[str, set[str]] = {}
    for c in data["changes"]:
        by_status.setdefault(c["status"], set()).add(c["component"])
    assert by_status == {"changed": {*TEXTS, COST, *HEROES}, "added": {ADDED}, "removed": {REMOVED}}
    changes = {c["component"]: c for c in data["changes"]}
    for cid, (old, new) in TEXTS.items():
        assert [f["field"] for f in changes[cid]["fields"]] == ["text"], cid
        assert old in changes[cid]["fields"][0]["before"] and new in changes[cid]["fields"][0]["now"]
        assert changes[cid]["causes"] == []
    words = changes["senda-acero"]["fields"][0]["words"]
    assert (
        ["-", "un"] in words
        and ["+", "dos"] in words
        and ["=", " cuerpo a cuerpo más este turno, sin gastar una acción."] in words
    )
    assert [(f["field"], f["before"], f["now"]) for f in changes[COST]["fields"]] == [("energy", "2", "1")]
    assert data["causes"] == {"templates/hero.xml.j2": HEROES}, "the template change, with the components it alters"
    assert all(changes[h]["fields"] == [] and changes[h]["sides"] == ["front"] for h in HEROES)
    assert changes[REMOVED]["to_take_out"] == 1 and changes[ADDED]["to_print"] == 1
    assert data["decks"] == {
        "heroes": {"added": 0, "removed": 0, "changed": 4},
        "equipo": {"added": 1, "removed": 1, "changed": 0},
        "habilidades": {"added": 0, "removed": 0, "changed": 4},
    }
    stale = {(s["component"], s["field"], s["lang"], s["state"]) for s in data["stale"]}
    assert {(cid, "text", "en", "fuzzy") for cid in TEXTS} <= stale, "the en catalogue still translates the old texts"
    assert (ADDED, "name", "en", "untranslated") in stale
    assert not any(s[0] == COST or s[0] in HEROES for s in stale)


def test_diff_reads_in_the_build_language(round_two: Path) -> None:
    data = diff_json(round_two, "--since", "v1", "--lang", "en")
    assert data["lang"] == "en"
    names = {c["component"]: c["name"] for c in data["changes"]}
    assert names[REMOVED] == "Bone Spear", "names in the compared language"
    assert {c["component"] for c in data["changes"] if c["status"] == "changed"} == {*TEXTS, COST, *HEROES}


def test_diff_as_terminal_text_and_markdown(round_two: Path) -> None:
    text = run_cli("diff", PACK, "--since", "v1", cwd=round_two)
    assert text.returncode == 0, text.stderr
    out = text.stdout
    assert "8 changed, 1 added, 1 removed" in out
    assert "Habilidades (habilidades): 4 changed, 0 added, 0 removed" in out
    assert "text: Haz [-un-]{+dos+} [-ataque-]{+ataques+} cuerpo a cuerpo" in out
    assert "energy: [-2-]{+1+}" in out
    assert "templates/hero.xml.j2 alters 4 component(s): ilda, tome, nerea, bruno" in out
    assert f"- {REMOVED}  Lanza de hueso  [removed; take out 1 copy]" in out
    md = run_cli("diff", PACK, "--since", "v1", "--format", "markdown", cwd=round_two)
    assert md.returncode == 0, md.stderr
    # The Markdown is for playtesters: its fixed words are in the compared language (here Spanish).
    assert md.stdout.startswith("# La cripta de los cien faroles: cambios desde v1 (es)")
    assert "| Mazo | Cambiados | Añadidos | Retirados |" in md.stdout
    assert "| Habilidades | 4 | 0 | 0 |" in md.stdout
    assert "Haz ~~un~~ **dos** ~~ataque~~ **ataques** cuerpo" in md.stdout
    assert "### Retirados: sácalos del mazo" in md.stdout
    assert "- **Lanza de hueso** (`lanza-hueso`): saca 1 copia" in md.stdout
    assert "- `templates/hero.xml.j2`: cambia 4 componentes:" in md.stdout
    assert not md.stderr, md.stderr  # every word of the changelog has its Spanish translation
    # Players read fields by their labels, never their ids (the terminal text keeps the ids).
    # (a label in the players' words: "Texto", "Energía" from the shipped catalogue, whatever folder
    # the shipped kind files were first read from in this process)
    assert "  - Texto: Haz ~~un~~ **dos**" in md.stdout, md.stdout
    assert "  - Energía: ~~2~~ **1**" in md.stdout, md.stdout
    assert "text:" not in md.stdout and "energy:" not in md.stdout
    for english in ("changes since", "Removed", "take out", "alters", "Templates and icons"):
        assert english not in md.stdout, english
    en = run_cli("diff", PACK, "--since", "v1", "--format", "markdown", "--lang", "en", cwd=round_two)
    assert en.returncode == 0, en.stderr
    assert "### Removed: take out of the deck" in en.stdout and "take out 1 copy" in en.stdout
    assert "| Deck | Changed components | Added components | Removed components |" in en.stdout
    assert "- `templates/hero.xml.j2`: alters 4 components:" in en.stdout
    assert "  - Energy: ~~2~~ **1**" in en.stdout and "Energía" not in en.stdout and "Texto" not in en.stdout


def test_build_changed_since_prints_only_the_changed_and_added_faces(round_two: Path) -> None:
    res = run_cli("build", PACK, "--changed-since", "v1", "--lang", "es", "-j", "1", cwd=round_two)
    assert res.returncode == 0, res.stdout + res.stderr
    out = round_two / "output" / "changes" / PACK / "es"
    assert sorted(p.name for p in out.glob("*.pdf")) == ["equipo.pdf", "habilidades.pdf", "heroes.pdf", "removed.pdf"]
    assert not (round_two / "output" / PACK).exists(), "the whole decks' PDFs are not touched"
    skills = pdf_text(out / "habilidades.pdf")
    for name in ("Senda del acero", "Ojo de halcón", "Luz del farol", "Piel de piedra"):
        assert skills.count(name) == 1, name
    assert "Haz dos ataques" in skills
    heroes = pdf_text(out / "heroes.pdf")
    assert all(heroes.count(n) == 1 for n in ("Ilda Varga", "Tomé Arrieta", "Nerea Sal", "Bruno Caliza"))
    equipment = pdf_text(out / "equipo.pdf")
    assert "Hacha del pozo" in equipment and "Lanza de hueso" not in equipment
    everything = skills + heroes + equipment
    assert not [n for n in UNCHANGED_NAMES if n in everything], "nothing unchanged is reprinted"
    removed = pdf_text(out / "removed.pdf")
    assert "Retirar del mazo" in removed and "Lanza de hueso" in removed and "1 copia" in removed
    assert "retiradas desde v1" in removed


def test_the_removal_list_is_in_the_build_language(round_two: Path) -> None:
    res = run_cli("build", PACK, "--changed-since", "v1", "--lang", "en", "--draft", "-j", "1", cwd=round_two)
    assert res.returncode == 0, res.stdout + res.stderr
    removed = pdf_text(round_two / "output" / "changes" / PACK / "en" / "removed.pdf")
    assert "Take out of the deck" in removed and "Bone Spear" in removed and "1 copy" in removed
    assert "Lanza de hueso" not in removed


def test_png_and_tts_are_limited_to_the_changes(round_two: Path) -> None:
    res = run_cli(
        "build",
        PACK,
        "--changed-since",
        "v1",
        "--lang",
        "es",
        "--png",
        "--tts",
        "--dpi",
        "40",
        "-j",
        "1",
        cwd=round_two,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    out = round_two / "output" / "changes" / PACK / "es"
    made = sorted(p.stem.removesuffix("-front") for p in (out / "png").rglob("*-front.png"))
    assert made == sorted([*TEXTS, COST, *HEROES, ADDED]), made
    assert not (out / "png" / "removed").exists(), "the removal list is a page to print, not a component"
    saved = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in (out / "tts").glob("*.json")}
    assert saved and not any("removed" in name for name in saved), sorted(saved)
    nicknames = json.dumps(saved, ensure_ascii=False)
    assert "Hacha del pozo" in nicknames and "Senda del acero" in nicknames
    assert not [n for n in UNCHANGED_NAMES if n in nicknames]


def test_a_reordered_deck_file_and_a_yaml_comment_reprint_nothing(tmp_path: Path) -> None:
    pack = project(tmp_path)
    skills = pack / "decks" / "habilidades.yaml"
    text = skills.read_text(encoding="utf-8")
    a, b = block(text, "senda-acero"), block(text, "ojo-halcon")
    first, second = text[a[0] : a[1]], text[b[0] : b[1]]
    skills.write_text(
        "# reordered for the second round\n" + text[: a[0]] + second + first + text[b[1] :], encoding="utf-8"
    )
    edit(
        pack / "decks" / "equipo.yaml",
        "  melee_dice: 2\n  melee: 1\n",
        "  melee_dice: 2  # as in round 1\n  melee: 1\n",
    )
    assert git(tmp_path, "status", "--porcelain").strip(), "the files did change"
    data = diff_json(tmp_path, "--since", "v1")
    assert data["changes"] == [] and data["unprinted"] == []
    assert sorted(data["files"]) == ["decks/equipo.yaml", "decks/habilidades.yaml"]
    text_out = run_cli("diff", PACK, "--since", "v1", cwd=tmp_path)
    assert "Nothing prints differently." in text_out.stdout
    res = run_cli("build", PACK, "--changed-since", "v1", "--lang", "es", "-j", "1", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert list((tmp_path / "output").rglob("*.pdf")) == []


def test_an_icon_change_is_listed_with_the_components_it_alters(tmp_path: Path) -> None:
    root = tmp_path
    shutil.copytree(CONTENT / PACK, root / "content" / PACK)
    icons = root / "content" / PACK / "icons"
    icons.mkdir(exist_ok=True)  # the sample has its own illustrations there
    shutil.copy(REPO / "cli/mazmorra/icons/crush.svg", icons / "crush.svg")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "round 1")
    svg = (icons / "crush.svg").read_text(encoding="utf-8")
    (icons / "crush.svg").write_text(svg.replace("<svg ", '<svg data-round="2" ', 1), encoding="utf-8")
    data = diff_json(root, "--since", "HEAD")
    assert data["changes"], "the components drawing the icon are reprinted"
    assert all(c["causes"] == ["icons/crush.svg"] and c["fields"] == [] for c in data["changes"])
    assert "martillo-sepulturero" in data["causes"]["icons/crush.svg"]


def test_copies_up_print_only_the_extra_ones_copies_down_are_taken_out(tmp_path: Path) -> None:
    pack = project(tmp_path)
    skills = pack / "decks" / "habilidades.yaml"
    text = skills.read_text(encoding="utf-8")
    start, end = block(text, "voz-mando")
    text = text[:start] + text[start:end].replace("  energy: 2\n", "  energy: 2\n  copies: 3\n") + text[end:]
    skills.write_text(text, encoding="utf-8")
    data = diff_json(tmp_path, "--since", "v1")
    (change,) = data["changes"]
    assert (change["component"], change["copies"], change["to_print"], change["to_take_out"]) == (
        "voz-mando",
        [1, 3],
        2,
        0,
    )
    git(tmp_path, "commit", "-qam", "three of them")
    git(tmp_path, "tag", "v2")
    edit(skills, "  copies: 3\n", "  copies: 2\n")
    (change,) = diff_json(tmp_path, "--since", "v2")["changes"]
    assert (change["to_print"], change["to_take_out"]) == (0, 1)


def test_a_folder_is_the_earlier_revision_when_the_pack_is_not_in_git(tmp_path: Path) -> None:
    shutil.copytree(CONTENT / PACK, tmp_path / "round1" / PACK)
    shutil.copytree(CONTENT / PACK, tmp_path / "work" / "content" / PACK)
    edit(tmp_path / "work" / "content" / PACK / "decks" / "habilidades.yaml", *TEXTS["senda-acero"])
    for since in (tmp_path / "round1" / PACK, tmp_path / "round1"):
        data = diff_json(tmp_path / "work", "--since", str(since))
        assert [(c["status"], c["component"]) for c in data["changes"]] == [("changed", "senda-acero")]
    res = run_cli("build", PACK, "--changed-since", str(tmp_path / "round1"), "--lang", "es", cwd=tmp_path / "work")
    assert res.returncode == 0, res.stdout + res.stderr
    assert [p.name for p in (tmp_path / "work" / "output").rglob("*.pdf")] == ["habilidades.pdf"]


def test_an_unknown_revision_or_no_git_is_a_clear_usage_error(tmp_path: Path) -> None:
    project(tmp_path)
    res = run_cli("diff", PACK, "--since", "v9", cwd=tmp_path)
    assert res.returncode == 2 and "unknown revision 'v9'" in res.stderr, res.stderr
    res = run_cli("build", PACK, "--changed-since", "v9", cwd=tmp_path)
    assert res.returncode == 2 and "unknown revision 'v9'" in res.stderr, res.stderr
    no_git = tmp_path / "empty-path"
    no_git.mkdir()
    res = run_cli("diff", PACK, "--since", "v1", cwd=tmp_path, env={"PATH": str(no_git)})
    assert res.returncode == 2 and "git is not installed" in res.stderr, res.stderr
    outside = tmp_path / "elsewhere"
    shutil.copytree(CONTENT / PACK, outside / "content" / PACK)
    res = run_cli("diff", PACK, "--since", "v1", cwd=outside, env={"GIT_CEILING_DIRECTORIES": str(tmp_path)})
    assert res.returncode == 2 and "not in a git repository" in res.stderr, res.stderr


def test_changed_since_and_changed_only_are_kept_apart(tmp_path: Path) -> None:
    project(tmp_path)
    res = run_cli("build", PACK, "--changed-since", "v1", "--changed-only", cwd=tmp_path)
    assert res.returncode == 2 and "cannot go together" in res.stderr, res.stderr


def test_word_diff_keeps_the_words_in_between() -> None:
    from mazmorra.rounds.compare import Word, word_diff

    assert word_diff("Gana 2 monedas.", "Gana 3 monedas.") == (
        Word("=", "Gana "),
        Word("-", "2"),
        Word("+", "3"),
        Word("=", " monedas."),
    )
    assert "".join(w.text for w in word_diff("a b", "a c d") if w.op != "-") == "a c d"


def test_a_new_round_clears_the_last_rounds_sheets(round_two: Path, tmp_path: Path) -> None:
    """A deck changed in an earlier round but not in this one leaves no sheet behind in changes/."""
    root = tmp_path / "p"
    shutil.copytree(round_two, root, ignore=shutil.ignore_patterns("output"))
    out = root / "output" / "changes" / PACK / "es"
    assert run_cli("build", PACK, "--changed-since", "v1", "--lang", "es", "-j", "1", cwd=root).returncode == 0
    assert (out / "heroes.pdf").is_file()
    git(root, "add", "-A")
    git(root, "commit", "-qm", "round 2")
    git(root, "tag", "v2")
    edit(root / "content" / PACK / "decks" / "habilidades.yaml", "Haz dos ataques", "Haz tres ataques")
    res = run_cli("build", PACK, "--changed-since", "v2", "--lang", "es", "-j", "1", cwd=root)
    assert res.returncode == 0, res.stdout + res.stderr
    assert sorted(p.name for p in out.glob("*.pdf")) == ["habilidades.pdf"]
    assert os.path.getsize(out / "habilidades.pdf") > 0


def test_a_spreadsheet_translation_left_as_it_was_is_stale(tmp_path: Path) -> None:
    """A translation carried in a `text@en` column is not a catalogue entry: it went stale when the
    source text changed and the column did not."""
    pack = write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: P\ndecks:\n  - {id: cartas, kind: card, name: Cartas, file: decks/cartas.csv}\n",
            "decks/cartas.csv": "id,name,name@en,text,text@en\n"
            "uno,Uno,One,Gana una moneda.,Gain a coin.\n"
            "dos,Dos,Two,Roba una carta.,Draw a card.\n",
            "locale/en.po": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            'msgctxt "pack.name"\nmsgid "P"\nmsgstr "P"\n\nmsgctxt "deck:cartas.name"\nmsgid "Cartas"\nmsgstr "Cards"\n',
        },
    )
    shutil.copytree(pack, tmp_path / "round1" / "p")
    edit(pack / "decks" / "cartas.csv", "Gana una moneda.", "Gana dos monedas.")
    data = diff_json(tmp_path, "--since", str(tmp_path / "round1"), pack="p")
    assert [c["component"] for c in data["changes"]] == ["uno"]
    assert data["stale"] == [{"component": "uno", "field": "text", "lang": "en", "state": "unchanged"}]


def test_a_pack_font_changed_between_rounds_and_a_name_shown_on_other_cards(tmp_path: Path) -> None:
    """A card showing another card's name (a spell summoning a creature) changes with it; the earlier
    revision's own copy of a pack font, changed since, does not clash with the current one."""
    earlier = tmp_path / "round1" / "grimorio"
    shutil.copytree(CONTENT / "grimorio", earlier)
    pack = tmp_path / "work" / "content" / "grimorio"
    shutil.copytree(CONTENT / "grimorio", pack)
    edit(pack / "decks" / "criaturas.csv", "lobo-ceniza,Lobo de ceniza,", "lobo-ceniza,Lobo de cenizas,")
    data = diff_json(tmp_path / "work", "--since", str(earlier), pack="grimorio")
    changes = {c["component"]: c for c in data["changes"]}
    assert set(changes) == {"lobo-ceniza", "llamada-de-la-manada"}
    assert [f["field"] for f in changes["lobo-ceniza"]["fields"]] == ["name"]
    assert changes["llamada-de-la-manada"]["fields"] == changes["llamada-de-la-manada"]["causes"] == []
    text = run_cli("diff", "grimorio", "--since", str(earlier), cwd=tmp_path / "work").stdout
    assert "it shows another component's or its deck's data" in text
    with (earlier / "fonts" / "Caladea-Regular.ttf").open("ab") as fh:
        fh.write(b"\0\0\0\0")  # another file, the same glyph outlines
    data = diff_json(tmp_path / "work", "--since", str(earlier), pack="grimorio")
    assert "fonts/Caladea-Regular.ttf" in data["causes"] and len(data["changes"]) > 2
    res = run_cli("build", "grimorio", "--changed-since", str(earlier), "--lang", "es", cwd=tmp_path / "work")
    assert res.returncode == 0, res.stdout + res.stderr


def test_an_earlier_revision_that_does_not_load_says_so(tmp_path: Path) -> None:
    pack = project(tmp_path)
    edit(pack / "pack.yaml", "id: cripta", "id: Cripta Rota")
    git(tmp_path, "commit", "-qam", "broken")
    git(tmp_path, "tag", "broken")
    edit(pack / "pack.yaml", "id: Cripta Rota", "id: cripta")
    res = run_cli("diff", PACK, "--since", "broken", cwd=tmp_path)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "the pack as it was at 'broken' does not load" in res.stderr and "(since.invalid)" in res.stderr


def test_a_pack_not_yet_in_the_revision_is_all_new(tmp_path: Path) -> None:
    project(tmp_path)
    shutil.copytree(CONTENT / "muestras", tmp_path / "content" / "muestras")  # not committed
    res = run_cli("diff", "muestras", "--since", "v1", "--format", "json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "was not in revision v1: every component is new" in res.stderr
    data = json.loads(res.stdout)
    assert {c["status"] for c in data["changes"]} == {"added"} and len(data["changes"]) == 3
    res = run_cli("build", "muestras", "--changed-since", "v1", "--lang", "es", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "cartas.pdf" in res.stdout and (tmp_path / "output" / "changes" / "muestras" / "es" / "cartas.pdf").is_file()


@pytest.mark.parametrize("layout", ["duplex", "fold"])
def test_a_long_removal_list_runs_over_pages_on_any_layout(tmp_path: Path, layout: str) -> None:
    """Decks taken out of pack.yaml: every component of theirs is removed, listed over as many
    pages as it needs, each page as large as the layout leaves it (half a sheet for fold-and-glue)."""
    pack = project(tmp_path)
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    for deck in ("losetas", "marcadores", "objetos", "equipo"):
        start = text.index(f"  - id: {deck}\n")
        end = text.find("\n  - id: ", start + 1)
        text = text[:start] + (text[end + 1 :] if end > 0 else "")
    # a pack without the decks the rulebook's setup needs is no longer the reference edition
    text = text.replace("\nedition: reference", "\nedition: custom", 1)
    assert "edition: custom" in text
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    data = diff_json(tmp_path, "--since", "v1")
    removed = [c for c in data["changes"] if c["status"] == "removed"]
    assert len(removed) == 41 and {c["deck"] for c in removed} == {"losetas", "marcadores", "objetos", "equipo"}
    res = run_cli("build", PACK, "--changed-since", "v1", "--lang", "es", "--layout", layout, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    from pypdf import PdfReader

    pages = [p.extract_text() for p in PdfReader(tmp_path / "output/changes" / PACK / "es/removed.pdf").pages]
    assert len(pages) == 2 and "1/2" in pages[0] and "2/2" in pages[1]
    assert all("Retirar del mazo" in p for p in pages)
    listed = "\n".join(pages)
    assert "Lanza de hueso" in listed and "Marcadores" in listed


def test_a_field_no_template_prints_changes_nothing(tmp_path: Path) -> None:
    """A pack whose card template prints only the name: a changed text is data, not print."""
    pack = write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: P\nlanguages: [es]\ndecks:\n  - {id: cartas, kind: card, name: Cartas, file: decks/cartas.yaml}\n",
            "decks/cartas.yaml": "- {id: uno, name: Uno, text: Gana una moneda.}\n- {id: dos, name: Dos, text: Roba.}\n",
            "templates/card.xml.j2": '<card background="#ffffff">\n  <text x="5" y="5" w="50" h="10" size="12" '
            'color="#000000">{{ card.name }}</text>\n</card>\n',
        },
    )
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "round 1")
    edit(pack / "decks" / "cartas.yaml", "Gana una moneda.", "Gana dos monedas.")
    data = diff_json(tmp_path, "--since", "HEAD", pack="p")
    assert data["changes"] == [] and data["unprinted"] == ["uno"]
    assert (
        "Changed but printed as before (not reprinted): uno"
        in run_cli("diff", "p", "--since", "HEAD", cwd=tmp_path).stdout
    )
    res = run_cli("build", "p", "--changed-since", "HEAD", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert list((tmp_path / "output").rglob("*.pdf")) == []
