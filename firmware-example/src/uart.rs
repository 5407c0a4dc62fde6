//! A polling driver for the ARM CMSDK APB UART (UART0 of the MPS2 boards at `0x4000_4000`),
//! implementing `embedded_io::{Read, Write}`.
//!
//! Registers (offsets): `DATA` 0x00, `STATE` 0x04 (bit 0 transmit buffer full, bit 1 receive
//! buffer full), `CTRL` 0x08 (bit 0 transmit enable, bit 1 receive enable), `BAUDDIV` 0x10
//! (at least 16). The receive buffer holds one byte; QEMU holds the rest of its input back
//! until the firmware reads `DATA`, so no byte is lost however fast the input comes.

use core::convert::Infallible;
use core::ptr::{read_volatile, write_volatile};

/// UART0 of the MPS2 boards.
pub const UART0: usize = 0x4000_4000;

const DATA: usize = 0x00;
const STATE: usize = 0x04;
const CTRL: usize = 0x08;
const BAUDDIV: usize = 0x10;

const TX_FULL: u32 = 1 << 0;
const RX_FULL: u32 = 1 << 1;
const TX_ENABLE: u32 = 1 << 0;
const RX_ENABLE: u32 = 1 << 1;

/// The receiving half.
pub struct Rx {
    base: usize,
}

/// The transmitting half.
pub struct Tx {
    base: usize,
}

fn read_reg(base: usize, offset: usize) -> u32 {
    // SAFETY: `base` is a CMSDK UART's register block (checked by `init`'s caller) and the
    // offset one of its 32-bit registers.
    unsafe { read_volatile((base + offset) as *const u32) }
}

fn write_reg(base: usize, offset: usize, value: u32) {
    // SAFETY: as in `read_reg`.
    unsafe { write_volatile((base + offset) as *mut u32, value) }
}

/// Sets up the UART at `base` (divider `bauddiv`, at least 16) and enables both directions.
///
/// # Safety
///
/// `base` must be the register block of a CMSDK APB UART that nothing else uses.
pub unsafe fn init(base: usize, bauddiv: u32) -> (Rx, Tx) {
    write_reg(base, CTRL, 0);
    write_reg(base, BAUDDIV, bauddiv.max(16));
    write_reg(base, CTRL, TX_ENABLE | RX_ENABLE);
    (Rx { base }, Tx { base })
}

impl embedded_io::ErrorType for Rx {
    type Error = Infallible;
}

impl embedded_io::ErrorType for Tx {
    type Error = Infallible;
}

impl embedded_io::Read for Rx {
    /// Waits for at least one byte, then returns the bytes already received. Never 0 for a
    /// non-empty `buf`: a UART has no end of input.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Infallible> {
        if buf.is_empty() {
            return Ok(0);
        }
        while read_reg(self.base, STATE) & RX_FULL == 0 {}
        let mut n = 0;
        for slot in buf.iter_mut() {
            if read_reg(self.base, STATE) & RX_FULL == 0 {
                break;
            }
            *slot = read_reg(self.base, DATA) as u8;
            n += 1;
        }
        Ok(n)
    }
}

impl embedded_io::Write for Tx {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Infallible> {
        for &b in buf {
            while read_reg(self.base, STATE) & TX_FULL != 0 {}
            write_reg(self.base, DATA, b as u32);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> Result<(), Infallible> {
        while read_reg(self.base, STATE) & TX_FULL != 0 {}
        Ok(())
    }
}
