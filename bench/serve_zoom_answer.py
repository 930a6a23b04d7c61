"""Interleaved A/B of lodex serve's answer to the browser's zoom: its two requests at 10^7
particles as the viewer sends them (one wheel tick under a 1,000,000 budget: take 1,000,000, then
1,048,544, of the box 0.025..0.975 less the domain's 1,000,000 held, most 4,703), answered by an
earlier endpoints.py (e.g. main's) and by the installed one, each from fresh caches (the earlier
one's held row ids of the domain's sample primed, as its server had sent that sample); the
bodies are compared byte for byte in every pair.

usage: serve_zoom_answer.py DATASET OLD_ENDPOINTS_PY PAIRS   (DATASET: bench/serve.py's write())
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import time

import lodex
from lodex.serve import endpoints as new
from lodex.serve.params import Params

BOX = "0.025000000000000022%2C" * 3 + "0.975%2C0.975%2C0.975"
DOMAIN = "0%2C0%2C0%2C1%2C1%2C1"
REQUESTS = [
    f"group=p&step=0&take=1000000&box={BOX}&fields=position%2Cenergy&most=4703&have={DOMAIN}%2C1000000",
    f"group=p&step=0&take=1048544&box={BOX}&fields=position%2Cenergy&most=4703&have={DOMAIN}%2C1000000"
    f"%3B{BOX}%2C1000000",
]


def load(path: str):
    spec = importlib.util.spec_from_file_location("lodex.serve.endpoints_old", os.path.abspath(path))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def answer(ds, mod) -> list[tuple[float, bytes]]:
    """Seconds and body of each request, from fresh caches."""
    if hasattr(mod, "SampleRows"):   # the earlier server: the held sample's row ids, as sent
        cache = mod.SampleRows()
        mod._held_rows(ds.particles["p"], 0, ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)), 1000000, cache)
    else:
        cache = mod.BoxLevels()
    out = []
    for q in REQUESTS:
        t0 = time.perf_counter()
        body = mod.particles(ds, Params(q), None, cache).encode()
        out.append((time.perf_counter() - t0, body))
    return out


def main() -> None:
    path, old_path, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    old = load(old_path)
    ds = lodex.open(path)
    answer(ds, old), answer(ds, new)   # warm the page cache
    runs = {"before": [], "after": []}
    print("load average before", os.getloadavg())
    for i in range(pairs):
        for name in ("before", "after") if i % 2 == 0 else ("after", "before"):
            runs[name].append(answer(ds, old if name == "before" else new))
        if [b for _, b in runs["before"][-1]] != [b for _, b in runs["after"][-1]]:
            raise SystemExit("the bodies differ")
    print("load average after", os.getloadavg())
    for k in range(len(REQUESTS)):
        b = [r[k][0] * 1e3 for r in runs["before"]]
        a = [r[k][0] * 1e3 for r in runs["after"]]
        ratio = statistics.median(y / x for x, y in zip(b, a))
        print(f"request {k + 1} ({len(runs['after'][0][k][1])} B): before {statistics.median(b):.1f} ms "
              f"({min(b):.1f}-{max(b):.1f}), after {statistics.median(a):.1f} ms ({min(a):.1f}-{max(a):.1f}), "
              f"paired ratio {ratio:.3f}")
        print("  before", [round(x, 1) for x in b])
        print("  after ", [round(x, 1) for x in a])
    print("bodies byte-identical in every pair")
    ds.close()


if __name__ == "__main__":
    main()
