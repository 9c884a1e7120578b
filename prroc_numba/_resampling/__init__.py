"""The bootstrap engine: design -> plan -> run -> intervals.

* :mod:`.design`: what a replicate draws (rows, clusters, multiclass rows, strata);
* :mod:`.plan`: every curve sorted once and laid out for the replicate kernels;
* :mod:`.run`: the one replicate driver (areas, grids, partial areas, folds,
  operating points, the jackknife), in chunks;
* :mod:`.engine`: one in-memory run of a call (plan, estimate, replicates);
* :mod:`.intervals`: percentile, basic and BCa intervals, bands, paired differences;
* :mod:`.paired`: DeLong's covariance and Venkatraman's permutations;
* :mod:`.folds`: the tidy layout of ``fold=`` results.
"""
