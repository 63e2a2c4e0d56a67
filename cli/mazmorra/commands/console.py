"""What the commands print: problems, summaries and progress, on stderr; results on stdout.

Both consoles are Rich's, made on first use (a command that prints nothing, like `--help`, never
imports Rich). Colour only on a terminal and never with NO_COLOR (Rich's own rules); no emoji
codes; every text that comes from content or the file system goes through `escape`, so a `[red]`
or `:smile:` in a name reaches the screen as written. Where Rich would print no style at all (not a
terminal, by its own rules: make, CI, pipes), plain strings are written as Rich writes them without
importing it (its markup syntax, read here: tags dropped, escaped brackets kept).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

import typer

from mazmorra.errors import ContentError, MazmorraError, Problem, Severity

if TYPE_CHECKING:
    from rich.console import Console


# Rich's markup syntax (rich.markup): a tag, after any backslashes; an odd number of them escapes it.
_TAG = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")
_TO_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
_CONTROL = dict.fromkeys((7, 8, 11, 12, 13))  # what Rich strips from every text (rich.control)


def escape(text: object) -> str:
    """Text as it is, never read as Rich markup (rich.markup.escape, without importing Rich)."""
    out = _TO_ESCAPE.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", str(text))
    return out + "\\" if out.endswith("\\") and not out.endswith("\\\\") else out


def unmarked(markup: str) -> str:
    """Markup as Rich prints it with no style: tags dropped, escaped tags and backslashes as written."""
    parts, pos = [], 0
    for m in _TAG.finditer(markup):
        full, escapes, _ = m.groups()
        parts.append(markup[pos : m.start()])
        pos = m.end()
        backslashes, escaped = divmod(len(escapes), 2)
        parts.append("\\" * backslashes)
        if escaped:
            parts.append(full[len(escapes) :])
    parts.append(markup[pos:])
    return "".join(parts)


class _LazyConsole:
    def __init__(self, **options: Any):
        self._options = options
        self._console: Any = None

    def _stream(self) -> Any:
        return sys.stderr if self._options.get("stderr") else sys.stdout

    @property
    def is_terminal(self) -> bool:
        """Rich's own answer (rich.console.Console.is_terminal), without importing Rich."""
        if self._console is not None:
            return bool(self._console.is_terminal)
        compatible = os.environ.get("TTY_COMPATIBLE", "")
        if compatible in ("0", "1"):
            return compatible == "1"
        force = os.environ.get("FORCE_COLOR")
        if force is not None:
            return force != ""
        isatty = getattr(self._stream(), "isatty", None)
        try:
            return bool(isatty()) if isatty is not None else False
        except ValueError:  # a closed file
            return False

    def print(
        self,
        *objects: Any,
        sep: str = " ",
        end: str = "\n",
        markup: bool | None = None,
        highlight: bool | None = None,
        **rest: Any,
    ) -> None:
        """Rich's print; plain strings with no style to print are written as Rich would write them."""
        if self._console is None and not rest and all(isinstance(o, str) for o in objects) and not self.is_terminal:
            text = sep.join(o if markup is False else unmarked(o) for o in objects)
            self._stream().write(text.translate(_CONTROL).expandtabs(8) + end)
            return
        self._rich().print(*objects, sep=sep, end=end, markup=markup, highlight=highlight, **rest)

    def _rich(self) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(highlight=False, soft_wrap=True, emoji=False, **self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rich(), name)


def rich_console(console: Console) -> Console:
    """The Rich console itself behind `err` or `out`, for what Rich drives on its own (a live progress
    display enters it as a context manager, which no attribute lookup can forward)."""
    lazy: Any = console
    return lazy._rich() if isinstance(lazy, _LazyConsole) else console


err = cast("Console", _LazyConsole(stderr=True))
out = cast("Console", _LazyConsole())


def show_problems(problems: list[Problem]) -> None:
    for p in problems:
        colour = {Severity.ERROR: "red", Severity.WARNING: "yellow"}.get(p.severity, "cyan")
        err.print(f"[{colour}]{escape(p.format())}[/]")


def show_summary(problems: list[Problem], what: str) -> None:
    n_err = sum(p.severity is Severity.ERROR for p in problems)
    n_warn = sum(p.severity is Severity.WARNING for p in problems)
    err.print(f"[bold red]✗ {escape(what)}: {n_err} error(s), {n_warn} warning(s); nothing was written for it.[/]")


@contextmanager
def guard() -> Iterator[None]:
    """Every known failure becomes a message and an exit code, never a traceback."""
    try:
        yield
    except ContentError as exc:
        show_problems(exc.problems)
        show_summary(exc.problems, "content has problems")
        raise typer.Exit(exc.exit_code) from None
    except MazmorraError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        err.print("[bold red]interrupted[/]; no partial file was left in the output folder")
        raise typer.Exit(130) from None
    except OSError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(1) from None


class ProgressPrinter:
    """A Rich progress bar on a terminal, plain lines elsewhere (CI, pipes)."""

    def __init__(self, total: int, label: str):
        self.fancy = err.is_terminal and not os.environ.get("CI")
        self.total = total
        self.label = label
        self._progress: Any = None
        self._shown = 0.0

    def __enter__(self) -> ProgressPrinter:
        if self.fancy:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=rich_console(err),
                transient=True,
                auto_refresh=False,  # no refresh thread: a build may fork worker processes
            )
            self._progress.__enter__()
            self._task = self._progress.add_task(self.label, total=self.total)
        return self

    def __call__(self, what: str, n: int) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=n, **({"description": what} if what else {}))
            now = time.monotonic()
            if now - self._shown >= 0.1:
                self._shown = now
                self._progress.refresh()
        elif what:
            err.print(f"  {escape(what)}")

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)
