#!/usr/bin/env bash
# The scale benchmark of issue 9: builds a small and a large synthetic collection with
# `kifudex build`, times whole-process `kifudex search` on the large index, adds a fresh
# archive to it with `kifudex add` (one pass over the index) and checks the result with
# `kifudex verify`, then adds it again with `kifudex add --rebuild` (every stored game
# replayed) for comparison, checking that both give the same bytes:
#
#   SYNTH_DIR=/work/synthetic scripts/bench-scale.sh
#   SYNTH_DIR=/work/synthetic LARGE=100000 scripts/bench-scale.sh     # a trial at 100k
#
# Environment (defaults in brackets):
#   SYNTH_DIR    where the collections and indexes go, outside the repository [../synthetic]
#   SMALL        games of the small collection [30000]
#   LARGE        games of the large collection [1000000]
#   ADD          games of the archive added to the large index [10000]
#   PER_ARCHIVE  games per .tar.gz archive [10000]
#   SEED         seed of the collections [1]: the small collection is the first SMALL games
#                of the large one (the generator's output is prefix-stable), so the two
#                builds read the same kind of games; the added games are games LARGE to
#                LARGE+ADD of the same run (different from all before them)
#   RUNS         timed runs per search (the median and the minimum are printed) [11]
#   BUILD_ARGS   more arguments for `kifudex build` (e.g. `--memory 2G` once it exists) []
#   KEEP         1 keeps the indexes (named with the script's process id, so that two runs
#                do not overwrite each other's) [0: removed; the collections are kept]
#
# The collections are made by `synth` (tests/bench/src/bin/synth.rs: real openings of
# ../shared/corpus under the 8 symmetries and colour exchange, continued with random legal
# moves) and reused when `DIR.done` says they are complete. Peak RSS and CPU come from
# `/usr/bin/time -v`; search times from `hyperfine` when installed, else a loop of
# `date +%s%N`. Everything is whole-process: each search opens the index. The last lines
# are a Markdown table for the README; give the machine's load (printed before and after)
# with the numbers.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)
dir=${SYNTH_DIR:-$repo/../synthetic}
small=${SMALL:-30000}
large=${LARGE:-1000000}
add=${ADD:-10000}
per=${PER_ARCHIVE:-10000}
seed=${SEED:-1}
runs=${RUNS:-11}
read -r -a build_args <<<"${BUILD_ARGS:-}"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

cargo build --release -q -p kifudex --bin kifudex -p kifudex-bench --bin synth
target=${CARGO_TARGET_DIR:-$repo/target}
k=$target/release/kifudex
synth=$target/release/synth
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "load before: $(uptime)"

# collection GAMES [FROM]: prints the folder of a complete synthetic collection, games
# FROM (default 0) to GAMES of the run seeded with $seed. Made under a lock, so that two
# runs of this script on one SYNTH_DIR share it instead of writing it at the same time.
collection() {
  local games=$1 from=${2:-0} out="$dir/synth-s$seed-$1" fd
  [[ "$from" == 0 ]] || out="$out-from-$from"
  exec {fd}>"$out.lock"
  flock "$fd"
  if [[ ! -f "$out.done" ]]; then
    rm -rf "$out"
    "$synth" --games "$games" --from "$from" --seed "$seed" --per-archive "$per" --out "$out" >&2
    echo "synth --games $games --from $from --seed $seed --per-archive $per" >"$out.done"
  fi
  exec {fd}>&-
  echo "$out"
}

# seconds of /usr/bin/time -v's "Elapsed (wall clock) time" in $log.
wall() {
  sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }'
}
cpu() {
  awk -F': ' '/User time \(seconds\)|System time \(seconds\)/ { s += $2 } END { printf "%.2f", s }' "$log"
}
# 1234567 as 1,234,567.
commas() {
  sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"
}
rss_gb() {
  awk -F': ' '/Maximum resident set size/ { printf "%.2f", $2 / 1048576 }' "$log"
}

rows=()
declare -A per_game per_game_cpu
for games in "$small" "$large"; do
  src=$(collection "$games")
  idx="$dir/synth-s$seed-$games.$$.kdx"
  echo "build $src ..." >&2
  /usr/bin/time -v "$k" build "$src" -o "$idx" --timings "${build_args[@]}" >"$log" 2>&1 || {
    cat "$log" >&2
    exit 1
  }
  grep -E '^ *(games (read|indexed|kept)|duplicates|time|parse|gather|sort|spill|spilled|slices|merge|verify|encode|write|persist)' "$log" >&2 || true
  n=$(sed -n 's/^games kept: *\([0-9,]*\).*/\1/p' "$log" | tr -d ,)
  secs=$(wall)
  bytes=$(stat -c %s "$idx")
  per_game[$games]=$(awk -v s="$secs" -v n="$n" 'BEGIN { printf "%.2f", s / n * 1e6 }')
  per_game_cpu[$games]=$(awk -v s="$(cpu)" -v n="$n" 'BEGIN { printf "%.2f", s / n * 1e6 }')
  rows+=("| build | $(commas "$n") | $secs s ($(cpu) s CPU) | ${per_game[$games]} µs (${per_game_cpu[$games]} µs CPU) | $(rss_gb) GB | $(commas "$bytes") | $((bytes / n)) |")
done
ratio=$(awk -v a="${per_game[$large]}" -v b="${per_game[$small]}" 'BEGIN { printf "%.2f", a / b }')
ratio_cpu=$(awk -v a="${per_game_cpu[$large]}" -v b="${per_game_cpu[$small]}" 'BEGIN { printf "%.2f", a / b }')

# Whole-process searches on the large index.
idx="$dir/synth-s$seed-$large.$$.kdx"
game=$(ls ../shared/corpus/fox_pro/9p/1378623622019999782.sgf 2>/dev/null || true)
searches=("empty board|--moves="
  "after 4 moves (Q16 D4 Q4 D16)|--moves=pd,dp,pp,dd")
if [[ -n "$game" ]]; then
  searches+=("60 moves of fox_pro/9p/1378623622019999782|--sgf=$game --move=60")
fi
srows=()
for s in "${searches[@]}"; do
  name=${s%%|*}
  read -r -a args <<<"${s#*|}"
  total=$("$k" search --index "$idx" "${args[@]}" --json | grep -o '^{"hash":[^{]*"total":[0-9]*' | sed 's/.*://')
  if command -v hyperfine >/dev/null; then
    hyperfine -N -w 1 -r "$runs" --export-json "$log" "$k search --index $idx ${args[*]} --json" >/dev/null
    t=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f ms (min %.1f)" % (r["median"]*1e3, r["min"]*1e3))' "$log")
  else
    "$k" search --index "$idx" "${args[@]}" --json >/dev/null
    : >"$log"
    for _ in $(seq "$runs"); do
      a=$(date +%s%N)
      "$k" search --index "$idx" "${args[@]}" --json >/dev/null
      echo $(($(date +%s%N) - a)) >>"$log"
    done
    t=$(sort -n "$log" | awk '{ v[NR] = $1 } END { printf "%.1f ms (min %.1f)", v[int((NR + 1) / 2)] / 1e6, v[1] / 1e6 }')
  fi
  srows+=("| search: $name | $t | $total |")
done

# Add a fresh archive to a copy of the large index, then verify the result.
new=$(collection $((large + add)) "$large")
copy="$dir/synth-s$seed-$large-add.$$.kdx"
cp "$idx" "$copy"
/usr/bin/time -v "$k" add "$copy" "$new" >"$log" 2>&1 || {
  cat "$log" >&2
  exit 1
}
grep -E '^ *(added|games|duplicates|time)' "$log" >&2 || true
add_row="| add $(commas "$add") games to $(commas "$large") (one pass) | $(wall) s ($(cpu) s CPU) | | $(rss_gb) GB | $(commas "$(stat -c %s "$copy")") | |"
/usr/bin/time -v "$k" verify "$copy" >"$log" 2>&1 || {
  cat "$log" >&2
  exit 1
}
verify_row="| verify the result | $(wall) s ($(cpu) s CPU) | | $(rss_gb) GB | | |"
# The same add by a full rebuild (every stored game replayed), for comparison: the same
# bytes.
added_sum=$(md5sum <"$copy")
cp "$idx" "$copy"
/usr/bin/time -v "$k" add --rebuild "$copy" "$new" >"$log" 2>&1 || {
  cat "$log" >&2
  exit 1
}
rebuild_row="| add --rebuild, the same | $(wall) s ($(cpu) s CPU) | | $(rss_gb) GB | $(commas "$(stat -c %s "$copy")") | |"
[[ "$(md5sum <"$copy")" == "$added_sum" ]] || {
  echo "add and add --rebuild differ" >&2
  exit 1
}
if [[ "${KEEP:-0}" != 1 ]]; then
  rm -f "$copy" "$dir/synth-s$seed-$small.$$.kdx" "$idx"
fi

echo "load after: $(uptime)"
echo
echo "Synthetic collections (seed $seed; the $(commas "$small") games are the first of the $(commas "$large"), the $(commas "$add") added the next), $(nproc) cores:"
echo
echo "| step | games | wall time (CPU) | per game | peak RSS | index bytes | bytes per game |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}" "$add_row" "$verify_row" "$rebuild_row"
echo
echo "Seconds per game, $(commas "$large") vs $(commas "$small") games: ${ratio}x wall, ${ratio_cpu}x CPU."
echo "Issue 9's goals at 1,000,000 games: peak RSS under 4.5 GB with the defaults, at most 1.5x the"
echo "seconds per game of 30,000, whole-process search under 50 ms, add in time proportional to the"
echo "new games plus one sequential pass."
echo
echo "| whole-process search on the $(commas "$large")-game index | median of $runs (min) | games |"
echo "|---|---|---|"
printf '%s\n' "${srows[@]}"
