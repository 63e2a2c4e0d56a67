"""Allow `python -m mazmorra`."""

from mazmorra.commands import main

main()
