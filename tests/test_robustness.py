"""Property tests (hypothesis) and crash safety: only clean errors, never tracebacks or partial files."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mazmorra.errors import ContentError, MazmorraError
from mazmorra.layout.fit import Style, fit
from mazmorra.pipeline import BuildOptions, build
from mazmorra.text import split_paragraphs
from mazmorra.yamlsafe import YamlError, parse_yaml

FIXTURES = Path(__file__).parent / "fixtures"
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


def _big_pack(project: Path, n: int) -> Path:
    pack = project / "content" / "fixture"
    shutil.copytree(FIXTURES / "_base", pack)
    items = "".join(
        f'- id: c{i}\n  name: "Carta {i}"\n  text: "Roba {{draw:2}} y gana {{coin}}. '
        f'Texto de relleno número {i} para llenar la caja."\n'
        for i in range(n)
    )
    (pack / "decks" / "cartas.yaml").write_text(items, encoding="utf-8")
    return pack


KILL_CMD = [sys.executable, "-m", "mazmorra", "build", "fixture", "--lang", "es", "--draft"]


@pytest.fixture(scope="module")
def built_big(tmp_path_factory) -> tuple[Path, float]:
    """A 3,000-card pack built twice in real processes; the time of the second, warm, build."""
    project = tmp_path_factory.mktemp("big")
    _big_pack(project, 3000)
    for _ in range(2):
        start = time.monotonic()
        done = subprocess.run(KILL_CMD, cwd=project, env=dict(os.environ, CI="1"), capture_output=True, text=True)
        took = time.monotonic() - start
        assert done.returncode == 0, done.stderr
    return project, took


@pytest.mark.parametrize("fraction", [0.1, 0.35, 0.6])
def test_a_build_killed_mid_write_leaves_no_partial_file(
    built_big: tuple[Path, float], tmp_path: Path, fraction: float
) -> None:
    from pypdf import PdfReader

    project = tmp_path / "project"
    shutil.copytree(built_big[0], project, symlinks=True)
    took = built_big[1]
    before = (project / "output/fixture/es/cartas.pdf").read_bytes()
    proc = subprocess.Popen(
        [*KILL_CMD, "--page", "letter"],
        cwd=project,
        env=dict(os.environ, CI="1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(took * fraction)
    assert proc.poll() is None, "the build finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    files = sorted(p for p in (project / "output").rglob("*") if p.is_file())
    assert [p.name for p in files if p.suffix == ".pdf"] == ["cartas.pdf"]
    assert not [p for p in files if "tmp" in p.name], files
    pdf = project / "output/fixture/es/cartas.pdf"
    data = pdf.read_bytes()
    assert data == before or len(PdfReader(str(pdf)).pages) > 0  # the old file, or a complete new one
