// Writes crate/data/counter-names.tsv.deflate, the raw-DEFLATE form (RFC 1951) of counter-names.tsv that
// the core embeds: 213 KB of text take 51 KB of the wasm module this way. Run after
// scripts/counter-names.mjs; a Rust test (capture::names) fails when the two files disagree. Usage:
//   node scripts/pack-counter-names.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { deflateRawSync, constants } from 'node:zlib';

const dir = new URL('../crate/data/', import.meta.url);
const tsv = readFileSync(new URL('counter-names.tsv', dir));
const packed = deflateRawSync(tsv, { level: constants.Z_BEST_COMPRESSION });
writeFileSync(new URL('counter-names.tsv.deflate', dir), packed);
console.log(`[pack] counter-names.tsv: ${tsv.length} bytes -> ${packed.length} deflated`);
