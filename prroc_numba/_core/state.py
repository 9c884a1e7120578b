"""The exact state's own format: versioned, checksummed, pickle-free.

An :class:`~prroc_numba.Accumulator` is the table *(curve keys, distinct score) ->
(positive mass, negative mass)*. This module writes and reads that table, so that it can
travel between processes, machines, jobs and languages without :mod:`pickle` (which runs
code when it loads).

**Columns** (format version 1), one row per (curve, distinct score), exactly the rows of
:meth:`Accumulator.table`: the key columns (the ``by`` columns in order, then ``model``
for wide input), then ``score``, ``pos``, ``neg`` (float64). Rows are sorted by curve
(groups in sorted order, models in their order), then score strictly descending.

**Metadata** (one JSON object): ``format`` (``"prroc_numba.state"``),
``format_version`` (1), ``library_version``, ``decimals``, ``by`` (names), ``models``
(names, or null for one score column), ``columns`` (name, role and type of each
column), ``n_rows``, ``byte_order`` (``"little"``: every number is written
little-endian) and ``checksum`` (``"sha256:<hex>"``, over the columns in a canonical
little-endian layout and the metadata fields that change what the rows mean).

Three containers hold the same columns and metadata:

* ``.npz`` (numpy only, the core install): key columns dictionary-encoded (``k<i>_codes``
  int64 per row; ``k<i>_values`` the distinct values, or ``k<i>_utf8`` / ``k<i>_offsets``
  for strings), ``score``, ``pos``, ``neg``, and ``meta`` (the JSON as UTF-8 bytes);
  written uncompressed and read with ``allow_pickle=False`` after every member's header
  is checked against the file's size.
* Arrow (``to_arrow``/``from_arrow``, ``.arrow`` IPC files, ``.parquet``; the ``arrow``
  extra): key columns as dictionary arrays, the metadata under the schema key
  ``prroc_numba``.
* pickling (in-process: Dask, multiprocessing) carries the same columns and metadata, and
  unpickling runs the same checks (the per-entry bootstrap replicate masses of the Dask
  wing travel beside them; files refuse them).

The containers (npz, Arrow, IPC, Parquet files, pickling) are :mod:`.state_files`; this
module holds the format itself: the metadata, the checksum, and the checks that every
container's columns pass on the way in (:func:`decode`).
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd

from .._schema import MODEL
from .._version import __version__

FORMAT = "prroc_numba.state"
VERSION = 1
META_KEY = b"prroc_numba"
VALUES = ("score", "pos", "neg")
MAX_META = 1 << 24  # a metadata object past 16 MiB is not one this library wrote
_CHUNK = 1 << 22


class StateFormatError(ValueError):
    """A saved state that this version cannot read: the message names the file and the fix."""


def fail(source, what, fix):
    where = "the state" if source is None else f"the state in {str(source)!r}"
    raise StateFormatError(f"{where} cannot be loaded: {what}; {fix}")


REWRITE = "save it again with Accumulator.save (or from_arrow of a table from to_arrow)"


# ------------------------------------------------------------------------ encoding


def _key_type(values, name):
    """The stored type of a key column's values: int64, float64, bool or str."""
    arr = np.asarray(values)
    if arr.dtype.kind == "b":
        return "bool"
    if arr.dtype.kind in "iu":
        if arr.dtype.kind == "u" and arr.size and arr.max() > np.iinfo(np.int64).max:
            raise TypeError(f"key column {name!r} holds integers past int64; cast it first")
        return "int64"
    if arr.dtype.kind == "f":
        return "float64"
    if arr.dtype.kind in "OUS" and all(isinstance(v, str) for v in arr.tolist()):
        return "str"
    raise TypeError(
        f"key column {name!r} has values of type {arr.dtype} that the state format does not "
        "store (int, float, bool, str); convert the column (e.g. .astype(str)) before update"
    )


def cast(values, kind):
    if kind == "str":
        return np.asarray(values, dtype=object)
    return np.asarray(values).astype({"int64": "<i8", "float64": "<f8", "bool": "?"}[kind])


def _key_columns(acc):
    """Every key column of ``acc`` as ``(name, type, distinct values, codes per row)``:
    distinct values in the order of their first row, codes int64 (the canonical form
    the checksum reads).
    """
    curve = acc._curve
    M = acc._n_models()
    out = []
    groups = acc._groups
    gid = curve // M if M > 1 else curve
    for name in acc._by:
        kind = _key_type(groups[name].to_numpy(), name)
        gcodes, uniq = pd.factorize(groups[name].to_numpy(), use_na_sentinel=False)
        out.append((name, kind, cast(uniq, kind), gcodes.astype(np.int64)[gid]))
    if acc._models is not None:
        kind = _key_type(np.asarray(acc._models), MODEL)
        out.append((MODEL, kind, cast(acc._models, kind), (curve % M).astype(np.int64)))
    return [_canonical(*col) for col in out]


def _canonical(name, kind, values, codes):
    """The same column with its distinct values in the order of their first row."""
    if codes.size == 0:
        return name, kind, values[:0], codes
    inv, first = pd.factorize(codes)
    return name, kind, values[first], inv.astype(np.int64)


_DTYPES = {
    "int64": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "float64": ("float32", "float64"),
    "bool": ("bool",),
    "str": ("str", "string", "object"),
}


def _frame_dtype(acc, name, kind):
    """The pandas dtype a key column is rebuilt with (its dtype in the Accumulator)."""
    if name == MODEL or acc._groups is None:
        return "object" if kind == "str" else kind
    dtype = str(acc._groups[name].dtype)
    return dtype if dtype in _DTYPES[kind] else ("object" if kind == "str" else kind)


def _meta(acc, keys):
    columns = [
        {"name": n, "role": "key", "type": k, "dtype": _frame_dtype(acc, n, k)}
        for n, k, _, _ in keys
    ]
    columns += [{"name": v, "role": "value", "type": "float64"} for v in VALUES]
    models = None if acc._models is None else cast(acc._models, keys[-1][1]).tolist()
    return {
        "format": FORMAT,
        "format_version": VERSION,
        "library_version": __version__,
        "decimals": acc.decimals,
        "by": list(acc._by),
        "models": models,
        "columns": columns,
        "n_rows": int(acc._score.size),
        "byte_order": "little",
    }


def utf8(values):
    """Strings as one UTF-8 byte array and int64 offsets (no object array)."""
    raw = [v.encode("utf-8") for v in values.tolist()]
    offsets = np.zeros(len(raw) + 1, dtype="<i8")
    np.cumsum([len(r) for r in raw], out=offsets[1:])
    return np.frombuffer(b"".join(raw), dtype=np.uint8), offsets


def checksum(meta, keys, score, pos, neg):
    """``"sha256:<hex>"`` of the columns in a canonical little-endian layout and of the
    metadata fields that change what the rows mean.
    """
    h = hashlib.sha256()
    head = {k: meta.get(k) for k in ("format", "format_version", "decimals", "by", "models")}
    head["columns"] = meta.get("columns")
    head["n_rows"] = meta.get("n_rows")
    h.update(json.dumps(head, sort_keys=True).encode())
    for name, kind, values, codes in keys:
        h.update(f"\0{name}\0{kind}\0{len(values)}\0".encode())
        if kind == "str":
            data, offsets = utf8(values)
            h.update(offsets.astype("<i8").tobytes())
            h.update(data.tobytes())
        else:
            h.update(cast(values, kind).tobytes())
        _update(h, codes, "<i8")
    for name, x in zip(VALUES, (score, pos, neg)):
        h.update(f"\0{name}\0".encode())
        _update(h, x, "<f8")
    return "sha256:" + h.hexdigest()


def _update(h, x, dtype):
    for i in range(0, x.size, _CHUNK):  # a chunk at a time: no full little-endian copy
        h.update(np.ascontiguousarray(x[i : i + _CHUNK], dtype=dtype).data)


def encode(acc, replicates=False):
    """``(meta, keys, score, pos, neg)``: the state's metadata (checksum included) and
    columns (``keys``: ``(name, type, distinct values, codes)`` per key column);
    ``replicates``: the Dask wing's per-entry replicate masses may be there (they travel
    beside the columns, in process only).
    """
    acc._require()
    if acc._extra and not replicates:
        raise ValueError(
            "this Accumulator holds per-entry bootstrap replicate masses (the Dask wing's "
            "intermediate state); the state format stores the data's own table only: save "
            "an Accumulator built by update/merge"
        )
    keys = _key_columns(acc)
    score, pos, neg = acc._score, acc._pos, acc._neg
    meta = _meta(acc, keys)
    meta["checksum"] = checksum(meta, keys, score, pos, neg)
    return meta, keys, score, pos, neg


# ------------------------------------------------------------------------ decoding


def check_meta(meta, source):
    if not isinstance(meta, dict):
        fail(source, "its metadata is not a JSON object", REWRITE)
    if meta.get("format") != FORMAT:
        fail(
            source,
            f"it is not a prroc_numba state (format {meta.get('format')!r})",
            "pass a file written by Accumulator.save",
        )
    version = meta.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        fail(source, f"format version {version!r} is not one this library wrote", REWRITE)
    if version > VERSION:
        fail(
            source,
            f"it has format version {version}, newer than this prroc_numba "
            f"({__version__}) reads (up to {VERSION})",
            "upgrade prroc_numba where you load it, or save it with the older version",
        )
    if meta.get("byte_order") != "little":
        fail(source, f"byte_order {meta.get('byte_order')!r} is not 'little'", REWRITE)
    dec = meta.get("decimals")
    if dec is not None and (not isinstance(dec, int) or isinstance(dec, bool)):
        fail(source, f"decimals {dec!r} is not an int or null", REWRITE)
    by, models, columns = meta.get("by"), meta.get("models"), meta.get("columns")
    if not isinstance(by, list) or not all(isinstance(b, str) for b in by):
        fail(source, f"'by' {by!r} is not a list of column names", REWRITE)
    if models is not None and (
        not isinstance(models, list)
        or not models
        or not all(isinstance(m, (str, int, float)) and not isinstance(m, bool) for m in models)
        or len({(type(m), m) for m in models}) != len(models)
    ):
        fail(source, f"'models' {models!r} is not a list of distinct names", REWRITE)
    want = [*by, *([MODEL] if models is not None else []), *VALUES]
    names = [c.get("name") for c in columns] if isinstance(columns, list) else None
    if names is None or not all(isinstance(c, dict) for c in columns):
        fail(source, "its metadata lists no columns", REWRITE)
    if names != want:
        missing = [w for w in want if w not in names]
        extra = [n for n in names if n not in want]
        fail(
            source,
            f"its columns {names} are not the expected {want} (missing {missing}, "
            f"extra {extra}, or out of order)",
            REWRITE,
        )
    for c in columns:
        ok = ("key", ("int64", "float64", "bool", "str"))
        role, types = ok if c["name"] not in VALUES else ("value", ("float64",))
        if c.get("role") != role or c.get("type") not in types:
            fail(
                source,
                f"column {c['name']!r} is declared {c.get('role')!r} of type {c.get('type')!r}",
                REWRITE,
            )
        if role == "key" and c.get("dtype") not in _DTYPES[c["type"]]:
            fail(source, f"column {c['name']!r} has dtype {c.get('dtype')!r}", REWRITE)
    n = meta.get("n_rows")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        fail(source, f"n_rows {n!r} is not a positive count", REWRITE)
    if not isinstance(meta.get("checksum"), str):
        fail(source, "it has no checksum", REWRITE)


def _check_array(x, name, kind, n, source):
    """A column's array as native float64/int64 (its stored dtype checked)."""
    want = {"float64": "f", "int64": "i", "codes": "i", "bool": "b"}[kind]
    if not isinstance(x, np.ndarray) or x.ndim != 1 or x.dtype.kind != want:
        got = getattr(x, "dtype", type(x).__name__)
        fail(source, f"column {name!r} has dtype {got}, not {kind}", REWRITE)
    if kind != "bool" and x.dtype.itemsize != 8:
        fail(source, f"column {name!r} has dtype {x.dtype}, not 8-byte {kind}", REWRITE)
    if n is not None and x.size != n:
        fail(source, f"column {name!r} has {x.size} rows, the metadata says {n}", REWRITE)
    return x.astype(x.dtype.newbyteorder("="), copy=False)


def decode(meta, keys, score, pos, neg, source=None, decimals=None, verify=True):
    """``(by, models, groups, curve, score, pos, neg, decimals)``: what an
    :class:`Accumulator` is built from, after every check of the format.

    ``keys``: ``(name, distinct values, codes)`` per key column (``values`` for str
    columns: an object array of str). ``decimals``: the rounding the caller expects
    (None: any).
    """
    check_meta(meta, source)
    n = meta["n_rows"]
    types = {c["name"]: c["type"] for c in meta["columns"]}
    score = _check_array(score, "score", "float64", n, source)
    pos = _check_array(pos, "pos", "float64", n, source)
    neg = _check_array(neg, "neg", "float64", n, source)
    cols = []
    for name, values, codes in keys:
        kind = types[name]
        codes = _check_array(codes, name, "codes", n, source)
        values = _key_values(values, name, kind, source)
        if codes.size and (codes.min() < 0 or codes.max() >= len(values)):
            fail(source, f"column {name!r} has codes outside its {len(values)} values", REWRITE)
        cols.append((name, kind, values, codes))
    if verify and checksum(meta, cols, score, pos, neg) != meta["checksum"]:
        fail(
            source,
            "its checksum does not match its contents (the file was changed or damaged "
            "after it was written)",
            "copy it again from where it was saved, or save it again",
        )
    _check_values(meta, score, pos, neg, source, decimals)
    by, models = meta["by"], meta["models"]
    dtypes = {c["name"]: c["dtype"] for c in meta["columns"] if c["role"] == "key"}
    groups, curve = _curves(cols, by, models, n, dtypes, source)
    _check_order(curve, score, source)
    return list(by), models, groups, curve, score, pos, neg, meta["decimals"]


def _key_values(values, name, kind, source):
    if kind == "str":
        if not isinstance(values, np.ndarray) or values.ndim != 1 or values.dtype != object:
            fail(source, f"column {name!r} does not hold strings", REWRITE)
        if not all(isinstance(v, str) for v in values.tolist()):
            fail(source, f"column {name!r} holds values that are not strings", REWRITE)
        return values
    return _check_array(values, name, kind, None, source)


def _check_values(meta, score, pos, neg, source, decimals):
    if not np.isfinite(score).all():
        fail(source, "its scores are not all finite", REWRITE)
    for name, x in (("pos", pos), ("neg", neg)):
        if not np.isfinite(x).all() or (x < 0).any():
            fail(source, f"its {name} masses are not all finite and >= 0", REWRITE)
    if ((pos == 0) & (neg == 0)).any():
        fail(source, "it has entries of zero mass (no row makes one)", REWRITE)
    dec = meta["decimals"]
    if decimals is not None and dec != decimals:
        fail(
            source,
            f"it was built with decimals={dec!r}, but the state it is merged into has "
            f"decimals={decimals!r}",
            "load it into an Accumulator built with the same decimals",
        )
    if dec is not None and not np.array_equal(np.round(score, dec), score):
        fail(source, f"its scores are not rounded to decimals={dec}", REWRITE)


def _curves(cols, by, models, n, dtypes, source):
    """The groups frame and each row's curve id (groups sorted as the Accumulator sorts
    them, models in their order), from the key columns' codes.
    """
    M = 1 if models is None else len(models)
    by_cols = [c for c in cols if c[0] != MODEL]
    if models is not None:
        name, kind, values, codes = cols[-1]
        model_list = list(models)
        lookup = {(type(m) if kind != "float64" else float, m): i for i, m in enumerate(model_list)}
        try:
            idx = np.array(
                [lookup[(type(v) if kind != "float64" else float, v)] for v in values.tolist()],
                dtype=np.int64,
            )
        except (KeyError, TypeError):
            fail(source, "column 'model' holds names that are not in its models", REWRITE)
        model = idx[codes] if idx.size else codes
    if not by_cols:
        groups = pd.DataFrame(index=range(1))
        curve = model if models is not None else np.zeros(n, dtype=np.int64)
        return groups, curve
    codes = np.stack([c[3] for c in by_cols], axis=1)
    change = np.ones(n, dtype=bool)
    change[1:] = (codes[1:] != codes[:-1]).any(axis=1)
    heads = np.flatnonzero(change)
    tuples, seg_group = np.unique(codes[heads], axis=0, return_inverse=True)
    groups = pd.DataFrame(
        {c[0]: pd.Series(c[2][tuples[:, i]]).astype(dtypes[c[0]]) for i, c in enumerate(by_cols)}
    )
    rank = groups.groupby(list(by), sort=True, dropna=False, observed=True).ngroup()
    rank = rank.to_numpy(np.int64)
    if np.unique(rank).size != len(groups):
        fail(source, "two of its groups have equal keys (duplicated keys)", REWRITE)
    order = np.argsort(rank)
    groups = groups.iloc[order].reset_index(drop=True)
    gid = np.repeat(rank[seg_group.ravel()], np.diff(np.append(heads, n)))
    curve = gid * M + (model if models is not None else 0)
    return groups, curve


def _check_order(curve, score, source):
    if (np.diff(curve) < 0).any():
        fail(source, "its rows are not sorted by curve", REWRITE)
    bad = (curve[1:] == curve[:-1]) & (score[1:] >= score[:-1])
    if bad.any():
        fail(
            source,
            "its scores are not strictly descending within a curve (unsorted or duplicated keys)",
            REWRITE,
        )
