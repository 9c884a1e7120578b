"""Numba kernels on plain contiguous arrays (no pandas, no Python objects).

Compiled code only: every function here is a Numba dispatcher, a CUDA kernel or a
helper compiled into one (``tests/test_kernel_boundary.py``). The thread pool and the
plain-Python drivers that run these kernels over a whole batch live in
:mod:`prroc_numba._drivers`.

Layout shared by every kernel (CSR-like "ragged batch"):

* ``values[offsets[c]:offsets[c + 1]]`` holds curve ``c``'s scores (float64),
  ``offsets`` is int64 of length ``n_curves + 1``;
* ``pos`` / ``neg`` (float64) hold each row's positive and negative mass
  (``weight * label`` and ``weight * (1 - label)``); curve ``c``'s row ``i`` reads
  ``pos[label_start[c] + i]``. For long input ``label_start = offsets[:-1]``; for wide
  input (several models scored on the same rows) every model of a group shares the
  group's label rows, so ``label_start`` repeats.
* Per-curve outputs are ragged too, sized by a counting pass before they are filled;
  ``prange`` runs over curves (or replicates) and each iteration writes its own slice.

Modules:

* :mod:`.layout` -- offsets of a ragged output from its counting pass;
* :mod:`.sort` -- stable descending argsort (LSD radix) of one curve's scores;
* :mod:`.sweep` -- cumulative TP/FP at every distinct score (the confusion sweep);
* :mod:`.hull` -- upper convex hull of ROC points (one curve, or a ragged sweep);
* :mod:`.densify` -- points on the correctly interpolated PR curve between vertices
  (the paper's integer-TP points, or the exact curve), and precision with the flat
  start at recall 0;
* :mod:`.thresholds` -- TP/FP of every curve at given thresholds;
* :mod:`.area` -- AUC estimators on one curve's (tp, fp) vertices, and the fused
  sort + sweep + area kernels;
* :mod:`.grid` -- curves onto shared grids (precision at recall, count-interpolated;
  TPR at FPR), batched over curves, and the packing of curves given as points;
* :mod:`.rng` -- counter-based random streams per (seed, group, replicate) and an exact
  binomial sampler;
* :mod:`.resample` -- bootstrap replicates as count vectors over each curve's sorted
  segments (grouped and paired draws), fused with the sweep and the estimators;
* :mod:`.resample_blocks` -- paired replicates in blocks of eight: one pass over a
  model's sorted rows counts eight replicates at once (hard 0/1 labels);
* :mod:`.delong` -- DeLong placement values from the sorted order;
* :mod:`.partial` -- partial areas (an FPR / TPR / recall range) on one curve's vertices;
* :mod:`.operating` -- the best vertex per curve and operating-point target, and the
  bootstrap counts at chosen (or re-chosen) thresholds.
"""
