//! Decimal numbers as capture files write them, read to the nearest double in one pass over the bytes.
//!
//! relog, Data Collector Sets and PowerShell's Export-Counter write a value with up to 20 significant
//! digits ("2.2693175362118793714", "0.0028616000000000001678": the double's exact expansion cut to 20
//! digits), older Windows with 17, and counts and bytes as integers. [`parse_decimal`] reads
//! `-`? digits [`.` digits] [(`e`|`E`) [`+`|`-`] digits] at the start of a cell and stops at the first
//! byte that is not part of it, which the CSV reader then checks is the closing quote or the delimiter:
//! one pass, no `&str` made, nothing allocated. It gives exactly what `str::parse::<f64>` gives for the
//! same text (correctly rounded, round-half-even), or None, and the caller hands the cell to std.
//!
//! How: the first 19 significant digits go into a u64 `w` (eight at a time, [`digit_run`]), the value
//! being w x 10^q. Then
//! - w <= 2^53 and |q| <= 22, nothing cut: w and 10^q are exact doubles and one IEEE division or
//!   multiplication rounds correctly (Clinger's fast path: "How to Read Floating Point Numbers
//!   Accurately", PLDI 1990);
//! - otherwise Eisel-Lemire ([`eisel_lemire`]: D. Lemire, "Number Parsing at a Gigabyte per Second",
//!   Software: Practice and Experience 51(8), 2021; N. Noble, "Fast Float Parsing in Practice", 2020),
//!   the algorithm of std's own parser, with a 128-bit truncated power of five; when digits past the
//!   19th were cut (a 20-digit value), it is run for w and for w + 1 and the answer taken only when both
//!   give the same double, as fast_float does. Where it cannot decide (a value within a hair of halfway
//!   between two doubles) or q is outside the table, None: std's parser, which also does the rare
//!   big-number comparison.
//!
//! Why hand-written rather than a crate (measured; docs/performance.md, "Reading captures"): on
//! relog-shaped values this reader takes 285 instructions per value (callgrind, native) against
//! fast-float2's 435 and lexical-parse-float's 389 (std: 537), and costs 4.3 KB of wasm beside std's
//! parser against their 19 KB and 27 KB: they carry the whole power-of-five table (651 x 16 bytes) and a
//! big-number fallback a second time beside std's copy, where this one needs the powers for
//! 10^-64..10^32 only (97 x 16 bytes, computed at compile time from the table's definition, [`POW5`]) and
//! leaves the rest to std. And it is fused with finding the cell's end (the byte where the number stops
//! must be the closing quote), which a crate's own slice parser would make a second step. (On 13-decimal
//! values alone the crates' digit loops take fewer instructions: 203 and 227 against 266.)

/// At most this many significant digits are kept in `w` (10^19 - 1 < 2^64).
const MAX_DIGITS: usize = 19;

/// Powers of ten that are exact doubles (10^22 = 2^22 x 5^22, and 5^22 < 2^53).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The decimal number at the start of `b` and the bytes it took, when it is read here; None when there
/// is no number or it is left to std's parser (see the module comment). The value is bit-identical to
/// `str::parse::<f64>` of the bytes taken. A `+` sign, spaces, `inf` and `nan` are left to std.
#[inline(always)]
pub(crate) fn parse_decimal(b: &[u8]) -> Option<(f64, usize)> {
    let neg = b.first() == Some(&b'-');
    let mut i = usize::from(neg);
    let first = i;
    // Leading zeros say nothing: skipped before counting significant digits.
    while b.get(i) == Some(&b'0') {
        i += 1;
    }
    let mut digits = Digits::default();
    let whole = digits.run(&b[i..]);
    i += whole;
    // Whole digits past the 19th were cut: each one multiplies w by ten.
    let mut q = digits.cut as i64;
    let mut any = i > first;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        if digits.n == 0 {
            // 0.000ddd: the zeros after the point are not significant either.
            while b.get(i) == Some(&b'0') {
                i += 1;
            }
        }
        let zeros = i - frac_start;
        let kept = digits.n;
        let cut = digits.cut;
        let frac = digits.run(&b[i..]);
        i += frac;
        // Each fraction digit kept divides w by ten; those cut change nothing.
        q -= (zeros + digits.n - kept) as i64;
        debug_assert!(digits.cut - cut + digits.n - kept == frac);
        any |= i > frac_start;
    }
    if !any {
        return None;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        let mut j = i + 1;
        let eneg = b.get(j) == Some(&b'-');
        j += usize::from(matches!(b.get(j), Some(b'-' | b'+')));
        let estart = j;
        let mut e: i64 = 0;
        while let Some(d) = b.get(j).map(|c| c.wrapping_sub(b'0')).filter(|&d| d <= 9) {
            // Saturates far outside the table: such a value goes to std either way.
            e = (e * 10 + i64::from(d)).min(1 << 20);
            j += 1;
        }
        if j == estart {
            // "1e" or "1e+": not a number std reads; the caller sees the 'e' where the cell should end.
            return Some((signed(neg, value_or_none(digits, q)?), i));
        }
        q += if eneg { -e } else { e };
        i = j;
    }
    Some((signed(neg, value_or_none(digits, q)?), i))
}

#[inline(always)]
fn signed(neg: bool, v: f64) -> f64 {
    if neg {
        -v
    } else {
        v
    }
}

/// The double nearest w x 10^q, or None where it is left to std.
#[inline(always)]
fn value_or_none(d: Digits, q: i64) -> Option<f64> {
    let w = d.w;
    if w == 0 {
        // Every digit a zero ("0", "0.000", "0e999"): zero, whatever the exponent.
        return Some(0.0);
    }
    if !d.nonzero_cut && w <= 1 << 53 && (-22..=22).contains(&q) {
        let p = POW10[q.unsigned_abs() as usize];
        return Some(if q < 0 { w as f64 / p } else { w as f64 * p });
    }
    let v = eisel_lemire(q, w);
    if v.is_nan() {
        return None;
    }
    // Digits were cut: the true value lies between w x 10^q and (w + 1) x 10^q; when both ends round to
    // the same double, so does everything between (rounding is monotonic). w + 1 <= 10^19 < 2^64.
    if d.nonzero_cut && eisel_lemire(q, w + 1).to_bits() != v.to_bits() {
        return None;
    }
    Some(v)
}

/// The significant digits read so far: the first 19 in `w`, and how many came after them.
#[derive(Clone, Copy, Default)]
struct Digits {
    /// The first `n` significant digits (at most 19) as an integer.
    w: u64,
    n: usize,
    /// Digits after the 19th, not in `w`; whether any of them was not a zero.
    cut: usize,
    nonzero_cut: bool,
}

impl Digits {
    /// Reads the run of ASCII digits at the start of `b` into `w` (up to 19 in all) and counts the rest;
    /// returns the run's length.
    #[inline(always)]
    fn run(&mut self, b: &[u8]) -> usize {
        let mut i = 0;
        // Eight at a time while eight more fit in the 19.
        while self.n + 8 <= MAX_DIGITS {
            let Some(eight) = eight_digits(b.get(i..i + 8)) else {
                break;
            };
            self.w = self.w * 100_000_000 + eight;
            self.n += 8;
            i += 8;
        }
        while let Some(d) = b.get(i).map(|c| c.wrapping_sub(b'0')).filter(|&d| d <= 9) {
            if self.n < MAX_DIGITS {
                self.w = self.w * 10 + u64::from(d);
                self.n += 1;
            } else {
                self.cut += 1;
                self.nonzero_cut |= d != 0;
            }
            i += 1;
        }
        i
    }
}

/// The eight bytes of `word` as an eight-digit integer, when all eight are ASCII digits.
///
/// SWAR on a little-endian u64 (the first byte in the low byte): the word is all digits when no byte
/// borrows into its top bit as 0x30 is taken away (below '0') nor carries into it as 0x46 is added (above
/// '9': 0x39 + 0x46 = 0x7F is the largest that does not), and its eight digits are summed by three
/// multiplications, as fast_float's `parse_eight_digits_unrolled` does (Lemire 2021): pairs, then fours,
/// then the eight. (Measured: also summing the last 1-7 digits from one word, found by the lowest
/// non-digit byte, takes 11 % fewer instructions but no less time in wasm and more natively, the loads
/// then waiting on each other.)
#[inline(always)]
fn eight_digits(word: Option<&[u8]>) -> Option<u64> {
    let v = u64::from_le_bytes(word?.try_into().ok()?);
    let digits = v.wrapping_sub(0x3030_3030_3030_3030);
    if (digits | v.wrapping_add(0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080 != 0 {
        return None;
    }
    let pairs = digits.wrapping_mul(10).wrapping_add(digits >> 8);
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    let a = (pairs & MASK).wrapping_mul(100 + (1_000_000 << 32));
    let c = ((pairs >> 16) & MASK).wrapping_mul(1 + (10_000 << 32));
    Some(u64::from((a.wrapping_add(c) >> 32) as u32))
}

/// The smallest and largest decimal exponents q of w x 10^q read here; std reads the others.
const Q_MIN: i64 = -64;
const Q_MAX: i64 = 32;

/// 5^q for q in Q_MIN..=Q_MAX as 128 bits (high, low), normalised so the top bit is set: for q >= 0 the
/// power itself shifted left (5^32 < 2^75, exact); for q < 0, 2^b / 5^-q rounded up (floor + 1), with
/// b = z + 127 where 2^z is the least power of two above 5^-q (q >= -27: the quotient has 128 bits), or
/// b = 2z + 128 and the quotient's top 128 bits (q < -27). This is fast_float's table
/// (`script/table_generation.py`), the one std's parser uses, computed here by that definition at
/// compile time rather than pasted; `the_table_is_fast_floats` checks entries against it.
static POW5: [(u64, u64); (Q_MAX - Q_MIN + 1) as usize] = pow5_table();

const fn pow5_table() -> [(u64, u64); (Q_MAX - Q_MIN + 1) as usize] {
    let mut out = [(0u64, 0u64); (Q_MAX - Q_MIN + 1) as usize];
    let mut k = 0;
    while k < out.len() {
        let q = Q_MIN + k as i64;
        out[k] = if q >= 0 {
            let mut p: u128 = 1;
            let mut j = 0;
            while j < q {
                p *= 5;
                j += 1;
            }
            let p = p << p.leading_zeros();
            ((p >> 64) as u64, p as u64)
        } else {
            pow5_negative(-q as u32)
        };
        k += 1;
    }
    out
}

/// Limbs (little-endian u64 words) for the big numbers of [`pow5_negative`]: 2^b needs b + 1 bits, and
/// b = 2z + 128 <= 2 x 149 + 128 = 426 for 5^64 (z = 149); the table's test multiplies an entry by 2^s x
/// 5^n, up to 128 + 150 + 149 bits, so 640 bits in all.
const LIMBS: usize = 10;

/// The table entry for q = -n (see [`POW5`]).
const fn pow5_negative(n: u32) -> (u64, u64) {
    // z: the least power of two above 5^n (5^n is odd, never a power of two): ceil(log2 5^n).
    let mut p = [0u64; LIMBS];
    p[0] = 1;
    let mut j = 0;
    while j < n {
        p = mul_small(p, 5);
        j += 1;
    }
    let z = bits(&p);
    let b = if n <= 27 { z + 127 } else { 2 * z + 128 };
    // 2^b / 5^n, floor: dividing by 5 n times (floor(floor(x / a) / c) = floor(x / ac)).
    let mut x = [0u64; LIMBS];
    x[(b / 64) as usize] = 1 << (b % 64);
    let mut j = 0;
    while j < n {
        x = div_small(x, 5);
        j += 1;
    }
    // + 1, then the top 128 bits (for n <= 27 the quotient has exactly 128).
    let mut i = 0;
    while i < LIMBS {
        let (s, carry) = x[i].overflowing_add(1);
        x[i] = s;
        if !carry {
            break;
        }
        i += 1;
    }
    let shift = bits(&x) - 128;
    let x = shr(x, shift);
    (x[1], x[0])
}

/// The bit length of a big number (the index of its top bit + 1).
const fn bits(x: &[u64; LIMBS]) -> u32 {
    let mut i = LIMBS;
    while i > 0 {
        i -= 1;
        if x[i] != 0 {
            return i as u32 * 64 + 64 - x[i].leading_zeros();
        }
    }
    0
}

const fn mul_small(x: [u64; LIMBS], m: u64) -> [u64; LIMBS] {
    let mut out = [0u64; LIMBS];
    let mut carry: u128 = 0;
    let mut i = 0;
    while i < LIMBS {
        let t = x[i] as u128 * m as u128 + carry;
        out[i] = t as u64;
        carry = t >> 64;
        i += 1;
    }
    out
}

const fn div_small(x: [u64; LIMBS], d: u64) -> [u64; LIMBS] {
    let mut out = [0u64; LIMBS];
    let mut rem: u128 = 0;
    let mut i = LIMBS;
    while i > 0 {
        i -= 1;
        let t = (rem << 64) | x[i] as u128;
        out[i] = (t / d as u128) as u64;
        rem = t % d as u128;
    }
    out
}

const fn shr(x: [u64; LIMBS], s: u32) -> [u64; LIMBS] {
    let mut out = [0u64; LIMBS];
    let (words, bits) = ((s / 64) as usize, s % 64);
    let mut i = 0;
    while i + words < LIMBS {
        let lo = x[i + words] >> bits;
        let hi = if bits > 0 && i + words + 1 < LIMBS {
            x[i + words + 1] << (64 - bits)
        } else {
            0
        };
        out[i] = lo | hi;
        i += 1;
    }
    out
}

/// The 128-bit product of two u64 as (low, high). Natively one multiplication; wasm32 has no 64 x 64 to
/// 128-bit multiply, and a `u128` product there is a call into compiler-builtins' `__multi3` (a general
/// 128 x 128 multiply), so it is written out there ([`full_mul_halves`]).
#[inline(always)]
fn full_mul(a: u64, b: u64) -> (u64, u64) {
    if cfg!(target_arch = "wasm32") {
        full_mul_halves(a, b)
    } else {
        let p = u128::from(a) * u128::from(b);
        (p as u64, (p >> 64) as u64)
    }
}

/// [`full_mul`] from four 32 x 32 to 64-bit products, as fast_float's `full_multiplication` does on
/// 32-bit targets.
#[inline(always)]
fn full_mul_halves(a: u64, b: u64) -> (u64, u64) {
    let (a_lo, a_hi) = (a & 0xFFFF_FFFF, a >> 32);
    let (b_lo, b_hi) = (b & 0xFFFF_FFFF, b >> 32);
    let ll = a_lo * b_lo;
    let lh = a_lo * b_hi;
    let hl = a_hi * b_lo;
    let hh = a_hi * b_hi;
    // The middle column: three parts below 2^32 each, so the sum fits in 64 bits.
    let mid = (ll >> 32) + (lh & 0xFFFF_FFFF) + (hl & 0xFFFF_FFFF);
    let lo = (mid << 32) | (ll & 0xFFFF_FFFF);
    let hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    (lo, hi)
}

/// The double nearest w x 10^q (w > 0, q in Q_MIN..=Q_MAX), by Eisel-Lemire; NaN where the 128-bit
/// product cannot decide, or q is outside the table (the caller then asks std). This is fast_float's
/// `compute_float` for binary64 as std has it (`core::num::dec2flt::lemire`), step for step.
#[inline(never)]
fn eisel_lemire(q: i64, w: u64) -> f64 {
    // binary64: 52 explicit mantissa bits, exponent bias 1023, infinity's biased exponent 0x7FF.
    const MANTISSA_BITS: i32 = 52;
    const MINIMUM_EXPONENT: i32 = -1023;
    const INFINITE_POWER: i32 = 0x7FF;
    // Only for 10^-4..10^23 can w x 10^q fall exactly halfway between two doubles (std's
    // MIN/MAX_EXPONENT_ROUND_TO_EVEN).
    const MIN_EXPONENT_ROUND_TO_EVEN: i64 = -4;
    const MAX_EXPONENT_ROUND_TO_EVEN: i64 = 23;
    if !(Q_MIN..=Q_MAX).contains(&q) || w == 0 {
        return f64::NAN;
    }
    // Normalise w so its top bit is set.
    let lz = w.leading_zeros();
    let w = w << lz;
    // w x 5^q to 128 bits: the high product, and the low one only when the high one's bits below the
    // 55 kept (52 + 3) are all ones, where a carry from below could change them.
    let (hi5, lo5) = POW5[(q - Q_MIN) as usize];
    let (mut lo, mut hi) = full_mul(w, hi5);
    const PRECISION_MASK: u64 = u64::MAX >> (MANTISSA_BITS + 3);
    if hi & PRECISION_MASK == PRECISION_MASK {
        let second_hi = full_mul(w, lo5).1;
        lo = lo.wrapping_add(second_hi);
        if second_hi > lo {
            hi += 1;
        }
    }
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        // The truncated power may be short by one in its last bit: an error term that could carry
        // into the kept bits (only 5^q for q in -27..=55 is exact in 128 bits).
        return f64::NAN;
    }
    let upperbit = (hi >> 63) as i32;
    let mut mantissa = hi >> (upperbit + 64 - MANTISSA_BITS - 3);
    // floor(log2(10^q)) + 63, as (217706 q) >> 16 (exact for |q| < 1700), less the normalising shift.
    let mut power2 = (((q as i32).wrapping_mul(152_170 + 65_536) >> 16) + 63) + upperbit
        - lz as i32
        - MINIMUM_EXPONENT;
    if power2 <= 0 {
        // A subnormal (unreachable in the table's range; kept so the function is std's whole).
        if -power2 + 1 >= 64 {
            return 0.0;
        }
        mantissa >>= -power2 + 1;
        mantissa += mantissa & 1;
        mantissa >>= 1;
        let e = u64::from(mantissa >= 1 << MANTISSA_BITS);
        return f64::from_bits((e << MANTISSA_BITS) | (mantissa & ((1 << MANTISSA_BITS) - 1)));
    }
    // Exactly halfway (the product exact, the bit below the kept ones set, nothing under it): round to
    // even, so the low bit is cleared before the rounding below adds it.
    if lo <= 1
        && (MIN_EXPONENT_ROUND_TO_EVEN..=MAX_EXPONENT_ROUND_TO_EVEN).contains(&q)
        && mantissa & 3 == 1
        && (mantissa << (upperbit + 64 - MANTISSA_BITS - 3)) == hi
    {
        mantissa &= !1;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if mantissa >= 2 << MANTISSA_BITS {
        // Rounding carried into a new bit: 1.0 x 2^(e + 1).
        mantissa = 1 << MANTISSA_BITS;
        power2 += 1;
    }
    mantissa &= !(1 << MANTISSA_BITS);
    if power2 >= INFINITE_POWER {
        return f64::INFINITY;
    }
    f64::from_bits(((power2 as u64) << MANTISSA_BITS) | mantissa)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// std's answer for `s`, by bits.
    fn std_bits(s: &str) -> Option<u64> {
        s.parse::<f64>().ok().map(f64::to_bits)
    }

    /// parse_decimal's answer when it reads the whole of `s`, by bits.
    fn ours(s: &str) -> Option<u64> {
        parse_decimal(s.as_bytes())
            .filter(|&(_, len)| len == s.len())
            .map(|(v, _)| v.to_bits())
    }

    #[test]
    fn the_table_is_fast_floats() {
        // Entries of fast_float's table (script/table_generation.py), by hand:
        // 5^0 = 1 << 127: (0x8000000000000000, 0).
        assert_eq!(POW5[(0 - Q_MIN) as usize], (1 << 63, 0));
        // 5^1 = 5 << 125 = 0b101 << 125: (0xA000000000000000, 0).
        assert_eq!(POW5[(1 - Q_MIN) as usize], (0xA000_0000_0000_0000, 0));
        // 5^-1: z = 3 (8 > 5), b = 130, 2^130 / 5 = 0xCCCC...CCCC (128 bits, remainder 4), + 1.
        assert_eq!(
            POW5[(-1 - Q_MIN) as usize],
            (0xCCCC_CCCC_CCCC_CCCC, 0xCCCC_CCCC_CCCC_CCCD)
        );
        // 5^-2 = 1/25: z = 5 (32 > 25), b = 132, 2^132 / 25 = 0xA3D70A3D70A3D70A3D70A3D70A3D70A3
        // (0x28F5C28F... x 4; 2^132 = 25 x 0xA3D7...0A3 + 21), + 1 -> ...0A4.
        assert_eq!(
            POW5[(-2 - Q_MIN) as usize],
            (0xA3D7_0A3D_70A3_D70A, 0x3D70_A3D7_0A3D_70A4)
        );
        // 5^32 = 23283064365386962890625 = 0x4EE2D6D415B85ACEF81 (75 bits), shifted left by 53.
        let p: u128 = 23_283_064_365_386_962_890_625 << 53;
        assert_eq!(POW5[(32 - Q_MIN) as usize], ((p >> 64) as u64, p as u64));
        // Every negative power by its definition, in big numbers: with Y = 2^b / 5^n and the entry c =
        // floor(ceil(Y) / 2^s) (s = 0 for n <= 27; else the shift that leaves 128 bits, z + 1, as Y lies
        // between 2^(b-z) and 2^(b-z+1)): c x 2^s <= ceil(Y) < (c + 1) x 2^s, that is
        // (c x 2^s - 1) x 5^n < 2^b < (c + 1) x 2^s x 5^n.
        let big = |hi: u64, lo: u64| {
            let mut x = [0u64; LIMBS];
            x[0] = lo;
            x[1] = hi;
            x
        };
        let times = |mut x: [u64; LIMBS], m: u64, k: u32| {
            for _ in 0..k {
                x = mul_small(x, m);
            }
            x
        };
        let less = |a: &[u64; LIMBS], b: &[u64; LIMBS]| a.iter().rev().lt(b.iter().rev());
        for n in 1u32..=64 {
            let (hi, lo) = POW5[(-(n as i64) - Q_MIN) as usize];
            assert_eq!(hi >> 63, 1, "5^-{n} is normalised");
            let z = bits(&times(big(0, 1), 5, n));
            let (b, s) = if n <= 27 {
                (z + 127, 0)
            } else {
                (2 * z + 128, z + 1)
            };
            let mut two_b = [0u64; LIMBS];
            two_b[(b / 64) as usize] = 1 << (b % 64);
            let c_shifted = times(big(hi, lo), 2, s);
            let mut below = c_shifted;
            // c x 2^s - 1 (c x 2^s ends in s zero bits; for s = 0, lo is never 0 here).
            let mut i = 0;
            loop {
                let (d, borrow) = below[i].overflowing_sub(1);
                below[i] = d;
                if !borrow {
                    break;
                }
                i += 1;
            }
            let (c1hi, c1lo) = if lo == u64::MAX {
                (hi + 1, 0)
            } else {
                (hi, lo + 1)
            };
            assert!(less(&times(below, 5, n), &two_b), "5^-{n}: entry too large");
            assert!(
                less(&two_b, &times(times(big(c1hi, c1lo), 2, s), 5, n)),
                "5^-{n}: entry too small"
            );
        }
    }

    #[test]
    fn relog_values_are_read_here_as_std_reads_them() {
        // A Windows Server 2019 relog CSV's values (20 significant digits), an older relog's (17),
        // integers, and the round-half-even boundaries.
        for s in [
            "2.2693175362118793714",
            "0.26681812419607908726",
            "11140.924071276233008",
            "0.0028616000000000001678",
            "11.296813511113458",
            "0.26679653905997197",
            "8589934592",
            "123456789012345678901234567890",
            "0.000000000000000000000000000000000000012345678901234567890",
            // 2^53 + 1 = 9007199254740993: halfway between 2^53 and 2^53 + 2, rounds to even (2^53).
            "9007199254740993",
            // 2^53 + 3: halfway between 2^53 + 2 and 2^53 + 4, rounds to even (2^53 + 4).
            "9007199254740995",
            // Halfway with a cut digit of 0 and a nonzero one: ...993.0000000000000000001 rounds up.
            "9007199254740993.0000000000000000001",
            "9007199254740993.00000",
            // 1 + 2^-53 = 1.00000000000000011102230246251565404236316680908203125: halfway, rounds down.
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203126",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.7976931348623157e308",
            "1e-400",
            "-0",
            "-0.000",
            "0e999",
            "5e-324",
            "1.5E-05",
            "1.5000000000000000384E-05",
            "1e23",
            "8.98846567431158e307",
            "0.1",
            "100.000000000000021",
            "17.0000000000000001",
        ] {
            let std = std_bits(s);
            let fast = ours(s);
            assert!(
                fast.is_none() || fast == std,
                "{s}: {fast:?} against std {std:?}"
            );
            assert!(std_bits(s).is_some(), "{s}");
        }
        // The relog shapes are read on this path, not handed to std.
        for s in [
            "2.2693175362118793714",
            "0.0028616000000000001678",
            "11140.924071276233008",
            "0.26681812419607908726",
            "8589934592",
            "9007199254740993",
            "1.5000000000000000384E-05",
        ] {
            assert_eq!(ours(s), std_bits(s), "{s}");
        }
    }

    #[test]
    fn what_is_not_a_number_here() {
        // No digits; a '+' or space first; inf and nan: None (std decides).
        for s in ["", "-", ".", "-.", "+1", " 1", "inf", "-nan", "e5", ".e5"] {
            assert_eq!(parse_decimal(s.as_bytes()), None, "{s:?}");
        }
        // Stops where the number stops: the caller checks that byte is the cell's end.
        assert_eq!(parse_decimal(b"42.5\""), Some((42.5, 4)));
        assert_eq!(parse_decimal(b"1.5e3,"), Some((1500.0, 5)));
        assert_eq!(parse_decimal(b"1e\""), Some((1.0, 1)));
        assert_eq!(parse_decimal(b"1e+,"), Some((1.0, 1)));
        assert_eq!(parse_decimal(b"5."), Some((5.0, 2)));
        assert_eq!(parse_decimal(b".25"), Some((0.25, 3)));
        assert_eq!(
            parse_decimal(b"-0").map(|(v, n)| (v.to_bits(), n)),
            Some(((-0.0f64).to_bits(), 2))
        );
    }

    #[test]
    fn eight_digits_at_a_time() {
        // "12345678": 1234 x 10^4 + 5678.
        assert_eq!(eight_digits(Some(b"12345678")), Some(12_345_678));
        assert_eq!(eight_digits(Some(b"1234567")), None);
        // Bytes on either side of '0'..'9' ('/' = 0x2F, ':' = 0x3A) and non-ASCII (0xB0, 0xFF) are no digit,
        // wherever they are in the word.
        for stop in [b'/', b':', b'"', b' ', 0xB0, 0xFF] {
            for at in 0..8 {
                let mut word = *b"99999999";
                word[at] = stop;
                assert_eq!(eight_digits(Some(&word)), None, "{stop:#x} at {at}");
            }
        }
        // 19 digits kept, the 20th and later counted: "12345678901234567890" -> w = 1234567890123456789,
        // one cut (a 0), 20 read.
        let mut d = Digits::default();
        assert_eq!(d.run(b"12345678901234567890\""), 20);
        assert_eq!(
            (d.w, d.n, d.cut, d.nonzero_cut),
            (1_234_567_890_123_456_789, 19, 1, false)
        );
        let mut d = Digits::default();
        assert_eq!(d.run(b"123456789012345678905"), 21);
        assert_eq!((d.cut, d.nonzero_cut), (2, true));
    }

    #[test]
    fn the_property_tests_reach_this_path() {
        // The property tests below accept None (std decides); this checks that None is the rare case, so
        // they compare this path's answers and not only std's with itself. 10,000 strings of 1-40 random
        // digits with a point somewhere (an LCG, fixed seed): the ambiguous ones are those whose cut digits
        // could round either way, about 1 in 1,000 at 20 digits; outside the table, values beyond
        // 10^-64..10^51, none here (at most 40 digits, so at least 10^-40).
        let mut seed: u64 = 1;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 33
        };
        let (mut here, mut total) = (0, 0);
        for _ in 0..10_000 {
            let len = 1 + (next() % 40) as usize;
            let mut s: String = (0..len)
                .map(|_| (b'0' + (next() % 10) as u8) as char)
                .collect();
            s.insert((next() as usize) % (len + 1), '.');
            total += 1;
            if let Some(v) = ours(&s) {
                assert_eq!(Some(v), std_bits(&s), "{s}");
                here += 1;
            }
        }
        assert!(here * 100 >= total * 99, "{here} of {total} read here");
    }

    use proptest::prelude::*;

    /// Decimal text: a sign, 0-6 leading zeros, 1-40 digits with the point anywhere (or none), and
    /// sometimes an exponent.
    fn arb_decimal() -> impl Strategy<Value = String> {
        (
            "-?",
            "0{0,6}",
            "[0-9]{1,40}",
            proptest::option::of(0usize..41),
            proptest::option::of(("[eE]", "[+-]?", 0i32..60)),
        )
            .prop_map(|(sign, zeros, digits, point, exp)| {
                let mut s = format!("{sign}{zeros}{digits}");
                if let Some(p) = point {
                    let at = sign.len() + p.min(s.len() - sign.len());
                    s.insert(at, '.');
                }
                if let Some((e, es, x)) = exp {
                    s.push_str(&format!("{e}{es}{x}"));
                }
                s
            })
    }

    /// A double's exact value or its neighbourhood: the halfway point between it and the next double,
    /// written out in full (up to 60 digits or so), and nudged by one in the last digit.
    fn arb_halfway() -> impl Strategy<Value = String> {
        (any::<u64>(), -60i32..60, -1i32..=1).prop_map(|(bits, scale, nudge)| {
            // A positive normal double of moderate size: mantissa bits from `bits`, exponent near 2^scale.
            let m = (bits & ((1 << 52) - 1)) | (1 << 52); // 53 bits
            let e = scale - 52;
            // Halfway to the next: (2m + 1) x 2^(e - 1), written exactly in decimal.
            let num = 2 * u128::from(m) + 1;
            let text = exact_decimal(num, e - 1);
            nudge_last(&text, nudge)
        })
    }

    /// `num x 2^e` written exactly in decimal (no exponent).
    fn exact_decimal(num: u128, e: i32) -> String {
        if e >= 0 {
            // num x 2^e: decimal digits little-endian, doubled e times.
            let mut digits: Vec<u8> = Vec::new();
            let mut n = num;
            while n > 0 {
                digits.push((n % 10) as u8);
                n /= 10;
            }
            for _ in 0..e {
                let mut carry = 0;
                for d in &mut digits {
                    let t = *d * 2 + carry;
                    *d = t % 10;
                    carry = t / 10;
                }
                if carry > 0 {
                    digits.push(carry);
                }
            }
            digits.iter().rev().map(|d| (b'0' + d) as char).collect()
        } else {
            // num / 2^k = num x 5^k / 10^k.
            let k = (-e) as usize;
            let mut digits: Vec<u8> = Vec::new();
            let mut n = num;
            while n > 0 {
                digits.push((n % 10) as u8);
                n /= 10;
            }
            for _ in 0..k {
                let mut carry = 0;
                for d in &mut digits {
                    let t = *d * 5 + carry;
                    *d = t % 10;
                    carry = t / 10;
                }
                while carry > 0 {
                    digits.push(carry % 10);
                    carry /= 10;
                }
            }
            while digits.len() <= k {
                digits.push(0);
            }
            let s: String = digits.iter().rev().map(|d| (b'0' + d) as char).collect();
            let (whole, frac) = s.split_at(s.len() - k);
            format!("{whole}.{frac}")
        }
    }

    /// `text` with its last digit moved by `by` (-1, 0, +1) where that needs no carry.
    fn nudge_last(text: &str, by: i32) -> String {
        let mut b = text.as_bytes().to_vec();
        if let Some(last) = b.iter_mut().rev().find(|c| c.is_ascii_digit()) {
            let d = i32::from(*last - b'0') + by;
            if (0..=9).contains(&d) {
                *last = b'0' + d as u8;
            }
        }
        String::from_utf8(b).unwrap_or_default()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        /// Any decimal text of 1-40 digits, with leading zeros and exponents: the same double as std, bit
        /// for bit, wherever it is read here.
        #[test]
        fn digit_strings_read_as_std_reads_them(s in arb_decimal()) {
            let std = std_bits(&s);
            prop_assert!(std.is_some(), "{}", s);
            if let Some(v) = ours(&s) {
                prop_assert_eq!(Some(v), std, "{}", s);
            }
        }

        /// A double printed as relog prints it (20 significant digits, no exponent) and with 17 and 15:
        /// read here (never handed to std) and the same double as std.
        #[test]
        fn printed_doubles_are_read_here(v in 1e-12f64..1e15, digits in prop::sample::select(vec![15usize, 17, 20])) {
            let s = relog_text(v, digits);
            prop_assert_eq!(ours(&s), std_bits(&s), "{}", s);
            prop_assert!(ours(&s).is_some(), "{}", s);
        }

        /// The wasm32 product from 32-bit halves is the 128-bit product, so the parser reads the same there.
        #[test]
        fn product_from_halves_is_the_128_bit_product(a in any::<u64>(), b in any::<u64>()) {
            let p = u128::from(a) * u128::from(b);
            prop_assert_eq!(full_mul_halves(a, b), (p as u64, (p >> 64) as u64));
        }

        /// The halfway points between neighbouring doubles, written in full, and one unit either side in
        /// the last digit: where round-half-even decides, the same double as std.
        #[test]
        fn halfway_points_round_as_std_rounds(s in arb_halfway()) {
            let std = std_bits(&s);
            prop_assert!(std.is_some(), "{}", s);
            if let Some(v) = ours(&s) {
                prop_assert_eq!(Some(v), std, "{}", s);
            }
        }
    }

    #[test]
    fn product_from_halves_at_the_extremes() {
        // (2^64 - 1)^2 = 2^128 - 2^65 + 1: high 2^64 - 2, low 1.
        assert_eq!(full_mul_halves(u64::MAX, u64::MAX), (1, u64::MAX - 1));
        // 2^63 x 2 = 2^64: high 1, low 0.
        assert_eq!(full_mul_halves(1 << 63, 2), (0, 1));
        assert_eq!(full_mul_halves(0, u64::MAX), (0, 0));
    }

    /// `v` with `digits` significant digits and no exponent, trailing zeros after the point dropped: the
    /// way relog writes a value (bench/data.mjs writes them so too).
    fn relog_text(v: f64, digits: usize) -> String {
        let e = v.abs().log10().floor() as i32;
        let decimals = (digits as i32 - 1 - e).max(0) as usize;
        let s = format!("{v:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    }
}
