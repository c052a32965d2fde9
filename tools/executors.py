"""Running batches of games elsewhere: in worker processes, or on a Ray cluster (an optional
extra, `regola[ray]`).

`run_parts(worker, args)` plays the parts of a batch (`worker(a)` for each `a`: a list of
records with an `index`) in one process, in `len(args)` processes or as Ray tasks, and returns
all the records in game order, so the aggregates do not depend on where they were played.

`process_map(fn, args)` runs `fn(a)` for each `a` in a worker process of its own and returns
the results in the order of `args`. It waits for every part before it raises the failure of
the earliest failed part (the one a run in one process would have met first): stopping the
workers while others are still sending a result can leave a lock of the result pipe held for
ever (multiprocessing.Pool.terminate does that, and hung `simulate --jobs` about once in 50
runs whose first part failed), and a worker that dies is reported instead of waited for.

`ray_map(fn, args)` runs `fn(a)` for each `a` as Ray tasks and returns the results in the
order of `args`, so the aggregate is the same as in one process. `address` joins a running
cluster (`ray start --head` on one machine, `--address` on the others); without it a local
Ray is started, and stops when the process ends.
"""

from __future__ import annotations

import os


def run_parts(worker, args: list, executor: str = "local", ray_address: str | None = None,
              progress=None) -> list:
    """`worker(a)` for each `a` of `args`, the records of all in order of their `index`.
    `progress` (tools.simulate.Progress or None) is advanced by the records done; with one
    part it is passed on as the part's last argument, to advance game by game."""
    if executor == "ray":
        parts = ray_map(worker, args, address=ray_address)
    elif len(args) == 1:
        parts = [worker((*args[0], progress))]
    else:
        done = 0

        def advance(part):
            nonlocal done
            done += len(part)
            if progress is not None:
                progress.update(done)
        parts = process_map(worker, args, on_result=advance)
    records = [r for part in parts for r in part]
    records.sort(key=lambda r: r.index)
    return records


def process_map(fn, args: list, on_result=None) -> list:
    """`[fn(a) for a in args]`, each call in a worker process of its own (forked where the
    system can, so the workers start with the engine imported). `on_result(r)` is called in
    this process as each result arrives, in the order they finish."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool
    ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    results: list = [None] * len(args)
    failures: dict[int, BaseException] = {}
    with ProcessPoolExecutor(max_workers=max(1, len(args)), mp_context=ctx) as pool:
        futures = {pool.submit(fn, a): i for i, a in enumerate(args)}
        for future in as_completed(futures):
            i = futures[future]
            try:
                results[i] = future.result()
            except BrokenProcessPool:
                failures[i] = RuntimeError(f"a worker process died (killed, or out of memory): part "
                                           f"{i + 1} of {len(args)} of the batch has no result")
            except BaseException as e:          # (the part's own error, raised below)
                failures[i] = e
            else:
                if on_result is not None:
                    on_result(results[i])
    if failures:
        raise failures[min(failures)]
    return results


def ray_map(fn, args: list, address: str | None = None) -> list:
    try:
        import ray
    except ImportError:
        raise ValueError("--executor ray needs Ray: pip install 'regola[ray]'") from None
    if not ray.is_initialized():
        # (Ray shuts itself down when the process exits; shutting it down here made Ray end
        # the process when a reference it had handed out was freed afterwards)
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 configure_logging=False, ignore_reinit_error=True)
    task = ray.remote(fn)
    refs = [task.remote(a) for a in args]
    results = ray.get(refs)
    del refs
    return results
