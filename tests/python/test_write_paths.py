"""The node-cooperative write (the default: the ranks of a partition on its aggregator's node
write its file together, each a slice) writes exactly the bytes of the single-aggregator writes,
at odd and even rank counts, with partitions spanning "nodes" (LODEX_RANKS_PER_NODE cuts the
machine into nodes of k ranks), and the profile says which path each step took."""

from __future__ import annotations


import pytest

import lodex_testutil as tu
from conftest import LaunchCache, run_mpi

cached = LaunchCache()


digests = tu.file_digests


def written(tmp_path_factory, n: int, exchange: str, ranks_per_node: int | None = None,
            cases: tuple[str, ...] = ()) -> tuple[dict, dict]:
    """(digests, worker result) of write_roundtrip.py on n ranks with that exchange (every
    round-trip case, or ``cases``)."""
    def launch():
        out = tmp_path_factory.mktemp(f"paths{n}{exchange}{ranks_per_node or ''}")
        env = {"LODEX_EXCHANGE": exchange}
        if ranks_per_node:
            env["LODEX_RANKS_PER_NODE"] = str(ranks_per_node)
        res = run_mpi(n, "write_roundtrip.py", str(out), *cases, timeout=180, env=env)
        return digests(str(out)), res
    return cached((n, exchange, ranks_per_node, cases), launch)


def paths(res: dict, case: str) -> set[str]:
    return {p["path"] for p in res["cases"][case]["profiles"].values()}


@pytest.mark.parametrize("n,ranks_per_node", [(2, None), (3, None), (5, None), (8, None), (5, 2), (8, 3)],
                         ids=["n2", "n3", "n5", "n8", "n5-nodes-of-2", "n8-nodes-of-3"])
def test_node_path_writes_the_same_bytes(tmp_path_factory, n, ranks_per_node):
    want, ref = written(tmp_path_factory, n, "p2p")
    got, res = written(tmp_path_factory, n, "node", ranks_per_node)
    assert len(want) >= 2 * len(tu.ROUNDTRIP_CASES)
    assert got.keys() == want.keys()
    different = sorted(f for f in got if got[f] != want[f])
    assert not different, (f"{len(different)} of {len(got)} files differ from the single-aggregator write: "
                           f"{different[:5]}")
    assert all(paths(ref, c) == {"p2p"} for c in tu.ROUNDTRIP_CASES)
    # One rank per partition: nobody to write with.
    assert paths(res, "factor111") == {"p2p"}
    if ranks_per_node is None:   # every partition's senders share the one node
        assert paths(res, "factor_big") == {"node"}
        assert "node" in paths(res, "grid_nopatch")


@pytest.mark.parametrize("n", [3, 4])
def test_node_path_with_more_segments_than_a_shared_placement_takes(tmp_path_factory, n):
    """Bricks of 4 particles: the writers' count tables would outgrow the permutation, so the
    aggregator orders the file alone (docs/writes.md, "Write paths"), still the same bytes."""
    want, _ = written(tmp_path_factory, n, "p2p", cases=("fine_bricks",))
    got, res = written(tmp_path_factory, n, "node", cases=("fine_bricks",))
    assert len(want) >= 2 and got == want
    assert paths(res, "fine_bricks") == {"node"}


def test_shared_memory_single_writer_writes_the_same_bytes(tmp_path_factory):
    want, _ = written(tmp_path_factory, 5, "p2p")
    got, res = written(tmp_path_factory, 5, "shm")
    assert got == want
    assert paths(res, "factor_big") == {"shm"}


@pytest.mark.parametrize("value", ["0", "-2", "two", "3x"])
def test_a_bad_ranks_per_node_is_refused_on_every_rank(tmp_path, value):
    from conftest import run_mpi_raw
    rc, out, err, timed_out = run_mpi_raw(2, "write_roundtrip.py", str(tmp_path), "factor111", timeout=60,
                                          env={"LODEX_RANKS_PER_NODE": value})
    assert not timed_out and rc != 0
    assert err.count(f'LODEX_RANKS_PER_NODE must be a positive integer, got "{value}"') == 2, err[-2000:]
