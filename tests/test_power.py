"""power(): the closed forms equal pROC 1.18's power.roc.test (tests/data/power_pROC.*)."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn

DATA = Path(__file__).parent / "data" / "peers"
REF = json.loads((DATA / "power_pROC.json").read_text())
PILOT = pd.read_csv(DATA / "power_pROC_data.csv")
ALT = {"two.sided": "two-sided", "one.sided": "one-sided"}


@pytest.mark.parametrize("case", REF["numeric"], ids=lambda c: f"{c['solve']}-{c['alternative']}")
def test_one_curve_numbers_match_pROC(case):
    alt = ALT[case["alternative"]]
    sig = case["sig.level"]
    if case["solve"] == "power":
        res = prn.power(
            auc=case["auc"],
            n_pos=case["ncases"],
            n_neg=case["ncontrols"],
            sig_level=sig,
            alternative=alt,
        )
        assert res.power[0] == pytest.approx(case["power"], rel=1e-12)
    elif case["solve"] == "n":
        res = prn.power(
            auc=case["auc"],
            power=case["power"],
            kappa=case["kappa"],
            sig_level=sig,
            alternative=alt,
        )
        # counts are whole rows, rounded up: the smallest design reaching the power
        assert res.n_pos[0] == math.ceil(case["ncases"])
        assert res.n_neg[0] == math.ceil(case["ncontrols"])
    else:
        res = prn.power(
            n_pos=case["ncases"],
            n_neg=case["ncontrols"],
            power=case["power"],
            sig_level=sig,
            alternative=alt,
        )
        # pROC solves with uniroot (tolerance ~1e-4); ours is solved to rounding, so
        # the power at our AUC is the target exactly and pROC's AUC is within its tolerance
        assert res.auc[0] == pytest.approx(case["auc"], abs=2e-4)
        back = prn.power(
            auc=res.auc[0],
            n_pos=case["ncases"],
            n_neg=case["ncontrols"],
            sig_level=sig,
            alternative=alt,
        )
        assert back.power[0] == pytest.approx(case["power"], rel=1e-9)
    assert res.solved[0] == {"power": "power", "n": "n_pos", "auc": "auc"}[case["solve"]]


@pytest.mark.parametrize("case", REF["data_one"], ids=lambda c: c["score"])
def test_one_curve_from_data_matches_pROC(case):
    res = prn.power(PILOT, score=case["score"], label="y")
    assert res.auc[0] == pytest.approx(case["auc"], rel=1e-12)
    assert res.power[0] == pytest.approx(case["power"], rel=1e-10)
    res = prn.power(PILOT, score=case["score"], label="y", power=0.9)
    assert res.n_pos[0] == math.ceil(case["n_for_0.9"])
    assert res.n_neg[0] == math.ceil(case["ncontrols_for_0.9"])


@pytest.mark.parametrize(
    "case", REF["data_two"], ids=lambda c: f"{c['a']}-{c['b']}-{c['alternative']}"
)
def test_two_paired_curves_from_data_match_pROC(case):
    alt = ALT[case["alternative"]]
    res = prn.power(PILOT, score=[case["a"], case["b"]], label="y", alternative=alt)
    assert res.estimate_a[0] == pytest.approx(case["auc1"], rel=1e-12)
    assert res.estimate_b[0] == pytest.approx(case["auc2"], rel=1e-12)
    assert res.power[0] == pytest.approx(case["power"], rel=1e-9)
    res = prn.power(PILOT, score=[case["a"], case["b"]], label="y", power=0.9, alternative=alt)
    assert res.n_pos[0] == math.ceil(case["ncases_for_0.9"])
    assert res.n_neg[0] == math.ceil(case["ncontrols_for_0.9"])
    # the detectable difference at that size and power is the data's difference
    det = prn.power(
        PILOT,
        score=[case["a"], case["b"]],
        label="y",
        power=0.9,
        alternative=alt,
        n_pos=case["ncases_for_0.9"],
    )
    assert det["diff"][0] == pytest.approx(abs(case["auc1"] - case["auc2"]), rel=1e-9)


@pytest.mark.parametrize(
    "case", REF["params"], ids=lambda c: f"{c['A1']}-{c['rn']}-{'FPR11' in c}-{c['alternative']}"
)
def test_binormal_parameters_match_pROC(case):
    pars = {k: case[k] for k in ("A1", "B1", "A2", "B2", "rn", "ra")}
    partial = (case["FPR11"], case["FPR12"]) if "FPR11" in case else None
    alt = ALT[case["alternative"]]
    res = prn.power(
        binormal=pars,
        diff=case["delta"],
        power=0.9,
        kappa=case["kappa"],
        partial=partial,
        alternative=alt,
    )
    assert res.n_pos[0] == math.ceil(case["ncases_for_0.9"])
    res = prn.power(
        binormal=pars,
        diff=case["delta"],
        n_pos=200,
        n_neg=300,
        partial=partial,
        alternative=alt,
    )
    assert res.power[0] == pytest.approx(case["power_200_300"], rel=1e-10)
    det = prn.power(
        binormal=pars,
        power=0.9,
        n_pos=case["ncases_for_0.9"],
        kappa=case["kappa"],
        partial=partial,
        alternative=alt,
    )
    assert det["diff"][0] == pytest.approx(case["delta"], rel=1e-10)


def test_power_grows_with_n_and_auc():
    p = [prn.power(auc=0.7, n_pos=n, n_neg=n).power[0] for n in (10, 20, 40, 80)]
    assert np.all(np.diff(p) > 0)
    p = [prn.power(auc=a, n_pos=30, n_neg=30).power[0] for a in (0.6, 0.7, 0.8)]
    assert np.all(np.diff(p) > 0)


def test_power_errors_name_the_argument():
    with pytest.raises(ValueError, match="exactly one"):
        prn.power(auc=0.7)
    with pytest.raises(ValueError, match="exactly one"):
        prn.power(auc=0.7, n_pos=10, n_neg=10, power=0.8)
    with pytest.raises(ValueError, match=r"auc=0.4"):
        prn.power(auc=0.4, n_pos=10, n_neg=10)
    with pytest.raises(ValueError, match="power="):
        prn.power(auc=0.7, power=1.5)
    with pytest.raises(ValueError, match="sig_level="):
        prn.power(auc=0.7, n_pos=10, n_neg=10, sig_level=0)
    with pytest.raises(ValueError, match="n_pos="):
        prn.power(auc=0.7, n_pos=-3, n_neg=10)
    with pytest.raises(ValueError, match="alternative="):
        prn.power(auc=0.7, n_pos=10, n_neg=10, alternative="greater")
    with pytest.raises(ValueError, match="lacks"):
        prn.power(binormal={"A1": 1}, diff=0.1, power=0.8)
    with pytest.raises(ValueError, match="partial="):
        prn.power(
            binormal=dict(A1=1, B1=1, A2=1, B2=1, rn=0, ra=0),
            diff=0.1,
            power=0.8,
            partial=(0.3, 0.1),
        )
    with pytest.raises(ValueError, match="label="):
        prn.power(PILOT, score="s1")
    with pytest.raises(ValueError, match="drop auc="):
        prn.power(PILOT, score="s1", label="y", auc=0.7)
    with pytest.raises(ValueError, match="one or two score columns"):
        prn.power(PILOT, score=["s1", "s2", "s3"], label="y")


# ---------------------------------------------------------------- simulated power


def test_simulated_roc_power_agrees_with_the_closed_form():
    # binormal B = 1, A = 1: AUC = Phi(A / sqrt(2)) = 0.760; Obuchowski's formula is an
    # approximation and the bootstrap test is another, so they agree to a few points
    sim = prn.power(
        binormal={"A1": 1.0, "B1": 1.0},
        prevalence=0.5,
        n=[30, 60],
        curve="roc",
        n_sim=300,
        n_boot=300,
        seed=3,
    )
    for row in sim.itertuples():
        ref = prn.power(auc=0.76025, n_pos=row.n_pos, n_neg=row.n_neg).power[0]
        assert abs(row.power - ref) < 3 * row.se + 0.05, (row, ref)
    assert list(sim.n) == [30, 60] and list(sim.n_pos) == [15, 30]


def test_simulated_power_under_the_null_is_the_type_one_error():
    # two identical models: the paired comparison never rejects; a useless model
    # against AUC 0.5 rejects at about sig_level
    sim = prn.power(
        binormal={"A1": 0.0, "B1": 1.0},
        prevalence=0.3,
        n=[80],
        curve="roc",
        n_sim=400,
        n_boot=300,
        seed=5,
    )
    assert abs(sim.power[0] - 0.05) < 3 * np.sqrt(0.05 * 0.95 / 400) + 0.02
    same = PILOT.assign(s1b=PILOT["s1"])
    sim = prn.power(
        same, score=["s1", "s1b"], label="y", n=[60], curve="pr", n_sim=50, n_boot=200, seed=1
    )
    assert sim.power[0] == 0.0


def test_simulated_power_is_batched_and_reproducible():
    args = dict(score="s3", label="y", curve="pr", method="ap", n_sim=60, n_boot=200, seed=9)
    a = prn.power(PILOT, n=[40, 120], **args)
    b = prn.power(PILOT, n=[40, 120], **args)
    pd.testing.assert_frame_equal(a, b)
    assert a.power[1] >= a.power[0]
    assert (a.n_pos == np.round(a.n * (PILOT.y.mean()))).all()


def test_simulated_power_errors():
    with pytest.raises(ValueError, match="n="):
        prn.power(PILOT, score="s1", label="y", n=[2.5])
    with pytest.raises(ValueError, match="prevalence="):
        prn.power(binormal={"A1": 1.0, "B1": 1.0}, n=[50])
    with pytest.raises(ValueError, match="lacks"):
        prn.power(binormal={"A1": 1.0}, prevalence=0.2, n=[50])
    with pytest.raises(ValueError, match="n_sim="):
        prn.power(PILOT, score="s1", label="y", n=[50], n_sim=0)
    with pytest.raises(ValueError, match="pilot data"):
        prn.power(n=[50])


def test_plot_power_draws_the_band_and_target():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from prroc_numba.plot import plot_power

    sim = pd.DataFrame({"n": [200, 50, 100], "power": [0.9, 0.3, 0.6], "se": [0.02, 0.03, 0.03]})
    ax = plot_power(sim, target=0.9)
    np.testing.assert_array_equal(ax.lines[0].get_xdata(), [50, 100, 200])
    assert ax.lines[1].get_ydata()[0] == 0.9
    assert len(ax.collections) == 1
    plt.close("all")
    with pytest.raises(ValueError, match="power"):
        plot_power(sim.drop(columns="se"))


def test_simulated_power_of_partial_areas():
    # two paired models compared on the ROC area up to FPR 0.2: batched like whole areas
    pars = {"A1": 1.6, "B1": 1.0, "A2": 0.8, "B2": 1.0, "rn": 0.4, "ra": 0.4}
    sim = prn.power(
        binormal=pars,
        prevalence=0.3,
        n=[60, 240],
        curve="roc",
        partial=(0, 0.2),
        n_sim=80,
        n_boot=200,
        seed=2,
    )
    assert sim.power[1] > sim.power[0] and sim.power[1] > 0.5
    with pytest.raises(ValueError, match="null="):
        prn.power(
            binormal={"A1": 1.0, "B1": 1.0}, prevalence=0.3, n=[60], curve="roc", partial=(0, 0.2)
        )
    one = prn.power(
        binormal={"A1": 1.0, "B1": 1.0},
        prevalence=0.3,
        n=[60],
        curve="roc",
        partial=(0, 0.2),
        null=0.02,
        n_sim=40,
        n_boot=200,
        seed=1,
    )
    assert 0 <= one.power[0] <= 1


def test_detectable_auc_from_data_inverts_the_power():
    k = (PILOT.y == 0).sum() / (PILOT.y == 1).sum()
    det = prn.power(PILOT, score="s1", label="y", power=0.9, n_pos=50)
    assert det.solved[0] == "auc" and det.n_neg[0] == math.ceil(50 * k)
    back = prn.power(auc=det.auc[0], n_pos=50, n_neg=50 * k)
    assert back.power[0] == pytest.approx(0.9, rel=1e-9)
    # power at another size than the data's
    other = prn.power(PILOT, score="s1", label="y", n_pos=30, n_neg=60)
    auc = prn.auc(PILOT, score="s1", label="y", curve="roc").auc[0]
    assert other.power[0] == pytest.approx(prn.power(auc=auc, n_pos=30, n_neg=60).power[0])


# ------------------------------------------------- every area: the sample size solved


def test_pr_power_without_n_solves_the_size_not_the_roc_answer():
    # the silent wrong answer: curve="pr" with power= and no n= gave the ROC area's
    # closed-form size with no word; it is simulated for the PR area now
    res = prn.power(
        PILOT, score=["s1", "s2"], label="y", curve="pr", power=0.8, n_sim=30, n_boot=100, seed=4
    )
    assert res.curve[0] == "pr" and res.method[0] == "dg" and res.solved[0] == "n"
    roc = prn.power(PILOT, score=["s1", "s2"], label="y", power=0.8)
    assert roc.curve[0] == "roc" and roc.method[0] == "trapezoid"
    assert res.n_pos[0] != roc.n_pos[0]
    for frame in (res, roc):
        assert frame.n_pos.dtype.kind == "i" and frame.n_neg.dtype.kind == "i"


def test_solved_pr_size_is_where_the_simulated_power_crosses_the_target():
    target = 0.8
    res = prn.power(
        PILOT,
        score=["s1", "s2"],
        label="y",
        curve="pr",
        power=target,
        n_sim=60,
        n_boot=150,
        seed=2,
    )
    n = int(res.n[0])
    seen = pd.DataFrame(res.attrs["evaluated"]).set_index("n").power
    # the search's own bracket: the power at n reaches the target, one row less does not
    assert res.attrs["n_below"] == n - 1
    assert seen[n] >= target > seen[n - 1]
    assert res.power[0] == seen[n] and np.isfinite(res.n_se[0]) and res.n_se[0] > 0
    both = pd.concat([res, res], ignore_index=True)  # the attrs do not get in the way
    assert len(both) == 2
    # an independent simulation (another seed, more samples) at the answer and at a
    # clearly smaller size: within Monte Carlo error of the target at n, below it at 0.6 n
    small = int(0.6 * n)
    ind = prn.power(
        PILOT,
        score=["s1", "s2"],
        label="y",
        curve="pr",
        n=[n, small],
        n_sim=300,
        n_boot=150,
        seed=11,
    ).set_index("n")
    tol = 3 * math.sqrt(ind.se[n] ** 2 + target * (1 - target) / 60)
    assert ind.power[n] >= target - tol
    assert ind.power[small] < target
    assert ind.power[small] < ind.power[n]


def test_one_model_pr_size_and_kappa_as_prevalence():
    pars = {"A1": 1.5, "B1": 1.0}
    res = prn.power(
        binormal=pars,
        kappa=3,
        curve="pr",
        method="ap",
        null=0.3,
        power=0.8,
        n_sim=40,
        n_boot=100,
        seed=1,
    )
    assert res.n_neg[0] == res.n[0] - res.n_pos[0]
    assert res.n_pos[0] == round(res.n[0] * 0.25)
    seen = pd.DataFrame(res.attrs["evaluated"]).set_index("n").power
    assert seen[res.n[0]] >= 0.8
    # the simulated power rises with the size: common random numbers across sizes
    assert seen.is_monotonic_increasing or np.all(np.diff(seen.to_numpy()) > -0.1)


def test_simulated_sizes_in_any_order_give_each_its_own_power():
    args = dict(score=["s1", "s2"], label="y", curve="pr", n_sim=40, n_boot=100, seed=3)
    up = prn.power(PILOT, n=[40, 200], **args).set_index("n").power
    down = prn.power(PILOT, n=[200, 40], **args).set_index("n").power
    assert up[200] > up[40]
    assert down[200] == up[200] and down[40] == up[40]


def test_power_frames_say_curve_and_method_and_count_whole_rows():
    one = prn.power(auc=0.73, power=0.95, kappa=1.7)
    assert list(one.columns[:2]) == ["curve", "method"]
    assert (one.n_pos[0], one.n_neg[0]) == (30, 51)
    # the rounded-up design reaches the power
    assert prn.power(auc=0.73, n_pos=30, n_neg=51).power[0] >= 0.95
    pars = {"A1": 2.6, "B1": 1, "A2": 1.9, "B2": 1, "rn": 0.6, "ra": 0.6}
    part = prn.power(binormal=pars, diff=0.01, power=0.9, partial=(0, 0.2), kappa=1)
    assert part.method[0] == "trapezoid, fpr 0-0.2" and part.n_pos.dtype.kind == "i"
    sim = prn.power(
        binormal={"A1": 1.0, "B1": 1.0}, prevalence=0.5, n=[30], n_sim=10, n_boot=50, seed=1
    )
    assert list(sim.columns[:3]) == ["curve", "method", "n_boot"]
    assert sim.n_pos.dtype.kind == "i"


def test_pr_power_says_what_to_pass_where_it_cannot_simulate():
    # method= of the PR curve is not ignored with the default curve="roc"
    with pytest.raises(ValueError, match="curve='pr'"):
        prn.power(auc=0.8, n_pos=50, n_neg=200, method="ap")
    with pytest.raises(ValueError, match="pilot data"):
        prn.power(auc=0.8, n_pos=50, n_neg=200, method="ap", curve="pr")
    with pytest.raises(ValueError, match="pilot data"):
        prn.power(auc=0.8, power=0.9, curve="pr")
    with pytest.raises(ValueError, match=r"n=\[\.\.\.\]"):
        prn.power(PILOT, score="s1", label="y", curve="pr")
    with pytest.raises(ValueError, match="drop n_pos="):
        prn.power(PILOT, score="s1", label="y", curve="pr", power=0.9, n_pos=40)
    with pytest.raises(ValueError, match="power="):
        prn.power(PILOT, score="s1", label="y", curve="pr", power=0.9, n=[40])
    with pytest.raises(ValueError, match="not both"):
        prn.power(binormal={"A1": 1.0, "B1": 1.0}, kappa=2, prevalence=0.3, n=[40])
    with pytest.raises(ValueError, match="hull"):
        prn.power(auc=0.8, n_pos=50, n_neg=200, hull=True)
    with pytest.raises(ValueError, match="curve="):
        prn.power(auc=0.8, n_pos=50, n_neg=200, curve="prg")


def test_unreachable_power_stops_with_an_error(monkeypatch):
    # two identical models never differ: the doubling search would grow forever; it
    # stops at a bound on the rows simulated at once, and says what to change
    from prroc_numba import _power_sim

    monkeypatch.setattr(_power_sim, "MAX_ROWS", 20_000)
    same = {"A1": 1.0, "B1": 1.0, "A2": 1.0, "B2": 1.0, "rn": 1.0, "ra": 1.0}
    with pytest.raises(ValueError, match="n_sim="):
        prn.power(binormal=same, prevalence=0.5, curve="pr", power=0.9, n_sim=20, n_boot=20)
