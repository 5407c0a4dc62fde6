//! Pattern search runs on every core (rayon over blocks of 64 games): its answers must not
//! depend on how many. On fox_pro (10,348 real games, 162 blocks), each kind of answer
//! (the contract's object with the date profile, a page of hits, the games with hits, the
//! matching games exported as SGF) is printed byte for byte the same with one thread and
//! with three.

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// Runs kifudex with `threads` workers (rayon's global pool reads `RAYON_NUM_THREADS`).
fn kifudex(args: &[&str], threads: &str) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("run kifudex");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn answers_do_not_depend_on_the_number_of_threads() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("fox.kdx");
    let fox = corpus().join("fox_pro");
    kifudex(
        &[
            "build",
            fox.to_str().unwrap(),
            "-o",
            index.to_str().unwrap(),
        ],
        "2",
    );
    let index = index.to_str().unwrap();
    let queries: &[&[&str]] = &[
        &[
            "pattern",
            "--pattern",
            "..../..../..X*/..*O",
            "--area",
            "0,0,0,0",
            "--by-year",
            "--json",
        ],
        &["pattern", "--pattern", "XO./.X./...", "--json"],
        &[
            "pattern",
            "--pattern",
            "...../...../X.O.X/...../.....",
            "--area",
            "1,0,13,0",
            "--hits",
            "--offset",
            "500",
            "--limit",
            "300",
            "--json",
        ],
        &[
            "games",
            "--pattern",
            "XX./X../...",
            "--area",
            "1,1,15,15",
            "--year-from",
            "2018",
            "--limit",
            "1000",
            "--json",
        ],
    ];
    for q in queries {
        let answers: Vec<Vec<u8>> = ["1", "3"]
            .iter()
            .map(|t| {
                let mut args = q.to_vec();
                args.extend(["--index", index]);
                kifudex(&args, t)
            })
            .collect();
        assert!(answers[0].len() > 100, "{q:?}: a short answer");
        assert!(answers[0] == answers[1], "{q:?}: 1 and 3 threads differ");
    }
    // The exported games: the same files with the same bytes.
    let exports: Vec<Vec<(String, Vec<u8>)>> = ["1", "3"]
        .iter()
        .map(|t| {
            let out = dir.path().join(format!("export-{t}"));
            kifudex(
                &[
                    "pattern",
                    "--pattern",
                    "..../..../..X*/..*O",
                    "--area",
                    "0,0,0,0",
                    "--year-from",
                    "2019",
                    "--index",
                    index,
                    "--export",
                    out.to_str().unwrap(),
                ],
                t,
            );
            let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&out)
                .unwrap()
                .map(|e| {
                    let e = e.unwrap();
                    (
                        e.file_name().into_string().unwrap(),
                        std::fs::read(e.path()).unwrap(),
                    )
                })
                .collect();
            files.sort();
            files
        })
        .collect();
    assert!(
        exports[0].len() > 100,
        "{} games exported",
        exports[0].len()
    );
    assert!(
        exports[0] == exports[1],
        "exports with 1 and 3 threads differ"
    );
}
