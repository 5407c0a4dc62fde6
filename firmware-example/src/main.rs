//! kifudex's microcontroller example: the hint protocol (docs/HINTS.md) on UART0, answered from a
//! book in flash by `kifudex_core::hints` — the same handler as `kifudex hints`, so the replies
//! are the same bytes. LED frames, the book's summary and the measurements are defmt frames
//! (semihosting standard output under QEMU, feature `qemu`; an RTT buffer on a board with a
//! debug probe, feature `rtt`), decoded on the host with `defmt-print -e ELF`; the UART carries
//! the replies and nothing else. No heap, no `core::fmt`.
//!
//! Runs on QEMU's mps2-an386 (Cortex-M4F): `KIFUDEX_BOOK=/abs/BOOK cargo run --release`.
#![no_std]
#![no_main]

#[cfg(all(feature = "qemu", feature = "rtt"))]
compile_error!("features `qemu` and `rtt` are two global defmt loggers: enable one");
#[cfg(not(any(feature = "qemu", feature = "rtt")))]
compile_error!("enable feature `qemu` (defmt over semihosting) or `rtt` (defmt over RTT)");

#[cfg(feature = "rtt")]
use defmt_rtt as _;
#[cfg(feature = "qemu")]
use defmt_semihosting as _;

mod uart;

use core::cell::Cell;
use core::panic::PanicInfo;
use core::ptr::{addr_of, read_volatile};

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use cortex_m_rt::{entry, exception, ExceptionFrame};
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

/// Ends the run: QEMU exits with status 0 (`ok`) or 1 (semihosting `exit`); a real board
/// waits.
fn exit(ok: bool) -> ! {
    #[cfg(feature = "qemu")]
    semihosting::process::exit(if ok { 0 } else { 1 });
    #[cfg(not(feature = "qemu"))]
    {
        let _ = ok;
        loop {
            cortex_m::asm::wfi();
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

/// The board's LEDs, logged as defmt frames (`leds pd:255 qd:90`); measures each request from
/// its `\n` to its LED frame (the reply is formatted by then; sending it on the UART and the
/// log are not counted).
struct LoggedLeds<'a> {
    line_end: &'a Cell<u32>,
    /// Every request.
    all: Tally,
    /// The requests answered with the predictor's guesses.
    guesses: Tally,
}

/// SysTick ticks of some requests.
struct Tally {
    n: u32,
    ticks: u64,
    min: u32,
    max: u32,
    /// The request (numbered from 1 among all) that took `max`.
    max_at: u32,
}

impl Tally {
    const fn new() -> Self {
        Tally {
            n: 0,
            ticks: 0,
            min: u32::MAX,
            max: 0,
            max_at: 0,
        }
    }

    fn add(&mut self, t: u32, request: u32) {
        self.n += 1;
        self.ticks += t as u64;
        self.min = self.min.min(t);
        if t > self.max {
            self.max = t;
            self.max_at = request;
        }
    }
}

impl Leds for LoggedLeds<'_> {
    fn show(&mut self, frame: &LedFrame) {
        let t = self.line_end.get().wrapping_sub(now()) & 0x00ff_ffff;
        self.all.add(t, self.all.n + 1);
        if frame.is_guess() {
            self.guesses.add(t, self.all.n);
        }
        defmt::println!("{}", frame);
        defmt::println!(
            "request {=u32}: {=u64} instructions",
            self.all.n,
            t as u64 * INSTRUCTIONS_PER_TICK
        );
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
            defmt::println!(
                "book: {=usize} bytes, games {=u64}, positions {=u64}, next moves {=u64} (at most {=u32} per position), predictor patterns {=u64}",
                BOOK.bytes.len(),
                h.games,
                h.positions,
                h.next_moves,
                h.max_run,
                b.predictor().map_or(0, |p| p.header().patterns)
            );
        }
        Err(problem) => defmt::println!("book: {}", problem),
    }

    let line_end = Cell::new(0);
    let mut rx = TimedRx {
        rx,
        line_end: &line_end,
    };
    let mut leds = LoggedLeds {
        line_end: &line_end,
        all: Tally::new(),
        guesses: Tally::new(),
    };
    let end = hints.serve(&mut rx, &mut tx, &mut leds);
    for (what, t) in [("requests", &leds.all), ("guesses", &leds.guesses)] {
        if t.n > 0 {
            let per = INSTRUCTIONS_PER_TICK;
            defmt::println!(
                "{=str}: {=u32}, instructions mean {=u64}, min {=u64}, max {=u64} (request {=u32}; SysTick x {=u64} under -icount shift=0)",
                what,
                t.n,
                t.ticks * per / t.n as u64,
                t.min as u64 * per,
                t.max as u64 * per,
                t.max_at,
                per
            );
        }
    }
    let (used, total) = stack_used();
    defmt::println!("stack used {=usize} of {=usize} bytes", used, total);
    exit(matches!(end, Ok(End::Quit) | Ok(End::Eof)))
}

/// A panic (none is expected: the core does not panic) ends QEMU with status 1, logging where
/// it happened (the message is left out: formatting it would link `core::fmt`).
#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    cortex_m::interrupt::disable();
    match info.location() {
        Some(l) => defmt::println!("panic at {=str}:{=u32}", l.file(), l.line()),
        None => defmt::println!("panic"),
    }
    exit(false)
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    defmt::println!(
        "hard fault: pc {=u32:#x}, lr {=u32:#x}, xpsr {=u32:#x}",
        frame.pc(),
        frame.lr(),
        frame.xpsr()
    );
    exit(false)
}
