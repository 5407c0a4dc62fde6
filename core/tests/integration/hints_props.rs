//! The hint protocol never panics, whatever the request lines, plain or while tracking a
//! game: random bytes, and soups of real requests (`track`, `board` snapshots that are
//! mostly a game in progress with noise, `game`, `new`, `untrack`, `moves`), each line
//! answered by exactly one reply, every `fix` naming points of the board.

use kifudex_core::book::Book;
use kifudex_core::hints::{End, LedFrame, Leds, StandardHints, MAX_GAME_REPLY, MAX_REPLY};
use proptest::prelude::*;

const GOLDEN: &[u8] = include_bytes!("../data/golden.kdb");

struct Count(usize);

impl Leds for Count {
    fn show(&mut self, _frame: &LedFrame) {
        self.0 += 1;
    }
}

/// Serves `input`; returns how it ended, the reply lines and the LED frames shown.
fn serve(input: &[u8]) -> (End, Vec<Vec<u8>>, usize) {
    let hints = StandardHints::new(Book::open(GOLDEN));
    let mut out = Vec::new();
    let mut w = embedded_io_adapters_shim::Sink(&mut out);
    let mut leds = Count(0);
    let end = hints.serve(&mut &input[..], &mut w, &mut leds).unwrap();
    let lines = out.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    (end, lines, leds.0)
}

/// A growable sink for `embedded_io::Write` (the core's dev-dependencies have no adapter).
mod embedded_io_adapters_shim {
    pub struct Sink<'a>(pub &'a mut Vec<u8>);

    impl embedded_io::ErrorType for Sink<'_> {
        type Error = core::convert::Infallible;
    }

    impl embedded_io::Write for Sink<'_> {
        fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
            self.0.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }
}

/// A 9x9 snapshot: a random walk of stones (a game of sorts), then noise.
fn board_line(stones: &[(u8, u8)], noise: &[(u8, u8)], side: u8) -> String {
    let mut cells = vec![b'.'; 81];
    for (i, &(p, c)) in stones.iter().enumerate() {
        cells[p as usize % 81] = if (i + c as usize).is_multiple_of(2) {
            b'X'
        } else {
            b'O'
        };
    }
    for &(p, v) in noise {
        cells[p as usize % 81] = b".XO?"[v as usize % 4];
    }
    let side = match side % 4 {
        0 => " B",
        1 => " W",
        _ => "",
    };
    format!("board 9 {}{side}", String::from_utf8(cells).unwrap())
}

fn check(input: &[u8], lines_in: usize) {
    let (end, replies, frames) = serve(input);
    assert!(matches!(end, End::Quit | End::Eof));
    // One reply per line (the last split piece is what follows the last `\n`: empty).
    assert_eq!(replies.last().map(Vec::len), Some(0));
    let replies = &replies[..replies.len() - 1];
    assert_eq!(replies.len(), frames);
    assert!(replies.len() <= lines_in);
    for r in replies {
        assert!(r.len() < MAX_REPLY.max(MAX_GAME_REPLY), "{}", r.len());
        let r = String::from_utf8(r.clone()).unwrap();
        let word = r.split(' ').next().unwrap_or("");
        assert!(
            ["hints", "guess", "error", "fix", "ok"].contains(&word) || r.starts_with("(;GM[1]"),
            "{r}"
        );
        if let Some(rest) = r.strip_prefix("fix ") {
            let (_, points) = rest.split_once(' ').expect("a fix names points");
            for p in points.split(',') {
                let b = p.as_bytes();
                assert!(b.len() == 2 && b[0] < b'a' + 9 && b[1] < b'a' + 9, "{r}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..3000)) {
        let lines = b.iter().filter(|&&c| c == b'\n').count() + 1;
        check(&b, lines);
    }

    #[test]
    fn tracked_request_soups_never_panic(
        script in proptest::collection::vec(
            (0u8..12, proptest::collection::vec((0u8..81, 0u8..2), 0..40),
             proptest::collection::vec((0u8..81, 0u8..4), 0..3), any::<u8>()),
            1..60,
        ),
    ) {
        let mut input = String::new();
        let mut game: Vec<(u8, u8)> = Vec::new();
        for (op, stones, noise, side) in &script {
            let line = match op {
                0 => "track".to_string(),
                1 => "game".to_string(),
                2 => "new".to_string(),
                3 => "untrack".to_string(),
                4 => "moves ee,cc".to_string(),
                5 => format!("board 19 {}", ".".repeat(361)),
                6 => board_line(stones, noise, *side),
                _ => {
                    // The game goes on: one more stone (sometimes two), noise on top.
                    game.extend(stones.iter().take(1 + (*side as usize).is_multiple_of(3) as usize));
                    board_line(&game, noise, *side)
                }
            };
            input.push_str(&line);
            input.push('\n');
        }
        input.push_str("game\nquit\n");
        check(input.as_bytes(), script.len() + 1);
    }
}
