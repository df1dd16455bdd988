// Which controllers a watch shows: the namespace, -l and the NAME arguments. All controllers are
// still read (overlaps and siblings need them); the scope only picks what is planned and shown.

import { basename } from 'node:path';
import { namespaceOf } from '../../core/controller.js';
import { parseSelectorString } from '../../core/selector.js';
import type { Controller } from '../../core/types.js';
import { UserError } from '../../errors.js';
import { targetMatches, type Target } from '../targets.js';

export interface WatchScope {
  /** null: every namespace (of the files, or of the cluster). */
  namespace: string | null;
  /** -l on the controllers' labels. */
  selector?: string;
  /** NAME…, deploy/NAME… arguments; empty: every controller in scope. */
  targets: Target[];
}

/** Which controllers the dashboard shows (all are still read, for overlaps and siblings). */
export function scopePredicate(scope: WatchScope): (c: Controller) => boolean {
  let sel: ((labels: Controller['metadata']['labels']) => boolean) | null = null;
  if (scope.selector !== undefined) {
    const parsed = parseSelectorString(scope.selector);
    if (!parsed.ok) throw new UserError(parsed.error);
    sel = (labels) => parsed.selector.matches(labels);
  }
  return (c) => {
    if (scope.namespace !== null && namespaceOf(c) !== scope.namespace) return false;
    if (sel && !sel(c.metadata.labels)) return false;
    if (scope.targets.length === 0) return true;
    return scope.targets.some((t) => targetMatches(t, c));
  };
}

/** The scope as the header shows it for a snapshot: `file x.yaml · namespace shop`. */
export function fileScopeText(files: string[], namespace: string | null): string {
  const name = files.length === 1 ? (files[0] === '-' ? 'stdin' : basename(files[0])) : `${files.length} files`;
  return `file ${name} · ${namespace === null ? 'all namespaces' : `namespace ${namespace}`}`;
}

/** The scope as the header shows it for a cluster. */
export function clusterScopeText(namespace: string | null): string {
  return namespace === null ? 'all namespaces' : `namespace ${namespace}`;
}
