"""What real environments do to a library: fork after use, interrupts, threads, killed
Dask workers, memory limits, pickled state, read-only and memory-mapped inputs, a CLI
told to overwrite its input.

Each case runs in a fresh Python process with a deadline (:func:`_child`), so a hang
fails its test instead of the whole run. A child prints one JSON line; the references
are the same library's plain in-process results, themselves checked against the oracles
(scikit-learn, tests/naive.py, stored pROC/PRROC values) elsewhere in the suite: these
tests check that the environment changes nothing, bit for bit.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn

ROOT = Path(__file__).resolve().parents[1]

# a frame large enough that the thread pool is used (above MIN_PARALLEL_ROWS rows), four
# threads even on a machine with fewer cores, and helpers that print results as JSON
_PRELUDE = """
import json, os, sys, time
import numpy as np, pandas as pd
import prroc_numba as prn

def frame(n=60_000, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return pd.DataFrame({
        "g": rng.integers(0, 3, n),
        "y": y,
        "a": y + rng.normal(size=n),
        "b": np.round(0.5 * y + rng.normal(size=n), 1),
    })

def dump(res):
    '''A frame as JSON-able columns, floats as hex: equal dumps are equal bits.'''
    return {str(c): [x.hex() if isinstance(x, float) else x for x in res[c].tolist()]
            for c in res.columns}

def calls(df):
    '''auc (split sort on the pool), bootstrap (replicates on the pool), delong (a
    prange kernel: Numba's threading layer).'''
    return {
        "auc": dump(prn.auc(df, score=["a", "b"], label="y", by="g")),
        "boot": dump(prn.bootstrap(df, score=["a", "b"], label="y", n_boot=64, seed=3)),
        "delong": dump(prn.delong(df, score=["a", "b"], label="y")),
    }

def say(obj):
    print("RESULT " + json.dumps(obj), flush=True)
"""


def _env() -> dict:
    """The environment of a child: this checkout's package first, quiet compiles."""
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "PRROC_NUMBA_QUIET": "1"}


def _child(code: str, timeout: float, *, env=None) -> dict:
    """Run ``code`` (after :data:`_PRELUDE`) in a fresh process with a deadline; return
    the JSON it printed with ``say``. The child gets its own session, so on a timeout
    its whole process group (forked workers included) is killed and the test fails.
    """
    full_env = {**_env(), "NUMBA_NUM_THREADS": "4", **(env or {})}
    script = _PRELUDE + textwrap.dedent(code)
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=full_env,
        cwd=str(ROOT),
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"the child hung (no answer in {timeout} s)\n{out[-2000:]}\n{err[-3000:]}")
    assert proc.returncode == 0, f"exit status {proc.returncode}\n{out}\n{err[-4000:]}"
    lines = [ln for ln in out.splitlines() if ln.startswith("RESULT ")]
    assert lines, f"no result\n{out}\n{err[-4000:]}"
    return json.loads(lines[-1][len("RESULT ") :])


# ------------------------------------------------------------------ fork and spawn

_FORK = """
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

df = frame()
parent = calls(df)  # the parent uses the thread pool and Numba's threading layer first

def work(i):
    return calls(df)

kind = "{kind}"
if kind == "executor":
    with ProcessPoolExecutor(2, mp_context=mp.get_context("fork")) as ex:
        children = list(ex.map(work, range(2)))
elif kind == "pool":
    with mp.get_context("fork").Pool(2) as pool:
        children = pool.map(work, range(2))
else:  # spawn: a fresh interpreter imports the package and the calls' module
    with ProcessPoolExecutor(2, mp_context=mp.get_context("spawn")) as ex:
        children = [f.result() for f in [ex.submit(spawned, i) for i in range(2)]]
say({{"parent": parent, "children": children}})
"""


@pytest.mark.parametrize("kind", ["executor", "pool"])
def test_fork_after_use_gives_the_parents_results(kind):
    """Children forked after the parent used the pool and the threading layer answer
    (they used to wait forever on the parent's pool threads, which a child does not
    have, or be terminated by GNU OpenMP) and equal the parent bit for bit.
    """
    res = _child(_FORK.format(kind=kind), timeout=180)
    assert len(res["children"]) == 2
    for child in res["children"]:
        assert child == res["parent"]


def test_spawn_gives_the_parents_results(tmp_path):
    """``spawn`` children (a fresh interpreter each) equal the parent bit for bit."""
    mod = tmp_path / "spawned_calls.py"
    mod.write_text(_PRELUDE + "\ndef spawned(i):\n    return calls(frame())\n")
    code = f"sys.path.insert(0, {str(tmp_path)!r})\nfrom spawned_calls import spawned\n"
    res = _child(code + _FORK.format(kind="spawn"), timeout=180)
    assert len(res["children"]) == 2
    for child in res["children"]:
        assert child == res["parent"]


def test_forked_child_starts_its_own_pool():
    """The inherited pool object is dropped in the child; its first call makes one."""
    code = """
    from prroc_numba._drivers import threads
    df = frame()
    prn.auc(df, score="a", label="y")
    assert threads._pool is not None
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        ok = threads._pool is None and not threads._lock.locked()
        prn.auc(df, score="a", label="y")
        ok = ok and threads._pool is not None
        os.write(w, b"1" if ok else b"0")
        os._exit(0)
    os.waitpid(pid, 0)
    say({"child_ok": os.read(r, 1) == b"1"})
    """
    assert _child(code, timeout=120) == {"child_ok": True}


@pytest.mark.slow
def test_every_parallel_kernel_answers_in_a_forked_child():
    """A child forked after use runs every kind of call (each ``prange`` kernel: hulls,
    DG points, thresholds, operating points, partial areas, jackknife, Poisson and
    grid replicates, DeLong) and equals the parent bit for bit; under GNU OpenMP it runs
    them as serial kernels.
    """
    code = """
    from prroc_numba._jit import fork as _fork
    df = frame(n=30_000)
    kw = {"score": ["a", "b"], "label": "y", "by": "g"}
    def many():
        out = calls(df)
        for name, fn, extra in [
            ("roc_hull", prn.roc_curve, {"hull": True}),
            ("auc_hull", prn.auc, {"curve": "roc", "hull": True}),
            ("dg", prn.pr_curve, {"interpolate": "dg"}),
            ("thr", prn.confusion, {"thresholds": [0.0, 0.5, 1.0]}),
            ("op", prn.operating_points, {}),
            ("partial", prn.auc, {"curve": "roc", "partial": (0.0, 0.2)}),
            ("boot_partial", prn.bootstrap, {"curve": "roc", "partial": (0.0, 0.2),
                                             "n_boot": 20, "seed": 1}),
            ("bca", prn.bootstrap, {"interval": "bca", "n_boot": 20, "seed": 1}),
            ("poisson", prn.bootstrap, {"resampling": "poisson", "n_boot": 20, "seed": 1}),
            ("bands", prn.bootstrap_curve, {"n_boot": 20, "seed": 1, "grid": 11}),
            ("compare", prn.compare, {"n_boot": 20, "seed": 1}),
        ]:
            out[name] = dump(fn(df, **kw, **extra))
        return out
    parent = many()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        msg = json.dumps({"same": many() == parent, "serial": _fork.SERIAL_AFTER_FORK})
        os.write(w, msg.encode())
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    os.close(w)
    got = os.read(r, 1 << 16).decode()
    say({"status": status, **(json.loads(got) if got else {})})
    """
    res = _child(code, timeout=300)
    assert res["status"] == 0 and res["same"]


# ------------------------------------------------------------------------ interrupts


def test_ctrl_c_stops_a_long_bootstrap_and_the_process_goes_on():
    """SIGINT during a bootstrap of minutes raises KeyboardInterrupt within 2 s; the
    same process then answers exactly as before.
    """
    code = """
    import signal, threading
    df = frame()
    before = calls(df)
    def interrupt():
        time.sleep(1.5)
        global sent
        sent = time.perf_counter()
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=interrupt, daemon=True).start()
    t0 = time.perf_counter()
    try:
        prn.bootstrap(df, score=["a", "b"], label="y", by="g", n_boot=10**6, seed=1)
        stopped = None
    except KeyboardInterrupt:
        stopped = time.perf_counter() - sent
    say({"stopped_after": stopped, "same": calls(df) == before})
    """
    res = _child(code, timeout=120)
    assert res["stopped_after"] is not None, "the bootstrap finished before the interrupt"
    assert res["stopped_after"] < 2.0
    assert res["same"]


# --------------------------------------------------------------------------- threads


def test_eight_threads_at_once_get_the_serial_results():
    """Eight threads calling bootstrap, auc and delong at once (on different frames),
    three rounds: every result equals the serial one bit for bit.
    """
    code = """
    from concurrent.futures import ThreadPoolExecutor
    frames = [frame(n=30_000, seed=s) for s in range(4)]
    serial = [calls(f) for f in frames]
    with ThreadPoolExecutor(8) as ex:
        jobs = [(i % 4, ex.submit(calls, frames[i % 4])) for i in range(24)]
        same = [j.result() == serial[i] for i, j in jobs]
    say({"same": same})
    """
    assert _child(code, timeout=240)["same"] == [True] * 24


# -------------------------------------------------------------------- memory limits

_LIMIT = """
import resource
def limit_address_space(headroom):
    with open("/proc/self/status") as fh:
        vm = next(int(ln.split()[1]) * 1024 for ln in fh if ln.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (vm + headroom, resource.RLIM_INFINITY))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc: Linux")
def test_huge_bootstrap_under_an_address_space_limit_raises_memory_error_first():
    """2,000 groups x 10^6 replicates with return_replicates=True (about 80 GB) under a
    2 GiB headroom: a MemoryError before any work, naming the size and the fixes; the
    process then answers exactly as before (a request that fits is not refused).
    """
    code = _LIMIT + textwrap.dedent(
        """
    rng = np.random.default_rng(0)
    n = 20_000
    big = pd.DataFrame({"g": rng.integers(0, 2000, n), "s": rng.random(n)})
    big["y"] = rng.random(n) < 0.2 + 0.5 * big.s
    df = frame(n=30_000)
    before = calls(df)
    limit_address_space(2 << 30)
    t0 = time.perf_counter()
    try:
        prn.bootstrap(big, score="s", label="y", by="g", n_boot=10**6,
                      return_replicates=True, seed=1)
        err = None
    except MemoryError as exc:
        err = [type(exc).__name__, str(exc)]
    took = time.perf_counter() - t0
    say({"err": err, "took": took, "same": calls(df) == before})
    """
    )
    res = _child(code, timeout=120)
    assert res["err"] is not None
    name, msg = res["err"]
    assert name == "NotEnoughMemory"
    for part in ("2,000 curves x 1,000,000 replicates", "80.0 GB", "RLIMIT_AS", "n_boot="):
        assert part in msg
    assert "return_replicates=False" in msg
    assert res["took"] < 5.0  # before any replicate is drawn
    assert res["same"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc: Linux")
def test_curves_and_bands_that_cannot_fit_are_refused():
    """roc_curve / confusion of 4 million rows on a machine with 100 MB free (the limit
    simulated: their sweep alone needs 128 MB) are refused before the sort starts; and
    bootstrap_curve bands of 2,000 curves x 10^5 replicates x 101 recalls under a real
    150 MB address-space headroom. Each message names the size and the fixes
    (thresholds=, fewer replicates, a coarser grid); small calls still answer.
    """
    code = _LIMIT + textwrap.dedent(
        """
    from prroc_numba._core import memory as _memory, sweep as _sweep
    n = 4_000_000
    big = pd.DataFrame({"s": np.arange(n, dtype=float), "y": np.arange(n) % 3 == 0})
    rng = np.random.default_rng(0)
    groups = pd.DataFrame({"g": rng.integers(0, 2000, 20_000), "s": rng.random(20_000)})
    groups["y"] = rng.random(20_000) < 0.5
    small = frame(n=2000)
    want = dump(prn.roc_curve(small, score="a", label="y"))

    def attempt(call):
        try:
            call()
        except MemoryError as exc:
            return str(exc)

    real, sort = _memory.available_bytes, _sweep.split_sorted
    _memory.available_bytes = lambda: (100_000_000, "test")
    def no_sort(batch):
        raise AssertionError("the sort started")
    _sweep.split_sorted = no_sort
    errs = {
        "roc_curve": attempt(lambda: prn.roc_curve(big, score="s", label="y")),
        "confusion": attempt(lambda: prn.confusion(big, score="s", label="y")),
    }
    _memory.available_bytes, _sweep.split_sorted = real, sort
    limit_address_space(150 << 20)
    errs["bands"] = attempt(lambda: prn.bootstrap_curve(groups, score="s", label="y", by="g",
                                                        n_boot=10**5, seed=0))
    got = dump(prn.roc_curve(small, score="a", label="y"))
    say({"errs": errs, "same": got == want})
    """
    )
    res = _child(code, timeout=120)
    for name in ("roc_curve", "confusion"):
        msg = res["errs"][name]
        assert msg is not None and "4,000,000 scores" in msg and "thresholds=" in msg
        assert "128.0 MB" in msg and "100.0 MB" in msg
    bands = res["errs"]["bands"]
    assert bands is not None and "x 101 grid points" in bands and "coarser grid" in bands
    assert "RLIMIT_AS" in bands
    assert res["same"]


def test_available_memory_sees_the_address_space_limit():
    """``_memory.available_bytes`` counts the RLIMIT_AS headroom (the limit minus the
    address space already mapped).
    """
    if not sys.platform.startswith("linux"):
        pytest.skip("RLIMIT_AS and /proc: Linux")
    code = _LIMIT + textwrap.dedent(
        """
    from prroc_numba._core import memory as _memory
    limit_address_space(1 << 30)
    avail, why = _memory.available_bytes()
    say({"avail": avail, "why": why, "as": _memory._address_space_headroom()})
    """
    )
    res = _child(code, timeout=60)
    assert (1 << 30) - (64 << 20) < res["as"] <= 1 << 30
    assert res["avail"] <= res["as"]


@pytest.mark.parametrize("version", [1, 2])
def test_cgroup_limit_counts_page_cache_as_free(tmp_path, monkeypatch, version):
    """A container's memory limit minus its usage, the page cache counted as free (the
    kernel drops it under pressure), read from cgroup v2 or v1 files.
    """
    from prroc_numba._core import memory as _memory

    proc = tmp_path / "cgroup"
    root = tmp_path / "sys"
    if version == 2:
        proc.write_text("0::/box/job\n")
        d = root / "box" / "job"
        d.mkdir(parents=True)
        (d / "memory.max").write_text("4000000000\n")
        (d / "memory.current").write_text("3000000000\n")
        (d / "memory.stat").write_text("anon 1000000000\nfile 1500000000\n")
    else:
        proc.write_text("4:memory:/box\n0::/\n")
        d = root / "memory"
        d.mkdir(parents=True)
        (d / "memory.limit_in_bytes").write_text("4000000000\n")
        (d / "memory.usage_in_bytes").write_text("3000000000\n")
        (d / "memory.stat").write_text("cache 1500000000\nrss 1000000000\n")
    monkeypatch.setattr(_memory, "_PROC_CGROUP", str(proc))
    monkeypatch.setattr(_memory, "_CGROUP", str(root))
    assert _memory._cgroup_headroom() == 4_000_000_000 - 3_000_000_000 + 1_500_000_000
    if version == 2:
        (d / "memory.max").write_text("max\n")  # no limit
    else:
        (d / "memory.limit_in_bytes").write_text(str(1 << 62))
    assert _memory._cgroup_headroom() is None


# ------------------------------------------------------------------ Dask worker killed


@pytest.mark.slow
def test_dask_worker_killed_mid_auc_gives_the_in_memory_result(tmp_path):
    """A worker SIGKILLed while ``auc(dask_frame)`` runs (24 partitions, each slow to
    make): the nanny restarts it, the scheduler reruns its tasks, and the result
    equals the in-memory one exactly.
    """
    code = f"""
    import signal, threading
    import dask, dask.dataframe as dd
    from distributed import Client, LocalCluster

    def part(i):
        time.sleep(0.15)  # slow enough that the kill lands mid-computation
        rng = np.random.default_rng(i)
        y = rng.random(20_000) < 0.3
        return pd.DataFrame({{"g": rng.integers(0, 3, 20_000), "y": y,
                             "a": y + rng.normal(size=20_000)}})

    if __name__ == "__main__":
        whole = pd.concat([part(i) for i in range(24)], ignore_index=True)
        want = prn.auc(whole, score="a", label="y", by="g")
        with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                          dashboard_address=":0", local_directory={str(tmp_path)!r}) as cl, \\
                Client(cl) as client:
            meta = part(0).iloc[:0]
            ddf = dd.from_delayed([dask.delayed(part)(i) for i in range(24)], meta=meta,
                                  verify_meta=False)
            pids = client.run(os.getpid)
            victim = sorted(pids.values())[0]
            state = {{}}
            def kill():
                time.sleep(1.0)
                state["killed_before_end"] = "end" not in state
                os.kill(victim, signal.SIGKILL)
            threading.Thread(target=kill, daemon=True).start()
            got = prn.auc(ddf, score="a", label="y", by="g")
            if hasattr(got, "compute"):
                got = got.compute()
            state["end"] = True
            got = got.reset_index(drop=True)
            after = client.run(os.getpid)
        say({{"killed_mid": state.get("killed_before_end"),
             "restarted": victim not in after.values(),
             "exact": got.equals(want),
             "close": bool(np.allclose(got.auc, want.auc, rtol=0, atol=1e-12))}})
    """
    res = _child(code, timeout=240)
    assert res["killed_mid"] and res["restarted"]
    assert res["close"]
    assert res["exact"]


# ------------------------------------------------------------- pickled Accumulator


def test_accumulator_pickled_mid_stream_equals_one_call():
    """Half the rows, a pickle round trip (a checkpoint, a move between workers), the
    other half: the same AUCs and curves as one call on all rows.
    """
    code = """
    import pickle
    df = frame(n=40_000)
    acc = prn.Accumulator()
    for i in range(0, 20_000, 5_000):
        acc.update(df.iloc[i:i + 5_000], score=["a", "b"], label="y", by="g")
    acc = pickle.loads(pickle.dumps(acc))
    for i in range(20_000, 40_000, 5_000):
        acc.update(df.iloc[i:i + 5_000], score=["a", "b"], label="y", by="g")
    out = {}
    for curve in ("pr", "roc"):
        got = acc.auc(curve=curve).reset_index(drop=True)
        want = prn.auc(df, score=["a", "b"], label="y", by="g", curve=curve)
        out[curve] = bool(got.equals(want))
    got = acc.roc_curve().reset_index(drop=True)
    out["roc_curve"] = bool(got.equals(prn.roc_curve(df, score=["a", "b"], label="y", by="g")))
    say(out)
    """
    assert _child(code, timeout=120) == {"pr": True, "roc": True, "roc_curve": True}


# ------------------------------------------------ read-only and memory-mapped inputs


def test_memory_mapped_read_only_arrays_give_the_frames_answers(tmp_path):
    """``np.load(mmap_mode="r")`` arrays (read-only, file-backed) as score, label, by
    and weight: every result equals the one on the frame.
    """
    code = f"""
    df = frame(n=30_000)
    df["w"] = np.random.default_rng(1).integers(1, 4, len(df)).astype(float)
    d = {str(tmp_path)!r}
    for c in ("a", "y", "g", "w"):
        np.save(os.path.join(d, c + ".npy"), df[c].to_numpy())
    mm = {{c: np.load(os.path.join(d, c + ".npy"), mmap_mode="r") for c in "ayg"}}
    mm["w"] = np.load(os.path.join(d, "w.npy"), mmap_mode="r")
    assert not any(a.flags.writeable for a in mm.values())
    same = {{}}
    for name, fn, kw in [
        ("auc", prn.auc, {{}}),
        ("auc_roc_hull", prn.auc, {{"curve": "roc", "hull": True}}),
        ("bootstrap", prn.bootstrap, {{"n_boot": 50, "seed": 2}}),
        ("bootstrap_curve", prn.bootstrap_curve, {{"n_boot": 20, "seed": 2, "grid": 11}}),
        ("roc_curve", prn.roc_curve, {{}}),
        ("confusion", prn.confusion, {{"thresholds": [0.0, 0.5, 1.0]}}),
        ("metrics", prn.metrics, {{}}),
    ]:
        want = fn(df, score="a", label="y", by="g", weight="w", **kw)
        got = fn(score=mm["a"], label=mm["y"], by=mm["g"], weight=mm["w"], **kw)
        want = want.drop(columns="g").reset_index(drop=True)
        got = got.drop(columns=[c for c in got.columns if c not in want.columns])
        same[name] = bool(got.reset_index(drop=True).equals(want))
    say(same)
    """
    res = _child(code, timeout=180)
    assert res == dict.fromkeys(res, True) and len(res) == 7


def test_inputs_are_never_modified():
    """Every public function leaves its data frame and arrays as they were (values,
    dtypes, index, column order), checked on copies taken before the calls; read-only
    arrays (``writeable=False``) would raise on any write.
    """
    rng = np.random.default_rng(5)
    n = 3000
    y = rng.random(n) < 0.3
    df = pd.DataFrame(
        {
            "g": rng.choice(["u", "v"], n),
            "y": y,
            "a": np.round(y + rng.normal(size=n), 1),
            "b": y * 0.5 + rng.normal(size=n),
            "w": rng.integers(0, 3, n).astype(float),
        },
        index=rng.permutation(n) + 10,  # an unsorted, offset index
    )
    before = df.copy(deep=True)
    arrays = {c: df[c].to_numpy().copy() for c in ("a", "y", "w")}
    for a in arrays.values():
        a.flags.writeable = False
    two = np.stack([arrays["a"], arrays["a"] ** 2], axis=1)  # a 2-D score: two models
    two.flags.writeable = False
    arrays["two"] = two
    kept = {c: a.copy() for c, a in arrays.items()}
    wide = {"score": ["a", "b"], "label": "y", "by": "g", "weight": "w"}
    for fn, kw in [
        (prn.auc, {}),
        (prn.auc, {"curve": "roc", "hull": True}),
        (prn.metrics, {}),
        (prn.bootstrap, {"n_boot": 30, "seed": 0}),
        (prn.bootstrap_curve, {"n_boot": 10, "seed": 0, "grid": 5}),
        (prn.compare, {"n_boot": 30, "seed": 0}),
        (prn.delong, {}),
        (prn.roc_curve, {}),
        (prn.pr_curve, {}),
        (prn.confusion, {}),
        (prn.operating_points, {}),
        (prn.auc_ci, {}),
    ]:
        if fn is prn.delong:  # unweighted only
            fn(df, **{k: v for k, v in wide.items() if k != "weight"}, **kw)
            fn(score=two, label=arrays["y"], **kw)
        else:
            fn(df, **wide, **kw)
            fn(score=two, label=arrays["y"], weight=arrays["w"], **kw)
        if fn not in (prn.compare, prn.delong):  # these need several models
            fn(score=arrays["a"], label=arrays["y"], weight=arrays["w"], **kw)
        pd.testing.assert_frame_equal(df, before, check_exact=True)
        for c in arrays:
            np.testing.assert_array_equal(arrays[c], kept[c])
    acc = prn.Accumulator().update(df, **wide)
    acc.auc()
    pd.testing.assert_frame_equal(df, before, check_exact=True)


# ------------------------------------------------------------------------- the CLI


def _cli(args, cwd, timeout=120):
    try:
        return subprocess.run(
            [sys.executable, "-m", "prroc_numba", *args],
            cwd=cwd,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"prroc-numba {' '.join(args)} hung")


@pytest.fixture
def preds(tmp_path):
    rng = np.random.default_rng(0)
    y = rng.random(400) < 0.3
    df = pd.DataFrame({"y": y, "m1": y + rng.normal(size=400), "m2": rng.normal(size=400)})
    path = tmp_path / "preds.csv"
    df.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("how", ["same", "relative", "dotdot", "symlink", "hardlink"])
def test_cli_refuses_out_equal_to_the_input(preds, how):
    """``--out`` naming the input (however spelled: relative, through ``..``, a symbolic
    or hard link) is refused before anything is computed; the input is left untouched.
    """
    d = preds.parent
    (d / "sub").mkdir()
    data, out = str(preds), str(preds)
    if how == "relative":
        out = "preds.csv"
    elif how == "dotdot":
        out = str(d / "sub" / ".." / "preds.csv")
    elif how == "symlink":
        (d / "link.csv").symlink_to(preds)
        data = str(d / "link.csv")
    elif how == "hardlink":
        os.link(preds, d / "hard.csv")
        out = str(d / "hard.csv")
    raw = preds.read_bytes()
    res = _cli(["bootstrap", data, "--label", "y", "--score", "m1", "m2", "--n-boot", "50",
                "--out", out], cwd=d)  # fmt: skip
    assert res.returncode == 2
    assert "is the input file" in res.stderr and "--out" in res.stderr
    assert preds.read_bytes() == raw


def test_cli_out_is_written_whole_and_replaces_atomically(preds):
    """A new ``--out`` and a replaced one hold the full table (equal to the library's
    result), keep the replaced file's permissions, and leave no temporary file behind.
    """
    d = preds.parent
    out = d / "ci.csv"
    args = ["auc", str(preds), "--label", "y", "--score", "m1", "m2", "--out", str(out)]
    assert _cli(args, cwd=d).returncode == 0
    out.write_text("old\n")
    out.chmod(0o640)
    assert _cli(args, cwd=d).returncode == 0
    got = pd.read_csv(out)
    want = prn.auc(pd.read_csv(preds), score=["m1", "m2"], label="y")
    pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=0, atol=1e-15)
    assert out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in d.iterdir()) == ["ci.csv", "preds.csv"]


@pytest.mark.parametrize("fault", ["interrupt", "disk_full"])
def test_cli_failed_write_leaves_the_old_out_whole(preds, fault):
    """Ctrl-C or a full disk half-way through writing ``--out``: the previous file is
    left whole (not half a table) and no temporary file stays behind.
    """
    d = preds.parent
    out = d / "ci.csv"
    out.write_text("a previous result\n")
    exc = "KeyboardInterrupt()" if fault == "interrupt" else "OSError(28, 'No space left')"
    code = f"""
    import io
    from prroc_numba.cli import main
    orig = pd.DataFrame.to_csv
    def half(self, path_or_buf=None, **kw):
        text = orig(self, None, **kw)
        if isinstance(path_or_buf, (str, os.PathLike)):
            with open(path_or_buf, "w") as fh:
                fh.write(text[: len(text) // 2])
        else:
            path_or_buf.write(text[: len(text) // 2])
            path_or_buf.flush()
        raise {exc}
    pd.DataFrame.to_csv = half
    rc = main(["auc", {str(preds)!r}, "--label", "y", "--score", "m1", "--out", {str(out)!r}])
    say({{"rc": rc}})
    """
    res = _child(code, timeout=120)
    assert res["rc"] == (130 if fault == "interrupt" else 2)
    assert out.read_text() == "a previous result\n"
    assert sorted(p.name for p in d.iterdir()) == ["ci.csv", "preds.csv"]
