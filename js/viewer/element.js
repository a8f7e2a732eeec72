// <counterlens-viewer>: the viewer as a custom element, for pages that prefer markup to code.
//   <counterlens-viewer src="/logs/web01.blg" series="\\*\Processor(*)\% Processor Time"
//                       range="2026-11-22T09:00:00Z,2026-11-22T09:05:00Z" theme="dark" chart-only>
// Attributes: src (a same-origin URL), series (a filter: words or a perfmon wildcard path), range (two
// times, ISO 8601 or ms since the epoch, comma-separated), theme (auto, light, dark), chart-only.
// Events (bubbling, composed): `selection` (detail.series: the selected paths) and `zoom` (detail.range:
// [fromMs, toMs] or null for the whole capture). Define it once, after `await init()`:
// `defineViewerElement()`.
import { mountViewer } from './index.js';

/** A range attribute as [fromMs, toMs], or null. */
export function parseRange(text) {
  const parts = (text ?? '').split(',').map((p) => p.trim());
  if (parts.length !== 2) return null;
  const ms = parts.map((p) => (/^-?\d+(\.\d+)?$/.test(p) ? Number(p) : Date.parse(p)));
  return ms.every(Number.isFinite) && ms[1] > ms[0] ? ms : null;
}

/** The element's class, made on first use (Node, which shares the package's entry, has no HTMLElement). */
function elementClass() {
  return class CounterlensViewerElement extends HTMLElement {
  static observedAttributes = ['src', 'series', 'range', 'theme'];
  #viewer = null;

  connectedCallback() {
    if (this.#viewer) return;
    const fire = (type) => (detail) => this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    this.#viewer = mountViewer(this, {
      chartOnly: this.hasAttribute('chart-only'),
      series: this.getAttribute('series') ?? undefined,
      theme: this.getAttribute('theme') ?? undefined,
      onSelection: fire('selection'),
      onZoom: fire('zoom'),
    });
    this.ready = this.#open();
  }

  disconnectedCallback() {
    this.#viewer?.destroy();
    this.#viewer = null;
  }

  async #open() {
    const src = this.getAttribute('src');
    if (!src) return;
    await this.#viewer.openUrl(src);
    const range = parseRange(this.getAttribute('range'));
    if (range) this.#viewer.setRange(range);
  }

  attributeChangedCallback(name, old, value) {
    if (!this.#viewer || old === value) return;
    if (name === 'src') this.ready = this.#open();
    else if (name === 'series') this.#viewer.selectSeries(value ?? '');
    else if (name === 'range') this.#viewer.setRange(parseRange(value));
    else if (name === 'theme') this.#viewer.setTheme(value);
  }

  /** The viewer's handle (mountViewer's), for what attributes do not cover. */
  get viewer() {
    return this.#viewer;
  }
  };
}

/** Defines <counterlens-viewer> (or another name) once. */
export function defineViewerElement(name = 'counterlens-viewer') {
  if (typeof customElements === 'undefined') throw new TypeError('defineViewerElement needs a browser page');
  if (!customElements.get(name)) customElements.define(name, elementClass());
}
