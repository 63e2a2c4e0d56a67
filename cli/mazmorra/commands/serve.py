"""`mazmorra serve`: the live preview of one pack in the browser."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Annotated

import typer

from mazmorra.build.choices import parse_langs
from mazmorra.commands.app import app
from mazmorra.commands.console import err, escape, guard
from mazmorra.commands.options import LangOpt, OnePackArg, check_langs, lang_list, one_pack
from mazmorra.errors import UsageError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@app.command()
def serve(
    pack: OnePackArg = None,
    lang: LangOpt = None,
    port: Annotated[
        int, typer.Option("--port", "-p", min=0, max=65535, help="Port to listen on (0: any free one).")
    ] = 8000,
    host: Annotated[
        str,
        typer.Option(
            help="Address to listen on. Only this machine can see the default; another address opens the preview to the network."
        ),
    ] = "127.0.0.1",
    stamp: Annotated[
        bool,
        typer.Option(
            "--stamp/--no-stamp", help="Show every face with its version stamp, as `build --stamp` prints it."
        ),
    ] = False,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="REV",
            help="A playtest round: each component that differs from REV (a git commit or tag, or a folder with an "
            "earlier copy of the pack) shows its earlier faces beside the new ones; added ones are marked new, "
            "removed ones shown as they were.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Preview a pack in the browser: every component front and back, in every language, and the
    print sheets; the page redraws what changed each time a file of the pack is saved."""
    from mazmorra.rounds import earlier
    from mazmorra.rounds.beside import Beside
    from mazmorra.serve.live import live_html
    from mazmorra.serve.preview import Preview
    from mazmorra.serve.server import run
    from mazmorra.support.paths import templates_dir

    with guard():
        pack_dir = one_pack(pack, "preview")
        if host not in LOOPBACK:
            err.print(
                f"[bold yellow]warning:[/] listening on {escape(host)}: anyone who can reach this machine "
                "can see the preview (the default, 127.0.0.1, is this machine only)"
            )
        if since is not None and stamp:
            raise UsageError("--since compares what prints, and every version stamp differs: drop --stamp")
        langs = parse_langs(lang_list(lang))
        check_langs([pack_dir], langs)
        with earlier(pack_dir, since) if since is not None else nullcontext() as before:
            beside = None
            if since is not None:
                if before is None:
                    err.print(f"{escape(pack_dir.name)} was not in revision {escape(since)}: every component is new")
                beside = Beside(before, since, langs)  # laid out once, for the whole session
            preview = Preview(pack_dir, langs, live_html, stamp, beside)
            watched = [pack_dir.resolve(), templates_dir().resolve()]
            run(
                preview,
                host,
                port,
                watched,
                say=lambda line: err.print(escape(line)),
                ready=lambda url: err.print(
                    f"[green]✓[/] previewing {escape(pack_dir.name)} at {escape(url)} (Ctrl-C stops)"
                ),
            )
        err.print("stopped")
