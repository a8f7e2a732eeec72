// Small DOM helpers shared by the panels. Everything that comes from data goes through textContent.
export const $ = (id) => document.getElementById(id);

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

export const hex32 = (v) => '0x' + (v >>> 0).toString(16).toUpperCase().padStart(8, '0');

/** Replaces a table body's rows. */
export function fill(tbody, rows) {
  tbody.replaceChildren(...rows);
}
