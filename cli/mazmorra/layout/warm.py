"""What laying out in several processes should load once, before they fork: the hyphenation
dictionaries of the languages to be laid out (each forked process then shares them)."""

from __future__ import annotations

from mazmorra.layout.text import linebreak


def warm_up(langs: list[str]) -> None:
    linebreak.warm(langs)
