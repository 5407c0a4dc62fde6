#!/usr/bin/env bash
# Times the six pattern searches of issue 11 on an index, one thread, through the command
# line, and (optionally) Kombilo's driver on the same patterns in the same run:
#
#   scripts/bench-pattern.sh INDEX [REPEAT]
#   KOMBILO=DRIVER KOMBILO_DB=DB [KOMBILO_REPEAT=3] scripts/bench-pattern.sh INDEX [REPEAT]
#   THREADS=default scripts/bench-pattern.sh INDEX [REPEAT]    # kifudex on rayon's default pool
#
# THREADS (default 1) is kifudex's `--threads`; `default` leaves the pool at all cores
# (Kombilo runs on one thread either way).
#
# Prints one Markdown table row per pattern: kifudex's median and minimum of REPEAT
# searches (default 21) after one open of the index and one computation of its pattern
# data, its CPU time per search (the mean; less sensitive to other processes), and
# Kombilo's median and minimum (`../shared/peers/kombilo/`: `build.sh` makes
# DRIVER, `DRIVER build DB ../shared/corpus/fox_pro` the database), each with its hits and
# games; then the open costs and the load of the machine (`uptime`) before and after.
# Works for any index: fox_pro (target/release/kifudex build ../shared/corpus/fox_pro -o
# fox.kdx) or a collection of a million games (without Kombilo).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
index=${1:?usage: scripts/bench-pattern.sh INDEX [REPEAT]}
repeat=${2:-21}
krepeat=${KOMBILO_REPEAT:-3}
threads=${THREADS:-1}
targs=(--threads "$threads")
[[ "$threads" == default ]] && targs=()
cargo build --release -q -p kifudex
k=target/release/kifudex
echo "load before: $(uptime)"
echo "| pattern | area | kifudex median (min) | kifudex CPU | hits / games | Kombilo median (min) | hits / games |"
echo "|---|---|---|---|---|---|---|"
while IFS='|' read -r name rows area kind; do
  t=$("$k" pattern --index "$index" --pattern "$rows" --area "$area" "${targs[@]}" --timings \
    --repeat "$repeat" --json 2>&1 >/dev/null)
  kx=$(sed -n 's/^search: *\([0-9.]*\) ms.*(min \([0-9.]*\),.*/\1 ms (\2)/p' <<<"$t")
  cpu=$(sed -n 's/^search CPU: *\([0-9.]*\) ms.*/\1 ms/p' <<<"$t")
  kc=$("$k" pattern --index "$index" --pattern "$rows" --area "$area" --json \
    | sed -n 's/^{"games":\([0-9]*\),"hits":\([0-9]*\),.*/\2 \/ \1/p')
  ko="" kh=""
  if [[ -n "${KOMBILO:-}" ]]; then
    line=$(OMP_NUM_THREADS=1 "$KOMBILO" search "$KOMBILO_DB" "$krepeat" \
      "pat:$kind:$(tr -d / <<<"$rows" | awk -v r="$rows" '{n=split(r,a,"/"); printf "%d:%d:%s", length(a[1]), n, $0}')" \
      | grep '^kombilo_search')
    ko=$(sed -n 's/.* min_ms=\([0-9.]*\) median_ms=\([0-9.]*\).*/\2 ms (\1)/p' <<<"$line")
    kh=$(sed -n 's/.* hits=\([0-9]*\) games=\([0-9]*\).*/\1 \/ \2/p' <<<"$line")
  fi
  echo "| $name \`$rows\` | $kind | $kx | $cpu | $kc | $ko | $kh |"
done <<'LIST'
7x7|......./......./...X.../..X..../..O..../......./.......|0,0,0,0|NW
4x4 (wildcards)|..../..../..X*/..*O|0,0,0,0|NW
5x5|...../...../X.O.X/...../.....|1,0,13,0|N
3x3 empty triangle|XX./X../...|1,1,15,15|C
3x3 empty triangle|XX./X../...|0,0,18,18|ANY
3x3|XO./.X./...|1,1,15,15|C
LIST
"$k" pattern --index "$index" --pattern X --area 9,9,9,9 --threads 1 --timings --json 2>&1 >/dev/null \
  | grep -E 'open index|pattern data'
echo "load after: $(uptime)"
