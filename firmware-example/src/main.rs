//! kifudex's microcontroller example: the hint protocol (docs/HINTS.md) on UART0, answered from a
//! book in flash by `kifudex_core::hints` — the same handler as `kifudex hints`, so the replies
//! are the same bytes. LED frames, the book's summary and the measurements go to semihosting
//! standard error, never to the UART. No heap.
//!
//! Runs on QEMU's mps2-an386 (Cortex-M4F): `KIFUDEX_BOOK=/abs/BOOK cargo run --release`.
#![no_std]
#![no_main]

mod uart;

use core::cell::Cell;
use core::fmt::{self, Write as _};
use core::panic::PanicInfo;
use core::ptr::{addr_of, read_volatile};

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::{debug, hio};
use kifudex_core::book::Book;
use kifudex_core::hints::{End, LedFrame, Leds, StandardHints};

/// The book, 8-byte aligned in flash (see build.rs for where it comes from).
#[repr(C)]
struct Aligned<T: ?Sized> {
    _align: [u64; 0],
    bytes: T,
}

static BOOK: &Aligned<[u8]> = &Aligned {
    _align: [],
    bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/book.kdb")),
};

/// The UART's clock divider (QEMU needs at least 16; a real board sets its baud rate here).
const BAUDDIV: u32 = 16;

/// SysTick counts the 25 MHz processor clock; under `-icount shift=0` an instruction takes
/// one emulated nanosecond, so a tick is 40 instructions.
const INSTRUCTIONS_PER_TICK: u64 = 40;

/// Text lines to semihosting standard error, each sent in one write.
struct Stderr(Option<hio::HostStream>);

/// A line being formatted; a longer text is cut, keeping room for its `\n`.
struct LineBuf {
    buf: [u8; 256],
    len: usize,
}

impl fmt::Write for LineBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = self.buf.len() - 1 - self.len;
        let n = s.len().min(room);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

impl Stderr {
    fn open() -> Self {
        Stderr(hio::hstderr().ok())
    }

    fn line(&mut self, args: fmt::Arguments<'_>) {
        if let Some(s) = self.0.as_mut() {
            let mut b = LineBuf {
                buf: [0; 256],
                len: 0,
            };
            let _ = b.write_fmt(args);
            b.buf[b.len] = b'\n';
            let _ = s.write_all(&b.buf[..b.len + 1]);
        }
    }
}

/// The SysTick counter (24 bits, counting down). Not inlined: its calls mark a request's
/// start and end in a QEMU instruction trace (`-d exec`, README.md).
#[inline(never)]
fn now() -> u32 {
    SYST::get_current()
}

/// The receiving half of the UART, noting when a line's `\n` arrives. It hands out one byte
/// per read (as a UART at a real baud rate delivers them), so the handler starts on a line as
/// soon as its `\n` is read and that moment is the start of the request.
struct TimedRx<'a> {
    rx: uart::Rx,
    line_end: &'a Cell<u32>,
}

impl embedded_io::ErrorType for TimedRx<'_> {
    type Error = core::convert::Infallible;
}

impl embedded_io::Read for TimedRx<'_> {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
        let n = match buf.first_mut() {
            Some(first) => self.rx.read(core::slice::from_mut(first))?,
            None => 0,
        };
        if buf[..n].contains(&b'\n') {
            self.line_end.set(now());
        }
        Ok(n)
    }
}

/// The board's LEDs, shown as text on standard error; measures each request from its `\n`
/// to its LED frame (the reply is formatted by then; sending it on the UART is not counted).
struct SemihostingLeds<'a> {
    stderr: &'a mut Stderr,
    line_end: &'a Cell<u32>,
    requests: u32,
    ticks: u64,
    min: u32,
    max: u32,
    /// The request (numbered from 1) that took `max`.
    max_at: u32,
}

impl Leds for SemihostingLeds<'_> {
    fn show(&mut self, frame: &LedFrame) {
        let t = self.line_end.get().wrapping_sub(now()) & 0x00ff_ffff;
        self.requests += 1;
        self.ticks += t as u64;
        self.min = self.min.min(t);
        if t > self.max {
            self.max = t;
            self.max_at = self.requests;
        }
        self.stderr.line(format_args!("{frame}"));
    }
}

/// Bytes of the stack that were written since reset (cortex-m-rt painted it 0xCCCCCCCC).
fn stack_used() -> (usize, usize) {
    extern "C" {
        static _stack_start: u32;
        static _stack_end: u32;
    }
    // Only the symbols' addresses are taken; the words between them are the stack area.
    let (top, bottom) = (
        addr_of!(_stack_start) as usize,
        addr_of!(_stack_end) as usize,
    );
    let mut p = bottom;
    // SAFETY: `p` stays within the stack area, word-aligned.
    while p < top && unsafe { read_volatile(p as *const u32) } == 0xcccc_cccc {
        p += 4;
    }
    (top - p, top - bottom)
}

#[entry]
fn main() -> ! {
    let mut stderr = Stderr::open();
    // SAFETY: UART0 is the mps2 boards' CMSDK UART and only this driver uses it.
    let (rx, mut tx) = unsafe { uart::init(uart::UART0, BAUDDIV) };
    if let Some(mut cp) = cortex_m::Peripherals::take() {
        cp.SYST.set_clock_source(SystClkSource::Core);
        cp.SYST.set_reload(0x00ff_ffff);
        cp.SYST.clear_current();
        cp.SYST.enable_counter();
    }

    let hints = StandardHints::new(Book::open(&BOOK.bytes));
    match hints.book() {
        Ok(b) => {
            let h = b.header();
            stderr.line(format_args!(
                "kifudex firmware: book of {} bytes, {} positions, {} next moves (at most {} per position)",
                BOOK.bytes.len(),
                h.positions,
                h.next_moves,
                h.max_run
            ));
        }
        Err(problem) => stderr.line(format_args!("kifudex firmware: {problem}")),
    }

    let line_end = Cell::new(0);
    let mut rx = TimedRx {
        rx,
        line_end: &line_end,
    };
    let mut leds = SemihostingLeds {
        stderr: &mut stderr,
        line_end: &line_end,
        requests: 0,
        ticks: 0,
        min: u32::MAX,
        max: 0,
        max_at: 0,
    };
    let end = hints.serve(&mut rx, &mut tx, &mut leds);
    let (n, ticks, min, max, max_at) = (leds.requests, leds.ticks, leds.min, leds.max, leds.max_at);
    if n > 0 {
        let per = INSTRUCTIONS_PER_TICK;
        stderr.line(format_args!(
            "kifudex firmware: {n} requests, instructions per request (SysTick x {per}, under -icount shift=0): mean {}, min {}, max {} (request {max_at})",
            ticks * per / n as u64,
            min as u64 * per,
            max as u64 * per
        ));
    }
    let (used, total) = stack_used();
    stderr.line(format_args!(
        "kifudex firmware: stack used {used} of {total} bytes"
    ));
    match end {
        Ok(End::Quit) | Ok(End::Eof) => debug::exit(debug::EXIT_SUCCESS),
        Err(_) => debug::exit(debug::EXIT_FAILURE),
    }
    loop {
        cortex_m::asm::wfi();
    }
}

/// A panic (none is expected: the core does not panic) ends QEMU with status 1, its message
/// on standard error.
#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    cortex_m::interrupt::disable();
    Stderr::open().line(format_args!("kifudex firmware: {info}"));
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    Stderr::open().line(format_args!("kifudex firmware: hard fault: {frame:?}"));
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}
