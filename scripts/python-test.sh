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
# after a change; clippy -D warnings on it first, as the workspace's builds leave it empty),
# installed into the environment, and the pytest suite of host-tools/python/tests against
# ../shared/corpus's fox_pro.
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
# PyO3's build script reruns (and everything above it is compiled again) when the
# interpreter it is given, VIRTUAL_ENV or PATH change. maturin gives the environment's
# interpreter; clippy is given the same variables, so neither undoes the other's build and a
# second run compiles nothing.
export VIRTUAL_ENV="$VENV"
export PATH="$VENV/bin:$PATH"
export PYO3_PYTHON="$VENV/bin/python" PYTHON_SYS_EXECUTABLE="$VENV/bin/python" PYO3_BUILD_EXTENSION_MODULE=1
PYO3_ENVIRONMENT_SIGNATURE=$(python -c 'import struct, sys; v = sys.version_info; print("%s-%d.%d-%dbit" % (sys.implementation.name, v.major, v.minor, struct.calcsize("P") * 8))')
export PYO3_ENVIRONMENT_SIGNATURE
cargo clippy --release -p kifudex-python --features python --all-targets -- -D warnings
rm -rf target/wheels/kifudex-*.whl
maturin build --release --interpreter "$VENV/bin/python" --out target/wheels
# (pip and pytest through the venv's python: a venv copied along with its target/ keeps
# the old path in its scripts' first lines, so `pip` would install into the old one.)
"$VENV/bin/python" -m pip install --quiet --no-deps --no-index --force-reinstall target/wheels/kifudex-*.whl
# From the repository's root, so that `kifudex` is the installed package.
"$VENV/bin/python" -m pytest -q -p no:cacheprovider host-tools/python/tests "$@"
