//! The layer check: every module imports only modules of its own layer or an earlier one,
//! and no chain of imports leads from a module back to itself (no circle). The layers are
//! read from one place, the tables of `ARCHITECTURE.md`'s section "Layers" ([`Layers::parse`]):
//!
//! ```text
//! ### `core/src`
//!
//! | layer | modules | ... |
//! |---|---|---|
//! | 1 | `point`, `transform` | ... |
//! | 2 | `board` | ... |
//! ```
//!
//! A module path in a table (`indexing::replay`) stands for that module and every module
//! inside it (a file's node is the longest path listed that contains it); `crate` stands for
//! the crate root (`lib.rs`). A table with the header `| crate | module | imports | why |`
//! lists the known exceptions: imports that break a rule today, each to be removed (the
//! check fails too when one no longer occurs, so that the list stays true).
//!
//! What counts as an import: every path in the code (not in comments or strings) that
//! starts with `crate::`, `super::` or `self::`, or with the name of a child module, in a
//! `use` declaration or anywhere else; `#[cfg(test)]` items and `tests` modules are left
//! out (a test may use a later layer to make its data). A path names the longest module it
//! starts with; an item the crate root re-exports (`crate::Board`) names the module it comes
//! from.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path within its crate (`["build", "replay"]`; empty: the crate root).
pub type ModulePath = Vec<String>;

/// The layers of one crate, as `ARCHITECTURE.md` lists them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrateLayers {
    /// The crate's source folder, relative to the repository (`core/src`).
    pub root: String,
    /// Every module listed, with its layer.
    pub modules: Vec<(ModulePath, u32)>,
    /// Known exceptions: (module, module it imports).
    pub exceptions: Vec<(ModulePath, ModulePath)>,
}

/// One package of the workspace, as the crates' table lists it: which packages of the
/// workspace it may depend on, and which crates it must never depend on, directly or
/// through a package of the workspace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Package {
    /// Its name (`kifudex-explore`).
    pub name: String,
    /// Its folder, relative to the repository (`host-tools/explore`).
    pub folder: String,
    /// The workspace's packages it may depend on.
    pub may: Vec<String>,
    /// Crates it never depends on (`tokio`), nor does any package of the workspace it
    /// depends on.
    pub never: Vec<String>,
}

/// The layers of every crate checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layers {
    /// One entry per crate, in the order the document lists them.
    pub crates: Vec<CrateLayers>,
    /// The crates' table: the workspace's packages and the edges allowed between them.
    pub packages: Vec<Package>,
}

fn module_path(text: &str) -> ModulePath {
    if text == "crate" {
        return Vec::new();
    }
    text.split("::").map(str::to_owned).collect()
}

fn show(m: &[String]) -> String {
    if m.is_empty() {
        "crate".to_owned()
    } else {
        m.join("::")
    }
}

/// The backticked words of a table cell.
fn backticked(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

impl Layers {
    /// Reads the section `## Layers` of `doc` (`ARCHITECTURE.md`).
    pub fn parse(doc: &str) -> Result<Layers, String> {
        let mut layers = Layers::default();
        let mut inside = false;
        let mut header: Option<Vec<String>> = None;
        for (n, line) in doc.lines().enumerate() {
            let at = || format!("ARCHITECTURE.md:{}", n + 1);
            if let Some(title) = line.strip_prefix("## ") {
                inside = title.trim() == "Layers";
                continue;
            }
            if !inside {
                continue;
            }
            if let Some(title) = line.strip_prefix("### ") {
                let root = backticked(title)
                    .into_iter()
                    .find(|w| w.ends_with("/src"))
                    .ok_or_else(|| format!("{}: a crate's heading names no `.../src`", at()))?;
                layers.crates.push(CrateLayers {
                    root: root.to_owned(),
                    ..CrateLayers::default()
                });
                header = None;
                continue;
            }
            let Some(row) = line.trim().strip_prefix('|') else {
                header = None;
                continue;
            };
            let cells: Vec<String> = row.split('|').map(|c| c.trim().to_owned()).collect();
            let Some(h) = &header else {
                header = Some(cells);
                continue;
            };
            if cells
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
            {
                continue;
            }
            if h.first().map(String::as_str) == Some("package") {
                let cell = |i: usize| -> Vec<String> {
                    cells.get(i).map_or(Vec::new(), |c| {
                        backticked(c).into_iter().map(str::to_owned).collect()
                    })
                };
                let (name, folder) = (cell(0), cell(1));
                if name.len() != 1 || folder.len() != 1 {
                    return Err(format!(
                        "{}: a package is `name` | `folder` | `may depend on`... | `never`...",
                        at()
                    ));
                }
                layers.packages.push(Package {
                    name: name[0].clone(),
                    folder: folder[0].clone(),
                    may: cell(2),
                    never: cell(3),
                });
                continue;
            }
            let current = layers
                .crates
                .last_mut()
                .ok_or_else(|| format!("{}: a table before any crate's heading", at()))?;
            match h.first().map(String::as_str) {
                Some("layer") => {
                    let layer: u32 = cells[0]
                        .parse()
                        .map_err(|_| format!("{}: `{}` is not a layer number", at(), cells[0]))?;
                    let listed = cells.get(1).map_or(Vec::new(), |c| backticked(c));
                    if listed.is_empty() {
                        return Err(format!("{}: a layer without modules", at()));
                    }
                    for m in listed {
                        current.modules.push((module_path(m), layer));
                    }
                }
                Some("crate") => {
                    let cell = |i: usize| cells.get(i).map_or(Vec::new(), |c| backticked(c));
                    let (root, from, to) = (cell(0), cell(1), cell(2));
                    if root.first() != Some(&current.root.as_str())
                        || from.len() != 1
                        || to.len() != 1
                    {
                        return Err(format!(
                            "{}: an exception is `crate` | `module` | `imported module` of the crate above",
                            at()
                        ));
                    }
                    current
                        .exceptions
                        .push((module_path(from[0]), module_path(to[0])));
                }
                _ => {}
            }
        }
        if layers.crates.is_empty() {
            return Err("ARCHITECTURE.md has no section `## Layers` with a crate's table".into());
        }
        Ok(layers)
    }
}

/// One source file of a crate: its module path and text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Its module (`src/indexing/replay.rs`: `indexing::replay`; `src/indexing/mod.rs`: `indexing`).
    pub module: ModulePath,
    /// Where it is (for messages).
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// Every `.rs` file under `src`, with its module path.
pub fn read_crate(src: &Path) -> std::io::Result<Vec<SourceFile>> {
    let mut out = Vec::new();
    read_dir(src, &mut Vec::new(), &mut out)?;
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

fn read_dir(dir: &Path, module: &mut ModulePath, out: &mut Vec<SourceFile>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_owned();
        if path.is_dir() {
            // `src/bin/` holds binaries, crates of their own.
            if module.is_empty() && name == "bin" {
                continue;
            }
            module.push(name);
            read_dir(&path, module, out)?;
            module.pop();
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let mut m = module.clone();
            if !(stem == "mod" || (module.is_empty() && (stem == "lib" || stem == "main"))) {
                m.push(stem.to_owned());
            }
            if module.is_empty() && stem == "main" {
                continue;
            }
            out.push(SourceFile {
                module: m,
                path: path.clone(),
                text: std::fs::read_to_string(&path)?,
            });
        }
    }
    Ok(())
}

/// `text` with comments, string and character literals blanked (newlines kept).
pub fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r')))
            && !b
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
            && raw_string_start(&b, if c == 'b' { i + 1 } else { i }).is_some()
        {
            let start = if c == 'b' { i + 1 } else { i };
            let hashes = raw_string_start(&b, start).unwrap_or(0);
            // r, hashes, quote
            let mut j = start + 1 + hashes + 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &b[i..j.min(b.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F600}'), or a lifetime ('a), left as is.
            let end = if next == Some('\\') {
                (i + 2..b.len()).find(|&j| b[j] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    for _ in i..=e {
                        out.push(' ');
                    }
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// If a raw string starts at `i` (`r"`, `r#"`...), the number of its `#`s.
fn raw_string_start(b: &[char], i: usize) -> Option<usize> {
    if b.get(i) != Some(&'r') {
        return None;
    }
    let mut j = i + 1;
    while b.get(j) == Some(&'#') {
        j += 1;
    }
    (b.get(j) == Some(&'"')).then_some(j - i - 1)
}

/// `code` (comments and strings blanked) without its `#[cfg(test)]` items.
fn without_test_items(code: &str) -> String {
    let mut out: Vec<char> = code.chars().collect();
    let text: String = out.iter().collect();
    let mut from = 0;
    while let Some(k) = text[from..].find("#[cfg(test)]") {
        let start = from + k;
        let chars_before = text[..start].chars().count();
        // The item after the attribute: up to its `;`, or its balanced `{ ... }`.
        let rest: Vec<char> = text[start..].chars().collect();
        let mut j = "#[cfg(test)]".len();
        let mut depth = 0;
        let mut end = rest.len();
        while j < rest.len() {
            match rest[j] {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = j + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = j + 1;
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        for c in out.iter_mut().skip(chars_before).take(end) {
            if *c != '\n' {
                *c = ' ';
            }
        }
        from = start + rest[..end].iter().map(|c| c.len_utf8()).sum::<usize>();
    }
    out.into_iter().collect()
}

/// `code` without its `pub use ...;` declarations.
fn without_reexports(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(k) = rest.find("pub use ") {
        out.push_str(&rest[..k]);
        let end = rest[k..].find(';').map_or(rest.len(), |e| k + e + 1);
        out.extend(
            rest[k..end]
                .chars()
                .map(|c| if c == '\n' { c } else { ' ' }),
        );
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The paths of a `use` tree (`crate::a::{b, c::{d, e}}`): each leaf's whole path.
fn use_tree_paths(tree: &str) -> Vec<Vec<String>> {
    use_tree_leaves(tree).into_iter().map(|(p, _)| p).collect()
}

/// The leaves of a `use` tree: each one's whole path and the name it is known by (its last
/// segment, or its alias: `kifudex_web as web`).
fn use_tree_leaves(tree: &str) -> Vec<(Vec<String>, String)> {
    fn walk(tree: &str, prefix: &[String], out: &mut Vec<(Vec<String>, String)>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        if let Some(open) = tree.find('{') {
            let close = tree.rfind('}').unwrap_or(tree.len());
            let head: Vec<String> = tree[..open]
                .split("::")
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect();
            let mut p = prefix.to_vec();
            p.extend(head);
            // Split the inside at top-level commas.
            let inner = &tree[open + 1..close];
            let (mut depth, mut last) = (0, 0);
            for (i, ch) in inner.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        walk(&inner[last..i], &p, out);
                        last = i + 1;
                    }
                    _ => {}
                }
            }
            walk(&inner[last..], &p, out);
        } else {
            let mut parts = tree.split(" as ");
            let path = parts.next().unwrap_or(tree);
            let mut p = prefix.to_vec();
            p.extend(
                path.split("::")
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty()),
            );
            let name = parts
                .next()
                .map(|a| a.trim().to_owned())
                .or_else(|| p.last().cloned())
                .unwrap_or_default();
            out.push((p, name));
        }
    }
    let mut out = Vec::new();
    walk(tree, &[], &mut out);
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths written in `code` (comments and strings blanked, test items removed): the
/// leaves of every `use` tree, and every other path of two segments or more.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut rest = String::with_capacity(code.len());
    let mut i = 0;
    while i < chars.len() {
        let word_start = i == 0 || !is_ident_char(chars[i - 1]);
        if word_start
            && chars[i..].starts_with(&['u', 's', 'e'])
            && chars.get(i + 3).is_some_and(|c| c.is_whitespace())
        {
            let end = (i..chars.len())
                .find(|&j| chars[j] == ';')
                .unwrap_or(chars.len());
            let tree: String = chars[i + 3..end].iter().collect();
            out.extend(use_tree_paths(&tree));
            for _ in i..end {
                rest.push(' ');
            }
            i = end;
            continue;
        }
        rest.push(chars[i]);
        i += 1;
    }
    // Other paths: identifiers joined by `::` (a turbofish or generic ends a path).
    let chars: Vec<char> = rest.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if is_ident_char(chars[i])
            && (i == 0 || !(is_ident_char(chars[i - 1]) || chars[i - 1] == ':'))
        {
            let mut segs = Vec::new();
            let mut j = i;
            loop {
                let s = j;
                while j < chars.len() && is_ident_char(chars[j]) {
                    j += 1;
                }
                if s == j {
                    break;
                }
                segs.push(chars[s..j].iter().collect::<String>());
                let mut k = j;
                while k < chars.len() && chars[k].is_whitespace() {
                    k += 1;
                }
                if chars.get(k) == Some(&':') && chars.get(k + 1) == Some(&':') {
                    k += 2;
                    while k < chars.len() && chars[k].is_whitespace() {
                        k += 1;
                    }
                    if k < chars.len() && is_ident_char(chars[k]) {
                        j = k;
                        continue;
                    }
                }
                break;
            }
            if segs.len() >= 2 {
                out.push(segs);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// An import found: the importing file, the module it names, the line.
#[derive(Clone, Debug)]
struct Import {
    file: usize,
    target: ModulePath,
}

/// The crate's modules (by path); for the root, the modules its `pub use` items come from,
/// and the names it imports from other crates (`use kifudex_records::sgf;` makes
/// `crate::sgf` another crate's module, whose edge is the crates' table's, not a layer's).
struct Crate<'a> {
    files: &'a [SourceFile],
    modules: BTreeSet<ModulePath>,
    reexports: BTreeMap<String, ModulePath>,
    foreign: BTreeSet<String>,
}

impl<'a> Crate<'a> {
    fn new(files: &'a [SourceFile]) -> Crate<'a> {
        let modules: BTreeSet<ModulePath> = files.iter().map(|f| f.module.clone()).collect();
        let mut reexports = BTreeMap::new();
        let mut foreign = BTreeSet::new();
        if let Some(root) = files.iter().find(|f| f.module.is_empty()) {
            let code = code_only(&root.text);
            for (k, part) in code.split("use ").enumerate().skip(1) {
                let public = code
                    .split("use ")
                    .nth(k - 1)
                    .is_some_and(|before| before.ends_with("pub "));
                let tree = part.split(';').next().unwrap_or("");
                for (p, name) in use_tree_leaves(tree) {
                    let Some(first) = p.first() else { continue };
                    let own = matches!(first.as_str(), "crate" | "self" | "super")
                        || modules.contains(&vec![first.clone()]);
                    if !own {
                        foreign.insert(name);
                    } else if public {
                        let from = &p[..p.len() - 1];
                        let from = match from.first().map(String::as_str) {
                            Some("crate" | "self") => &from[1..],
                            _ => from,
                        };
                        let m = longest_module(&modules, from);
                        reexports.insert(name, m);
                    }
                }
            }
        }
        Crate {
            files,
            modules,
            reexports,
            foreign,
        }
    }

    /// The module a path written in module `at` names, if it is a path into the crate.
    fn resolve(&self, at: &ModulePath, path: &[String]) -> Option<ModulePath> {
        let first = path.first()?;
        let (mut base, rest): (ModulePath, &[String]) = match first.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (at.clone(), &path[1..]),
            "super" => {
                let mut m = at.clone();
                let mut k = 0;
                while path.get(k).map(String::as_str) == Some("super") {
                    m.pop()?;
                    k += 1;
                }
                (m, &path[k..])
            }
            name => {
                let mut child = at.clone();
                child.push(name.to_owned());
                if self.modules.contains(&child) {
                    (at.clone(), path)
                } else {
                    return None;
                }
            }
        };
        if base.is_empty() {
            if let Some(name) = rest.first() {
                let mut m = vec![name.clone()];
                if !self.modules.contains(&m) && self.foreign.contains(name) {
                    return None;
                }
                if !self.modules.contains(&m) {
                    if let Some(from) = self.reexports.get(name) {
                        return Some(from.clone());
                    }
                    m.clear();
                    return Some(m);
                }
            }
        }
        base.extend(rest.iter().cloned());
        Some(longest_module(&self.modules, &base))
    }

    fn imports(&self) -> Vec<Import> {
        let mut out = Vec::new();
        for (k, f) in self.files.iter().enumerate() {
            if f.module.iter().any(|s| s == "tests") {
                continue;
            }
            let mut code = without_test_items(&code_only(&f.text));
            if f.module.is_empty() {
                // The root's re-exports make its items the crate's, not its imports.
                code = without_reexports(&code);
            }
            for p in paths_in(&code) {
                if let Some(target) = self.resolve(&f.module, &p) {
                    out.push(Import { file: k, target });
                }
            }
        }
        out
    }
}

/// The longest prefix of `path` that is a module.
fn longest_module(modules: &BTreeSet<ModulePath>, path: &[String]) -> ModulePath {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains(p))
        .unwrap_or_default()
}

/// The listed module (a node of the check) that holds `m`.
fn node_of(layers: &CrateLayers, m: &[String]) -> Option<(ModulePath, u32)> {
    // The root (`crate`) holds only itself: the other modules are listed on their own.
    layers
        .modules
        .iter()
        .filter(|(p, _)| {
            if p.is_empty() {
                m.is_empty()
            } else {
                m.starts_with(p)
            }
        })
        .max_by_key(|(p, _)| p.len())
        .cloned()
}

/// Checks one crate's files against its layers; returns every violation, one line each.
pub fn check(layers: &CrateLayers, files: &[SourceFile]) -> Vec<String> {
    let mut problems = Vec::new();
    let krate = Crate::new(files);
    // Every module belongs to a layer.
    for f in files {
        if f.module.iter().any(|s| s == "tests") {
            continue;
        }
        if node_of(layers, &f.module).is_none() {
            problems.push(format!(
                "{}: module `{}` is in no layer of ARCHITECTURE.md ({})",
                f.path.display(),
                show(&f.module),
                layers.root
            ));
        }
    }
    // Imports between nodes.
    let mut edges: BTreeMap<(ModulePath, ModulePath), usize> = BTreeMap::new();
    for imp in krate.imports() {
        let f = &files[imp.file];
        let (Some((from, from_layer)), Some((to, to_layer))) =
            (node_of(layers, &f.module), node_of(layers, &imp.target))
        else {
            continue;
        };
        if from == to {
            continue;
        }
        let key = (from.clone(), to.clone());
        if layers.exceptions.contains(&key) {
            edges.entry(key).or_insert(imp.file);
            continue;
        }
        if to_layer > from_layer {
            problems.push(format!(
                "{}: `{}` (layer {from_layer}) imports `{}` (layer {to_layer}), a later layer",
                f.path.display(),
                show(&f.module),
                show(&imp.target),
            ));
        }
        edges.entry(key).or_insert(imp.file);
    }
    for e in &layers.exceptions {
        if !edges.contains_key(e) {
            problems.push(format!(
                "{}: the exception `{}` imports `{}` no longer occurs: remove it from ARCHITECTURE.md",
                layers.root,
                show(&e.0),
                show(&e.1)
            ));
        }
    }
    // Circles among the nodes (exceptions left out).
    let graph: BTreeMap<ModulePath, Vec<ModulePath>> = edges
        .keys()
        .filter(|e| !layers.exceptions.contains(e))
        .fold(BTreeMap::new(), |mut g, (a, b)| {
            g.entry(a.clone()).or_default().push(b.clone());
            g
        });
    for circle in circles(&graph) {
        let names: Vec<String> = circle.iter().map(|m| format!("`{}`", show(m))).collect();
        problems.push(format!(
            "{}: an import circle: {} -> {}",
            layers.root,
            names.join(" -> "),
            names[0]
        ));
    }
    problems
}

/// The circles of a directed graph: for every strongly connected component of more than
/// one node, one circle through it.
fn circles(graph: &BTreeMap<ModulePath, Vec<ModulePath>>) -> Vec<Vec<ModulePath>> {
    let nodes: Vec<&ModulePath> = graph
        .keys()
        .chain(graph.values().flatten())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let reach = |from: &ModulePath| -> BTreeMap<ModulePath, ModulePath> {
        // Breadth-first, remembering each node's predecessor.
        let mut prev: BTreeMap<ModulePath, ModulePath> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([from.clone()]);
        while let Some(n) = queue.pop_front() {
            for m in graph.get(&n).into_iter().flatten() {
                if !prev.contains_key(m) {
                    prev.insert(m.clone(), n.clone());
                    queue.push_back(m.clone());
                }
            }
        }
        prev
    };
    let reached: BTreeMap<&ModulePath, BTreeMap<ModulePath, ModulePath>> =
        nodes.iter().map(|&n| (n, reach(n))).collect();
    let mut seen: BTreeSet<ModulePath> = BTreeSet::new();
    let mut out = Vec::new();
    for &n in &nodes {
        if seen.contains(n) {
            continue;
        }
        let prev = &reached[n];
        if !prev.contains_key(n) {
            continue;
        }
        // Its strongly connected component: the nodes it reaches that reach it.
        for (m, _) in prev.iter() {
            if reached[m].contains_key(n) {
                seen.insert(m.clone());
            }
        }
        // The shortest way back to `n`.
        let mut circle = vec![n.clone()];
        let mut at = prev[n].clone();
        while &at != n {
            circle.push(at.clone());
            at = prev[&at].clone();
        }
        circle[1..].reverse();
        out.push(circle);
    }
    out
}

/// The names of the crates a manifest's `[dependencies]` names (not its dev- or build-
/// dependencies): each key, or the `package` it renames.
pub fn dependencies(manifest: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in manifest.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            inside = t == "[dependencies]";
            continue;
        }
        if !inside || t.is_empty() || t.starts_with('#') {
            continue;
        }
        let Some((key, value)) = t.split_once('=') else {
            continue;
        };
        let renamed = value
            .split_once("package")
            .and_then(|(_, v)| v.split('"').nth(1));
        let name = renamed.unwrap_or_else(|| key.split('.').next().unwrap_or("").trim());
        out.push(name.trim().to_owned());
    }
    out
}

/// Checks the edges between the workspace's packages against the crates' table:
/// `manifests` holds each package's `Cargo.toml` by its folder. A package depends only on
/// the packages its row allows, and none of the crates its row forbids is among its
/// dependencies or those of a package of the workspace it reaches.
pub fn check_packages(packages: &[Package], manifests: &BTreeMap<String, String>) -> Vec<String> {
    let mut problems = Vec::new();
    let by_name: BTreeMap<&str, &Package> = packages.iter().map(|p| (p.name.as_str(), p)).collect();
    let deps = |p: &Package| -> Vec<String> {
        manifests
            .get(&p.folder)
            .map_or(Vec::new(), |m| dependencies(m))
    };
    for p in packages {
        if !manifests.contains_key(&p.folder) {
            problems.push(format!("{}/Cargo.toml: no such manifest", p.folder));
            continue;
        }
        for d in deps(p) {
            if by_name.contains_key(d.as_str()) && !p.may.contains(&d) {
                problems.push(format!(
                    "{}/Cargo.toml: `{}` depends on `{d}`, which the crates' table of \
                     ARCHITECTURE.md does not allow",
                    p.folder, p.name
                ));
            }
        }
        // Every crate reached through the workspace's packages, with the package that
        // names it.
        let mut reached: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = vec![p];
        let mut seen = BTreeSet::from([p.name.clone()]);
        while let Some(q) = queue.pop() {
            for d in deps(q) {
                reached.entry(d.clone()).or_insert_with(|| q.name.clone());
                if let Some(next) = by_name.get(d.as_str()) {
                    if seen.insert(d.clone()) {
                        queue.push(next);
                    }
                }
            }
        }
        for never in &p.never {
            if let Some(through) = reached.get(never) {
                problems.push(format!(
                    "{}/Cargo.toml: `{}` depends on `{never}` (named by `{through}`), which \
                     the crates' table of ARCHITECTURE.md forbids it",
                    p.folder, p.name
                ));
            }
        }
    }
    problems
}

/// The workspace's members, as the top `Cargo.toml` lists them (`members = [...]`).
fn members(manifest: &str) -> Vec<String> {
    let Some((_, rest)) = manifest.split_once("members") else {
        return Vec::new();
    };
    let list = rest.split(']').next().unwrap_or("");
    list.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Checks every crate `ARCHITECTURE.md` lists, under the repository `root`.
pub fn check_repository(root: &Path) -> Result<Vec<String>, String> {
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md"))
        .map_err(|e| format!("ARCHITECTURE.md: {e}"))?;
    let layers = Layers::parse(&doc)?;
    let mut problems = Vec::new();
    for c in &layers.crates {
        let files = read_crate(&root.join(&c.root)).map_err(|e| format!("{}: {e}", c.root))?;
        problems.extend(check(c, &files));
    }
    let top =
        std::fs::read_to_string(root.join("Cargo.toml")).map_err(|e| format!("Cargo.toml: {e}"))?;
    for m in members(&top) {
        if !layers.packages.iter().any(|p| p.folder == m) {
            problems.push(format!(
                "Cargo.toml: the workspace's member `{m}` is not in the crates' table of ARCHITECTURE.md"
            ));
        }
    }
    problems.extend(check_packages(
        &layers.packages,
        &read_manifests(root, &layers),
    ));
    Ok(problems)
}

/// The manifest (`Cargo.toml`) of every package of the crates' table, by its folder.
pub fn read_manifests(root: &Path, layers: &Layers) -> BTreeMap<String, String> {
    layers
        .packages
        .iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(root.join(&p.folder).join("Cargo.toml")).ok()?;
            Some((p.folder.clone(), text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(module: &str, text: &str) -> SourceFile {
        SourceFile {
            module: if module.is_empty() {
                Vec::new()
            } else {
                module_path(module)
            },
            path: PathBuf::from(format!("{module}.rs")),
            text: text.to_owned(),
        }
    }

    const DOC: &str = "# x

## Layers

### `demo/src`

| layer | modules | what |
|---|---|---|
| 1 | `crate`, `low` | |
| 2 | `mid`, `mid::inner` | |
| 3 | `high` | |

| crate | module | imports | why |
|---|---|---|---|
| `demo/src` | `low` | `high` | a test |

## Other

| layer | modules |
|---|---|
| 9 | `ignored` |
";

    #[test]
    fn the_tables_are_read() {
        let l = Layers::parse(DOC).unwrap();
        assert_eq!(l.crates.len(), 1);
        let c = &l.crates[0];
        assert_eq!(c.root, "demo/src");
        assert_eq!(
            c.modules,
            vec![
                (vec![], 1),
                (module_path("low"), 1),
                (module_path("mid"), 2),
                (module_path("mid::inner"), 2),
                (module_path("high"), 3),
            ]
        );
        assert_eq!(
            c.exceptions,
            vec![(module_path("low"), module_path("high"))]
        );
    }

    #[test]
    fn the_crates_table_and_the_manifests_are_read() {
        let doc = DOC.replace(
            "### `demo/src`",
            "| package | folder | may depend on | never |\n|---|---|---|---|\n\
             | `low` | `l` | | `tokio` |\n| `top` | `t` | `low` | `axum` |\n\n### `demo/src`",
        );
        let l = Layers::parse(&doc).unwrap();
        assert_eq!(l.packages.len(), 2);
        assert_eq!(l.packages[1].may, vec!["low".to_owned()]);
        assert_eq!(l.packages[0].never, vec!["tokio".to_owned()]);
        let deps = dependencies(
            "[package]\nname = \"t\"\n[dependencies]\n# a comment\nlow = { path = \"../l\" }\n\
             serde.workspace = true\nsyn2 = { package = \"syn\", version = \"2\" }\n\
             [dev-dependencies]\ntokio = \"1\"\n",
        );
        assert_eq!(deps, vec!["low", "serde", "syn"]);
        let manifests = |low: &str| {
            BTreeMap::from([
                ("l".to_owned(), format!("[dependencies]\n{low}")),
                ("t".to_owned(), "[dependencies]\nlow = 1\n".to_owned()),
            ])
        };
        assert!(check_packages(&l.packages, &manifests("")).is_empty());
        // `low` pulls in what `top` must never depend on, and depends on `top`.
        let problems = check_packages(&l.packages, &manifests("axum = 1\ntop = 1\n"));
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].contains("`low` depends on `top`"),
            "{problems:?}"
        );
        assert!(
            problems[1].contains("`top` depends on `axum` (named by `low`)"),
            "{problems:?}"
        );
        assert_eq!(
            members("[workspace]\nmembers = [\n    \"core\",\n    \"t\",\n]\nexclude = [\"f\"]"),
            vec!["core", "t"]
        );
    }

    #[test]
    fn comments_and_strings_are_not_code() {
        let code = code_only(
            "let a = \"crate::x\"; // crate::y\n/* crate::z /* nested */ */ let b = 'c'; let r = r#\"crate::w\"#; fn f<'a>(x: &'a str) {}",
        );
        assert!(!code.contains("crate::"), "{code}");
        assert!(code.contains("fn f<'a>(x: &'a str)"), "{code}");
        assert_eq!(code.lines().count(), 2);
    }

    #[test]
    fn use_trees_and_paths_are_found() {
        let paths = paths_in(
            "use crate::a::{b, c::{d, e as f}};\nuse super::super::g;\nfn h() { crate::i::j(); let x = k :: l::m; }",
        );
        let want: Vec<Vec<&str>> = vec![
            vec!["crate", "a", "b"],
            vec!["crate", "a", "c", "d"],
            vec!["crate", "a", "c", "e"],
            vec!["super", "super", "g"],
            vec!["crate", "i", "j"],
            vec!["k", "l", "m"],
        ];
        assert_eq!(paths, want);
        let code = without_test_items(
            "fn a() {}\n#[cfg(test)]\nmod tests {\n use crate::b; { }\n}\nfn c() {}",
        );
        assert!(
            !code.contains("crate::b") && code.contains("fn c()"),
            "{code}"
        );
    }

    /// The demo crate: `mid` imports `low` (earlier: fine), `low` imports `high` (a known
    /// exception), `mid::inner` imports `mid` (the same node).
    fn demo() -> Vec<SourceFile> {
        vec![
            file("", "pub mod low;\npub mod mid;\npub mod high;\npub use mid::Thing;"),
            file("low", "use crate::high::H; // allowed for now\n"),
            file("mid", "mod inner;\nuse crate::low::L;\npub struct Thing;"),
            file("mid::inner", "use super::Thing;\n"),
            file("high", "use crate::mid::inner::X;\nuse crate::Thing;\n#[cfg(test)]\nmod tests { use crate::high; }"),
        ]
    }

    #[test]
    fn a_tree_in_order_passes() {
        let layers = Layers::parse(DOC).unwrap();
        assert_eq!(check(&layers.crates[0], &demo()), Vec::<String>::new());
    }

    #[test]
    fn an_import_of_a_later_layer_fails() {
        let layers = Layers::parse(DOC).unwrap();
        let mut files = demo();
        // The root's own code (not a re-export) calling into a later layer.
        files[0].text.push_str("fn f() { mid::g(); }\n");
        let problems = check(&layers.crates[0], &files);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("`crate` (layer 1) imports `mid` (layer 2)"),
            "{problems:?}"
        );
    }

    #[test]
    fn a_circle_fails() {
        // Two modules of one layer importing each other.
        let doc = DOC.replace("| 3 | `high` |", "| 2 | `high` |");
        let layers = Layers::parse(&doc).unwrap();
        let mut files = demo();
        files[2].text.push_str("use crate::high::Y;\n");
        let problems = check(&layers.crates[0], &files);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("an import circle"), "{problems:?}");
        assert!(problems[0].contains("`high`") && problems[0].contains("`mid`"));
    }

    #[test]
    fn a_stale_exception_and_an_unlisted_module_fail() {
        let layers = Layers::parse(DOC).unwrap();
        let mut files = demo();
        files[1].text = "pub struct L;".into();
        files.push(file("stray", ""));
        let problems = check(&layers.crates[0], &files);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("no longer occurs")));
        assert!(problems
            .iter()
            .any(|p| p.contains("`stray` is in no layer")));
    }
}
