// DOM helpers of the viewer (and the page's panels): everything that comes from data goes through
// textContent, never HTML.

/** Text longer than twice this is set as text nodes of this many characters (the same textContent). Blink
 *  shapes the rest of a text node again for every line it wraps, so one unbroken 100 KB counter name in a
 *  wrapping box costs 10-20 s of layout each time it is laid out (measured in Chromium 2026-11); cut into
 *  100-character nodes, tens of milliseconds. */
const CHUNK = 100;

/** Sets `e`'s text (never HTML); a long text as several text nodes, never splitting a surrogate pair. */
export function setText(e, text) {
  if (text.length <= 2 * CHUNK) {
    e.textContent = text;
    return;
  }
  const nodes = document.createDocumentFragment();
  for (let i = 0; i < text.length;) {
    let j = Math.min(i + CHUNK, text.length);
    const c = text.charCodeAt(j);
    if (c >= 0xdc00 && c <= 0xdfff) j++; // j is inside a surrogate pair: keep the pair together
    nodes.append(document.createTextNode(text.slice(i, j)));
    i = j;
  }
  e.replaceChildren(nodes);
}

/** An element with text content (never HTML) and optional class and attributes. */
export function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) setText(e, String(text));
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  return e;
}
