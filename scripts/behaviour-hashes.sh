#!/usr/bin/env bash
# The outputs that a refactoring must leave byte for byte as they were, written into a folder
# and summed: builds of the corpus (indexes and books), the JSON and text of search, games,
# game, pattern (hits, profiles, exports), shapes, info and the predictor's evaluation with
# their refusals, hint replies, scripted shell sessions (every command and refusal, the
# predictor, imports), GTP and KataGo-protocol sessions, and the web API's answers (status line and body; for the second
# server, with a predictor, every header but the date) from `kifudex serve` on loopback.
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
server2=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  if [ -n "$server2" ]; then kill "$server2" 2>/dev/null || true; fi
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
  # -g: brackets in a URL (SGF's `B[pd]`) are sent as they are, not read as a glob.
  curl -s -g -D "$work/headers" -o "$out/web-$i.body" "http://127.0.0.1:$port$url" || true
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

# More of the query layer: pattern hits and profiles as text, exports, patterns cut from a
# record, the games of a pattern as text, sizes and set-ups, refusals, the predictor's
# evaluation.
run pattern-hits-text "$k" pattern --index "$fox" --pattern 'XX./X../...' --area 1,1,15,15 --hits --limit 40 --offset 3
run pattern-years-text "$k" pattern --index "$fox" --pattern '..../..../..X*/..*O' --area 0,0,0,0 --by-year --marks 3
run pattern-fixed-years "$k" pattern --index "$fox" --pattern '..X/.O./...' --fixed-color --by-year --json
run pattern-filter-text "$k" pattern --index "$fox" --pattern '..X/.O./...' --year-from 2016 --winner B --player e
run pattern-games-text "$k" games --index "$fox" --pattern 'XX./X../...' --limit 15 --offset 2
run pattern-sgf "$k" pattern --index "$fox" --sgf "$corpus/aeb_alphago/LeeSedol/1.sgf" --move 30 --region 0,0,6,6 --json
run pattern-sgf-text "$k" pattern --index "$fox" --sgf "$corpus/aeb_alphago/LeeSedol/1.sgf" --move 30 --region 12,0,18,6
run pattern-sgf-past "$k" pattern --index "$fox" --sgf "$corpus/aeb_alphago/LeeSedol/1.sgf" --move 3000 --region 0,0,6,6
run pattern-sgf-region "$k" pattern --index "$fox" --sgf "$corpus/aeb_alphago/LeeSedol/1.sgf" --region 5,5,1,1
run pattern-none "$k" pattern --index "$fox" --json
run pattern-export "$k" pattern --index "$fox" --pattern 'XX./X../...' --area 1,1,15,15 --year-from 2016 --export "$work/export"
(cd "$work/export" && ls && cat ./*) >"$out/pattern-export.files"
run pattern-export-zip "$k" pattern --index "$fox" --pattern 'XX./X../...' --area 1,1,15,15 --export "$work/export.zip"
unzip -l "$work/export.zip" | awk 'NR > 3 { print $1, $4 }' >"$out/pattern-export-zip.files"
unzip -p "$work/export.zip" >>"$out/pattern-export-zip.files"
run pattern-export-again "$k" pattern --index "$fox" --pattern 'XX./X../...' --export "$work/export"
run search-marks "$k" search --index "$fox" --moves pd,dp --marks 3 --swap --winner W
run search-19x9 "$k" search --index "$all" --size 19x9 --moves '' --json
run search-13 "$k" search --index "$all" --size 13 --moves dd
run search-setup-text "$k" search --index "$fox" --ab pd,dp --aw dd --to-move W --moves pp
run search-sgf-past "$k" search --index "$fox" --sgf "$corpus/aeb_alphago/LeeSedol/1.sgf" --move 9999 --json
run search-bad-ab "$k" search --index "$fox" --ab pass --json
run search-bad-size "$k" search --index "$fox" --size 20 --json
run search-bad-index "$k" search --index "$work/book.kdb" --json
run games-bad-sort "$k" games --index "$fox" --moves pd --sort elo
run games-swap-text "$k" games --index "$fox" --moves pd,dc --swap --limit 20
for id in 10336 -1; do
  run "game-bad-$id" "$k" game --index "$fox" -- "$id"
done
run predict-eval "$k" predict --index "$work/9x9.kdx" --eval --json --quiet
run predict-eval-text "$k" predict --index "$work/9x9.kdx" --eval --quiet --test-every 5
run serve-bad-book "$k" serve --index "$fox" --addr 127.0.0.1:1 --book "$fox"

# The shell: every command, its refusals, the predictor, imports into a file and into the
# bundled sample.
shell_all=$'help\ncommands\nboard\nsearch\nplay pd dp pp\nplay a\nboard\nrotations\nplay zz\nplay q99\nplay a pd\nundo\nundo 0\nundo 2\nmarks\nmarks 3\nsearch\nmarks 99\nmarks 12\nyear\nyear 2016\nsearch\nyear 2015 2018\nyear 2018 2015\nyear x\nyear off\nswap\nswap on\nsearch\ngames\ngames 3\nreplay 2\nnext\nnext 5\nprev 2\nprev 1000\nprev\nreplay 2 0\nreplay 99\nreplay id 0 10\nreplay id 0 99999\nreplay id 99999\nreplay id x\nreplay x\nreplay\nnext 100000\nswap off\nboard reset\nplay Q16 D4 Q4 D16\ngames 5\nreplay 1\npattern ..X/.O./...\npattern X.O 0,0,3,3 fixed\npattern cut 0,0,5,5\npattern cut 0,0,5,5 0,0,0,0\npattern cut 0,0,19,5\npattern ..Y\npattern\npredict\npredict 3\npredict 0\nundo 100\nplay pass\nsearch\nls /no/such/path\nls a b\ncd /no/such/path\ncwd now\nimport\nimport /no/such/path\nbogus\nsearch now\n\xff\xfe\nexit\n'
run_in shell-all "$shell_in$shell_all" "$k" shell "$fox" --predictor "$work/predictor.kdb"
run_in shell-all-sample "$shell_all" "$k" shell
run_in shell-bad-book $'predict\n' "$k" shell "$fox" --predictor "$fox"
cp "$work/9x9.kdx" "$work/import.kdx"
run_in shell-import "play ee
year 2015 2020
swap on
search
import $corpus/fuego_regression
search
games 3
import $corpus/tricky/in-corpus-examples
search
import /no/such
exit
" "$k" shell "$work/import.kdx"
cp "$work/import.kdx" "$out/shell-import.kdx.bytes"
run_in shell-import-sample "play pd
import $corpus/aeb_alphago/LeeSedol
search
games 2
exit
" "$k" shell

# The engines: a GTP session (with a predictor for genmove where no game continues) and
# KataGo's JSON analysis protocol. (No lz-analyze: how many lines it writes depends on time.)
gtp_in="protocol_version
name
version
list_commands
boardsize 19
clear_board
komi 6.5
play B Q16
play W D4
genmove B
showboard
list_stones black
kifudex-database_moves W
gogui-analyze_commands
undo
play B A1
play W T19
play B A19
genmove W
boardsize 13
boardsize 9
printsgf
loadsgf $corpus/aeb_alphago/LeeSedol/1.sgf 12
genmove B
final_score
bogus
play X Q16
quit
"
run_in gtp "$gtp_in" "$k" gtp --index "$fox" --book "$work/predictor.kdb"
run_in gtp-filter "$gtp_in" "$k" gtp --index "$fox" --year-from 2016 --winner W
analysis_in='{"id":"a","moves":[["B","Q16"],["W","D4"]],"rules":"japanese","komi":6.5,"boardXSize":19,"boardYSize":19,"analyzeTurns":[0,1,2],"includePolicy":true}
{"id":"b","moves":[],"boardXSize":9,"boardYSize":9}
not json
{"id":"c"}
'
run_in analysis "$analysis_in" "$k" analysis --index "$fox"
run analysis-book "$k" analysis --index "$fox" --book "$work/predictor.kdb"

# The web API beyond the routes above: with a predictor, headers, and every refusal.
"$k" serve --index "$fox" --addr "127.0.0.1:$((port + 1))" --book "$work/predictor.kdb" >"$work/serve2.log" 2>&1 &
server2=$!
for _ in $(seq 1 100); do
  curl -s -o /dev/null "http://127.0.0.1:$((port + 1))/api/info" && break
  sleep 0.1
done
# get NAME PATH [CURL ARGS...]: the status line, every header but the date, and the body.
get() {
  local name=$1 path=$2
  shift 2
  curl -sS -g -i "$@" "http://127.0.0.1:$((port + 1))$path" 2>&1 | tr -d '\r' | grep -vi '^date:' >"$out/api-$name.reply" || true
}
i=0
while read -r url; do
  i=$((i + 1))
  get "$i" "$url"
done <<'URLS'
/api/info
/api/info?x=1
/api/predict?moves=pd,dp,pp
/api/predict?moves=pd,pd
/api/predict?ab=pd%2Cdp&aw=dd&to_move=W&moves=pp
/api/position?moves=pd,pd
/api/position?moves=dd,ed,ec,fc,fd,gd,ee,fe,ed,dd
/api/position?moves=PD,DP,zz
/api/position?moves=pd,,dp
/api/position?size=9&moves=ee,cc&to_move=W
/api/search?ab=pd%2Cdp&aw=dd&to_move=W&moves=pp
/api/search?moves=pd&moves=dp
/api/search?mvoes=pd
/api/search?size=20
/api/search?to_move=X
/api/search?swap=yes
/api/search?year_from=abc
/api/search?winner=Q
/api/search?moves=pd&handicap=0&player=Ke&winner=B
/api/years?moves=pd&top=1
/api/years?top=10
/api/years?top=11
/api/years?moves=pd,dd&top=3&year_from=2016
/api/games?moves=pd,dc&swap=1
/api/games?limit=1001
/api/games?limit=0
/api/games?offset=-1
/api/games?sort=elo
/api/games?moves=pd&sort=black
/api/games?moves=pd&sort=move&limit=10
/api/games?moves=pd&sort=&limit=&offset=
/api/pattern?pattern=
/api/pattern?pattern=..Y
/api/pattern?pattern=X&area=1,2
/api/pattern?pattern=X&by_year=2
/api/pattern?pattern=X&moves=pd
/api/pattern?pattern=..Y&bogus=1
/api/pattern?pattern=X.O&area=0,0,3,3&fixed_color=1&year_from=2016
/api/pattern/games?pattern=X&limit=1001
/api/pattern/games?pattern=X&by_year=1
/api/pattern/games?pattern=X.O&limit=0
/api/game/0
/api/game/0.sgf
/api/game/-1
/api/game/abc
/api/game/12.SGF
/api/game/1e3
/api/game/..%2F
/api/game/99999999999
/api/game/0?x=1
/api/sgf
/api/sgf?sgf=
/api/sgf?sgf=hello
/api/sgf?sgf=(;GM[1]SZ[19];B[zz];W[pd])
/api/sgf?sgf=(;GM[1]SZ[9];B[ee])(;GM[1];B[aa])
/api/sgf?sgf=(;GM[1]SZ[9]AB[aa][bb]AW[cc];B[ee]AE[aa];W[dd]AB[ii])
/api
/api/nothing
/nope.html
/index.html
/style.css
/board.js
/favicon.svg
URLS
get traversal "/../Cargo.toml" --path-as-is
get put "/api/search?moves=pd" -X PUT
get delete "/" -X DELETE
get head "/api/info" -I
get body "/api/info" -X GET --data "x=1"
get long "/api/search?moves=$(printf 'pd,%.0s' $(seq 1 25000))"
get etag "/app.js" -H "If-None-Match: $(curl -s -i "http://127.0.0.1:$((port + 1))/app.js" | tr -d '\r' | grep -i '^etag:' | cut -d' ' -f2)"
kill "$server2" 2>/dev/null || true

# Paths of this run's scratch folder and of the corpus, in any output, become fixed words.
for f in "$out"/*.out "$out"/*.body "$out"/*.files "$out"/*.reply; do
  sed -i "s|$work|WORK|g; s|$corpus|CORPUS|g" "$f"
done

cd "$out"
find . -type f ! -name SHA256SUMS | sort | xargs sha256sum >SHA256SUMS
cat SHA256SUMS
