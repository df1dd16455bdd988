// cobra's `__complete` output, which the shell scripts and kubectl (for a kubectl_complete-<plugin>
// executable) read: one candidate a line, "value<TAB>description", then ":DIRECTIVE".

import type { Candidate } from './words.js';

export function formatCobra(candidates: Candidate[], directive: number): string {
  const clean = (s: string) => s.replace(/[\t\n]+/g, ' ');
  return (
    candidates.map((c) => (c.description ? `${clean(c.value)}\t${clean(c.description)}` : clean(c.value))).join('\n') +
    (candidates.length ? '\n' : '') +
    `:${directive}\n`
  );
}
