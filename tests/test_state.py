"""The Accumulator's state format: round trips, refusals, sample files, processes, threads,
and the streaming update.

References: the in-memory functions and scikit-learn on the same rows (never the saved
state's own results); the sample files in tests/data are checked against the rows they
were built from (tests/data/state_v1_rows.csv).
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import prroc_numba as prn
from prroc_numba._core import state, state_files

DATA = Path(__file__).parent / "data"
TOL = {"check_exact": False, "rtol": 0, "atol": 1e-12}
FORMATS = ["npz", "arrow", "parquet"]


def _frame(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "g": rng.choice(["x", "y", "zé"], n),
            "k": rng.integers(0, 3, n),
            "y": rng.integers(0, 2, n),
            "a": rng.integers(0, 40, n) / 8,
            "b": rng.normal(size=n),
            "w": rng.random(n),
            "soft": rng.random(n),
        }
    )


ARGS = [
    {"score": "b", "label": "y"},
    {"score": ["a", "b"], "label": "y", "by": "g"},
    {"score": "a", "label": "y", "by": ["g", "k"], "weight": "w"},
    {"score": "b", "label": "soft", "by": "k", "soft_labels": True},
]


def _results(acc, kw, df):
    """Every result of ``acc`` against the in-memory function on the same rows."""
    for curve, method in [("pr", "dg"), ("pr", "ap"), ("roc", None)]:
        pd.testing.assert_frame_equal(
            acc.auc(curve=curve, method=method),
            prn.auc(df, **kw, curve=curve, method=method),
            **TOL,
        )
    pd.testing.assert_frame_equal(
        acc.roc_curve(hull=True), prn.roc_curve(df, **kw, hull=True), **TOL
    )


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kw", ARGS)
def test_save_load_gives_the_in_memory_results(tmp_path, fmt, kw):
    df = _frame()
    acc = prn.Accumulator().update(df, **kw)
    path = tmp_path / f"s.{fmt}"
    acc.save(path)
    back = prn.Accumulator.load(path)
    pd.testing.assert_frame_equal(back.table(), acc.table(), check_exact=True)
    _results(back, kw, df)
    assert back.decimals is None
    # format= overrides the suffix
    other = tmp_path / "state.bin"
    acc.save(other, format=fmt)
    pd.testing.assert_frame_equal(
        prn.Accumulator.load(other, format=fmt).table(), acc.table(), check_exact=True
    )


def test_arrow_table_and_ipc_bytes():
    pa = pytest.importorskip("pyarrow")
    df = _frame()
    kw = ARGS[1]
    acc = prn.Accumulator(decimals=1).update(df, **kw)
    table = acc.to_arrow()
    assert table.column_names == ["g", "model", "score", "pos", "neg"]
    assert [str(t) for t in table.schema.types[2:]] == ["double"] * 3
    meta = json.loads(table.schema.metadata[b"prroc_numba"])
    assert meta["format"] == "prroc_numba.state" and meta["format_version"] == 1
    assert meta["decimals"] == 1 and meta["by"] == ["g"] and meta["models"] == ["a", "b"]
    assert meta["n_rows"] == acc.n_entries and meta["byte_order"] == "little"
    assert meta["checksum"].startswith("sha256:")
    # the columns are the rows of table()
    plain = table.to_pandas()
    for c in ("g", "model"):
        plain[c] = plain[c].astype(str)
    pd.testing.assert_frame_equal(plain, acc.table().astype({"g": str, "model": str}))
    back = prn.Accumulator.from_arrow(table)
    assert back.decimals == 1
    _results(back, kw, df.assign(a=df["a"].round(1), b=df["b"].round(1)))
    ipc = state_files.to_ipc_bytes(acc)
    pd.testing.assert_frame_equal(
        prn.Accumulator.from_arrow(ipc).table(), acc.table(), check_exact=True
    )
    # a table built by hand from table() (plain, not dictionary, key columns) is read too
    hand = pa.Table.from_pandas(acc.table(), preserve_index=False)
    hand = hand.replace_schema_metadata(table.schema.metadata)
    pd.testing.assert_frame_equal(
        prn.Accumulator.from_arrow(hand).table(), acc.table(), check_exact=True
    )
    with pytest.raises(TypeError, match="pyarrow.Table"):
        prn.Accumulator.from_arrow(acc.table())


def test_sample_files_of_each_version_load_with_known_numbers():
    """A file of each format version, written once and kept: it must stay readable, and
    give the numbers of scikit-learn and of the in-memory call on the rows it holds.
    """
    rows = pd.read_csv(DATA / "state_v1_rows.csv")
    kw = {"score": ["a", "b"], "label": "y", "by": "g"}
    for fmt in FORMATS:
        acc = prn.Accumulator.load(DATA / f"state_v1.{fmt}")
        got = acc.metrics(("ap", "auc_roc"))
        assert len(got) == 6
        for _, row in got.iterrows():
            sub = rows[rows["g"] == row["g"]]
            assert row["ap"] == pytest.approx(
                average_precision_score(sub["y"], sub[row["model"]]), abs=1e-12
            )
            assert row["auc_roc"] == pytest.approx(
                roc_auc_score(sub["y"], sub[row["model"]]), abs=1e-12
            )
        pd.testing.assert_frame_equal(acc.auc(), prn.auc(rows, **kw), **TOL)
    assert set(rows["g"]) == {"north", "south", "ünïcode"}


_CHILD = """
import sys, numpy as np, prroc_numba as prn
acc = prn.Accumulator.load(sys.argv[1])
a = acc.auc()["auc"].to_numpy()
r = acc.auc(curve="roc", hull=True)["auc"].to_numpy()
print(np.concatenate([a, r]).astype("<f8").tobytes().hex())
"""


@pytest.mark.parametrize("fmt", ["npz", "arrow"])
def test_saved_in_one_process_loaded_in_another_bit_identical(tmp_path, fmt):
    df = _frame(seed=4)
    kw = ARGS[1]
    acc = prn.Accumulator().update(df, **kw)
    path = tmp_path / f"s.{fmt}"
    acc.save(path)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True, check=True
    )
    got = np.frombuffer(bytes.fromhex(out.stdout.strip()), dtype="<f8")
    want = np.concatenate(
        [
            prn.auc(df, **kw)["auc"].to_numpy(),
            prn.auc(df, **kw, curve="roc", hull=True)["auc"].to_numpy(),
        ]
    )
    assert got.tobytes() == want.astype("<f8").tobytes()


# ---------------------------------------------------------------- refusals


def _members(acc):
    meta, keys, score, pos, neg = state.encode(acc)
    return meta, state_files._npz_members(meta, keys, score, pos, neg)


def _write(path, members, meta=None, rehash=True):
    """An npz of these members (and ``meta``), its checksum recomputed when ``rehash``
    (so that the content checks, not the checksum, are what refuses it).
    """
    members = dict(members)
    if meta is not None:
        if rehash:
            meta = dict(meta)
            keys = []
            for i, c in enumerate(c for c in meta["columns"] if c["role"] == "key"):
                if c["type"] == "str":
                    values = state_files._strings(
                        members[f"k{i}_utf8"], members[f"k{i}_offsets"], "", None
                    )
                else:
                    values = members[f"k{i}_values"]
                keys.append((c["name"], c["type"], values, members[f"k{i}_codes"]))
            meta["checksum"] = state.checksum(
                meta, keys, members["score"], members["pos"], members["neg"]
            )
        members["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, arr in members.items():
            with zf.open(name + ".npy", "w") as fp:
                np.lib.format.write_array(fp, arr, allow_pickle=False)
    return path


def _refused(path, match):
    with pytest.raises(prn.StateFormatError, match=match) as info:
        prn.Accumulator.load(path)
    assert str(path) in str(info.value)  # the error names the file
    assert isinstance(info.value, ValueError)


def test_refusals_name_the_file_and_the_fix(tmp_path):
    df = _frame()
    acc = prn.Accumulator().update(df, score=["a", "b"], label="y", by="g")
    meta, members = _members(acc)
    p = tmp_path / "s.npz"

    _refused(_write(p, members, {**meta, "format_version": 2}), "newer.*upgrade prroc_numba")
    _refused(_write(p, members, {**meta, "format_version": 0}), "format version 0")
    _refused(_write(p, members, {**meta, "format": "other"}), "not a prroc_numba state")
    bad = dict(members, pos=members["pos"] + 1.0)
    _refused(_write(p, bad, meta, rehash=False), "checksum does not match")
    cols = [c for c in meta["columns"] if c["name"] != "neg"]
    _refused(_write(p, members, {**meta, "columns": cols}), "missing \\['neg'\\]")
    extra = [*meta["columns"], {"name": "w", "role": "value", "type": "float64"}]
    _refused(_write(p, members, {**meta, "columns": extra}), "extra \\['w'\\]")
    swapped = [*meta["columns"][:2], meta["columns"][3], meta["columns"][2], meta["columns"][4]]
    _refused(_write(p, members, {**meta, "columns": swapped}), "out of order")
    _refused(_write(p, {**members, "z": np.zeros(3)}, meta), "members")
    _refused(_write(p, dict(members, pos=members["pos"].astype(np.float32)), meta), "dtype")
    _refused(_write(p, dict(members, score=members["score"].astype(np.int64)), meta), "dtype")
    neg = members["neg"].copy()
    neg[3] = -1.0
    _refused(_write(p, dict(members, neg=neg), meta), "neg masses are not all finite and >= 0")
    pos = members["pos"].copy()
    pos[0] = np.inf
    _refused(_write(p, dict(members, pos=pos), meta), "pos masses")
    sc = members["score"].copy()
    sc[[0, 1]] = sc[[1, 0]]
    _refused(_write(p, dict(members, score=sc), meta), "not strictly descending")
    sc = members["score"].copy()
    sc[1] = sc[0]
    _refused(_write(p, dict(members, score=sc), meta), "duplicated")
    codes = members["k0_codes"][::-1].copy()
    _refused(_write(p, dict(members, k0_codes=codes), meta), "not sorted by curve")
    _refused(_write(p, members, {**meta, "n_rows": meta["n_rows"] + 1}), "rows")
    _refused(_write(p, members, {**meta, "decimals": 1}), "not rounded to decimals=1")
    p.write_bytes(b"not a zip file")
    _refused(p, "not a readable npz")
    with pytest.raises(ValueError, match="suffix"):
        acc.save(tmp_path / "s.txt")
    with pytest.raises(ValueError, match="format must be"):
        acc.save(tmp_path / "s.npz", format="csv")
    with pytest.raises(FileNotFoundError, match="no state file"):
        prn.Accumulator.load(tmp_path / "missing.npz")


def test_duplicated_groups_and_unknown_models_refused(tmp_path):
    df = _frame()
    acc = prn.Accumulator().update(df, score=["a", "b"], label="y", by="g")
    meta, members = _members(acc)
    p = tmp_path / "s.npz"
    # two group values spelled the same: the keys are duplicated
    utf8, offsets = state.utf8(np.array(["x", "x", "zé"], dtype=object))
    _refused(_write(p, dict(members, k0_utf8=utf8, k0_offsets=offsets), meta), "duplicated")
    _refused(_write(p, members, {**meta, "models": ["a", "c"]}), "not in its models")


def test_decimals_differing_from_the_state_merged_into(tmp_path):
    df = _frame()
    p = tmp_path / "s.npz"
    prn.Accumulator(decimals=2).update(df, score="b", label="y").save(p)
    loaded = prn.Accumulator.load(p)
    assert loaded.decimals == 2
    with pytest.raises(ValueError, match="decimals=1.*decimals=2.*s.npz"):
        prn.Accumulator(decimals=1).update(df, score="b", label="y").merge(loaded)
    both = prn.Accumulator(decimals=2).update(df, score="b", label="y").merge(loaded)
    pd.testing.assert_frame_equal(
        both.auc(),
        prn.auc(pd.concat([df, df]).assign(b=lambda d: d["b"].round(2)), score="b", label="y"),
        **TOL,
    )


def test_arrow_refusals(tmp_path):
    pa = pytest.importorskip("pyarrow")
    acc = prn.Accumulator().update(_frame(), score=["a", "b"], label="y", by="g")
    table = acc.to_arrow()
    meta = json.loads(table.schema.metadata[b"prroc_numba"])
    with pytest.raises(prn.StateFormatError, match="no prroc_numba metadata"):
        prn.Accumulator.from_arrow(table.replace_schema_metadata(None))
    with pytest.raises(prn.StateFormatError, match="not the expected"):
        prn.Accumulator.from_arrow(table.drop_columns(["neg"]))
    cast = table.set_column(3, "pos", table.column("pos").cast(pa.float32()))
    with pytest.raises(prn.StateFormatError, match="float64"):
        prn.Accumulator.from_arrow(cast)
    newer = table.replace_schema_metadata(
        {b"prroc_numba": json.dumps({**meta, "format_version": 7}).encode()}
    )
    with pytest.raises(prn.StateFormatError, match="format version 7"):
        prn.Accumulator.from_arrow(newer)
    changed = table.set_column(3, "pos", pa.array(table.column("pos").to_numpy() + 1))
    with pytest.raises(prn.StateFormatError, match="checksum"):
        prn.Accumulator.from_arrow(changed)
    with pytest.raises(prn.StateFormatError, match="not a readable Arrow"):
        prn.Accumulator.from_arrow(b"ARROW1 but not really")


def test_replicate_masses_pickle_but_do_not_save(tmp_path):
    from prroc_numba._core.accumulator import holding
    from prroc_numba._core.reading import layout_of, replicates_of

    acc = prn.Accumulator().update(_frame(), score="a", label="y", by="g")
    k = acc.n_entries
    rng = np.random.default_rng(1)
    extra = (rng.poisson(1.0, (k, 5)).astype(float), rng.poisson(1.0, (k, 5)).astype(float))
    rep = holding(layout_of(acc), acc._curve, acc._score, acc._pos, acc._neg, extra)
    back = pickle.loads(pickle.dumps(rep))
    for x, y in zip(replicates_of(back), extra):
        np.testing.assert_array_equal(x, y)
    pd.testing.assert_frame_equal(back.table(), acc.table(), check_exact=True)
    with pytest.raises(ValueError, match="replicate masses"):
        rep.save(tmp_path / "r.npz")


def test_unsupported_key_type_says_how_to_convert(tmp_path):
    df = _frame().assign(t=lambda d: pd.to_datetime(d["k"], unit="D"))
    acc = prn.Accumulator().update(df, score="a", label="y", by="t")
    with pytest.raises(TypeError, match="key column 't'.*astype"):
        acc.save(tmp_path / "s.npz")


def test_key_dtypes_round_trip(tmp_path):
    df = _frame()
    df["k8"] = df["k"].astype(np.int8)
    df["f"] = (df["k"] / 2).astype(np.float32)
    df["flag"] = df["k"] > 0
    df["o"] = df["g"].astype(object)
    kw = {"score": "a", "label": "y", "by": ["k8", "f", "flag", "o"]}
    acc = prn.Accumulator().update(df, **kw)
    for fmt in FORMATS:
        acc.save(tmp_path / f"s.{fmt}")
        back = prn.Accumulator.load(tmp_path / f"s.{fmt}")
        pd.testing.assert_frame_equal(back.table(), acc.table(), check_exact=True)
        pd.testing.assert_frame_equal(back.auc(), prn.auc(df, **kw), **TOL)


def test_empty_accumulator_pickles_and_does_not_save(tmp_path):
    acc = pickle.loads(pickle.dumps(prn.Accumulator(decimals=3)))
    assert acc.decimals == 3 and acc.n_entries == 0
    with pytest.raises(ValueError, match="seen no rows"):
        acc.save(tmp_path / "e.npz")


# ----------------------------------------------------------------- threads


def test_update_and_merge_from_8_threads_equal_one_thread():
    rng = np.random.default_rng(7)
    n = 64_000
    df = pd.DataFrame(
        {
            "g": rng.choice(["p", "q", "r"], n),
            "y": rng.integers(0, 2, n),
            "s": rng.normal(size=n),
            "t": rng.integers(0, 500, n) / 100,
            "w": rng.integers(0, 4, n).astype(float),  # integer weights: exact sums
        }
    )
    kw = {"score": ["s", "t"], "label": "y", "by": "g", "weight": "w"}
    parts = np.array_split(np.arange(n), 160)
    one = prn.Accumulator()
    for p in parts:
        one.update(df.iloc[p], **kw)
    shared = prn.Accumulator()
    side = [prn.Accumulator().update(df.iloc[p], **kw) for p in parts[:8]]
    barrier = threading.Barrier(8)
    errors = []

    def work(i):
        try:
            barrier.wait()
            for j, p in enumerate(parts[8:]):
                if j % 8 == i:
                    shared.update(df.iloc[p], **kw)
                    if j % 5 == 0:
                        shared.auc()  # reads while others update
            shared.merge(side[i])
        except Exception as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    pd.testing.assert_frame_equal(shared.table(), one.table(), check_exact=True)
    pd.testing.assert_frame_equal(shared.auc(), prn.auc(df, **kw), **TOL)


# --------------------------------------------------------------- streaming


def _stream(df, kw, n_batches, acc=None):
    acc = acc or prn.Accumulator()
    for p in np.array_split(np.arange(len(df)), n_batches):
        acc.update(df.iloc[p], **kw)
    return acc


@pytest.mark.parametrize(
    "kw",
    [
        {"score": "b", "label": "y"},
        {"score": ["a", "b"], "label": "y", "by": "g"},
        {"score": "a", "label": "y", "by": ["g", "k"]},
    ],
)
def test_stream_equals_one_update_bit_for_bit(kw, monkeypatch):
    from prroc_numba._core import accumulator

    df = _frame(n=30_000, seed=11)
    once = prn.Accumulator().update(df, **kw)
    for bound in (1 << 16, 500):  # the default, and one that merges runs many times
        monkeypatch.setattr(accumulator, "_BUFFER_ENTRIES", bound)
        acc = _stream(df, kw, 300)
        pd.testing.assert_frame_equal(acc.table(), once.table(), check_exact=True)
        pd.testing.assert_frame_equal(acc.auc(), once.auc(), check_exact=True)


def test_stream_pickled_and_merged_mid_stream(monkeypatch):
    from prroc_numba._core import accumulator

    monkeypatch.setattr(accumulator, "_BUFFER_ENTRIES", 1000)
    df = _frame(n=20_000, seed=12)
    kw = {"score": ["a", "b"], "label": "y", "by": "g"}
    half = np.arange(10_000)
    acc = _stream(df.iloc[half], kw, 50)
    assert acc._pending  # runs are kept, not yet merged
    mid = pickle.loads(pickle.dumps(acc))
    _stream(df.iloc[10_000:], kw, 50, acc)
    _stream(df.iloc[10_000:15_000], kw, 25, mid)
    other = _stream(df.iloc[15_000:], kw, 25)
    mid.merge(other)
    once = prn.Accumulator().update(df, **kw)
    pd.testing.assert_frame_equal(acc.table(), once.table(), check_exact=True)
    pd.testing.assert_frame_equal(mid.table(), once.table(), check_exact=True)
    dec = _stream(df, kw, 100, prn.Accumulator(decimals=1))
    pd.testing.assert_frame_equal(
        dec.auc(), prn.auc(df.assign(a=df["a"].round(1), b=df["b"].round(1)), **kw), **TOL
    )


def test_stream_memory_is_the_table_plus_a_bounded_buffer():
    rng = np.random.default_rng(3)
    acc = prn.Accumulator()
    for _ in range(50):
        y = rng.integers(0, 2, 10_000)
        acc.update(score=np.round(rng.normal(size=10_000), 2), label=y)
    # about 1,000 distinct scores: the table stays small, the runs kept are bounded
    assert sys.getsizeof(acc) < 40 * (1 << 16) + 40 * 2000 + 4096
    assert acc.n_entries < 2000


def test_a_curve_without_entries_is_no_curve():
    """A table may hold no entry of a curve of its layout (a Dask score range): results
    leave that curve out, as the in-memory call on the rows it holds does."""
    from prroc_numba._core.accumulator import holding
    from prroc_numba._core.reading import layout_of

    df = _frame()
    kw = {"score": ["a", "b"], "label": "y", "by": "g"}
    full = prn.Accumulator().update(df, **kw)
    keep = full._curve // 2 != 0  # no entry of the first group ("x")
    part = holding(
        layout_of(full), full._curve[keep], full._score[keep], full._pos[keep], full._neg[keep]
    )
    rest = df[df["g"] != "x"]
    pd.testing.assert_frame_equal(part.roc_curve(), prn.roc_curve(rest, **kw), **TOL)
    pd.testing.assert_frame_equal(part.auc(), prn.auc(rest, **kw), **TOL)
