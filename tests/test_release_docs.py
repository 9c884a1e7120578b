"""What the README, the docs, the changelog and the release workflow say about installing,
versions and releasing stays true: every extra an install line names exists, every page
that gives the index line (after publishing) also gives one that works today (a clone or
a built wheel), the wheel's name in the docs is this version's, the changelog has this
version's section, Numba's pin is one version everywhere (dependencies, build
requirements, docs), and the release workflow builds every architecture the cibuildwheel
configuration names and publishes by trusted publishing. The archives themselves are
checked in tests/test_wheel.py (the workflow itself runs only on GitHub)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from prroc_numba import __version__

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = (ROOT / "pyproject.toml").read_text()
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: the argument of ``pip install`` (quoted or not), with its extras
INSTALL = re.compile(r'pip install (?:-e )?"?([^"\s`]+?)(?:\[([\w,]+)\])?"?(?=[\s`;)]|$)', re.M)


def _extras() -> set[str]:
    section = PYPROJECT.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    return set(re.findall(r"^([\w-]+) = \[", section, flags=re.M))


def _installs(page: Path) -> list[tuple[str, str]]:
    return INSTALL.findall(page.read_text())


def test_the_pattern_reads_install_lines():
    text = 'a `pip install ".[spark]"` b\npip install "prroc-numba[dask]"   # x\npip install .\n'
    assert INSTALL.findall(text) == [(".", "spark"), ("prroc-numba", "dask"), (".", "")]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_install_lines_name_real_extras_and_work_today(page):
    installs = _installs(page)
    extras = _extras()
    for target, named in installs:
        if not (target in (".", "prroc-numba") or "prroc_numba-" in target):
            continue  # another package (e.g. pyspark[connect])
        assert set(filter(None, named.split(","))) <= extras, (page.name, target, named)
    targets = {t for t, _ in installs}
    if "prroc-numba" in targets:  # the index line, once published: a line for today too
        assert targets & {".", "-e"} or any(t.endswith(".whl") for t in targets), page.name
    for target in targets:
        if target.endswith(".whl"):
            assert re.fullmatch(
                rf"dist/prroc_numba-{re.escape(__version__)}-cp3\d+-cp3\d+-manylinux_2_27_x86_64\.whl",
                target,
            ), (page.name, target)


def test_every_page_with_extras_says_how_to_install_today():
    """Every page naming an extra on the index gives the clone form of the same extra."""
    for page in PAGES:
        installs = _installs(page)
        on_index = {e for t, e in installs if t == "prroc-numba" and e}
        today = {e for t, e in installs if (t == "." or t.endswith(".whl")) and e}
        assert on_index <= today, (page.name, on_index - today)


def test_changelog_has_this_versions_section_under_unreleased():
    headings = re.findall(r"^## \[([^\]]+)\]", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert headings[:2] == ["Unreleased", __version__]


def test_version_is_written_in_one_place():
    assert 'dynamic = ["version"]' in PYPROJECT
    assert 'version = { attr = "prroc_numba._version.__version__" }' in PYPROJECT
    assert not re.search(r"^version = \"", PYPROJECT, flags=re.M)
    assert re.search(
        r'^__version__ = "\d+\.\d+\.\d+"$', (ROOT / "prroc_numba/_version.py").read_text(), re.M
    )


def test_numba_pin_is_one_version_everywhere():
    import numba

    pins = re.findall(r'"numba==([\d.]+)"', PYPROJECT)
    assert len(pins) == 2 and len(set(pins)) == 1, pins  # dependencies, build requires
    assert numba.__version__ == pins[0]
    for page in ("README.md", "docs/compiled-kernels.md"):
        text = (ROOT / page).read_text()
        assert f"numba {pins[0]}" in text.lower() or f"numba=={pins[0]}" in text, page


def test_release_workflow_builds_every_configured_wheel_and_publishes_trusted():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text())
    jobs = workflow["jobs"]
    assert workflow[True]["push"]["tags"] == ["v*"]  # YAML reads the key `on` as True
    # one runner per architecture [tool.cibuildwheel] names, building from the sdist
    configured = set()
    for section in re.findall(r"\[tool\.cibuildwheel\.\w+\]\n(.*?)(?:\n\n|$)", PYPROJECT, re.S):
        configured |= set(re.findall(r'"(\w+)"', re.search(r"archs = \[(.*?)\]", section)[1]))
    assert {m["arch"] for m in jobs["wheels"]["strategy"]["matrix"]["include"]} == configured
    steps = jobs["wheels"]["steps"]
    cibw = [s for s in steps if s.get("uses", "").startswith("pypa/cibuildwheel@")]
    assert len(cibw) == 1 and cibw[0]["with"]["package-dir"].startswith("${{ steps.sdist")
    pinned = re.search(r'"cibuildwheel==([\d.]+)"', PYPROJECT)[1]
    assert cibw[0]["uses"] == f"pypa/cibuildwheel@v{pinned}"
    assert jobs["wheels"]["needs"] == "sdist"
    # publish: only for tags, after both builds, with an OIDC token and no password
    publish = jobs["publish"]
    assert set(publish["needs"]) == {"sdist", "wheels"}
    assert publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert publish["permissions"] == {"id-token": "write"}
    uses = [s for s in publish["steps"] if "gh-action-pypi-publish" in s.get("uses", "")]
    assert len(uses) == 1 and not uses[0].get("with", {}).get("password")
    assert workflow["permissions"] == {"contents": "read"}
