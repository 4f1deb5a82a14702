//! Sorting that the call's [`Budget`] can stop.
//!
//! glob orders its complete listing, which may hold millions of paths
//! under the raw-output cap; one `sort_unstable` of ten million entries
//! takes seconds and cannot be interrupted. Here the slice is partitioned
//! (quicksort's top levels, in place, no extra memory) until each part is
//! small, and the budget is checked before every partition pass and every
//! small sort, so a deadline or a signal stops the work within a few
//! milliseconds (SPEC §6: bounds hold in every phase).

use std::cmp::Ordering;

use crate::stop::{Budget, Halt};

/// Parts at most this long are sorted in one go (a few milliseconds).
const PIECE: usize = 1 << 15;

/// Sort `v` by `cmp` (which must be a total order), or stop with the
/// budget's reason. A stopped sort leaves `v` permuted, not sorted.
pub fn sort_by<T>(
    v: &mut [T],
    cmp: &mut impl FnMut(&T, &T) -> Ordering,
    budget: Budget<'_>,
) -> Result<(), Halt> {
    // Past this depth the pivots are bad (adversarial input): finish the
    // part with the standard sort, which is O(n log n) whatever the input.
    let depth = 2 * (usize::BITS - v.len().leading_zeros());
    sort_part(v, cmp, budget, depth, PIECE)
}

fn sort_part<T>(
    mut v: &mut [T],
    cmp: &mut impl FnMut(&T, &T) -> Ordering,
    budget: Budget<'_>,
    mut depth: u32,
    piece: usize,
) -> Result<(), Halt> {
    loop {
        budget.check()?;
        if v.len() <= piece.max(2) || depth == 0 {
            v.sort_unstable_by(&mut *cmp);
            return Ok(());
        }
        depth -= 1;
        let mid = partition(v, cmp);
        let (left, rest) = v.split_at_mut(mid);
        let right = &mut rest[1..];
        // Recurse into the smaller side, loop on the larger: the stack
        // stays O(log n) deep.
        if left.len() < right.len() {
            sort_part(left, cmp, budget, depth, piece)?;
            v = right;
        } else {
            sort_part(right, cmp, budget, depth, piece)?;
            v = left;
        }
    }
}

/// Partition `v` around a median-of-three pivot; returns the pivot's final
/// index: everything before it is not greater, everything after is not
/// less. Both scans stop at elements equal to the pivot, so a run of equal
/// elements is split down the middle instead of peeled one at a time.
fn partition<T>(v: &mut [T], cmp: &mut impl FnMut(&T, &T) -> Ordering) -> usize {
    let last = v.len() - 1;
    let mid = v.len() / 2;
    // Order v[0], v[mid], v[last]; the median goes to the front as pivot.
    if cmp(&v[mid], &v[0]) == Ordering::Less {
        v.swap(mid, 0);
    }
    if cmp(&v[last], &v[mid]) == Ordering::Less {
        v.swap(last, mid);
        if cmp(&v[mid], &v[0]) == Ordering::Less {
            v.swap(mid, 0);
        }
    }
    v.swap(0, mid);
    let (pivot, rest) = v.split_at_mut(1);
    let pivot = &pivot[0];
    // rest[..l] is not greater than the pivot, rest[r..] not less.
    let (mut l, mut r) = (0, rest.len());
    loop {
        while l < r && cmp(&rest[l], pivot) == Ordering::Less {
            l += 1;
        }
        while l < r && cmp(&rest[r - 1], pivot) == Ordering::Greater {
            r -= 1;
        }
        if l >= r {
            break;
        }
        r -= 1;
        rest.swap(l, r);
        l += 1;
    }
    // v[l] (rest[l - 1]) is not greater than the pivot: swap the pivot there.
    v.swap(0, l);
    l
}

#[cfg(test)]
#[path = "../../tests/unit/search/sort.rs"]
mod tests;
