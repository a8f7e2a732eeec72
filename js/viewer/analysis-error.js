// How an analysis error reads in the viewer (the Analysis panel, its set-up, the derived chart).

/** How an analysis error reads, with where it was (a pack's JSON pointer or line, a variable, a file). */
export function describeAnalysisError(e) {
  const where = [e?.file, e?.pointer && `at ${e.pointer}`, e?.line && `line ${e.line}${e.column ? `, column ${e.column}` : ''}`, e?.variable && `variable ${e.variable}`]
    .filter(Boolean).join(', ');
  return `${e?.name ?? 'Error'}${e?.code ? ` (${e.code})` : ''}: ${e?.message ?? String(e)}${where && !String(e?.message).includes(where) ? ` [${where}]` : ''}`;
}
