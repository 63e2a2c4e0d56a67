"""Issue 27: where Rich would print no style (make, CI, pipes), the commands write their lines without
importing Rich, byte for byte as Rich writes them; on a terminal, Rich prints."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from rich.console import Console
from rich.markup import escape as rich_escape

from mazmorra.commands import console
from mazmorra.commands.console import escape

TEXTS = [
    "plain",
    "output/expedicion/es/artimanas.pdf",
    "[red]content[/red] with a tag",
    "a \\[escaped] tag and a trailing backslash\\",
    "back\\\\[bold]slashes\\\\\\[x]",
    "[not a tag: starts with a capital] [1] [] [/",
    ":smile: stays; tab\there; carriage\rreturn; bell\x07",
    "ünïcödé ✓ ✗ «»",
    "ends with \\\\",
]


@pytest.mark.parametrize("text", TEXTS)
def test_escape_is_richs(text: str) -> None:
    assert escape(text) == rich_escape(text)


@pytest.mark.parametrize("text", TEXTS)
def test_a_line_reads_as_rich_writes_it(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for env in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(env, raising=False)
    for line in (
        f"[green]✓[/] {escape(text)}: valid",
        f"[bold red]✗ {escape(text)}: 1 error(s)[/]",
        f"  {escape(text)}",
    ):
        rich = io.StringIO()
        Console(file=rich, highlight=False, soft_wrap=True, emoji=False).print(line)
        plain = io.StringIO()
        monkeypatch.setattr(sys, "stdout", plain)
        lazy = console._LazyConsole()
        lazy.print(line)
        assert lazy._console is None, "Rich was not needed"
        assert plain.getvalue() == rich.getvalue(), line
        both = io.StringIO()
        monkeypatch.setattr(sys, "stdout", both)
        console._LazyConsole().print(line, markup=False)
        assert both.getvalue() == line.translate(console._CONTROL).expandtabs(8) + "\n"


def test_a_forced_terminal_gets_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    lazy = console._LazyConsole()
    assert lazy.is_terminal
    lazy.print("[green]✓[/] done")
    assert lazy._console is not None and "\x1b[" in sys.stdout.getvalue()


@pytest.mark.slow
def test_a_make_build_never_imports_rich(pack_copy) -> None:
    """A build's summary, in a pipe: rich is not among the modules the process imported."""
    code = (
        "import sys\nfrom mazmorra.commands import main\nsys.argv = ['mazmorra', 'validate', 'muestras']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('rich imported' if 'rich' in sys.modules else 'no rich', file=sys.stderr)"
    )
    project = pack_copy("muestras").parents[1]
    res = subprocess.run(
        [sys.executable, "-c", code],
        cwd=project,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "MAZMORRA_JOBS": "1", "PYTHONDONTWRITEBYTECODE": "1"},
        timeout=300,
    )
    assert "✓ muestras: valid" in res.stderr, res.stderr
    assert res.stderr.rstrip().endswith("no rich"), res.stderr
