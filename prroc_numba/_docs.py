"""Shared parameter blocks of the public docstrings, filled in by one decorator.

A public function writes ``{name}`` alone on a line of its docstring (indented four
spaces) where a block below belongs; :func:`fill_doc` puts the block there. Blocks hold
no placeholders and docstrings need no brace escaping.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ._resampling.design import DOC as CLUSTER  # the block lives with its code

F = TypeVar("F", bound=Callable[..., object])

DATA = """
    data : DataFrame or None, default=None
        Table holding the columns named by ``score``, ``label``, ``by`` and ``weight``;
        only those columns are read. A pandas DataFrame; a polars DataFrame or
        LazyFrame, or a pyarrow Table (converted through Arrow); a Dask DataFrame or a
        ``pyspark.sql.DataFrame`` (classic or Spark Connect), whose rows
        :func:`~prroc_numba.auc`, :func:`~prroc_numba.metrics`,
        :func:`~prroc_numba.confusion`, :func:`~prroc_numba.roc_curve`,
        :func:`~prroc_numba.pr_curve`, :func:`~prroc_numba.bootstrap`,
        :func:`~prroc_numba.compare`, :func:`~prroc_numba.operating_points` and
        :func:`~prroc_numba.disparity` reduce
        where they live (in Dask's workers, in Spark's executors) to the same frames
        as in memory -- the other functions ask for the rows in memory
        (``.compute()``, ``.toPandas()``). On Spark input the result's
        ``attrs["spark_path"]`` names the path taken (``"table"``, ``"partitions"``,
        ``"ranges"``; see the Spark page of the docs). None when arrays are passed
        directly."""

SHARED = (
    DATA
    + """
    score : str, list of str, or array-like of shape (n_samples,) or (n_samples, n_models)
        Score column; a list of columns (wide input: one model per column, output gets
        a ``model`` column); or arrays (2-D: one model per column). Higher scores mean
        "more positive"; a row is predicted positive when ``score >= threshold``.
    label : str or array-like of shape (n_samples,)
        Binary labels: 0/1, -1/1, bool, or any two values with ``pos_label=``;
        fractional values in [0, 1] only with ``soft_labels=True``.
    by : str, list of str, or array-like, default=None
        Grouping column(s) (long input): one curve per group, keys in sorted order.
    weight : str or array-like of shape (n_samples,), default=None
        Non-negative sample weights. Rows of weight 0 are ignored, as in scikit-learn:
        they add no threshold, so zero weight is exactly the removal of the row.
    pos_label : scalar, default=None
        The value of ``label`` that marks a positive.
    soft_labels : bool, default=False
        Read ``label`` as P(positive) in [0, 1]: a row adds ``weight*label`` to the
        positives and ``weight*(1-label)`` to the negatives (PRROC's soft labels).
    output : {"pandas", "polars", "spark"}, default="pandas"
        The type of the frame(s) returned; ``"spark"`` (Spark input only): a Spark
        DataFrame of the same rows in the input's session, ready for ``.write``."""
)

THRESHOLDS = """
    thresholds : array-like or DataFrame, default=None
        Evaluate at exactly these thresholds instead of every distinct score (a row is
        predicted positive when ``score >= threshold``; ``+inf`` gives the origin,
        ``-inf`` every row). An array gives the same thresholds to every curve; a
        DataFrame with the key columns (``by`` columns and/or ``model``) and
        ``threshold`` gives each curve its own, e.g. the output of
        ``roc_curve(tuning, ..., hull=True)``: the paper's tuning-set method (Davis &
        Goadrich 2006, end of section 3) -- pick the hull thresholds on tuning data,
        apply them to test data. Such a frame may also hold our curve columns
        (``fpr``, ``tp``, ...); it must cover every curve of the data and no others.
        Each curve's thresholds come out in descending order; nothing is added (the
        curve ends at the lowest threshold given)."""

METHODS = """
    curve : {"pr", "roc", "prg"}, default="pr"
        ``"prg"``: the area under the Precision-Recall-Gain curve (AUPRG, Flach & Kull
        2015) for recall gains 0 to 1, trapezoids in PRG space (see
        :func:`~prroc_numba.prg_curve`); ``hull=True``: under the PRG convex hull. Binary
        input, whole areas, CPU only; ``method`` is unused.
    method : str, default=None
        For ``curve="pr"``: ``"dg"`` (default) -- Davis & Goadrich: one point per
        integer TP between vertices, trapezoids, flat start at recall 0 from the first
        point's precision (PRROC's ``auc.davis.goadrich``; equals the AUCCalculator jar
        when the top score block holds a positive -- when it holds only negatives the
        jar drops those points and we follow PRROC, starting at precision 0);
        ``"integral"`` -- the exact area under the same count-interpolated curve
        (PRROC's ``auc.integral``; exact for weights and soft labels); ``"ap"`` --
        average precision, the step sum (scikit-learn's ``average_precision_score``);
        ``"trapezoid"`` -- straight lines in PR space through scikit-learn's
        ``precision_recall_curve`` points: over-optimistic (Davis & Goadrich 2006,
        section 4), offered only to compare. For non-integer TP steps (weights, soft
        labels) ``"dg"`` takes unit TP steps and then the next vertex (PRROC has no DG
        there); prefer ``"integral"``. For ``curve="roc"``: ``"trapezoid"`` (default;
        tied scores count half, equal to the Mann-Whitney statistic).
    hull : bool, default=False
        Area under the ROC convex hull (ROC) or under the achievable PR curve (PR,
        Davis & Goadrich 2006, Corollary 3.1: the hull's vertices mapped to PR space),
        with the same estimator applied to the hull vertices (see
        :func:`~prroc_numba.roc_curve` and :func:`~prroc_numba.pr_curve` with
        ``hull=True`` for the vertices). ``method="integral"`` is then the exact area
        under the achievable curve, ``"dg"`` the paper's algorithm (hull, then integer-TP
        interpolation, then trapezoids). A top block of negatives is never a hull
        vertex, so every hull estimator starts flat at the first vertex's precision. The
        hull is picked on the data it is measured on (optimistic); for the paper's
        tuning-set method pass tuning-hull thresholds to the curve functions."""

BOOT = """
    curve : {"pr", "roc", "prg"}, default="pr"
        ``"prg"``: AUPRG (see :func:`prroc_numba.auc`), each replicate's from its own
        class totals; binary input, whole areas, CPU only.
    method : str, default=None
        AUC estimator (see :func:`prroc_numba.auc`): for PR ``"dg"`` (default),
        ``"integral"``, ``"ap"``, ``"trapezoid"``; for ROC and PRG ``"trapezoid"``.
    hull : bool, default=False
        Area under the ROC convex hull / achievable PR curve of each replicate.
    n_boot : int, default=2000
        Number of bootstrap replicates.
    level : float, default=0.95
        Confidence level of the intervals.
    stratified : bool, default=None
        None: True, except with ``resampling="poisson"`` (False). Resample positives
        and negatives separately, keeping the class counts fixed
        (pROC's default). The interval is then for the AUC at the observed prevalence:
        right for case-control data and fixed test sets. With ``stratified=False`` rows
        are resampled regardless of class, so the prevalence varies between replicates
        and the interval also carries the sampling variance of the prevalence (right
        when the prevalence itself was sampled). AUC-PR depends on the prevalence, so
        the two differ. On binormal data with a known population AUC-PR, the percentile
        interval covers about 93-95% at n = 2,000 and about 95% at n = 5,000 when the
        design matches the resampling; a stratified bootstrap of data whose prevalence
        was sampled covers less (about 92-93% in ``benchmarks/coverage_study.py``).
        Stratified resampling needs hard 0/1 labels: soft labels need
        ``stratified=False``.
    seed : int, default=None
        Seed of the counter-based random streams (one per group and replicate): the
        same seed gives the same numbers whatever the thread count or chunking. None
        draws fresh entropy.
    progress : bool, default=None
        Show a tqdm progress bar (if tqdm is installed). None: only for long runs, in a
        terminal or a Jupyter notebook. Ctrl-C stops between chunks of replicates.
    resampling : {"multinomial", "poisson"}, default=None
        ``"multinomial"`` (None in memory): n rows drawn with replacement (per class
        when stratified). ``"poisson"``: the Poisson bootstrap -- every row gets an
        independent Poisson(1) count, a pure function of (seed, replicate, the row's
        position in the input), so all models of a row get the same count (paired) and
        a Dask frame (where None means ``"poisson"``, the only choice) gives exactly the
        replicates of the same rows in memory. It is unstratified: the prevalence varies
        between replicates as with ``stratified=False``; ``stratified=True`` with it is
        an error.
    row_id : str, default=None
        Spark input only (required there for intervals): a column of unique whole row
        numbers >= 0 that keys each row's Poisson counts in place of its position (a
        Spark frame has no row order). Holding each row's position in the data set, it
        gives exactly the in-memory ``resampling="poisson"`` replicates, whatever the
        partitioning."""

POINTS = """
    points : DataFrame
        One row per curve point: columns ``tp`` and ``fp`` (e.g. the output of
        :func:`pr_curve` or :func:`roc_curve`, any ``hull``), or ``recall`` and
        ``precision``, or ``fpr`` and ``tpr``, plus the key columns. Rows may come in
        any order; each curve's points must be one ranking (FP non-decreasing in TP).
        The origin and the end point ``(P, N)`` are added to every curve.
    grid : int or array-like of shape (n_grid,)
        Ascending recalls (``space="pr"``) or FPRs (``space="roc"``) in [0, 1]; an int
        ``n`` means ``np.linspace(0, 1, n)``.
    by : str or list of str, default=None
        Key columns; one curve per distinct key (sorted key order). None: one curve.
    space : {"pr", "roc"}, default="pr"
        ``"pr"``: precision at each recall, count-interpolated (linear in ROC space,
        never linear in PR space); at recall 0 the curve's flat start (0 when the top
        block holds only negatives); at a recall shared by several points the best
        precision. ``"roc"``: TPR at each FPR, linear; at an FPR shared by several
        points the highest TPR.
    hull : bool, default=False
        Interpolate the ROC convex hull (in PR space: the achievable PR curve).
    n_pos, n_neg : float or str, default=None
        Class totals (numbers, or column names constant within each curve). Default
        with ``tp``/``fp`` columns: read from the rate columns next to them, as
        :func:`pr_curve` and :func:`roc_curve` return them -- ``P = tp / recall`` (or
        ``tp / tpr``) and ``N = fp / fpr``, checked to agree on every row of a curve.
        Without ``fpr`` (a PR frame) precision beyond a curve's last point is NaN
        (warned) unless that point is at recall 1; without ``recall``/``tpr`` the totals
        are unknown and must be given (a ValueError says so). Needed for
        ``recall``/``precision`` points (or ``pos_neg_ratio``), and for ``fpr``/``tpr``
        points except with ``space="roc"``.
    pos_neg_ratio : float or str, default=None
        ``P / N`` instead of ``n_pos`` and ``n_neg``."""

PARTIAL = """
    partial : (float, float), default=None
        Only the area over this range ``(lo, hi)``, ``0 <= lo < hi <= 1``. ROC: an FPR
        range (or a TPR range with ``partial_focus="tpr"``), under the trapezoid curve
        (or the hull). PR: a recall range, under each estimator's own curve: ``"dg"``
        and ``"integral"`` under the count-interpolated curve, whose ends are valued
        exactly in counts at ``lo`` and ``hi`` (never by straight PR lines); ``"ap"``
        under its step curve; ``"trapezoid"`` under its straight lines (over-optimistic,
        for comparison). Over ``(0, 1)`` every partial area is the whole area.
    partial_focus : {"fpr", "tpr"}, default="fpr"
        ROC only: ``"fpr"`` integrates TPR over the FPR range (scikit-learn's
        ``max_fpr``, pROC's ``focus="sp"``); ``"tpr"`` integrates specificity
        (1 - FPR) over the TPR range (pROC's ``focus="se"``). For PR the range is
        always over recall (``"fpr"``, the default, and ``"tpr"`` are both accepted).
    standardize : bool, default=False
        ROC: McClish's correction ``(1 + (A - min) / (max - min)) / 2``, with ``max``
        the range's width and ``min`` the area of the chance diagonal over it: 0.5 for
        a useless model and 1 for a perfect one; with ``partial=(0, x)`` it equals
        scikit-learn's ``roc_auc_score(max_fpr=x)``. PR: the area divided by the
        range's width (the mean precision over the recall range)."""


DEVICE = """
    device : {"cpu", "cuda"}, default=None
        Where the kernels run. None: ``"cuda"`` when ``score``/``label``/``weight`` are
        GPU arrays (CuPy, PyTorch CUDA tensors, ``__cuda_array_interface__``, DLPack),
        else ``"cpu"``. ``"cuda"`` needs ``pip install 'prroc-numba[cuda]'`` and a GPU;
        inputs are validated on the host, then sorted, swept and summed on the GPU.
        The result is the same frame; ``frame.attrs["device"]`` says which ran."""

MULTICLASS = """
    multiclass : {None, "ovr", "ovo"}, default=None
        Multiclass input: ``score`` holds one column per class (a list of columns or a
        2-D array such as ``predict_proba``), ``label`` the class values. ``"ovr"``:
        one curve per class, that class against the rest. ``"ovo"`` (``curve="roc"``
        areas only): Hand & Till's one-vs-one AUC -- for each pair of classes (a, b),
        on the rows of class a or b, the mean of the AUC of ``score_a`` for a-vs-b and
        of ``score_b`` for b-vs-a. Several models: ``score={"model": [class columns],
        ...}`` (each model's columns in the same class order): one curve set per model,
        a ``model`` key column (categorical, in the dict's order) after the ``by``
        columns; without ``by`` the models are resampled paired, as wide input; or stack
        their rows (long input) and pass ``by="model"``. Multilabel input needs no
        ``multiclass``: pass ``label=`` a list of 0/1 columns, one per score column.
    classes : list, default=None
        The class value of each score column, in column order (e.g. an estimator's
        ``classes_``). Default: the score column names when every label value is one
        of them, else the sorted label values (their number must equal the number of
        score columns). A label value outside ``classes`` is an error. Multilabel: the
        names of the labels (default: the label columns).
    average : {None, "macro", "weighted", "micro", "samples"}, default=None
        None: one row per class (``class`` column; one-vs-one: per pair, ``class_a``,
        ``class_b``). ``"macro"``: the mean over classes (pairs); ``"weighted"``: weighted
        by class prevalence (the classes' weighted counts; one-vs-one: the pair's, as
        scikit-learn); ``"micro"``: the pooled one-vs-rest problem, all ``K * n``
        (score, is-this-class) pairs as one curve; ``"samples"`` (multilabel input, or
        class labels with ``multiclass="ovr"``, each row's class its one positive label
        as scikit-learn binarizes them; :func:`auc` and :func:`metrics`): one curve per
        row over its labels, averaged
        over the rows with the sample weights as weights (scikit-learn's; a row with no
        positive label, or for ROC no negative one, makes the average NaN, with a
        warning naming the row). A class absent from a group has an
        undefined area: NaN, with an :class:`~prroc_numba.UndefinedMetricWarning` naming
        the class and group; the one-vs-rest macro average of that group is then NaN
        too, while "weighted" gives an absent class weight 0; one-vs-one averages (macro
        and weighted) leave out the pairs of an absent class (all as scikit-learn). Resampling
        (``bootstrap``, ``compare``, ``bootstrap_curve``) draws the original rows once
        per replicate for every class, pair and the micro curve (paired), stratified by
        class (multilabel: by label pattern) unless ``stratified=False``; "weighted"
        replicates keep the data's class weights (with ``stratified=True`` and no sample
        weights they are also every replicate's own)."""

# the binary-only functions (operating points, closed-form intervals) take ``{binary}``:
# the shared arguments without ``output`` and the multiclass ones
BINARY = SHARED[: SHARED.index("    output :")].rstrip("\n")

FOLD = """
    fold : str or array-like, default=None
        Cross-validation folds: a column of ``data`` or one fold id per row. Each fold
        is then one curve (of each model and ``by`` group) and the result has a
        ``fold`` column after the key columns: one row per fold (the fold id), a row
        ``"mean"`` (the mean over the folds, the cross-validated estimate) and a row
        ``"pooled"`` (all the folds' rows as one curve), in that order for every model
        and group. See ``docs/uncertainty.md``."""

# every function taking ``{shared}`` also takes the multiclass arguments
SHARED = SHARED + MULTICLASS


_BLOCKS = {
    "shared": SHARED,
    "data": DATA,
    "binary": BINARY,
    "device": DEVICE,
    "thresholds": THRESHOLDS,
    "methods": METHODS,
    "boot": BOOT,
    "points": POINTS,
    "partial": PARTIAL,
    "cluster": CLUSTER,
    "fold": FOLD,
}


def fill_doc(f: F) -> F:
    """Replace each ``    {name}`` line of ``f.__doc__`` by the block ``name``."""
    doc = f.__doc__ or ""
    for name, text in _BLOCKS.items():
        doc = doc.replace("    {" + name + "}", text.strip("\n"))
    f.__doc__ = doc
    return f
