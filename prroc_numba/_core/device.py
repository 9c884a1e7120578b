"""Which device runs a call, GPU arrays in, and the CUDA backend loaded on demand.

``import prroc_numba`` never imports ``numba.cuda``: :func:`backend` imports
:mod:`prroc_numba._drivers.cuda` the first time ``device="cuda"`` is used.

Arrays on a GPU are recognised without importing their libraries: CuPy arrays, PyTorch
CUDA tensors, Numba device arrays and anything with ``__cuda_array_interface__`` or a
DLPack device of type CUDA. Validation and packing run on the host (the checks and the
group keys are pandas/numpy work), so such arrays are copied to the host once; the sort
and everything after it run on the device.
"""

from __future__ import annotations

DEVICES = ("cpu", "cuda")
_DLPACK_CUDA = (2, 3, 13)  # kDLCUDA, kDLCUDAHost, kDLCUDAManaged

INSTALL = (
    "pip install 'prroc-numba[cuda]' (numba-cuda; CuPy is optional and sorts on "
    "the device when present)"
)


def is_gpu_array(x) -> bool:
    """True for an array that lives on a CUDA device (no GPU library is imported)."""
    if x is None or isinstance(x, (str, list, tuple, dict)):
        return False
    try:
        if hasattr(x, "__cuda_array_interface__"):
            return True
    except Exception:  # noqa: BLE001 -- e.g. a CPU tensor raising inside the property
        return False
    mod = type(x).__module__ or ""
    if mod.startswith("numba.cuda") and hasattr(x, "copy_to_host"):
        return True  # Numba device arrays, including the simulator's
    dev = getattr(x, "__dlpack_device__", None)
    if dev is not None:
        try:
            return int(dev()[0]) in _DLPACK_CUDA
        except Exception:  # noqa: BLE001 -- a foreign object's protocol failing: not ours
            return False
    return False


def to_host(x):
    """A numpy copy of the GPU array ``x``."""
    import numpy as np

    mod = type(x).__module__ or ""
    if mod.startswith("cupy"):
        return x.get()
    if mod.startswith("torch"):
        return x.detach().cpu().numpy()
    if hasattr(x, "copy_to_host"):
        return x.copy_to_host()
    if hasattr(x, "__cuda_array_interface__"):
        return backend_numba_cuda().as_cuda_array(x).copy_to_host()
    try:
        import cupy
    except ImportError:
        raise TypeError(
            f"{type(x).__name__} is a DLPack array on a CUDA device; reading it needs CuPy "
            "(pip install cupy-cuda12x) or pass a CuPy array / PyTorch tensor"
        ) from None
    return np.asarray(cupy.from_dlpack(x).get())


def backend_numba_cuda():
    try:
        from numba import cuda
    except ImportError:
        raise ImportError(f"device='cuda' needs numba-cuda: {INSTALL}") from None
    return cuda


def backend():
    """The CUDA backend module; a clear error when numba-cuda or a GPU is missing."""
    cuda = backend_numba_cuda()
    if not cuda.is_available():
        raise RuntimeError(
            "device='cuda' but no usable CUDA GPU was found (numba.cuda.is_available() is "
            "False: no GPU, no driver, or numba-cuda without its CUDA libraries; "
            f"{INSTALL}). Use device='cpu', or set NUMBA_ENABLE_CUDASIM=1 to run the CUDA "
            "kernels in Numba's simulator (slow; meant for tests)"
        )
    from .._drivers import cuda as kernels

    return kernels


def prepare(device, score, label, weight=None, by=None):
    """Resolve ``device`` and bring GPU arrays among the inputs to the host.

    ``device=None`` picks "cuda" when any of ``score``, ``label``, ``weight`` is a GPU
    array, else "cpu". Returns ``(device, score, label, weight, by)``.
    """
    if device is not None and device not in DEVICES:
        raise ValueError(
            f"device={device!r} is not known; use 'cpu' or 'cuda' (or None: "
            "'cuda' when the arrays are on a GPU)"
        )
    args = [score, label, weight, by]
    on_gpu = [is_gpu_array(a) for a in args]
    if device is None:
        device = "cuda" if any(on_gpu[:3]) else "cpu"
    if device == "cuda":
        backend()  # fail early and clearly
    args = [to_host(a) if g else a for a, g in zip(args, on_gpu)]
    return (device, *args)


def tag(frame, device):
    """Record the device that ran the call in ``frame.attrs["device"]``."""
    frame.attrs["device"] = device
    return frame
