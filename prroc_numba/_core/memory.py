"""Refuse, before any work, a request whose arrays cannot fit in the memory there is.

A bootstrap with return_replicates=True over thousands of groups and a million
replicates asks for tens of GB; without a check the first allocation that fails raises
somewhere deep inside (or, with Linux overcommit, the kernel kills the process when the
pages are touched). :func:`check` compares the bytes a call is about to allocate with
:func:`available_bytes` and raises :class:`NotEnoughMemory` (a ``MemoryError``) naming
the size and how to shrink it. Only sizes that will surely be allocated are counted, so
a request that fits is never refused.
"""

from __future__ import annotations

import os
import sys

_CGROUP = "/sys/fs/cgroup"
_PROC_CGROUP = "/proc/self/cgroup"
#: requests below this many bytes are not checked (reading the limits costs more)
SMALL = 1 << 26


class NotEnoughMemory(MemoryError):
    """A request whose output cannot fit in the available memory (raised before any
    work; a ``MemoryError``, so ``except MemoryError`` catches it).
    """


def _meminfo() -> dict:
    out = {}
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                name, _, rest = line.partition(":")
                out[name] = int(rest.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return out


def _read_int(path: str) -> int | None:
    try:
        with open(path) as fh:
            text = fh.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _stat_value(path: str, *names: str) -> int:
    """The first of ``names`` found in a cgroup ``memory.stat`` file (0 when none)."""
    try:
        with open(path) as fh:
            stats = dict(line.split()[:2] for line in fh if len(line.split()) >= 2)
    except (OSError, ValueError):
        return 0
    for name in names:
        if stats.get(name, "").isdigit():
            return int(stats[name])
    return 0


def _cgroup_headroom() -> int | None:
    """Limit minus usage (page cache counted as free) of this process's cgroup."""
    try:
        with open(_PROC_CGROUP) as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    for line in lines:  # cgroup v2: "0::/path"
        if line.startswith("0::"):
            d = os.path.join(_CGROUP, line[3:].lstrip("/"))
            limit = _read_int(os.path.join(d, "memory.max"))
            used = _read_int(os.path.join(d, "memory.current"))
            if limit is not None and used is not None:
                cache = _stat_value(os.path.join(d, "memory.stat"), "file")
                return limit - used + cache
    d = os.path.join(_CGROUP, "memory")  # cgroup v1
    limit = _read_int(os.path.join(d, "memory.limit_in_bytes"))
    used = _read_int(os.path.join(d, "memory.usage_in_bytes"))
    if limit is None or used is None or limit >= 1 << 60:  # "no limit" is a huge number
        return None
    cache = _stat_value(os.path.join(d, "memory.stat"), "total_cache", "cache")
    return limit - used + cache


def _address_space_headroom() -> int | None:
    """RLIMIT_AS (soft) minus the address space this process already maps."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    mapped = 0
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    mapped = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return soft - mapped


def _physical_headroom() -> int | None:
    info = _meminfo()
    if "MemAvailable" in info:
        return info["MemAvailable"] + info.get("SwapFree", 0)
    try:
        import psutil
    except ImportError:
        pass
    else:
        return int(psutil.virtual_memory().available + psutil.swap_memory().free)
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def available_bytes() -> tuple[int | None, str]:
    """``(bytes, what limits them)``: the smallest headroom of the address-space limit
    (RLIMIT_AS), the cgroup (container) limit and the physical memory plus free swap;
    ``(None, "")`` when none is known.
    """
    found = [
        (_address_space_headroom(), "the address-space limit (ulimit -v / RLIMIT_AS)"),
        (_cgroup_headroom() if sys.platform.startswith("linux") else None, "the cgroup limit"),
        (_physical_headroom(), "free physical memory and swap"),
    ]
    known = [(max(b, 0), why) for b, why in found if b is not None]
    if not known:
        return None, ""
    return min(known, key=lambda t: t[0])


def _size(n: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if n < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"  # pragma: no cover


def check(needed: float, what: str, shrink: str) -> None:
    """Raise :class:`NotEnoughMemory` when ``needed`` bytes exceed the available memory.

    ``what``: the call and the arrays it needs (e.g. "bootstrap: 2,000 curves x
    1,000,000 replicates"); ``shrink``: how to ask for less.
    """
    if needed < SMALL:
        return
    avail, why = available_bytes()
    if avail is None or needed <= avail:
        return
    raise NotEnoughMemory(
        f"{what} needs about {_size(needed)} of memory, but about {_size(avail)} is "
        f"available ({why}); nothing was computed. To shrink it: {shrink}"
    )
