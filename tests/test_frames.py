"""Light frames (issue 10 item 4): grouping without hashing for rows that come grouped in
key order, packing without copies, tidy frames built column by column.

Every fast path is checked against the general one it shortcuts (hashed grouping,
``DataFrame.iloc`` repeats) and the results against tests/naive.py.
"""

from __future__ import annotations

import re

import naive
import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from prroc_numba import _frames as F
from prroc_numba._core.packing import pack
from prroc_numba._core.point_frames import _kernel_view
from prroc_numba._core.resolve import _grouping, _key_runs


def _runs(values):
    frame = pd.DataFrame({"k": values})
    return _key_runs(frame, ["k"], len(frame))


def test_key_runs_only_for_rows_grouped_in_ascending_order():
    np.testing.assert_array_equal(_runs([1, 1, 2, 5, 5, 5]), [0, 2, 3, 6])
    np.testing.assert_array_equal(_runs(["a", "b", "b"]), [0, 1, 3])
    np.testing.assert_array_equal(_runs([7]), [0, 1])
    assert _runs([2, 2, 1]) is None  # descending: groupby sorts
    assert _runs(["a", "b", "a"]) is None  # a key in two runs
    assert _runs(np.array([1, "a", "b"], dtype=object)) is None  # incomparable: hashing
    # categoricals: by category order (as a sorted groupby), not by value
    cat = pd.Categorical(["b", "b", "a"], categories=["b", "a"])
    np.testing.assert_array_equal(_runs(cat), [0, 2, 3])
    assert _runs(pd.Categorical(["a", "b"], categories=["b", "a"])) is None
    # several columns: lexicographic
    two = pd.DataFrame({"a": [1, 1, 2, 2], "b": [5, 6, 0, 1]})
    np.testing.assert_array_equal(_key_runs(two, ["a", "b"], 4), [0, 1, 2, 3, 4])
    two.loc[1, "b"] = 4
    assert _key_runs(two, ["a", "b"], 4) is None


@pytest.mark.parametrize(
    "values",
    [
        pd.array([1, None, 2], dtype="Int64"),  # nullable integers: checked for NA
        [1.0, np.nan, 2.0],
        ["a", None, "b"],
    ],
)
def test_grouping_missing_keys_are_errors_whatever_the_dtype(values):
    frame = pd.DataFrame({"k": values})
    with pytest.raises(ValueError, match="by column 'k' has 1 missing values"):
        _grouping(frame, "k", len(frame))
    # numpy integer keys hold no missing value: grouped by runs
    ok = pd.DataFrame({"k": np.array([1, 1, 2], dtype=np.int64)})
    np.testing.assert_array_equal(_grouping(ok, "k", 3)[2], [0, 2, 3])


@pytest.mark.parametrize("values", [[3, 1, 1, 2, 3, 2], ["x", "y", "x", "z", "z", "y"]])
def test_grouping_runs_and_hashing_agree(values):
    frame = pd.DataFrame({"k": values})
    codes, _, runs = _grouping(frame, "k", len(frame))
    assert runs is None
    srt = frame.sort_values("k", kind="stable").reset_index(drop=True)
    codes2, _, runs2 = _grouping(srt, "k", len(srt))
    assert codes2 is None
    np.testing.assert_array_equal(np.diff(runs2), np.bincount(codes))


def _long(rng, n_curves=30, zero_weights=False):
    sizes = rng.integers(5, 40, size=n_curves)
    g = np.repeat(np.arange(n_curves), sizes)
    n = g.size
    y = rng.integers(0, 2, size=n)
    first = np.r_[0, np.cumsum(sizes)[:-1]]
    y[first], y[first + 1] = 1, 0
    w = rng.choice([0.0, 1.0, 2.0], size=n) if zero_weights else np.ones(n)
    w[first], w[first + 1] = 1.0, 1.0
    return pd.DataFrame(
        {
            "site": np.where(g % 2 == 0, "p", "q"),
            "g": g,
            "s": np.round(rng.normal(size=n), 1),
            "y": y,
            "w": w,
        }
    ).sort_values(["site", "g"], kind="stable")


@pytest.mark.parametrize("zero_weights", [False, True])
def test_pack_of_grouped_rows_equals_pack_of_shuffled_rows(zero_weights):
    rng = np.random.default_rng(5)
    df = _long(rng, zero_weights=zero_weights).reset_index(drop=True)
    shuffled = df.sample(frac=1.0, random_state=4)
    kw = dict(score="s", label="y", by=["site", "g"], weight="w")
    a, b = pack(df, **kw), pack(shuffled, **kw)
    np.testing.assert_array_equal(a.group_offsets, b.group_offsets)
    pd.testing.assert_frame_equal(a.keys, b.keys)
    for x, z in ((a.values, b.values), (a.pos, b.pos), (a.neg, b.neg)):
        # rows of a group in another order: the same multiset per group
        for lo, hi in zip(a.offsets[:-1], a.offsets[1:]):
            np.testing.assert_array_equal(np.sort(x[lo:hi]), np.sort(z[lo:hi]))
    got = prn.auc(df, **kw, method="ap")
    pd.testing.assert_frame_equal(got, prn.auc(shuffled, **kw, method="ap"))
    for row in got.itertuples(index=False):
        part = df[(df["site"] == row.site) & (df["g"] == row.g) & (df["w"] > 0)]
        tp, fp = naive.sweep(
            part["s"].to_numpy(),
            (part["w"] * part["y"]).to_numpy(),
            (part["w"] * (1 - part["y"])).to_numpy(),
        )[1:]
        assert row.auc == pytest.approx(naive.average_precision(tp, fp), rel=1e-12)


def test_pack_of_grouped_rows_keeps_row_numbers():
    rng = np.random.default_rng(6)
    df = _long(rng, zero_weights=True).reset_index(drop=True)
    by = ["site", "g"]  # the frame's order
    batch = pack(df, score="s", label="y", by=by, weight="w")
    np.testing.assert_array_equal(batch.rows, np.flatnonzero(df["w"].to_numpy() > 0))
    whole = pack(df, score="s", label="y", by=by)
    assert whole.rows is None  # the label rows are the input rows, in order


def _key_frames():
    n = 4
    return pd.DataFrame(
        {
            "i": np.arange(n, dtype=np.int64),
            "f": np.linspace(0, 1, n),
            "b": np.array([True, False, True, False]),
            "s": pd.Series(["a", "bb", "", "dé"], dtype="str"),
            "o": np.array([1, "x", 2.5, None], dtype=object),
            "c": pd.Categorical(["u", "v", "u", "w"], categories=["w", "v", "u"]),
            "n": pd.array([1, None, 3, 4], dtype="Int64"),
            "t": pd.date_range("2024-01-01", periods=n, freq="D", tz="Europe/Paris"),
            "d": pd.date_range("2024-01-01", periods=n, freq="h").to_numpy(),
        }
    )


def test_repeat_keys_equals_iloc_repeat_for_every_dtype():
    keys = _key_frames()
    lengths = np.array([3, 0, 1, 5])
    want = keys.iloc[np.repeat(np.arange(len(keys)), lengths)].reset_index(drop=True)
    got = pd.DataFrame(F.repeat_keys(keys, lengths), copy=False)
    pd.testing.assert_frame_equal(got, want)
    # one count for every row (the grid frames' case), given as an int
    for k in (0, 1, 3):
        want = keys.iloc[np.repeat(np.arange(len(keys)), k)].reset_index(drop=True)
        got = pd.DataFrame(F.repeat_keys(keys, k), copy=False)
        pd.testing.assert_frame_equal(got, want)


def test_points_and_grid_frames_keep_key_dtypes():
    keys = _key_frames()
    off = np.array([0, 2, 2, 5, 6])
    vals = np.arange(6.0)
    got = F.points_frame(keys, off, {"x": vals})
    want = keys.iloc[np.repeat(np.arange(4), np.diff(off))].reset_index(drop=True)
    want["x"] = vals
    pd.testing.assert_frame_equal(got, want)
    grid = np.array([0.0, 0.5, 1.0])
    mat = np.arange(12.0).reshape(4, 3)
    got = F.grid_frame(keys, grid, "recall", {"precision": mat})
    want = keys.iloc[np.repeat(np.arange(4), 3)].reset_index(drop=True)
    want["recall"] = np.tile(grid, 4)
    want["precision"] = mat.ravel()
    pd.testing.assert_frame_equal(got, want)
    empty = F.grid_frame(pd.DataFrame(index=range(1)), grid, "fpr", {"tpr": mat[:1]})
    assert list(empty.columns) == ["fpr", "tpr"]


def test_kernel_view_shares_the_column_without_writing_it():
    df = pd.DataFrame({"a": np.arange(5.0), "b": np.arange(5)})
    col = df["a"].to_numpy()
    assert not col.flags.writeable  # pandas copy-on-write view
    view = _kernel_view(col)
    assert view.flags.writeable and view.dtype == np.float64 and view.flags.c_contiguous
    assert np.shares_memory(view, col)
    ints = _kernel_view(df["b"].to_numpy())  # converted: a fresh array
    assert ints.dtype == np.float64 and ints.flags.writeable
    frozen = np.arange(3.0)
    frozen.flags.writeable = False  # memory that is read-only itself: copied
    out = _kernel_view(frozen)
    assert out.flags.writeable and not np.shares_memory(out, frozen)


@pytest.mark.parametrize("by", ["g", ["site", "g"]])
@pytest.mark.parametrize("space", ["pr", "roc"])
def test_interpolate_of_grouped_frames_equals_hashed_and_naive(by, space):
    rng = np.random.default_rng(8)
    df = _long(rng)
    pts = prn.roc_curve(df, score="s", label="y", by=by)
    grid = np.linspace(0, 1, 11)
    before = pts.copy()
    fast = prn.interpolate(pts, grid=grid, by=by, space=space)
    pd.testing.assert_frame_equal(pts, before)  # the caller's frame is untouched
    slow = prn.interpolate(pts.sample(frac=1.0, random_state=1), grid=grid, by=by, space=space)
    pd.testing.assert_frame_equal(fast, slow)
    keys, mat = prn.interpolate_matrix(pts, grid=grid, by=by, space=space)
    ref = naive.precision_at_recall if space == "pr" else naive.tpr_at_fpr
    names = [by] if isinstance(by, str) else by
    for i, key in enumerate(keys.itertuples(index=False)):
        part = pts.loc[(pts[names] == pd.Series(key._asdict())).all(axis=1)]
        want = ref(part["tp"].to_numpy(), part["fp"].to_numpy(), grid)
        np.testing.assert_allclose(mat[i], want, rtol=1e-12, atol=1e-15)
    yname = "precision" if space == "pr" else "tpr"
    np.testing.assert_array_equal(fast[yname].to_numpy(), mat.ravel())


def test_interpolate_errors_equal_on_both_paths():
    # curve 0's FP decreases as TP grows: the same message, naming the same input rows,
    # whether the rows come grouped and sorted (no hashing, no sort) or reversed
    pts = pd.DataFrame(
        {
            "g": [0, 0, 0, 1, 1, 1],
            "tp": [0.0, 2.0, 4.0, 0.0, 1.0, 3.0],
            "fp": [0.0, 1.0, 0.5, 0.0, 2.0, 5.0],
        }
    )
    pts["recall"] = pts["tp"] / pts.groupby("g")["tp"].transform("max")
    msgs = []
    for frame in (pts, pts.iloc[::-1]):
        with pytest.raises(ValueError, match="not one ranking") as err:
            prn.interpolate(frame, grid=3, by="g")
        msgs.append(str(err.value))
    # row numbers are positions in the frame passed; the rows named are the same
    assert "row 2 (g=0, tp=4.0" in msgs[0] and "row 3 (g=0, tp=4.0" in msgs[1]
    assert re.sub(r"row \d+", "row", msgs[0]) == re.sub(r"row \d+", "row", msgs[1])


@pytest.mark.parametrize("missing", [False, True])
def test_repeat_keys_of_arrow_strings(missing):
    # pandas' pyarrow strings are repeated by building their buffers; a slice (an
    # arrow array with an offset), empty and non-ASCII keys, zero repeats; missing
    # values take the plain take
    values = ["", "a", "dé", "long key " * 3, None if missing else "x", "z"]
    keys = pd.DataFrame({"s": pd.Series(values, dtype="str")}).iloc[1:]
    lengths = np.array([0, 3, 1, 2, 4])
    want = keys.iloc[np.repeat(np.arange(5), lengths)].reset_index(drop=True)
    got = pd.DataFrame(F.repeat_keys(keys, lengths), copy=False)
    pd.testing.assert_frame_equal(got, want)
    want = keys.iloc[np.repeat(np.arange(5), 2)].reset_index(drop=True)
    pd.testing.assert_frame_equal(pd.DataFrame(F.repeat_keys(keys, 2), copy=False), want)
