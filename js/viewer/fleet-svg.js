// The core's SVG text (the fleet's heatmap, a sparkline) as DOM nodes, safely: parsed as XML, never set
// as HTML, with anything active removed.

/** The core's SVG text as nodes: parsed as XML, with anything active removed (the core escapes every
 *  label; this keeps the page safe whatever comes). */
export function svgNodes(text) {
  if (!text) return null;
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = doc.documentElement;
  if (svg?.localName !== 'svg' || doc.querySelector('parsererror')) return null;
  for (const bad of svg.querySelectorAll('script, foreignObject, iframe, a')) bad.remove();
  for (const e of [svg, ...svg.querySelectorAll('*')]) {
    for (const a of [...e.attributes]) if (/^on|href$/i.test(a.name)) e.removeAttribute(a.name);
  }
  return document.importNode(svg, true);
}
