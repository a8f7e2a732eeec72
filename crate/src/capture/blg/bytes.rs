//! Bounds-checked reads of the log's bytes: little-endian integers and UTF-16LE strings (NUL-ended or
//! bounded), each failing with what it was reading and where instead of panicking.

// Little-endian reads that fail with what they were reading instead of panicking. The error text is made
// out of line, so the read itself is small enough to inline (a PERF_DATA_BLOCK's fields are read this way
// for every object, counter and instance of every sample; out of line in wasm it was 3-4 % of the .blg
// reader's profile).
#[inline]
pub(super) fn get<const N: usize>(b: &[u8], at: usize, what: &str) -> Result<[u8; N], String> {
    match at.checked_add(N).and_then(|end| b.get(at..end)) {
        Some(s) => Ok(s.try_into().unwrap_or([0; N])),
        None => Err(past_the_end(N, at, b.len(), what)),
    }
}

#[cold]
#[inline(never)]
fn past_the_end(n: usize, at: usize, len: usize, what: &str) -> String {
    format!("expected {what} ({n} bytes) at +{at:#x}, but the block ends at +{len:#x}")
}
#[inline]
pub(super) fn u16_at(b: &[u8], at: usize, what: &str) -> Result<u16, String> {
    get::<2>(b, at, what).map(u16::from_le_bytes)
}
#[inline]
pub(super) fn u32_at(b: &[u8], at: usize, what: &str) -> Result<u32, String> {
    get::<4>(b, at, what).map(u32::from_le_bytes)
}
#[inline]
pub(super) fn i32_at(b: &[u8], at: usize, what: &str) -> Result<i32, String> {
    get::<4>(b, at, what).map(i32::from_le_bytes)
}
#[inline]
pub(super) fn u64_at(b: &[u8], at: usize, what: &str) -> Result<u64, String> {
    get::<8>(b, at, what).map(u64::from_le_bytes)
}

/// Longest instance name read, in UTF-16 units (PDH's own limit is far below). Names of an instance
/// array may all point at the same bytes: without a bound, a block of a million entries pointing at one
/// long name would be scanned a million times over.
pub(super) const MAX_NAME_UNITS: usize = 4096;

/// UTF-16LE bytes up to their first NUL unit (all of them if there is none).
pub(super) fn before_nul(b: &[u8]) -> &[u8] {
    let units = b
        .chunks_exact(2)
        .position(|c| c == [0, 0])
        .unwrap_or(b.len() / 2);
    &b[..2 * units]
}

/// The text of UTF-16LE bytes (unpaired surrogates become U+FFFD).
pub(super) fn utf16_text(b: &[u8]) -> String {
    // Most names (processes, disks, counters) are ASCII: each unit is then its one byte of UTF-8.
    if b.chunks_exact(2).all(|c| c[1] == 0 && c[0] < 0x80) {
        return b.chunks_exact(2).map(|c| char::from(c[0])).collect();
    }
    let units = b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]));
    let mut text = String::with_capacity(b.len() / 2);
    text.extend(char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)));
    text
}

/// The bytes of a NUL-terminated UTF-16LE string starting at `at`, without the NUL, at most
/// `max_units` long (`usize::MAX`: up to the end of `b`).
pub(super) fn utf16z_bytes<'b>(
    b: &'b [u8],
    at: usize,
    what: &str,
    max_units: usize,
) -> Result<&'b [u8], String> {
    let rest = b.get(at..).ok_or_else(|| {
        format!(
            "expected {what} (UTF-16 text) at +{at:#x}, past the end +{:#x}",
            b.len()
        )
    })?;
    let window = &rest[..rest
        .len()
        .min(max_units.saturating_add(1).saturating_mul(2))];
    let len = window.chunks_exact(2).position(|c| c == [0, 0]).ok_or_else(|| match max_units {
        usize::MAX => format!("expected {what} at +{at:#x} to end with a NUL before +{:#x}", b.len()),
        m => format!("expected {what} at +{at:#x} to end with a NUL within {m} characters and before +{:#x}", b.len()),
    })?;
    Ok(&rest[..2 * len])
}

/// A NUL-terminated UTF-16LE string starting at `at`, and the offset after its NUL.
pub(super) fn utf16z(b: &[u8], at: usize, what: &str) -> Result<(String, usize), String> {
    let bytes = utf16z_bytes(b, at, what, usize::MAX)?;
    Ok((utf16_text(bytes), at + bytes.len() + 2))
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_names_are_read_within_a_bound() {
        // 5000 units without a NUL: refused at the bound, not scanned to the end of the block.
        let mut b = vec![0x41u8; 2 * 5000];
        b.extend_from_slice(&[0, 0]);
        assert!(utf16z_bytes(&b, 0, "a name", MAX_NAME_UNITS)
            .unwrap_err()
            .contains("within 4096 characters"));
        assert_eq!(
            utf16z_bytes(&b, 2 * 1000, "a name", MAX_NAME_UNITS)
                .unwrap()
                .len(),
            2 * 4000
        );
    }
}
