// kubectl --as: the sandbox's admin (system:masters) may act as anyone, as on a real kube-apiserver,
// and the audit file names both users (`user` and `impersonatedUser`), so that `history` names the
// user the request acted as: a test can write as the deployment controller, as a real one would.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { writeOfAuditEvent } from '../../src/history/audit-event.js';
import { kubectlFor, type Kubectl } from './kubectl-runner.js';

const DC = 'system:serviceaccount:kube-system:deployment-controller';
let sb: Sandbox;
let kubectl: Kubectl;
let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbx-as-'));
  file = join(dir, 'audit.jsonl');
  sb = await startSandbox({ auditLog: file, controllers: false });
  kubectl = await kubectlFor(sb);
});

afterAll(async () => {
  await kubectl?.close();
  await sb?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('impersonation (kubectl --as)', () => {
  it('writes as the impersonated user, audited with both users; history names the one it acted as', async () => {
    const rs = await kubectl.file(
      'rs.yaml',
      'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web, namespace: default}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n',
    );
    expect((await kubectl.run('create', '-f', rs)).code).toBe(0);
    const scaled = await kubectl.run('scale', 'rs', 'web', '-n', 'default', '--replicas=3', `--as=${DC}`);
    expect(scaled.code, scaled.stderr).toBe(0);
    await sb.close();
    const events = (await readFile(file, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const scale = events.find((e) => e.objectRef?.subresource === 'scale' && e.verb !== 'get');
    expect(scale.user.username).toBe('sandbox-admin');
    expect(scale.impersonatedUser).toEqual({ username: DC, groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] });
    expect(writeOfAuditEvent(scale)?.user).toBe(DC);
    const create = events.find((e) => e.verb === 'create' && e.objectRef?.resource === 'replicasets');
    expect(create.impersonatedUser).toBeUndefined();
    expect(writeOfAuditEvent(create)?.user).toBe('sandbox-admin');
  });
});
