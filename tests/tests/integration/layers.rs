//! The layers and circles of `ARCHITECTURE.md` hold in the tree (`kifudex_tests::layers`):
//! in the core and in every crate of the host tools, no module imports a later layer and no
//! imports go round in a circle; between the workspace's packages, every dependency is one
//! the crates' table allows, and no package pulls in a crate it must never depend on. And
//! the check is not empty: the same tree with one import or one dependency against the
//! rules added fails it.

use std::path::{Path, PathBuf};

use kifudex_tests::layers::{
    check, check_packages, check_repository, read_crate, read_manifests, Layers,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn the_tree_keeps_its_layers() {
    let problems = check_repository(&root()).unwrap();
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// The real tree with one real violation added, for each rule: the check names it.
#[test]
fn an_import_against_the_layers_fails_the_check() {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let layers = Layers::parse(&doc).unwrap();
    let cases = [
        // The position index learning of pattern search (a later layer of the core).
        (
            "core/src",
            "core/src/index/mod.rs",
            "use crate::pattern::PatternIndex;\n",
            "`index` (layer",
        ),
        // A build stage importing a later one.
        (
            "host-tools/builder/src",
            "host-tools/builder/src/indexing/replay.rs",
            "use crate::indexing::write::FileBytes;\n",
            "`indexing::replay` (layer",
        ),
        // The core's stored games importing the index that stores them, which imports
        // them: a circle, whatever the layers say.
        (
            "core/src",
            "core/src/stored.rs",
            "fn f(i: &crate::index::Index) {}\n",
            "imports `index`",
        ),
        // Pattern search's stored data knowing the search (stored data knows no query).
        (
            "core/src",
            "core/src/pattern/stored/corner.rs",
            "fn f(d: crate::pattern::search::decide::Decision) {}\n",
            "`pattern::stored::corner` (layer",
        ),
        // The explorer's engines knowing the explorer (a later layer of its crate).
        (
            "host-tools/explore/src",
            "host-tools/explore/src/games/select.rs",
            "fn f(e: &crate::explore::Explorer) {}\n",
            "`games::select` (layer 2) imports `explore`",
        ),
        // The GTP crate's framing importing the engine (a later layer), which reads its
        // lines through it.
        (
            "host-tools/gtp/src",
            "host-tools/gtp/src/protocol.rs",
            "use crate::engine::Engine;\n",
            "`protocol` (layer",
        ),
        // A circle between two files of pattern search, in one layer: the plan importing
        // the pair scan, which reads the plan.
        (
            "core/src",
            "core/src/pattern/search/plan.rs",
            "use crate::pattern::search::pairscan::scan_pairs;\n",
            "circle: `pattern::search::pairscan` -> `pattern::search::plan` -> `pattern::search::pairscan`",
        ),
        // And in the stored data: the corner boxes importing the block layout, which
        // reads the corner boxes.
        (
            "core/src",
            "core/src/pattern/stored/corner.rs",
            "fn f(b: &crate::pattern::stored::block::BlockParts) {}\n",
            "`pattern::stored::corner` -> `pattern::stored::block`",
        ),
    ];
    for (krate, file, line, expected) in cases {
        let c = layers.crates.iter().find(|c| c.root == krate).unwrap();
        let mut files = read_crate(&root().join(krate)).unwrap();
        assert!(check(c, &files).is_empty());
        let f = files
            .iter_mut()
            .find(|f| {
                f.path
                    .ends_with(file.strip_prefix(&format!("{krate}/")).unwrap())
            })
            .unwrap();
        f.text.push_str(line);
        let problems = check(c, &files);
        assert!(
            problems.iter().any(|p| p.contains(expected)),
            "{file} + {line:?}: {problems:?}"
        );
    }
}

/// The real manifests with one real violation added, for each rule: the check names it.
#[test]
fn a_dependency_against_the_crates_table_fails_the_check() {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let layers = Layers::parse(&doc).unwrap();
    let manifests = read_manifests(&root(), &layers);
    assert!(check_packages(&layers.packages, &manifests).is_empty());
    assert!(layers.packages.len() >= 8, "{:?}", layers.packages);
    let cases = [
        // The explorer depending on the web server (a front end).
        (
            "host-tools/explore",
            "kifudex-web = { path = \"../web\" }\n",
            "`kifudex-explore` depends on `kifudex-web`, which the crates' table",
        ),
        // The records knowing the index's builder.
        (
            "host-tools/records",
            "kifudex-builder = { path = \"../builder\" }\n",
            "`kifudex-records` depends on `kifudex-builder`",
        ),
        // An HTTP stack pulled into the explorer through the records it reads.
        (
            "host-tools/records",
            "tokio = \"1\"\n",
            "`kifudex-explore` depends on `tokio` (named by `kifudex-records`)",
        ),
        // A line editor in the builder: the explorer gets it too.
        (
            "host-tools/builder",
            "rustyline = \"17\"\n",
            "`kifudex-explore` depends on `rustyline` (named by `kifudex-builder`)",
        ),
    ];
    for (folder, line, expected) in cases {
        let mut m = manifests.clone();
        let text = m.get_mut(folder).unwrap();
        *text = text.replacen("[dependencies]\n", &format!("[dependencies]\n{line}"), 1);
        let problems = check_packages(&layers.packages, &m);
        assert!(
            problems.iter().any(|p| p.contains(expected)),
            "{folder} + {line:?}: {problems:?}"
        );
    }
    // A dev-dependency is not an edge of the library: the same line there passes.
    let mut m = manifests.clone();
    m.get_mut("host-tools/explore")
        .unwrap()
        .push_str("\n[dev-dependencies]\ntokio = \"1\"\n");
    assert!(check_packages(&layers.packages, &m).is_empty());
}
