"""The disk-full campaign's fast subset (tests/python/full_disk_campaign.py says what each trial
checks; `make stress` runs 60 trials): one trial of each kind (particles, grid, series, index
build, truncate), at 1 and 2 ranks. Needs root (a small tmpfs per trial)."""

from __future__ import annotations

import pytest

import full_disk_campaign as fdc


def test_full_disk_campaign_subset():
    if not fdc.can_mount():
        pytest.skip("cannot mount a small tmpfs here; needs root")
    s = fdc.campaign(10, seed=35, timeout=120)
    assert s["trials"] == 10 and all(n == 2 for n in s["kinds"].values()), s
    assert s["violations"] == 0, s["violation_details"]
    assert s["failures_seen"] >= 6 and s["step_checks"] > 0, s
