// End to end: explain deploy/NAME --image … -o html, the rollout foreseen drawn on history's
// timeline page (examples/deployment-at-rest.yaml, namespace storefront): the page embeds every
// step of the prediction as history's events, on stdout or in --output-file as history does, for
// each prediction flag; -o html without a rollout is refused in one line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RolloutPrediction } from '../../src/core/deployment/rollout.js';
import type { PredictedHistory } from '../../src/render/history-html/prediction.js';
import { cli, ensureBuilt, example, NOW } from './cli.js';

const FILE = ['deploy/web', '-n', 'storefront', '-f', example('deployment-at-rest'), '--now', NOW];
const IMAGE = 'app=registry.example/web:1.5.0';
const DC = 'system:serviceaccount:kube-system:deployment-controller';
const RSC = 'system:serviceaccount:kube-system:replicaset-controller';

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-rollout-html-'));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function embedded(html: string): PredictedHistory {
  const blocks = [...html.matchAll(/<script type="application\/json" id="history-document">(.*?)<\/script>/gs)];
  expect(blocks).toHaveLength(1);
  return JSON.parse(blocks[0][1]);
}

function both(flags: string[]): { p: RolloutPrediction; doc: PredictedHistory; html: string } {
  const json = cli(['explain', ...FILE, ...flags, '-o', 'json']);
  expect(json.status, json.stderr).toBe(0);
  const r = cli(['explain', ...FILE, ...flags, '-o', 'html']);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return { p: JSON.parse(json.stdout), doc: embedded(r.stdout), html: r.stdout };
}

/** Every step of the prediction is on the page: a write of the controller that makes it, at its second. */
function expectEveryStep(p: RolloutPrediction, doc: PredictedHistory): void {
  const at = (s: number) => new Date(Date.parse(p.now) + s * 1000).toISOString();
  const writes = doc.events.filter((e) => e.actor.user === DC || e.actor.user === RSC);
  let i = 0;
  for (const s of p.steps) {
    if (s.controller === 'deployment') {
      expect(writes[i], `step ${JSON.stringify(s)}`).toMatchObject({
        time: at(s.at),
        actor: { user: DC, controller: false },
        verb: { create: 'create', scale: 'update', delete: 'delete' }[s.verb],
        controller: { kind: 'ReplicaSet', namespace: 'storefront', name: s.replicaSet },
        pod: null,
      });
      expect(writes[i].message).toContain(s.message);
      i++;
    } else if (s.verb === 'delete') {
      expect(writes[i], `step ${JSON.stringify(s)}`).toMatchObject({
        time: at(s.at),
        actor: { user: RSC, controller: true },
        verb: 'delete',
        controller: { name: s.replicaSet },
        pod: s.pod,
        reason: s.reason,
        message: s.message,
        predicted: true,
      });
      i++;
    } else
      for (let k = 0; k < s.pods; k++, i++)
        expect(writes[i], `step ${JSON.stringify(s)}`).toMatchObject({
          time: at(s.at),
          verb: 'create',
          reason: 'TooFewReplicas',
          controller: { name: s.replicaSet },
        });
  }
  expect(i).toBe(writes.length);
  // every write's cause goes back to the change
  for (const e of writes) expect(e.cause?.at(-1)).toMatchObject({ user: 'you', object: { kind: 'Deployment', namespace: 'storefront', name: 'web' } });
}

describe('explain deploy/NAME --image -o html (a rollout foreseen, drawn as history)', () => {
  it('embeds every step of the prediction as history’s events, with the assumptions and a title saying it is a prediction', () => {
    const { p, doc, html } = both(['--image', IMAGE, '--pod-gone-after', '2s']);
    expectEveryStep(p, doc);
    expect(doc).toMatchObject({ kind: 'PredictedHistory', source: 'prediction', kubernetesVersion: p.kubernetesVersion, from: '2026-01-01T00:00:00.000Z' });
    expect(doc.prediction).toMatchObject({
      deployment: { namespace: 'storefront', name: 'web' },
      change: `set image ${IMAGE}`,
      assumptions: { podReadyAfterSeconds: 5, podGoneAfterSeconds: 2 },
      complete: true,
    });
    expect(doc.prediction.assumes).toContain('new pods turn ready 5s after they are created; deleted pods are gone 2s after the delete');
    expect(html).toContain(`<title>predicted rollout of deploy/web -n storefront after set image ${IMAGE}: a prediction, not a record (rs-reconcile)</title>`);
    // the kubelet's final deletes the assumption puts 2s after each delete (within the 10s followed)
    const gone = doc.events.filter((e) => e.actor.user.startsWith('system:node:'));
    expect(gone.length).toBeGreaterThan(0);
    for (const g of gone) {
      const del = doc.events.find((e) => e.actor.user === RSC && e.verb === 'delete' && e.pod === g.pod)!;
      expect(Date.parse(g.time) - Date.parse(del.time)).toBe(2000);
    }
    // nothing leaves the file
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org)/);
  });

  it('every prediction flag draws its rollout: --replicas, --set-template-label, --undo', () => {
    for (const flags of [['--replicas', '6'], ['--set-template-label', 'tier=web'], ['--undo']]) {
      const { p, doc } = both(flags);
      expectEveryStep(p, doc);
      expect(doc.prediction.complete).toBe(p.complete);
    }
  });

  it('--output-file writes the same page and says so on stderr, as history does', () => {
    const file = join(dir, 'rollout.html');
    const r = cli(['explain', ...FILE, '--image', IMAGE, '-o', 'html', '--output-file', file]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^wrote ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d`));
    expect(readFileSync(file, 'utf8')).toBe(cli(['explain', ...FILE, '--image', IMAGE, '-o', 'html']).stdout);
  });

  it('-o html without a rollout to foresee is refused in one line, before anything is read or written', () => {
    const file = join(dir, 'not-written.html');
    writeFileSync(file, 'mine');
    for (const target of [['rs/web-5f6b4c8d9'], ['deploy/web'], ['pod/web-5f6b4c8d9-x2k8q']]) {
      const r = cli(['explain', ...target, '-n', 'storefront', '-f', example('deployment-at-rest'), '-o', 'html', '--output-file', file]);
      expect(r.status).toBeGreaterThan(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('-o html draws a rollout foreseen');
      expect(readFileSync(file, 'utf8')).toBe('mine');
    }
  });
});
