//! The server's pattern scans, apart from its quick answers.
//!
//! A pattern question whose scan the explorer keeps (`crate::explore::scan_cache`) is a quick
//! answer like a position search. One that needs a scan takes one of [`Limits::max_scans`]
//! slots at once, or is refused at once with `503`, a `Retry-After` header and
//! `{"error": ...}` (never a wait in a queue); the scan then runs on a blocking thread of
//! its own, its slices on the explorer's pool of scan threads, so that the workers of the
//! quick answers ([`Limits::workers`]) never wait for a scan. A scan stops when its client
//! goes: the answer's future is dropped (hyper drops it when the connection closes), or the
//! stream's reader is gone; and when it runs past [`Limits::scan_timeout`].
//!
//! `/api/pattern/stream` sends a scan's progress as lines of JSON (`application/x-ndjson`):
//! `{"progress": {...}}` after the first slice of games, then every [`PROGRESS_EVERY`] at
//! most, then one last line, the object `/api/pattern` answers with (or `{"error": ...}`).
//!
//! [`Limits::max_scans`]: super::Limits::max_scans
//! [`Limits::workers`]: super::Limits::workers
//! [`Limits::scan_timeout`]: super::Limits::scan_timeout

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};

use super::{ApiError, ErrorKind};
use crate::explore::answer::{PatternProgress, Refusal};
use crate::explore::request::PatternRequest;
use crate::explore::scan_cache::{Cancel, PatternScan, Stopped};
use crate::explore::Explorer;
use crate::print::json::to_line;

/// A progress line of the pattern stream (`{"progress": ...}`, `docs/WEB.md`), printed by
/// the JSON printer as the answer that ends the stream.
#[derive(serde::Serialize)]
struct ProgressLine {
    progress: PatternProgress,
}

/// At most one progress line per this time (after the first).
pub const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Seconds a refused client is told to wait (`Retry-After`).
const RETRY_AFTER: &str = "2";

/// The scan slots and their bound in time.
#[derive(Clone)]
pub struct ScanSlots {
    slots: Arc<Semaphore>,
    timeout: Duration,
}

impl ScanSlots {
    /// `n` slots; a scan runs at most `timeout`.
    pub fn new(n: usize, timeout: Duration) -> ScanSlots {
        ScanSlots {
            slots: Arc::new(Semaphore::new(n.max(1))),
            timeout,
        }
    }

    /// A free slot, or the refusal.
    fn take(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        self.slots.clone().try_acquire_owned().map_err(|_| {
            eprintln!("kifudex serve: pattern scan refused: every scan slot is busy");
            ApiError::new(
                ErrorKind::Busy,
                "the server is busy with other pattern searches; try again in a moment",
            )
        })
    }
}

/// Adds `Retry-After` to a refusal for want of a slot.
pub fn retry_after(r: &mut Response) {
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER));
}

/// Sets the scan's flag when dropped: with the answer's future when its client has gone or
/// its time is up (harmless once the scan has ended).
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The query in the log: its rows.
fn rows(q: &PatternRequest) -> String {
    q.pattern.to_string()
}

/// Runs the scan of `q` to its end on a blocking thread holding `slot`, telling `progress`
/// after each slice (it may set the flag), and logs how it ended.
fn run_scan(
    explorer: &Explorer<'static>,
    q: &PatternRequest,
    cancel: &Cancel,
    slot: OwnedSemaphorePermit,
    mut progress: impl FnMut(&Explorer<'static>, &crate::explore::scan_cache::ScanProgress<'_>),
) -> Result<Arc<PatternScan>, Stopped> {
    let _slot = slot;
    let t = Instant::now();
    let mut scanned = (0, 0);
    let r = explorer.pattern_scan(q, cancel, |p| {
        scanned = (p.scanned, p.total);
        progress(explorer, p);
    });
    let secs = t.elapsed().as_secs_f64();
    match &r {
        Ok(s) => eprintln!(
            "kifudex serve: pattern {}: scan completed in {secs:.2} s ({} hits in {} games)",
            rows(q),
            s.report.hits,
            s.report.games
        ),
        Err(_) => eprintln!(
            "kifudex serve: pattern {}: scan cancelled after {secs:.2} s, {} of {} games scanned",
            rows(q),
            scanned.0,
            scanned.1
        ),
    }
    r
}

/// The answer `f` gives from the scan of `q`: the kept scan's on a quick worker, or a new
/// scan's in a scan slot (refused at once when none is free), stopped if this future is
/// dropped or runs out of time.
pub async fn answer_from_scan(
    explorer: &Arc<Explorer<'static>>,
    slots: &ScanSlots,
    q: PatternRequest,
    f: impl FnOnce(&Explorer<'static>, &PatternRequest, &PatternScan) -> String + Send + 'static,
) -> Result<String, ApiError> {
    let slot = slots.take()?;
    let cancel = Cancel::new();
    let _guard = CancelOnDrop(cancel.clone());
    let explorer = explorer.clone();
    let task = tokio::task::spawn_blocking(move || {
        run_scan(&explorer, &q, &cancel, slot, |_, _| {}).map(|scan| f(&explorer, &q, &scan))
    });
    match tokio::time::timeout(slots.timeout, task).await {
        Ok(Ok(Ok(text))) => Ok(text),
        Ok(Ok(Err(Stopped))) => Err(ApiError::new(
            ErrorKind::Timeout,
            "the pattern search was cancelled",
        )),
        Ok(Err(e)) => {
            eprintln!("kifudex serve: a pattern scan failed: {e}");
            Err(ApiError::new(ErrorKind::Internal, "internal error"))
        }
        Err(_) => Err(ApiError::new(
            ErrorKind::Timeout,
            format!(
                "the pattern search took longer than {} s",
                slots.timeout.as_secs()
            ),
        )),
    }
}

/// `/api/pattern/stream`'s answer: progress lines, then `/api/pattern`'s object; one line
/// alone when the scan is kept; a refusal at once when no slot is free.
pub fn stream(explorer: &Arc<Explorer<'static>>, slots: &ScanSlots, q: PatternRequest) -> Response {
    if let Some(scan) = explorer.pattern_cached(&q) {
        let line = to_line(&explorer.pattern_answer(&q, &scan)) + "\n";
        return ndjson(Body::from(line));
    }
    let slot = match slots.take() {
        Ok(s) => s,
        Err(e) => {
            let mut r = e.into_response();
            retry_after(&mut r);
            return r;
        }
    };
    let (tx, mut rx) = mpsc::channel::<String>(8);
    let explorer = explorer.clone();
    let timeout = slots.timeout;
    let cancel = Cancel::new();
    // The client has gone when its body is dropped: the scan stops at once (between two
    // slices), whether or not a line was due.
    let (gone, flag) = (tx.clone(), cancel.clone());
    let watcher = tokio::spawn(async move {
        gone.closed().await;
        flag.cancel();
    });
    tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let mut sent = started;
        let mut first = true;
        let mut late = false;
        let r = run_scan(&explorer, &q, &cancel, slot, |e, p| {
            if started.elapsed() > timeout {
                late = true;
                cancel.cancel();
            } else if (first || sent.elapsed() >= PROGRESS_EVERY) && p.scanned < p.total {
                first = false;
                sent = Instant::now();
                let progress = ProgressLine {
                    progress: e.pattern_progress(&q, p),
                };
                // A full channel (a slow reader) skips this line, never the scan.
                let _ = tx.try_send(to_line(&progress) + "\n");
            }
        });
        let last = match r {
            Ok(scan) => to_line(&explorer.pattern_answer(&q, &scan)),
            Err(Stopped) if late => to_line(&Refusal {
                error: format!(
                    "the pattern search took longer than {} s",
                    timeout.as_secs()
                ),
                illegal: None,
            }),
            Err(Stopped) => return watcher.abort(),
        };
        let _ = tx.blocking_send(last + "\n");
        watcher.abort();
    });
    let lines = futures_util::stream::poll_fn(move |cx| {
        rx.poll_recv(cx)
            .map(|line| line.map(Ok::<_, std::convert::Infallible>))
    });
    ndjson(Body::from_stream(lines))
}

/// A 200 answer of JSON lines.
fn ndjson(body: Body) -> Response {
    let mut r = Response::new(body);
    *r.status_mut() = StatusCode::OK;
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}
