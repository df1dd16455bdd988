// The list's lines for a Deployment: its own row (`deploy/web`, its counts, the strategy and the
// next step of the deployment controller), and one row per ReplicaSet under it (`└ web-7d9c5 2/2
// → 3`, revision and role, image, ready and available). Each is one line at every width: the
// items give way in the layout's keep order (DEPLOYMENT_ROW_KEEP, DEPLOYMENT_RS_ROW_KEEP).

import { truncate } from '../render/text.js';
import type { DeploymentView } from '../services/watch/contract.js';
import { DEPLOYMENT_ROW_KEEP, DEPLOYMENT_RS_ROW_KEEP, fitItems, STEP_FLOOR, type LineItem } from './layout.js';
import { len, type Seg } from './line.js';
import { deploymentCounts, deploymentName, nextStep, replicaSetName, sizesText, TONE_COLOR } from './deployment-words.js';

const ALWAYS = Number.POSITIVE_INFINITY;
/** Cursor, space, marker, space: the lead of every row. */
const LEAD = 4;
/** The shortest a ReplicaSet's name is cut to (with "…") so that its sizes stay on the line. */
const NAME_FLOOR = 8;

function marker(v: DeploymentView): Seg {
  const tone = nextStep(v).tone;
  if (tone === 'stuck') return { text: '!', color: 'red', bold: true };
  if (tone === 'acts') return { text: '*', color: 'yellow', bold: true };
  return { text: ' ' };
}

/** `> * deploy/web  2/4 updated  4 available  RollingUpdate  scale web-5f6b4c8d9 3 → 2: maxUnavailable …` */
export function deploymentRowSegs(v: DeploymentView, width: number, selected: boolean, showNamespace: boolean): Seg[] {
  const step = nextStep(v);
  const counts = deploymentCounts(v);
  const stepSeg: Seg = { text: `  ${step.text}`, color: TONE_COLOR[step.tone] };
  const items: LineItem<Seg>[] = [
    { segs: [{ text: deploymentName(v, showNamespace), bold: true }], keep: ALWAYS },
    { segs: [{ text: `  ${counts.updated}`, dim: true }], keep: DEPLOYMENT_ROW_KEEP.updated },
    { segs: [{ text: `  ${counts.available}`, dim: true }], keep: DEPLOYMENT_ROW_KEEP.available },
    { segs: [{ text: `  ${v.decision.strategy}`, dim: true }], keep: DEPLOYMENT_ROW_KEEP.strategy },
    { segs: [stepSeg], keep: ALWAYS },
  ];
  // the step counts for at most STEP_FLOOR: beyond, the line cuts it with "…" (Line)
  const widthOf = (segs: Seg[]) => segs.reduce((n, s) => n + (s === stepSeg ? Math.min(len(s.text), STEP_FLOOR) : len(s.text)), 0);
  return [{ text: selected ? '>' : ' ', bold: true }, { text: ' ' }, marker(v), { text: ' ' }, ...fitItems(items, width - LEAD, widthOf)];
}

/** `>   └ web-7d9c5b6f4  2/2 → 3  rev 2 new  1 ready 1 available  nginx:1.27` */
export function deploymentReplicaSetRowSegs(v: DeploymentView, index: number, width: number, selected: boolean): Seg[] {
  const rs = v.replicaSets[index];
  const last = index === v.replicaSets.length - 1;
  const branch = `${last ? '└' : '├'} `;
  const sizes = sizesText(rs);
  const changes = rs.next !== null && rs.next !== rs.desired;
  const sizeColor = rs.next === 'delete' ? 'red' : changes ? 'yellow' : undefined;
  // the name gives up its end before the sizes go: they are what the row is for
  const nameRoom = Math.max(NAME_FLOOR, width - LEAD - len(branch) - 2 - len(sizes));
  const items: LineItem<Seg>[] = [
    {
      segs: [
        { text: branch, dim: true },
        { text: truncate(replicaSetName(rs), nameRoom), bold: selected },
      ],
      keep: ALWAYS,
    },
    { segs: [{ text: `  ${sizes}`, color: sizeColor, bold: changes }], keep: ALWAYS },
    {
      segs: [{ text: `  ${rs.revision === null ? 'rev -' : `rev ${rs.revision}`} ${rs.role}`, dim: rs.role === 'old' }],
      keep: DEPLOYMENT_RS_ROW_KEEP.revision,
    },
    { segs: [{ text: `  ${rs.ready} ready ${rs.available} available`, dim: true }], keep: DEPLOYMENT_RS_ROW_KEEP.counts },
  ];
  if (rs.images.length) items.push({ segs: [{ text: `  ${rs.images.join(',')}`, dim: true }], keep: DEPLOYMENT_RS_ROW_KEEP.image });
  const segs = fitItems(items, width - LEAD, (x) => x.reduce((n, s) => n + len(s.text), 0));
  return [{ text: selected ? '>' : ' ', bold: true }, { text: '   ' }, ...segs];
}
