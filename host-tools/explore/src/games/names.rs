//! Which names of a dictionary contain a filter's text, kept per text ([`Matches`]).
//!
//! A filter by player, event or rules is compiled by testing its text against every name of
//! the dictionary (about 20,000 players at a million synthetic games): about a millisecond
//! at every question, the whole time of a player-filtered question deep in a game. The
//! matches of the texts asked lately are kept (by the hot cache of the index whose
//! dictionaries they test) and read by the next questions with the same text.

use std::sync::Arc;

use super::recent::Recent;

use kifudex_core::columns::Dictionary;

/// Texts' matches kept (by default), the most recently used: one flag per name, so at
/// 20,000 players 20 KB each.
pub const MATCHES: usize = 32;

/// The dictionary a text is matched against.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// The players' names.
    Players,
    /// The events.
    Events,
    /// The rules.
    Rules,
}

/// Which names of a dictionary contain a text (lowercase, as the dictionary's), by id.
pub fn matching_names(d: &Dictionary<'_>, part: &str) -> Vec<bool> {
    let part = part.to_lowercase();
    (0..d.len()).map(|id| d.name(id).contains(&part)).collect()
}

/// The matches of the texts asked lately (of one index's dictionaries): by field and
/// text, the names' flags (`recent.rs`: matched once, by the first question with the text).
pub struct Matches {
    held: Recent<(Field, String), Arc<Vec<bool>>>,
}

impl Default for Matches {
    fn default() -> Self {
        Matches::new(MATCHES)
    }
}

impl Matches {
    /// Keeps at most `capacity` texts' matches.
    pub fn new(capacity: usize) -> Matches {
        Matches {
            held: Recent::new(capacity),
        }
    }

    /// The matches of `text` in `field`'s dictionary `d`: the kept ones, else matched now
    /// (`matching_names`, without the lock: other texts are read meanwhile) and kept (the
    /// least recently used dropped past the capacity; with none kept, matched each time).
    pub fn get(&self, field: Field, text: &str, d: &Dictionary<'_>) -> Arc<Vec<bool>> {
        let matched = || Arc::new(matching_names(d, text));
        self.held
            .get(&(field, text.to_string()), true, matched)
            .unwrap_or_else(matched)
    }

    /// Number of texts' matches kept.
    pub fn len(&self) -> usize {
        self.held.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
