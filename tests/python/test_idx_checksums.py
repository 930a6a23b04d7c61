"""Block checksums of the IDX grids lodex writes (docs/formats/idx.md §6, docs/reliability.md).

Every IDX step lodex writes has a checksum file beside it (``<name>.checksums/<time dir>blocks.xxh3``)
that OpenVisus never opens. These tests damage grids written by ``lodex.write_idx`` and by
``Dataset.define_grid(...).write`` on 1 and 3 ranks (raw and zip blocks, the global index space and local
partitions) and check every read either raises a FormatError or returns exactly what was written:

- every single-bit flip of every stored block byte is detected (100 %, exhaustively);
- every single-bit flip of every block-table entry is detected or harmless;
- block files swapped within a grid, a codec flag or an offset forged in a table, checksum files
  swapped between steps, a damaged or truncated checksum file, a missing one where the manifest
  records it: each a FormatError naming the file;
- an IDX dataset without checksum files (written by OpenVisus, or the file deleted from a
  ``write_idx`` output) still reads, unverified, as documented.
"""

from __future__ import annotations

import os
import re
import shutil
import struct

import numpy as np
import pytest

import lodex
import idx_sums_cases as cases
from conftest import run_mpi
from grid_checks import assert_same, table_entries

os.environ.setdefault("VISUS_DISABLE_WRITE_LOCK", "1")
import OpenVisus as ov  # noqa: E402


# ------------------------------------------------------------------------------------ fixtures

def tiny_field(step: int = 0) -> np.ndarray:
    """(3, 4, 5) float32: 60 samples in blocks of 8, small enough to flip every bit."""
    return (np.arange(60, dtype=np.float32).reshape(3, 4, 5) * 0.25 + step)


@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    """{label: (reader factory, expected arrays by (step, field), data root)} for every writer."""
    root = tmp_path_factory.mktemp("sums")
    out = {}
    for zipped in (False, True):
        label = "write_idx-zip" if zipped else "write_idx-raw"
        path = str(root / label / "t.idx")
        os.makedirs(os.path.dirname(path))
        for t in (0, 1):
            lodex.write_idx(path, tiny_field(t), bits_per_block=3, blocks_per_file=2,
                            compression="zip" if zipped else None, time=(0, 1, "t%d/"), step=t)
        out[label] = (lambda p=path: idx_reader(p), {(t, "data"): tiny_field(t) for t in (0, 1)},
                      os.path.dirname(path))
    serial = str(root / "ds1.lodex")
    ds = lodex.create(serial)
    cases.write_all(ds, 0, 1)
    ds.close()
    parallel = run_mpi(3, "idx_sums_mpi.py", str(root / "ds3.lodex"), timeout=150)["path"]
    for ranks, path in ((1, serial), (3, parallel)):
        for name, kw in cases.grids(ranks).items():
            want = {(s, f): cases.field(f, s) for s in cases.STEPS for f in kw["fields"]}
            out[f"grid{ranks}-{name}"] = (lambda p=path, n=name: grid_reader(p, n), want, path)
    return out


def idx_reader(path):
    g = lodex.open_idx(path)
    return lambda step, field: g.read(step=step, field=field)


def grid_reader(path, name):
    g = lodex.open(path).grids[name]
    return lambda step, field: g.read(step=step, field=field)


def block_files(root: str) -> list[str]:
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".bin"))


def sums_files(root: str) -> list[str]:
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f == "blocks.xxh3")


def stored_blocks(path: str) -> list[tuple[int, int, int]]:
    """(entry index, offset, size) of every present block of a block file."""
    raw = open(path, "rb").read()
    n = (min(e[2] | e[3] << 32 for e in table_entries(raw, 1, 1)) - 40) // 40   # entries up to the first block
    out = []
    for i, e in enumerate(table_entries(raw, 1, n)):
        off, size = e[2] | e[3] << 32, e[4]
        if size and off:
            out.append((i, off, size))
    return out


def read_all(read, want) -> None:
    """Every (step, field) read with read(step, field) and compared bit for bit."""
    for (step, field), arr in want.items():
        assert_same(read(step, field), arr, f"step {step} field {field}")


def of_step(path: str, want: dict) -> dict:
    """The reads of `want` at the time step whose directory holds `path`."""
    step = int(re.search(r"/(?:t|time_)(\d+)/", path).group(1))
    return {k: v for k, v in want.items() if k[0] == step}


def outcome(read, want) -> str:
    """'error' (a FormatError), 'exact', or raises: a silent wrong answer fails the test."""
    try:
        read_all(read, want)
        return "exact"
    except lodex.FormatError:
        return "error"


class Flipper:
    """Flips one bit of a file in place and puts it back."""

    def __init__(self, path: str):
        self.fd = os.open(path, os.O_RDWR)
        self.path = path

    def flip(self, offset: int, bit: int):
        b = os.pread(self.fd, 1, offset)[0]
        os.pwrite(self.fd, bytes([b ^ (1 << bit)]), offset)
        return b

    def restore(self, offset: int, b: int):
        os.pwrite(self.fd, bytes([b]), offset)

    def close(self):
        os.close(self.fd)


TINY = ["write_idx-raw", "write_idx-zip"]


# ------------------------------------------------------------------------------------ the tests

@pytest.mark.parametrize("label", TINY)
def test_every_bit_flip_of_every_stored_block_is_detected(datasets, label):
    reader, want, root = datasets[label]
    read_all(reader(), want)
    read, flips = reader(), 0
    for path in block_files(root):
        mine = of_step(path, want)
        f = Flipper(path)
        try:
            for _, off, size in stored_blocks(path):
                for byte in range(off, off + size):
                    for bit in range(8):
                        old = f.flip(byte, bit)
                        with pytest.raises(lodex.FormatError) as e:
                            read_all(read, mine)
                        assert path in str(e.value) or "checksum" in str(e.value), str(e.value)
                        f.restore(byte, old)
                        flips += 1
        finally:
            f.close()
    assert flips > 2000
    print(f"{label}: {flips} single-bit flips, every one detected")
    read_all(reader(), want)   # every byte put back


@pytest.mark.parametrize("label", [f"grid{r}-{n}" for r in (1, 3) for n in cases.grids(r)])
def test_bit_flips_in_dataset_grid_blocks_are_detected(datasets, label):
    """Dataset grids written by 1 and 3 ranks: 8 random bits of every stored block (zip blocks
    included, where zlib might fail first: either way a FormatError, never other values)."""
    reader, want, root = datasets[label]
    name = label.split("-", 1)[1]
    rng = np.random.default_rng(7)
    read, checked = reader(), 0
    for path in block_files(os.path.join(root, name)):
        mine = of_step(path, want)
        f = Flipper(path)
        try:
            for _, off, size in stored_blocks(path):
                for byte, bit in zip(rng.integers(off, off + size, 8), rng.integers(0, 8, 8)):
                    old = f.flip(int(byte), int(bit))
                    assert outcome(read, mine) == "error", (path, byte, bit)
                    f.restore(int(byte), old)
                    checked += 1
        finally:
            f.close()
    assert checked >= 8 * 16
    read_all(reader(), want)


@pytest.mark.parametrize("label", TINY + ["grid3-zip", "grid3-parts"])
def test_table_bit_flips_are_detected_or_harmless(datasets, label):
    """Every bit of every block-table entry (and the file header) flipped in turn: the read is a
    FormatError or returns exactly the data (bits OpenVisus's format leaves unused)."""
    reader, want, root = datasets[label]
    paths = block_files(root if label in TINY else os.path.join(root, label.split("-", 1)[1]))
    counts = {"error": 0, "exact": 0}
    read = reader()
    for path in paths[:1]:
        mine = of_step(path, want)
        first = min(off for _, off, _ in stored_blocks(path))
        f = Flipper(path)
        try:
            for byte in range(first):
                for bit in range(8):
                    old = f.flip(byte, bit)
                    counts[outcome(read, mine)] += 1
                    f.restore(byte, old)
        finally:
            f.close()
    assert counts["error"] > 0 and sum(counts.values()) >= 8 * 40 * 3, counts


def test_forged_codec_flag_and_offset_are_detected(datasets, tmp_path):
    _, want, root = datasets["write_idx-raw"]
    for forge in ("row_major", "offset"):
        copy = str(tmp_path / forge)
        shutil.copytree(root, copy)
        path = block_files(copy)[0]
        raw = bytearray(open(path, "rb").read())
        blocks = stored_blocks(path)
        (i, _off, size), (_j, off2, size2) = blocks[0], blocks[1]
        assert size == size2
        if forge == "row_major":   # the layout flag: the same bytes decoded in another order
            flags = struct.unpack_from(">I", raw, 40 + 40 * i + 20)[0]
            struct.pack_into(">I", raw, 40 + 40 * i + 20, flags | 0x10)
        else:                      # block i pointing at block j's bytes
            struct.pack_into(">I", raw, 40 + 40 * i + 8, off2)
        open(path, "wb").write(bytes(raw))
        with pytest.raises(lodex.FormatError, match="checksum"):
            read_all(idx_reader(os.path.join(copy, "t.idx")), want)


def test_swapped_block_files_and_swapped_steps_are_detected(datasets, tmp_path):
    _, want, root = datasets["write_idx-raw"]
    copy = str(tmp_path / "files")
    shutil.copytree(root, copy)
    a, b = [p for p in block_files(copy) if "/t0/" in p][:2]
    os.rename(a, a + ".x"), os.rename(b, a), os.rename(a + ".x", b)
    with pytest.raises(lodex.FormatError, match="checksum"):
        read_all(idx_reader(os.path.join(copy, "t.idx")), want)
    # Whole steps swapped, block files and checksum files together: the checksums name the step.
    copy = str(tmp_path / "steps")
    shutil.copytree(root, copy)
    for d in ("t", "t.checksums"):
        os.rename(os.path.join(copy, d, "t0"), os.path.join(copy, d, "tx"))
        os.rename(os.path.join(copy, d, "t1"), os.path.join(copy, d, "t0"))
        os.rename(os.path.join(copy, d, "tx"), os.path.join(copy, d, "t1"))
    with pytest.raises(lodex.FormatError, match="another IDX dataset or time step"):
        read_all(idx_reader(os.path.join(copy, "t.idx")), want)


def test_damaged_truncated_or_missing_checksum_files(datasets, tmp_path):
    _, want, root = datasets["grid1-raw"]
    for damage in ("header", "truncate", "entry", "delete"):
        copy = str(tmp_path / damage)
        shutil.copytree(root, copy)
        path = sums_files(os.path.join(copy, "raw.checksums"))[0]
        raw = bytearray(open(path, "rb").read())
        if damage == "header":
            raw[20] ^= 1
        elif damage == "entry":
            raw[48] ^= 0x80   # field 0, block 0: read by every read of field p
        if damage == "delete":
            os.remove(path)
        else:
            open(path, "wb").write(bytes(raw[:-8] if damage == "truncate" else raw))
        msg = {"header": "does not match its checksum", "truncate": "bytes;", "entry": "checksum",
               "delete": "are missing"}[damage]
        with pytest.raises(lodex.FormatError, match=msg) as e:
            read_all(grid_reader(copy, "raw"), {k: v for k, v in want.items() if k[1] == "p"})
        assert "raw" in str(e.value)


def test_without_checksum_files_idx_reads_unverified(datasets, tmp_path):
    """write_idx output with its checksum files deleted, and OpenVisus's own output, read exactly
    (an IDX written by another tool has nothing to verify against)."""
    _, want, root = datasets["write_idx-zip"]
    copy = str(tmp_path / "nosums")
    shutil.copytree(root, copy)
    shutil.rmtree(os.path.join(copy, "t.checksums"))
    read_all(idx_reader(os.path.join(copy, "t.idx")), want)
    url = str(tmp_path / "ov" / "o.idx")
    db = ov.CreateIdx(url=url, dims=[5, 4, 3], fields=[ov.Field("data", "float32", "hzorder")],
                      bitsperblock=3, blocksperfile=2)
    db.write(tiny_field())
    assert not sums_files(str(tmp_path / "ov"))
    assert_same(lodex.open_idx(url).read(), tiny_field(), "OpenVisus's file")


def test_openvisus_reads_what_lodex_wrote_beside_its_checksums(datasets):
    _, want, root = datasets["write_idx-zip"]
    db = ov.LoadDataset(os.path.join(root, "t.idx"))
    for (step, field), arr in want.items():
        assert np.array_equal(db.read(time=step, field=db.getField(field)), arr)


def test_rewriting_a_step_rewrites_its_checksums(tmp_path):
    path = str(tmp_path / "r.idx")
    lodex.write_idx(path, tiny_field(0), bits_per_block=3)
    lodex.write_idx(path, tiny_field(5), bits_per_block=3)
    assert_same(lodex.open_idx(path).read(), tiny_field(5), "rewritten")


def test_edited_box_line_is_detected(tmp_path):
    """An IDX lodex wrote with its (box) line edited (the read would return another shape) no
    longer matches its checksum file (the box's extents are part of the layout it names)."""
    path = str(tmp_path / "b.idx")
    lodex.write_idx(path, tiny_field(), bits_per_block=3)
    text = open(path).read()
    box = re.search(r"\(box\)\n([^\n]*)\n", text).group(1)
    nums = box.split()
    nums[1] = str(int(nums[1]) - 1)
    open(path, "w").write(text.replace(box, " ".join(nums), 1))
    with pytest.raises(lodex.FormatError, match="another IDX dataset or time step"):
        lodex.open_idx(path).read()
