// The feed tells changes and actions as values; the log pane and the plain stream read them as
// lines worded by src/render/watch-log.ts. An update that changes nothing a reader cares about
// (a resync, a resourceVersion bump) is no line at all.

import { actionText, describeAdd, describeDelete, describeUpdate } from '../render/watch-log.js';
import type { LogEntry, WatchNews } from '../services/watch/contract.js';

export function newsEntry(at: number, news: WatchNews): LogEntry | null {
  switch (news.type) {
    case 'added':
      return { at, level: 'change', text: describeAdd(news.resource, news.object) };
    case 'deleted':
      return { at, level: 'change', text: describeDelete(news.resource, news.object) };
    case 'updated': {
      const text = describeUpdate(news.resource, news.before, news.after, { status: news.status });
      return text === null ? null : { at, level: 'change', text };
    }
    case 'action':
      return { at, ...actionText(news.kind, news.key, news.outcome) };
  }
}
