"""Worker processes for one build (`mazmorra build -j N`): documents side by side (`run`), and the
layout of one long document beside its drawing (`Aside`).

Workers are forked once the documents are planned, so each inherits the loaded, validated and
localised pack and the lazy layouts of its documents instead of loading them again; a task is then
just a document's index. Each worker reports progress through a queue the parent reads, so one
progress bar shows every worker's components. Workers ignore Ctrl-C: the parent stops them and
discards what they staged. Where processes cannot be forked (Windows, macOS' default), a build
runs in one process.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")
Progress = Callable[[str, int], None]
Task = Callable[[int, Progress], Any]

_task: Task | None = None  # set in the parent just before the fork; workers inherit it
_send: Any = None  # (the write end of the progress pipe, the lock that keeps messages whole)


def can_fork() -> bool:
    """Whether documents can be rendered in forked workers on this platform."""
    return "fork" in multiprocessing.get_all_start_methods() and os.name == "posix"


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _call(index: int) -> Any:
    assert _task is not None and _send is not None
    conn, lock = _send

    def progress(what: str, n: int) -> None:
        with lock:  # written before the task returns, so the parent reads it before the result
            conn.send((what, n))

    return _task(index, progress)


def run(count: int, task: Callable[[int, Progress], T], jobs: int, progress: Progress) -> list[T]:
    """task(i, progress) for every i < count in `jobs` forked worker processes; the results in the
    order of i, whatever order they finished in. An exception in a task is raised here, once every
    worker has been stopped."""
    global _task, _send
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    _task, _send = task, (send, ctx.Lock())
    gc.collect()
    gc.freeze()  # workers then leave the inherited objects' pages shared instead of copying them
    try:
        with ctx.Pool(min(jobs, count), initializer=_start) as pool:
            pending = [pool.apply_async(_call, (i,)) for i in range(count)]
            while not all(p.ready() for p in pending):
                if recv.poll(0.1):  # sleeps until a message comes (or a tenth of a second passes)
                    progress(*recv.recv())
            while recv.poll(0):
                progress(*recv.recv())
            return [p.get() for p in pending]
    finally:
        gc.unfreeze()
        recv.close()
        send.close()
        _task, _send = None, None


class Aside(Generic[T]):
    """The items of `produce()` made in a forked process, sent here in batches as they come, so
    this process can use them (draw them) while the next ones are made. `result` is what
    `finish()` returned there once the last item was sent (what making them learnt)."""

    def __init__(self, produce: Callable[[], Iterable[T]], finish: Callable[[], Any], batch: int = 16):
        self.produce, self.finish, self.batch = produce, finish, batch
        self.result: Any = None

    def __iter__(self) -> Iterator[T]:
        ctx = multiprocessing.get_context("fork")
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=self._make, args=(send,), daemon=True)
        proc.start()
        send.close()
        try:
            while True:
                try:
                    kind, payload = recv.recv()
                except EOFError:
                    raise RuntimeError("the layout process stopped without a word") from None
                if kind == "items":
                    yield from payload
                elif kind == "end":
                    self.result = payload
                    return
                else:
                    raise RuntimeError(f"the layout process failed:\n{payload}")
        finally:
            recv.close()
            if proc.is_alive():
                proc.terminate()
            proc.join()

    def _make(self, conn: Any) -> None:
        _start()
        try:
            batch: list[T] = []
            for item in self.produce():
                batch.append(item)
                if len(batch) >= self.batch:
                    conn.send(("items", batch))
                    batch = []
            conn.send(("items", batch))
            conn.send(("end", self.finish()))
        except BaseException:
            conn.send(("error", traceback.format_exc()))
        finally:
            conn.close()
