//! Prints what kifudex reads from SGF files: `cargo run --example sgfdump -- PATH...`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (sources, skipped) = kifudex::input::collect_sources(&args);
    for s in &skipped {
        println!("{s}");
    }
    for s in &sources {
        let p = s.parse();
        for g in &p.games {
            println!(
                "{}{} #{} @{} {}x{} {} moves={} events={} info={:?} warnings={:?}",
                g.source.path,
                g.source
                    .member
                    .as_deref()
                    .map(|m| format!(":{m}"))
                    .unwrap_or_default(),
                g.source.tree_index,
                g.byte_offset,
                g.size.width(),
                g.size.height(),
                g.encoding,
                g.move_count(),
                g.events.len(),
                g.info,
                g.warnings
            );
        }
        for r in &p.rejected {
            println!("rejected: {r}");
        }
        for w in &p.warnings {
            println!("file warning: {}: {:?}", s.path, w);
        }
    }
}
