// Protobuf request bodies against a running sandbox: the real kubectl v1.32 `create namespace`
// (which sends protobuf and has no JSON fallback), protobuf writes to resources and subresources,
// and the 415 and 400 answers.
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { protobufType } from '../../src/sandbox/protobuf/schema.js';
import { raw, rsBody, startEnv, type Env } from './helpers.js';
import { kubectlFor, type Kubectl } from './kubectl-runner.js';

let env: Env;
let runner: Kubectl;

beforeAll(async () => {
  env = await startEnv();
  runner = await kubectlFor(env.sb);
});
afterAll(async () => {
  await env.sb.close();
  await runner.close();
});

const kubectl = (...args: string[]) => runner.run(...args);

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

function pb(apiVersion: string, kind: string, type: string, obj: Record<string, unknown>): Buffer {
  const T = protobufType(type);
  const U = protobufType('runtime.Unknown');
  const unknown = U.encode(U.fromObject({ typeMeta: { apiVersion, kind }, raw: T.encode(T.fromObject(obj)).finish() })).finish();
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), unknown]);
}

/** A request with a binary body, sent the way client-go sends protobuf. */
function send(sb: Sandbox, method: string, path: string, body: Buffer, contentType = PROTOBUF): Promise<{ status: number; json: any; contentType?: string }> {
  return new Promise((resolve, reject) => {
    const headers = {
      Authorization: `Bearer ${sb.token}`,
      'Content-Type': contentType,
      Accept: `${PROTOBUF},application/json`,
      'Content-Length': String(body.length),
    };
    const req = request(`${sb.url}${path}`, { method, headers, ca: sb.ca }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text), contentType: res.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('protobuf request bodies', () => {
  it('kubectl create namespace team, then kubectl get ns team -o json shows it', async () => {
    const created = await kubectl('create', 'namespace', 'team');
    expect(created.stderr).toBe('');
    expect(created).toMatchObject({ code: 0, stdout: 'namespace/team created\n' });
    const got = await kubectl('get', 'ns', 'team', '-o', 'json');
    expect(got.code).toBe(0);
    const ns = JSON.parse(got.stdout);
    expect(ns).toMatchObject({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'team' }, status: { phase: 'Active' } });
    expect(ns.metadata.uid).toMatch(/./);
    const again = await kubectl('create', 'namespace', 'team');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('namespaces "team" already exists');
  });

  it('a Pod created in protobuf is stored as its JSON, answered in JSON', async () => {
    const r = await send(
      env.sb,
      'POST',
      '/api/v1/namespaces/default/pods',
      pb('v1', 'Pod', 'core.v1.Pod', {
        metadata: { name: 'pb-pod', labels: { app: 'pb' } },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'nginx:1.27',
              readinessProbe: { handler: { httpGet: { path: '/', port: { type: 0, intVal: 80 } } } },
              resources: { limits: { cpu: { string: '500m' } } },
            },
          ],
          volumes: [{ name: 'v', volumeSource: { emptyDir: { sizeLimit: { string: '1Gi' } } } }],
        },
      }),
    );
    expect(r.status).toBe(201);
    expect(r.contentType).toBe('application/json');
    const got = await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods/pb-pod');
    expect(got.json.metadata.labels).toEqual({ app: 'pb' });
    expect(got.json.spec.containers[0]).toMatchObject({
      name: 'c',
      image: 'nginx:1.27',
      readinessProbe: { httpGet: { path: '/', port: 80 } },
      resources: { limits: { cpu: '500m' } },
    });
    expect(got.json.spec.volumes).toEqual([{ name: 'v', emptyDir: { sizeLimit: '1Gi' } }]);
  });

  it('subresources in protobuf: PUT scale (autoscaling/v1 Scale), POST binding (v1 Binding); DELETE with DeleteOptions', async () => {
    await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody('pb-rs', 1) });
    const scaled = await send(
      env.sb,
      'PUT',
      '/apis/apps/v1/namespaces/default/replicasets/pb-rs/scale',
      pb('autoscaling/v1', 'Scale', 'autoscaling.v1.Scale', { metadata: { name: 'pb-rs' }, spec: { replicas: 4 } }),
    );
    expect(scaled.status).toBe(200);
    expect(scaled.json).toMatchObject({ kind: 'Scale', spec: { replicas: 4 } });
    expect((await env.apps.readNamespacedReplicaSet({ namespace: 'default', name: 'pb-rs' })).spec?.replicas).toBe(4);

    await raw(env.sb, 'POST', '/api/v1/namespaces/default/pods', {
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pb-bind' }, spec: { containers: [{ name: 'c', image: 'i' }] } },
    });
    const bound = await send(
      env.sb,
      'POST',
      '/api/v1/namespaces/default/pods/pb-bind/binding',
      pb('v1', 'Binding', 'core.v1.Binding', { metadata: { name: 'pb-bind' }, target: { kind: 'Node', name: 'node-9' } }),
    );
    expect(bound.status).toBe(201);
    expect((await env.core.readNamespacedPod({ namespace: 'default', name: 'pb-bind' })).spec?.nodeName).toBe('node-9');

    // dryRun in protobuf DeleteOptions: answered, nothing changed
    const dry = await send(
      env.sb,
      'DELETE',
      '/api/v1/namespaces/default/pods/pb-bind',
      pb('meta.k8s.io/v1', 'DeleteOptions', 'meta.v1.DeleteOptions', { gracePeriodSeconds: 0, dryRun: ['All'] }),
    );
    expect(dry.status).toBe(200);
    const still = await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods/pb-bind');
    expect(still.status).toBe(200);
    expect((still.json as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp).toBeUndefined();
    // a pod on a node stays until its kubelet confirms, unless DeleteOptions say gracePeriodSeconds: 0
    const deleted = await send(
      env.sb,
      'DELETE',
      '/api/v1/namespaces/default/pods/pb-bind',
      pb('meta.k8s.io/v1', 'DeleteOptions', 'meta.v1.DeleteOptions', { gracePeriodSeconds: 0 }),
    );
    expect(deleted.status).toBe(200);
    expect((await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods/pb-bind')).status).toBe(404);
  });

  it('415 Unsupported Media Type for a body the server does not decode; nothing is written', async () => {
    const r = await send(env.sb, 'POST', '/api/v1/namespaces', Buffer.from('name: other'), 'text/plain');
    expect(r.status).toBe(415);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      reason: 'UnsupportedMediaType',
      code: 415,
    });
    expect((await raw(env.sb, 'GET', '/api/v1/namespaces/other')).status).toBe(404);
  });

  it('400 BadRequest for a malformed protobuf body; nothing is written', async () => {
    const good = pb('v1', 'Namespace', 'core.v1.Namespace', { metadata: { name: 'cut' } });
    const cut = good.subarray(0, good.length - 3);
    const r = await send(env.sb, 'POST', '/api/v1/namespaces', cut);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      message: `the object provided is unrecognized (must be of type Namespace): unexpected EOF (${cut.toString('hex')})`,
    });
    expect((await raw(env.sb, 'GET', '/api/v1/namespaces/cut')).status).toBe(404);
  });
});
