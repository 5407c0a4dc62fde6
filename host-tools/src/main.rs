//! The `kifudex` command: build an index from SGF collections, search it, explore it.
//! A thin layer over the library: [`cli`] reads the arguments into requests, the explorer
//! (`kifudex::explore`) answers, the printers (`kifudex::print`) write the answers.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli.command.run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("kifudex: {e:#}");
            ExitCode::from(1)
        }
    }
}
