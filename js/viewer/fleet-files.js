// The logs of a drop or a pick for the fleet view: several files, or a folder walked through its
// entries (DataTransferItem.webkitGetAsEntry, recursively; files found inside folders are kept when their
// extension is a log's). Each log is `{ name, file }`: the name is its path inside what was dropped (or
// its file name), made unique, so the fleet's runs name their log and a click finds its File again.

const LOG = /\.(blg|csv|tsv|json)$/i;

/** Names made unique in order: a second `a.csv` becomes `a.csv (2)`. */
export function uniqueNames(logs) {
  const seen = new Map();
  return logs.map(({ name, file }) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return { name: n > 1 ? `${name} (${n})` : name, file };
  });
}

/** The logs of a file input's FileList (a folder picked with webkitdirectory names its paths). */
export function logsOfFiles(files) {
  return uniqueNames([...files].map((f) => ({ name: f.webkitRelativePath || f.name, file: f })));
}

/** Every entry of a folder: readEntries gives them in batches until an empty one. */
async function readAll(dir) {
  const reader = dir.createReader();
  const all = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return all;
    all.push(...batch);
  }
}

async function walk(entry, out, inFolder) {
  if (entry.isDirectory) {
    const children = await readAll(entry);
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const c of children) await walk(c, out, true);
  } else if (entry.isFile && (!inFolder || LOG.test(entry.name))) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    out.push({ name: entry.fullPath.replace(/^\//, '') || entry.name, file });
  }
}

/**
 * The logs of a drop when it is several files or a folder (a promise of `[{ name, file }]`), or null for
 * one plain file (the single-log view takes it). Must be called in the drop event itself: the browser
 * empties the DataTransfer once the event is over.
 */
export function logsOfDrop(dataTransfer) {
  const items = [...(dataTransfer?.items ?? [])].filter((i) => i.kind === 'file');
  const entries = items.map((i) => i.webkitGetAsEntry?.() ?? null);
  const files = [...(dataTransfer?.files ?? [])];
  if (entries.length && entries.every(Boolean)) {
    if (entries.length < 2 && !entries[0].isDirectory) return null;
    return (async () => {
      const out = [];
      for (const e of entries) await walk(e, out, false);
      return uniqueNames(out);
    })();
  }
  // No entries (a DataTransfer made by a script): its files.
  if (files.length < 2) return null;
  return Promise.resolve(logsOfFiles(files));
}
