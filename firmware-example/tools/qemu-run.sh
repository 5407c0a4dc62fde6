#!/usr/bin/env bash
# Runs the firmware ELF ($1) on QEMU's mps2-an386 (Cortex-M4F), as `cargo run` does: standard
# input goes to UART0, UART0 to standard output (the replies and nothing else), and the defmt
# frames the firmware writes to semihosting standard output are decoded by `defmt-print` onto
# standard error. `-icount shift=0`: one emulated nanosecond per instruction, so the SysTick the
# firmware reads counts instructions (README.md, "Measuring").
#
# QEMU 7.2 sends semihosting standard output to its own standard output, so UART0 is a pipe
# chardev (two FIFOs) relayed to standard output here. With KIFUDEX_DEFMT=FILE the raw defmt
# stream goes to FILE instead (the firmware test decodes it with `defmt-print -e ELF < FILE`).
# The exit status is QEMU's: 0 after `quit`, 1 after a panic or a hard fault.
set -euo pipefail
elf=$1
dir=$(mktemp -d)
feeder=""
cleanup() {
  [ -z "$feeder" ] || kill "$feeder" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
mkfifo "$dir/uart.in" "$dir/uart.out"
cat "$dir/uart.out" &
relay=$!
cat <&0 >"$dir/uart.in" &
feeder=$!
qemu() {
  qemu-system-arm -machine mps2-an386 -cpu cortex-m4 -display none -monitor none \
    -chardev "pipe,id=uart,path=$dir/uart" -serial chardev:uart \
    -semihosting-config enable=on,target=native -icount shift=0 -kernel "$elf"
}
status=0
if [ -n "${KIFUDEX_DEFMT:-}" ]; then
  qemu >"$KIFUDEX_DEFMT" || status=$?
elif command -v defmt-print >/dev/null; then
  qemu | defmt-print -e "$elf" --log-format '{s}' >&2 || status=${PIPESTATUS[0]}
else
  echo "qemu-run: defmt-print is not installed (cargo install defmt-print): no log" >&2
  qemu >/dev/null || status=$?
fi
# If QEMU never opened UART0's FIFO (it failed to start), the relay still waits to open it:
# a read-write open (which never blocks) lets it through to the end of its input.
exec 3<>"$dir/uart.out"
exec 3>&-
wait "$relay" || true
exit "$status"
