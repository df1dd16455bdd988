// End to end: the built CLI on every bundled example, checking the decisions upstream makes.
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, example, EXAMPLES, NOW, ROOT, RUN_JS } from './cli.js';

beforeAll(() => ensureBuilt(), 180_000);

const planOf = (name: string, extra: string[] = []) => {
  const r = cli(['diff', '-f', example(name), '-o', 'json', '--now', NOW, ...extra]);
  expect(r.stderr.split('\n').filter((l) => l.startsWith('error'))).toEqual([]);
  return { r, plan: JSON.parse(r.stdout) };
};
const decisions = (c: any, d: string) =>
  c.pods
    .filter((p: any) => p.decision === d)
    .map((p: any) => p.name)
    .sort();

describe('drifted ReplicaSet', () => {
  it('adopts the orphan, releases the relabelled pod, creates one, rewrites the status; exit 1', () => {
    const { r, plan } = planOf('drifted-replicaset');
    expect(r.status).toBe(1);
    expect(plan.apiVersion).toBe('rs-reconcile/v1alpha1');
    expect(plan.kind).toBe('ReconcilePlan');
    expect(plan.source).toBe('file');
    expect(plan.now).toBe(NOW);
    const c = plan.controllers[0];
    expect(decisions(c, 'adopt')).toEqual(['shop-web-manual']);
    expect(decisions(c, 'release')).toEqual(['shop-web-debug']);
    expect(decisions(c, 'keep')).toEqual(['shop-web-7xk2p', 'shop-web-9mfqz', 'shop-web-c4r8t']);
    expect(c.replicas).toEqual({ desired: 5, current: 4 });
    expect(c.create).toEqual({ count: 1, batches: [1] });
    expect(c.status).toMatchObject({
      replicas: 4,
      fullyLabeledReplicas: 4,
      readyReplicas: 4,
      availableReplicas: 4,
      observedGeneration: 4,
      terminatingReplicas: 0,
    });
    expect(c.statusChanged).toBe(true);
    expect(plan.summary).toEqual({ controllers: 1, inSync: 0, adopt: 1, release: 1, create: 1, delete: 0, statusUpdates: 1 });
  });

  it('prints a table and a summary line by default', () => {
    const r = cli(['diff', '-f', example('drifted-replicaset'), '--now', NOW]);
    expect(r.status).toBe(1);
    // one namespace: no NAMESPACE column, as kubectl get; -A adds it
    expect(r.stdout).toMatch(/^KIND\s+NAME\s+DESIRED\s+CURRENT/);
    expect(r.stdout).toContain('shop-web');
    expect(r.stdout).not.toContain('\x1b[');
    expect(cli(['diff', '-f', example('drifted-replicaset'), '--now', NOW, '-A']).stdout).toMatch(/^NAMESPACE\s+KIND\s+NAME/);
  });

  it('explains each pod and the creation', () => {
    const r = cli(['explain', 'shop-web', '-f', example('drifted-replicaset'), '--now', NOW]);
    // a describe: 0 once explained, whatever the story; diff's codes only with --exit-code
    expect(r.status).toBe(0);
    expect(cli(['explain', 'shop-web', '-f', example('drifted-replicaset'), '--now', NOW, '--exit-code']).status).toBe(1);
    expect(cli(['explain', 'frontend', '-f', example('invalid-selector'), '--now', NOW, '--exit-code']).status).toBe(0);
    expect(r.stdout).toContain('shop-web-manual');
    expect(r.stdout).toMatch(/adopt/i);
    expect(r.stdout).toMatch(/release/i);
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/label tier is "debug", not "web"/);
  });

  it('-o yaml is the same document', async () => {
    const { parse } = await import('yaml');
    const y = cli(['diff', '-f', example('drifted-replicaset'), '-o', 'yaml', '--now', NOW]);
    const j = cli(['diff', '-f', example('drifted-replicaset'), '-o', 'json', '--now', NOW]);
    expect(parse(y.stdout)).toEqual(JSON.parse(j.stdout));
  });

  it('-o name lists the drifted controllers', () => {
    const r = cli(['diff', '-f', example('drifted-replicaset'), '-o', 'name', '--now', NOW]);
    expect(r.stdout.trim()).toBe('replicaset.apps/shop-web');
  });
});

describe('scale-down where ranking matters', () => {
  it('deletes in upstream order with the deciding criterion', () => {
    const { plan } = planOf('scale-down-ranking');
    const c = plan.controllers[0];
    const dels = c.delete.map((d: any) => [d.name, d.reason]);
    expect(dels.slice(0, 4)).toEqual([
      ['search-5f7c9-unsched', 'Unscheduled'],
      ['search-5f7c9-pending', 'Phase'],
      ['search-5f7c9-notready', 'NotReady'],
      ['search-5f7c9-cheap', 'LowerDeletionCost'],
    ]);
    expect(dels.slice(4).map((d: any) => d[1])).toEqual(['MoreOnSameNode', 'MoreOnSameNode']);
    expect(
      dels
        .slice(4)
        .map((d: any) => d[0])
        .sort(),
    ).toEqual(['search-5f7c9-crowd1', 'search-5f7c9-crowd2']);
    expect(c.delete[0].message).toContain('search-5f7c9-fresh (the first pod that stays)');
  });

  it('--replicas what-if: scaling to 8 removes only the unscheduled pod', () => {
    const { plan } = planOf('scale-down-ranking', ['--replicas', '8']);
    expect(plan.controllers[0].delete.map((d: any) => d.name)).toEqual(['search-5f7c9-unsched']);
    expect(plan.controllers[0].replicas.desired).toBe(8);
  });

  it('feature gates change the order: without PodDeletionCost the cheap pod is not preferred', () => {
    const { plan } = planOf('scale-down-ranking', ['--feature-gates', 'PodDeletionCost=false']);
    const names = plan.controllers[0].delete.map((d: any) => d.name);
    expect(names.slice(0, 3)).toEqual(['search-5f7c9-unsched', 'search-5f7c9-pending', 'search-5f7c9-notready']);
    expect(names).not.toContain('search-5f7c9-steady');
  });
});

describe('Deployment mid-rollout', () => {
  it('the old ReplicaSet deletes pods colocated with new ones; the new one creates and requeues', () => {
    const { plan } = planOf('deployment-rollout');
    const old = plan.controllers.find((c: any) => c.name === 'checkout-6b8d');
    const neu = plan.controllers.find((c: any) => c.name === 'checkout-9c2f');
    expect(old.delete.map((d: any) => d.name).sort()).toEqual(['checkout-6b8d-aaa11', 'checkout-6b8d-bbb22']);
    expect(old.delete.every((d: any) => d.reason === 'MoreOnSameNode')).toBe(true);
    expect(neu.create).toEqual({ count: 1, batches: [1] });
    expect(neu.status).toMatchObject({ replicas: 2, readyReplicas: 1, availableReplicas: 0 });
    expect(neu.requeueAfterSeconds).toBe(18);
  });
});

describe('overlapping selectors', () => {
  it('both ReplicaSets see the stray orphan and get a warning', () => {
    const { plan } = planOf('overlapping-selectors');
    const api = plan.controllers.find((c: any) => c.name === 'api');
    const canary = plan.controllers.find((c: any) => c.name === 'api-canary');
    expect(decisions(api, 'adopt')).toEqual(['payments-stray']);
    expect(decisions(canary, 'adopt')).toEqual(['payments-stray']);
    expect(canary.pods.find((p: any) => p.name === 'api-h2k9d')).toMatchObject({ decision: 'ignore', reason: 'OwnedByOther' });
    expect(api.warnings.map((w: any) => w.code)).toContain('OverlappingSelectors');
    // one pod, wanted by two: counted once
    expect(plan.summary.adopt).toBe(1);
    expect(api.warnings.find((w: any) => w.code === 'ContestedAdoption')).toMatchObject({
      pods: ['payments-stray'],
      controller: { kind: 'ReplicaSet', name: 'api-canary' },
    });
  });

  it('says so on stderr, one Warning: line per overlapping pair, and marks the rows', () => {
    const r = cli(['diff', '-f', example('overlapping-selectors'), '--now', NOW]);
    expect(r.status).toBe(1);
    const warnings = r.stderr.split('\n').filter((l) => l !== '');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^Warning: ReplicaSet payments\/api and ReplicaSet payments\/api-canary select the same \d+ pods? \(.*payments-stray.*\): overlapping selectors/,
    );
    expect(warnings[0]).toContain('both would adopt the orphan payments-stray: only the first to patch it adopts it');
    const [header, ...rows] = r.stdout.split('\n');
    expect(header).toMatch(/ OVERLAPS +SYNC$/);
    expect(rows.find((l) => l.startsWith('rs     api ') || /^rs +api +/.test(l))).toContain('rs/api-canary');
    expect(r.stdout).toContain('adopt 1 (1 of them is wanted by more than one controller: counted once)');
    // the same line with -o json, and for explain
    expect(cli(['diff', '-f', example('overlapping-selectors'), '--now', NOW, '-o', 'json']).stderr).toBe(r.stderr);
    expect(cli(['explain', 'api', '-n', 'payments', '-f', example('overlapping-selectors'), '--now', NOW]).stderr).toBe(r.stderr);
  });
});

describe('orphans and released pods', () => {
  it('ignores inactive, terminating and stale-uid pods with their reasons', () => {
    const { plan } = planOf('orphans-and-released');
    const c = plan.controllers[0];
    const reason = (n: string) => c.pods.find((p: any) => p.name === n);
    expect(reason('worker-done')).toMatchObject({ decision: 'ignore', reason: 'Inactive' });
    expect(reason('worker-leaving')).toMatchObject({ decision: 'ignore', reason: 'Terminating' });
    expect(reason('worker-previous')).toMatchObject({ decision: 'ignore', reason: 'OwnedByOther' });
    expect(reason('worker-c3')).toMatchObject({ decision: 'release', reason: 'OwnedNotMatching' });
    expect(reason('worker-hand-made')).toMatchObject({ decision: 'adopt', reason: 'OrphanMatching' });
    expect(c.status.terminatingReplicas).toBe(1);
    expect(c.warnings.map((w: any) => w.code)).toContain('OwnerNotFound');
  });
});

describe('ReplicationController', () => {
  it('is planned like a ReplicaSet, without terminatingReplicas', () => {
    const { plan } = planOf('replication-controller');
    const c = plan.controllers[0];
    expect(c.kind).toBe('ReplicationController');
    expect(c.delete).toEqual([expect.objectContaining({ name: 'legacy-db-zt5mw', reason: 'ReadyShorter' })]);
    expect(c.status.terminatingReplicas).toBeUndefined();
    const r = cli(['explain', 'rc/legacy-db', '-f', example('replication-controller'), '--now', NOW]);
    expect(r.stdout).toContain('ReplicationController');
  });
});

describe('invalid selector', () => {
  it('skips that controller with a warning, plans the others; it is not in sync: exit 1', () => {
    const r = cli(['diff', '-f', example('invalid-selector'), '-o', 'json', '--now', NOW]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Warning: ReplicaSet web\/broken: invalid selector: "Equals" is not a valid label selector operator/);
    const plan = JSON.parse(r.stdout);
    const broken = plan.controllers.find((c: any) => c.name === 'broken');
    expect(broken.skip.reason).toBe('InvalidSelector');
    expect(broken.statusChanged).toBe(false);
    expect(broken.inSync).toBe(false);
    expect(plan.summary.inSync).toBe(1);
    expect(plan.controllers.find((c: any) => c.name === 'frontend').inSync).toBe(true);
    const table = cli(['diff', '-f', example('invalid-selector'), '--now', NOW]);
    expect(table.status).toBe(1);
    expect(table.stdout).toContain(
      '2 controllers: 1 in sync, 0 drifted — adopt 0, release 0, create 0, delete 0, status updates 0; 1 skipped (InvalidSelector)',
    );
    expect(cli(['diff', 'frontend', '-f', example('invalid-selector'), '--now', NOW]).status).toBe(0);
  });
});

describe('directory and stdin input', () => {
  it('reads every example from the directory', () => {
    const r = cli(['diff', '-f', EXAMPLES, '-o', 'json', '--now', NOW]);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).controllers.length).toBe(16);
  });
  it('reads - from stdin', async () => {
    const { readFileSync } = await import('node:fs');
    const r = cli(['diff', '-f', '-', '-o', 'json', '--now', NOW], { input: readFileSync(example('replication-controller'), 'utf8') });
    expect(JSON.parse(r.stdout).controllers[0].name).toBe('legacy-db');
  });
});

describe('bad input', () => {
  it('a missing file: one line, exit 2, nothing on stdout', () => {
    const r = cli(['diff', '-f', 'nope.yaml']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('nope.yaml');
  });
  it('malformed YAML names file and line', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const dir = mkdtempSync('/tmp/rs-e2e-');
    writeFileSync(`${dir}/bad.yaml`, 'apiVersion: v1\nkind: List\nitems:\n  - kind: Pod\n    metadata: {name: x\n');
    const r = cli(['diff', '-f', `${dir}/bad.yaml`]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: error parsing .*bad\.yaml: invalid YAML: .* \(line \d+, column \d+\)\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
  it('an unknown controller name', () => {
    const r = cli(['explain', 'nope', '-f', example('drifted-replicaset'), '--now', NOW]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('replicasets.apps "nope" not found');
  });
  it('an invalid --now and --kube-version', () => {
    expect(cli(['diff', '-f', example('drifted-replicaset'), '--now', 'yesterday']).stderr).toContain('invalid --now');
    const r = cli(['diff', '-f', example('drifted-replicaset'), '--kube-version', '2.0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('invalid Kubernetes version');
  });
  it('no cluster configured, no -f', () => {
    const r = cli(['diff']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('versions', () => {
  it('names the emulated version; 1.34 does not write terminatingReplicas', () => {
    const { plan } = planOf('drifted-replicaset', ['--kube-version', '1.34']);
    expect(plan.kubernetesVersion).toBe('1.34');
    expect(plan.controllers[0].status.terminatingReplicas).toBeUndefined();
    expect(planOf('drifted-replicaset').plan.kubernetesVersion).toBe('1.37');
  });
});

describe('help', () => {
  it('--help lists the commands; each command has help with examples', () => {
    const r = cli(['--help']);
    expect(r.status).toBe(0);
    for (const c of ['diff', 'explain', 'reconcile', 'run', 'sandbox', 'version']) expect(r.stdout).toContain(c);
    const d = cli(['diff', '--help']);
    expect(d.status).toBe(0);
    // kubectl's layout: Examples, Options, Usage
    expect(d.stdout).toMatch(/^Examples:\n {2}# /m);
    expect(d.stdout).toMatch(/^Options:\n/m);
    expect(d.stdout).toMatch(/^Usage:\n {2}rs-reconcile diff \[NAME\.\.\.\] \[flags\]/m);
    expect(d.stdout).toContain('--kubeconfig');
  });
  it('version prints the tool, Node and the upstream behaviour', async () => {
    const { parse: parseYaml } = await import('yaml');
    const r = cli(['version', '-o', 'json']);
    const v = JSON.parse(r.stdout);
    expect(v.node).toBe(process.version);
    expect(v.controllerBehaviour.newest).toBe('1.37');
    // the same document as YAML, through the plans' emitter (the bundle once failed here)
    const y = cli(['version', '-o', 'yaml']);
    expect(y.status).toBe(0);
    expect(parseYaml(y.stdout)).toEqual(v);
  });
});

describe('a big plan', () => {
  // `diff` writes a plan in pieces (src/cli/base.ts printChunks flushes every 1 MiB of text), so
  // that a plan beyond one string's reach (V8 stops at 512 MiB) is still written whole. The
  // snapshot is scaled so that its plan takes several pieces with the generator's unique uids
  // (about 3.4 kB of plan per ReplicaSet of 10 pods: 800 of them make 2.7 MB).
  const PIECE = 1 << 20;
  const RS = 800;
  it('is written in pieces, whole (JSON and YAML), and a reader that goes away ends it quietly', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { spawn, spawnSync } = await import('node:child_process');
    const { sharedOrVendored } = await import('../contract/shared.js');
    const dir = mkdtempSync(join(tmpdir(), 'rs-big-'));
    try {
      const gen = spawnSync(process.execPath, [sharedOrVendored('tools/gen-snapshot.mjs'), '--rs', String(RS), '--pods-per-rs', '10', '--seed', '3'], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      });
      expect(gen.status).toBe(0);
      const items: any[] = JSON.parse(gen.stdout).items;
      const uids = items.map((o) => o.metadata.uid);
      expect(new Set(uids).size).toBe(uids.length); // every object its own uid: no ReplicaSet claims another's pods
      const file = join(dir, 'snap.json');
      writeFileSync(file, gen.stdout);
      const json = cli(['diff', '-f', file, '-A', '-o', 'json', '--now', NOW]);
      expect(json.status).toBe(1);
      expect(json.stdout.length).toBeGreaterThan(2 * PIECE); // three pieces or more
      const plan = JSON.parse(json.stdout);
      expect(plan.controllers).toHaveLength(RS);
      // each controller decides about its own pods only: one decision per pod (the generator's
      // random pod names can repeat within a namespace; one object per name is what a cluster has)
      const decided = plan.controllers.reduce((n: number, c: any) => n + c.pods.length, 0);
      expect(decided).toBe(new Set(items.filter((o) => o.kind === 'Pod').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).size);
      expect(json.stdout).toBe(JSON.stringify(plan, null, 2) + '\n');
      const yaml = cli(['diff', '-f', file, '-A', '-o', 'yaml', '--now', NOW]);
      const { parse } = await import('yaml');
      expect(parse(yaml.stdout)).toEqual(plan);

      const child = spawn(process.execPath, [RUN_JS, 'diff', '-f', file, '-A', '-o', 'json', '--now', NOW], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.stdout.once('data', () => child.stdout.destroy()); // like `| head -1`
      const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c)));
      expect(stderr).toBe('');
      expect(code).toBe(1); // the diff's own exit status: drift
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
