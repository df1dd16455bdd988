// Splitting a `kind: List` document (what `kubectl get -o yaml` prints) into its items, so that
// each item is read (by yaml-fast.ts or `yaml`) and dropped on its own: memory stays
// proportional to one item, not to the snapshot.

const SPACE = 32;
const TAB = 9;
const CR = 13;

export interface YamlListSplit {
  /** The document without its `items` (top-level keys only). */
  header: string;
  /** Each item's text: `- …` lines, a one-element sequence. */
  items: Array<{ start: number; end: number; line: number }>;
}

/** Where the text starts after its leading blank and `#` comment lines, and that line's number - 1. */
function afterLeadingComments(text: string): { start: number; line: number } {
  let p = 0;
  let line = 0;
  for (;;) {
    let nl = text.indexOf('\n', p);
    if (nl < 0) nl = text.length;
    let i = p;
    while (i < nl && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB || text.charCodeAt(i) === CR)) i++;
    if (nl >= text.length || (i < nl && text.charCodeAt(i) !== 0x23)) return { start: p, line };
    p = nl + 1;
    line++;
  }
}

/**
 * Splits a single-document YAML whose top level holds `items:` followed by a block sequence
 * (what `kubectl get -o yaml` prints) into its items; undefined for anything else (several
 * documents, comments, directives, an inline `items`…), which is then read whole.
 */
export function splitYamlList(text: string): YamlListSplit | undefined {
  // Comment lines before the first content (a hand-saved snapshot's notes) are just comments;
  // anywhere else a line opening with `#` could be part of a scalar: not ours.
  const { start: first, line: firstLine } = afterLeadingComments(text);
  if (/^(?:#|---|\.\.\.|%)/m.test(first === 0 ? text : text.slice(first))) return undefined;
  const header: string[] = [];
  const items: YamlListSplit['items'] = [];
  let itemsSeen = false;
  let itemIndent = -1;
  let inItems = false;
  let line = firstLine;
  let current: { start: number; line: number } | undefined;
  let p = first;
  const n = text.length;
  const close = (end: number) => {
    if (current) items.push({ start: current.start, end, line: current.line });
    current = undefined;
  };
  while (p < n) {
    line++;
    let nl = text.indexOf('\n', p);
    if (nl < 0) nl = n;
    const next = nl + 1;
    let i = p;
    while (i < nl && text.charCodeAt(i) === SPACE) i++;
    const blank = i === nl || (i === nl - 1 && text.charCodeAt(i) === CR);
    if (inItems) {
      if (blank) {
        p = next;
        continue;
      }
      const indent = i - p;
      const dash = text.charCodeAt(i) === 0x2d;
      if (itemIndent < 0 && !dash) {
        // `items:` with nothing under it (null: no items), then the next top-level key
        if (indent !== 0) return undefined; // items: followed by something else
        inItems = false;
      } else if (itemIndent < 0) {
        itemIndent = indent;
      }
    }
    if (inItems) {
      const indent = i - p;
      if (indent === itemIndent && text.charCodeAt(i) === 0x2d && (i + 1 >= nl || text.charCodeAt(i + 1) === SPACE || text.charCodeAt(i + 1) === CR)) {
        close(p);
        current = { start: p, line };
        p = next;
        continue;
      }
      if (indent > itemIndent) {
        p = next;
        continue;
      }
      if (indent !== 0) return undefined;
      close(p);
      inItems = false;
    }
    if (!blank && i === p && /^items:[ \t]*\r?$/.test(text.slice(p, nl))) {
      if (itemsSeen) return undefined;
      itemsSeen = true;
      inItems = true;
      p = next;
      continue;
    }
    if (!blank && i === p && text.charCodeAt(p) === 0x2d) return undefined;
    header.push(text.slice(p, Math.min(next, n)));
    p = next;
  }
  if (inItems) close(n);
  if (!itemsSeen) return undefined;
  return { header: header.join(''), items };
}
