"""The `mazmorra` command: parses options, calls the library, prints. No logic lives here.

One module per group of commands, each registering on `app`; this module is the entry point.
"""

from __future__ import annotations

import os
import sys

from mazmorra.commands import build, generate, i18n, numbers, pack, rounds, serve  # noqa: F401  (each registers its commands on app)
from mazmorra.commands.app import app
from mazmorra.commands.console import err, escape
from mazmorra.support import gcpolicy


def main() -> None:
    # no pydantic plugins are used: without this every start scans the installed packages' entry points
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    gcpolicy.light_exit()
    try:
        app()
    except SystemExit:
        raise
    except Exception as exc:  # a bug in mazmorra itself: still no traceback wall for the user
        if os.environ.get("MAZMORRA_DEBUG"):
            raise
        err.print(
            f"[bold red]internal error:[/] {type(exc).__name__}: {escape(str(exc))}\n"
            "This is a bug in mazmorra; rerun with MAZMORRA_DEBUG=1 for details."
        )
        sys.exit(70)


if __name__ == "__main__":
    main()
