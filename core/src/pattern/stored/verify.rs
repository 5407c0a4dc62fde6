//! The pattern sections checked completely against the index whose games they summarize
//! ([`PatternIndex::verify`]): every record read back, then each game's block bits,
//! corner records and removals exactly what one replay of its stored game gives
//! ([`summarize`]): the data a search trusts is the data of the games.

use super::reader::PatternIndex;
use super::summary::{summarize, PackedSummary};
use crate::format::FormatError;
use crate::index::Index;
use crate::stored::StoredGame;

impl PatternIndex<'_> {
    /// [`PatternIndex::validate`] for the games of `index`, then the replay of every game
    /// behind its records.
    pub fn verify(&self, index: &Index<'_>) -> Result<(), FormatError> {
        self.validate_for(index)?;
        for g in 0..index.game_count() {
            let (Some(game), Some(info)) = (index.stored_game(g), index.game(g)) else {
                return Err(FormatError::BadRecord);
            };
            let mut stored = self.removals_of(g);
            let mut same = true;
            let s = summarize(&game, info.winner, |n, p| {
                same &= stored.next() == Some((n, p));
            });
            if !same || stored.next().is_some() || PackedSummary::from(&s) != self.packed_summary(g)
            {
                return Err(FormatError::BadRecord);
            }
        }
        Ok(())
    }

    /// [`PatternIndex::validate`] for the games of `index` (their move counts): every
    /// record, without the replays.
    pub fn validate_for(&self, index: &Index<'_>) -> Result<(), FormatError> {
        self.validate(|g| index.stored_game(g).map(|sg| sg.move_count()))
    }
}
