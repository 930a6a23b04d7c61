"""The forge campaign's fast subset (tests/python/forge_campaign.py says what a case forges and
checks; `make stress` runs 2,000 cases): 70 seeded cases, ten of each kind at least in expectation,
every read a typed error, the exact unforged answer or the documented pruned_by_forged_range."""

from __future__ import annotations

import forge_campaign as fc


def test_forge_campaign_subset():
    s = fc.campaign(70, seed=35, timeout=60)
    assert s["cases"] == 70 and all(n > 0 for n in s["by_kind"].values()), s
    assert s["violations"] == 0, s["violation_details"]
    assert s["exact"] > 0 and sum(s["errors_by_type"].values()) > 0, s
