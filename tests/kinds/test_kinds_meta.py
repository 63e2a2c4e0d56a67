"""Every registered kind: documented, has its templates, a sample in content/, builds in every language."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from conftest import CONTENT, REPO

from mazmorra import kinds
from mazmorra.layout import Templates
from mazmorra.load import all_packs, load_pack
from mazmorra.support.paths import templates_dir

KINDS = sorted(kinds.all_kinds())


@pytest.fixture(scope="module")
def packs_by_kind() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for pack_dir in all_packs(CONTENT):
        pack = load_pack(pack_dir)
        for deck in pack.decks:
            for kind in deck.kinds:
                found.setdefault(kind.name, []).append(pack.id)
    return found


def test_there_are_kinds() -> None:
    assert {"artimana", "curse", "card"} <= set(KINDS)


@pytest.mark.parametrize("name", KINDS)
def test_kind_is_documented(name: str) -> None:
    doc = REPO / "docs" / "kinds" / f"{name}.md"
    assert doc.is_file(), f"{doc} is missing"
    text = doc.read_text(encoding="utf-8")
    for section in ("## Fields", "## Example", "## Template", "## Rules"):
        assert section in text, f"{doc}: no '{section}' section"
    fields_part = text.split("## Fields", 1)[1].split("## Example", 1)[0]
    for field in kinds.get(name).model.model_fields:
        assert f"`{field}`" in fields_part, f"{doc}: field '{field}' is not documented"
    assert "```yaml" in text.split("## Example", 1)[1]


@pytest.mark.parametrize("name", KINDS)
def test_kind_has_templates(name: str) -> None:
    kind = kinds.get(name)
    for tpl in (kind.template, kind.back_template):
        if tpl:
            assert (templates_dir() / tpl).is_file(), tpl


@pytest.mark.slow
@pytest.mark.parametrize("name", KINDS)
def test_kind_has_a_sample_that_builds_in_every_language(name: str, packs_by_kind, built_all: Path) -> None:
    assert name in packs_by_kind, f"no pack in content/ uses kind '{name}'"
    for pack_id in packs_by_kind[name]:
        pack = load_pack(CONTENT / pack_id)
        assert {"es", "en"} <= set(pack.spec.languages)
        for lang in pack.spec.languages:
            for deck in pack.decks:
                if name in {k.name for k in deck.kinds}:
                    assert (built_all / pack_id / lang / f"{deck.file_name(lang)}.pdf").is_file()


@pytest.mark.parametrize("name", KINDS)
def test_kind_labels_are_translated_to_spanish(name: str) -> None:
    kind = kinds.get(name)
    from mazmorra.i18n.labels import choice_labels

    labels = Templates(None, templates_dir()).labels([t for t in (kind.template, kind.back_template) if t])
    labels += choice_labels([kind])  # the words its enum values print
    po = polib.pofile(str(templates_dir() / "locale" / "es.po"))
    have = {e.msgid for e in po if not e.obsolete and (e.msgstr or (e.msgstr_plural and all(e.msgstr_plural.values())))}
    missing = [label.msgid for label in labels if label.msgid not in have]
    assert not missing, f"labels of {name} with no Spanish: {missing}"


def test_shared_label_catalogue_passes_msgfmt() -> None:
    from conftest import need_tool

    need_tool("msgfmt")
    import subprocess

    for po in [templates_dir() / "locale/es.po", *sorted(CONTENT.glob("*/locale/*.po"))]:
        res = subprocess.run(
            ["msgfmt", "--check", "--check-format", "-o", "/dev/null", str(po)],
            capture_output=True,
            text=True,
        )
        assert res.returncode == 0, f"{po}: {res.stderr}"


@pytest.mark.slow
def test_every_sample_pdf_embeds_subset_fonts_and_passes_qpdf(built_all: Path) -> None:
    """The print promise for every pack and kind, not only the first sample: fonts embedded and
    subset (never an unembedded base-14 font), structurally valid PDFs, both languages."""
    import subprocess

    from conftest import assert_fonts_embedded, need_tool

    need_tool("pdffonts")
    need_tool("qpdf")
    pdfs = sorted(built_all.rglob("*.pdf"))
    assert {p.parent.name for p in pdfs} == {"es", "en", "fr"}  # grimorio is in French too
    with_text = 0
    for pdf in pdfs:
        with_text += bool(assert_fonts_embedded(pdf))
        assert subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True).returncode == 0, pdf
    assert with_text > len(pdfs) // 2, "most decks print text, so most PDFs list fonts"
