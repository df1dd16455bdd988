// ConfigMaps and Secrets (core/v1): keys validated as IsConfigMapKey, `immutable` honoured,
// Secret `type` defaulted to Opaque and `stringData` written into `data` (base64) and dropped;
// `kubectl create -f` / `apply -f` and `kubectl get` with the real columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, mergePatch, raw, startEnv, type Env } from './helpers.js';
import { headerOf, kubectlFor, rowOf, type Kubectl } from './kubectl-runner.js';

let env: Env;
let k: Kubectl;
beforeAll(async () => {
  env = await startEnv();
  k = await kubectlFor(env.sb);
});
afterAll(async () => {
  await k.close();
  await env.sb.close();
});

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('ConfigMaps', () => {
  it('discovery: configmaps in core/v1 with shortName cm', async () => {
    const r = await raw(env.sb, 'GET', '/api/v1');
    expect(r.json.resources.find((x: { name: string }) => x.name === 'configmaps')).toEqual({
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['cm'],
      storageVersionHash: 'qFsyl6wFWjQ=',
    });
  });

  it('stores data and binaryData; keys must be config keys and may not be in both', async () => {
    const cm = await env.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'app' }, data: { 'app.properties': 'a=1', MODE: 'fast' }, binaryData: { blob: b64('\u0001') } },
    });
    expect(cm.data).toEqual({ 'app.properties': 'a=1', MODE: 'fast' });
    const bad = await failure(
      env.core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: 'bad' }, data: { 'a/b': 'x', '..dots': 'y' }, binaryData: { ok: b64('z') } },
      }),
    );
    expect(bad.code).toBe(422);
    expect(bad.status.message).toBe(
      "ConfigMap \"bad\" is invalid: [data[a/b]: Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+'), data[..dots]: Invalid value: \"..dots\": must not start with '..']",
    );
    const dup = await failure(
      env.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'dup' }, data: { k: 'x' }, binaryData: { k: b64('y') } } }),
    );
    expect(dup.status.message).toBe(
      'ConfigMap "dup" is invalid: [data[k]: Invalid value: "k": duplicate of key present in binaryData, binaryData[k]: Invalid value: "k": duplicate of key present in data]',
    );
    const notString = await raw(env.sb, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'num' }, data: { n: 1 } } });
    expect([notString.status, notString.json.message]).toEqual([
      400,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    ]);
  });

  it('immutable: data and binaryData cannot change, nor can immutable be unset; metadata can', async () => {
    await env.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'frozen' }, data: { k: 'v' }, immutable: true } });
    const f = await failure(
      env.core.patchNamespacedConfigMap({ name: 'frozen', namespace: 'default', body: { data: { k: 'w' }, immutable: false } }, mergePatch()),
    );
    expect(f.status.message).toBe(
      'ConfigMap "frozen" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]',
    );
    const labelled = await env.core.patchNamespacedConfigMap(
      { name: 'frozen', namespace: 'default', body: { metadata: { labels: { a: 'b' } } } },
      mergePatch(),
    );
    expect(labelled.metadata?.labels).toEqual({ a: 'b' });
    // A mutable one changes freely.
    const app = await env.core.patchNamespacedConfigMap({ name: 'app', namespace: 'default', body: { data: { MODE: 'slow' } } }, mergePatch());
    expect(app.data?.MODE).toBe('slow');
  });
});

describe('Secrets', () => {
  it('type defaults to Opaque; stringData is written into data as base64 (winning over data) and not kept', async () => {
    const s = await env.core.createNamespacedSecret({
      namespace: 'default',
      body: { metadata: { name: 'creds' }, data: { user: b64('old'), keep: b64('k') }, stringData: { user: 'admin', pass: 'héllo' } },
    });
    expect(s.type).toBe('Opaque');
    expect(s.data).toEqual({ user: b64('admin'), keep: b64('k'), pass: b64('héllo') });
    const stored = await raw(env.sb, 'GET', '/api/v1/namespaces/default/secrets/creds');
    expect(stored.json.stringData).toBeUndefined();
    const patched = await env.core.patchNamespacedSecret({ name: 'creds', namespace: 'default', body: { stringData: { keep: 'new' } } }, mergePatch());
    expect(patched.data?.keep).toBe(b64('new'));
  });

  it('validation: data must be base64, keys config keys, typed secrets need their keys, type is immutable', async () => {
    const notB64 = await raw(env.sb, 'POST', '/api/v1/namespaces/default/secrets', { body: { metadata: { name: 'x' }, data: { k: 'not base64!' } } });
    expect([notB64.status, notB64.json.message]).toEqual([400, 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3']);
    const badKey = await failure(env.core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'y' }, stringData: { 'a b': 'x' } } }));
    expect(badKey.status.message).toMatch(
      /^Secret "y" is invalid: data\[a b\]: Invalid value: "a b": a valid config key must consist of alphanumeric characters/,
    );
    const tls = await failure(
      env.core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'c' } } }),
    );
    expect(tls.status.message).toBe('Secret "tls" is invalid: data[tls.key]: Required value');
    const retype = await failure(env.core.patchNamespacedSecret({ name: 'creds', namespace: 'default', body: { type: 'example.com/custom' } }, mergePatch()));
    expect(retype.status.message).toBe('Secret "creds" is invalid: type: Invalid value: "example.com/custom": field is immutable');
    const strict = await raw(env.sb, 'POST', '/api/v1/namespaces/default/secrets?fieldValidation=Strict', {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'z' }, spec: {} },
    });
    expect([strict.status, strict.json.message]).toEqual([
      400,
      'Secret in version "v1" cannot be handled as a Secret: strict decoding error: unknown field "spec"',
    ]);
  });

  it('immutable: data cannot change', async () => {
    await env.core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'sealed' }, stringData: { k: 'v' }, immutable: true } });
    const f = await failure(env.core.patchNamespacedSecret({ name: 'sealed', namespace: 'default', body: { stringData: { k: 'w' } } }, mergePatch()));
    expect(f.status.message).toBe('Secret "sealed" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  });
});

describe('kubectl', () => {
  it('create -f and apply -f (YAML), then get cm and get secrets with the real columns', async () => {
    const file = await k.file(
      'objs.yaml',
      `apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: "1", b: "2"}
---
apiVersion: v1
kind: Secret
metadata: {name: token}
stringData: {token: s3cr3t}
`,
    );
    const created = await k.run('create', '-f', file);
    expect([created.code, created.stderr]).toEqual([0, '']);
    expect(created.stdout).toBe('configmap/settings created\nsecret/token created\n');
    const applied = await k.run('apply', '-f', await k.file('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied}\ndata: {x: "y"}\n'));
    expect([applied.code, applied.stdout]).toEqual([0, 'configmap/applied created\n']);
    const cms = await k.run('get', 'cm');
    expect(headerOf(cms.stdout)).toEqual(['NAME', 'DATA', 'AGE']);
    expect(rowOf(cms.stdout, 'settings')?.slice(0, 2)).toEqual(['settings', '2']);
    expect(rowOf(cms.stdout, 'app')?.slice(0, 2)).toEqual(['app', '3']);
    const secrets = await k.run('get', 'secrets');
    expect(headerOf(secrets.stdout)).toEqual(['NAME', 'TYPE', 'DATA', 'AGE']);
    expect(rowOf(secrets.stdout, 'token')?.slice(0, 3)).toEqual(['token', 'Opaque', '1']);
    const value = await k.run('get', 'secret', 'token', '-o', 'jsonpath={.data.token}');
    expect(Buffer.from(value.stdout, 'base64').toString()).toBe('s3cr3t');
  });
});
