#!/usr/bin/env bash
# Times the six pattern searches of issue 11 (Kombilo's figures: reference/README.md) on an
# index, one thread, through the command line:
#
#   scripts/bench-pattern.sh INDEX [REPEAT]
#
# Prints, per pattern, the median search time of REPEAT searches (default 5) after one
# open of the index and one computation of its pattern data, then the load of the machine.
# Works for any index: fox_pro (target/release/kifudex build ../shared/corpus/fox_pro -o
# fox.kdx) or a collection of a million games.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
index=${1:?usage: scripts/bench-pattern.sh INDEX [REPEAT]}
repeat=${2:-5}
cargo build --release -q -p kifudex
k=target/release/kifudex
while IFS='|' read -r name rows area; do
  printf '%-24s %-60s %-9s ' "$name" "$rows" "$area"
  "$k" pattern --index "$index" --pattern "$rows" --area "$area" --threads 1 --timings \
    --repeat "$repeat" --json 2>&1 >/dev/null | sed -n 's/^search: *//p'
done <<'LIST'
7x7 NW|......./......./...X.../..X..../..O..../......./.......|0,0,0,0
4x4 NW wildcards|..../..../..X*/..*O|0,0,0,0
5x5 N|...../...../X.O.X/...../.....|1,0,13,0
3x3 C empty triangle|XX./X../...|1,1,15,15
3x3 ANY empty triangle|XX./X../...|0,0,18,18
3x3 C XO|XO./.X./...|1,1,15,15
LIST
"$k" pattern --index "$index" --pattern X --area 9,9,9,9 --threads 1 --timings --json 2>&1 >/dev/null \
  | grep -E 'open index|pattern data'
uptime
