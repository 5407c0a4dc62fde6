//! Puts the linker script's memory map and the book where the firmware finds them:
//!
//! - `memory-mps2-an386.x` (QEMU's mps2-an386, Cortex-M4F) or, for `thumbv6m-none-eabi`,
//!   `memory-rp2040.x`, copied to `OUT_DIR/memory.x` for cortex-m-rt's `link.x` (no `memory.x`
//!   in this folder: the linker would find it first);
//! - the book: the file named by `KIFUDEX_BOOK` (an absolute path; a relative one is taken from
//!   this folder), else `default-book/bgo-testsgf-30.kdb`, copied to `OUT_DIR/book.kdb`, which
//!   `src/main.rs` embeds with `include_bytes!`. The book is not checked here: the firmware
//!   validates it at start and answers `error bad-book` if it is not valid, as
//!   `kifudex hints` does.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    let here = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let target = env::var("TARGET").unwrap_or_default();

    let memory = if target.starts_with("thumbv6m") {
        "memory-rp2040.x"
    } else {
        "memory-mps2-an386.x"
    };
    fs::copy(here.join(memory), out.join("memory.x")).expect("copy the memory map");
    println!("cargo:rerun-if-changed={memory}");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    // defmt's interned strings (its crate provides `defmt.x`).
    println!("cargo:rustc-link-arg-bins=-Tdefmt.x");

    println!("cargo:rerun-if-env-changed=KIFUDEX_BOOK");
    let book = match env::var_os("KIFUDEX_BOOK") {
        Some(p) if !p.is_empty() => here.join(p),
        _ => here.join("default-book/bgo-testsgf-30.kdb"),
    };
    println!("cargo:rerun-if-changed={}", book.display());
    if let Err(e) = fs::copy(&book, out.join("book.kdb")) {
        panic!("KIFUDEX_BOOK: cannot read the book {}: {e}", book.display());
    }
}
