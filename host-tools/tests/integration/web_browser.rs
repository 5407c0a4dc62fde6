//! The web board in a real browser: Debian's headless chromium, driven through
//! chromedriver (WebDriver) from Rust, against a server on an ephemeral loopback port over
//! an index of `../shared/corpus/fox_pro`:
//! - the page loads with the position of its URL, letters on the board and a table;
//! - clicking a next-move letter plays it: the URL, the table and the game list become the
//!   API's answers for the new position;
//! - an illegal move is refused with a message and changes nothing; back and forward work;
//! - clicking a game opens it on the replay board at the move where the position occurred;
//!   the arrow keys step it; "Search this position" puts it on the search board;
//! - setup mode places stones; a pasted SGF opens on the replay board and its position at
//!   a move is searched; a narrow window stacks the columns;
//! - pattern mode: a rectangle dragged in a corner searches its pattern: the continuations
//!   (letters inside the rectangle, the table) are `/api/pattern`'s, the game list is
//!   `/api/pattern/games`'; a cell set to a wildcard searches again; a game opens at its
//!   first hit.
//!
//! chromium and chromedriver must be installed (`scripts/setup.sh` does it): without them
//! the test fails, it does not skip. `KIFUDEX_SCREENSHOTS=DIR` keeps the screenshots
//! (the README's come from `KIFUDEX_SCREENSHOTS=docs`).
//!
//! Run with `cargo test -p kifudex --release --test integration web_browser::`.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use kifudex::explore::{keep, Explorer};
use kifudex::web::{Limits, RunningServer};
use serde_json::{json, Value};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

/// chromedriver on a free loopback port, ended when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        for tool in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                Path::new(tool).exists(),
                "{tool} is missing: the browser tests need Debian's chromium and chromium-driver \
                 (scripts/setup.sh installs them)"
            );
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let t = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn fox_pro_server() -> (RunningServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("fox_pro.kdx");
    let out = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(["build", "--quiet", "-o"])
        .arg(&index)
        .arg(corpus("fox_pro"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let explorer = Explorer::open(keep(std::fs::read(&index).unwrap()), "fox_pro").unwrap();
    (serve(explorer), dir)
}

/// A server of `explorer` on a free loopback port, with the default limits.
fn serve(explorer: Explorer<'static>) -> RunningServer {
    RunningServer::start(
        "127.0.0.1:0".parse().unwrap(),
        Arc::new(explorer),
        Limits::default(),
    )
    .unwrap()
}

/// A browser session's chromedriver, profile folder and runtime.
fn session() -> (Driver, tempfile::TempDir, tokio::runtime::Runtime) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    (Driver::start(), tempfile::tempdir().unwrap(), rt)
}

async fn browser(driver: &Driver, profile: &Path, width: u32, height: u32) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        &format!("--user-data-dir={}", profile.display()),
        &format!("--window-size={width},{height}"),
    ];
    let caps = json!({
        "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("chromedriver session")
}

/// Evaluates `expr` (a JavaScript expression) in the page.
async fn js(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return ({expr});"), vec![])
        .await
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// Waits until `expr` is truthy (at most 10 s).
async fn wait(c: &Client, expr: &str) -> Value {
    let t = Instant::now();
    loop {
        let v = js(c, expr).await;
        if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
            return v;
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "timed out waiting for {expr}"
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// The API's answer, fetched by the page itself.
async fn api(c: &Client, path: &str) -> Value {
    let script = format!(
        "const r = await fetch({}); return await r.json();",
        json!(path)
    );
    c.execute(&script, vec![]).await.unwrap()
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    if let Ok(dir) = std::env::var("KIFUDEX_SCREENSHOTS") {
        // Relative to the repository's root.
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), png).unwrap();
    }
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// The moves in the page's URL.
async fn url_moves(c: &Client) -> String {
    let url = c.current_url().await.unwrap();
    url.query_pairs()
        .find(|(k, _)| k == "moves")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

/// The rows of the next-move table as (letter, human move, count).
async fn table(c: &Client) -> Vec<(String, String, u64)> {
    let v = js(
        c,
        "[...document.querySelectorAll('#next-table tbody tr.clickable')].map(tr => [tr.cells[0].textContent, tr.cells[1].textContent, tr.cells[2].textContent])",
    )
    .await;
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r[0].as_str().unwrap().to_owned(),
                r[1].as_str().unwrap().to_owned(),
                r[2].as_str()
                    .unwrap()
                    .replace([',', '.', ' '], "")
                    .parse()
                    .unwrap(),
            )
        })
        .collect()
}

/// SGF letters to the page's human coordinates (19x19).
fn human(m: &str) -> String {
    let b = m.as_bytes();
    let col = b"ABCDEFGHJKLMNOPQRST"[(b[0] - b'a') as usize] as char;
    format!("{col}{}", 19 - (b[1] - b'a') as u32)
}

/// Checks the table and the game list against the API for the page's position.
async fn check_results(c: &Client, moves: &str) {
    let search = api(c, &format!("/api/search?moves={moves}")).await;
    let games = api(c, &format!("/api/games?moves={moves}&limit=25")).await;
    let rows = table(c).await;
    let next = search["next"].as_array().unwrap();
    assert_eq!(rows.len(), next.len().min(10), "{moves}");
    for (row, class) in rows.iter().zip(next) {
        assert_eq!(row.1, human(class["move"].as_str().unwrap()), "{moves}");
        assert_eq!(row.2, class["count"].as_u64().unwrap(), "{moves}");
    }
    check_game_list(c, &games, moves).await;
}

/// Drags the pointer on the search board from one point to another.
async fn drag(c: &Client, from: &str, to: &str) {
    let at = |p: &str| format!("#search-board rect[data-point=\"{p}\"]");
    let a = c.find(Locator::Css(&at(from))).await.unwrap();
    let b = c.find(Locator::Css(&at(to))).await.unwrap();
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: a,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveToElement {
            element: b,
            duration: Some(Duration::from_millis(150)),
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(mouse).await.unwrap();
}

/// Checks pattern mode's table, letters and game list against the API for `rows` searched
/// with `area`, drawn with its top-left cell at `origin`; returns the continuations' count.
async fn check_pattern(c: &Client, rows: &str, area: &str, origin: (u8, u8)) -> usize {
    let q = format!("pattern={}&area={area}", rows.replace('/', "%2F"));
    let found = api(c, &format!("/api/pattern?{q}")).await;
    let games = api(c, &format!("/api/pattern/games?{q}&limit=25")).await;
    let conts = found["continuations"].as_array().unwrap();
    let on_board = |cell: &str| {
        let b = cell.as_bytes();
        let p = [
            b'a' + origin.0 + (b[0] - b'a'),
            b'a' + origin.1 + (b[1] - b'a'),
        ];
        String::from_utf8(p.to_vec()).unwrap()
    };
    let got = js(
        c,
        "[...document.querySelectorAll('#next-table tbody tr.pattern-row')].map(tr => [tr.dataset.move, tr.cells[2].textContent])",
    )
    .await;
    let got = got.as_array().unwrap();
    assert_eq!(got.len(), conts.len().min(10), "{q}");
    for (row, cont) in got.iter().zip(conts) {
        assert_eq!(
            row[0],
            json!(on_board(cont["move"].as_str().unwrap())),
            "{q}"
        );
        let n: u64 = row[1]
            .as_str()
            .unwrap()
            .replace([',', '.', ' '], "")
            .parse()
            .unwrap();
        assert_eq!(n, cont["count"].as_u64().unwrap(), "{q}");
    }
    // The letters lie inside the rectangle.
    let letters = js(
        c,
        "[...document.querySelectorAll('#search-board .letter')].map(g => g.dataset.move)",
    )
    .await;
    let (w, h) = (
        rows.split('/').next().unwrap().len() as u8,
        rows.split('/').count() as u8,
    );
    for m in letters.as_array().unwrap() {
        let b = m.as_str().unwrap().as_bytes();
        let (x, y) = (b[0] - b'a', b[1] - b'a');
        assert!(
            x >= origin.0 && x < origin.0 + w && y >= origin.1 && y < origin.1 + h,
            "{m} outside the pattern"
        );
    }
    let total = js(c, "document.getElementById('total').textContent").await;
    assert!(total.as_str().unwrap().contains(" hits in "), "{total}");
    assert!(
        !games["games"].as_array().unwrap().is_empty(),
        "{q}: no game"
    );
    check_game_list(c, &games, &q).await;
    conts.len()
}

/// The page's game list shows the games of the API's list object, in its order.
async fn check_game_list(c: &Client, games: &Value, what: &str) {
    let ids = js(
        c,
        "[...document.querySelectorAll('#games-table tbody tr[data-game]')].map(tr => +tr.dataset.game)",
    )
    .await;
    let want: Vec<Value> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].clone())
        .collect();
    assert_eq!(ids, Value::Array(want), "{what}");
}

async fn wait_ready(c: &Client) {
    wait(
        c,
        "document.body.dataset.ready === '1' && !document.body.classList.contains('loading')",
    )
    .await;
}

/// The whole flow of a player, in one browser session.
#[test]
fn a_player_searches_plays_and_replays() {
    let (srv, _index_dir) = fox_pro_server();
    let addr: SocketAddr = srv.addr();
    let (driver, profile, rt) = session();
    rt.block_on(async {
        let c = browser(&driver, profile.path(), 1600, 1400).await;
        let base = format!("http://{addr}");

        // The page opens with the URL's position: letters and a table.
        c.goto(&format!("{base}/?moves=pd,dd,pp")).await.unwrap();
        wait_ready(&c).await;
        assert_eq!(
            js(&c, "document.querySelectorAll('#search-board .stone').length").await,
            json!(3)
        );
        check_results(&c, "pd,dd,pp").await;
        let first = table(&c).await[0].clone();
        assert_eq!(first.0, "a");

        // Clicking letter a plays it.
        let a = js(&c, "document.querySelector('#search-board .letter[data-letter=\"a\"]').dataset.move").await;
        let a = a.as_str().unwrap().to_owned();
        click(&c, &format!("#search-board rect[data-point=\"{a}\"]")).await;
        wait(&c, &format!("location.search.includes('{a}')")).await;
        wait_ready(&c).await;
        let moves = format!("pd,dd,pp,{a}");
        assert_eq!(url_moves(&c).await, moves);
        assert_eq!(
            js(&c, "document.querySelectorAll('#search-board .stone').length").await,
            json!(4)
        );
        check_results(&c, &moves).await;

        // A table row plays its move too.
        let row_move = js(&c, "document.querySelector('#next-table tbody tr.clickable').dataset.move").await;
        let row_move = row_move.as_str().unwrap().to_owned();
        click(&c, "#next-table tbody tr.clickable").await;
        let moves = format!("{moves},{row_move}");
        wait(&c, &format!("new URLSearchParams(location.search).get('moves') === '{moves}'")).await;
        wait_ready(&c).await;
        check_results(&c, &moves).await;
        shot(&c, "web-search.png").await;

        // An occupied point is refused with a message; nothing changes.
        click(&c, "#search-board rect[data-point=\"pd\"]").await;
        let msg = wait(&c, "document.getElementById('message').textContent").await;
        assert!(msg.as_str().unwrap().contains("occupied"), "{msg}");
        assert_eq!(url_moves(&c).await, moves);

        // Back and forward.
        click(&c, "#btn-back").await;
        wait(&c, &format!("new URLSearchParams(location.search).get('moves') === 'pd,dd,pp,{a}'")).await;
        wait_ready(&c).await;
        click(&c, "#btn-forward").await;
        wait(&c, &format!("new URLSearchParams(location.search).get('moves') === '{moves}'")).await;
        wait_ready(&c).await;
        // The browser's own back button walks the URL history.
        c.back().await.unwrap();
        wait(&c, &format!("new URLSearchParams(location.search).get('moves') === 'pd,dd,pp,{a}'")).await;
        wait_ready(&c).await;
        check_results(&c, &format!("pd,dd,pp,{a}")).await;

        // A game of the list opens on the replay board at the move where the position occurred.
        let game = js(&c, "(() => { const tr = document.querySelector('#games-table tbody tr[data-game]'); return [+tr.dataset.game, +tr.cells[5].textContent]; })()").await;
        let (id, move_number) = (game[0].as_u64().unwrap(), game[1].as_u64().unwrap());
        click(&c, "#games-table tbody tr[data-game]").await;
        wait(&c, &format!("document.getElementById('replay-title').textContent === 'Game {id}'")).await;
        let counter = js(&c, "document.getElementById('rp-counter').textContent").await;
        assert!(
            counter.as_str().unwrap().starts_with(&format!("{} / ", move_number - 1)),
            "{counter}"
        );
        // The replayed stones are the game's, replayed by the server.
        let stored = api(&c, &format!("/api/game/{id}")).await;
        let stones = js(&c, "document.querySelectorAll('#replay-board .stone').length").await;
        assert!(stones.as_u64().unwrap() >= 4);
        assert!(stored["moves"].as_array().unwrap().len() as u64 >= move_number);
        // Arrow keys step it.
        c.find(Locator::Css("body")).await.unwrap().send_keys(&Key::Right.to_string()).await.unwrap();
        wait(&c, &format!("document.getElementById('rp-counter').textContent.startsWith('{} / ')", move_number)).await;
        c.find(Locator::Css("body")).await.unwrap().send_keys(&Key::Left.to_string()).await.unwrap();
        c.find(Locator::Css("body")).await.unwrap().send_keys(&Key::Left.to_string()).await.unwrap();
        wait(&c, &format!("document.getElementById('rp-counter').textContent.startsWith('{} / ')", move_number - 2)).await;
        c.find(Locator::Css("body")).await.unwrap().send_keys(&Key::Right.to_string()).await.unwrap();
        wait(&c, &format!("document.getElementById('rp-counter').textContent.startsWith('{} / ')", move_number - 1)).await;
        assert!(js(&c, "location.search.includes('game=')").await.as_bool().unwrap());
        let sgf = js(&c, "document.getElementById('rp-sgf').getAttribute('href')").await;
        assert_eq!(sgf, json!(format!("/api/game/{id}.sgf")));
        shot(&c, "web-replay.png").await;

        // "Search this position": the game's position at that move on the search board.
        click(&c, "#rp-search").await;
        wait_ready(&c).await;
        let total = wait(&c, "document.getElementById('total').textContent").await;
        assert!(total.as_str().unwrap().contains("reached"), "{total}");
        let black = js(&c, "document.querySelectorAll('#search-board .stone.black').length").await;
        let replay_black = js(&c, "document.querySelectorAll('#replay-board .stone.black').length").await;
        assert_eq!(black, replay_black);

        // Setup mode: a stone of either colour, then White to move.
        click(&c, "#btn-start").await;
        wait(&c, "document.querySelectorAll('#search-board .stone').length === 0").await;
        wait_ready(&c).await;
        click(&c, "#btn-setup").await;
        click(&c, "#search-board rect[data-point=\"dd\"]").await;
        wait(&c, "location.search.includes('ab=dd')").await;
        wait_ready(&c).await;
        click(&c, "#setup-tools [data-tool=\"W\"]").await;
        click(&c, "#search-board rect[data-point=\"pp\"]").await;
        wait(&c, "location.search.includes('aw=pp')").await;
        wait_ready(&c).await;
        click(&c, "#setup-tools [data-move=\"W\"]").await;
        wait(&c, "location.search.includes('to_move=W')").await;
        wait_ready(&c).await;
        let search = api(&c, "/api/search?ab=dd&aw=pp&to_move=W").await;
        let rows = table(&c).await;
        assert_eq!(rows.len(), search["next"].as_array().unwrap().len().min(10));

        // A pasted record opens on the replay board; its position at a move is searched.
        click(&c, "#open-sgf").await;
        let sgf = "(;GM[1]SZ[19]PB[Paste B]PW[Paste W];B[pd];W[dd];B[pp];W[dp];B[fq])";
        c.find(Locator::Css("#sgf-text")).await.unwrap().send_keys(sgf).await.unwrap();
        click(&c, "#sgf-load").await;
        wait(&c, "document.getElementById('replay-title').textContent === 'SGF record'").await;
        wait(&c, "document.getElementById('rp-counter').textContent.startsWith('5 / 5')").await;
        click(&c, "#rp-start").await;
        for _ in 0..3 {
            click(&c, "#rp-next").await;
        }
        wait(&c, "document.getElementById('rp-counter').textContent.startsWith('3 / 5')").await;
        click(&c, "#rp-search").await;
        wait(&c, "new URLSearchParams(location.search).get('moves') === 'pd,dd,pp'").await;
        wait_ready(&c).await;
        check_results(&c, "pd,dd,pp").await;

        // Pattern mode: a rectangle dragged over the upper right corner (around the 4-4
        // stone) searches its pattern there, in any orientation.
        c.goto(&format!("{base}/?moves=pd,dd,pp,dp")).await.unwrap();
        wait_ready(&c).await;
        click(&c, "#btn-pattern").await;
        drag(&c, "ma", "sf").await;
        wait(&c, "new URLSearchParams(location.search).get('region') === '12,0,18,5'").await;
        wait_ready(&c).await;
        let rows = "......./......./......./...X.../......./.......";
        let url = js(&c, "new URLSearchParams(location.search).get('pattern')").await;
        assert_eq!(url, json!(rows));
        let n = check_pattern(&c, rows, "12,0,12,0", (12, 0)).await;
        assert!(n > 0, "no continuation");
        // A cell set to "anything" searches again.
        click(&c, "#pattern-tools [data-cell=\"*\"]").await;
        drag(&c, "sf", "sf").await;
        let rows = "......./......./......./...X.../......./......*";
        wait(&c, &format!("new URLSearchParams(location.search).get('pattern') === '{rows}'")).await;
        wait_ready(&c).await;
        check_pattern(&c, rows, "12,0,12,0", (12, 0)).await;
        shot(&c, "web-pattern.png").await;
        // A game with the pattern opens at its first hit.
        let game = js(&c, "(() => { const tr = document.querySelector('#games-table tbody tr[data-game]'); return [+tr.dataset.game, +tr.cells[5].textContent]; })()").await;
        let (id, at) = (game[0].as_u64().unwrap(), game[1].as_u64().unwrap());
        click(&c, "#games-table tbody tr[data-game]").await;
        wait(&c, &format!("document.getElementById('replay-title').textContent === 'Game {id}'")).await;
        wait(&c, &format!("document.getElementById('rp-counter').textContent.startsWith('{at} / ')")).await;
        // Off again: the position's next moves.
        click(&c, "#btn-pattern").await;
        wait(&c, "!location.search.includes('pattern=')").await;
        wait_ready(&c).await;
        check_results(&c, "pd,dd,pp,dp").await;

        // A narrow window stacks the columns.
        c.set_window_size(420, 900).await.unwrap();
        c.goto(&format!("{base}/?moves=pd,dd,pp")).await.unwrap();
        wait_ready(&c).await;
        let stacked = js(
            &c,
            "(() => { const a = document.getElementById('search-col').getBoundingClientRect(); const b = document.getElementById('games-col').getBoundingClientRect(); return b.top >= a.bottom - 1 && Math.abs(a.left - b.left) < 2; })()",
        )
        .await;
        assert_eq!(stacked, json!(true));
        shot(&c, "web-narrow.png").await;
        c.close().await.unwrap();
    });
}

/// The continuations the page's table shows, as (board point, count).
async fn pattern_rows(c: &Client) -> Vec<(String, u64)> {
    let got = js(
        c,
        "[...document.querySelectorAll('#next-table tbody tr.pattern-row')].map(tr => [tr.dataset.move, tr.cells[2].textContent])",
    )
    .await;
    got.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let n = r[1].as_str().unwrap().replace([',', '.', ' '], "");
            (r[0].as_str().unwrap().to_owned(), n.parse().unwrap())
        })
        .collect()
}

/// The page's table is the answer of `/api/pattern` for `rows` (anywhere) drawn at `origin`.
async fn check_final_pattern(c: &Client, rows: &str, origin: (u8, u8)) {
    let found = api(
        c,
        &format!("/api/pattern?pattern={}", rows.replace('/', "%2F")),
    )
    .await;
    let want: Vec<(String, u64)> = found["continuations"]
        .as_array()
        .unwrap()
        .iter()
        .take(10)
        .map(|c| {
            let b = c["move"].as_str().unwrap().as_bytes();
            let p = [
                b'a' + origin.0 + (b[0] - b'a'),
                b'a' + origin.1 + (b[1] - b'a'),
            ];
            (
                String::from_utf8(p.to_vec()).unwrap(),
                c["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(!want.is_empty(), "{rows}: no continuation");
    assert_eq!(pattern_rows(c).await, want, "{rows}");
    let total = js(c, "document.getElementById('total').textContent").await;
    let hits = found["hits"].as_u64().unwrap();
    assert!(
        total
            .as_str()
            .unwrap()
            .replace([',', '.', ' '], "")
            .starts_with(&format!("{hits}hitsin")),
        "{total} {hits}"
    );
}

/// A pattern search held slow (the scan service's test pause after each slice of one block
/// of games, on the bundled sample): the page shows its progress (games scanned of all,
/// the continuations so far), then the final answer; a pattern changed mid-scan aborts the
/// old query (the server counts its scan cancelled) and the page shows only the new one's
/// answer.
#[test]
fn a_slow_pattern_search_shows_its_progress() {
    use kifudex::explore::scan_cache::ScanOptions;
    let explorer = Explorer::open(keep(kifudex::sample::sample_index().unwrap()), "sample")
        .unwrap()
        .with_scan_options(ScanOptions {
            slice_delay: Duration::from_millis(700),
            threads: Some(2),
            ..ScanOptions::default()
        })
        .unwrap();
    let srv = serve(explorer);
    let addr: SocketAddr = srv.addr();
    let (driver, profile, rt) = session();
    rt.block_on(async {
        let c = browser(&driver, profile.path(), 1600, 1400).await;
        let base = format!("http://{addr}");
        let progress_shown = "!document.getElementById('pattern-progress').hidden \
             && document.getElementById('scan-text').textContent.startsWith('Scanned ') \
             && document.getElementById('total').textContent.endsWith(' so far')";
        let answered = "document.getElementById('pattern-progress').hidden \
             && !document.body.classList.contains('loading') \
             && / hits in \\S+ games$/.test(document.getElementById('total').textContent)";

        // A slow query: its progress, then its answer.
        let rows = "XX./X../...";
        c.goto(&format!(
            "{base}/?pattern={rows}&region=6,6,8,8&where=anywhere"
        ))
        .await
        .unwrap();
        wait(&c, progress_shown).await;
        let scanned = js(&c, "document.getElementById('scan-text').textContent").await;
        assert!(
            scanned.as_str().unwrap().ends_with(" of 286 games"),
            "{scanned}"
        );
        let bar = js(
            &c,
            "[document.getElementById('scan-bar').value, document.getElementById('scan-bar').max]",
        )
        .await;
        assert!(bar[0].as_f64().unwrap() < bar[1].as_f64().unwrap(), "{bar}");
        shot(&c, "web-pattern-progress.png").await;
        wait(&c, answered).await;
        check_final_pattern(&c, rows, (6, 6)).await;

        // Changed mid-scan: only the new query's answer.
        let rows = "X.X/.O./...";
        c.goto(&format!(
            "{base}/?pattern={rows}&region=6,6,8,8&where=anywhere"
        ))
        .await
        .unwrap();
        wait(&c, progress_shown).await;
        click(&c, "#pattern-tools [data-cell=\"*\"]").await;
        drag(&c, "gg", "gg").await;
        let rows = "*.X/.O./...";
        wait(
            &c,
            &format!("new URLSearchParams(location.search).get('pattern') === '{rows}'"),
        )
        .await;
        wait(&c, answered).await;
        check_final_pattern(&c, rows, (6, 6)).await;
        let scans = api(&c, "/api/info").await["scans"].clone();
        assert_eq!(scans["cancelled"], 1, "{scans}");
        assert_eq!(scans["completed"], 2, "{scans}");
        assert_eq!(scans["running"], 0, "{scans}");
        c.close().await.unwrap();
    });
}

/// Ranks and openings on the board: the opening's name shows above the board (the API's
/// name), the by-rank chart draws a bar for each range of ranks the API counts, and a rank
/// range typed into the filters narrows the next moves and the game list to the API's
/// answers with `min_rank`/`max_rank`.
#[test]
fn a_rank_range_narrows_and_the_opening_is_named() {
    let (srv, _index_dir) = fox_pro_server();
    let addr: SocketAddr = srv.addr();
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let c = browser(&driver, profile.path(), 1600, 1900).await;
        let base = format!("http://{addr}");
        let moves = "pd,dd,pp";
        c.goto(&format!("{base}/?moves={moves}")).await.unwrap();
        wait_ready(&c).await;

        // The opening's name, above the board.
        let search = api(&c, &format!("/api/search?moves={moves}")).await;
        let name = search["opening"]["name"].as_str().unwrap().to_owned();
        assert_eq!(name, "Nirensei");
        let shown = wait(&c, "document.getElementById('opening-name').textContent").await;
        assert_eq!(shown, json!(format!("Opening: {name}")));
        assert_eq!(
            js(&c, "(() => { const o = document.getElementById('opening-name').getBoundingClientRect(); const b = document.getElementById('search-board').getBoundingClientRect(); return o.height > 0 && o.bottom <= b.top + 1; })()").await,
            json!(true)
        );

        // The by-rank chart: one labelled bar per range with games, shares drawn.
        let ranks = api(&c, &format!("/api/ranks?moves={moves}")).await;
        let with_games: Vec<Value> = ranks["bins"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["total"].as_u64().unwrap() > 0)
            .map(|b| b["ranks"].clone())
            .collect();
        assert!(with_games.len() >= 2, "{ranks}");
        let labels = wait(&c, "[...document.querySelectorAll('#ranks-chart svg.ranks text.axis')].filter((_, i) => i % 2 === 0).map(t => t.textContent)").await;
        assert_eq!(labels, Value::Array(with_games));
        assert!(
            js(&c, "document.querySelectorAll('#ranks-chart svg.ranks rect.share').length")
                .await
                .as_u64()
                .unwrap()
                > 0
        );

        // A rank range that keeps some of the games but not all (found from the API).
        let total = search["total"].as_u64().unwrap();
        let mut range = None;
        for (min, max) in [("1d", "9d"), ("5d", "9d"), ("1p", "9p"), ("1k", "9d")] {
            let q = format!("/api/search?moves={moves}&min_rank={min}&max_rank={max}");
            let n = api(&c, &q).await["total"].as_u64().unwrap();
            if n > 0 && n < total {
                range = Some((min, max));
                break;
            }
        }
        let (min, max) = range.expect("a rank range that narrows the position's games");
        click(&c, "#filters summary").await;
        for (field, value) in [("min_rank", min), ("max_rank", max)] {
            c.find(Locator::Css(&format!("#filter-form input[name={field}]")))
                .await
                .unwrap()
                .send_keys(value)
                .await
                .unwrap();
        }
        wait(&c, &format!("new URLSearchParams(location.search).get('max_rank') === '{max}'")).await;
        wait_ready(&c).await;
        let filter = format!("min_rank={min}&max_rank={max}");
        let narrowed = api(&c, &format!("/api/search?moves={moves}&{filter}")).await;
        let games = api(&c, &format!("/api/games?moves={moves}&{filter}&limit=25")).await;
        let all_games = api(&c, &format!("/api/games?moves={moves}&limit=25")).await;
        assert!(games["matching"].as_u64() < all_games["matching"].as_u64());
        let rows = table(&c).await;
        let next = narrowed["next"].as_array().unwrap();
        assert_eq!(rows.len(), next.len().min(10));
        for (row, class) in rows.iter().zip(next) {
            assert_eq!(row.1, human(class["move"].as_str().unwrap()));
            assert_eq!(row.2, class["count"].as_u64().unwrap());
        }
        let counted: u64 = rows.iter().map(|r| r.2).sum();
        assert!(counted <= narrowed["total"].as_u64().unwrap());
        assert!(narrowed["total"].as_u64().unwrap() < total);
        check_game_list(&c, &games, "rank range").await;
        // Every listed game's players lie in the range (read by the test, not the server).
        let (lo, hi) = (
            kifudex::rank::Rank::parse(min).unwrap(),
            kifudex::rank::Rank::parse(max).unwrap(),
        );
        for g in games["games"].as_array().unwrap() {
            for k in ["black_rank", "white_rank"] {
                let r = kifudex::rank::Rank::parse(g[k].as_str().unwrap()).unwrap();
                assert!(lo <= r && r <= hi, "{g}");
            }
        }
        shot(&c, "web-ranks.png").await;
        c.close().await.unwrap();
    });
}
