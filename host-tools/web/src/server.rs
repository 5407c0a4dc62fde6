//! The HTTP side: routes, the limits every request is held to, the accept loop.
//!
//! Every request passes one guard first: a method other than GET or HEAD gets 405, a
//! request line longer than [`Limits::max_uri`] 414, header lines longer than
//! [`Limits::max_headers`] 431, a request with a body 413, all with a JSON error. The API's answers (the explorer's, printed by the JSON printer) are computed
//! on blocking threads, at most
//! [`Limits::workers`] at a time, each within [`Limits::request_timeout`]; pattern scans
//! run apart, at most [`Limits::max_scans`] at once (`super::scan_slots`). Connections are
//! accepted up to [`Limits::max_connections`] at once; a client must send its headers
//! within [`Limits::header_timeout`]; a connection lives at most
//! [`Limits::connection_lifetime`].

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{OnceCell, Semaphore};

use super::line_limit::LineLimit;
use super::scan_slots::{self, ScanSlots};
use super::{assets, query_string, ApiError, ErrorKind};
use crate::explore::request::PatternRequest;
use crate::explore::scan_cache::PatternScan;
use crate::explore::Explorer;
use crate::print::json::to_line;

/// The explorer every request is answered by, held for the life of the process.
pub type Shared = Arc<Explorer<'static>>;

/// The bounds of every request and connection.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The longest request target (path and query), in bytes. A pasted SGF travels in the
    /// query, so this is generous; longer requests get 414. (Under the HTTP layer's own
    /// limit of 64 KiB, so that every refusal is the API's JSON.)
    pub max_uri: usize,
    /// The longest header lines of one request, in bytes in all (line ends included);
    /// more get 431. (With `max_uri`, under the HTTP layer's read buffer, so that no head
    /// the layer would take grows past them.)
    pub max_headers: usize,
    /// Time a client has to send a request's headers.
    pub header_timeout: Duration,
    /// Time an answer may take, waiting for a worker included (then 503).
    pub request_timeout: Duration,
    /// Connections served at once; more wait in the listen queue.
    pub max_connections: usize,
    /// How long one connection may stay open.
    pub connection_lifetime: Duration,
    /// Answers computed at once (the others wait their turn).
    pub workers: usize,
    /// Pattern scans run at once, apart from the other answers; a scan past them is
    /// refused at once (503, `Retry-After`).
    pub max_scans: usize,
    /// Time a pattern scan may run (then it stops, and its answer is a 503).
    pub scan_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_uri: 60 * 1024,
            max_headers: 32 * 1024,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_connections: 256,
            connection_lifetime: Duration::from_secs(300),
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            max_scans: 2,
            scan_timeout: Duration::from_secs(300),
        }
    }
}

/// Whether an address is a loopback one (the server warns before listening elsewhere).
pub fn is_loopback(addr: &SocketAddr) -> bool {
    match addr.ip() {
        IpAddr::V4(a) => a.is_loopback(),
        IpAddr::V6(a) => a.is_loopback() || a.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
    }
}

/// The answers being computed, by request target (path and query): the same request asked
/// meanwhile awaits that answer instead of a worker of its own.
type Flights = Arc<std::sync::Mutex<HashMap<String, Arc<OnceCell<Result<String, ApiError>>>>>>;

#[derive(Clone)]
struct AppState {
    explorer: Shared,
    workers: Arc<Semaphore>,
    flights: Flights,
    timeout: Duration,
    scans: ScanSlots,
}

/// The routes: the page, its assets and the API, behind the guard.
pub fn router(explorer: Shared, limits: &Limits) -> Router {
    let state = AppState {
        explorer,
        workers: Arc::new(Semaphore::new(limits.workers.max(1))),
        flights: Flights::default(),
        timeout: limits.request_timeout,
        scans: ScanSlots::new(limits.max_scans, limits.scan_timeout),
    };
    let max_uri = limits.max_uri;
    Router::new()
        .route("/api/info", get(info))
        .route("/api/position", get(position))
        .route("/api/search", get(search))
        .route("/api/games", get(games))
        .route("/api/years", get(years))
        .route("/api/ranks", get(ranks))
        .route("/api/predict", get(predict))
        .route("/api/pattern", get(pattern))
        .route("/api/pattern/games", get(pattern_games))
        .route("/api/pattern/stream", get(pattern_stream))
        .route("/api/sgf", get(sgf))
        .route("/api/game/{id}", get(game))
        .fallback(static_file)
        .with_state(state)
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            guard(req, next, max_uri)
        }))
}

/// A JSON answer already written.
fn json_text(status: StatusCode, text: String) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.kind.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut r = json_text(status, self.to_json());
        if self.kind == ErrorKind::MethodNotAllowed {
            r.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        }
        if self.kind == ErrorKind::Busy {
            scan_slots::retry_after(&mut r);
        }
        r
    }
}

/// Checks method, length and body before anything else; adds the safety headers after.
async fn guard(req: Request, next: Next, max_uri: usize) -> Response {
    let mut response = if req.method() != Method::GET && req.method() != Method::HEAD {
        ApiError::new(
            ErrorKind::MethodNotAllowed,
            format!("method {} is not allowed (GET or HEAD only)", req.method()),
        )
        .into_response()
    } else if req.uri().path_and_query().map_or(0, |p| p.as_str().len()) > max_uri {
        ApiError::new(
            ErrorKind::UriTooLong,
            format!("the request is longer than {max_uri} bytes"),
        )
        .into_response()
    } else if has_body(&req) {
        ApiError::new(
            ErrorKind::PayloadTooLarge,
            "requests carry no body here (GET only)",
        )
        .into_response()
    } else {
        next.run(req).await
    };
    let h = response.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        ),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

fn has_body(req: &Request) -> bool {
    let h = req.headers();
    h.contains_key(header::TRANSFER_ENCODING)
        || h.get(header::CONTENT_LENGTH)
            .is_some_and(|v| v.as_bytes() != b"0")
}

/// Runs an explorer call on a blocking thread, bounded in concurrency and time.
async fn compute<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&Explorer<'static>) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let explorer = state.explorer.clone();
    let workers = state.workers.clone();
    let run = async move {
        let permit = workers
            .acquire_owned()
            .await
            .map_err(|_| ApiError::new(ErrorKind::Timeout, "the server is stopping"))?;
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            f(&explorer)
        });
        match task.await {
            Ok(r) => r,
            Err(e) => {
                eprintln!("kifudex serve: an answer failed: {e}");
                Err(ApiError::new(ErrorKind::Internal, "internal error"))
            }
        }
    };
    match tokio::time::timeout(state.timeout, run).await {
        Ok(r) => r,
        Err(_) => Err(ApiError::new(
            ErrorKind::Timeout,
            format!("no answer within {} s", state.timeout.as_secs()),
        )),
    }
}

/// [`answer`] shared by the requests for the same target at once (the questions that tally
/// a position's games: next moves, game lists, profiles): the first computes on a worker,
/// the others await its answer. Eight clients asking the same question had it computed
/// eight times, two at a time (the workers), so that the last waited for four computations
/// (`tests/bench/src/bin/explore_bench.rs`). Nothing is kept once answered.
async fn answer_shared(
    state: &AppState,
    uri: &Uri,
    f: impl FnOnce(&Explorer<'static>) -> Result<String, ApiError> + Send + 'static,
) -> Response {
    let target = uri
        .path_and_query()
        .map_or_else(|| uri.path().to_string(), |p| p.as_str().to_string());
    let cell = {
        let mut flights = state.flights.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(flights.entry(target.clone()).or_default())
    };
    // If the computing request goes away (its client left), a waiting one computes.
    let result = cell.get_or_init(|| compute(state, f)).await.clone();
    {
        let mut flights = state.flights.lock().unwrap_or_else(|e| e.into_inner());
        if flights.get(&target).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
            flights.remove(&target);
        }
    }
    match result {
        Ok(text) => json_text(StatusCode::OK, text),
        Err(e) => e.into_response(),
    }
}

fn query(uri: &Uri) -> &str {
    uri.query().unwrap_or("")
}

/// Answers with the JSON text an explorer call gives.
async fn answer(
    state: &AppState,
    f: impl FnOnce(&Explorer<'static>) -> Result<String, ApiError> + Send + 'static,
) -> Response {
    match compute(state, f).await {
        Ok(text) => json_text(StatusCode::OK, text),
        Err(e) => e.into_response(),
    }
}

async fn info(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::none(query(&uri)) {
        Ok(()) => answer(&s, |e| Ok(to_line(&e.info()))).await,
        Err(e) => e.into_response(),
    }
}

async fn position(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::position(query(&uri)) {
        Ok(q) => answer(&s, move |e| Ok(to_line(&e.position(&q)?))).await,
        Err(e) => e.into_response(),
    }
}

async fn search(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::search(query(&uri)) {
        Ok(q) => answer_shared(&s, &uri, move |e| Ok(to_line(&e.search(&q)?))).await,
        Err(e) => e.into_response(),
    }
}

async fn games(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::games(query(&uri)) {
        Ok(q) => answer_shared(&s, &uri, move |e| Ok(to_line(&e.games(&q)?))).await,
        Err(e) => e.into_response(),
    }
}

async fn ranks(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::ranks(query(&uri)) {
        Ok(q) => answer_shared(&s, &uri, move |e| Ok(to_line(&e.ranks(&q)?))).await,
        Err(e) => e.into_response(),
    }
}

async fn years(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::years(query(&uri)) {
        Ok(q) => answer_shared(&s, &uri, move |e| Ok(to_line(&e.years(&q)?))).await,
        Err(e) => e.into_response(),
    }
}

async fn predict(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::position(query(&uri)) {
        Ok(q) => answer(&s, move |e| Ok(to_line(&e.predict(&q)?))).await,
        Err(e) => e.into_response(),
    }
}

/// The answer `f` gives from the scan of `q`: a quick answer when the explorer keeps the
/// scan, else a scan in a slot of its own (`super::scan_slots`).
async fn from_scan(
    s: &AppState,
    q: PatternRequest,
    f: impl FnOnce(&Explorer<'static>, &PatternRequest, &PatternScan) -> String + Send + 'static,
) -> Response {
    if let Some(kept) = s.explorer.pattern_cached(&q) {
        return answer(s, move |e| Ok(f(e, &q, &kept))).await;
    }
    match scan_slots::answer_from_scan(&s.explorer, &s.scans, q, f).await {
        Ok(text) => json_text(StatusCode::OK, text),
        Err(e) => e.into_response(),
    }
}

async fn pattern(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::pattern(query(&uri)) {
        Ok(q) => from_scan(&s, q, |e, q, scan| to_line(&e.pattern_answer(q, scan))).await,
        Err(e) => e.into_response(),
    }
}

async fn pattern_games(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::pattern_games(query(&uri)) {
        Ok((q, page)) => {
            from_scan(&s, q, move |e, _, scan| {
                to_line(&e.pattern_games_of(scan, page))
            })
            .await
        }
        Err(e) => e.into_response(),
    }
}

async fn pattern_stream(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::pattern(query(&uri)) {
        Ok(q) => scan_slots::stream(&s.explorer, &s.scans, q),
        Err(e) => e.into_response(),
    }
}

async fn sgf(State(s): State<AppState>, uri: Uri) -> Response {
    match query_string::sgf_text(query(&uri)) {
        Ok(text) => answer(&s, move |e| Ok(to_line(&e.read_sgf(&text)?))).await,
        Err(e) => e.into_response(),
    }
}

async fn game(State(s): State<AppState>, uri: Uri) -> Response {
    // The segment as sent (still percent-encoded): an id is plain digits.
    let segment = uri.path().strip_prefix("/api/game/").unwrap_or("");
    let (id, as_sgf) =
        match query_string::none(query(&uri)).and_then(|_| query_string::game_id(segment)) {
            Ok(x) => x,
            Err(e) => return e.into_response(),
        };
    if !as_sgf {
        return answer(&s, move |e| Ok(to_line(&e.game(id)?))).await;
    }
    match compute(&s, move |e| Ok(e.game_sgf(id)?)).await {
        Ok(text) => (
            StatusCode::OK,
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-go-sgf; charset=utf-8".to_owned(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"kifudex-{id}.sgf\""),
                ),
            ],
            text,
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}

/// The page and its files; anything else is a 404.
async fn static_file(req: Request) -> Response {
    let path = req.uri().path();
    if path.starts_with("/api/") || path == "/api" {
        return ApiError::not_found(format!("no such API route: {path}")).into_response();
    }
    let Some(asset) = assets::get(path) else {
        return ApiError::not_found("not found").into_response();
    };
    let etag = HeaderValue::from_str(&asset.etag).unwrap_or(HeaderValue::from_static("\"\""));
    if req
        .headers()
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v == etag)
    {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
    }
    let mut r = Response::new(Body::from(asset.bytes.into_owned()));
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::ETAG, etag);
    r
}

/// A server bound to its address, not yet serving.
pub struct Server {
    listener: TcpListener,
    app: Router,
    limits: Limits,
}

impl Server {
    /// Binds `addr` (port 0: any free port) to answer with `explorer`.
    pub async fn bind(
        addr: SocketAddr,
        explorer: Shared,
        limits: Limits,
    ) -> std::io::Result<Server> {
        let listener = TcpListener::bind(addr).await?;
        let app = router(explorer, &limits);
        Ok(Server {
            listener,
            app,
            limits,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes; then stops accepting (open connections end with
    /// the runtime).
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> std::io::Result<()> {
        let Server {
            listener,
            app,
            limits,
        } = self;
        let connections = Arc::new(Semaphore::new(limits.max_connections.max(1)));
        tokio::pin!(shutdown);
        loop {
            let permit = tokio::select! {
                _ = &mut shutdown => return Ok(()),
                p = connections.clone().acquire_owned() => match p {
                    Ok(p) => p,
                    Err(_) => return Ok(()),
                },
            };
            let (stream, _) = tokio::select! {
                _ = &mut shutdown => return Ok(()),
                r = listener.accept() => match r {
                    Ok(x) => x,
                    Err(e) => {
                        // Out of file descriptors and the like: wait, then go on.
                        eprintln!("kifudex serve: accept: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
            };
            let _ = stream.set_nodelay(true);
            let app = app.clone();
            let limits = limits.clone();
            tokio::spawn(async move {
                let _permit = permit;
                let service = hyper::service::service_fn(move |req| {
                    tower::ServiceExt::oneshot(app.clone(), req)
                });
                let conn = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(limits.header_timeout)
                    .max_buf_size(limits.max_uri + limits.max_headers + 64 * 1024)
                    .serve_connection(
                        TokioIo::new(LineLimit::new(
                            stream,
                            limits.max_uri + 64,
                            limits.max_headers,
                        )),
                        service,
                    );
                let _ = tokio::time::timeout(limits.connection_lifetime, conn).await;
            });
        }
    }
}

/// A server running on its own thread and runtime (for the command line's `serve`, tests
/// and benchmarks); stopped when dropped.
pub struct RunningServer {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl RunningServer {
    /// Binds `addr` and answers with `explorer` on a new thread.
    pub fn start(
        addr: SocketAddr,
        explorer: Shared,
        limits: Limits,
    ) -> std::io::Result<RunningServer> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(limits.workers.clamp(1, 4))
            .enable_all()
            .build()?;
        let server = runtime.block_on(Server::bind(addr, explorer, limits))?;
        let addr = server.local_addr()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("kifudex-serve".into())
            .spawn(move || {
                let r = runtime.block_on(server.run(async {
                    let _ = rx.await;
                }));
                runtime.shutdown_timeout(Duration::from_secs(1));
                r
            })?;
        Ok(RunningServer {
            addr,
            stop: Some(tx),
            thread: Some(thread),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until the process is interrupted (Ctrl-C), then stops.
    pub fn wait_for_ctrl_c(mut self) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        runtime.block_on(async {
            let _ = tokio::signal::ctrl_c().await;
        });
        self.stop_now()
    }

    fn stop_now(&mut self) -> std::io::Result<()> {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        match self.thread.take() {
            Some(t) => t
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the server thread panicked"))),
            None => Ok(()),
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        let _ = self.stop_now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_addresses() {
        for a in [
            "127.0.0.1:8080",
            "127.1.2.3:1",
            "[::1]:8080",
            "[::ffff:127.0.0.1]:80",
        ] {
            assert!(is_loopback(&a.parse().unwrap()), "{a}");
        }
        for a in ["0.0.0.0:8080", "192.168.1.2:80", "[::]:8080", "10.0.0.1:1"] {
            assert!(!is_loopback(&a.parse().unwrap()), "{a}");
        }
    }
}
