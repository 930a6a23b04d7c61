"""Bad input raises the right lodex error (on every rank, with no hang), and a failed call leaves
the committed steps intact: they still read back, the failed step is not listed, and a good
retry of the step works.

The cases live in mpi_scripts/bad_input_cases.py; multi-rank runs put the bad input on rank 1
only (bad_input_mpi.py)."""

from __future__ import annotations

import numpy as np
import pytest

import bad_input_cases as bic
import lodex
import lodex_testutil as tu
from conftest import run_mpi

N_RANKS = 3
HANG_TIMEOUT = 20   # a good case takes 1-2 s; anything this slow is a hang

ALL_CASES = {**bic.WRITE_CASES, **bic.OTHER_CASES}

# Words the error message must contain (lower-cased), so the error names the problem.
MESSAGE_HINTS = {
    "lengths": "length",
    "dtype": "dtype",
    "dtype_unsupported": "dtype",
    "components": "components",
    "ndim": "dimension",
    "missing_field": "energy",
    "unknown_field": "bogus",
    "outside_patch": "patch",
    "outside_domain": "domain",
    "nan_position": "finite",
    "inf_position": "finite",
    "patch_outside_domain": "domain",
    "patch_empty": "patch",
    "patch_malformed": "patch",
    "data_not_mapping": "dict",
    "negative_step": "negative",
    "step_mismatch": "step",
    "step_twice": "already",
    "step_twice_one_rank": "already",
    "factor_misfit": "factor",
    "factor_without_patch": "patch",
    "create_existing": "exists",
    "create_under_file": "plain.txt",
    "create_in_proc": "/proc/lodex-test-cannot-exist",
    "open_missing": "missing.lodex",
    "open_append_missing": "missing.lodex",
    "read_missing_step": "99",
    "read_unknown_field": "bogus",
    "group_schema_differs_on_one_rank": "differently",
}


def _expected_step(step: int, size: int) -> dict:
    return tu.concat([bic.good(r, size, step)[0] for r in range(size)], bic.SCHEMA)


def _check_dataset(path: str, size: int) -> None:
    """Steps 0 (before the failure) and 1 (the retry) read back value for value."""
    g = lodex.open(path).particles[bic.GROUP]
    assert g.steps == [0, 1]
    for step in (0, 1):
        tu.assert_same_particles(g.read(step), _expected_step(step, size), bic.SCHEMA)


def _check_outcome(case: str, outs: list[dict], size: int) -> None:
    want = ALL_CASES[case]
    errors = [o["error"] for o in outs]
    assert errors == [want] * size, f"{case}: per-rank exceptions {errors}, expected {want} everywhere"
    assert all(o["is_lodex_error"] for o in outs)
    # the same error (class and message) on every rank
    assert len({o["message"] for o in outs}) == 1, [o["message"] for o in outs]
    msg = outs[0]["message"].lower()
    assert MESSAGE_HINTS[case].lower() in msg, f"{case}: message {outs[0]['message']!r}"
    for o in outs:
        assert o["steps_after"] == [0], f"rank {o['rank']}: steps after the failure {o['steps_after']}"
        if "f_steps_after" in o:
            assert o["f_steps_after"] == []
        assert o["retry"] == "ok", f"rank {o['rank']}: good retry of step 1 failed: {o['retry']}"
        assert o["steps_final"] == [0, 1]
    assert outs[0]["steps_on_disk"] == [0]
    _check_dataset(outs[0]["path"], size)


def test_error_classes_are_builtins_too():
    assert issubclass(lodex.InvalidArgumentError, ValueError)
    assert issubclass(lodex.NotFoundError, LookupError)
    assert issubclass(lodex.AlreadyExistsError, FileExistsError)
    assert issubclass(lodex.IOFailure, OSError)
    assert issubclass(lodex.FormatError, ValueError)
    for c in (lodex.InvalidArgumentError, lodex.NotFoundError, lodex.AlreadyExistsError,
              lodex.IOFailure, lodex.FormatError):
        assert issubclass(c, lodex.Error)


SERIAL = [c for c in ALL_CASES if c not in bic.SERIAL_SKIP]


@pytest.mark.parametrize("case", SERIAL)
def test_serial(case, tmp_path):
    out = bic.run_case(case, str(tmp_path), comm=None)
    _check_outcome(case, [out], 1)


@pytest.mark.parametrize("case", list(ALL_CASES))
def test_mpi_bad_on_one_rank(case, tmp_path):
    res = run_mpi(N_RANKS, "bad_input_mpi.py", case, str(tmp_path), timeout=HANG_TIMEOUT)
    _check_outcome(case, res["ranks"], N_RANKS)


# ---------------------------------------------------------------------------------------------
# More serial argument checks
# ---------------------------------------------------------------------------------------------

def test_invalid_group_definitions(tmp_path):
    ds = lodex.create(str(tmp_path / "d.lodex"))
    dom = bic.DOMAIN
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("g", schema={"energy": "f4"}, domain=dom)                 # no position
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("g", schema={"position": ("i4", 3)}, domain=dom)          # integer position
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("g", schema={"position": ("f8", 2)}, domain=dom)          # 2-D position
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("g", schema={"position": ("f8", 3), "e": "c8"}, domain=dom)   # unknown dtype
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("g", schema={"position": ("f8", 3), "e": ("f4", 0)}, domain=dom)
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("g", schema=bic.SCHEMA, domain=((0, 0, 0), (1, 0, 1)))    # empty domain
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("g", schema=bic.SCHEMA, domain=((0, 0, 0), (1, np.inf, 1)))
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("g", schema=bic.SCHEMA, domain=dom, partition=(0, 1, 1))
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("g", schema=bic.SCHEMA, domain=dom, partition=(1, 1, 1), partition_grid=(1, 1, 1))
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("bad/name", schema=bic.SCHEMA, domain=dom)
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("g", schema=bic.SCHEMA)                                     # no domain
    with pytest.raises(lodex.NotFoundError):
        ds.particles["nope"]
    assert list(ds.particles) == []
    with pytest.raises(lodex.InvalidArgumentError):
        lodex.open(str(tmp_path / "d.lodex"), mode="w")
    with pytest.raises(lodex.InvalidArgumentError):
        lodex.create("")


def test_write_after_close_and_strided_input(tmp_path):
    """Non-contiguous input arrays are written correctly; a closed dataset refuses writes."""
    path = str(tmp_path / "s.lodex")
    ds = lodex.create(path)
    g = ds.define_particles("p", schema=bic.SCHEMA, domain=bic.DOMAIN)
    d = bic.particles(0, 400, bic.DOMAIN, 0)
    big = np.zeros((400, 6))
    big[:, ::2] = d["position"]
    strided = {"position": big[:, ::2], "energy": d["energy"][::-1][::-1].copy()[::1],
               "id": np.stack([d["id"], d["id"]], axis=1)[:, 0]}
    assert not strided["position"].flags.c_contiguous and not strided["id"].flags.c_contiguous
    g.write(step=0, data=strided)
    ds.close()
    with pytest.raises(lodex.InvalidArgumentError):
        g.write(step=1, data=d)
    tu.assert_same_particles(lodex.open(path).particles["p"].read(0), d, bic.SCHEMA)


@pytest.mark.parametrize("kind", ["big_endian_position", "big_endian_field", "bool_field",
                                  "string_field", "object_field", "complex_field", "scalar_field"])
def test_unusual_input_arrays(tmp_path, kind):
    """Arrays lodex cannot take as they are either round-trip by value or raise a lodex error
    (InvalidArgumentError) -- never a bare TypeError from the binding layer."""
    path = str(tmp_path / "u.lodex")
    schema = {"position": ("f8", 3), "e": "f8", "id": "i8"}
    ds = lodex.create(path)
    g = ds.define_particles("p", schema=schema, domain=bic.DOMAIN)
    rng = np.random.default_rng(0)
    good = {"position": rng.random((20, 3)), "e": rng.random(20), "id": np.arange(20, dtype=np.int64)}
    data = dict(good)
    if kind == "big_endian_position":
        data["position"] = good["position"].astype(">f8")
    elif kind == "big_endian_field":
        data["e"] = good["e"].astype(">f8")
    elif kind == "bool_field":
        data["e"] = np.ones(20, dtype=bool)
    elif kind == "string_field":
        data["e"] = np.array(["x"] * 20)
    elif kind == "object_field":
        data["e"] = np.array([object()] * 20)
    elif kind == "complex_field":
        data["e"] = np.ones(20, dtype=np.complex128)
    elif kind == "scalar_field":
        data["e"] = 1.0
    try:
        g.write(step=0, data=data)
    except lodex.InvalidArgumentError:
        assert g.steps == []
        return
    except Exception as e:   # noqa: BLE001
        pytest.fail(f"{kind}: raised {type(e).__module__}.{type(e).__name__} (not a lodex.Error): "
                    f"{str(e).splitlines()[0]}")
    assert kind.startswith("big_endian"), f"{kind}: accepted although it is not the schema's dtype"
    tu.assert_same_particles(lodex.open(path).particles["p"].read(0), good, schema)


@pytest.mark.parametrize("step", [1.5, 2.0, "3", True, None, 2**63])
def test_particle_step_must_be_an_integer(tmp_path, step):
    """A step that is not an integer is refused (it used to be truncated: step=1.5 committed 1),
    as grid and series writes refuse it, and nothing is committed."""
    path = str(tmp_path / "s.lodex")
    ds = lodex.create(path)
    g = ds.define_particles("p", schema=bic.SCHEMA, domain=bic.DOMAIN)
    with pytest.raises(lodex.InvalidArgumentError, match="step must be an integer"):
        g.write(step=step, data=bic.particles(0, 100, bic.DOMAIN, 0))
    g.write(step=np.int64(4), data=bic.particles(0, 100, bic.DOMAIN, 0))   # numpy integers are fine
    ds.close()
    assert lodex.open(path).particles["p"].steps == [4]


def test_partition_factor_without_patch_is_explained(tmp_path):
    """The docstring promised a computed patch for every partition scheme; a partition factor
    needs the decomposition's patches in a parallel write. The docstring says so (the error on a
    rank without its patch: test_mpi_bad_on_one_rank[factor_without_patch]), a serial write's
    patch is the domain, and a partition grid without patches works."""
    doc = " ".join(lodex.ParticleGroup.write.__doc__.split())
    assert "partition factor needs it on every rank of a parallel write" in doc
    path = str(tmp_path / "s.lodex")
    with lodex.create(path) as ds:
        h = ds.define_particles("q", schema=bic.SCHEMA, domain=bic.DOMAIN, partition_grid=(2, 1, 1))
        h.write(step=0, data=bic.particles(0, 100, bic.DOMAIN, 0))
    assert lodex.open(path).particles["q"].steps == [0]


def test_already_exists_says_how_to_append(tmp_path):
    path = str(tmp_path / "d.lodex")
    lodex.create(path).close()
    with pytest.raises(lodex.AlreadyExistsError) as e:
        lodex.create(path)
    assert f"lodex.open({path!r}, mode=\"a\")" in str(e.value)
    assert "comm=" not in str(e.value)   # not under mpiexec


def test_create_without_comm_under_mpiexec_suggests_comm(tmp_path):
    from conftest import run_mpi
    out = run_mpi(3, "create_serial.py", str(tmp_path / "d.lodex"), timeout=60)["outcomes"]
    assert out[0] is None
    for msg in out[1:]:
        assert "one of 3 started by mpiexec" in msg and "comm=MPI.COMM_WORLD" in msg, msg


def test_serial_factor_write_without_patch_uses_the_domain(tmp_path):
    """One writer with a partition factor needs no patch: its patch is the whole domain (it used
    to fail at the first write); several ranks still must pass theirs (tested in the MPI cases)."""
    path = str(tmp_path / "f.lodex")
    rng = np.random.default_rng(4)
    data = {"position": rng.uniform(-1, 3, (400, 3)), "energy": rng.random(400).astype(np.float32)}
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema={"position": ("f8", 3), "energy": "f4"}, domain=((-1, -1, -1), (3, 3, 3)),
                                partition=(1, 1, 1))
        g.write(step=0, data=data)
    got = lodex.open(path).particles["p"].read(0)
    assert np.array_equal(np.sort(got["energy"]), np.sort(data["energy"]))
    assert lodex.open(path).particles["p"].files(0)[0]["partition_box"]["min"] == (-1, -1, -1)
