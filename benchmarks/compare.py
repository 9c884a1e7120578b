"""One table of speed ratios: prroc_numba vs what users run today, in the same run.

    python benchmarks/compare.py            # full compact grid (a few minutes on 2 cores)
    python benchmarks/compare.py --quick    # 10x smaller inputs, a smoke test
    python benchmarks/compare.py --only curves auc --no-cold-start
    python benchmarks/compare.py --only interpolation --match 1,001 --repeats 7 --no-cold-start

For every capability (curves, auc, hull, interpolation, bootstrap, compare) each case
times our call and its peer (a scikit-learn loop; for interpolation a per-curve numpy
loop) on the same input in this process: one warm-up call first (Numba compilation and
first-call overheads are excluded), then the minimum of a few repeats with the garbage
collector off (as ``timeit`` does). ``speed-up`` is peer time / our time. Every row
with scores also reads against the floor of this machine: ``ours / np.sort`` is our
time divided by ``np.sort`` of the same scores (keys only, each curve sorted), ``ours /
one pass`` our time divided by one ``np.sum`` over them (memory bandwidth). For the
curves, ``vs argsort`` is one call divided by ``np.argsort`` of the same scores.
Cold start (fresh processes, empty and warm Numba cache) comes
from ``cold_start.py``.

Writes ``benchmarks/results/latest.json`` (all figures) and
``benchmarks/results/latest.md`` (the table, with the machine and the command).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import _cases  # noqa: E402
import cold_start  # noqa: E402
import numpy as np  # noqa: E402


def best_time(fn, repeats, warmup=None):
    """Minimum wall time of ``repeats`` calls after one warm-up call, gc off."""
    (warmup or fn)()
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        times = []
        for _ in range(max(repeats, 1)):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    finally:
        if was:
            gc.enable()
    return min(times)


def machine() -> dict:
    import numba
    import pandas
    import sklearn

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    mem = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 2**20:.0f} GiB"
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores_usable": usable,
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "memory": mem,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pandas": pandas.__version__,
        "scikit-learn": sklearn.__version__,
        "load_avg_at_start": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def _ms(t):
    return f"{t * 1e3:,.1f} ms" if t < 10 else f"{t:,.1f} s"


def run(capabilities, scale, log=print, match=None, repeats=None):
    """Time every case of ``capabilities`` (those whose name contains ``match``);
    ``repeats`` overrides each case's number of repeats (ours and the peer's)."""
    rows = []
    for cap in capabilities:
        for case in _cases.CAPABILITIES[cap](scale):
            if match is not None and match not in case.name:
                continue
            if repeats is not None:
                case.repeats = case.peer_repeats = repeats
            if case.check is not None:
                case.check()  # ours and the peer agree on this input (raises otherwise)
            t_ours = best_time(case.ours, case.repeats)
            t_peer = (
                best_time(case.peer, case.peer_repeats or case.repeats, case.peer_warmup)
                * case.peer_scale
            )
            if case.peer_fixed is not None:
                t_peer += best_time(case.peer_fixed, case.peer_repeats or case.repeats)
            row = {
                "capability": cap,
                "case": case.name,
                "ours_s": t_ours,
                "peer_s": t_peer,
                "peer": case.peer_name,
                "speedup": t_peer / t_ours,
                "note": case.note,
                "target": case.target,
                "floor_target": case.extra.get("floor_target"),
            }
            if case.scores is not None:
                sc = case.scores
                if case.sort_floor:
                    row["sort_s"] = best_time(lambda sc=sc: np.sort(sc, axis=-1), case.repeats)
                    row["vs_sort"] = t_ours / row["sort_s"]
                    row["sort_target"] = case.sort_target
                row["pass_s"] = best_time(lambda sc=sc: sc.sum(), case.repeats)
                row["vs_pass"] = t_ours / row["pass_s"]
            if case.floor is not None:
                t_floor = best_time(case.floor, case.repeats)
                row["argsort_s"] = t_floor
                single = case.extra.get("single_call")
                t_single = best_time(single, case.repeats) if single else t_ours / 2
                row["one_call_s"] = t_single
                row["vs_argsort"] = t_single / t_floor
            rows.append(row)
            extra = f", one call / argsort {row['vs_argsort']:.2f}" if "vs_argsort" in row else ""
            if "vs_sort" in row:
                extra += f", ours / np.sort {row['vs_sort']:.2f}"
            if "vs_pass" in row:
                extra += f", ours / one pass {row['vs_pass']:.0f}"
            log(
                f"{cap:14s} {case.name:45s} ours {_ms(t_ours):>11s}  peer {_ms(t_peer):>11s}"
                f"  speed-up {row['speedup']:7.1f}x{extra}"
            )
    return rows


def _target_text(r):
    parts = []
    if r.get("target"):
        ok = r["speedup"] >= r["target"]
        parts.append(f"speed-up >= {r['target']:g}x: {'met' if ok else 'NOT met'}")
    if r.get("sort_target") and "vs_sort" in r:
        ok = r["vs_sort"] <= r["sort_target"]
        parts.append(f"<= {r['sort_target']:g}x np.sort: {'met' if ok else 'NOT met'}")
    if r.get("floor_target") and "vs_argsort" in r:
        ok = r["vs_argsort"] <= r["floor_target"]
        parts.append(f"<= {r['floor_target']:g}x argsort: {'met' if ok else 'NOT met'}")
    return "; ".join(parts)


def _busy_warning(load, cores):
    """A line warning that the figures are unreliable when other work shared the CPU."""
    if not load or not cores or load[0] <= 0.5 * cores:
        return []
    return [
        "",
        (
            f"**Warning: the machine was busy (1-minute load average {load[0]:.1f} on "
            f"{cores} cores) -- the figures below are noisy; re-run on a quiet "
            "machine.**"
        ),
    ]


def markdown(result) -> str:
    m = result["machine"]
    lines = [
        f"Command: `{result['command']}`  ",
        f"Run: {result['date']}  ",
        (
            f"Machine: {m['cpu']}, {m['cores_usable']} usable cores (Numba threads: "
            f"{m['numba_threads']}), {m['memory']} RAM, {m['os']}; Python {m['python']}, "
            f"numpy {m['numpy']}, numba {m['numba']}, pandas {m['pandas']}, "
            f"scikit-learn {m['scikit-learn']}; load average at start "
            f"{', '.join(f'{x:.2f}' for x in m['load_avg_at_start'] or [])}."
        ),
        *(_busy_warning(m["load_avg_at_start"], m["cores_usable"])),
        "",
        (
            "Times are the minimum of a few repeats after a warm-up call; *speed-up* = peer "
            "time / our time, both measured in this run on the same input. The floor: "
            "*ours / np.sort* is our time divided by `np.sort` of the same scores (keys "
            "only, each curve's row sorted; what any exact method must at least do), *ours "
            "/ one pass* our time divided by one `np.sum` over them (memory bandwidth). "
            "*one call vs argsort*: one `pr_curve` call divided by `np.argsort` of the same "
            "scores."
        ),
        "",
        (
            "| capability | case | prroc_numba | peer | speed-up | ours / np.sort | "
            "ours / one pass | one call vs argsort | target | peer |"
        ),
        "|---|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in result["rows"]:
        floor = f"{r['vs_argsort']:.2f}x" if "vs_argsort" in r else ""
        vs_sort = f"{r['vs_sort']:.2f}x" if "vs_sort" in r else ""
        vs_pass = f"{r['vs_pass']:,.0f}x" if "vs_pass" in r else ""
        lines.append(
            f"| {r['capability']} | {r['case']} | {_ms(r['ours_s'])} | "
            f"{_ms(r['peer_s'])} | **{r['speedup']:,.1f}x** | {vs_sort} | "
            f"{vs_pass} | {floor} | {_target_text(r)} | {r['peer']} |"
        )
    notes = sorted({(r["capability"], r["note"]) for r in result["rows"] if r["note"]})
    if notes:
        lines.append("")
        lines += [f"* {cap}: {note}" for cap, note in notes]
    if result.get("cold_start"):
        lines += [
            "",
            (
                "Cold start (fresh Python processes; `NUMBA_CACHE_DIR` set to a new "
                "temporary directory, then reused):"
            ),
            "",
            cold_start.markdown(result["cold_start"]),
        ]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10x smaller inputs (smoke test)")
    parser.add_argument(
        "--only", nargs="+", choices=list(_cases.CAPABILITIES), help="run only these capabilities"
    )
    parser.add_argument(
        "--match", help="run only the cases whose name contains this text (e.g. 1,001)"
    )
    parser.add_argument(
        "--repeats", type=int, help="repeats of every timing (min taken; more on a busy machine)"
    )
    parser.add_argument("--no-cold-start", action="store_true", help="skip the cold start")
    parser.add_argument(
        "--out", default=str(HERE / "results"), help="directory for latest.json and latest.md"
    )
    args = parser.parse_args(argv)
    caps = args.only or list(_cases.CAPABILITIES)
    scale = 0.1 if args.quick else 1.0
    command = (
        "python benchmarks/compare.py"
        + (" " + " ".join(argv if argv is not None else sys.argv[1:])).rstrip()
    )
    info = machine()
    print(
        f"prroc_numba benchmarks on {info['cpu']} ({info['cores_usable']} cores, "
        f"load {info['load_avg_at_start']})\n"
    )
    t0 = time.perf_counter()
    cold = None
    if not args.no_cold_start:
        print("cold start (fresh processes) ...", flush=True)
        cold = cold_start.measure()
        print(cold_start.markdown(cold) + "\n", flush=True)
    rows = run(
        caps, scale, log=lambda s: print(s, flush=True), match=args.match, repeats=args.repeats
    )
    result = {
        "command": command.strip(),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": info,
        "scale": scale,
        "rows": rows,
        "cold_start": cold,
        "total_s": time.perf_counter() - t0,
    }
    result["load_avg_at_end"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    md = markdown(result)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "latest.json").write_text(json.dumps(result, indent=1, default=float))
    (out / "latest.md").write_text(md)
    print("\n" + md)
    print(f"wrote {out / 'latest.json'} and {out / 'latest.md'} ({result['total_s']:.0f} s in all)")
    return result


if __name__ == "__main__":
    main()
