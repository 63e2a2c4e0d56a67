"""The Typer application every command module registers on.

Help is plain text (Click's formatter, options grouped under their panel's heading): it needs no
Rich import, so `mazmorra --help` starts fast, draws no boxes in pipes and CI logs, and never reads
`[...]` in a help text as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperOption
from typer.models import CommandFunctionType

from mazmorra import __version__


class OneMeaningCommand(TyperCommand):
    """A command that refuses an option taking one value given twice (`--page a4 --page letter`), where
    Click would silently keep the last: a usage error naming the flag. Options meaning "each" (`--printer`,
    `--lang`, `--deck`, `--set`, `--tts-url`) are declared as lists and take every value; on/off flags
    take the last, as anywhere."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and not ctx.resilient_parsing:
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))  # a dry run, to count: no side effect
            for param in dict.fromkeys(order):
                if isinstance(param, TyperOption) and not (param.multiple or param.is_flag or param.count):
                    times = sum(p is param for p in order)
                    if times > 1:
                        ctx.fail(f"{'/'.join(param.opts)} takes one value, given {times} times: give it once")
        return list(super().parse_args(ctx, args))


class _App(typer.Typer):
    """A Typer whose commands are OneMeaningCommands unless they name their own class."""

    def command(
        self, *args: Any, cls: type[TyperCommand] | None = None, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(*args, cls=cls or OneMeaningCommand, **kwargs)


class PanelledCommand(OneMeaningCommand):
    """A command whose options are listed under the heading of their panel (`rich_help_panel`)."""

    def format_options(self, ctx: Any, formatter: Any) -> None:
        panels: dict[str, list[tuple[str, str]]] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None:
                heading = getattr(param, "rich_help_panel", None) or (
                    "Arguments" if isinstance(param, TyperArgument) else "Options"
                )
                panels.setdefault(heading, []).append(record)
        for heading, rows in panels.items():
            with formatter.section(heading):
                formatter.write_dl(rows)


app = _App(
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Print-and-play content pipeline: YAML components -> validated, localised, print-ready PDFs.",
)
i18n_app = _App(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Translation catalogues (gettext .po) for translators.",
)
app.add_typer(i18n_app, name="i18n")


def _version(value: bool) -> None:
    if value:
        print(f"mazmorra {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit.", callback=_version, is_eager=True),
    ] = False,
) -> Any:
    """Print-and-play content pipeline: YAML components -> validated, localised, print-ready PDFs."""
    from mazmorra.support.atomic import sweep_here

    sweep_here()  # whatever the command: a killed build's temporaries go
