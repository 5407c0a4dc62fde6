#!/usr/bin/env bash
# The outputs that a refactoring must leave byte for byte as they were, written into a folder
# and summed: builds of the corpus (indexes and books), the JSON and text of search, games,
# game, pattern, shapes and info, hint replies, a scripted shell session, and the web API's
# answers (status line and body) from a running `kifudex serve` on loopback.
#
#   scripts/behaviour-hashes.sh OUT_DIR [KIFUDEX_BINARY]
#
# Prints one `sha256  name` line per output (also in OUT_DIR/SHA256SUMS). Two trees compare
# with `diff OUT1/SHA256SUMS OUT2/SHA256SUMS` (and `diff -r OUT1 OUT2` to see what moved).
# The corpus is read from ../shared/corpus (the repository's sibling folder).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:?usage: scripts/behaviour-hashes.sh OUT_DIR [KIFUDEX_BINARY]}
k=${2:-}
if [ -z "$k" ]; then
  cargo build --release -q -p kifudex
  k=target/release/kifudex
fi
k=$(realpath "$k")
corpus=$(realpath ../shared/corpus)
mkdir -p "$out"
out=$(realpath "$out")
work=$(mktemp -d "${TMPDIR:-/tmp}/kifudex-behaviour.XXXXXX")
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# run NAME COMMAND...: standard output to OUT/NAME.out, the exit status to OUT/NAME.status,
# standard error to OUT/NAME.err with the timing lines of a build's summary taken out.
run() {
  local name=$1
  shift
  local rc=0
  "$@" >"$out/$name.out" 2>"$work/err" </dev/null || rc=$?
  echo "$rc" >"$out/$name.status"
  grep -Ev '([0-9]+(\.[0-9]+)? ?(ms|s|µs)\b)|games/s|files/s|MB/s|peak|elapsed' "$work/err" \
    | sed "s|$work|WORK|g; s|$corpus|CORPUS|g" >"$out/$name.err" || true
}
# Like run, with standard input from a string.
run_in() {
  local name=$1 input=$2
  shift 2
  local rc=0
  printf '%s' "$input" | "$@" >"$out/$name.out" 2>"$work/err" || rc=$?
  echo "$rc" >"$out/$name.status"
  sed "s|$work|WORK|g; s|$corpus|CORPUS|g" "$work/err" >"$out/$name.err"
}

# Builds: files whose bytes must not change.
run build-fox "$k" build "$corpus/fox_pro" -o "$work/fox.kdx"
run build-all "$k" build "$corpus" -o "$work/all.kdx"
run build-9x9 "$k" build "$corpus/aeb_9x9" -o "$work/9x9.kdx"
run build-book "$k" build "$corpus/fox_pro" "$corpus/yenw_ai" -o "$work/book.kdb" \
  --profile mcu --max-moves 40 --min-count 2
run build-book-predictor "$k" build "$corpus/aeb_alphago" "$corpus/bgo_testsgf" \
  -o "$work/predictor.kdb" --profile mcu --max-moves 20 --min-count 2 --predictor
for f in fox.kdx all.kdx 9x9.kdx book.kdb predictor.kdb; do
  cp "$work/$f" "$out/$f.bytes"
done
run merge "$k" merge "$work/fox.kdx" "$work/9x9.kdx" -o "$work/merged.kdx"
cp "$work/merged.kdx" "$out/merged.kdx.bytes"
cp "$work/fox.kdx" "$work/added.kdx"
run add "$k" add "$work/added.kdx" "$corpus/aeb_alphago"
cp "$work/added.kdx" "$out/added.kdx.bytes"

fox=$work/fox.kdx
all=$work/all.kdx
# Searches: JSON and text, filters, sizes, swaps, errors.
i=0
for args in \
  "--moves pd,dp,pp" "--moves ''" "--moves pd,dd,pp,dp" "--moves pd,dp,pp,dd,fq" \
  "--moves Q16,D4" "--moves pd,pd" "--moves pd,,dp" "--moves pd,dp,pp --swap" \
  "--moves pd,dp --year-from 2015 --year-to 2018" "--moves pd --player Ke" \
  "--moves pd,dp --winner W" "--moves pd,dp --handicap 0" "--ab dd,pp --aw dp --to-move W" \
  "--sgf $corpus/tricky/$(ls "$corpus/tricky" | head -1)"; do
  i=$((i + 1))
  eval "run search-$i-json \"\$k\" search --index \"\$fox\" $args --json"
  eval "run search-$i-text \"\$k\" search --index \"\$fox\" $args"
  eval "run games-$i-json \"\$k\" games --index \"\$fox\" $args --json --limit 30"
  eval "run games-$i-text \"\$k\" games --index \"\$fox\" $args --limit 30"
done
run search-9x9 "$k" search --index "$all" --size 9 --moves ee --json
run search-all "$k" search --index "$all" --moves pd,dp --json
for sort in newest date black white result event move -date; do
  run "games-sort-$sort" "$k" games --index "$fox" --moves pd,dp --sort "$sort" --limit 50 --offset 7 --json
done
for id in 0 1 17 500 10335 99999; do
  run "game-$id-json" "$k" game --index "$fox" "$id"
  run "game-$id-sgf" "$k" game --index "$fox" "$id" --sgf
done

# Patterns: the six benchmark ones and more kinds.
i=0
while IFS='|' read -r rows area extra; do
  i=$((i + 1))
  a=()
  [ -n "$area" ] && a=(--area "$area")
  # shellcheck disable=SC2086
  run "pattern-$i-json" "$k" pattern --index "$fox" --pattern "$rows" "${a[@]}" $extra --json
  # shellcheck disable=SC2086
  run "pattern-$i-text" "$k" pattern --index "$fox" --pattern "$rows" "${a[@]}" $extra
  # shellcheck disable=SC2086
  run "pattern-$i-years" "$k" pattern --index "$fox" --pattern "$rows" "${a[@]}" $extra --by-year --json
  # shellcheck disable=SC2086
  run "pattern-$i-hits" "$k" pattern --index "$fox" --pattern "$rows" "${a[@]}" $extra --hits --limit 100000 --json
  # shellcheck disable=SC2086
  run "pattern-$i-games" "$k" games --index "$fox" --pattern "$rows" "${a[@]}" $extra --json --limit 1000
done <<'LIST'
......./......./...X.../..X..../..O..../......./.......|0,0,0,0|
..../..../..X*/..*O|0,0,0,0|
...../...../X.O.X/...../.....|1,0,13,0|
XX./X../...|1,1,15,15|
XX./X../...|0,0,18,18|
XO./.X./...|1,1,15,15|
XX./X../...||--fixed-color
X||
.X./X.X/.X.||
xxx/xOx/xxx||
....../....../..X.../......|0,0,0,0|--fixed-color
*****/*...*/*.X.*/*...*/*****||
oo/XX||--year-from 2016 --player Ke
...../...../..X../...../.....|7,7,7,7|
..../.X../..O./....|0,0,15,15|
XOX/O.O|||
..X/...|||
LIST
run pattern-bad-rows "$k" pattern --index "$fox" --pattern 'XX/X' --json
run pattern-bad-area "$k" pattern --index "$fox" --pattern 'XX' --area 1,2,3 --json

# Shapes, info, verify.
run shapes-json "$k" shapes --index "$fox" --json
run shapes-text "$k" shapes --index "$fox"
run info "$k" info --index "$fox"
run info-book "$k" info --index "$work/book.kdb"
run verify "$k" verify "$fox"

# Hint replies from both books.
hints_in=$'moves pd,dp,pp\nmoves\nmoves pd,dd,pp,dp\nmoves pd,pd\nboard 9 .........................................................................Xx......\nboard 19 '"$(printf '%.0s.' $(seq 1 60))X$(printf '%.0s.' $(seq 1 300))"$'\nhello\nmoves qd,dc,pq,oc\nquit\n'
run_in hints-book "$hints_in" "$k" hints --index "$work/book.kdb"
run_in hints-predictor "$hints_in" "$k" hints --index "$work/predictor.kdb"

# A shell session, scripted.
shell_in=$'play pd dp pp\nplay a\nundo\nyear 2012\ngames 5\nreplay 2\nnext\nrotations\nhelp\npattern XX./X../... 1,1,15,15\nquit\n'
run_in shell-sample "$shell_in" "$k" shell
run_in shell-fox "$shell_in" "$k" shell "$fox"

# The web API, every route, with errors.
port=$((20000 + RANDOM % 20000))
"$k" serve --index "$fox" --addr "127.0.0.1:$port" >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
  curl -s -o /dev/null "http://127.0.0.1:$port/api/info" && break
  sleep 0.1
done
i=0
while read -r url; do
  i=$((i + 1))
  curl -s -D "$work/headers" -o "$out/web-$i.body" "http://127.0.0.1:$port$url" || true
  { echo "$url"; head -1 "$work/headers" | tr -d '\r'; grep -i '^content-type' "$work/headers" | tr -d '\r'; } >"$out/web-$i.head"
done <<'URLS'
/api/info
/api/search?moves=pd,dp,pp
/api/search?moves=pd,dp,pp&swap=1&year_from=2015
/api/search?moves=pd,pd
/api/search?moves=hello
/api/games?moves=pd,dp&limit=20&offset=3&sort=-date
/api/games?moves=pd&limit=5000
/api/years?moves=pd,dp&top=3
/api/position?moves=pd,dp,pp,dd&ab=jj
/api/position?ab=pd&aw=pd
/api/game/3
/api/game/3.sgf
/api/game/999999
/api/pattern?pattern=XX./X../...&area=1,1,15,15
/api/pattern?pattern=..../..../..X*/..*O&area=0,0,0,0&by_year=1
/api/pattern?pattern=XX/X
/api/pattern/games?pattern=XX./X../...&limit=10&offset=5
/api/predict?moves=pd
/api/sgf?sgf=(;SZ[19];B[pd];W[dp])
/api/nothing
/
/app.js
URLS
curl -s -X POST -D "$work/headers" -o "$out/web-post.body" "http://127.0.0.1:$port/api/info" || true
head -1 "$work/headers" | tr -d '\r' >"$out/web-post.head"

# Paths of this run's scratch folder and of the corpus, in any output, become fixed words.
for f in "$out"/*.out "$out"/*.body; do
  sed -i "s|$work|WORK|g; s|$corpus|CORPUS|g" "$f"
done

cd "$out"
find . -type f ! -name SHA256SUMS | sort | xargs sha256sum >SHA256SUMS
cat SHA256SUMS
