// The label rules validation and printing need (validation.IsQualifiedName, IsValidLabelValue,
// LabelSelectorAsSelector(…).String()), apart from selectors.ts so that the kinds' strategies
// (kinds/*.ts, through validation.ts and table.ts) do not import the selector code that looks
// kinds up.
import { labelValueErrors, qualifiedNameErrors } from '../core/selector.js';
import type { Obj } from './util.js';

/** The first of validation.IsQualifiedName's messages, or null. */
export function labelKeyError(key: string): string | null {
  return qualifiedNameErrors(key)[0] ?? null;
}

/** The first of validation.IsValidLabelValue's messages, or null. */
export function labelValueError(v: string): string | null {
  return labelValueErrors(v)[0] ?? null;
}

/** metav1.LabelSelectorAsSelector(sel).String(), as the Scale subresource reports it. */
export function labelSelectorString(sel: Obj | null | undefined): string {
  if (!sel) return '';
  const parts: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries((sel.matchLabels ?? {}) as Record<string, string>)) parts.push({ key: k, text: `${k}=${v}` });
  for (const e of (sel.matchExpressions ?? []) as Obj[]) {
    const vals = [...new Set((e.values ?? []) as string[])].sort().join(',');
    if (e.operator === 'In') parts.push({ key: e.key, text: `${e.key} in (${vals})` });
    else if (e.operator === 'NotIn') parts.push({ key: e.key, text: `${e.key} notin (${vals})` });
    else if (e.operator === 'Exists') parts.push({ key: e.key, text: e.key });
    else if (e.operator === 'DoesNotExist') parts.push({ key: e.key, text: `!${e.key}` });
  }
  parts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return parts.map((p) => p.text).join(',');
}
