"""The scale model against the papers (docs/scale.md): refit the free parameters on the
calibration points, recompute the validation table, and chart the model's weak-scaling curves
for the particle paper's Fig. 5 (Mira and Theta, 32K and 64K particles per rank, 4,096 to
262,144 simulated ranks) with the published points beside them.

    python bench/scale.py [--out bench/results]

Writes scale.json (fitted parameters, validation rows, the errors when an assumed parameter
changes, curves, what each phase costs) and
scale.png. No MPI and no files: the plans come from lodex's planner on simulated ranks."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from lodex.scale import predict
from lodex.scale.advisor import FACTORS, cb_aggregators
from lodex.scale.traffic import particle_traffic, shared_file_traffic
from lodex.scale.validation import (BYTES_PER_PARTICLE, SWEEP, fit, published, sensitivity, sensitivity_markdown,
                                    table_markdown, validate)

PPRS = (32768, 65536)


def curves(machines: dict) -> dict:
    """Predicted throughput (GB/s) and phase seconds per machine, particles per rank and layout."""
    out: dict = {}
    for name, m in machines.items():
        for ppr in PPRS:
            series = {}
            for f in FACTORS:
                series[f"({f[0]},{f[1]},{f[2]})"] = [
                    predict(m, particle_traffic(r, ppr, m.ranks_per_node, partition=f,
                                                bytes_per_particle=BYTES_PER_PARTICLE)).to_dict() for r in SWEEP]
            series["shared file"] = [
                predict(m, shared_file_traffic(r, ppr, m.ranks_per_node, cb_aggregators(m, r),
                                               bytes_per_particle=BYTES_PER_PARTICLE)).to_dict() for r in SWEEP]
            out[f"{name}/{ppr}"] = series
    return out


def chart(result: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(12, 9), sharex=True)
    points = published()["points"]
    for row, name in enumerate(("mira", "theta")):
        for col, ppr in enumerate(PPRS):
            ax = axes[row][col]
            for label, preds in result["curves"][f"{name}/{ppr}"].items():
                style = "--" if label == "shared file" else ("-" if label != "(1,1,1)" else "-.")
                ax.plot([p["ranks"] for p in preds], [p["throughput"] / 1e9 for p in preds], style, marker=".",
                        label=f"model {label}" if label != "(1,1,1)" else "model (1,1,1) file per process")
            for p in points:
                if p["machine"] == name and p["kind"] == "throughput" and p["particles_per_rank"] == ppr:
                    ax.plot([p["ranks"]], [p["value"]], "k*", markersize=13)
                    ax.annotate(f"{p['layout']}\n{p['value']} GB/s (P0)", (p["ranks"], p["value"]),
                                textcoords="offset points", xytext=(-120, 4), fontsize=8)
            for p in points:
                if p["machine"] == name and p["kind"] in ("crossover", "saturation") and p["particles_per_rank"] == ppr:
                    ax.axvline(p["value"], color="grey", lw=0.8, ls=":")
                    ax.annotate(f"P0: {p['kind']}", (p["value"], 1), fontsize=8, rotation=90)
            ax.set_xscale("log", base=2)
            ax.set_title(f"{name.capitalize()}, {ppr // 1024}K particles per rank")
            ax.set_ylabel("write throughput, GB/s")
            ax.grid(alpha=0.3)
    axes[1][0].set_xlabel("ranks")
    axes[1][1].set_xlabel("ranks")
    axes[0][0].legend(fontsize=7, loc="upper left")
    fig.suptitle("Scale model driven by lodex's planner (lines) and the numbers [P0] §5.2 states (stars)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    machines = fit()
    rows = validate(machines)
    result = {"about": "lodex scale model: docs/scale.md", "sweep": list(SWEEP),
              "machines": {k: m.to_dict() for k, m in machines.items()},
              "validation": rows, "sensitivity": sensitivity(machines), "curves": curves(machines)}
    result["seconds"] = time.perf_counter() - t0
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "scale.json"), "w") as fh:
        json.dump(result, fh, indent=1)
    chart(result, os.path.join(args.out, "scale.png"))
    print(table_markdown(rows))
    print()
    print(sensitivity_markdown(result["sensitivity"]))
    print(f"wrote {args.out}/scale.json and scale.png in {result['seconds']:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
