"""Running batches of games elsewhere: in worker processes, or on a Ray cluster (an optional
extra, `regola[ray]`).

`run_parts(worker, args)` plays the parts of a batch (`worker(a)` for each `a`: a list of
records with an `index`) in one process, in `len(args)` processes or as Ray tasks, and returns
all the records in game order, so the aggregates do not depend on where they were played.

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
        import multiprocessing as mp
        ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
        parts, done = [], 0
        with ctx.Pool(len(args)) as pool:
            for part in pool.imap_unordered(worker, args):
                parts.append(part)
                done += len(part)
                if progress is not None:
                    progress.update(done)
    records = [r for part in parts for r in part]
    records.sort(key=lambda r: r.index)
    return records


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
