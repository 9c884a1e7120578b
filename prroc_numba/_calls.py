"""Wrong calls of the public functions, explained: an unknown keyword gets "did you
mean", and arrays passed by position (scikit-learn's ``f(y_true, y_score)`` habit) get
the call that takes them.

:func:`checked` wraps a public function once (``with_output`` applies it to every
function returning a frame); the check costs a set difference per call.
"""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from . import _backends
from ._core import OUTPUTS, OUTPUTS_HINT, to_output

P = ParamSpec("P")
R = TypeVar("R")

#: the one-number functions that take scikit-learn's positional (y_true, y_score)
_ARRAY_CALLS = "prn.auc_pr(y, s) or prn.auc_roc(y, s) (one float)"


def call_error(name, sig, args, kwargs):
    """The TypeError for a call of ``name`` (signature ``sig``) that does not bind, with
    the fix; None when it binds.
    """
    params = sig.parameters
    positional = [
        p.name for p in params.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    takes_var_kw = any(p.kind == p.VAR_KEYWORD for p in params.values())
    unknown = [] if takes_var_kw else [k for k in kwargs if k not in params]
    if unknown:
        k = unknown[0]
        close = difflib.get_close_matches(k, list(params), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]}=?" if close else ""
        known = ", ".join(p for p in params if not p.startswith("_"))
        return TypeError(
            f"{name}() got an unexpected keyword argument {k!r}{hint} (it takes: {known})"
        )
    if len(args) > len(positional) and not any(p.kind == p.VAR_POSITIONAL for p in params.values()):
        if positional == ["data"]:
            fix = (
                f"pass the DataFrame as data and name the rest: {name}(df, score='s', "
                f"label='y'), or with arrays {name}(score=s, label=y)"
            )
            if len(args) == 2 and name in ("auc", "metrics"):
                fix += f"; for scikit-learn's order (y_true, y_score) use {_ARRAY_CALLS}"
            return TypeError(
                f"{name}() takes one positional argument (data) but {len(args)} were given; {fix}"
            )
        shown = ", ".join(positional) or "none"
        return TypeError(
            f"{name}() takes {len(positional)} positional argument(s) ({shown}) but "
            f"{len(args)} were given; pass the others by name"
        )
    return None


def checked(f: Callable[P, R]) -> Callable[P, R]:
    """``f`` with its calls checked first (:func:`call_error`)."""
    sig = inspect.signature(f)
    params = sig.parameters
    n_pos = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params.values())
    open_kw = any(p.kind == p.VAR_KEYWORD for p in params.values())
    open_pos = any(p.kind == p.VAR_POSITIONAL for p in params.values())
    name = f.__name__

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        if (len(args) > n_pos and not open_pos) or (
            not open_kw and not params.keys() >= kwargs.keys()
        ):
            err = call_error(name, sig, args, kwargs)
            if err is not None:
                raise err
        return f(*args, **kwargs)

    wrapper.__signature__ = sig  # type: ignore[attr-defined]
    return wrapper


def with_output(f: Callable[P, R]) -> Callable[P, R]:
    """Give a public function returning frames ``output="pandas"`` (or ``"polars"``;
    ``"spark"`` on Spark input, which the Spark wing answers: its
    ``answer`` runs the call and converts the result).

    The function declares ``output: Output = "pandas"`` last in its signature, for type
    checkers and readers; the wrapper takes it and converts what the function returns.
    """

    @functools.wraps(f)
    def wrapper(*args, output="pandas", **kwargs):
        if output not in OUTPUTS:
            raise ValueError(f"output={output!r} is not known; {OUTPUTS_HINT}")
        data = args[0] if args else kwargs.get("data")
        if _backends.engine(data) == _backends.SPARK:  # the wing tags and converts
            return _backends.wing_for(data).answer(f, args, kwargs, output)
        if output == "spark":
            raise ValueError(
                "output='spark' gives a Spark DataFrame for Spark input (data= a "
                "pyspark.sql.DataFrame); this data is not one: use 'pandas' or 'polars'"
            )
        return to_output(f(*args, **kwargs), output)

    sig = inspect.signature(f)
    if "output" not in sig.parameters:
        params = [*sig.parameters.values()]
        params.append(inspect.Parameter("output", inspect.Parameter.KEYWORD_ONLY, default="pandas"))
        sig = sig.replace(parameters=params)
    wrapper.__signature__ = sig  # type: ignore[attr-defined]
    return checked(wrapper)
