"""The API reference (make docs) is generated from the docstrings by pdoc and covers every public
name of the package with its documentation."""

from __future__ import annotations

import os
import subprocess
import sys

import lodex


def test_api_reference_covers_every_public_name(tmp_path):
    subprocess.run([sys.executable, "-m", "pdoc", "lodex", "-o", str(tmp_path)], check=True, capture_output=True,
                   text=True, timeout=120)
    page = open(os.path.join(tmp_path, "lodex.html"), encoding="utf-8").read()
    for name in lodex.__all__:
        assert f'id="{name}"' in page, f"{name} is not in the API reference"
    for doc in (lodex.ParticleGroup.read.__doc__, lodex.Series.write.__doc__, lodex.Grid.read.__doc__):
        first = doc.strip().split()[:4]
        assert " ".join(first).replace("``", "") in page.replace("<code>", "").replace("</code>", ""), first
