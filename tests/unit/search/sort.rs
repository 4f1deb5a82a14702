//! Unit tests of `src/search/sort.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;
use crate::stop::Stop;
use std::time::{Duration, Instant};

fn budget(stop: &Stop) -> Budget<'_> {
    Budget {
        deadline: Instant::now() + Duration::from_secs(600),
        stop,
    }
}

#[test]
fn sorts_large_inputs_of_every_shape() {
    let stop = Stop::new();
    let n = PIECE * 9 + 17;
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let random: Vec<u64> = (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        })
        .collect();
    let shapes = [
        random.clone(),
        (0..n as u64).collect(),
        (0..n as u64).rev().collect(),
        vec![7; n],
        random.iter().map(|x| x % 3).collect(),
    ];
    for mut v in shapes {
        let mut want = v.clone();
        want.sort_unstable();
        sort_by(&mut v, &mut u64::cmp, budget(&stop)).unwrap();
        assert_eq!(v, want);
    }
}

#[test]
fn a_halt_stops_the_sort() {
    let stop = Stop::new();
    stop.cancel();
    let mut v: Vec<u32> = (0..10).rev().collect();
    assert_eq!(
        sort_by(&mut v, &mut u32::cmp, budget(&stop)),
        Err(Halt::Cancelled)
    );
    let past = Budget {
        deadline: Instant::now(),
        stop: &Stop::new(),
    };
    assert_eq!(sort_by(&mut v, &mut u32::cmp, past), Err(Halt::TimedOut));
}

proptest::proptest! {
    #[test]
    fn agrees_with_the_standard_sort(mut v in proptest::collection::vec(0u8..8, 0..300)) {
        let stop = Stop::new();
        let mut want = v.clone();
        want.sort_unstable();
        // A tiny piece size is what exercises partitioning here.
        let b = budget(&stop);
        sort_part(&mut v, &mut u8::cmp, b, 64, 3).unwrap();
        proptest::prop_assert_eq!(v, want);
    }
}
