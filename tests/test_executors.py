"""Parts of a batch played in worker processes (tools/executors.py): results in the order of
the parts, the earliest failure raised after every part is done, a dead worker reported."""

import os
import time

import pytest

from regola.tools.executors import process_map


def _square(x):
    time.sleep(0.01 * (3 - x))          # (the later parts finish first)
    return x * x


def _fail_some(x):
    if x in (1, 3):
        raise ValueError(f"part {x} failed")
    time.sleep(0.2)
    return x


def _fail_at_once(x):
    if x == 1:
        raise ValueError("part 1 failed")
    return x


def _die(x):
    if x == 1:
        os._exit(3)
    return x


def test_results_come_in_the_order_of_the_parts():
    seen = []
    assert process_map(_square, [0, 1, 2, 3], on_result=seen.append) == [0, 1, 4, 9]
    assert sorted(seen) == [0, 1, 4, 9]


def test_the_earliest_failed_part_is_raised_once_every_part_is_done():
    with pytest.raises(ValueError, match="part 1 failed"):
        process_map(_fail_some, [0, 1, 2, 3])


def test_a_failure_never_hangs_the_batch():
    # Pool.terminate() used to kill workers while they held the result pipe's lock; a batch
    # whose first part fails at once, repeated, found that in about 50 runs
    for _ in range(60):
        with pytest.raises(ValueError):
            process_map(_fail_at_once, [1, 0])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a forked worker that exits at once")
def test_a_worker_that_dies_is_reported():
    with pytest.raises(RuntimeError, match=r"a worker process died .*: part \d of 3"):
        process_map(_die, [0, 1, 2])
