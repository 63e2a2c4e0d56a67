"""Allow `python -m mazmorra`."""

from mazmorra.cli import main

main()
