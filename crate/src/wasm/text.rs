//! The host's `TextDecoder` (WHATWG Encoding Standard) as the core's decoder of legacy encodings:
//! browsers and Node decode every encoding of the standard, so the wasm module carries none of their
//! tables. Installed when the module starts.

use crate::capture::text::{install_legacy_text, ChunkDecoder, Encoding, LegacyText};
use wasm_bindgen::prelude::*;
use web_sys::{TextDecodeOptions, TextDecoder};

struct HostText;

/// A `TextDecoder` in streaming mode; `None` when the host refused the encoding (every output is then
/// U+FFFD, which the reader reports as text it cannot read).
struct HostDecoder(Option<TextDecoder>);

impl ChunkDecoder for HostDecoder {
    fn decode(&mut self, bytes: &[u8], out: &mut String, last: bool) {
        let Some(d) = &self.0 else {
            if !bytes.is_empty() {
                out.push('\u{FFFD}');
            }
            return;
        };
        let options = TextDecodeOptions::new();
        options.set_stream(!last);
        match d.decode_with_u8_array_and_options(bytes, &options) {
            Ok(s) => out.push_str(&s),
            Err(_) => out.push('\u{FFFD}'),
        }
    }
}

impl LegacyText for HostText {
    fn resolve(&self, label: &str) -> Option<String> {
        TextDecoder::new_with_label(label)
            .ok()
            .map(|d| d.encoding())
    }
    fn decoder(&self, encoding: Encoding) -> Box<dyn ChunkDecoder> {
        Box::new(HostDecoder(
            TextDecoder::new_with_label(encoding.name()).ok(),
        ))
    }
}

/// Runs when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    install_legacy_text(&HostText);
}
