//! The `kifudex` command: build an index from SGF collections, search it, explore it in a shell.

use clap::Parser;

/// kifudex: what strong players played next, for the position on your board.
#[derive(Parser, Debug)]
#[command(name = "kifudex", version, about, long_about = None)]
struct Cli {}

fn main() {
    let _cli = Cli::parse();
}
