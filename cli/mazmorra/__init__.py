"""mazmorra: print-and-play content pipeline for dungeon board games."""

__version__ = "0.1.0"
