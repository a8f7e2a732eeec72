// The series drawer of narrow screens: opened by the Series button; closed by its Close button, a tap
// outside it (the scrim), Escape, or Back (opening it adds a history entry, as a phone's dialogs do).
// Going back over the drawer's entry writes the view into the URL again (`saveUrl`).

/** @param {object} v  the viewer (index.js): `$`, element, on
 *  @param {{ saveUrl(): void }} hooks */
export function mountDrawer(v, hooks) {
  const { $, on } = v;
  let drawerEntry = false; // a history entry was pushed for the open drawer
  let drawerBack = false; // the drawer was closed by the page, which went back over its entry
  const drawerOpen = () => $['chart-layout'].classList.contains('drawer-open');
  function setDrawer(open) {
    $['chart-layout'].classList.toggle('drawer-open', open);
    $['series-drawer']?.setAttribute('aria-expanded', String(open));
    if (open) {
      $['series-filter'].focus();
      if (!drawerEntry) { history.pushState({ counterlensDrawer: true }, ''); drawerEntry = true; }
    } else {
      $['series-drawer']?.focus();
      if (drawerEntry) { drawerEntry = false; drawerBack = true; history.back(); }
    }
  }
  function onDrawerToggled() { setDrawer(!drawerOpen()); }
  function onDrawerKey(e) {
    if (e.key === 'Escape' && drawerOpen()) setDrawer(false);
  }
  function onHistoryBack() {
    if (!drawerEntry && !drawerBack) return;
    drawerBack = false;
    if (drawerEntry) {
      drawerEntry = false;
      if (drawerOpen()) setDrawer(false);
    }
    hooks.saveUrl(); // the entry gone back to holds the view from before the drawer opened
  }

  if ($['series-drawer']) on($['series-drawer'], 'click', onDrawerToggled);
  on($['series-drawer-close'], 'click', () => setDrawer(false));
  on($['drawer-scrim'], 'click', () => setDrawer(false));
  on(window, 'popstate', onHistoryBack);
  on(v.element, 'keydown', onDrawerKey);
}
