//! bGo's own next-move answers on its own test archive (`docs/JSON.md`), reproduced
//! through `kifudex build --max-moves 30` and `kifudex search --json`.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn shared(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(rel)
}

fn kifudex(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .expect("run kifudex")
}

fn search(index: &str, moves: &str) -> Value {
    let out = kifudex(&["search", "--index", index, "--moves", moves, "--json"]);
    assert!(
        out.status.success(),
        "search {moves}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("search prints JSON")
}

/// (colour, move, count, equivalent points) of every class, in order.
fn classes(v: &Value) -> Vec<(String, String, u64, Vec<String>)> {
    v["next"]
        .as_array()
        .expect("next")
        .iter()
        .map(|c| {
            let eq = c["equivalent"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_string())
                .collect();
            (
                c["color"].as_str().unwrap().to_string(),
                c["move"].as_str().unwrap().to_string(),
                c["count"].as_u64().unwrap(),
                eq,
            )
        })
        .collect()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn bgo_answers_on_its_test_archive() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("bgo.kdx");
    let index = index.to_str().unwrap();
    let tgz = shared("corpus/bgo_testsgf/TestSGF.tgz");
    let out = kifudex(&[
        "build",
        tgz.to_str().unwrap(),
        "-o",
        index,
        "--max-moves",
        "30",
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "build: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Empty board: pd-class 210, qd-class 74, qe-class 2; total 286.
    let v = search(index, "");
    assert_eq!(v["total"], 286);
    assert_eq!(v["hash"], 0);
    assert_eq!(
        classes(&v),
        vec![
            (
                "B".into(),
                "pd".into(),
                210,
                strs(&["dd", "pd", "dp", "pp"])
            ),
            (
                "B".into(),
                "qd".into(),
                74,
                strs(&["dc", "pc", "cd", "qd", "cp", "qp", "dq", "pq"])
            ),
            (
                "B".into(),
                "qe".into(),
                2,
                strs(&["ec", "oc", "ce", "qe", "co", "qo", "eq", "oq"])
            ),
        ]
    );

    // pd dp pp: W dd 6, W dc 1.
    let v = search(index, "pd,dp,pp");
    assert_eq!(v["total"], 7);
    assert_eq!(v["hash"], 959678554);
    assert_eq!(
        v["hashes"],
        serde_json::json!([
            959678554i64,
            -2119680312i64,
            -587714549i64,
            -2189167643i64,
            297926669i64,
            -518227218i64,
            1098653216i64,
            158952007i64
        ])
    );
    assert_eq!(
        classes(&v),
        vec![
            ("W".into(), "dd".into(), 6, strs(&["dd"])),
            ("W".into(), "dc".into(), 1, strs(&["dc"])),
        ]
    );

    // pd dp pp dd: B fq (same as fc) 3, B pj 2, B cn (same as cf) 1.
    let v = search(index, "pd,dp,pp,dd");
    assert_eq!(v["total"], 6);
    let c = classes(&v);
    assert_eq!(c.len(), 3);
    assert_eq!((c[0].2, c[0].3.clone()), (3, strs(&["fc", "fq"])));
    assert_eq!((c[1].1.as_str(), c[1].2), ("pj", 2));
    assert_eq!((c[2].2, c[2].3.clone()), (1, strs(&["cf", "cn"])));

    // pd dp pp dd fq: W cn 3.
    let v = search(index, "pd,dp,pp,dd,fq");
    assert_eq!(v["total"], 3);
    assert_eq!(
        classes(&v),
        vec![("W".into(), "cn".into(), 3, strs(&["cn"]))]
    );
}

#[test]
fn illegal_moves_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("bgo.kdx");
    let index = index.to_str().unwrap();
    let tgz = shared("corpus/bgo_testsgf/TestSGF.tgz");
    assert!(
        kifudex(&["build", tgz.to_str().unwrap(), "-o", index, "--quiet"])
            .status
            .success()
    );
    for bad in ["pd,pd", "zz", "pd,,dp", "pd,xyz"] {
        let out = kifudex(&["search", "--index", index, "--moves", bad, "--json"]);
        assert_eq!(out.status.code(), Some(2), "--moves {bad}");
        assert!(out.stdout.is_empty());
    }
}
