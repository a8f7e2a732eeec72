"""Shared paths for the tests of the installed `counterlens` wheel (scripts/test.sh, layer `python`).

The tests run against the package installed in a fresh venv, never the source folder: pytest is run
from outside python/ (`--rootdir`), and `counterlens` must import from site-packages.
COUNTERLENS_BIN names the CLI built from the same sources (its JSON is what the package must equal)."""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors"
CAPTURES = VECTORS / "captures"


def cli_path():
    p = os.environ.get("COUNTERLENS_BIN") or shutil.which("counterlens")
    return pathlib.Path(p) if p else None


@pytest.fixture(scope="session")
def cli():
    p = cli_path()
    if p is None or not p.exists():
        if os.environ.get("COUNTERLENS_REQUIRE_CLI"):
            pytest.fail("COUNTERLENS_BIN does not name the built CLI")
        pytest.skip("set COUNTERLENS_BIN to the built counterlens CLI")

    def run(*args, check=True):
        r = subprocess.run([str(p), *map(str, args)], capture_output=True, text=True)
        if check and r.returncode not in (0, 3):
            raise AssertionError(f"counterlens {' '.join(map(str, args))}: {r.returncode}\n{r.stderr}")
        return r

    return run
