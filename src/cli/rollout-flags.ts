// The flags of a rollout foreseen (explain deploy/NAME --image …): the change, in kubectl's own
// words (set image, scale, rollout undo), and what the prediction assumes of the kubelet.

import { Flags } from '@oclif/core';
import type { RolloutAssumptions } from '../core/deployment/rollout.js';
import type { RolloutChange } from '../core/deployment/rollout-change.js';
import { parseDurationMs } from '../core/duration.js';
import { UserError } from '../errors.js';
import { repeatable } from './flags.js';

const DEFAULT_POD_READY_AFTER = '5s';

export const rolloutFlags = {
  image: Flags.string({
    description: 'with deploy/NAME: foresee the rollout of kubectl set image CONTAINER=IMAGE (* for every container); repeatable',
    ...repeatable,
    helpGroup: 'ROLLOUT',
  }),
  'set-template-label': Flags.string({
    description: 'with deploy/NAME: foresee the rollout of setting the pod template label KEY=VALUE; repeatable',
    ...repeatable,
    helpGroup: 'ROLLOUT',
  }),
  undo: Flags.boolean({ description: 'with deploy/NAME: foresee kubectl rollout undo (to the previous revision)', default: false, helpGroup: 'ROLLOUT' }),
  'to-revision': Flags.integer({
    description: 'with --undo: the revision to roll back to (0: the previous one)',
    min: 0,
    dependsOn: ['undo'],
    helpGroup: 'ROLLOUT',
  }),
  'pod-ready-after': Flags.string({
    description: 'the rollout assumes new pods turn ready this long after they are created (a duration such as 5s or 1m, or never)',
    default: DEFAULT_POD_READY_AFTER,
    helpGroup: 'ROLLOUT',
  }),
  'pod-gone-after': Flags.string({
    description: 'the rollout assumes deleted pods are gone this long after the delete (their termination grace)',
    default: '0s',
    helpGroup: 'ROLLOUT',
  }),
};

export interface RolloutFlagValues {
  image?: string[];
  'set-template-label'?: string[];
  undo?: boolean;
  'to-revision'?: number;
  replicas?: number;
  'pod-ready-after'?: string;
  'pod-gone-after'?: string;
}

/** KEY=VALUE pairs of a repeatable flag (each occurrence one pair, or several separated by commas). */
function pairs(flag: string, values: string[] | undefined, what: string): Record<string, string> | undefined {
  if (!values || values.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const v of values.flatMap((x) => x.split(','))) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UserError(`invalid --${flag} ${JSON.stringify(v)}: expected ${what}`);
    out[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return out;
}

/** The change the flags describe (empty when none is asked for). */
export function rolloutChange(flags: RolloutFlagValues): RolloutChange {
  const change: RolloutChange = {};
  const image = pairs('image', flags.image, 'CONTAINER=IMAGE');
  if (image) {
    for (const [c, i] of Object.entries(image)) if (i === '') throw new UserError(`invalid --image ${c}=: the image is empty`);
    change.image = image;
  }
  const labels = pairs('set-template-label', flags['set-template-label'], 'KEY=VALUE');
  if (labels) change.templateLabels = labels;
  if (flags.undo) change.undo = { toRevision: flags['to-revision'] ?? 0 };
  if (flags.replicas !== undefined) change.replicas = flags.replicas;
  return change;
}

/** Whether the command line asks for a rollout rather than one sync. */
export function isRolloutChange(change: RolloutChange): boolean {
  return change.image !== undefined || change.replicas !== undefined || change.templateLabels !== undefined || change.undo !== undefined;
}

function seconds(flag: string, text: string): number {
  const ms = parseDurationMs(text, 's');
  if (ms === null) throw new UserError(`invalid --${flag} ${JSON.stringify(text)}: expected a duration such as 5s, 1m30s or 0`);
  return ms / 1000;
}

/** What the prediction assumes of the kubelet. */
export function rolloutAssumptions(flags: RolloutFlagValues): RolloutAssumptions {
  const ready = flags['pod-ready-after'] ?? DEFAULT_POD_READY_AFTER;
  return {
    podReadyAfterSeconds: ready === 'never' ? null : seconds('pod-ready-after', ready),
    podGoneAfterSeconds: seconds('pod-gone-after', flags['pod-gone-after'] ?? '0s'),
  };
}
