"""prroc_numba.plot: every function renders a non-blank PNG, and what it draws is right.

The exact PR interpolation drawn by ``plot_pr`` is checked against the definition
(TP and FP linear between points, Davis & Goadrich 2006), and the areas under the drawn
lines against the published references (PRROC's integral, scikit-learn's AP).
"""

from __future__ import annotations

import io
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from conftest import load_case
from sklearn.metrics import average_precision_score

import prroc_numba as prn
from prroc_numba import plot as pp


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _png_pixels(ax):
    buf = io.BytesIO()
    ax.figure.savefig(buf, format="png", dpi=60)
    assert buf.tell() > 1000, "PNG is (nearly) empty"
    buf.seek(0)
    return plt.imread(buf)[..., :3]


def _ink(ax):
    """Share of pixels that are not white (background)."""
    img = _png_pixels(ax)
    return float((img.min(axis=-1) < 0.95).mean())


def _blank_ink():
    _, ax = plt.subplots(figsize=(5.5, 4.5))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    return _ink(ax)


def _three_models(n=1500, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.08).astype(int)
    return pd.DataFrame(
        {
            "y": y,
            "a": rng.normal(size=n) + 1.6 * y,
            "b": rng.normal(size=n) + 0.7 * y,
            "c": np.round(rng.normal(size=n) + 1.1 * y, 1),
        }
    )


def _drawn(ax, i=0):
    line = ax.lines[i]
    return np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)


# --------------------------------------------------------------- every plot renders


def test_plot_pr_many_models_renders_with_overlays():
    df = _three_models()
    pts = prn.pr_curve(df, score=["a", "b", "c"], label="y")
    hull = prn.pr_curve(df, score=["a", "b", "c"], label="y", hull=True)
    auc = prn.auc(df, score=["a", "b", "c"], label="y")
    ax = pp.plot_pr(pts, hull=hull, auc=auc, iso_f1=True)
    assert _ink(ax) > _blank_ink() + 0.01
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    for m in "abc":
        value = auc.loc[auc["model"] == m, "auc"].iloc[0]
        assert f"{m} (AUC {value:.3f})" in labels
        assert f"{m} achievable" in labels
    # the no-skill line sits at the prevalence
    prevalence = df["y"].mean()
    assert any(np.allclose(line.get_ydata(), prevalence) for line in ax.lines)


def test_plot_roc_renders_with_hull_and_diagonal():
    df = _three_models()
    roc = prn.roc_curve(df, score=["a", "b", "c"], label="y")
    ax = pp.plot_roc(
        roc,
        hull=prn.roc_curve(df, score=["a", "b", "c"], label="y", hull=True),
        auc=prn.auc(df, score=["a", "b", "c"], label="y", curve="roc"),
    )
    assert _ink(ax) > _blank_ink() + 0.01
    x, y = _drawn(ax, 0)
    sub = roc[roc["model"] == "a"]
    np.testing.assert_array_equal(x, sub["fpr"].to_numpy())
    np.testing.assert_array_equal(y, sub["tpr"].to_numpy())
    assert any(
        np.array_equal(line.get_xdata(), [0, 1]) and np.array_equal(line.get_ydata(), [0, 1])
        for line in ax.lines
    )


def test_plot_bands_renders_one_band_per_curve():
    grid = np.linspace(0, 1, 21)
    prec = 0.9 - 0.6 * grid
    band = pd.concat(
        [
            pd.DataFrame(
                {
                    "model": m,
                    "recall": grid,
                    "precision": prec - d,
                    "ci_low": prec - d - 0.08,
                    "ci_high": prec - d + 0.08,
                }
            )
            for m, d in [("a", 0.0), ("b", 0.25)]
        ],
        ignore_index=True,
    )
    ax = pp.plot_bands(band, baseline=0.1)
    assert len(ax.collections) == 2
    assert _ink(ax) > _blank_ink() + 0.01


def test_plot_bands_roc_space():
    grid = np.linspace(0, 1, 11)
    band = pd.DataFrame(
        {
            "fpr": grid,
            "tpr": np.sqrt(grid),
            "ci_low": np.sqrt(grid) * 0.9,
            "ci_high": np.minimum(np.sqrt(grid) * 1.1, 1),
        }
    )
    ax = pp.plot_bands(band)
    assert ax.get_xlabel() == "false positive rate"
    assert _ink(ax) > _blank_ink() + 0.005


def test_plot_intervals_bootstrap_and_compare_frames():
    boot = pd.DataFrame(
        {
            "model": ["a", "b", "c"],
            "estimate": [0.6, 0.3, 0.45],
            "ci_low": [0.5, 0.2, 0.4],
            "ci_high": [0.7, 0.35, 0.5],
        }
    )
    boot["n_degenerate"] = 0  # trailing value columns are no keys
    ax = pp.plot_intervals(boot)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["b", "c", "a"]
    assert _ink(ax) > _blank_ink() + 0.002
    plt.close("all")
    cmp_ = pd.DataFrame(
        {
            "model_a": ["a", "a"],
            "model_b": ["b", "c"],
            "diff": [0.3, 0.15],
            "ci_low": [0.2, -0.01],
            "ci_high": [0.4, 0.3],
        }
    )
    ax = pp.plot_intervals(cmp_)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a - c", "a - b"]
    assert any(np.allclose(line.get_xdata(), 0.0) for line in ax.lines)  # reference at 0


def test_add_iso_f1_lines_have_constant_f1():
    ax = pp.add_iso_f1(levels=[0.3, 0.7])
    for line, f in zip(ax.lines, [0.3, 0.7]):
        r, p = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
        np.testing.assert_allclose(2 * r * p / (r + p), f, rtol=1e-12)
    assert _ink(ax) > _blank_ink()


def test_add_no_skill_pr_and_roc():
    ax = pp.add_no_skill(prevalence=[0.1, 0.1, 0.2])
    assert sorted(line.get_ydata()[0] for line in ax.lines) == [0.1, 0.2]
    ax = pp.add_no_skill(curve="roc")
    assert list(ax.lines[-1].get_ydata()) == [0, 1]


# ------------------------------------------------------ what plot_pr draws is right


def test_plot_pr_curve_is_the_exact_interpolation():
    case = load_case("c15_dg_table1")
    pts = prn.pr_curve(case.frame, score="score", label="label")
    ax = pp.plot_pr(pts, baseline=False)
    x, y = _drawn(ax)
    P = case.ref["n_pos"]
    tp_v, fp_v = pts["tp"].to_numpy(), pts["fp"].to_numpy()
    # the definition: between points TP and FP move together linearly
    tp = x * P
    fp = np.interp(tp, tp_v, fp_v)
    inside = tp > 0
    np.testing.assert_allclose(y[inside], tp[inside] / (tp[inside] + fp[inside]), rtol=1e-12)
    # the paper's Table 1 points lie on the drawn curve
    for t, prec in [(6, 0.375), (7, 0.318), (8, 0.286), (9, 0.265)]:
        assert abs(np.interp(t / P, x, y) - prec) < 6e-4  # the paper rounds to 3 digits
    # flat start at the first point's precision (PRROC), not the (0, 1) convention
    assert x[0] == 0 and y[0] == pytest.approx(0.5)
    # area under the drawn curve = PRROC's integral (closed form), up to the sampling
    ref = case.ref["prroc"]["hard"]["score"]["pr_auc_integral"]
    assert np.trapezoid(y, x) == pytest.approx(ref, abs=2e-4)


def test_plot_pr_step_and_line_areas_match_ap_and_trapezoid():
    df = _three_models(800, seed=3)
    pts = prn.pr_curve(df, score="c", label="y")
    ax = pp.plot_pr(pts, connect="step", baseline=False)
    x, y = _drawn(ax)
    assert np.trapezoid(y, x) == pytest.approx(average_precision_score(df["y"], df["c"]), abs=1e-12)
    ax = pp.plot_pr(pts, connect="line", baseline=False)
    x, y = _drawn(ax, -1)
    np.testing.assert_array_equal(x, pts["recall"].to_numpy())
    np.testing.assert_array_equal(y, pts["precision"].to_numpy())


def test_plot_pr_hue_and_by_columns():
    df = _three_models()
    df["site"] = np.where(np.arange(len(df)) % 2 == 0, "x", "y")
    pts = prn.pr_curve(df, score=["a", "b"], label="y", by="site")
    ax = pp.plot_pr(pts, baseline=False)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["site=x, model=a", "site=x, model=b", "site=y, model=a", "site=y, model=b"]
    plt.close("all")
    ax = pp.plot_pr(pts, hue="model", baseline=False, legend=False)
    assert len(ax.lines) == 2 and ax.get_legend() is None


def test_plot_pr_points_without_counts_draw_straight():
    frame = pd.DataFrame({"recall": [0, 0.5, 1.0], "precision": [1, 0.8, 0.3]})
    ax = pp.plot_pr(frame, baseline=False)
    np.testing.assert_array_equal(_drawn(ax)[1], [1, 0.8, 0.3])


# ------------------------------------------------------------------------ errors


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="plot_pr.*lacks \\['precision'\\]"):
        pp.plot_pr(pd.DataFrame({"recall": [0, 1]}))
    with pytest.raises(TypeError, match="needs a DataFrame"):
        pp.plot_roc(np.zeros((2, 2)))
    pts = pd.DataFrame({"recall": [0, 1], "precision": [1, 0.5]})
    with pytest.raises(ValueError, match="connect must be one of"):
        pp.plot_pr(pts, connect="spline")
    with pytest.raises(ValueError, match="hue='nope' is not a column"):
        pp.plot_pr(pts, hue="nope")
    with pytest.raises(ValueError, match="levels must lie in"):
        pp.add_iso_f1(levels=[1.5])
    with pytest.raises(ValueError, match="needs prevalence="):
        pp.add_no_skill()
    with pytest.raises(ValueError, match="auc= must be a frame"):
        pp.plot_pr(pts, auc=pd.DataFrame({"x": [1]}))
    with pytest.raises(ValueError, match="plot_bands.*ci_low"):
        pp.plot_bands(pts)


def test_missing_matplotlib_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"pip install prroc-numba\[plot\]"):
        pp.plot_pr(pd.DataFrame({"recall": [0, 1], "precision": [1, 0.5]}))


def test_importing_the_package_does_not_import_matplotlib():
    code = (
        "import sys, prroc_numba, prroc_numba.plot; "
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=str(_root()))


def _root():
    from pathlib import Path

    return Path(__file__).resolve().parents[1]


def test_plot_pr_label_names_the_curve():
    pts = prn.pr_curve(score=[0.9, 0.8, 0.7, 0.4, 0.2], label=[1, 0, 1, 0, 0])
    auc = prn.auc(score=[0.9, 0.8, 0.7, 0.4, 0.2], label=[1, 0, 1, 0, 0])
    ax = pp.plot_pr(pts, label="mine", auc=auc, baseline=False)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        f"mine (AUC {auc['auc'].iloc[0]:.3f})"
    ]
    plt.close("all")
    df = _three_models()
    ax = pp.plot_roc(prn.roc_curve(df, score=["a", "b"], label="y"), label="run1", diagonal=False)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["run1 a", "run1 b"]


def test_plot_bands_takes_quantile_columns_and_ignores_summary_columns():
    grid = np.linspace(0, 1, 11)
    avg = pd.DataFrame(
        {
            "model": "a",
            "recall": grid,
            "precision": 0.8 - 0.5 * grid,
            "sd": 0.05,
            "n_curves": 20,
            "q0.025": 0.7 - 0.5 * grid,
            "q0.5": 0.8 - 0.5 * grid,
            "q0.975": 0.9 - 0.5 * grid,
        }
    )
    ax = pp.plot_bands(avg, low="q0.025", high="q0.975")
    assert len(ax.collections) == 1 and len(ax.lines) == 1  # one curve: sd etc. are no keys
    lo = ax.collections[0].get_paths()[0].vertices[:, 1]
    assert lo.min() == pytest.approx(0.2) and lo.max() == pytest.approx(0.9)


def test_plot_pr_curve_passes_through_the_continuous_interpolation():
    case = load_case("c15_dg_table1")
    kw = {"score": "score", "label": "label"}
    ax = pp.plot_pr(prn.pr_curve(case.frame, **kw), baseline=False)
    x, y = _drawn(ax)
    cont = prn.pr_curve(case.frame, interpolate="continuous", **kw)
    cont = cont[cont["recall"] > 0]
    np.testing.assert_allclose(np.interp(cont["recall"], x, y), cont["precision"], atol=1e-3)


def test_hull_overlay_is_the_achievable_curve():
    df = _three_models()
    kw = {"score": "a", "label": "y"}
    hull = prn.pr_curve(df, hull=True, **kw)
    ax = pp.plot_pr(prn.pr_curve(df, **kw), hull=hull, baseline=False)
    hx, hy = _drawn(ax, 1)
    # the achievable curve dominates the raw one (Corollary 3.1) and its area is the
    # hull area of auc(hull=True, method="integral"), up to the drawing's sampling
    x, y = _drawn(ax, 0)
    grid = np.linspace(0.01, 1, 200)
    assert (np.interp(grid, hx, hy) >= np.interp(grid, x, y) - 1e-9).all()
    ref = prn.auc(df, hull=True, method="integral", **kw)["auc"].iloc[0]
    assert np.trapezoid(hy, hx) == pytest.approx(ref, abs=2e-3)


def test_multiclass_one_colour_per_class_and_averages_marked():
    rng = np.random.default_rng(0)
    n = 300
    y = rng.choice(["a", "b", "c"], n)
    df = pd.DataFrame(
        rng.random((n, 3)) + 0.5 * (y[:, None] == np.array(["a", "b", "c"])),
        columns=["a", "b", "c"],
    ).assign(y=y)
    kw = {"score": ["a", "b", "c"], "label": "y", "multiclass": "ovr"}
    ax = pp.plot_pr(
        prn.pr_curve(df, **kw),
        micro=prn.pr_curve(df, **kw, average="micro"),
        macro=prn.auc(df, **kw, average="macro"),
        baseline=False,
    )
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[:3] == ["a", "b", "c"] and labels[3] == "micro-average"
    assert labels[4].startswith("macro-average AUC 0.")
    colours = {
        tuple(line.get_color()) if not isinstance(line.get_color(), str) else line.get_color()
        for line in ax.get_lines()[:3]
    }
    assert len(colours) == 3
    ax = pp.plot_roc(
        prn.roc_curve(df, **kw), micro=prn.roc_curve(df, **kw, average="micro"), macro=0.7
    )
    assert "micro-average" in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close("all")
