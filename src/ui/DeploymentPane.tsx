// The selected Deployment: its counts, the strategy's arithmetic, its ReplicaSets (revision, role,
// image, spec and status sizes, ready and available, what the next sync sets) and the next step
// of the deployment controller in full. Every line is one line at every width: the ReplicaSet
// table gives way in DEPLOYMENT_RS_ORDER, the sentences wrap at words, and the sections share the
// height as deploymentDetailLayout says.

import { Box } from 'ink';
import { actionWords } from '../render/deployment-diff.js';
import { sanitize, shortSeconds, truncate } from '../render/text.js';
import type { DeploymentView } from '../services/watch/contract.js';
import { nextStep, replicaSetName, TONE_COLOR } from './deployment-words.js';
import { DEPLOYMENT_RS_ORDER, deploymentDetailLayout, fitTable, type ColumnSpec, type LineItem } from './layout.js';
import { fitLineItems, len, Line, titleSegs, wrapSegs, type Seg } from './line.js';

const RS_HEADERS = ['NAME', 'REV', 'ROLE', 'IMAGE', 'DES', 'CUR', 'RDY', 'AVL', 'NEXT'] as const;

/** A ReplicaSet's cells, in RS_HEADERS' order. */
function replicaSetCells(rs: DeploymentView['replicaSets'][number]): string[] {
  return [
    replicaSetName(rs),
    rs.revision === null ? '-' : String(rs.revision),
    rs.role,
    rs.images.join(',') || '-',
    rs.desired === null ? '-' : String(rs.desired),
    String(rs.current),
    String(rs.ready),
    String(rs.available),
    rs.next === null || rs.next === rs.desired ? '-' : String(rs.next),
  ].map(sanitize);
}

/** The ReplicaSet table at `width`: its header and one line per ReplicaSet. */
export function replicaSetTable(v: DeploymentView, width: number): string[] {
  const cells = v.replicaSets.map(replicaSetCells);
  const columns: ColumnSpec[] = RS_HEADERS.map((h, i) => ({
    id: h,
    natural: Math.max(len(h), ...cells.map((r) => len(r[i]))),
    cut: h === 'NAME' ? 12 : h === 'IMAGE' ? 10 : undefined,
  }));
  const fit = fitTable(columns, DEPLOYMENT_RS_ORDER, width, { gap: 2, fixed: 2 });
  const line = (row: readonly string[]) =>
    `  ${fit.shown
      .map((id, i) => {
        const w = fit.widths.get(id) ?? 0;
        const text = truncate(row[RS_HEADERS.indexOf(id as (typeof RS_HEADERS)[number])], w);
        return i === fit.shown.length - 1 ? text : text.padEnd(w + 2);
      })
      .join('')
      .trimEnd()}`;
  return [line(RS_HEADERS), ...cells.map(line)];
}

/** The next step in full: each action with its arithmetic, the notes, the error, the requeue; or why nothing is done. */
export function stepSentences(v: DeploymentView): string[] {
  const d = v.decision;
  if (d.skip) return [`skipped (${d.skip.reason}): ${d.skip.message}`];
  const out: string[] = [];
  if (d.paused) out.push('paused: the rollout waits until the Deployment is resumed (a change of spec.replicas still resizes its ReplicaSets)');
  if (v.deadlineExceeded) {
    const c = d.status.conditions.find((x) => x.type === 'Progressing');
    out.push(`progress deadline exceeded: Progressing=False (ProgressDeadlineExceeded)${c?.message ? `: ${c.message}` : ''}`);
  }
  for (const a of d.actions) out.push(`${actionWords(a)}: ${a.message}`);
  out.push(...d.notes);
  if (d.error) out.push(`then the sync ends: ${d.error}`);
  if (d.actions.length === 0 && !d.error && !d.inSync) out.push(d.statusChanged ? 'status update only' : 'annotations only');
  if (d.requeueAfterSeconds !== null && d.requeueAfterSeconds > 0) out.push(`synced again in ${shortSeconds(d.requeueAfterSeconds)} (its progress checked)`);
  if (out.length === 0) out.push('in sync: the next sync writes nothing');
  return out;
}

/** The title: the Deployment, its strategy, then its counts (what the table also says goes first). */
function deploymentTitle(v: DeploymentView, width: number): [Seg[], Seg[]] {
  const d = v.decision;
  const step = nextStep(v);
  const always = Number.POSITIVE_INFINITY;
  const first: LineItem<Seg>[] = [
    { segs: [{ text: `Deployment ${d.namespace}/${d.name}`, bold: true }], keep: always },
    { segs: [{ text: `  ${d.strategy}${d.paused ? ', paused' : ''}`, color: d.paused ? 'cyan' : undefined }], keep: 2 },
    { segs: [{ text: '  new ', dim: true }, { text: d.newReplicaSet ?? '(created by the next sync)' }], keep: 1 },
  ];
  const s = d.status;
  const second: LineItem<Seg>[] = [];
  const kv = (k: string, value: string, keep: number) =>
    second.push({ segs: [{ text: `${second.length ? '  ' : ''}${k} `, dim: true }, { text: value }], keep });
  kv('replicas', String(v.replicas), always);
  kv('updated', String(s.updatedReplicas), 5);
  kv('ready', String(s.readyReplicas), 3);
  kv('available', String(s.availableReplicas), 4);
  kv('unavailable', String(s.unavailableReplicas), 2);
  second.push({ segs: [{ text: `  ${d.inSync ? 'in sync' : d.skip ? 'skipped' : 'acts'}`, color: TONE_COLOR[step.tone], bold: true }], keep: always });
  return [fitLineItems(first, width), fitLineItems(second, width)];
}

export interface DeploymentPaneProps {
  deployment: DeploymentView;
  rows: number;
  width: number;
}

export function DeploymentPane(p: DeploymentPaneProps) {
  const v = p.deployment;
  const step = wrapStep(v, p.width);
  const table = replicaSetTable(v, p.width);
  const layout = deploymentDetailLayout(p.rows, { step: step.length, replicaSets: table.length - 1, arithmetic: v.arithmetic.length });
  const lines: { key: string; segs: Seg[] }[] = [];
  const [t1, t2] = deploymentTitle(v, p.width);
  if (layout.title >= 1) lines.push({ key: 't1', segs: t1 });
  if (layout.title >= 2) lines.push({ key: 't2', segs: t2 });
  if (layout.arithmetic > 0) {
    lines.push({ key: 'at', segs: titleSegs('Strategy', p.width, [{ text: ` ${v.decision.strategy}`, dim: true }]) });
    v.arithmetic.slice(0, layout.arithmetic - 1).forEach((text, i) => {
      lines.push({ key: `a:${i}`, segs: [{ text: `  ${text}` }] });
    });
  }
  if (layout.replicaSets > 0) {
    lines.push({ key: 'rt', segs: titleSegs(`ReplicaSets (${v.replicaSets.length})`, p.width, [{ text: ' new first, then by revision', dim: true }]) });
    const shown = table.slice(0, layout.replicaSets - 1);
    shown.forEach((text, i) => {
      lines.push({ key: `r:${i}`, segs: [{ text, bold: i === 0 }] });
    });
  }
  if (layout.step > 0) {
    lines.push({ key: 'st', segs: titleSegs('Next step', p.width, [{ text: ' of the deployment controller', dim: true }]) });
    step.slice(0, layout.step - 1).forEach((segs, i) => {
      lines.push({ key: `s:${i}`, segs });
    });
  }
  return (
    <Box flexDirection="column" height={p.rows}>
      {lines.slice(0, p.rows).map((l) => (
        <Line key={l.key} segs={l.segs} width={p.width} />
      ))}
    </Box>
  );
}

/** The step's sentences wrapped at words under their first word, the first one in the step's colour. */
function wrapStep(v: DeploymentView, width: number): Seg[][] {
  const color = TONE_COLOR[nextStep(v).tone];
  return stepSentences(v).flatMap((text, i) => wrapSegs([{ text: `  ${text}`, color: i === 0 ? color : undefined }], width, 4));
}
