"""The Typer application every command module registers on.

Help is plain text (Click's formatter, options grouped under their panel's heading): it needs no
Rich import, so `mazmorra --help` starts fast, draws no boxes in pipes and CI logs, and never reads
`[...]` in a help text as markup.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand

from mazmorra import __version__


class PanelledCommand(TyperCommand):
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


app = typer.Typer(
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Print-and-play content pipeline: YAML components -> validated, localised, print-ready PDFs.",
)
i18n_app = typer.Typer(
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
