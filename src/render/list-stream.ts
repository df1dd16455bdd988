// A list too long to hold: the machine views (-o json, -o yaml) write it item by item as they
// read it, and the human views read it as often as they need (a table measures, then draws).

export interface ListStream<T> extends Iterable<T> {
  readonly lazy: true;
  readonly length: number;
  /** The items' JSON as JSON.stringify(document, null, 2) writes them in a list of the document, when kept so. */
  jsonAtDepth2?(): Iterable<string>;
}

export function isListStream(v: unknown): v is ListStream<unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { lazy?: unknown }).lazy === true &&
    typeof (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
  );
}
