"""Running batches of games elsewhere: on a Ray cluster (an optional extra, `regola[ray]`).

`ray_map(fn, args)` runs `fn(a)` for each `a` as Ray tasks and returns the results in the
order of `args`, so the aggregate is the same as in one process. `address` joins a running
cluster (`ray start --head` on one machine, `--address` on the others); without it a local
Ray is started for this run and shut down after.
"""

from __future__ import annotations


def ray_map(fn, args: list, address: str | None = None) -> list:
    try:
        import ray
    except ImportError:
        raise ValueError("--executor ray needs Ray: pip install 'regola[ray]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 configure_logging=False, ignore_reinit_error=True)
    try:
        task = ray.remote(fn)
        return ray.get([task.remote(a) for a in args])
    finally:
        if started:
            ray.shutdown()
