//! The patience line diff as the engine takes it: the common head and tail of the two sides
//! are taken off first, and the ops shifted back. A whole-file listing is mostly the file as it
//! was; the patience diff indexes every line of both sides (hashing each) before it looks for
//! anything, so without this its cost follows the file, not the change (a 1,371-line listing
//! that changes ten lines spent an eighth of `apply`'s time there).
//!
//! The ops may differ from the untrimmed patience diff's where a line of the shared tail also
//! stands uniquely in the middle: the shared head and tail are kept as they are, which is what
//! a listing that keeps them means.
//!
//! Not for: Myers diffs (`similar` trims those itself).

use std::hash::Hash;

use similar::{Algorithm, DiffOp, capture_diff_slices};

/// How many lines `old` and `new` share at their start, and then at their end (never
/// overlapping the start).
pub fn common_ends<T: Eq>(old: &[T], new: &[T]) -> (usize, usize) {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = (old[head..].iter().rev())
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    (head, tail)
}

/// The patience diff of `old` and `new` (as `similar` gives it, with equal runs joined).
pub fn patience<T: Hash + Eq + Ord>(old: &[T], new: &[T]) -> Vec<DiffOp> {
    let (head, tail) = common_ends(old, new);
    let (o, n) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let mut ops = vec![DiffOp::Equal { old_index: 0, new_index: 0, len: head }];
    ops.extend(
        capture_diff_slices(Algorithm::Patience, o, n).into_iter().map(|op| shift(op, head)),
    );
    ops.push(DiffOp::Equal { old_index: old.len() - tail, new_index: new.len() - tail, len: tail });
    joined(ops)
}

fn shift(op: DiffOp, by: usize) -> DiffOp {
    match op {
        DiffOp::Equal { old_index, new_index, len } => {
            DiffOp::Equal { old_index: old_index + by, new_index: new_index + by, len }
        }
        DiffOp::Delete { old_index, old_len, new_index } => {
            DiffOp::Delete { old_index: old_index + by, old_len, new_index: new_index + by }
        }
        DiffOp::Insert { old_index, new_index, new_len } => {
            DiffOp::Insert { old_index: old_index + by, new_index: new_index + by, new_len }
        }
        DiffOp::Replace { old_index, old_len, new_index, new_len } => DiffOp::Replace {
            old_index: old_index + by,
            old_len,
            new_index: new_index + by,
            new_len,
        },
    }
}

/// Empty equal runs dropped, neighbouring ones made one.
fn joined(ops: Vec<DiffOp>) -> Vec<DiffOp> {
    let mut out: Vec<DiffOp> = Vec::with_capacity(ops.len());
    for op in ops {
        match (out.last_mut(), op) {
            (_, DiffOp::Equal { len: 0, .. }) => {}
            (Some(DiffOp::Equal { len, .. }), DiffOp::Equal { len: more, .. }) => *len += more,
            (_, op) => out.push(op),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The ops rebuild `new` from `old`, their equal runs are equal, and the head and tail
        /// the sides share are kept whole (what untrimmed patience may split, when a line of
        /// the tail stands uniquely elsewhere too).
        #[test]
        fn the_ops_rebuild_the_new_side_keeping_the_shared_head_and_tail(
            head in proptest::collection::vec(0u8..6, 0..10),
            old in proptest::collection::vec(0u8..6, 0..30),
            new in proptest::collection::vec(0u8..6, 0..30),
            tail in proptest::collection::vec(0u8..6, 0..10),
        ) {
            let old = [head.clone(), old, tail.clone()].concat();
            let new = [head.clone(), new, tail.clone()].concat();
            let ops = patience(&old, &new);
            let mut out = Vec::new();
            let mut kept = 0;
            for op in &ops {
                match *op {
                    DiffOp::Equal { old_index, new_index, len } => {
                        prop_assert_eq!(&old[old_index..old_index + len], &new[new_index..new_index + len]);
                        out.extend_from_slice(&old[old_index..old_index + len]);
                        kept += len;
                    }
                    DiffOp::Delete { .. } => {}
                    DiffOp::Insert { new_index, new_len, .. }
                    | DiffOp::Replace { new_index, new_len, .. } => {
                        out.extend_from_slice(&new[new_index..new_index + new_len]);
                    }
                }
            }
            prop_assert_eq!(out, new.clone());
            prop_assert!(kept >= head.len() + tail.len());
        }
    }
}
