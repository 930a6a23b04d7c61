"""A small run of the server-load campaign (tests/python/serve_load.py; the full one is in
``make stress``): concurrent valid clients, fuzzed requests with and without the token and with
foreign Host headers, clients that never read, all at once against ``lodex serve``. No violation:
no 5xx but 503, no traceback, every unauthorised request 403, /api/info within 5 s, bounded memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(__file__)


def test_small_load_has_no_violation():
    proc = subprocess.run([sys.executable, os.path.join(HERE, "serve_load.py"), "--clients", "8", "--requests", "25",
                           "--fuzz", "600", "--stalled", "4", "--particles", "20000", "--idle-timeout", "2"],
                          capture_output=True, text=True, timeout=300)
    summary = json.loads(proc.stdout)
    assert summary["violations"] == [], summary["violations"]
    assert proc.returncode == 0, proc.stderr[-2000:]
    by = summary["by_kind_and_status"]
    assert by.get("valid:200", 0) + by.get("valid:503", 0) == 8 * 25
    assert by.get("fuzz:403", 0) > 0 and by.get("stalled") == 4   # the refusals and stalls did happen
    assert summary["requests"] >= 8 * 25 + 600
