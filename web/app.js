// The viewer page: tabs, and one module per panel (web/panels/). UI glue over the counterlens package.
import init, { version } from './js/browser.js';
import { $ } from './dom.js';
import { mountTypes } from './panels/types.js';
import { mountChart, draw as redrawChart, openInitial } from './panels/chart.js';
import { mountCalculator } from './panels/calculator.js';
import { mountRegistration } from './panels/registration.js';

await init();
$('version').textContent = 'v' + version();

mountChart();
mountCalculator();
mountRegistration();
mountTypes();

// Tabs: click, or the arrow keys on the focused tab (WAI-ARIA tabs pattern).
const tabs = [...document.querySelectorAll('[role="tab"]')];
function select(tab) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute('aria-controls')).hidden = !on;
  }
  if (tab.id === 'tab-chart') redrawChart();
}
for (const t of tabs) {
  t.addEventListener('click', () => select(t));
  t.addEventListener('keydown', (e) => {
    const i = tabs.indexOf(t);
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step) {
      const next = tabs[(i + step + tabs.length) % tabs.length];
      next.focus();
      select(next);
    }
  });
}
select(tabs[0]);
await openInitial();
document.body.dataset.ready = 'true';
