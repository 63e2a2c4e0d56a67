"""The Typer application every command module registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Print-and-play content pipeline: YAML components -> validated, localised, print-ready PDFs.",
)
i18n_app = typer.Typer(no_args_is_help=True, help="Translation catalogues (gettext .po) for translators.")
app.add_typer(i18n_app, name="i18n")
