#!/usr/bin/env bash
# Installs what a fresh machine lacks for kifudex's full test suite, idempotently:
# rustup targets (Cortex-M, big-endian s390x, 32-bit i686), QEMU (system + user), cross linkers,
# Debian's chromium and chromedriver (the web board's browser tests), defmt-print (the firmware's
# log), GNU Go and Sabaki's GTP library (npm ci in host-tools/tests/gtp-client) for the GTP
# engine's tests. A held apt lock is waited for, not failed on.
set -euo pipefail

need_targets=(thumbv7em-none-eabihf thumbv7m-none-eabi thumbv6m-none-eabi s390x-unknown-linux-gnu i686-unknown-linux-gnu)
installed=$(rustup target list --installed)
missing=()
for t in "${need_targets[@]}"; do
  grep -qx "$t" <<<"$installed" || missing+=("$t")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: rustup target add ${missing[*]}"
  rustup target add "${missing[@]}"
fi
for c in clippy rustfmt; do
  rustup component list --installed | grep -q "^$c" || rustup component add "$c"
done

# The i686 tests run through the cross loader /usr/i686-linux-gnu/lib/ld-linux.so.2 (qemu-i386
# hangs). Do not install gcc-multilib: it conflicts with and removes the cross compilers.
need_cmds=(qemu-system-arm qemu-s390x s390x-linux-gnu-gcc i686-linux-gnu-gcc)
need_pkgs=(qemu-system-arm qemu-user gcc-s390x-linux-gnu libc6-dev-s390x-cross gcc-i686-linux-gnu libc6-dev-i386-cross)
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

# apt-get with its arguments, waiting (up to 15 minutes) for a lock another apt holds:
# DPkg::Lock::Timeout makes apt itself wait for dpkg's lock; the package lists' lock (taken by
# `apt-get update`, e.g. by unattended-upgrades on a fresh machine) it does not wait for, so a
# refusal that names a lock is tried again every 10 s. Any other failure fails at once.
apt_wait() {
  local i err
  err=$(mktemp)
  for i in $(seq 1 90); do
    if $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@" 2>"$err"; then
      cat "$err" >&2
      rm -f "$err"
      return 0
    fi
    cat "$err" >&2
    if ! grep -Eq 'Could not get lock|Unable to lock|Unable to acquire' "$err"; then
      rm -f "$err"
      return 1
    fi
    echo "setup: apt is busy (another process holds its lock), waiting ($i)"
    sleep 10
  done
  rm -f "$err"
  return 1
}

need_pkgs+=(chromium chromium-driver gnugo)
# Debian's node only where there is none (another node's packages may conflict with it).
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  need_pkgs+=(nodejs npm)
fi
# Only the packages that are not installed yet (as dpkg lists them).
missing_pkgs=()
for p in "${need_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing_pkgs+=("$p")
done
lack=0
for c in "${need_cmds[@]}"; do command -v "$c" >/dev/null 2>&1 || lack=1; done
[ -d /usr/s390x-linux-gnu/lib ] || lack=1
[ -e /usr/i686-linux-gnu/lib/ld-linux.so.2 ] || lack=1
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || lack=1
[ -x /usr/games/gnugo ] || lack=1
# A command missing although dpkg lists its package: install them all again.
if [ "$lack" = 1 ] && [ ${#missing_pkgs[@]} -eq 0 ]; then
  missing_pkgs=("${need_pkgs[@]}")
fi
if [ ${#missing_pkgs[@]} -gt 0 ]; then
  echo "setup: apt-get install ${missing_pkgs[*]}"
  apt_wait update -qq
  apt_wait install -y -qq --no-install-recommends "${missing_pkgs[@]}" >/dev/null
fi
# defmt-print decodes the firmware's defmt log in the firmware test (1.2 reads defmt 1's frames).
# Built unoptimized (--debug): half the compile time of a release build (58 s instead of 115 s
# of CPU), and it decodes the test's few thousand frames as fast.
if ! command -v defmt-print >/dev/null 2>&1; then
  echo "setup: cargo install defmt-print"
  cargo install defmt-print --version 1.2.0 --locked --debug
fi
# @sabaki/gtp, the GTP client the GTP engine's tests drive it with (pinned by the lockfile).
client="$(dirname "$0")/../host-tools/tests/gtp-client"
if [ ! -d "$client/node_modules/@sabaki/gtp" ]; then
  echo "setup: npm ci in host-tools/tests/gtp-client"
  (cd "$client" && npm ci --no-audit --no-fund --loglevel=error)
fi
# sgfmill reads the tracked games' records a second way in the hint tests (an SGF reader
# independent of the project's).
if ! python3 -c 'import sgfmill' >/dev/null 2>&1; then
  echo "setup: pip install sgfmill"
  python3 -m pip install --quiet sgfmill==1.1.1
fi
# The Python package's virtual environment (maturin and pytest, pinned), under target/.
# (scripts/test.sh sets KIFUDEX_SETUP_PYTHON=later and makes it beside its builds.)
if [ "${KIFUDEX_SETUP_PYTHON:-now}" != later ]; then
  bash "$(dirname "$0")/python-test.sh" --setup
fi
echo "setup: ok"
