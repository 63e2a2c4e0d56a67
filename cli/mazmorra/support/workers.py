"""Worker processes for the documents of one build (`mazmorra build -j N`).

Workers are forked once the documents are planned, so each inherits the loaded, validated and
localised pack and the lazy layouts of its documents instead of loading them again; a task is then
just a document's index. Workers send their progress to the parent, so one progress bar shows
every worker's components. Workers ignore Ctrl-C: the parent stops them and discards what they
staged. Where processes cannot be forked (Windows, macOS' default), a build runs in one process.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from mazmorra.errors import UsageError
from mazmorra.support import gcpolicy

T = TypeVar("T")
Progress = Callable[[str, int], None]
Task = Callable[[int, Progress], Any]


def forked(task: Callable[[], object]) -> int | None:
    """Run `task` in a forked helper process (Ctrl-C ignored: its parent stops it) and return its
    pid, or None when the system refuses another process. The helper never returns into the caller:
    it ends with `os._exit` (status 0 when `task` returned, 1 when it raised), so no cleanup of the
    parent's (staging, atexit) runs twice."""
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:
        code = 1
        try:
            _start()
            task()
            code = 0
        finally:
            os._exit(code)
    return pid


def can_fork() -> bool:
    """Whether documents can be rendered in forked workers on this platform."""
    return "fork" in multiprocessing.get_all_start_methods() and os.name == "posix"


def default_jobs() -> int:
    """How many worker processes a build uses unless `-j` says: MAZMORRA_JOBS when set (a shared CI
    machine, a test run), else the number of cores this process may use."""
    wanted = os.environ.get("MAZMORRA_JOBS", "").strip()
    if wanted:
        if not wanted.isdigit() or int(wanted) < 1:
            raise UsageError(f"MAZMORRA_JOBS must be a whole number of processes, 1 or more (got '{wanted}')")
        return int(wanted)
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
    arrived: Callable[[int, T], None] | None = None,
) -> list[T]:
    """task(i, progress) for every i < count in `jobs` processes (this one and `jobs` - 1 forked
    workers), each taking the next task as it finishes one (the heaviest first, by `weights`); the results in the order of i,
    whatever order they finished in, each also handed to `arrived(i, result)` in this process as soon
    as it is here. An exception in a task, or in `arrived`, is raised here, once every worker has
    been stopped."""
    ctx = multiprocessing.get_context("fork")
    order = sorted(range(count), key=lambda i: -(weights[i] if weights else 0))
    recv, send = ctx.Pipe(duplex=False)
    shared = _Shared(order, ctx.Value("i", 0), recv, send, ctx.Lock())
    with gcpolicy.shared_with_forks():
        procs = [  # this process is the last worker: one fork fewer, and it has nothing else to do meanwhile
            ctx.Process(target=_work, args=(shared, task), daemon=True) for _ in range(min(jobs, count) - 1)
        ]
        return _gather(shared, procs, task, progress, arrived)


@dataclass(frozen=True)
class _Shared:
    """What the processes of one run share: the tasks in the order they are taken, the count of those
    taken so far, and the pipe the workers' messages come back by (each sent whole, under `lock`)."""

    order: list[int]
    taken: Any  # a shared integer
    recv: Any
    send: Any
    lock: Any

    def next(self) -> int | None:
        """The next task, taken by whichever process asks first; None once every task is taken."""
        with self.taken.get_lock():
            n: int = self.taken.value
            self.taken.value += 1
        return self.order[n] if n < len(self.order) else None


def _gather(
    shared: _Shared,
    procs: list[Any],
    task: Callable[[int, Progress], T],
    progress: Progress,
    arrived: Callable[[int, T], None] | None,
) -> list[T]:
    """This process's part of a run: start the workers, take tasks beside them, read what they send
    until every result is here, and stop them whatever happens."""
    count, recv = len(shared.order), shared.recv
    results: dict[int, T] = {}

    def got(i: int, result: T) -> None:
        results[i] = result
        if arrived is not None:
            arrived(i, result)

    def handle(message: Any) -> None:
        if message[0] == "progress":
            progress(message[1], message[2])
        elif message[0] == "done":
            got(message[1], message[2])
        else:
            raise RuntimeError(f"a worker process failed:\n{message[1]}")

    def mine(what: str, k: int) -> None:
        """This process's own progress; the workers' messages read meanwhile, so that none waits on a
        full pipe while this process works."""
        progress(what, k)
        try:
            while recv.poll(0):
                handle(recv.recv())
        except EOFError:  # every worker has finished and gone: what they sent has been read
            pass

    try:
        for proc in procs:
            proc.start()
        shared.send.close()
        while (i := shared.next()) is not None:
            got(i, task(i, mine))
        while len(results) < count:
            try:
                message = recv.recv()
            except EOFError:
                raise RuntimeError("a worker process stopped without a word") from None
            handle(message)
        return [results[i] for i in range(count)]
    finally:
        recv.close()
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
            proc.join()


def _work(shared: _Shared, task: Task) -> None:
    """One worker: the next task until none is left; each message whole, under the shared lock."""
    _start()
    # Only the parent reads: should it die, a worker's next message then fails and the worker ends,
    # instead of waiting forever on a pipe its siblings keep open.
    shared.recv.close()
    conn = shared.send

    def say(*message: Any) -> None:
        with shared.lock:
            conn.send(message)

    while (i := shared.next()) is not None:
        try:
            say("done", i, task(i, lambda what, k: say("progress", what, k)))
        except BaseException:
            say("error", traceback.format_exc())
            break
    conn.close()
