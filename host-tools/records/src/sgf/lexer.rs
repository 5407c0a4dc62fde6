//! The hand-written, lenient, fast SGF tokenizer.
//!
//! One forward pass over the bytes, no recursion (nesting is a depth counter), no allocation per
//! node or property: property values are byte ranges into the input, events go to a scratch
//! buffer reused across the file's trees. Only the main line (first child at every node) is
//! interpreted; other variations are skipped with a `memchr` scan that only looks at `(`, `)`
//! and `[` (values are skipped honouring `\` escapes).
//!
//! Leniency: junk before, between and after trees; a tree starting with `;` (no `(`); a first
//! node without `;`; truncation anywhere (what was read is kept); FF\[1\]-style long lower/upper
//! case property names (`PlayerBlack` is `PB`); lowercase-only identifiers, NUL bytes and other
//! stray bytes inside nodes are skipped; whitespace anywhere between tokens.

use super::{
    info, text, ErrorKind, Event, Exceeded, FileError, GameInfo, GameRecord, Limits, LineEnd,
    ParsedFile, SourceRef, Warning, WarningKind,
};
use kifudex_core::notation::SgfMove;
use kifudex_core::{Color, Move, Point, Size, Stone};
use memchr::{memchr2, memchr3};

pub(super) struct Sink<'s> {
    pub path: &'s str,
    pub member: Option<&'s str>,
    pub limits: &'s Limits,
    pub out: &'s mut ParsedFile,
}

/// Packs up to 4 uppercase letters of a property identifier.
const fn key(s: &[u8]) -> u32 {
    let mut k = 0u32;
    let mut i = 0;
    while i < s.len() {
        k = (k << 8) | s[i] as u32;
        i += 1;
    }
    k
}

/// Identifier with more than 4 uppercase letters: never kept.
const LONG_KEY: u32 = u32::MAX;

const K_B: u32 = key(b"B");
const K_W: u32 = key(b"W");
const K_AB: u32 = key(b"AB");
const K_AW: u32 = key(b"AW");
const K_AE: u32 = key(b"AE");

/// The game-info properties whose raw values are remembered (first occurrence wins).
const INFO_KEYS: [u32; 16] = [
    key(b"PB"),
    key(b"PW"),
    key(b"BR"),
    key(b"WR"),
    key(b"DT"),
    key(b"EV"),
    key(b"RO"),
    key(b"PC"),
    key(b"RE"),
    key(b"KM"),
    key(b"HA"),
    key(b"RU"),
    key(b"GN"),
    key(b"SZ"),
    key(b"GM"),
    key(b"CA"),
];
pub(super) const I_PB: usize = 0;
pub(super) const I_PW: usize = 1;
pub(super) const I_BR: usize = 2;
pub(super) const I_WR: usize = 3;
pub(super) const I_DT: usize = 4;
pub(super) const I_EV: usize = 5;
pub(super) const I_RO: usize = 6;
pub(super) const I_PC: usize = 7;
pub(super) const I_RE: usize = 8;
pub(super) const I_KM: usize = 9;
pub(super) const I_HA: usize = 10;
pub(super) const I_RU: usize = 11;
pub(super) const I_GN: usize = 12;
pub(super) const I_SZ: usize = 13;
pub(super) const I_GM: usize = 14;
pub(super) const I_CA: usize = 15;
/// The slots holding text decoded in the tree's charset.
pub(super) const TEXT_SLOTS: [usize; 12] = [
    I_PB, I_PW, I_BR, I_WR, I_DT, I_EV, I_RO, I_PC, I_RE, I_RU, I_GN, I_KM,
];

#[inline]
fn is_ws(c: u8) -> bool {
    c <= b' '
}

/// Letter value of an SGF coordinate letter: `a`..`z` 0..25, `A`..`Z` 26..51.
#[inline]
fn coord(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

#[inline]
fn point2(v: &[u8]) -> Option<Point> {
    if v.len() == 2 {
        Some(Point::new(coord(v[0])?, coord(v[1])?))
    } else {
        None
    }
}

fn trim(v: &[u8]) -> &[u8] {
    let s = v.iter().position(|&c| !is_ws(c)).unwrap_or(v.len());
    let e = v.iter().rposition(|&c| !is_ws(c)).map_or(s, |p| p + 1);
    &v[s..e]
}

/// Index of the `]` closing the value that starts at `i`, honouring `\` escapes.
#[inline]
fn value_end(b: &[u8], mut i: usize) -> Option<usize> {
    // Fast path: the two-letter move / point values that make up most of a file.
    if i + 2 < b.len() && b[i + 2] == b']' && b[i] != b'\\' && b[i + 1] != b'\\' && b[i] != b']' {
        if b[i + 1] == b']' {
            return Some(i + 1);
        }
        return Some(i + 2);
    }
    loop {
        let k = memchr2(b']', b'\\', b.get(i..)?)?;
        let j = i + k;
        if b[j] == b']' {
            return Some(j);
        }
        i = j + 2;
    }
}

/// Lead bytes of double-byte charsets whose trail bytes include `\\` and `]`.
type LeadFn = fn(u8) -> bool;

fn sjis_lead(c: u8) -> bool {
    matches!(c, 0x81..=0x9F | 0xE0..=0xFC)
}

fn cjk_lead(c: u8) -> bool {
    matches!(c, 0x81..=0xFE)
}

/// The lead-byte test for charsets whose trail bytes can be `\\` or `]` (Shift_JIS, GBK,
/// GB18030, Big5).
pub(super) fn double_byte_lead(enc: &'static encoding_rs::Encoding) -> Option<LeadFn> {
    if enc == encoding_rs::SHIFT_JIS {
        Some(sjis_lead)
    } else if enc == encoding_rs::GBK || enc == encoding_rs::GB18030 || enc == encoding_rs::BIG5 {
        Some(cjk_lead)
    } else {
        None
    }
}

/// [`value_end`] for a double-byte charset: a lead byte takes the next byte with it.
fn value_end_mb(b: &[u8], mut i: usize, lead: LeadFn) -> Option<usize> {
    while i < b.len() {
        let c = b[i];
        if c == b']' {
            return Some(i);
        }
        i += if c == b'\\' || lead(c) { 2 } else { 1 };
    }
    None
}

#[inline]
fn vend(b: &[u8], i: usize, mb: Option<LeadFn>) -> Option<usize> {
    match mb {
        None => value_end(b, i),
        Some(l) => value_end_mb(b, i, l),
    }
}

/// A move as first read, before the board size is known.
#[derive(Copy, Clone, Debug)]
enum RawMove {
    /// Two SGF letters.
    Point(Point),
    /// An empty value.
    Pass,
    /// Anything else: human coordinates, `pass`, or no move at all (resolved once the size
    /// is known).
    Unresolved,
}

/// An event as first read.
#[derive(Copy, Clone, Debug)]
enum RawEvent {
    Setup { point: Point, stone: Stone },
    Move { color: Color, mv: RawMove },
}

/// Scratch state for one tree; reused across the trees of a file.
struct Tree {
    limits: Limits,
    /// The first limit the tree passed, and where: the walk stops there.
    over: Option<(Exceeded, usize)>,
    events: Vec<(RawEvent, usize)>,
    slots: [Option<(usize, usize)>; 16],
    warnings: Vec<Warning>,
    nodes: usize,
    /// Index in `events` where the current node's events begin.
    node_first: usize,
    node_moves: u32,
    /// A setup property followed a move in the current node: reorder at the node's end.
    node_reorder: bool,
    junk_warned: bool,
}

impl Tree {
    fn new(limits: Limits) -> Tree {
        Tree {
            limits,
            over: None,
            events: Vec::new(),
            slots: [None; 16],
            warnings: Vec::new(),
            nodes: 0,
            node_first: 0,
            node_moves: 0,
            node_reorder: false,
            junk_warned: false,
        }
    }

    /// Notes the first limit passed, at byte `at`.
    fn exceed(&mut self, e: Exceeded, at: usize) {
        self.over.get_or_insert((e, at));
    }

    /// Whether `more` events still fit the limit (else the limit is noted at `at`).
    fn room(&mut self, more: u64, at: usize) -> bool {
        if self.events.len() as u64 + more > self.limits.events {
            self.exceed(Exceeded::events(&self.limits), at);
            return false;
        }
        true
    }

    /// Whether the value `vs..ve` fits the limit (else the limit is noted).
    fn value_fits(&mut self, vs: usize, ve: usize) -> bool {
        if (ve - vs) as u64 > self.limits.value_bytes {
            self.exceed(Exceeded::value_bytes(&self.limits), vs);
            return false;
        }
        true
    }

    /// Whether variations nested `depth` deep fit the limit (else the limit is noted at
    /// `at`).
    fn depth_fits(&mut self, depth: u64, at: usize) -> bool {
        if depth > self.limits.depth {
            self.exceed(Exceeded::depth(&self.limits), at);
            return false;
        }
        true
    }

    fn reset(&mut self) {
        self.over = None;
        self.events.clear();
        self.slots = [None; 16];
        self.warnings.clear();
        self.nodes = 0;
        self.node_first = 0;
        self.node_moves = 0;
        self.node_reorder = false;
        self.junk_warned = false;
    }

    fn warn(&mut self, byte_offset: usize, kind: WarningKind) {
        // Bound the list on pathological inputs.
        if self.warnings.len() < 1000 {
            self.warnings.push(Warning { byte_offset, kind });
        }
    }

    fn end_node(&mut self) {
        if self.node_reorder {
            // Setup before the move (stable).
            self.events[self.node_first..].sort_by_key(|(e, _)| matches!(e, RawEvent::Move { .. }));
        }
        self.node_reorder = false;
    }

    fn start_node(&mut self, at: usize) {
        self.end_node();
        self.nodes += 1;
        if self.nodes as u64 > self.limits.nodes {
            self.exceed(Exceeded::nodes(&self.limits), at);
        }
        self.node_first = self.events.len();
        self.node_moves = 0;
    }

    fn property(&mut self, k: u32, b: &[u8], vs: usize, ve: usize) {
        let v = &b[vs..ve];
        match k {
            K_B | K_W => {
                let color = if k == K_B { Color::Black } else { Color::White };
                if self.node_moves > 0 {
                    self.warn(vs, WarningKind::SeveralMovesInNode);
                }
                self.node_moves += 1;
                if !self.room(1, vs) {
                    return;
                }
                let mv = match point2(v) {
                    Some(p) => RawMove::Point(p),
                    None => {
                        let t = trim(v);
                        if t.is_empty() {
                            RawMove::Pass
                        } else if let Some(p) = point2(t) {
                            RawMove::Point(p)
                        } else {
                            // Resolved (human coordinates, `pass`) once the size is known.
                            RawMove::Unresolved
                        }
                    }
                };
                self.events.push((RawEvent::Move { color, mv }, vs));
            }
            K_AB | K_AW | K_AE => {
                let stone = match k {
                    K_AB => Stone::Black,
                    K_AW => Stone::White,
                    _ => Stone::Empty,
                };
                let t = if v.len() == 2 { v } else { trim(v) };
                if self.node_moves > 0 {
                    self.node_reorder = true;
                }
                if let Some(point) = point2(t) {
                    if self.room(1, vs) {
                        self.events.push((RawEvent::Setup { point, stone }, vs));
                    }
                } else if let (true, Some(a), Some(c)) = (
                    t.len() == 5 && t[2] == b':',
                    point2(&t[..2.min(t.len())]),
                    point2(t.get(3..).unwrap_or(&[])),
                ) {
                    // Compressed point list: a rectangle.
                    let (x0, x1) = (a.x.min(c.x), a.x.max(c.x));
                    let (y0, y1) = (a.y.min(c.y), a.y.max(c.y));
                    let points = u64::from(x1 - x0 + 1) * u64::from(y1 - y0 + 1);
                    if !self.room(points, vs) {
                        return;
                    }
                    for y in y0..=y1 {
                        for x in x0..=x1 {
                            let point = Point::new(x, y);
                            self.events.push((RawEvent::Setup { point, stone }, vs));
                        }
                    }
                } else {
                    self.warn(vs, WarningKind::BadSetupPoint);
                }
            }
            _ => {
                if let Some(slot) = INFO_KEYS.iter().position(|&x| x == k) {
                    if self.slots[slot].is_none() {
                        self.slots[slot] = Some((vs, ve));
                    } else {
                        self.warn(vs, WarningKind::DuplicateProperty);
                    }
                }
            }
        }
    }
}

/// Where the next game tree starts at or after `i`: `(pos, missing_paren)`.
fn find_tree_start(b: &[u8], mut i: usize) -> Option<(usize, bool)> {
    while i < b.len() {
        let j = i + memchr2(b'(', b';', &b[i..])?;
        let mut k = j + 1;
        while k < b.len() && is_ws(b[k]) {
            k += 1;
        }
        let starts_ident = |mut k: usize| {
            let s = k;
            while k < b.len() && b[k].is_ascii_alphabetic() {
                k += 1;
            }
            while k < b.len() && is_ws(b[k]) {
                k += 1;
            }
            k > s && k < b.len() && b[k] == b'['
        };
        if b[j] == b'(' {
            if k < b.len() && (b[k] == b';' || b[k] == b'(' || starts_ident(k)) {
                return Some((j, false));
            }
        } else if starts_ident(k) {
            return Some((j, true));
        }
        i = j + 1;
    }
    None
}

pub(super) fn parse(b: &[u8], utf16: bool, sink: &mut Sink<'_>) {
    let mut tree = Tree::new(*sink.limits);
    let mut i = 0usize;
    let mut tree_index = 0usize;
    let utf8_bom = b.starts_with(b"\xEF\xBB\xBF");
    if utf8_bom {
        i = 3;
    }
    loop {
        let Some((start, missing_paren)) = find_tree_start(b, i) else {
            let rest = &b[i.min(b.len())..];
            if tree_index == 0 {
                sink.out.rejected.push(FileError {
                    path: sink.path.to_owned(),
                    member: sink.member.map(str::to_owned),
                    tree_index: None,
                    byte_offset: 0,
                    kind: ErrorKind::NoGameTree,
                });
            } else if rest.iter().any(|&c| !is_ws(c)) {
                sink.out.warnings.push(Warning {
                    byte_offset: i,
                    kind: WarningKind::TrailingJunk,
                });
            }
            return;
        };
        let begin = |tree: &mut Tree| {
            tree.reset();
            if b[i..start].iter().any(|&c| !is_ws(c)) {
                tree.warn(i, WarningKind::JunkBeforeTree);
            }
            if missing_paren {
                tree.warn(start, WarningKind::MissingOpenParen);
            }
        };
        begin(&mut tree);
        let mut end = parse_tree(b, start, missing_paren, None, &mut tree);
        if refuse(&tree, tree_index, sink) {
            return;
        }
        let mut enc = tree_encoding(b, start, end, &tree, utf16 || utf8_bom, utf16);
        // A double-byte charset whose trail bytes may be `\` or `]`: scan again, pairing bytes.
        if let Some(lead) = double_byte_lead(enc.0) {
            let body = &b[start..end];
            if memchr::memchr_iter(b'\\', body).any(|k| k > 0 && lead(body[k - 1])) {
                begin(&mut tree);
                end = parse_tree(b, start, missing_paren, Some(lead), &mut tree);
                if refuse(&tree, tree_index, sink) {
                    return;
                }
                enc = tree_encoding(b, start, end, &tree, utf16 || utf8_bom, utf16);
            }
        }
        for k in enc.1 {
            tree.warn(start, k);
        }
        finish_tree(b, start, tree_index, enc.0, &mut tree, sink);
        tree_index += 1;
        i = end;
    }
}

/// Refuses a tree past a limit (the rest of the file is not read); whether it was.
fn refuse(t: &Tree, tree_index: usize, sink: &mut Sink<'_>) -> bool {
    let Some((e, at)) = t.over else {
        return false;
    };
    sink.out.rejected.push(FileError {
        path: sink.path.to_owned(),
        member: sink.member.map(str::to_owned),
        tree_index: Some(tree_index),
        byte_offset: at,
        kind: ErrorKind::Limit(e),
    });
    true
}

/// Walks one tree from `start`; returns the index just past it (the end of `b` when it
/// passes one of the tree's limits, noted in `t.over`).
fn parse_tree(
    b: &[u8],
    start: usize,
    missing_paren: bool,
    mb: Option<LeadFn>,
    t: &mut Tree,
) -> usize {
    let n = b.len();
    let mut i = if missing_paren { start } else { start + 1 };
    let mut depth: u64 = 1;
    if !t.depth_fits(depth, start) {
        return n;
    }
    let mut in_node = false;
    // Main line.
    loop {
        while i < n && is_ws(b[i]) {
            i += 1;
        }
        if i >= n {
            t.end_node();
            t.warn(n, WarningKind::UnclosedTree);
            return n;
        }
        match b[i] {
            b';' => {
                t.start_node(i);
                if t.over.is_some() {
                    return n;
                }
                in_node = true;
                i += 1;
            }
            b'(' => {
                depth += 1;
                if !t.depth_fits(depth, i) {
                    return n;
                }
                in_node = false;
                i += 1;
            }
            b')' => {
                depth -= 1;
                i += 1;
                t.end_node();
                break;
            }
            b'[' => {
                t.warn(i, WarningKind::BadPropertyIdent);
                match vend(b, i + 1, mb) {
                    Some(e) if !t.value_fits(i + 1, e) => return n,
                    Some(e) => i = e + 1,
                    None => {
                        t.end_node();
                        t.warn(i, WarningKind::UnclosedValue);
                        return n;
                    }
                }
            }
            c if c.is_ascii_alphabetic() => {
                let id_start = i;
                let mut k = 0u32;
                let mut upper = 0u32;
                while i < n && b[i].is_ascii_alphabetic() {
                    if b[i].is_ascii_uppercase() {
                        upper += 1;
                        k = if upper > 4 {
                            LONG_KEY
                        } else {
                            (k << 8) | b[i] as u32
                        };
                    }
                    i += 1;
                }
                while i < n && is_ws(b[i]) {
                    i += 1;
                }
                if i >= n || b[i] != b'[' {
                    t.warn(id_start, WarningKind::PropertyWithoutValue);
                    continue;
                }
                if !in_node {
                    if t.nodes == 0 {
                        t.warn(id_start, WarningKind::MissingSemicolon);
                    } else if !t.junk_warned {
                        t.junk_warned = true;
                        t.warn(id_start, WarningKind::JunkInNode);
                    }
                    t.start_node(id_start);
                    if t.over.is_some() {
                        return n;
                    }
                    in_node = true;
                }
                if upper == 0 {
                    t.warn(id_start, WarningKind::BadPropertyIdent);
                    k = 0;
                }
                while i < n && b[i] == b'[' {
                    let Some(e) = vend(b, i + 1, mb) else {
                        t.end_node();
                        t.warn(i, WarningKind::UnclosedValue);
                        return n;
                    };
                    if !t.value_fits(i + 1, e) {
                        return n;
                    }
                    if k != 0 {
                        t.property(k, b, i + 1, e);
                        if t.over.is_some() {
                            return n;
                        }
                    }
                    i = e + 1;
                    while i < n && is_ws(b[i]) {
                        i += 1;
                    }
                }
            }
            _ => {
                if !t.junk_warned {
                    t.junk_warned = true;
                    t.warn(i, WarningKind::JunkInNode);
                }
                i += 1;
            }
        }
    }
    // The rest of the tree: other variations, skipped. A `)` that closes a variation of a
    // main-line sequence (the depth at or below its lowest since the main line ended) must
    // be followed by `(` or `)`: a node there (`;`) follows variations, which SGF does not
    // allow; it is skipped with a warning.
    let mut low = depth;
    let mut warned = false;
    let mut after_variation = |t: &mut Tree, from: usize| {
        let next = b[from.min(n)..].iter().position(|&c| !is_ws(c));
        if let Some(k) = next {
            if b[from + k] == b';' && !warned {
                warned = true;
                t.warn(from + k, WarningKind::NodesAfterVariations);
            }
        }
    };
    if depth > 0 {
        after_variation(t, i);
    }
    while depth > 0 {
        let Some(k) = memchr3(b'(', b')', b'[', &b[i..]) else {
            t.warn(n, WarningKind::UnclosedTree);
            return n;
        };
        i += k;
        match b[i] {
            b'(' => {
                depth += 1;
                if !t.depth_fits(depth, i) {
                    return n;
                }
            }
            b')' => {
                depth -= 1;
                if depth > 0 && depth <= low {
                    low = depth;
                    after_variation(t, i + 1);
                }
            }
            _ => match vend(b, i + 1, mb) {
                Some(e) if !t.value_fits(i + 1, e) => return n,
                Some(e) => i = e,
                None => {
                    t.warn(i, WarningKind::UnclosedValue);
                    return n;
                }
            },
        }
        i += 1;
    }
    i
}

fn parse_size(v: &[u8]) -> Option<Size> {
    let s = std::str::from_utf8(trim(v)).ok()?;
    let (w, h) = match s.split_once(':') {
        Some((w, h)) => (w.trim().parse::<u8>().ok()?, h.trim().parse::<u8>().ok()?),
        None => {
            let n = s.parse::<u8>().ok()?;
            (n, n)
        }
    };
    Size::new(w, h)
}

/// Human coordinates (`R16`, column letters without `I`, rows from the bottom) and `pass`.
fn human_move(v: &[u8], size: Size) -> Option<Move> {
    let t = trim(v);
    if t.eq_ignore_ascii_case(b"pass") {
        return Some(Move::Pass);
    }
    if !(2..=3).contains(&t.len()) || !t[1..].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let c = t[0].to_ascii_uppercase();
    if !c.is_ascii_uppercase() || c == b'I' {
        return None;
    }
    let x = if c > b'I' { c - b'A' - 1 } else { c - b'A' };
    let row: u8 = std::str::from_utf8(&t[1..]).ok()?.parse().ok()?;
    if row == 0 || row > size.height() || x >= size.width() {
        return None;
    }
    Some(Move::Play(Point::new(x, size.height() - row)))
}

/// The tree's charset and the warnings that choice raised.
fn tree_encoding(
    b: &[u8],
    start: usize,
    end: usize,
    t: &Tree,
    utf8_hint: bool,
    utf16: bool,
) -> (&'static encoding_rs::Encoding, Vec<WarningKind>) {
    let raw = |slot: usize| t.slots[slot].map(|(s, e)| &b[s..e]);
    let mut warns = Vec::new();
    let enc = text::choose_encoding(
        raw(I_CA),
        TEXT_SLOTS.iter().filter_map(|&s| raw(s)),
        &b[start..end],
        utf8_hint,
        utf16,
        |k| warns.push(k),
    );
    (enc, warns)
}

fn finish_tree(
    b: &[u8],
    start: usize,
    tree_index: usize,
    enc: &'static encoding_rs::Encoding,
    t: &mut Tree,
    sink: &mut Sink<'_>,
) {
    let reject = |kind: ErrorKind, sink: &mut Sink<'_>| {
        sink.out.rejected.push(FileError {
            path: sink.path.to_owned(),
            member: sink.member.map(str::to_owned),
            tree_index: Some(tree_index),
            byte_offset: start,
            kind,
        });
    };
    let raw = |slot: usize| t.slots[slot].map(|(s, e)| &b[s..e]);
    if t.nodes == 0 {
        return reject(ErrorKind::EmptyTree, sink);
    }
    if let Some(gm) = raw(I_GM) {
        if let Ok(g) = std::str::from_utf8(trim(gm)).unwrap_or("").parse::<i64>() {
            if g != 1 {
                return reject(
                    ErrorKind::NotGo(String::from_utf8_lossy(trim(gm)).into_owned()),
                    sink,
                );
            }
        }
    }
    let size = match raw(I_SZ) {
        None => Size::STANDARD,
        Some(v) => match parse_size(v) {
            Some(s) => s,
            None => {
                return reject(
                    ErrorKind::BadSize(String::from_utf8_lossy(trim(v)).into_owned()),
                    sink,
                )
            }
        },
    };

    let dec = |slot: usize| raw(slot).and_then(|v| text::decode_simple(v, enc));
    let date = dec(I_DT);
    let mut info = GameInfo {
        black: dec(I_PB),
        white: dec(I_PW),
        black_rank: dec(I_BR),
        white_rank: dec(I_WR),
        year: date.as_deref().and_then(info::parse_year),
        date,
        event: dec(I_EV),
        round: dec(I_RO),
        place: dec(I_PC),
        result: dec(I_RE).map(|r| info::parse_result(&r)),
        komi: None,
        handicap: None,
        rules: dec(I_RU),
        game_name: dec(I_GN),
    };
    if let Some((s, _)) = t.slots[I_KM] {
        match dec(I_KM).and_then(|k| info::parse_komi(&k)) {
            Some(k) => info.komi = Some(k),
            None => t.warn(s, WarningKind::BadKomi),
        }
    }
    if let Some((s, e)) = t.slots[I_HA] {
        match std::str::from_utf8(trim(&b[s..e]))
            .ok()
            .and_then(|h| h.parse::<u16>().ok())
        {
            Some(h) => info.handicap = Some(h),
            None => t.warn(s, WarningKind::BadHandicap),
        }
    }

    // Resolve the events against the board: the main line ends at the first move that no
    // position can take (the warnings still name every bad move).
    let mut events = Vec::with_capacity(t.events.len());
    let mut end = None;
    let mut warns: Vec<Warning> = Vec::new();
    for &(ev, off) in &t.events {
        match ev {
            RawEvent::Setup { point, stone } => {
                if !size.contains(point) {
                    warns.push(Warning {
                        byte_offset: off,
                        kind: WarningKind::BadSetupPoint,
                    });
                } else if end.is_none() {
                    events.push(Event::Setup { point, stone });
                }
            }
            RawEvent::Move { color, mv } => {
                let mv = match mv {
                    RawMove::Point(p) => match SgfMove::at(p, size) {
                        SgfMove::Play(p) => Ok(Move::Play(p)),
                        SgfMove::Pass => Ok(Move::Pass),
                        SgfMove::OffBoard(p) => {
                            warns.push(Warning {
                                byte_offset: off,
                                kind: WarningKind::OffBoardMove,
                            });
                            Err(LineEnd::OffBoard(p))
                        }
                    },
                    RawMove::Pass => Ok(Move::Pass),
                    RawMove::Unresolved => {
                        let close = value_end(b, off).unwrap_or(off);
                        match human_move(&b[off..close], size) {
                            Some(m) => {
                                warns.push(Warning {
                                    byte_offset: off,
                                    kind: WarningKind::HumanCoordinate,
                                });
                                Ok(m)
                            }
                            None => {
                                warns.push(Warning {
                                    byte_offset: off,
                                    kind: WarningKind::InvalidMove,
                                });
                                Err(LineEnd::Invalid)
                            }
                        }
                    }
                };
                match (mv, end) {
                    (_, Some(_)) => {}
                    (Ok(mv), None) => events.push(Event::Play { color, mv }),
                    (Err(e), None) => end = Some(e),
                }
            }
        }
    }
    for w in warns {
        t.warn(w.byte_offset, w.kind);
    }
    let mut warnings = std::mem::take(&mut t.warnings);
    warnings.sort_by_key(|w| w.byte_offset);
    sink.out.games.push(GameRecord {
        source: SourceRef {
            path: sink.path.to_owned(),
            member: sink.member.map(str::to_owned),
            tree_index,
        },
        byte_offset: start,
        size,
        encoding: enc.name(),
        info,
        events,
        end,
        warnings,
    });
}
