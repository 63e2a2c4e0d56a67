"""Worker processes for one build (`mazmorra build -j N`): documents side by side (`run`), and the
layout of one long document beside its drawing (`Aside`).

Workers are forked once the documents are planned, so each inherits the loaded, validated and
localised pack and the lazy layouts of its documents instead of loading them again; a task is then
just a document's index. Workers send their progress to the parent, so one progress bar shows
every worker's components. Workers ignore Ctrl-C: the parent stops them and discards what they
staged. Where processes cannot be forked (Windows, macOS' default), a build runs in one process.
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


def run(
    count: int,
    task: Callable[[int, Progress], T],
    jobs: int,
    progress: Progress,
    weights: list[int] | None = None,
) -> list[T]:
    """task(i, progress) for every i < count in `jobs` forked worker processes, each taking the next
    task as it finishes one (the heaviest first, by `weights`); the results in the order of i,
    whatever order they finished in. An exception in a task is raised here, once every worker has
    been stopped."""
    ctx = multiprocessing.get_context("fork")
    order = sorted(range(count), key=lambda i: -(weights[i] if weights else 0))
    recv, send = ctx.Pipe(duplex=False)
    lock, taken = ctx.Lock(), ctx.Value("i", 0)
    gc.collect()
    gc.freeze()  # workers then leave the inherited objects' pages shared instead of copying them
    procs = [
        ctx.Process(target=_work, args=(order, task, send, lock, taken), daemon=True) for _ in range(min(jobs, count))
    ]
    try:
        for proc in procs:
            proc.start()
        send.close()
        results: dict[int, T] = {}
        while len(results) < count:
            try:
                message = recv.recv()
            except EOFError:
                raise RuntimeError("a worker process stopped without a word") from None
            if message[0] == "progress":
                progress(message[1], message[2])
            elif message[0] == "done":
                results[message[1]] = message[2]
            else:
                raise RuntimeError(f"a worker process failed:\n{message[1]}")
        return [results[i] for i in range(count)]
    finally:
        gc.unfreeze()
        recv.close()
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
            proc.join()


def _work(order: list[int], task: Task, conn: Any, lock: Any, taken: Any) -> None:
    """One worker: the next task of `order` until none is left; each message whole, under `lock`."""
    _start()

    def say(*message: Any) -> None:
        with lock:
            conn.send(message)

    while True:
        with taken.get_lock():
            n = taken.value
            taken.value += 1
        if n >= len(order):
            break
        try:
            say("done", order[n], task(order[n], lambda what, k: say("progress", what, k)))
        except BaseException:
            say("error", traceback.format_exc())
            break
    conn.close()


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
