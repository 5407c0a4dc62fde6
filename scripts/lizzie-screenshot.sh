#!/usr/bin/env bash
# Makes docs/lizzie-analysis.png: Debian's Lizzie (liblizzie-java) with `kifudex gtp` as its
# engine, under Xvfb, after B Q16, W D16, B Q3 played by clicks: the database's moves for
# White drawn by Lizzie from the lz-analyze lines (win rate above, games below).
#   apt-get install liblizzie-java xvfb xauth xdotool imagemagick
#   scripts/lizzie-screenshot.sh INDEX [OUT.png]     (INDEX: an index of bGo's test archive)
# Lizzie 0.7.4 checks Leela Zero's version and says it needs 0.15: the script clicks OK, after
# which the analysis runs. The clicks assume the 1400x900 screen below.
set -euo pipefail
index=$(realpath "$1")
out=$(realpath -m "${2:-docs/lizzie-analysis.png}")
kifudex=$(realpath "$(dirname "$0")/../target/release/kifudex")
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
# Lizzie writes its default configuration at its first start; then its engine is set.
HOME=$home JAVA_TOOL_OPTIONS=-Duser.home=$home timeout 20 xvfb-run -a /usr/games/lizzie >/dev/null 2>&1 || true
KIFUDEX_ENGINE="$kifudex gtp --index $index" python3 - "$home/.config/leela-zero/lizzie-config.txt" <<'PY'
import json, os, sys
c = json.load(open(sys.argv[1]))
c["leelaz"]["engine-command"] = os.environ["KIFUDEX_ENGINE"]
c["leelaz"]["print-comms"] = False
json.dump(c, open(sys.argv[1], "w"), indent=2)
PY
cat >"$home/shot.sh" <<'SH'
#!/bin/sh
/usr/games/lizzie >"$HOME/lizzie.log" 2>&1 &
# OK on the version dialog, once it is there and painted.
for i in $(seq 60); do xdotool search --name '^Message$' >/dev/null 2>&1 && break; sleep 1; done
sleep 3
for i in $(seq 10); do
  xdotool search --name '^Message$' >/dev/null 2>&1 || break
  xdotool mousemove --sync 699 469; sleep 0.3; xdotool click 1; sleep 2
done
sleep 2
for p in "866 275" "530 275" "866 639"; do                          # Q16, D16, Q3
  set -- $p
  xdotool mousemove --sync $1 $2; sleep 0.5; xdotool click 1; sleep 1.5
done
xdotool mousemove 1300 850
sleep 5
import -window root "$HOME/shot.png"
kill $! 2>/dev/null || true
SH
chmod +x "$home/shot.sh"
HOME=$home JAVA_TOOL_OPTIONS=-Duser.home=$home timeout 120 xvfb-run -a -s "-screen 0 1400x900x24" "$home/shot.sh"
convert "$home/shot.png" -crop 960x600+220+150 -strip -colors 256 "PNG8:$out"
echo "wrote $out"
