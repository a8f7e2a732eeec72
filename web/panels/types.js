// The counter-type reference table: every named type, from the package's own table.
import { counterTypes } from '../js/browser.js';
import { $, el, hex32 } from '../dom.js';

export function mountTypes() {
  const rows = counterTypes().map((t) => {
    const tr = el('tr');
    tr.append(el('td', t.name), el('td', hex32(t.value)), el('td', t.samples, { class: 'num' }), el('td', t.display), el('td', t.formula));
    return tr;
  });
  $('types').tBodies[0].replaceChildren(...rows);
}
