"""Running batches of games elsewhere: on a Ray cluster (an optional extra, `regola[ray]`).

`ray_map(fn, args)` runs `fn(a)` for each `a` as Ray tasks and returns the results in the
order of `args`, so the aggregate is the same as in one process. `address` joins a running
cluster (`ray start --head` on one machine, `--address` on the others); without it a local
Ray is started, and stops when the process ends.
"""

from __future__ import annotations


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
