#!/usr/bin/env bash
# The Python package's tests (docs/PYTHON.md), idempotent:
#
#   scripts/python-test.sh            # set up if needed, build, test
#   scripts/python-test.sh --setup    # only the setup (the one step that needs the network)
#
# Setup: a virtual environment at target/python-venv with maturin and pytest (pinned, from
# PyPI), made once; later runs install nothing and need no network. Then: the release binary
# (`cargo build --release -p kifudex`, which the tests compare with), the wheel built by
# maturin from pyproject.toml into target/wheels (the release profile: the workspace's
# dependencies are not compiled again, only PyO3 the first time and the extension crate
# after a change), installed into the environment, and the pytest suite of
# host-tools/python/tests against ../shared/corpus's fox_pro.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
VENV="$ROOT/target/python-venv"
PYTHON=${PYTHON:-python3}
MATURIN_VERSION=1.16.0
PYTEST_VERSION=9.2.0

setup() {
  if [ ! -x "$VENV/bin/python" ]; then
    echo "python-test: creating $VENV ($("$PYTHON" --version))"
    "$PYTHON" -m venv "$VENV"
  fi
  if ! "$VENV/bin/python" -c 'import pytest' 2>/dev/null || [ ! -x "$VENV/bin/maturin" ]; then
    echo "python-test: installing maturin $MATURIN_VERSION and pytest $PYTEST_VERSION"
    "$VENV/bin/python" -m pip install --quiet "maturin==$MATURIN_VERSION" "pytest==$PYTEST_VERSION"
  fi
}

setup
if [ "${1:-}" = "--setup" ]; then
  exit 0
fi

cargo build --release -p kifudex
# maturin gives the build the environment's interpreter (PyO3's build script reruns when
# that, VIRTUAL_ENV or PATH change): always the same here, so a second run builds nothing.
export VIRTUAL_ENV="$VENV"
export PATH="$VENV/bin:$PATH"
rm -rf target/wheels/kifudex-*.whl
maturin build --release --interpreter "$VENV/bin/python" --out target/wheels
pip install --quiet --no-deps --no-index --force-reinstall target/wheels/kifudex-*.whl
# From the repository's root, so that `kifudex` is the installed package.
python -m pytest -q -p no:cacheprovider host-tools/python/tests "$@"
