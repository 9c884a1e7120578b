"""The state format's containers: ``.npz`` (numpy only), Arrow tables, IPC and Parquet
files (the ``arrow`` extra), :func:`save` and :func:`load` by a path's format, and
pickling (in-process: Dask, multiprocessing). Each writes the columns and metadata
:func:`~.state.encode` gives and reads them back through :func:`~.state.decode`, so
every container's rows pass the same checks (the format: :mod:`.state`).
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .state import (
    MAX_META,
    META_KEY,
    REWRITE,
    VALUES,
    StateFormatError,
    cast,
    check_meta,
    decode,
    encode,
    fail,
    utf8,
)

_SUFFIXES = {
    ".npz": "npz",
    ".arrow": "arrow",
    ".feather": "arrow",
    ".ipc": "arrow",
    ".parquet": "parquet",
    ".pq": "parquet",
}


# ----------------------------------------------------------------------------- npz


def _npz_members(meta, keys, score, pos, neg):
    members = {"meta": np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)}
    for i, (_name, kind, values, codes) in enumerate(keys):
        if kind == "str":
            members[f"k{i}_utf8"], members[f"k{i}_offsets"] = utf8(values)
        else:
            members[f"k{i}_values"] = cast(values, kind)
        members[f"k{i}_codes"] = codes.astype("<i8")
    for name, x in zip(VALUES, (score, pos, neg)):
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
        fail(source, f"member {info.filename!r} is compressed or has a bad size", REWRITE)
    with zf.open(info) as fp:
        version = np.lib.format.read_magic(fp)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(fp, max_header_size=4096)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(fp, max_header_size=4096)
        else:
            fail(source, f"member {info.filename!r} has npy version {version}", REWRITE)
        if dtype.hasobject or len(shape) != 1 or fortran:
            fail(source, f"member {info.filename!r} is not a flat array of numbers", REWRITE)
        count = int(shape[0])
        if count < 0 or count * dtype.itemsize > info.file_size:
            fail(
                source,
                f"member {info.filename!r} claims {count} values, more than the file holds",
                REWRITE,
            )
        raw = fp.read(count * dtype.itemsize)
        if len(raw) != count * dtype.itemsize:
            fail(source, f"member {info.filename!r} is truncated", REWRITE)
        return np.frombuffer(raw, dtype=dtype).copy()


def load_npz(file, source, decimals=None):
    """:func:`decode`'s tuple of an ``.npz`` (never unpickles; sizes checked first)."""
    size = os.path.getsize(file) if not hasattr(file, "read") else None
    with zipfile.ZipFile(file) as zf:
        infos = {i.filename: i for i in zf.infolist()}
        if len(infos) != len(zf.infolist()):
            fail(source, "it names a member twice", REWRITE)
        if size is not None and sum(i.file_size for i in infos.values()) > size:
            fail(source, "its members claim more bytes than the file holds", REWRITE)
        if "meta.npy" not in infos:
            fail(source, "it has no 'meta' member", REWRITE)
        if infos["meta.npy"].file_size > MAX_META:
            fail(source, "its metadata is implausibly large", REWRITE)
        raw = _read_member(zf, infos["meta.npy"], source)
        if raw.dtype != np.uint8:
            fail(source, "its 'meta' member is not UTF-8 bytes", REWRITE)
        meta = _json(raw.tobytes(), source)
        check_meta(meta, source)
        n_keys = sum(c["role"] == "key" for c in meta["columns"])
        want = {"meta.npy", *(v + ".npy" for v in VALUES)}
        for i, c in enumerate(meta["columns"][:n_keys]):
            if c["type"] == "str":
                want |= {f"k{i}_utf8.npy", f"k{i}_offsets.npy"}
            else:
                want.add(f"k{i}_values.npy")
            want.add(f"k{i}_codes.npy")
        if set(infos) != want:
            fail(
                source,
                f"its members {sorted(infos)} are not the expected {sorted(want)}",
                REWRITE,
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
        fail(source, "its metadata is not valid JSON", REWRITE)


def _strings(data, offsets, name, source):
    if data.dtype != np.uint8 or offsets.dtype.kind != "i" or offsets.size < 1:
        fail(source, f"column {name!r}: its strings are not UTF-8 bytes and offsets", REWRITE)
    offsets = offsets.astype(np.int64)
    if offsets[0] != 0 or offsets[-1] != data.size or (np.diff(offsets) < 0).any():
        fail(source, f"column {name!r}: its string offsets are inconsistent", REWRITE)
    raw = data.tobytes()
    try:
        out = [
            raw[a:b].decode("utf-8") for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())
        ]
    except UnicodeDecodeError:
        fail(source, f"column {name!r}: its strings are not valid UTF-8", REWRITE)
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
    for name, x in zip(VALUES, (score, pos, neg)):
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
        fail(source, f"its Arrow data is not valid ({err})", REWRITE)
    raw = (obj.schema.metadata or {}).get(META_KEY)
    if raw is None:
        fail(source, "its schema carries no prroc_numba metadata", "write it with to_arrow")
    if len(raw) > MAX_META:
        fail(source, "its metadata is implausibly large", REWRITE)
    meta = _json(raw, source)
    check_meta(meta, source)
    names = [c["name"] for c in meta["columns"]]
    if obj.column_names != names:
        fail(source, f"its columns {obj.column_names} are not the expected {names}", REWRITE)
    if obj.num_rows != meta["n_rows"]:
        fail(source, f"it has {obj.num_rows} rows, the metadata says {meta['n_rows']}", REWRITE)
    keys = []
    for c in meta["columns"]:
        if c["role"] == "key":
            keys.append((c["name"], *_arrow_key(pa, obj.column(c["name"]), c, source)))
    values = [_arrow_values(pa, obj.column(v), v, source) for v in VALUES]
    return decode(meta, keys, *values, source, decimals)


def _arrow_key(pa, col, c, source):
    """A key column's (distinct values, codes), whatever its Arrow encoding."""
    want = {"int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_(), "str": pa.string()}
    col = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    if col.null_count:
        fail(source, f"column {c['name']!r} has missing values", REWRITE)
    if pa.types.is_dictionary(col.type):
        value_type = col.type.value_type
        if c["type"] == "str" and pa.types.is_large_string(value_type):
            value_type = pa.string()  # what pandas' strings become
        if value_type != want[c["type"]] or not pa.types.is_integer(col.type.index_type):
            fail(source, f"column {c['name']!r} has type {col.type}", REWRITE)
        col = col.dictionary_decode()
    if c["type"] == "str" and (pa.types.is_large_string(col.type) or col.type == pa.string_view()):
        col = col.cast(pa.string())
    if col.type != want[c["type"]]:
        fail(source, f"column {c['name']!r} has type {col.type}, not {c['type']}", REWRITE)
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
        fail(source, f"column {name!r} has type {col.type}, not float64", REWRITE)
    if col.null_count:
        fail(source, f"column {name!r} has missing values", REWRITE)
    return np.asarray(col.to_numpy(zero_copy_only=False), dtype=np.float64)


def _read_ipc(pa, buf, source):
    try:
        if buf.size >= 6 and buf.to_pybytes()[:6] == b"ARROW1":
            return pa.ipc.open_file(buf).read_all()
        return pa.ipc.open_stream(buf).read_all()
    except (pa.ArrowException, ValueError, OSError) as err:
        fail(source, f"it is not a readable Arrow IPC file ({err})", REWRITE)


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
        fail(source, f"it is not a readable {fmt} file ({type(err).__name__}: {err})", REWRITE)


def _read_parquet(pa, path, source):
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path)
    except (pa.ArrowException, ValueError, OSError) as err:
        fail(source, f"it is not a readable Parquet file ({err})", REWRITE)


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
        fail(source, f"it is not a readable npz file ({type(err).__name__}: {err})", REWRITE)
