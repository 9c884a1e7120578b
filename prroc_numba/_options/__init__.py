"""Every option of a public call, as typed frozen objects built once at the public
door and checked once, then handed on; each step reads the fields it uses by name.

One object per family:

* :class:`prroc_numba._core.inputs.Inputs` -- the rows, scores and labels (in the core,
  beside the packer that reads it);
* :class:`.estimator.Estimator` -- which area (``curve``, ``method``, ``hull``, the
  partial range);
* :class:`.draws.Resampling` -- the bootstrap (``n_boot``, ``level``, ``interval``,
  ``stratified``, ``seed``, ``cluster``, ``resampling``, ``fold``, ``row_id``, ...);
* :class:`.bands.Bands` -- the bands of :func:`~prroc_numba.bootstrap_curve`;
* :class:`.pairs.Comparison` -- the test of :func:`~prroc_numba.compare`.

The checks of a whole call live beside its family (:mod:`.replicates`,
:mod:`.bands`, :mod:`.pairs`); the choices and the shared checks in :mod:`.choices`.
"""
