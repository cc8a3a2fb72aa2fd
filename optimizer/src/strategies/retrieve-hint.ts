/**
 * The one line a reversible strategy leaves where content was dropped: it names `gw_retrieve` and the handle so
 * the model can read the original back. In place (no handle) it says the content is gone.
 */
export function elisionHint(what: string, handle: string | null, toRead = 'them'): string {
  if (handle === null) return `[... ${what} (trimmed; not retrievable) ...]`;
  return `[... ${what}; call gw_retrieve with handle "${handle}" (optionally grep/startLine/endLine) to read ${toRead} ...]`;
}

/** `3,478`: grouping by hand, not by locale data, so every replica renders the same bytes. */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}
