//! The values of the questions asked lately, kept for the next ones ([`Recent`]): the
//! filters' masks, the names their texts match, the profiles' tallies at kept positions.
//!
//! Each is made once, by the first question that needs it, outside the lock (other keys
//! are answered meanwhile); the questions that need it while it is made wait for it instead
//! of making it again. At most a fixed number are kept, the least recently used dropped.

use std::sync::{Arc, Mutex, OnceLock};

/// A value being made or made.
type Cell<V> = Arc<OnceLock<V>>;

/// The values of the keys asked lately, the most recently used last.
pub struct Recent<K, V> {
    capacity: usize,
    held: Mutex<Vec<(K, Cell<V>)>>,
}

impl<K: PartialEq + Clone, V: Clone> Recent<K, V> {
    /// Keeps at most `capacity` values (0: none).
    pub fn new(capacity: usize) -> Recent<K, V> {
        Recent {
            capacity,
            held: Mutex::new(Vec::new()),
        }
    }

    /// Number of values kept (made or being made).
    pub fn len(&self) -> usize {
        self.held.lock().map_or(0, |h| h.len())
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of `key` (cloned only to be kept): the kept one (waiting for it while it is made); else, with
    /// `make`, made now by `of` and kept (the least recently used one dropped past the
    /// capacity); else `None` (also when nothing is kept, or the lock is poisoned).
    pub fn get(&self, key: &K, make: bool, of: impl FnOnce() -> V) -> Option<V> {
        if self.capacity == 0 {
            return None;
        }
        let cell: Cell<V> = {
            let mut held = self.held.lock().ok()?;
            match held.iter().position(|(k, _)| k == key) {
                Some(i) => {
                    let entry = held.remove(i);
                    let cell = Arc::clone(&entry.1);
                    held.push(entry);
                    cell
                }
                None if make => {
                    if held.len() >= self.capacity {
                        held.remove(0);
                    }
                    let cell = Cell::default();
                    held.push((key.clone(), Arc::clone(&cell)));
                    cell
                }
                None => return None,
            }
        };
        Some(cell.get_or_init(of).clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_most_recently_used_and_makes_each_once() {
        let recent: Recent<u32, u32> = Recent::new(2);
        let made = std::cell::Cell::new(0);
        let make = |v: u32| {
            made.set(made.get() + 1);
            v * 10
        };
        assert_eq!(recent.get(&1, true, || make(1)), Some(10));
        assert_eq!(recent.get(&2, true, || make(2)), Some(20));
        // 1 used again: 2 is now the least recently used, dropped for 3.
        assert_eq!(recent.get(&1, true, || make(1)), Some(10));
        assert_eq!(recent.get(&3, true, || make(3)), Some(30));
        assert_eq!((recent.len(), made.get()), (2, 3));
        assert_eq!(recent.get(&2, false, || make(2)), None);
        assert_eq!(recent.get(&1, false, || make(1)), Some(10));
        assert_eq!(made.get(), 3);
        assert_eq!(Recent::<u32, u32>::new(0).get(&1, true, || 5), None);
    }

    #[test]
    fn a_value_being_made_is_waited_for_not_made_again() {
        let recent: Arc<Recent<u32, u32>> = Arc::new(Recent::new(4));
        let made = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (recent, made) = (Arc::clone(&recent), Arc::clone(&made));
                std::thread::spawn(move || {
                    recent.get(&7, true, || {
                        made.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        70
                    })
                })
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), Some(70));
        }
        assert_eq!(made.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
}
