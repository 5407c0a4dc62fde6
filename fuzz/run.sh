#!/bin/sh
# Runs every fuzz target (or those named in $TARGETS) for SECONDS of fuzzing each (default
# 60), one after the other, each one process on one core (libFuzzer without -jobs/-workers;
# rayon held to one thread): `fuzz/run.sh 1800` is the half hour a target the project aims
# for. Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
#
# Each target starts from its seeds (corpus/<target>/, in the repository) and from what
# earlier runs found (work/<target>/, not in the repository); a crash is written to
# artifacts/<target>/ and stops that target: copy it to regressions/<target>/ (the stable
# test `fuzz_replay` replays it from then on), fix it, run again. The log of each run is
# logs/<target>.log; its last line (executions, coverage: `cov:` edges, `ft:` features) is
# printed at the end. No sanitizer (`--sanitizer none`): the code is safe Rust, and the
# executions go 2-3 times faster; `SANITIZER=address fuzz/run.sh` to use one.
set -eu
secs=${1:-60}
cd "$(dirname "$0")"
targets=${TARGETS:-$(ls fuzz_targets | sed 's/\.rs$//')}
sanitizer=${SANITIZER:-none}
cargo +nightly fuzz build --sanitizer "$sanitizer"
status=0
for t in $targets; do
    mkdir -p "work/$t" "artifacts/$t" logs
    case $t in
        index | index_damage | archive | book) max_len=65536 ;;
        *) max_len=8192 ;;
    esac
    dict=""
    [ -f "dict/$t.dict" ] && dict="-dict=dict/$t.dict"
    echo "== $t: $secs s"
    if RAYON_NUM_THREADS=1 cargo +nightly fuzz run --sanitizer "$sanitizer" "$t" \
        "work/$t" "corpus/$t" -- \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
        -artifact_prefix="artifacts/$t/" -print_final_stats=1 $dict \
        >"logs/$t.log" 2>&1; then
        :
    else
        status=1
        echo "   CRASH or error: see logs/$t.log and artifacts/$t/"
    fi
    grep -aE '^#[0-9]+' "logs/$t.log" | tail -n 1 || true
    grep -aE 'stat::(number_of_executed_units|peak_rss_mb)' "logs/$t.log" || true
done
exit $status
