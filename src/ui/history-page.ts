// `w` in the history pane: the selected controller's writes the pane kept, written as the same
// timeline page `history -o html` writes (src/render/history-html/), to a file in the current
// directory whose path the pane and the log then show.

import { controllerKindInfo, isControllerKind } from '../core/controller.js';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { historyHtmlChunks } from '../render/history-html/document.js';
import type { HistoryRow, WatchFeed } from '../services/watch/contract.js';

/** `history-rs-shop-web-20261127T104500Z.html`: the controller and when (UTC), safe as a file name. */
export function historyPageName(key: string, nowMs: number): string {
  const [kind, namespace, name] = key.split('/');
  const short = isControllerKind(kind) ? controllerKindInfo(kind).shortName : kind.toLowerCase();
  const stamp = new Date(nowMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `history-${short}-${namespace}-${name}-${stamp}.html`.replace(/[^\w.-]/g, '_');
}

export interface HistoryPageWriter {
  feed: Pick<WatchFeed, 'historyDocument'>;
  /** The page's script (loaded by the command: src/services/history-page.ts). */
  pageScript: () => Promise<string>;
  /** Where the file goes (default: the current directory). */
  dir?: string;
  /** How many rows the pane keeps per controller (said in the page's coverage). */
  kept: number;
}

/** Writes the page of `rows` (the controller `key`'s, oldest first); resolves to its path. */
export async function writeHistoryPage(w: HistoryPageWriter, key: string, rows: readonly HistoryRow[], nowMs: number): Promise<string> {
  if (!w.feed.historyDocument) throw new Error('this watch has no live history (a snapshot file)');
  const missing = ['the writes before the watch started', `the writes of this controller before its last ${w.kept}, which the history pane does not keep`];
  const doc = w.feed.historyDocument(
    rows.map((r) => r.event),
    missing,
  );
  const file = resolve(w.dir ?? process.cwd(), historyPageName(key, nowMs));
  const script = await w.pageScript();
  await writeFile(file, [...historyHtmlChunks(doc, { script })].join(''));
  return file;
}
