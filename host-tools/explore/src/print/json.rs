//! The JSON printer: an answer of the explorer as one line of JSON, in the shape its type
//! declares (`crate::explore::answer`, `docs/JSON.md`, `docs/WEB.md`). The command line
//! prints it after `--json`, the web API answers with it.

use serde::Serialize;

/// `answer` as one line of JSON (no line end).
pub fn to_line(answer: &impl Serialize) -> String {
    // The answers hold strings, numbers, sequences and maps with string or integer keys:
    // serializing them cannot fail.
    serde_json::to_string(answer).unwrap_or_default()
}
