// Small DOM helpers shared by the panels. Everything that comes from data goes through textContent.
export const $ = (id) => document.getElementById(id);

export { el } from './js/viewer/dom.js';

export const hex32 = (v) => '0x' + (v >>> 0).toString(16).toUpperCase().padStart(8, '0');
