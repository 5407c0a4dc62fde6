//! The page's files, embedded in the binary at build time (`src/assets/`): nothing is read
//! from disk while serving, and only these names can be served.

use std::borrow::Cow;

/// The files of `src/assets/`, compiled in (also in debug builds).
#[derive(rust_embed::Embed)]
#[folder = "src/assets/"]
struct Files;

/// One embedded file.
pub struct Asset {
    /// Its bytes.
    pub bytes: Cow<'static, [u8]>,
    /// Its media type.
    pub content_type: &'static str,
    /// A strong validator of its content (a hash).
    pub etag: String,
}

/// The file served at a request path (`/` is `index.html`), or `None`. Only flat names
/// of letters, digits, `-`, `_` and one `.` extension are looked up, so no path can
/// reach anything but the embedded files.
pub fn get(path: &str) -> Option<Asset> {
    let name = match path {
        "/" | "/index.html" => "index.html",
        p => p.strip_prefix('/')?,
    };
    let (stem, ext) = name.split_once('.')?;
    let plain = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    if !plain(stem) || !plain(ext) {
        return None;
    }
    let content_type = match ext {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "txt" => "text/plain; charset=utf-8",
        _ => return None,
    };
    let file = Files::get(name)?;
    let hash = file.metadata.sha256_hash();
    let etag = format!(
        "\"{}\"",
        hash[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    Some(Asset {
        bytes: file.data,
        content_type,
        etag,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_only_the_page() {
        let index = get("/").unwrap();
        assert!(index.content_type.starts_with("text/html"));
        assert!(std::str::from_utf8(&index.bytes)
            .unwrap()
            .contains("<title>kifudex"));
        assert!(get("/app.js").is_some());
        for bad in [
            "/../Cargo.toml",
            "/..",
            "/%2e%2e/Cargo.toml",
            "/assets/app.js",
            "//app.js",
            "/app.js/",
            "/.hidden",
            "/app..js",
            "/Cargo.toml",
            "/src/lib.rs",
            "",
            "app.js",
        ] {
            assert!(get(bad).is_none(), "{bad}");
        }
    }
}
