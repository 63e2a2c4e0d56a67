"""What the commands print: problems, summaries and progress, on stderr; results on stdout."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from mazmorra.errors import ContentError, MazmorraError, Problem, Severity

err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)


def show_problems(problems: list[Problem]) -> None:
    for p in problems:
        colour = "red" if p.severity is Severity.ERROR else "yellow"
        err.print(f"[{colour}]{escape(p.format())}[/]")


def show_summary(problems: list[Problem], what: str) -> None:
    n_err = sum(p.severity is Severity.ERROR for p in problems)
    n_warn = len(problems) - n_err
    err.print(f"[bold red]✗ {what}: {n_err} error(s), {n_warn} warning(s); nothing was written for it.[/]")


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
                console=err,
                transient=True,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task(self.label, total=self.total)
        return self

    def __call__(self, what: str, n: int) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=n, **({"description": what} if what else {}))
        elif what:
            err.print(f"  {what}")

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)
