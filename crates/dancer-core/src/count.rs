//! Exact counts of any size.
//!
//! A count of solutions found one at a time fits in 64 bits (2^64 solutions
//! would take centuries to visit), but a count that is *computed* does
//! not: the memoizing counter ([`crate::memo`]) adds up the counts of
//! sub-problems, and the domino tilings of a 16x16 board already number
//! about 2.4 x 10^30. [`Count`] holds any such count exactly: a `u128`
//! while it fits (every count up to 3.4 x 10^38, with no allocation), an
//! arbitrary-precision integer beyond. Invariant: the large form is only
//! ever used for values above `u128::MAX`, so equal counts have equal
//! representations and the derived comparisons are right.
//!
//! In JSON a count is written as a plain integer, whatever its size (never
//! a float, never a string); readers in languages whose numbers are
//! doubles should read such fields as big integers. Read back, a count is
//! exact up to 2^128 (a fraction, or a larger integer, is refused rather
//! than rounded).

use num_bigint::BigUint;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// An exact non-negative count (see the module's prose).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Count(Repr);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Small(u128),
    /// Always above `u128::MAX`.
    Big(Box<Big>),
}

/// A count above `u128::MAX`: its value, its decimal digits, or both, each
/// made from the other when first asked for. A count read from text keeps
/// its digits and is made a value only when arithmetic needs one: reading
/// is linear in the digits, and so are writing it back (a shard result is
/// written again for its checksum, and `dancer merge` prints its sum twice)
/// and adding two counts read from text (decimal addition). Turning digits
/// into a value or back takes more (the digits of a value of 10^7 digits:
/// 11 s). A changed value drops its digits. Equal values are equal counts,
/// whatever is kept.
#[derive(Clone, Debug)]
struct Big {
    value: OnceLock<BigUint>,
    /// No leading zeros.
    digits: OnceLock<String>,
}

impl Big {
    fn of_value(value: BigUint) -> Box<Big> {
        Box::new(Big {
            value: OnceLock::from(value),
            digits: OnceLock::new(),
        })
    }

    /// `digits`: decimal digits without leading zeros, of a value above
    /// `u128::MAX` (39 of them or more).
    fn of_digits(digits: String) -> Box<Big> {
        debug_assert!(digits.len() >= 39 && !digits.starts_with('0'));
        Box::new(Big {
            value: OnceLock::new(),
            digits: OnceLock::from(digits),
        })
    }

    fn value(&self) -> &BigUint {
        self.value.get_or_init(|| {
            let d = self.digits.get().expect("a count has a value or digits");
            decimal(d.as_bytes())
        })
    }

    fn digits(&self) -> &str {
        self.digits.get_or_init(|| {
            self.value
                .get()
                .expect("a count has a value or digits")
                .to_string()
        })
    }

    /// Whether only the digits are known.
    fn digits_only(&self) -> bool {
        self.value.get().is_none()
    }

    /// The value, to change: the digits kept are dropped.
    fn value_mut(&mut self) -> &mut BigUint {
        self.value();
        self.digits = OnceLock::new();
        self.value.get_mut().expect("made above")
    }
}

impl PartialEq for Big {
    fn eq(&self, other: &Big) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Big {}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Big) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Big) -> std::cmp::Ordering {
        match (self.digits.get(), other.digits.get()) {
            // no leading zeros: the longer is larger, else the first digit
            // that differs says
            (Some(a), Some(b)) => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
            _ => self.value().cmp(other.value()),
        }
    }
}

impl std::hash::Hash for Big {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        // the digits: one form for every equal value
        self.digits().hash(h);
    }
}

/// The decimal sum of two runs of digits without leading zeros (linear in
/// their length).
fn add_digits(a: &str, b: &str) -> String {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len().max(b.len());
    let mut out = Vec::with_capacity(n + 1);
    let mut carry = 0u8;
    for i in 0..n {
        let x = if i < a.len() {
            a[a.len() - 1 - i] - b'0'
        } else {
            0
        };
        let y = if i < b.len() {
            b[b.len() - 1 - i] - b'0'
        } else {
            0
        };
        let s = x + y + carry;
        out.push(b'0' + s % 10);
        carry = s / 10;
    }
    if carry > 0 {
        out.push(b'0' + carry);
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII digits")
}

impl Default for Count {
    fn default() -> Self {
        Count::ZERO
    }
}

impl Count {
    /// No solutions.
    pub const ZERO: Count = Count(Repr::Small(0));
    /// One solution.
    pub const ONE: Count = Count(Repr::Small(1));

    /// Whether this is 0.
    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small(0))
    }

    /// The count as a `u64`, when it fits.
    pub fn to_u64(&self) -> Option<u64> {
        self.to_u128().and_then(|v| u64::try_from(v).ok())
    }

    /// The count as a `u128`, when it fits.
    pub fn to_u128(&self) -> Option<u128> {
        match &self.0 {
            Repr::Small(v) => Some(*v),
            Repr::Big(_) => None,
        }
    }

    /// Adds `v`.
    pub fn add_u128(&mut self, v: u128) {
        match &mut self.0 {
            Repr::Small(a) => match a.checked_add(v) {
                Some(s) => *a = s,
                None => self.0 = Repr::Big(Big::of_value(BigUint::from(*a) + v)),
            },
            Repr::Big(b) => *b.value_mut() += v,
        }
    }

    /// The count as an arbitrary-precision integer.
    pub fn to_biguint(&self) -> BigUint {
        match &self.0 {
            Repr::Small(v) => BigUint::from(*v),
            Repr::Big(b) => b.value().clone(),
        }
    }

    /// Bits needed to write the count in binary (0 for 0).
    pub fn bits(&self) -> u64 {
        match &self.0 {
            Repr::Small(v) => u64::from(128 - v.leading_zeros()),
            Repr::Big(b) => b.value().bits(),
        }
    }
}

impl From<u64> for Count {
    fn from(v: u64) -> Self {
        Count(Repr::Small(v.into()))
    }
}

impl From<u128> for Count {
    fn from(v: u128) -> Self {
        Count(Repr::Small(v))
    }
}

impl From<BigUint> for Count {
    fn from(b: BigUint) -> Self {
        match u128::try_from(&b) {
            Ok(v) => Count(Repr::Small(v)),
            Err(_) => Count(Repr::Big(Big::of_value(b))),
        }
    }
}

impl std::ops::AddAssign<&Count> for Count {
    fn add_assign(&mut self, other: &Count) {
        let b = match &other.0 {
            Repr::Small(v) => return self.add_u128(*v),
            Repr::Big(b) => b,
        };
        match &mut self.0 {
            // 0 + a count read from text keeps its digits
            Repr::Small(0) => *self = other.clone(),
            // counts read from text add as text
            Repr::Small(a) if b.digits_only() => {
                let sum = add_digits(&a.to_string(), b.digits());
                self.0 = Repr::Big(Big::of_digits(sum));
            }
            Repr::Big(a) if a.digits_only() && b.digits_only() => {
                let sum = add_digits(a.digits(), b.digits());
                self.0 = Repr::Big(Big::of_digits(sum));
            }
            Repr::Small(a) => {
                let sum = b.value() + *a;
                self.0 = Repr::Big(Big::of_value(sum));
            }
            Repr::Big(a) => *a.value_mut() += b.value(),
        }
    }
}

impl std::ops::Add<&Count> for Count {
    type Output = Count;
    fn add(mut self, other: &Count) -> Count {
        self += other;
        self
    }
}

impl std::iter::Sum for Count {
    fn sum<I: Iterator<Item = Count>>(iter: I) -> Count {
        iter.fold(Count::ZERO, |a, b| a + &b)
    }
}

impl PartialOrd for Count {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Count {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.cmp(b),
            (Repr::Small(_), Repr::Big(_)) => std::cmp::Ordering::Less,
            (Repr::Big(_), Repr::Small(_)) => std::cmp::Ordering::Greater,
            (Repr::Big(a), Repr::Big(b)) => a.cmp(b),
        }
    }
}

impl PartialEq<u64> for Count {
    fn eq(&self, other: &u64) -> bool {
        self.to_u64() == Some(*other)
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(v) => fmt::Display::fmt(v, f),
            Repr::Big(b) => f.pad_integral(true, "", b.digits()),
        }
    }
}

/// A count that is not a decimal integer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a count (a non-negative decimal integer): {0:?}")]
pub struct ParseCountError(String);

impl FromStr for Count {
    type Err = ParseCountError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseCountError(s.chars().take(40).collect()));
        }
        if let Ok(v) = s.parse::<u128>() {
            return Ok(Count(Repr::Small(v)));
        }
        // beyond u128 (39 digits at most, without leading zeros): the
        // digits as they are, made a value only when one is needed
        let digits = s.trim_start_matches('0');
        match digits.parse::<u128>() {
            Ok(v) => Ok(Count::from(v)),
            Err(_) if digits.len() >= 39 => {
                Ok(Count(Repr::Big(Big::of_digits(digits.to_string()))))
            }
            Err(_) => Err(ParseCountError(s.chars().take(40).collect())),
        }
    }
}

/// Digits read by one `BigUint` parse (quadratic in its digits); longer
/// runs are split.
const CHUNK_DIGITS: usize = 1 << 10;

/// The value of a run of ASCII decimal digits, in time
/// `O(M(n) log n)` for `n` digits (`M`: the time of a multiplication)
/// instead of the `O(n^2)` of a digit-by-digit parse: the run is split at
/// `CHUNK_DIGITS * 2^j` digits from its end, `high * 10^k + low`, with the
/// powers `10^(CHUNK_DIGITS * 2^j)` made once by squaring.
fn decimal(digits: &[u8]) -> BigUint {
    let mut powers = vec![BigUint::from(10u8).pow(CHUNK_DIGITS as u32)];
    while CHUNK_DIGITS << powers.len() < digits.len() {
        let last = powers.last().expect("one power at least");
        powers.push(last * last);
    }
    fn go(digits: &[u8], powers: &[BigUint]) -> BigUint {
        if digits.len() <= CHUNK_DIGITS {
            return BigUint::parse_bytes(digits, 10).unwrap_or_default();
        }
        // the largest k = CHUNK_DIGITS * 2^j below the length
        let mut j = 0;
        while CHUNK_DIGITS << (j + 1) < digits.len() {
            j += 1;
        }
        let (high, low) = digits.split_at(digits.len() - (CHUNK_DIGITS << j));
        go(high, powers) * &powers[j] + go(low, powers)
    }
    go(digits, &powers)
}

impl serde::Serialize for Count {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Small(v) => match u64::try_from(*v) {
                Ok(v) => s.serialize_u64(v),
                Err(_) => s.serialize_u128(*v),
            },
            Repr::Big(b) => {
                // a JSON integer of any length: the digits as they are
                let raw = serde_json::value::RawValue::from_string(b.digits().to_string())
                    .map_err(serde::ser::Error::custom)?;
                raw.serialize(s)
            }
        }
    }
}

/// The digits of a JSON number, as a count.
struct CountVisitor;

impl serde::de::Visitor<'_> for CountVisitor {
    type Value = Count;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a count: a non-negative integer")
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Count, E> {
        Ok(Count::from(v))
    }
    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Count, E> {
        Ok(Count::from(v))
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Count, E> {
        u64::try_from(v)
            .map(Count::from)
            .map_err(|_| E::custom("a count cannot be negative"))
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Count, E> {
        Err(E::custom(
            "not a count: a fraction, or an integer too large to read exactly here",
        ))
    }
}

impl<'de> serde::Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // asked for as a u128, serde_json reads the digits exactly up to
        // 2^128; beyond, it refuses (never rounds)
        d.deserialize_u128(CountVisitor)
    }
}

/// Reads a count exactly, whatever its size, as the digits of a JSON
/// integer: for records read straight from JSON text by `serde_json` (the
/// shard results), not through a buffer. Use with
/// `#[serde(deserialize_with = ...)]`.
pub fn deserialize_exact<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
    use serde::Deserialize;
    let raw = <Box<serde_json::value::RawValue>>::deserialize(d)?;
    raw.get().parse().map_err(serde::de::Error::custom)
}

/// Reads a count inside a record that serde buffers before it knows its
/// type (an internally tagged enum such as the NDJSON records), where a
/// u128 cannot be asked for: exact up to 2^64, refused beyond (never
/// rounded). Use with `#[serde(deserialize_with = ...)]`.
pub fn deserialize_buffered<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
    d.deserialize_any(CountVisitor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_cross_128_bits_exactly() {
        let mut c = Count::from(u128::MAX);
        c.add_u128(1);
        assert_eq!(c.to_string(), "340282366920938463463374607431768211456");
        assert_eq!(c.to_u128(), None);
        assert_eq!(c.bits(), 129);
        let d = c.clone() + &c;
        assert_eq!(d.to_string(), "680564733841876926926749214863536422912");
        assert!(d > c && c > Count::from(u128::MAX));
        // back below: the small form again, so equal values compare equal
        assert_eq!(Count::from(BigUint::from(7u32)), Count::from(7u64));
    }

    #[test]
    fn json_integers_of_any_size_round_trip() {
        for text in [
            "0",
            "18446744073709551615",
            "18446744073709551616",
            "2444888770250892795802079170816",
            "680564733841876926926749214863536422912",
        ] {
            let c: Count = text.parse().unwrap();
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(json, text, "written as a plain integer");
            if c.to_u128().is_some() {
                let back: Count = serde_json::from_str(&json).unwrap();
                assert_eq!(back, c);
            } else {
                // beyond 2^128 a count is written exactly; reading it back
                // is refused rather than rounded
                assert!(serde_json::from_str::<Count>(&json).is_err());
            }
        }
        assert!(serde_json::from_str::<Count>("1.5").is_err());
        assert!(serde_json::from_str::<Count>("-3").is_err());
        assert!(serde_json::from_str::<Count>("\"12\"").is_err());
        assert!("".parse::<Count>().is_err());
        assert!("1e9".parse::<Count>().is_err());
    }

    /// Long runs of digits are read exactly (split and put back together),
    /// whatever their length around the split points.
    #[test]
    fn long_decimals_read_exactly() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for len in [1023, 1024, 1025, 2047, 2048, 2049, 3000, 5000, 9001] {
            let text: String = (0..len)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // a leading digit that is not 0; zeros inside, at split points too
                    let d = if i == 0 {
                        1 + x % 9
                    } else if i % 1024 < 3 {
                        0
                    } else {
                        x % 10
                    };
                    char::from(b'0' + d as u8)
                })
                .collect();
            let c: Count = text.parse().unwrap();
            assert_eq!(c.to_string(), text, "{len} digits");
            assert_eq!(
                c.to_biguint(),
                BigUint::parse_bytes(text.as_bytes(), 10).unwrap()
            );
        }
        // leading zeros
        let c: Count = format!("{}7", "0".repeat(3000)).parse().unwrap();
        assert_eq!(c, Count::from(7u64));
        // the digits kept from the text are those of the value: leading
        // zeros dropped, and dropped themselves when the value changes
        let text = format!("000{}", "9".repeat(50));
        let c: Count = text.parse().unwrap();
        assert_eq!(c.to_string(), "9".repeat(50));
        assert_eq!(serde_json::to_string(&c).unwrap(), "9".repeat(50));
        let mut d = c.clone();
        d.add_u128(1);
        assert_eq!(d.to_string(), format!("1{}", "0".repeat(50)));
        let mut e = c.clone();
        e += &c;
        assert_eq!(e.to_string(), format!("1{}8", "9".repeat(49)));
        let mut z = Count::ZERO;
        z += &c;
        assert_eq!((z.to_string(), &z), ("9".repeat(50), &c));
        assert_eq!(
            Count::from(c.to_biguint()),
            c,
            "equal values, whatever is kept"
        );
        assert_eq!(
            format!("{c:>60}"),
            format!("{}{}", " ".repeat(10), "9".repeat(50))
        );
        // counts read from text and counts computed: one order, one
        // equality, one hash, and sums that agree however they are made
        use std::hash::{Hash, Hasher};
        let hash = |c: &Count| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            c.hash(&mut h);
            h.finish()
        };
        let texts = [
            "340282366920938463463374607431768211456",
            "999999999999999999999999999999999999999",
            "1000000000000000000000000000000000000000",
            "123456789012345678901234567890123456789012345",
        ];
        // (a count read from text is fresh: asked for its value, it keeps it)
        let fresh = |t: &str| -> Count { t.parse().unwrap() };
        let big = |t: &str| fresh(t).to_biguint();
        for a in texts {
            for b in texts {
                let (va, vb) = (Count::from(big(a)), Count::from(big(b)));
                let order = big(a).cmp(&big(b));
                assert_eq!(fresh(a).cmp(&fresh(b)), order, "{a} {b}");
                assert_eq!(fresh(a).cmp(&vb), order, "{a} {b}");
                assert_eq!(va.cmp(&fresh(b)), order, "{a} {b}");
                assert!(fresh(a) == va, "{a}");
                assert_eq!(hash(&fresh(a)), hash(&va), "{a}");
                let want = big(a) + big(b);
                let mut text_sum = fresh(a);
                text_sum += &fresh(b);
                let mut value_sum = va.clone();
                value_sum += &vb;
                let mut mixed = va.clone();
                mixed += &fresh(b);
                let mut small = Count::from(1u64 << 40);
                small += &fresh(b);
                assert_eq!(small.to_biguint(), big(b) + (1u64 << 40), "{b}");
                for s in [&text_sum, &value_sum, &mixed] {
                    assert_eq!(s.to_string(), want.to_string(), "{a} + {b}");
                    assert_eq!(s.to_biguint(), want, "{a} + {b}");
                }
            }
        }
        assert_eq!(add_digits("999", "1"), "1000");
        assert_eq!(add_digits("1", "999"), "1000");
        assert_eq!(add_digits("123", "877"), "1000");
    }
}
