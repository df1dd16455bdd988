// The verdict on one controller write: the write (a create, a delete, an adoption or a release, a
// status) against the decision the rules take in that sync. Pure, as the replay that asks for it.

import { desiredReplicas } from '../core/controller.js';
import { writtenStatus } from '../core/status.js';
import { deletesOf, type SyncDecision } from '../core/sync-decision.js';
import { compareForDeletion } from '../core/rank.js';
import type { Behaviour } from '../core/versions.js';
import type { Sync } from './journal-state.js';
import { conditionTypes } from './write-text.js';

/** Whether the rules do the write, the reason they give for it, and the message that says so. */
export interface Verdict {
  ok: boolean;
  reason: string | null;
  message: string;
}

export function createVerdict(sync: Sync, d: SyncDecision, pod: string | null): Verdict {
  const had = d.currentReplicas;
  const wants = desiredReplicas(d.controller);
  const n = sync.creates + 1; // counted by controllerWrite once the write is explained
  const what = `created pod ${pod ?? '(name not logged)'}`;
  if (d.skip) return { ok: false, reason: null, message: `${what}, but the rules manage no replicas in this sync (${d.skip.message})` };
  if (n <= d.create.count) {
    return {
      ok: true,
      reason: 'TooFewReplicas',
      message: `${what}: replicas ${wants}, had ${had} (create ${d.create.count}${d.create.batches.length > 1 ? ` in batches ${d.create.batches.join(',')}` : ''})`,
    };
  }
  return { ok: false, reason: null, message: `${what}: create number ${n} of a sync whose rules create ${d.create.count} (replicas ${wants}, had ${had})` };
}

export function deleteVerdict(d: SyncDecision, pod: string, behaviour: Behaviour): Verdict {
  const victims = deletesOf(d);
  const v = victims.find((x) => x.name === pod);
  if (v) return { ok: true, reason: v.reason, message: `deleted pod ${pod}: ${v.message}` };
  // A kept pod that does not rank after some victim is as good a victim. Equal on every
  // criterion (a Tie): upstream's sort is not stable. Ranking before it: upstream's comparator is
  // not transitive once times fall in logarithmic buckets ordered by uid inside a bucket, and
  // Go's sort.Sort over the informer's (random) cache order may then keep either.
  const ch = d.deletion;
  const facts = ch?.sorted ? ch.ordered.find((f) => f.pod.metadata.name === pod) : undefined;
  if (facts && ch) {
    for (const x of ch.victims) {
      const c = compareForDeletion(facts, x.facts, behaviour);
      const name = x.facts.pod.metadata.name;
      if (c.criterion === null && x.reason === 'Tie') {
        const tied = victims.filter((y) => y.reason === 'Tie').map((y) => y.name);
        return {
          ok: true,
          reason: 'Tie',
          message: `deleted pod ${pod}: equal on every criterion to ${tied.join(', ')}, which the rules would delete; upstream picks any of them`,
        };
      }
      if (c.less && c.criterion !== null) {
        return {
          ok: true,
          reason: c.criterion === 'ReadyUid' || c.criterion === 'CreatedUid' ? 'UidOrder' : c.criterion,
          message: `deleted pod ${pod}: it ranks before ${name} (${c.criterion}), which the rules delete; their sort keeps ${pod} only because upstream's order is not transitive here (times in one logarithmic bucket are ordered by uid), and Go's sort over the cache order may keep either`,
        };
      }
    }
  }
  const instead =
    victims.length === 0 ? 'the rules delete no pod in this sync' : `the rules delete ${victims.map((x) => `${x.name} (${x.reason})`).join(', ')}`;
  return {
    ok: false,
    reason: null,
    message: `deleted pod ${pod}, which the rules keep: ${instead} (replicas ${desiredReplicas(d.controller)}, had ${d.currentReplicas})`,
  };
}

export function claimVerdict(d: SyncDecision, pod: string, want: 'adopt' | 'release'): Verdict {
  const claim = d.claims.find((p) => p.pod.metadata.name === pod);
  if (claim?.decision === want) return { ok: true, reason: claim.reason, message: `${want === 'adopt' ? 'adopted' : 'released'} pod ${pod}: ${claim.message}` };
  const instead = claim ? `the rules ${claim.decision} it (${claim.reason}: ${claim.message})` : 'the rules do not consider it';
  return { ok: false, reason: null, message: `${want === 'adopt' ? 'adopted' : 'released'} pod ${pod}, but ${instead}` };
}

export function statusVerdict(d: SyncDecision, written: Record<string, unknown> | undefined, retry = false): Verdict {
  // biome-ignore lint/plugin/double-assertion: PlanStatus has no index signature; its fields are read by the names in `fields`, as `written` is
  const s = writtenStatus(d.status) as unknown as Record<string, unknown>;
  const w = written ?? {};
  const text = (o: Record<string, unknown>) =>
    `replicas ${o.replicas ?? 0}, ready ${o.readyReplicas ?? 0}, available ${o.availableReplicas ?? 0}, observedGeneration ${o.observedGeneration ?? 0}`;
  // every field upstream writes, named as the API names it: a difference says which and both values
  const fields = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'];
  if (s.terminatingReplicas !== undefined || w.terminatingReplicas !== undefined) fields.push('terminatingReplicas');
  const differ: string[] = [];
  for (const f of fields) {
    const want = f === 'terminatingReplicas' && s[f] === undefined ? null : (s[f] ?? 0);
    const got = f === 'terminatingReplicas' && w[f] === undefined ? null : (w[f] ?? 0);
    if (want !== got)
      differ.push(`status.${f} ${got === null ? '(not set)' : String(got)} where the rules write ${want === null ? '(not set)' : String(want)}`);
  }
  const c0 = conditionTypes(w.conditions);
  const c1 = conditionTypes(s.conditions);
  if (c0 !== c1) differ.push(`status.conditions [${c0 || 'none'}] where the rules write [${c1 || 'none'}]`);
  if (differ.length === 0 && d.statusChanged) return { ok: true, reason: null, message: `wrote status: ${text(w)}` };
  if (differ.length === 0 && retry)
    return {
      ok: true,
      reason: null,
      message: `wrote status: ${text(w)} again, retrying after the server refused the previous write (409 Conflict): upstream writes it after a GET even when the object has it already`,
    };
  if (differ.length === 0)
    return { ok: false, reason: null, message: `wrote status ${text(w)}, which the object already had: the rules write no status in this sync` };
  return { ok: false, reason: null, message: `wrote status ${differ.join('; ')} (rules: ${text(s)})` };
}
