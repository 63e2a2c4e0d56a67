"""Playtest rounds: what a pack changed since an earlier revision, judged by what is printed.

`revision.py` brings the earlier revision out (a git revision or tag, or a folder holding an earlier
copy of the pack), `compare.py` lays both revisions out in one language and compares them component
by component (`Changes`), `report.py` writes the comparison as terminal text, Markdown or JSON, and
`removal.py` lays out the page listing what to take out of the deck (`build --changed-since`);
`beside.py` is the earlier revision the live preview compares with (`serve --since`), laid out once.
"""

from mazmorra.rounds.compare import Change, Changes, compare
from mazmorra.rounds.revision import Revision, earlier

__all__ = ["Change", "Changes", "Revision", "compare", "earlier"]
