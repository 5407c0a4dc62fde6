#!/usr/bin/env python3
"""Exact instruction profile of one hint request on the firmware under QEMU.

Usage (from firmware-example/, after `cargo build --release`):

    printf 'moves pd,dp,pp\\nquit\\n' > /tmp/req.txt
    python3 tools/profile.py target/thumbv7em-none-eabihf/release/kifudex-firmware-example /tmp/req.txt

QEMU logs every executed instruction (`-singlestep -d exec,nochain`); the instructions
between the firmware's first two calls of `now()` (the first request's line end and its LED
frame) are counted and attributed with `llvm-symbolizer --inlining`: by source line, by
innermost function and by the outermost kifudex function they were inlined into.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    elf, requests = sys.argv[1], sys.argv[2]
    nm = subprocess.run(["llvm-nm", elf], capture_output=True, text=True, check=True).stdout
    marks = [int(l.split()[0], 16) for l in nm.splitlines() if "example3now" in l]
    if not marks:
        sys.exit("no `now` symbol in " + elf)
    mark = marks[0]
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace.txt")
        with open(requests, "rb") as stdin:
            subprocess.run(
                ["timeout", "600", "qemu-system-arm", "-machine", "mps2-an386", "-cpu", "cortex-m4",
                 "-display", "none", "-monitor", "none", "-serial", "stdio",
                 "-semihosting-config", "enable=on,target=native", "-icount", "shift=0",
                 "-singlestep", "-d", "exec,nochain", "-D", trace, "-kernel", elf],
                stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pcs, marks_seen = [], 0
        pc_re = re.compile(r"\[[0-9a-f]{8}/([0-9a-f]{8})/")
        with open(trace) as f:
            for line in f:
                m = pc_re.search(line)
                if not m:
                    continue
                pc = int(m.group(1), 16)
                if pc == mark:
                    marks_seen += 1
                    if marks_seen == 2:
                        break
                    continue
                if marks_seen == 1:
                    pcs.append(pc)
    counts = collections.Counter(pcs)
    addrs = sorted(counts)
    out = subprocess.run(["llvm-symbolizer", "--inlining", "--obj=" + elf] + [hex(a) for a in addrs],
                         capture_output=True, text=True, check=True).stdout
    blocks = out.strip().split("\n\n")
    inner, outer, lines = collections.Counter(), collections.Counter(), collections.Counter()
    clean = lambda f: re.sub(r"::h[0-9a-f]{16}$", "", f)
    for a, block in zip(addrs, blocks):
        rows = block.split("\n")
        names, locs = [clean(n) for n in rows[0::2]], rows[1::2]
        n = counts[a]
        inner[names[0]] += n
        core = [f for f in names if "kifudex_core" in f and "hints" not in f]
        outer[core[-1] if core else names[-1]] += n
        lines[locs[0].replace(os.getcwd() + "/", "")] += n
    print(f"instructions: {len(pcs)}")
    for title, c in (("outermost core function", outer), ("innermost function", inner),
                     ("source line", lines)):
        print(f"\n-- by {title}")
        for k, v in c.most_common(20):
            print(f"{v:8d}  {k}")


if __name__ == "__main__":
    main()
