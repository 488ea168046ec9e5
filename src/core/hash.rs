//! The hash maps and sets the core builds: std's, hashed with foldhash (seeded per process), not
//! SipHash. The engine hashes every line of a file several times over (a listing's checks, the
//! placements' indexes), and on short strings foldhash is several times faster.
//!
//! Not for: keys that stand for lines' text in comparisons (`LineInfo::key`, a listing's exact
//! keys), which are hashes themselves.

pub type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
pub type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
