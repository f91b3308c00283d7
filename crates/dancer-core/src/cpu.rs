//! What the processor can do, asked once and cheaply: AVX2 (the bitset
//! engines' block tests, `bitmrv`'s counts) and the set `fast9` needs (AVX2,
//! POPCNT, BMI1, BMI2).
//!
//! `std::is_x86_feature_detected!` asks the processor about every feature
//! the standard library knows, nine or ten `cpuid` instructions; in a
//! virtual machine each one traps to the hypervisor, and they came to about
//! a tenth of a millisecond of every run, as much as a small search. The
//! three leaves read here (0, 1 and 7) and `xgetbv` are all these features
//! need: a feature is usable when the processor has it and, for AVX2, when
//! the operating system saves the YMM registers (XCR0 bits 1 and 2). The
//! answer is kept in one atomic byte.
//!
//! For the same reason, the byte searches of batches and input use
//! [`find_byte`] (SSE2, which every x86-64 processor has: nothing to ask)
//! rather than `memchr::memchr`, which asks the standard library first.

use std::sync::atomic::{AtomicU8, Ordering};

const KNOWN: u8 = 1;
const AVX2: u8 = 2;
const FAST9: u8 = 4;

static FEATURES: AtomicU8 = AtomicU8::new(0);

fn features() -> u8 {
    let f = FEATURES.load(Ordering::Relaxed);
    if f & KNOWN != 0 {
        return f;
    }
    let f = detect() | KNOWN;
    FEATURES.store(f, Ordering::Relaxed);
    f
}

#[cfg(target_arch = "x86_64")]
fn detect() -> u8 {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    // SAFETY: every x86-64 processor has cpuid; leaves 1 and 7 exist when
    // the largest leaf is 7 or more (the intrinsics are safe functions from
    // Rust 1.87, unsafe before: the blocks are for rust-version 1.85)
    #[allow(unused_unsafe)]
    let max = unsafe { __cpuid(0) }.eax;
    if max < 7 {
        return 0;
    }
    #[allow(unused_unsafe)]
    // SAFETY: as above
    let (l1, l7) = unsafe { (__cpuid(1), __cpuid_count(7, 0)) };
    let bit = |r: u32, b: u32| r >> b & 1 == 1;
    let popcnt = bit(l1.ecx, 23);
    let osxsave = bit(l1.ecx, 27);
    let avx = bit(l1.ecx, 28);
    // SAFETY: xgetbv is enabled when OSXSAVE is set
    let ymm_saved = osxsave && avx && unsafe { xcr0() } & 0b110 == 0b110;
    let avx2 = ymm_saved && bit(l7.ebx, 5);
    let (bmi1, bmi2) = (bit(l7.ebx, 3), bit(l7.ebx, 8));
    let mut f = 0;
    if avx2 {
        f |= AVX2;
        if popcnt && bmi1 && bmi2 {
            f |= FAST9;
        }
    }
    f
}

/// XCR0, the state components the operating system saves.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "xsave")]
unsafe fn xcr0() -> u64 {
    // SAFETY: the caller saw OSXSAVE, so xgetbv is enabled
    unsafe { std::arch::x86_64::_xgetbv(0) }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> u8 {
    0
}

/// Whether AVX2 can be used.
#[inline]
pub fn avx2() -> bool {
    features() & AVX2 != 0
}

/// Whether AVX2, POPCNT, BMI1 and BMI2 can all be used.
#[inline]
pub fn avx2_popcnt_bmi() -> bool {
    features() & FAST9 != 0
}

/// The first `needle` in `haystack`, as `memchr::memchr` finds it, without
/// asking the processor anything (SSE2 on x86-64).
#[inline]
pub fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        memchr::arch::x86_64::sse2::memchr::One::new(needle)
            .expect("every x86-64 processor has SSE2")
            .find(haystack)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        memchr::memchr(needle, haystack)
    }
}

/// Every `needle` in `haystack`, in order (see [`find_byte`]).
pub fn find_bytes(needle: u8, haystack: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let k = find_byte(needle, &haystack[at..])?;
        let found = at + k;
        at = found + 1;
        Some(found)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cheap answers are the standard library's.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn features_are_the_standard_librarys() {
        let std_avx2 = std::is_x86_feature_detected!("avx2");
        assert_eq!(avx2(), std_avx2);
        assert_eq!(
            avx2_popcnt_bmi(),
            std_avx2
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
        );
    }

    /// The byte searches find what a plain scan finds.
    #[test]
    fn byte_searches_are_a_plain_scan() {
        let mut rand = crate::stats::xorshift(5);
        for len in [0usize, 1, 15, 16, 17, 31, 33, 64, 81, 82, 200, 1000] {
            for _ in 0..20 {
                let hay: Vec<u8> = (0..len)
                    .map(|_| if rand() % 9 == 0 { b'\n' } else { b'.' })
                    .collect();
                let plain: Vec<usize> = (0..len).filter(|&i| hay[i] == b'\n').collect();
                assert_eq!(find_bytes(b'\n', &hay).collect::<Vec<_>>(), plain);
                assert_eq!(find_byte(b'\n', &hay), plain.first().copied());
            }
        }
    }
}
