"""Property tests (hypothesis): YAML, text fitting and whole builds of any card text end in clean errors,
never tracebacks or partial files (a build killed mid-write: tests/smoke/test_killed_build.py)."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mazmorra.build.pipeline import BuildOptions, build
from mazmorra.errors import ContentError, MazmorraError
from mazmorra.layout.text.fit import Style, fit
from mazmorra.model.cardtext import split_paragraphs
from mazmorra.source.yamlsafe import YamlError, parse_yaml

pytestmark = pytest.mark.slow  # not in the fast tier: property tests: whole builds of generated card text

yaml_chars = st.sampled_from(list("ab:-[]{}&*!|>'\"#\n  ,?%@`\t0123456789.~") + ["é", "ñ", "\u2028", "\x00"])


@settings(max_examples=300, deadline=None)
@given(st.text(yaml_chars, max_size=80))
def test_yaml_loader_only_raises_clean_errors(text: str) -> None:
    try:
        parse_yaml(text, "prop.yaml")
    except YamlError as exc:
        assert exc.problem.loc is not None and exc.problem.loc.file == "prop.yaml"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), st.floats(5, 200), st.floats(5, 200))
def test_text_fitting_never_crashes(text: str, w: float, h: float) -> None:
    split_paragraphs(text)
    f = fit(text, w, h, Style(), 9, 6, "es")
    assert f.size >= 6 and (f.fits or f.overflow > 0)


card_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=120)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=card_text.filter(lambda s: s.strip()), body=card_text)
def test_any_card_text_builds_or_fails_cleanly(tmp_path_factory, name: str, body: str) -> None:
    import polib
    import yaml

    project = tmp_path_factory.mktemp("prop")
    pack = project / "content" / "fixture"
    shutil.copytree(FIXTURES / "_base", pack)
    (pack / "decks" / "cartas.yaml").write_text(
        yaml.safe_dump([{"id": "una", "name": name, "text": body}], allow_unicode=True),
        encoding="utf-8",
    )
    po = polib.pofile(str(pack / "locale" / "en.po"))
    for e in list(po):
        if e.msgctxt in ("una.name", "una.text"):
            po.remove(e)
    for fld, value in (("name", name), ("text", body)):
        if value.strip():
            po.append(polib.POEntry(msgctxt=f"una.{fld}", msgid=value.strip(), msgstr=value.strip()))
    po.save()
    try:
        build(pack, BuildOptions(out_dir=project / "output"))
    except (ContentError, MazmorraError):
        assert not (project / "output").exists() or not any((project / "output").rglob("*.pdf"))
