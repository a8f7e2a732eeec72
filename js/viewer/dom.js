// DOM helpers of the viewer (and the page's panels): everything that comes from data goes through
// textContent, never HTML.

/** An element with text content (never HTML) and optional class and attributes. */
export function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  return e;
}
