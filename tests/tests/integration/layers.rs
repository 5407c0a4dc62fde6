//! The layers and circles of `ARCHITECTURE.md` hold in the tree (`kifudex_tests::layers`):
//! in the core and in the host tools, no module imports a later layer and no imports go
//! round in a circle. And the check is not empty: the same tree with one import against
//! the rules added fails it.

use std::path::{Path, PathBuf};

use kifudex_tests::layers::{check, check_repository, read_crate, Layers};

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
            "host-tools/src",
            "host-tools/src/build/replay.rs",
            "use crate::build::write::FileBytes;\n",
            "`build::replay` (layer",
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
