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
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._schema import MODEL
from .._version import __version__

FORMAT = "prroc_numba.state"
VERSION = 1
META_KEY = b"prroc_numba"
_VALUES = ("score", "pos", "neg")
_SUFFIXES = {
    ".npz": "npz",
    ".arrow": "arrow",
    ".feather": "arrow",
    ".ipc": "arrow",
    ".parquet": "parquet",
    ".pq": "parquet",
}
_MAX_META = 1 << 24  # a metadata object past 16 MiB is not one this library wrote
_CHUNK = 1 << 22


class StateFormatError(ValueError):
    """A saved state that this version cannot read: the message names the file and the fix."""


def _fail(source, what, fix):
    where = "the state" if source is None else f"the state in {str(source)!r}"
    raise StateFormatError(f"{where} cannot be loaded: {what}; {fix}")


_REWRITE = "save it again with Accumulator.save (or from_arrow of a table from to_arrow)"


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


def _cast(values, kind):
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
        out.append((name, kind, _cast(uniq, kind), gcodes.astype(np.int64)[gid]))
    if acc._models is not None:
        kind = _key_type(np.asarray(acc._models), MODEL)
        out.append((MODEL, kind, _cast(acc._models, kind), (curve % M).astype(np.int64)))
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
    columns += [{"name": v, "role": "value", "type": "float64"} for v in _VALUES]
    models = None if acc._models is None else _cast(acc._models, keys[-1][1]).tolist()
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


def _utf8(values):
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
            data, offsets = _utf8(values)
            h.update(offsets.astype("<i8").tobytes())
            h.update(data.tobytes())
        else:
            h.update(_cast(values, kind).tobytes())
        _update(h, codes, "<i8")
    for name, x in zip(_VALUES, (score, pos, neg)):
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


def _check_meta(meta, source):
    if not isinstance(meta, dict):
        _fail(source, "its metadata is not a JSON object", _REWRITE)
    if meta.get("format") != FORMAT:
        _fail(
            source,
            f"it is not a prroc_numba state (format {meta.get('format')!r})",
            "pass a file written by Accumulator.save",
        )
    version = meta.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        _fail(source, f"format version {version!r} is not one this library wrote", _REWRITE)
    if version > VERSION:
        _fail(
            source,
            f"it has format version {version}, newer than this prroc_numba "
            f"({__version__}) reads (up to {VERSION})",
            "upgrade prroc_numba where you load it, or save it with the older version",
        )
    if meta.get("byte_order") != "little":
        _fail(source, f"byte_order {meta.get('byte_order')!r} is not 'little'", _REWRITE)
    dec = meta.get("decimals")
    if dec is not None and (not isinstance(dec, int) or isinstance(dec, bool)):
        _fail(source, f"decimals {dec!r} is not an int or null", _REWRITE)
    by, models, columns = meta.get("by"), meta.get("models"), meta.get("columns")
    if not isinstance(by, list) or not all(isinstance(b, str) for b in by):
        _fail(source, f"'by' {by!r} is not a list of column names", _REWRITE)
    if models is not None and (
        not isinstance(models, list)
        or not models
        or not all(isinstance(m, (str, int, float)) and not isinstance(m, bool) for m in models)
        or len({(type(m), m) for m in models}) != len(models)
    ):
        _fail(source, f"'models' {models!r} is not a list of distinct names", _REWRITE)
    want = [*by, *([MODEL] if models is not None else []), *_VALUES]
    names = [c.get("name") for c in columns] if isinstance(columns, list) else None
    if names is None or not all(isinstance(c, dict) for c in columns):
        _fail(source, "its metadata lists no columns", _REWRITE)
    if names != want:
        missing = [w for w in want if w not in names]
        extra = [n for n in names if n not in want]
        _fail(
            source,
            f"its columns {names} are not the expected {want} (missing {missing}, "
            f"extra {extra}, or out of order)",
            _REWRITE,
        )
    for c in columns:
        ok = ("key", ("int64", "float64", "bool", "str"))
        role, types = ok if c["name"] not in _VALUES else ("value", ("float64",))
        if c.get("role") != role or c.get("type") not in types:
            _fail(
                source,
                f"column {c['name']!r} is declared {c.get('role')!r} of type {c.get('type')!r}",
                _REWRITE,
            )
        if role == "key" and c.get("dtype") not in _DTYPES[c["type"]]:
            _fail(source, f"column {c['name']!r} has dtype {c.get('dtype')!r}", _REWRITE)
    n = meta.get("n_rows")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        _fail(source, f"n_rows {n!r} is not a positive count", _REWRITE)
    if not isinstance(meta.get("checksum"), str):
        _fail(source, "it has no checksum", _REWRITE)


def _check_array(x, name, kind, n, source):
    """A column's array as native float64/int64 (its stored dtype checked)."""
    want = {"float64": "f", "int64": "i", "codes": "i", "bool": "b"}[kind]
    if not isinstance(x, np.ndarray) or x.ndim != 1 or x.dtype.kind != want:
        got = getattr(x, "dtype", type(x).__name__)
        _fail(source, f"column {name!r} has dtype {got}, not {kind}", _REWRITE)
    if kind != "bool" and x.dtype.itemsize != 8:
        _fail(source, f"column {name!r} has dtype {x.dtype}, not 8-byte {kind}", _REWRITE)
    if n is not None and x.size != n:
        _fail(source, f"column {name!r} has {x.size} rows, the metadata says {n}", _REWRITE)
    return x.astype(x.dtype.newbyteorder("="), copy=False)


def decode(meta, keys, score, pos, neg, source=None, decimals=None, verify=True):
    """``(by, models, groups, curve, score, pos, neg, decimals)``: what an
    :class:`Accumulator` is built from, after every check of the format.

    ``keys``: ``(name, distinct values, codes)`` per key column (``values`` for str
    columns: an object array of str). ``decimals``: the rounding the caller expects
    (None: any).
    """
    _check_meta(meta, source)
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
            _fail(source, f"column {name!r} has codes outside its {len(values)} values", _REWRITE)
        cols.append((name, kind, values, codes))
    if verify and checksum(meta, cols, score, pos, neg) != meta["checksum"]:
        _fail(
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
            _fail(source, f"column {name!r} does not hold strings", _REWRITE)
        if not all(isinstance(v, str) for v in values.tolist()):
            _fail(source, f"column {name!r} holds values that are not strings", _REWRITE)
        return values
    return _check_array(values, name, kind, None, source)


def _check_values(meta, score, pos, neg, source, decimals):
    if not np.isfinite(score).all():
        _fail(source, "its scores are not all finite", _REWRITE)
    for name, x in (("pos", pos), ("neg", neg)):
        if not np.isfinite(x).all() or (x < 0).any():
            _fail(source, f"its {name} masses are not all finite and >= 0", _REWRITE)
    if ((pos == 0) & (neg == 0)).any():
        _fail(source, "it has entries of zero mass (no row makes one)", _REWRITE)
    dec = meta["decimals"]
    if decimals is not None and dec != decimals:
        _fail(
            source,
            f"it was built with decimals={dec!r}, but the state it is merged into has "
            f"decimals={decimals!r}",
            "load it into an Accumulator built with the same decimals",
        )
    if dec is not None and not np.array_equal(np.round(score, dec), score):
        _fail(source, f"its scores are not rounded to decimals={dec}", _REWRITE)


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
            _fail(source, "column 'model' holds names that are not in its models", _REWRITE)
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
        _fail(source, "two of its groups have equal keys (duplicated keys)", _REWRITE)
    order = np.argsort(rank)
    groups = groups.iloc[order].reset_index(drop=True)
    gid = np.repeat(rank[seg_group.ravel()], np.diff(np.append(heads, n)))
    curve = gid * M + (model if models is not None else 0)
    return groups, curve


def _check_order(curve, score, source):
    if (np.diff(curve) < 0).any():
        _fail(source, "its rows are not sorted by curve", _REWRITE)
    bad = (curve[1:] == curve[:-1]) & (score[1:] >= score[:-1])
    if bad.any():
        _fail(
            source,
            "its scores are not strictly descending within a curve (unsorted or duplicated keys)",
            _REWRITE,
        )


# ----------------------------------------------------------------------------- npz


def _npz_members(meta, keys, score, pos, neg):
    members = {"meta": np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)}
    for i, (_name, kind, values, codes) in enumerate(keys):
        if kind == "str":
            members[f"k{i}_utf8"], members[f"k{i}_offsets"] = _utf8(values)
        else:
            members[f"k{i}_values"] = _cast(values, kind)
        members[f"k{i}_codes"] = codes.astype("<i8")
    for name, x in zip(_VALUES, (score, pos, neg)):
        members[name] = x.astype("<f8", copy=False)
    return members


def save_npz(acc, file):
    """Write the state of ``acc`` as an uncompressed ``.npz`` (numpy only)."""
    members = _npz_members(*encode(acc))
    with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, arr in members.items():
            with zf.open(name + ".npy", "w", force_zip64=arr.nbytes > (1 << 30)) as fp:
                np.lib.format.write_array(fp, arr, allow_pickle=False)


def _read_member(zf, info, source):
    """One ``.npy`` member, its header checked against the member's size on disk."""
    if info.compress_type != zipfile.ZIP_STORED or info.compress_size != info.file_size:
        _fail(source, f"member {info.filename!r} is compressed or has a bad size", _REWRITE)
    with zf.open(info) as fp:
        version = np.lib.format.read_magic(fp)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(fp, max_header_size=4096)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(fp, max_header_size=4096)
        else:
            _fail(source, f"member {info.filename!r} has npy version {version}", _REWRITE)
        if dtype.hasobject or len(shape) != 1 or fortran:
            _fail(source, f"member {info.filename!r} is not a flat array of numbers", _REWRITE)
        count = int(shape[0])
        if count < 0 or count * dtype.itemsize > info.file_size:
            _fail(
                source,
                f"member {info.filename!r} claims {count} values, more than the file holds",
                _REWRITE,
            )
        raw = fp.read(count * dtype.itemsize)
        if len(raw) != count * dtype.itemsize:
            _fail(source, f"member {info.filename!r} is truncated", _REWRITE)
        return np.frombuffer(raw, dtype=dtype).copy()


def load_npz(file, source, decimals=None):
    """:func:`decode`'s tuple of an ``.npz`` (never unpickles; sizes checked first)."""
    size = os.path.getsize(file) if not hasattr(file, "read") else None
    with zipfile.ZipFile(file) as zf:
        infos = {i.filename: i for i in zf.infolist()}
        if len(infos) != len(zf.infolist()):
            _fail(source, "it names a member twice", _REWRITE)
        if size is not None and sum(i.file_size for i in infos.values()) > size:
            _fail(source, "its members claim more bytes than the file holds", _REWRITE)
        if "meta.npy" not in infos:
            _fail(source, "it has no 'meta' member", _REWRITE)
        if infos["meta.npy"].file_size > _MAX_META:
            _fail(source, "its metadata is implausibly large", _REWRITE)
        raw = _read_member(zf, infos["meta.npy"], source)
        if raw.dtype != np.uint8:
            _fail(source, "its 'meta' member is not UTF-8 bytes", _REWRITE)
        meta = _json(raw.tobytes(), source)
        _check_meta(meta, source)
        n_keys = sum(c["role"] == "key" for c in meta["columns"])
        want = {"meta.npy", *(v + ".npy" for v in _VALUES)}
        for i, c in enumerate(meta["columns"][:n_keys]):
            if c["type"] == "str":
                want |= {f"k{i}_utf8.npy", f"k{i}_offsets.npy"}
            else:
                want.add(f"k{i}_values.npy")
            want.add(f"k{i}_codes.npy")
        if set(infos) != want:
            _fail(
                source,
                f"its members {sorted(infos)} are not the expected {sorted(want)}",
                _REWRITE,
            )
        arr = {name[:-4]: _read_member(zf, infos[name], source) for name in sorted(want)}
    keys = []
    for i, c in enumerate(meta["columns"][:n_keys]):
        if c["type"] == "str":
            values = _strings(arr[f"k{i}_utf8"], arr[f"k{i}_offsets"], c["name"], source)
        else:
            values = arr[f"k{i}_values"]
        keys.append((c["name"], values, arr[f"k{i}_codes"]))
    return decode(meta, keys, arr["score"], arr["pos"], arr["neg"], source, decimals)


def _json(raw, source):
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        _fail(source, "its metadata is not valid JSON", _REWRITE)


def _strings(data, offsets, name, source):
    if data.dtype != np.uint8 or offsets.dtype.kind != "i" or offsets.size < 1:
        _fail(source, f"column {name!r}: its strings are not UTF-8 bytes and offsets", _REWRITE)
    offsets = offsets.astype(np.int64)
    if offsets[0] != 0 or offsets[-1] != data.size or (np.diff(offsets) < 0).any():
        _fail(source, f"column {name!r}: its string offsets are inconsistent", _REWRITE)
    raw = data.tobytes()
    try:
        out = [
            raw[a:b].decode("utf-8") for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())
        ]
    except UnicodeDecodeError:
        _fail(source, f"column {name!r}: its strings are not valid UTF-8", _REWRITE)
    return np.array(out, dtype=object) if out else np.empty(0, dtype=object)


# --------------------------------------------------------------------------- arrow


def _pyarrow():
    try:
        import pyarrow as pa
    except ImportError as err:  # pragma: no cover - the arrow extra is installed in CI
        raise ImportError(
            "the Arrow form of the state needs pyarrow: pip install 'prroc-numba[arrow]' "
            "(or save to a .npz file, which needs numpy only)"
        ) from err
    return pa


def to_arrow(acc):
    """The state as a ``pyarrow.Table`` (key columns dictionary-encoded), the metadata
    under the schema key ``prroc_numba``.
    """
    pa = _pyarrow()
    meta, keys, score, pos, neg = encode(acc)
    arrays, names = [], []
    for name, kind, values, codes in keys:
        typ = {"int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_(), "str": pa.string()}
        dictionary = pa.array(values.tolist() if kind == "str" else values, type=typ[kind])
        arrays.append(pa.DictionaryArray.from_arrays(pa.array(codes, pa.int64()), dictionary))
        names.append(name)
    for name, x in zip(_VALUES, (score, pos, neg)):
        arrays.append(pa.array(x, type=pa.float64()))
        names.append(name)
    schema = pa.schema(
        [pa.field(n, a.type) for n, a in zip(names, arrays)],
        metadata={META_KEY: json.dumps(meta).encode("utf-8")},
    )
    return pa.Table.from_arrays(arrays, schema=schema)


def from_arrow(obj, source=None, decimals=None):
    """:func:`decode`'s tuple of a ``pyarrow.Table`` from :func:`to_arrow` (or Arrow IPC
    bytes).
    """
    pa = _pyarrow()
    if isinstance(obj, (bytes, bytearray, memoryview)):
        obj = _read_ipc(pa, pa.py_buffer(bytes(obj)), source)
    if not isinstance(obj, pa.Table):
        raise TypeError(
            f"from_arrow takes a pyarrow.Table or Arrow IPC bytes, got {type(obj).__name__}"
        )
    try:
        obj.validate(full=True)
    except (pa.ArrowException, ValueError) as err:
        _fail(source, f"its Arrow data is not valid ({err})", _REWRITE)
    raw = (obj.schema.metadata or {}).get(META_KEY)
    if raw is None:
        _fail(source, "its schema carries no prroc_numba metadata", "write it with to_arrow")
    if len(raw) > _MAX_META:
        _fail(source, "its metadata is implausibly large", _REWRITE)
    meta = _json(raw, source)
    _check_meta(meta, source)
    names = [c["name"] for c in meta["columns"]]
    if obj.column_names != names:
        _fail(source, f"its columns {obj.column_names} are not the expected {names}", _REWRITE)
    if obj.num_rows != meta["n_rows"]:
        _fail(source, f"it has {obj.num_rows} rows, the metadata says {meta['n_rows']}", _REWRITE)
    keys = []
    for c in meta["columns"]:
        if c["role"] == "key":
            keys.append((c["name"], *_arrow_key(pa, obj.column(c["name"]), c, source)))
    values = [_arrow_values(pa, obj.column(v), v, source) for v in _VALUES]
    return decode(meta, keys, *values, source, decimals)


def _arrow_key(pa, col, c, source):
    """A key column's (distinct values, codes), whatever its Arrow encoding."""
    want = {"int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_(), "str": pa.string()}
    col = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    if col.null_count:
        _fail(source, f"column {c['name']!r} has missing values", _REWRITE)
    if pa.types.is_dictionary(col.type):
        value_type = col.type.value_type
        if c["type"] == "str" and pa.types.is_large_string(value_type):
            value_type = pa.string()  # what pandas' strings become
        if value_type != want[c["type"]] or not pa.types.is_integer(col.type.index_type):
            _fail(source, f"column {c['name']!r} has type {col.type}", _REWRITE)
        col = col.dictionary_decode()
    if c["type"] == "str" and (pa.types.is_large_string(col.type) or col.type == pa.string_view()):
        col = col.cast(pa.string())
    if col.type != want[c["type"]]:
        _fail(source, f"column {c['name']!r} has type {col.type}, not {c['type']}", _REWRITE)
    values = col.to_numpy(zero_copy_only=False)
    if c["type"] == "str":
        values = np.asarray(values, dtype=object)
    codes, uniq = pd.factorize(values, use_na_sentinel=False)
    uniq = np.asarray(uniq, dtype=object) if c["type"] == "str" else np.asarray(uniq)
    if c["type"] != "str":
        uniq = uniq.astype(values.dtype)
    return uniq, codes.astype(np.int64)


def _arrow_values(pa, col, name, source):
    col = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    if col.type != pa.float64():
        _fail(source, f"column {name!r} has type {col.type}, not float64", _REWRITE)
    if col.null_count:
        _fail(source, f"column {name!r} has missing values", _REWRITE)
    return np.asarray(col.to_numpy(zero_copy_only=False), dtype=np.float64)


def _read_ipc(pa, buf, source):
    try:
        if buf.size >= 6 and buf.to_pybytes()[:6] == b"ARROW1":
            return pa.ipc.open_file(buf).read_all()
        return pa.ipc.open_stream(buf).read_all()
    except (pa.ArrowException, ValueError, OSError) as err:
        _fail(source, f"it is not a readable Arrow IPC file ({err})", _REWRITE)


def to_ipc_bytes(acc):
    """The state as Arrow IPC (file format) bytes."""
    pa = _pyarrow()
    table = to_arrow(acc)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


# ----------------------------------------------------------------------- save/load


def file_format(path, format):
    """The container of ``path``: ``format=`` when given, else its suffix."""
    if format is not None:
        if format not in ("npz", "arrow", "parquet"):
            raise ValueError(f"format must be 'npz', 'arrow' or 'parquet', got {format!r}")
        return format
    suffix = Path(path).suffix.lower()
    if suffix not in _SUFFIXES:
        raise ValueError(
            f"cannot tell the state format of {str(path)!r} from its suffix; name the file "
            "*.npz (numpy), *.arrow (Arrow IPC) or *.parquet, or pass format="
        )
    return _SUFFIXES[suffix]


def save(acc, path, format=None):
    """Write the state of ``acc`` to ``path``."""
    fmt = file_format(path, format)
    if fmt == "npz":
        save_npz(acc, path)
    elif fmt == "arrow":
        with open(path, "wb") as fp:
            fp.write(to_ipc_bytes(acc))
    else:
        import pyarrow.parquet as pq

        pq.write_table(to_arrow(acc), path)


def load(path, format=None, decimals=None):
    """:func:`decode`'s tuple of the state saved at ``path`` (every check run)."""
    fmt = file_format(path, format)
    source = str(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no state file at {source!r}")
    try:
        if fmt == "npz":
            return load_npz(path, source, decimals)
        pa = _pyarrow()
        if fmt == "arrow":
            with open(path, "rb") as fp:
                table = _read_ipc(pa, pa.py_buffer(fp.read()), source)
        else:
            table = _read_parquet(pa, path, source)
        return from_arrow(table, source, decimals)
    except StateFormatError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError) as err:
        _fail(source, f"it is not a readable {fmt} file ({type(err).__name__}: {err})", _REWRITE)


def _read_parquet(pa, path, source):
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path)
    except (pa.ArrowException, ValueError, OSError) as err:
        _fail(source, f"it is not a readable Parquet file ({err})", _REWRITE)


# ------------------------------------------------------------------------- pickling


def pickled(acc):
    """What pickling carries: the state's metadata and npz members, and the replicate
    masses (in-process only), or None for an Accumulator that has seen no rows.
    """
    if not acc._started:
        return None
    meta, keys, score, pos, neg = encode(acc, replicates=True)
    return meta, _npz_members(meta, keys, score, pos, neg), tuple(acc._extra)


def unpickled(payload):
    """:func:`decode`'s tuple and the replicate masses of :func:`pickled`'s payload
    (the format's checks run).
    """
    meta, members, extra = payload
    keys = []
    for i, c in enumerate(c for c in meta["columns"] if c["role"] == "key"):
        if c["type"] == "str":
            values = _strings(members[f"k{i}_utf8"], members[f"k{i}_offsets"], c["name"], None)
        else:
            values = members[f"k{i}_values"]
        keys.append((c["name"], values, members[f"k{i}_codes"]))
    parts = decode(meta, keys, members["score"], members["pos"], members["neg"], None, None)
    return parts, tuple(extra)


def npz_bytes(acc):
    """The ``.npz`` form of the state as bytes (what :func:`save_npz` writes)."""
    buf = io.BytesIO()
    save_npz(acc, buf)
    return buf.getvalue()


def reads(data: Any, source=None):
    """:func:`decode`'s tuple of ``.npz`` bytes."""
    try:
        return load_npz(io.BytesIO(data), source)
    except StateFormatError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError) as err:
        _fail(source, f"it is not a readable npz file ({type(err).__name__}: {err})", _REWRITE)
