//! `kifudex.build(paths, out, **options)`: the builder, as `kifudex build PATH... -o OUT`
//! runs it. The options are the command line's flags with `_` for `-` (`max_moves`,
//! `memory`, `threads`, `keep_duplicates`, the limits...), read with its parsers and its
//! defaults; the build runs with the GIL released.

use std::path::PathBuf;

use kifudex::indexing::{BuildOptions, BuildReport, Profile};
use kifudex::input::Limits;
use kifudex::predict::TrainOptions;
use kifudex::sgf;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::Kwargs;
use crate::error::error;

/// The options of a build, from the keywords (the CLI's flags and defaults).
fn options(k: &mut Kwargs<'_>) -> PyResult<BuildOptions> {
    let profile = match k.text("profile")?.as_deref() {
        None | Some("desktop") => Profile::Desktop,
        Some("mcu") => Profile::Mcu,
        Some(p) => {
            return Err(error(format!(
                "profile: expected \"desktop\" or \"mcu\", not {p:?}"
            )))
        }
    };
    let predictor = k.flag("predictor")?;
    let defaults = TrainOptions::default();
    let predictor_patterns = k.number("predictor_patterns")?;
    let predictor_sample = k.number("predictor_sample")?;
    if predictor && profile != Profile::Mcu {
        return Err(error("--predictor needs --profile mcu"));
    }
    let size = |k: &mut Kwargs<'_>, name: &str, default: u64| -> PyResult<u64> {
        Ok(k.parsed(name, kifudex::indexing::memory_size)?
            .unwrap_or(default))
    };
    Ok(BuildOptions {
        max_moves: k.number("max_moves")?,
        profile,
        min_count: k.number("min_count")?.unwrap_or(1),
        max_next: k.number("max_next")?,
        progress: false,
        predictor: predictor.then(|| TrainOptions {
            max_patterns: predictor_patterns.unwrap_or(defaults.max_patterns),
            keep_per_mille: predictor_sample.unwrap_or(defaults.keep_per_mille),
            ..TrainOptions::default()
        }),
        list_recovered: k.flag("verbose")?,
        keep_duplicates: k.flag("keep_duplicates")?,
        memory: size(k, "memory", kifudex::indexing::DEFAULT_MEMORY)?,
        limits: Limits {
            record_bytes: size(k, "max_record_bytes", Limits::DEFAULT.record_bytes)?,
            archive_members: k
                .number("max_archive_members")?
                .unwrap_or(Limits::DEFAULT.archive_members),
            decoder_bytes: size(k, "max_decoder_memory", Limits::DEFAULT.decoder_bytes)?,
            sgf: sgf::Limits {
                nodes: k
                    .number("max_tree_nodes")?
                    .unwrap_or(sgf::Limits::DEFAULT.nodes),
                depth: k
                    .number("max_tree_depth")?
                    .unwrap_or(sgf::Limits::DEFAULT.depth),
                value_bytes: size(k, "max_value_bytes", sgf::Limits::DEFAULT.value_bytes)?,
                events: k
                    .number("max_game_events")?
                    .unwrap_or(sgf::Limits::DEFAULT.events),
            },
        },
        ..BuildOptions::default()
    })
}

/// What a build did, as a dict: the summary line `kifudex build` prints, its counts, and
/// the problems as `--report FILE` writes them.
fn report_dict<'py>(py: Python<'py>, r: &BuildReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("summary", r.summary())?;
    d.set_item("files", r.files)?;
    d.set_item("games_read", r.games_read)?;
    d.set_item("games_indexed", r.games_indexed)?;
    d.set_item("duplicates", r.duplicates)?;
    d.set_item("games_without_moves", r.games_without_moves)?;
    d.set_item("occurrences", r.occurrences)?;
    d.set_item("positions", r.positions)?;
    d.set_item("bytes", r.bytes)?;
    d.set_item("spilled_bytes", r.spilled_bytes)?;
    let problems = kifudex::indexing::problems::to_json(&r.problems).to_string();
    d.set_item(
        "problems",
        py.import("json")?.call_method1("loads", (problems,))?,
    )?;
    Ok(d)
}

/// Builds an index (or, with `profile="mcu"`, a book) at `out` from `paths` (files,
/// archives, folders), as `kifudex build PATH... -o OUT` does: options as its flags
/// (`max_moves`, `memory` (`"512M"` or bytes), `threads`, `keep_duplicates`, `profile`,
/// `min_count`, `max_next`, `predictor`, `predictor_patterns`, `predictor_sample`,
/// `max_record_bytes`, `max_archive_members`, `max_decoder_memory`, `max_tree_nodes`, `max_tree_depth`,
/// `max_value_bytes`, `max_game_events`, `verbose`, `report` (a JSON file)). Returns what
/// it did as a dict (`summary`, `games_indexed`, `problems`...); a failed build raises
/// `kifudex.Error` with the CLI's message.
#[pyfunction]
#[pyo3(signature = (paths, out, **kwargs))]
pub fn build<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    out: PathBuf,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let paths: Vec<PathBuf> = match paths.extract::<PathBuf>() {
        Ok(p) => vec![p],
        Err(_) => paths.extract()?,
    };
    let mut k = Kwargs::new("build", kwargs)?;
    let opts = options(&mut k)?;
    let pool = k.threads()?;
    let report_file = k.path("report")?;
    k.finish()?;
    let (built, report) = py.allow_threads(|| {
        let mut report = BuildReport::default();
        let mut run = || kifudex::indexing::build_reporting(&paths, &out, &opts, &mut report);
        let built = match pool {
            Some(p) => p.install(run),
            None => run(),
        };
        (built, report)
    });
    if let Some(file) = report_file {
        let json = kifudex::indexing::problems::to_json(&report.problems).to_string();
        kifudex::indexing::write_atomically(&file, json.as_bytes())
            .map_err(|e| error(format!("{e:#}")))?;
    }
    built.map_err(|e| error(format!("{e:#}")))?;
    report_dict(py, &report)
}
