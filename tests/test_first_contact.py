"""What a new user meets first (issue 9): the common mistakes raise a clear error, the
command line says what it computed, the kernel cache lives outside the package."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
import time
import types
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score

import prroc_numba as prn
from prroc_numba._jit import numba as _numba
from prroc_numba._resampling import progress as _progress
from prroc_numba.cli import main
from prroc_numba.cli._io import _pvalue
from prroc_numba.cli._parser import _parser
from prroc_numba.data import DEMO_MODELS

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    n = 400
    y = (rng.random(n) < 0.25).astype(int)
    p = 1 / (1 + np.exp(-(2 * y - 1 + rng.normal(size=n))))
    return y, p


# ----------------------------------------------------------------- pos_label mistakes


@pytest.mark.parametrize(
    "labels,pos_label,found,fix",
    [
        (("yes", "no"), "Yes", r"'no', 'yes'", r"pos_label='yes'"),
        (("1", "0"), 1, r"'0', '1'", r"pos_label='1'"),
        ((1, 0), "1", r"0, 1", r"pos_label=1"),
        ((1, 0), 2, r"0, 1", r"one of them"),
    ],
)
def test_pos_label_not_among_the_values_raises(data, labels, pos_label, found, fix):
    y, p = data
    lab = np.where(y == 1, labels[0], labels[1])
    with pytest.raises(
        ValueError,
        match=rf"pos_label={pos_label!r} is not among the values "
        rf"of label \({found}\).*{fix}",
    ):
        prn.auc(score=p, label=lab, pos_label=pos_label)
    with pytest.raises(ValueError, match="is not among the values"):
        prn.auc_pr(lab, p, pos_label=pos_label)
    # the right pos_label gives scikit-learn's number
    right = labels[0]
    assert prn.auc_pr(lab, p, method="ap", pos_label=right) == pytest.approx(
        average_precision_score(y, p), abs=1e-12
    )


def test_one_group_without_positives_stays_a_warning(data):
    y, p = data
    df = pd.DataFrame({"s": p, "y": np.where(y == 1, "yes", "no"), "g": np.arange(y.size) % 2})
    df.loc[df.g == 1, "y"] = "no"
    with pytest.warns(prn.UndefinedMetricWarning, match="no positives"):
        out = prn.auc(df, score="s", label="y", by="g", pos_label="yes")
    assert np.isnan(out.auc.iloc[1]) and np.isfinite(out.auc.iloc[0])
    # a label column with only the negative value: no positives, not a mistake
    with pytest.warns(prn.UndefinedMetricWarning, match="no positives"):
        out = prn.auc(score=p, label=np.full(y.size, "no"), pos_label="yes")
    assert np.isnan(out.auc.iloc[0])


def test_cli_pos_label_mistake_exits_non_zero(tmp_path, capsys, data):
    y, p = data
    path = tmp_path / "p.csv"
    pd.DataFrame({"y": np.where(y == 1, "yes", "no"), "s": p}).to_csv(path, index=False)
    for cmd in (["auc"], ["bootstrap", "--n-boot", "50", "--no-progress"]):
        code = main(
            [cmd[0], str(path), "--label", "y", "--score", "s", "--pos-label", "Yes", *cmd[1:]]
        )
        cap = capsys.readouterr()
        assert code == 2
        assert "--pos-label 'Yes' is not among the values of label ('no', 'yes')" in cap.err
        assert "NaN" not in cap.out and cap.out == ""


# ------------------------------------------------------------ predict_proba as score


def test_predict_proba_two_columns_raise(data):
    y, p = data
    proba = np.column_stack([1 - p, p])
    fix = r"pass the positive class's column, proba\[:, 1\].*named columns"
    with pytest.raises(ValueError, match=r"score has 2 columns whose rows sum to 1.*" + fix):
        prn.auc(score=proba, label=y)
    with pytest.raises(ValueError, match=r"score has 2 columns whose rows sum to 1"):
        prn.auc(score=pd.DataFrame(proba, columns=["no", "yes"]), label=y)
    with pytest.raises(ValueError, match=r"y_score has 2 columns whose rows sum to 1.*" + fix):
        prn.auc_pr(y, proba)
    with pytest.raises(ValueError, match=r"rows sum to 1"):
        prn.bootstrap(score=proba, label=y, n_boot=10, progress=False)
    # the fix works, and two genuine models as named columns still do
    assert prn.auc_pr(y, proba[:, 1], method="ap") == pytest.approx(
        average_precision_score(y, p), abs=1e-12
    )
    df = pd.DataFrame({"y": y, "a": p, "b": 1 - p})
    assert len(prn.auc(df, score=["a", "b"], label="y")) == 2


def test_auc_pr_2d_error_does_not_point_to_a_silent_path(data):
    y, p = data
    with pytest.raises(ValueError, match=r"y_score must be 1-D.*score=\['m1', 'm2'\]"):
        prn.auc_pr(y, np.column_stack([p, p, p]))


# ------------------------------------------------------------- label / score swapped


def test_label_and_score_swapped(data):
    y, p = data
    with pytest.raises(
        ValueError,
        match=r"label has fractional values .* and score is 0/1: "
        r"label and score look swapped",
    ) as exc:
        prn.auc(score=y, label=p)
    assert "round" not in str(exc.value)
    with pytest.raises(ValueError, match=r"look swapped"):
        prn.auc_pr(p, y)
    # fractional labels with real scores: soft labels, no rounding advice
    with pytest.raises(ValueError, match=r"soft_labels=True") as exc:
        prn.auc(score=p, label=np.where(y == 1, 0.8, 0.1))
    assert "round" not in str(exc.value)


# ------------------------------------------------------------------- command line


def test_every_cli_option_has_help_with_an_example():
    parser = _parser()
    sub = next(a for a in parser._actions if a.choices and "auc" in a.choices)
    missing = []
    for name, p in sub.choices.items():
        for action in p._actions:
            if action.dest in ("help",):
                continue
            if not action.help or "e.g." not in action.help:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, f"options without help text and an example: {missing}"


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"prroc-numba {prn.__version__}"


def test_pvalues_in_one_format():
    assert [_pvalue(v) for v in (0.5, 0.0123, 0.001, 0.000999, 1e-20, float("nan"))] == [
        "0.500",
        "0.012",
        "0.001",
        "<0.001",
        "<0.001",
        "",
    ]


def test_cli_tables_say_what_they_used(tmp_path, capsys, data):
    y, p = data
    path = tmp_path / "p.csv"
    pd.DataFrame({"y": y, "m1": p, "m2": np.sqrt(p)}).to_csv(path, index=False)
    base = [str(path), "--label", "y", "--score", "m1", "m2"]
    assert main(["auc", *base, "--method", "ap"]) == 0
    assert capsys.readouterr().out.startswith("AUC-PR (ap: average precision):")
    assert main(["bootstrap", *base, "--n-boot", "50", "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith(
        "AUC-PR (dg: Davis-Goadrich), 95% percentile CIs, stratified bootstrap, B = 50, seed 0:"
    )
    assert main(["compare", *base, "--n-boot", "50", "--no-progress", "--curve", "roc"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "AUC-ROC, differences a - b, paired "
        "stratified bootstrap, B = 50, seed 0, p-values adjusted: holm:"
    )
    assert "e-" not in out  # p-values in one format


def test_demo_delong_covers_every_model(capsys):
    assert main(["demo", "--n-boot", "50", "--no-progress"]) == 0
    out = capsys.readouterr().out
    delong = out.split("DeLong")[1]
    pairs = list(itertools.combinations(DEMO_MODELS, 2))
    assert len(delong.strip().splitlines()) - 2 == len(pairs)  # title and header lines
    for m in DEMO_MODELS:
        assert m in delong


# --------------------------------------------------------------------- progress bar


def test_progress_bar_visible_in_jupyter(monkeypatch):
    class Stderr:
        def isatty(self):
            return False

        def write(self, s):
            return len(s)

    monkeypatch.setattr(sys, "stderr", Stderr())
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    assert not _progress.visible()
    shell = types.SimpleNamespace(kernel=object())  # what a Jupyter kernel's shell has
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    assert _progress.visible()
    terminal = types.SimpleNamespace()  # plain IPython in a terminal without a tty
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: terminal))
    assert not _progress.visible()


# -------------------------------------------------------------------------- cache


def _child(code, **env):
    full = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    full.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=full,
        cwd=str(ROOT),
        check=True,
    ).stdout.strip()


def test_cache_dir_per_user_package_and_version(tmp_path):
    code = "from prroc_numba._jit import numba as _numba; print(_numba.CACHE_ROOT)"
    got = _child(code, HOME=str(tmp_path))
    assert got == str(tmp_path / ".cache" / "prroc_numba" / prn.__version__)
    got = _child(code, HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    assert got == str(tmp_path / "xdg" / "prroc_numba" / prn.__version__)
    got = _child(code, HOME=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "mine"))
    assert got == str(tmp_path / "mine")  # NUMBA_CACHE_DIR wins
    (tmp_path / "file").write_text("")
    assert _child(code, HOME=str(tmp_path / "file" / "home")) == "None"  # nothing writable


def test_cache_dir_on_other_platforms(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert _numba._user_cache_base() == str(tmp_path / "Library" / "Caches")
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert _numba._user_cache_base() == str(tmp_path / "Local")


def test_kernels_cache_outside_the_package():
    from prroc_numba._kernels import area

    path = area._areas_batch._cache.cache_path
    assert path.startswith(_numba.CACHE_ROOT)
    assert not Path(path).resolve().is_relative_to(Path(prn.__file__).parent.resolve())


def test_compile_notice_only_when_compiling(tmp_path):
    code = "import prroc_numba as p; p.auc_roc([0, 1, 1], [0.1, 0.7, 0.4])"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path)}
    first = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert first.stderr.count("compiling kernels once") == 1
    header, *kernels = first.stderr.strip().splitlines()
    assert "compiling kernels once" in header and str(tmp_path) in header
    # every compile says what it compiles, with an estimate; long ones show progress
    assert kernels and all(
        re.fullmatch(r"prroc_numba: compiling [\w.]+ \(~\d+\.\d s\)", ln)
        or re.fullmatch(r"prroc_numba:   still compiling [\w.]+: \d+ s of ~\d+\.\d s", ln)
        for ln in kernels
    ), kernels
    assert "compiling area._areas_batch" in first.stderr
    again = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert again.stderr == ""  # cache hits are silent


def test_warmup_command_reports_cache_and_time(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        assert main(["warmup"]) == 0
    out = capsys.readouterr().out
    assert "kernels ready in" in out and f"cache: {_numba.CACHE_ROOT}" in out


def test_long_compile_shows_progress_then_stops(capsys, monkeypatch):
    from prroc_numba._kernels import area

    notice = _numba.CompileNotice(_numba.CACHE_ROOT, _numba.NOTICE.estimate_files, _numba._tried)
    notice.said = True  # header already printed
    monkeypatch.setattr(notice, "PROGRESS_AFTER", 0.05)
    monkeypatch.setattr(notice, "PROGRESS_EVERY", 0.05)
    monkeypatch.delenv("PRROC_NUMBA_QUIET", raising=False)
    ev = types.SimpleNamespace(data={"dispatcher": area._areas_batch})
    notice.on_start(ev)
    time.sleep(0.3)
    notice.on_end(ev)
    time.sleep(0.2)
    lines = capsys.readouterr().err.splitlines()
    est = notice.estimate("prroc_numba._kernels.area._areas_batch")
    assert lines[0] == f"prroc_numba: compiling area._areas_batch (~{est:.1f} s)"
    assert len(lines) >= 3 and all("still compiling area._areas_batch" in ln for ln in lines[1:])
    n = len(lines)
    time.sleep(0.2)
    assert capsys.readouterr().err == ""  # no progress after the compile ended
    assert n < 10
    assert notice.compile_seconds["prroc_numba._kernels.area._areas_batch"] >= 0.3


def test_import_loads_no_kernel_numba_pandas_dask_or_matplotlib():
    code = (
        "import sys, time; t = time.perf_counter(); import prroc_numba as p; "
        "t = time.perf_counter() - t; "
        "heavy = ('numba', 'numba.cuda', 'pandas', 'dask', 'matplotlib', 'scipy'); "
        "print([m for m in sys.modules if m in heavy or m.startswith('prroc_numba._kernels')]); "
        "print(sorted(set(p.__all__) - set(dir(p)))); "
        "print([n for n in p.__all__ if getattr(p, n) is None]); "
        "print('prroc_numba._kernels.area' in sys.modules, t)"
    )
    out = _child(code).splitlines()
    assert out[0] == "[]"  # nothing heavy on import
    assert out[1] == "[]" and out[2] == "[]"  # dir() lists the API, every name resolves
    assert out[3].split()[0] == "True"  # the first use imports what it needs
    with pytest.raises(AttributeError, match="has no attribute 'not_a_function'"):
        prn.not_a_function  # noqa: B018
