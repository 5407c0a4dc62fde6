#!/usr/bin/env bash
# Writes the pattern search's answers of one binary on one index into a folder, so that two
# binaries' folders can be compared byte for byte (`diff -r OLD NEW`): for each pattern of
# the list below, `pattern --json`, `pattern --by-year --json`, `pattern --hits --limit
# 100000 --json` and `games --pattern --json`, each with one thread and with the default
# pool.
#
#   scripts/pattern-golden.sh BINARY INDEX OUT_DIR
#
# The list covers the six benchmark patterns (scripts/bench-pattern.sh) and corner, side,
# centre and anywhere patterns, wildcards, fixed colour, symmetric ones, patterns that
# appear through captures, 1x1 and large ones.
set -euo pipefail
bin=${1:?usage: scripts/pattern-golden.sh BINARY INDEX OUT_DIR}
index=${2:?usage: scripts/pattern-golden.sh BINARY INDEX OUT_DIR}
out=${3:?usage: scripts/pattern-golden.sh BINARY INDEX OUT_DIR}
mkdir -p "$out"
n=0
while IFS='|' read -r rows area fixed; do
  n=$((n + 1))
  args=(--index "$index" --pattern "$rows")
  [[ -n "$area" ]] && args+=(--area "$area")
  [[ "$fixed" == fixed ]] && args+=(--fixed-color)
  name=$(printf '%02d' "$n")
  printf '%s|%s|%s\n' "$rows" "$area" "$fixed" >"$out/$name.pattern"
  for threads in 1 default; do
    env=()
    [[ "$threads" == 1 ]] && env=(RAYON_NUM_THREADS=1)
    env "${env[@]}" "$bin" pattern "${args[@]}" --json >"$out/$name.t$threads.json"
    env "${env[@]}" "$bin" pattern "${args[@]}" --by-year --json >"$out/$name.t$threads.years.json"
    env "${env[@]}" "$bin" pattern "${args[@]}" --hits --limit 100000 --json \
      >"$out/$name.t$threads.hits.json"
    env "${env[@]}" "$bin" games "${args[@]}" --json >"$out/$name.t$threads.games.json"
  done
  echo "$name $rows ${area:-all} ${fixed}: $(head -c 60 "$out/$name.t1.json")" >&2
done <<'LIST'
......./......./...X.../..X..../..O..../......./.......|0,0,0,0|
..../..../..X*/..*O|0,0,0,0|
...../...../X.O.X/...../.....|1,0,13,0|
XX./X../...|1,1,15,15|
XX./X../...|0,0,18,18|
XO./.X./...|1,1,15,15|
.X./X.X/.X.||
.|0,0,18,18|
X|2,2,16,16|fixed
XO/OX||
XO/OX||fixed
X.O||
xoo/***||
*X*/O*O|0,0,16,0|
.O./O.O/...|1,1,15,15|
x.x/.O./x.x||fixed
xxx/xXx/xxx|1,1,15,15|
...../...../..X../...../.....|1,1,13,13|
O|3,3,3,3|
XOX/O.O|0,0,16,17|
......../......../..X.O.../........|0,0,0,0|
...X/..O./.X../O...||
*|9,9,9,9|
XX/XX||fixed
X|0,0,18,18|
...|0,0,16,18|
LIST
