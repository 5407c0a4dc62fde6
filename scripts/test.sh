#!/usr/bin/env bash
# kifudex's whole test suite, the one command for developers and CI:
#
#   scripts/test.sh            # from anywhere inside the repository
#
# Steps: setup (scripts/setup.sh), rustfmt, clippy, the workspace tests (release: the corpus
# tests are heavy), the README's main command (which must compile nothing the tests did not:
# every host step shares the release profile and the workspace's features), the Python
# package (scripts/python-test.sh), the core's no_std builds for Cortex-M, the docs, the
# core's tests on a big-endian (s390x, under QEMU) and a 32-bit (i686) Linux, and the
# firmware under QEMU (once firmware-example/ exists). Every step runs even if an earlier one
# failed, so one run reports every problem; the script ends with a summary and exits non-zero
# if any step failed. Cross linkers and runners are set in .cargo/config.toml.
#
# Two cores at least are assumed (CI has two). The steps of the core's other targets and of
# the firmware's builds compile mostly one crate at a time, in target folders of their own
# (target/other, firmware-example/target): they run in the background, beside the host's
# steps, each group's output printed when it ends. The firmware's run under QEMU (one QEMU
# thread) runs beside the Python package's step.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)

STEP_NAMES=()
STEP_RESULTS=()
STEP_SECONDS=()
FAILED=()
LOG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/kifudex-test.XXXXXX")
trap 'rm -rf "$LOG_DIR"' EXIT
START_ALL=$(date +%s)

section() {
  printf '\n==================== %s ====================\n' "$*"
}

record() { # name result seconds
  # In a background group (see `background`), the parent shell records it when the group ends.
  if [ -n "${RECORD_FILE:-}" ]; then
    printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$RECORD_FILE"
    return
  fi
  STEP_NAMES+=("$1")
  STEP_RESULTS+=("$2")
  STEP_SECONDS+=("$3")
  if [ "$2" = FAIL ]; then FAILED+=("$1"); fi
}

# run NAME COMMAND...: one step, timed, its status recorded (the script goes on after a failure).
run() {
  local name=$1
  shift
  section "$name"
  echo "+ $*"
  local t0 rc=0
  t0=$(date +%s)
  "$@" || rc=$?
  local dt=$(($(date +%s) - t0))
  if [ "$rc" = 0 ]; then
    echo "--- $name: ok (${dt}s)"
    record "$name" ok "$dt"
  else
    echo "--- $name: FAILED with status $rc (${dt}s)"
    record "$name" FAIL "$dt"
  fi
}

# background GROUP: runs the function GROUP (a sequence of `run` steps) in the background, its
# output to a log; `collect` waits for every group, prints each log and records its steps.
BACKGROUND_GROUPS=()
BACKGROUND_PIDS=()
background() {
  local group=$1
  : >"$LOG_DIR/$group.records"
  (RECORD_FILE="$LOG_DIR/$group.records" "$group") >"$LOG_DIR/$group.log" 2>&1 &
  BACKGROUND_PIDS+=($!)
  BACKGROUND_GROUPS+=("$group")
}
collect() {
  local i name result seconds
  for i in "${!BACKGROUND_GROUPS[@]}"; do
    wait "${BACKGROUND_PIDS[$i]}" || true
    cat "$LOG_DIR/${BACKGROUND_GROUPS[$i]}.log"
    while IFS=$'\t' read -r name result seconds; do
      record "$name" "$result" "$seconds"
    done <"$LOG_DIR/${BACKGROUND_GROUPS[$i]}.records"
  done
  BACKGROUND_GROUPS=()
  BACKGROUND_PIDS=()
}

# cargo test whose output must show at least one test actually run and passed: guards the
# cross runs against a runner that silently runs nothing.
cargo_test_checked() {
  local log="$LOG_DIR/test-$$-$RANDOM.log"
  # (Explicit checks: `set -e` does not apply inside a function called as `f || ...`.)
  if ! cargo test "$@" 2>&1 | tee "$log"; then
    return 1
  fi
  if ! grep -Eq '^test result: ok\. [1-9][0-9]* passed' "$log"; then
    echo "error: no test ran for: cargo test $*" >&2
    return 1
  fi
}

# The firmware's builds (firmware-example/ is its own workspace, excluded from the root one,
# with its own target folder): rustfmt and clippy there, then release builds for the
# Cortex-M4F (QEMU's mps2-an386) and an RP2040-class Cortex-M0+ (size only), around the
# default book. A background group. (Skipped while firmware-example/Cargo.toml does not exist.)
firmware_builds() {
  if [ ! -f "$ROOT/firmware-example/Cargo.toml" ]; then
    echo "--- firmware: skipped, firmware-example/Cargo.toml does not exist yet"
    record "firmware" skipped 0
    return 0
  fi
  run "firmware rustfmt" bash -c 'cd firmware-example && cargo fmt --all -- --check'
  # Clippy (-D warnings) on the firmware as QEMU runs it; the Cortex-M0+ build and the RTT
  # build compile the same code (the RTT logger is one `use`) and link it: built, not
  # linted again (each lint pass checked every dependency once more for its target).
  run "firmware clippy and build (thumbv7em-none-eabihf)" bash -c "cd firmware-example && \
    cargo clippy --release --target thumbv7em-none-eabihf -- -D warnings && \
    cargo build --release --target thumbv7em-none-eabihf"
  run "firmware build (thumbv6m-none-eabi)" bash -c "cd firmware-example && \
    cargo build --release --target thumbv6m-none-eabi"
  # The log over RTT (feature `rtt`, a real board with a debug probe) instead of semihosting:
  # it must build too (its own target folder, so the QEMU build is not redone).
  run "firmware build (rtt)" bash -c "cd firmware-example && \
    cargo build --release --no-default-features --features rtt --target-dir target/rtt"
}

# The core on its other targets, in a target folder of its own (target/other), so that these
# one-crate builds run beside the host's steps. A background group.
core_other_targets() {
  export CARGO_TARGET_DIR="$ROOT/target/other"
  run "clippy (core, thumbv7em, serde+defmt)" \
    cargo clippy -p kifudex-core --target thumbv7em-none-eabihf --features serde,defmt --release -- -D warnings
  # The core must build without std or alloc for Cortex-M4F and Cortex-M0 (no atomics),
  # with and without its optional derives (defmt builds as a library without a global
  # logger). (The Cortex-M4F without derives: the firmware's own build; with serde alone:
  # a part of serde,defmt.)
  local tf target features
  for tf in "thumbv6m-none-eabi:" "thumbv6m-none-eabi:serde,defmt" "thumbv7em-none-eabihf:serde,defmt"; do
    target=${tf%%:*}
    features=${tf#*:}
    run "no_std build ($target${features:+, $features})" \
      cargo build -p kifudex-core --release --target "$target" ${features:+--features "$features"}
  done
  # (With and without the optional features: a link to an item behind `alloc` breaks the
  # docs of the firmware's build.)
  run "docs (core)" env RUSTDOCFLAGS="-D warnings" bash -c \
    "cargo doc -p kifudex-core --no-deps && cargo doc -p kifudex-core --no-deps --features serde,alloc"
  # Endianness and pointer width: the core's tests on s390x (big-endian, QEMU user mode) and
  # i686 (32-bit, run by the cross loader). Runners and linkers: .cargo/config.toml.
  # (With `alloc`: the writers' loopback tests run there too.) The `cross` profile is release
  # without debug info (Cargo.toml).
  run "core tests (s390x, big-endian)" cargo_test_checked -p kifudex-core --profile cross --features alloc --target s390x-unknown-linux-gnu
  run "core tests (i686, 32-bit)" cargo_test_checked -p kifudex-core --profile cross --features alloc --target i686-unknown-linux-gnu
}

# The firmware around a book of real games, under QEMU, must reply byte for byte as
# `kifudex hints` does (host-tools/tests/integration/hints.rs builds the book and the requests
# and runs `KIFUDEX_BOOK=... cargo run --release` in firmware-example/). Required here, not
# skipped. The test binary the workspace step built is run directly (from its package's
# folder, as cargo runs it), so that the Python step's cargo commands beside it do not wait
# for a lock.
firmware_identical_replies() {
  local bin log="$LOG_DIR/firmware-qemu.log"
  # --workspace: the features of the workspace test step, so that nothing is compiled again.
  # (The package's artifacts are its test binary and its binaries; the test is `integration`.)
  bin=$(cargo test --release --workspace --test integration --no-run --message-format=json 2>/dev/null |
    grep -F '"manifest_path":"'"$ROOT"'/host-tools/Cargo.toml"' |
    grep -o '"executable":"[^"]*"' | cut -d'"' -f4 | grep '/integration-[0-9a-f]*$')
  if [ -z "$bin" ] || [ ! -x "$bin" ]; then
    echo "error: the kifudex package's integration test binary was not found" >&2
    return 1
  fi
  if ! (cd "$ROOT/host-tools" && KIFUDEX_REQUIRE_QEMU=1 "$bin" --exact \
    hints::firmware_replies_are_byte_identical_under_qemu --nocapture) 2>&1 | tee "$log"; then
    return 1
  fi
  grep -Eq '^test result: ok\. 1 passed' "$log"
}
firmware_qemu() {
  if [ ! -f "$ROOT/firmware-example/Cargo.toml" ]; then
    echo "--- firmware (QEMU): skipped, firmware-example/Cargo.toml does not exist yet"
    record "firmware (QEMU)" skipped 0
    return 0
  fi
  run "firmware (QEMU): replies identical to kifudex hints" firmware_identical_replies
}

# The Python package's virtual environment (made once, mostly waiting for PyPI: setup.sh
# leaves it to this script) is made beside setup and the builds; the Python step waits for
# it and prints its output.
bash scripts/python-test.sh --setup >"$LOG_DIR/python-setup.log" 2>&1 &
PYTHON_SETUP=$!

section "setup"
t0=$(date +%s)
if ! KIFUDEX_SETUP_PYTHON=later bash scripts/setup.sh; then
  echo "test.sh: FAIL (scripts/setup.sh failed; nothing else was run)"
  exit 1
fi
record setup ok $(($(date +%s) - t0))

run "rustfmt" cargo fmt --all -- --check
background core_other_targets
background firmware_builds
# (In release, as the builds after them: the build scripts and proc macros they compile are
# the builds' too.)
run "clippy (workspace)" cargo clippy --workspace --all-targets --release -- -D warnings
# Every crate's rustdoc, warnings refused (on the dependencies clippy checked).
run "docs (workspace)" env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --release
# (Among them the web board's: host-tools/tests/integration/web_api.rs, the API against the CLI on real
# games, and web_browser.rs, the page in Debian's headless chromium through chromedriver,
# both installed by scripts/setup.sh; the browser test fails, never skips, without them.)
# (The firmware's test runs in its own step below, with QEMU required: skipped here so that
# it does not run twice.)
run "tests (workspace, release)" cargo test --workspace --release -- \
  --skip firmware_replies_are_byte_identical_under_qemu

# The README's main command, on what the tests built: one release profile and one feature set
# (host-tools/Cargo.toml unifies the features that dev-dependencies switch on), so it must
# compile nothing, and answer with bGo's published counts.
readme_main_command() {
  local log="$LOG_DIR/readme-main.log"
  if ! printf 'play pd dp pp\nquit\n' | cargo run --release -p kifudex -- shell >"$log" 2>&1; then
    cat "$log"
    return 1
  fi
  cat "$log"
  if grep -q '^ *Compiling ' "$log"; then
    echo "error: the README's main command compiled again what the tests built" \
      "(a dependency's features differ: compare cargo tree -e features; host-tools/Cargo.toml)" >&2
    return 1
  fi
  grep -q '^Total count: 7$' "$log"
}
run "README's main command: nothing compiled again" readme_main_command

# The firmware under QEMU (one QEMU thread) beside the Python package's step: a virtual
# environment under target/ (made once: the only step that needs the network), clippy on the
# extension, its wheel built by maturin from what the steps above compiled, its pytest suite
# against the release binary.
background firmware_qemu
wait "$PYTHON_SETUP" || true
cat "$LOG_DIR/python-setup.log"
run "python package (maturin, pytest)" bash scripts/python-test.sh
collect

section "summary"
for i in "${!STEP_NAMES[@]}"; do
  printf '  %-9s %5ss  %s\n' "${STEP_RESULTS[$i]}" "${STEP_SECONDS[$i]}" "${STEP_NAMES[$i]}"
done
total=$(($(date +%s) - START_ALL))
if [ ${#FAILED[@]} -gt 0 ]; then
  failed_list=$(printf '%s, ' "${FAILED[@]}")
  echo "test.sh: FAIL (${#FAILED[@]} of ${#STEP_NAMES[@]} steps failed: ${failed_list%, }; ${total}s)"
  exit 1
fi
echo "test.sh: PASS (${#STEP_NAMES[@]} steps; ${total}s)"
