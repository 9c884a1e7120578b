"""rank_models against scipy, scikit-posthocs, autorank and baycomp on the same tables."""

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn

scipy_stats = pytest.importorskip("scipy.stats")

# the peer comparisons include tables of few data sets, on purpose: the values must
# match there too; the warning those tables get is tested on its own below
pytestmark = pytest.mark.filterwarnings("ignore::prroc_numba.FewDataSetsWarning")

# Demšar (2006), Table 5(a): q_0.05 of the Nemenyi test (studentized range / sqrt 2)
DEMSAR_Q05 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102}


def _table(seed, n_sets, k, ties=False):
    rng = np.random.default_rng(seed)
    wide = rng.normal(size=(n_sets, k)) * 0.05 + np.linspace(0.6, 0.7, k)
    if ties:
        wide = np.round(wide, 2)
    names = [f"m{j}" for j in range(k)]
    long = pd.DataFrame(
        [(names[j], f"d{i}", wide[i, j]) for i in range(n_sets) for j in range(k)],
        columns=["model", "dataset", "auc"],
    )
    return wide, names, long.sample(frac=1.0, random_state=seed)  # row order irrelevant


CASES = [(0, 12, 3, False), (1, 20, 5, True), (2, 9, 4, True), (3, 30, 7, False)]
# autorank's and baycomp's values on the same tables, stored by
# tests/data/peers/ranking_peers.py (both packages shadow this project's tests package)
PEERS = json.loads((Path(__file__).parent / "data" / "peers" / "ranking_peers.json").read_text())


@pytest.mark.parametrize("seed,n_sets,k,ties", CASES)
def test_ranks_friedman_iman_davenport_match_scipy(seed, n_sets, k, ties):
    wide, names, long = _table(seed, n_sets, k, ties)
    res = prn.rank_models(long, model="model", dataset="dataset", value="auc")
    ranks = scipy_stats.rankdata(-wide, axis=1).mean(axis=0)
    got = res.ranks.set_index("model")["rank"]
    np.testing.assert_allclose(got[names].to_numpy(), ranks, rtol=1e-12)
    assert list(res.ranks["rank"]) == sorted(ranks)
    chi2, p = scipy_stats.friedmanchisquare(*wide.T)
    assert res.summary["friedman_chi2"] == pytest.approx(chi2, rel=1e-10)
    assert res.summary["friedman_p"] == pytest.approx(p, rel=1e-8)
    # Iman & Davenport (1980) as Demšar (2006), eq. 2, from scipy's chi-square
    f = (n_sets - 1) * chi2 / (n_sets * (k - 1) - chi2)
    assert res.summary["iman_davenport_f"] == pytest.approx(f, rel=1e-10)
    f_p = scipy_stats.f.sf(f, k - 1, (k - 1) * (n_sets - 1))
    assert res.summary["iman_davenport_p"] == pytest.approx(f_p, rel=1e-8)


@pytest.mark.parametrize("k", sorted(DEMSAR_Q05))
def test_critical_difference_matches_demsar_table(k):
    n_sets = 10
    _, _, long = _table(k, n_sets, k)
    res = prn.rank_models(long, model="model", dataset="dataset", value="auc")
    cd = DEMSAR_Q05[k] * np.sqrt(k * (k + 1) / (6 * n_sets))
    assert res.critical_difference == pytest.approx(cd, abs=2e-3 * cd)


@pytest.mark.parametrize("peer", PEERS, ids=lambda c: str(c["case"]))
def test_critical_difference_and_ranks_match_autorank(peer):
    long = pd.DataFrame(peer["table"], columns=["model", "dataset", "auc"])
    res = prn.rank_models(long, model="model", dataset="dataset", value="auc", level=0.9)
    # autorank takes q from statsmodels' qsturng, an approximation good to about 1e-4
    assert res.critical_difference == pytest.approx(peer["autorank_cd"], rel=2e-4)
    got = res.ranks.set_index("model")["rank"]
    for m, r in peer["autorank_meanrank"].items():
        assert got[m] == pytest.approx(r, rel=1e-12)


@pytest.mark.parametrize("seed,n_sets,k,ties", CASES)
def test_nemenyi_decisions_match_scikit_posthocs(seed, n_sets, k, ties):
    sp = pytest.importorskip("scikit_posthocs")
    wide, names, long = _table(seed, n_sets, k, ties)
    res = prn.rank_models(long, model="model", dataset="dataset", value="auc")
    p = sp.posthoc_nemenyi_friedman(pd.DataFrame(wide, columns=names))
    for row in res.pairs.itertuples():
        p_ab = p.loc[row.model_a, row.model_b]
        if abs(p_ab - 0.05) > 1e-6:
            assert row.nemenyi == (p_ab < 0.05), (row, p_ab)


@pytest.mark.parametrize("seed,n_sets,k,ties", CASES)
def test_wilcoxon_holm_matches_scipy_and_scikit_posthocs(seed, n_sets, k, ties):
    sp = pytest.importorskip("scikit_posthocs")
    wide, names, long = _table(seed, n_sets, k, ties)
    res = prn.rank_models(long, model="model", dataset="dataset", value="auc")
    col = {n: j for j, n in enumerate(names)}
    for row in res.pairs.itertuples():
        w = scipy_stats.wilcoxon(wide[:, col[row.model_a]], wide[:, col[row.model_b]])
        assert row.statistic == pytest.approx(w.statistic)
        assert row.p_value == pytest.approx(w.pvalue, rel=1e-12)
    melted = pd.DataFrame(wide, columns=names).melt(var_name="model", value_name="auc")
    holm = sp.posthoc_wilcoxon(melted, val_col="auc", group_col="model", p_adjust="holm")
    for row in res.pairs.itertuples():
        assert row.p_adjusted == pytest.approx(holm.loc[row.model_a, row.model_b], rel=1e-10)


@pytest.mark.parametrize("peer", PEERS[:3], ids=lambda c: str(c["case"]))
def test_bayesian_signed_rank_matches_baycomp(peer):
    long = pd.DataFrame(peer["table"], columns=["model", "dataset", "auc"])
    ref = {(a, b, rope): p for a, b, rope, *p in peer["baycomp"]}
    for rope in (0.0, 0.01, 0.03):
        res = prn.rank_models(
            long,
            model="model",
            dataset="dataset",
            value="auc",
            rope=rope,
            seed=7,
            n_samples=4000,
        )
        for row in res.pairs.itertuples():
            want = ref[(row.model_a, row.model_b, rope)]
            if rope == 0:
                want = (want[0], 0.0, want[1])
            got = (row.p_left, row.p_rope, row.p_right)
            # the same Dirichlet draws; only floating-point summation order differs
            np.testing.assert_allclose(got, want, atol=1.5 / 4000)
            assert sum(got) == pytest.approx(1.0)


def test_lower_is_better_is_negated_values():
    _, _, long = _table(5, 15, 4, True)
    a = prn.rank_models(long, model="model", dataset="dataset", value="auc", rope=0.01, seed=1)
    neg = long.assign(auc=-long["auc"])
    b = prn.rank_models(
        neg,
        model="model",
        dataset="dataset",
        value="auc",
        higher_is_better=False,
        rope=0.01,
        seed=1,
    )
    pd.testing.assert_frame_equal(a.ranks.drop(columns="mean"), b.ranks.drop(columns="mean"))
    pd.testing.assert_frame_equal(a.pairs, b.pairs)


def test_two_models_and_identical_models():
    rows = [(m, d, v) for d in range(6) for m, v in (("a", 0.8 + d / 100), ("b", 0.7))]
    rows += [("c", d, 0.7) for d in range(6)]
    df = pd.DataFrame(rows, columns=["m", "d", "v"])
    res = prn.rank_models(df[df.m != "c"], model="m", dataset="d", value="v")
    assert res.ranks["model"].tolist() == ["a", "b"]
    assert res.summary["friedman_chi2"] == pytest.approx(6.0)  # N (k - 1): all ranks agree
    res = prn.rank_models(df[df.m != "a"], model="m", dataset="d", value="v")
    assert res.summary["friedman_chi2"] == 0.0 and res.summary["friedman_p"] == 1.0
    assert res.pairs["p_value"].tolist() == [1.0]


def test_errors_name_the_argument():
    _, _, long = _table(0, 5, 3)
    with pytest.raises(TypeError, match="DataFrame"):
        prn.rank_models(long.to_numpy(), model="model", dataset="dataset", value="auc")
    with pytest.raises(ValueError, match="value='nope'"):
        prn.rank_models(long, model="model", dataset="dataset", value="nope")
    with pytest.raises(ValueError, match="more than once"):
        prn.rank_models(
            pd.concat([long, long.iloc[:1]]), model="model", dataset="dataset", value="auc"
        )
    with pytest.raises(ValueError, match="no finite 'auc'"):
        prn.rank_models(long.iloc[1:], model="model", dataset="dataset", value="auc")
    with pytest.raises(ValueError, match="at least two models"):
        prn.rank_models(long[long.model == "m0"], model="model", dataset="dataset", value="auc")
    with pytest.raises(ValueError, match="at least two data sets"):
        prn.rank_models(long[long.dataset == "d0"], model="model", dataset="dataset", value="auc")
    with pytest.raises(ValueError, match="rope="):
        prn.rank_models(long, model="model", dataset="dataset", value="auc", rope=-1)
    with pytest.raises(ValueError, match="n_samples="):
        prn.rank_models(long, model="model", dataset="dataset", value="auc", n_samples=0)


def test_critical_difference_plot_draws_every_model_and_the_right_groups():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from prroc_numba.plot._summaries import _cliques, critical_difference

    # ranks 1, 1.5, 3, 3.2 with CD 1: {0, 1} and {2, 3}; CD 2.1: {0, 1, 2} and {1, 2, 3}
    r = np.array([1.0, 1.5, 3.0, 3.2])
    assert _cliques(r, 1.0) == [(0, 1), (2, 3)]
    assert _cliques(r, 2.1) == [(0, 2), (1, 3)]
    assert _cliques(r, 0.1) == []
    _, _, long = _table(3, 30, 7)
    res = prn.rank_models(long, model="model", dataset="dataset", value="auc")
    ax = critical_difference(res, title="AUC")
    texts = [t.get_text() for t in ax.texts]
    assert set(res.ranks["model"]) <= set(texts)
    assert f"CD = {res.critical_difference:.2f}" in texts
    # one thick bar per group of models not significantly different
    thick = [ln for ln in ax.lines if ln.get_linewidth() == 3.5]
    assert len(thick) == len(_cliques(res.ranks["rank"].to_numpy(), res.critical_difference))
    plt.close("all")
    with pytest.raises(TypeError, match="rank_models"):
        critical_difference(long)


def test_few_data_sets_warn_citing_demsar():
    from prroc_numba import FewDataSetsWarning

    _, _, ten = _table(0, 10, 3)
    with pytest.warns(FewDataSetsWarning, match=r"Demšar \(2006.*more than 10 data sets"):
        res = prn.rank_models(ten, model="model", dataset="dataset", value="auc")
    assert res.summary["n_datasets"] == 10  # the numbers are still given
    _, _, eleven = _table(0, 11, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prn.rank_models(eleven, model="model", dataset="dataset", value="auc")
