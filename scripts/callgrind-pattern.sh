#!/usr/bin/env bash
# Instructions per pattern search (deterministic, unlike times on a shared machine):
# callgrind counts the instructions of `kifudex::pattern::search::search` (the query
# compiled, every block searched, the counts merged: with one thread all of it on the
# calling thread), for the six patterns of issue 11 (the list of scripts/bench-pattern.sh).
# The toggle names the function exactly: a glob such as `scan_block*` also matches its
# closures, and entering one toggles collection off. `--timings` makes the command search
# through that function once (a plain `pattern` command scans through the explorer's
# cache and progress reports, which call the same block search in slices).
#
#   scripts/callgrind-pattern.sh INDEX
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
index=${1:?usage: scripts/callgrind-pattern.sh INDEX}
cargo build --release -q -p kifudex
k=$PWD/target/release/kifudex
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
while IFS='|' read -r name rows area; do
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.%p" \
    --toggle-collect='kifudex::pattern::search::search' \
    "$k" pattern --index "$index" --pattern "$rows" --area "$area" --threads 1 --timings --json \
    >/dev/null 2>"$out/log"
  n=$(sed -n 's/.*Collected : *//p' "$out/log" | tr -d ,)
  printf '%-24s %-9s %'"'"'15d instructions\n' "$name" "$area" "$n"
  rm -f "$out"/cg.*
done <<'LIST'
7x7 NW|......./......./...X.../..X..../..O..../......./.......|0,0,0,0
4x4 NW wildcards|..../..../..X*/..*O|0,0,0,0
5x5 N|...../...../X.O.X/...../.....|1,0,13,0
3x3 C empty triangle|XX./X../...|1,1,15,15
3x3 ANY empty triangle|XX./X../...|0,0,18,18
3x3 C XO|XO./.X./...|1,1,15,15
LIST
