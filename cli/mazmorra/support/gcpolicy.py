"""The garbage collector's settings for builds, in one place (speed only: no output changes).

A build makes millions of short-lived, acyclic objects (faces, ops) and keeps large structures
alive (the pack, the layouts): with the default thresholds the collector rescans every live face
over and over (20% of a 10,000-card build).
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager

BATCH_THRESHOLD = (50_000, 20, 100)


def settle_imports() -> None:
    """Once a command has imported what it needs: what the imports built lives until the process
    ends, so the collector need not walk it again; collections come rarer from now on."""
    gc.freeze()
    gc.set_threshold(*BATCH_THRESHOLD)


_AT_EXIT: list[bool] = []


def light_exit() -> None:
    """At the process's exit, everything alive is frozen first: the interpreter's last collections
    then walk none of it (after a one-card save they walked everything the build left: 0.15-0.25 s of
    a 1 s command); it is still freed, by reference counts, and files were closed by their owners.
    Registered once a process; a caller running commands in-process (the tests) just exits lighter."""
    if not _AT_EXIT:
        _AT_EXIT.append(True)
        atexit.register(gc.freeze)


@contextmanager
def batched() -> Iterator[None]:
    """Collect cycles less often for the length of one build, then restore the caller's settings
    (a long-running caller, the live preview, builds many times)."""
    old = gc.get_threshold()
    gc.set_threshold(*BATCH_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*old)


@contextmanager
def shared_with_forks() -> Iterator[None]:
    """While worker processes are forked and run: every object alive now is frozen, so workers leave
    the inherited objects' memory pages shared instead of copying them as the collector touches them."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
