//! What several benchmarks share: the corpus they read and the index of fox_pro they query.
//! (A folder of its own: cargo takes only the files directly in `benches/` for benchmarks.)

use std::path::{Path, PathBuf};

use kifudex::indexing::{build, BuildOptions};

/// A collection of `../shared/corpus` (beside the repository), e.g. `fox_pro`.
pub fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus")
        .join(name)
}

/// Builds the index of fox_pro (the default options) into `dir`; its path.
pub fn build_fox_pro(dir: &Path) -> PathBuf {
    let out = dir.join("fox_pro.kdx");
    build(&[corpus("fox_pro")], &out, &BuildOptions::default()).expect("build fox_pro");
    out
}

/// The bytes of fox_pro's index, built in a temporary folder.
#[allow(dead_code)] // (not every benchmark that includes this module reads bytes)
pub fn fox_pro_index() -> Vec<u8> {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::read(build_fox_pro(dir.path())).expect("read index")
}
