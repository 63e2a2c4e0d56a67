"""Helper processes that lay a document's components out ahead of this one, into the face cache.

A build with more jobs than documents (`build -j 2` of one deck) forks the spare jobs as helpers
once the deck's templates are compiled. The helpers take the components from the last one
backwards and store each face in the face cache, as any build does; this process lays them out,
and draws them, from the first one forwards. When it reaches a component a helper has taken, it
stops the helpers, waits for each to finish the component it is on, and takes every later face
from the cache: a warm build from there on. They meet wherever their speeds put them, so drawing,
which only this process does, needs no guess.

The output does not depend on the helpers: a face from the cache is the face laid out (the face
cache's own guarantee), and a component no helper finished (one failed) is laid out here. What the
helpers laid out counts as laid out by this build (`Item.laid_out`): a face this process takes
from a helper's pack file of the cache.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.sharedctypes import RawValue
from typing import Any

from mazmorra.layout.cache import facepacks
from mazmorra.support import workers

MIN_COMPONENTS = 64  # a smaller deck is laid out sooner than a helper starts


def worth(components: int) -> bool:
    """Whether a document of this many components is laid out faster with a helper (where processes fork)."""
    return components >= MIN_COMPONENTS and workers.can_fork()


def helpers(count: int, lay: Callable[[int], object], look_again: Callable[[], None], n: int, tag: str) -> Ahead | None:
    """The helpers of a document of `count` components, or None where the system cannot share the
    counter they take components by (no shared memory): the document is then laid out here alone."""
    try:
        return Ahead(count, lay, look_again, n, tag)
    except (OSError, ImportError):
        return None


class Ahead:
    """The helpers of one document: `lay(i)` lays component i out (into the face cache);
    `look_again()` makes this process see what the helpers stored. Call `reached(i)` before laying
    component i out here, and `finish()` at the end. The helpers write their own pack files of the
    face cache, named with `tag` (layout/cache/facepacks.py): a face this process takes from one of them
    was laid out by this build.

    The helpers take components one at a time from the last one backwards (`_next`: the lowest
    taken so far); this process, at component i, stops them once i is taken, and waits for each
    to finish the component it is on: every component from i on is then in the cache."""

    def __init__(
        self, count: int, lay: Callable[[int], object], look_again: Callable[[], None], helpers: int, tag: str
    ):
        self.count = count
        self.lay = lay
        self.look_again = look_again
        self.helpers = helpers
        self.tag = tag
        self._pids: list[int] = []
        self._next: Any = multiprocessing.get_context("fork").Value("i", count)
        self._stop: Any = RawValue("b", 0)

    def start(self) -> None:
        """Fork the helpers (they start with the last component); as many as the system allows."""
        parent = os.getpid()
        for _ in range(self.helpers):
            pid = workers.forked(lambda: self._help(parent))
            if pid is None:  # no more processes allowed: this process lays out what no helper takes
                break
            self._pids.append(pid)

    def _help(self, parent: int) -> None:
        facepacks.tag_files(self.tag)
        while os.getppid() == parent:  # a parent killed outright takes no more faces
            with self._next.get_lock():
                if self._stop.value or self._next.value <= 0:
                    break
                self._next.value -= 1
                i = self._next.value
            self.lay(i)

    def reached(self, i: int) -> None:
        """This process is at component i: once a helper has taken it, the helpers are stopped and
        waited for, and i and every later component are in the face cache."""
        if self._pids and self._next.value <= i:
            self.finish()

    def finish(self) -> None:
        """Stop the helpers, wait for them, and see what they stored (idempotent)."""
        if not self._pids:
            return
        self._stop.value = 1
        for pid in self._pids:
            with contextlib.suppress(ChildProcessError):  # waited for elsewhere
                os.waitpid(pid, 0)
        self._pids = []
        self.look_again()
