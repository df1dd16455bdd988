// The layout the explain views share (one controller's story, a Deployment's tree): the width
// rule, indented paragraphs, `Label: value` fields, the what-if words and the decision colours.

import type { ChalkInstance } from 'chalk';
import type { ExplainModel, ExplainPodRow } from '../core/explain-types.js';
import type { WhatIf } from '../core/plan-types.js';
import { wrap } from './text.js';

export interface ExplainOptions {
  chalk: ChalkInstance;
  /** Terminal width; defaults to 100, never less than 80. */
  width?: number;
}

const DEFAULT_WIDTH = 100;
const MIN_WIDTH = 80;

export const INDENT = '  ';
const LABEL_WIDTH = 20;

export function effectiveWidth(width: number | undefined): number {
  if (width === undefined || !Number.isFinite(width)) return DEFAULT_WIDTH;
  return Math.max(MIN_WIDTH, Math.floor(width));
}

export function title(model: { kind: string; namespace: string; name: string }): string {
  return `${model.kind} ${model.namespace}/${model.name}`;
}

/** Indented, wrapped paragraph; `style` colours every produced line. */
export function para(text: string, width: number, style?: (s: string) => string, indent = INDENT): string[] {
  return wrap(text, width, indent, indent).map((l) => (style ? indent + style(l.slice(indent.length)) : l));
}

/** `Label:   value` with the value wrapped under itself. */
export function field(label: string, value: string, width: number, chalk: ChalkInstance, style?: (s: string) => string): string[] {
  const head = INDENT + `${label}:`.padEnd(LABEL_WIDTH);
  const lines = wrap(value, width, head, ' '.repeat(head.length));
  return lines.map((l, i) => {
    const prefixLen = head.length;
    const prefix = l.slice(0, prefixLen);
    const body = l.slice(prefixLen);
    return (i === 0 ? INDENT + chalk.bold(prefix.slice(INDENT.length)) : prefix) + (style ? style(body) : body);
  });
}

// ---------------------------------------------------------------------------------------------
// What-ifs: every line they change says "as if"

/** `scaled to 1`, `at 2026-01-01T00:00:00Z`, or both: what the what-ifs pretend. */
export function asIfWords(w: WhatIf): string {
  const parts: string[] = [];
  if (w.replicas !== undefined) parts.push(`scaled to ${w.replicas}`);
  if (w.now !== undefined) parts.push(`at ${w.now}`);
  return parts.join(' and ');
}

/** `, as if scaled to 1` for a section title under a what-if; '' otherwise. */
export function asIfTitle(model: ExplainModel): string {
  return model.whatIf ? `, as if ${asIfWords(model.whatIf)}` : '';
}

export function decisionStyle(chalk: ChalkInstance, decision: ExplainPodRow['outcome']): ((s: string) => string) | undefined {
  switch (decision) {
    case 'delete':
    case 'adopt+delete':
      return chalk.bold.red;
    case 'adopt':
      return chalk.cyan;
    case 'release':
      return chalk.yellow;
    case 'ignore':
      return chalk.dim;
    case 'keep':
      return undefined;
  }
}
