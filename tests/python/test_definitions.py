"""One definition path for particle groups, grids and series: defining an existing group again
with another definition names every difference the same way for all three kinds ("<kind> 'name'
exists with <key> <recorded>, not <asked>"), and the same definition again is the group as is."""

from __future__ import annotations

import pytest

import lodex

SCHEMA = {"position": ("f8", 3), "energy": "f4"}


def test_each_kind_names_what_differs(tmp_path):
    with lodex.create(str(tmp_path / "d.lodex")) as ds:
        ds.define_particles("p", SCHEMA, domain=((0, 0, 0), (1, 1, 1)))
        ds.define_grid("g", dims=(8, 8, 8), dtype="f4")
        ds.define_series("s", dims=(8, 8, 4), variables={"T": "f4"})
        # The same definition again: the group as it is.
        assert ds.define_particles("p", SCHEMA, domain=((0, 0, 0), (1, 1, 1))).name == "p"
        assert ds.define_grid("g", dims=(8, 8, 8), dtype="f4").name == "g"
        assert ds.define_series("s", dims=(8, 8, 4), variables={"T": "f4"}).name == "s"
        cases = [
            (lambda: ds.define_particles("p", SCHEMA, domain=((0, 0, 0), (2, 1, 1))),
             "particle group 'p' exists with domain [[0.0,0.0,0.0],[1.0,1.0,1.0]], not [[0.0,0.0,0.0],[2.0,1.0,1.0]]"),
            # (bits_per_block differs too)
            (lambda: ds.define_grid("g", dims=(8, 8, 4), dtype="f4"), "exists with dims [8,8,8], not [8,8,4]"),
            (lambda: ds.define_series("s", dims=(8, 8, 4), variables={"T": "f8"}),
             "series 's' exists with variables [{\"dtype\":\"f4\""),
        ]
        for call, words in cases:
            with pytest.raises(lodex.InvalidArgumentError) as err:
                call()
            assert words in str(err.value), str(err.value)
            assert "another definition; reopen it without one" in str(err.value)
        # Several differences: each named.
        with pytest.raises(lodex.InvalidArgumentError) as err:
            ds.define_particles("p", {"position": ("f4", 3)}, domain=((0, 0, 0), (2, 1, 1)), periodic=True)
        msg = str(err.value)
        for key in ("exists with domain", "it exists with periodic axes [false,false,false], not [true,true,true]",
                    "it exists with schema"):
            assert key in msg, msg
        # A kind of group asked as another kind.
        with pytest.raises(lodex.AlreadyExistsError, match="'g' is a grid, not a series"):
            ds.define_series("g", dims=(8, 8, 4), variables={"T": "f4"})
