import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { ClusterKubeConfig } from '../../src/cluster/http.js';
import { connect, formatTimeout, parseRequestTimeout, type Connection } from '../../src/cluster/kubeconfig.js';
import { removeTempDirs, tempDir, writeFile, writeKubeconfig } from './helpers.js';
import { tlsFile } from './recorded-server.js';

afterEach(removeTempDirs);

function config(o: { clusters?: Record<string, object>; users?: Record<string, object>; contexts?: Record<string, object>; current?: string }): object {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: Object.entries(o.clusters ?? {}).map(([name, cluster]) => ({ name, cluster })),
    users: Object.entries(o.users ?? {}).map(([name, user]) => ({ name, user })),
    contexts: Object.entries(o.contexts ?? {}).map(([name, context]) => ({ name, context })),
    ...(o.current ? { 'current-context': o.current } : {}),
  };
}

const PROD = config({
  clusters: { prod: { server: 'https://prod.example.com:6443' }, staging: { server: 'https://staging.example.com' } },
  users: { alice: { token: 'alice-token' }, robot: { token: 'robot-token' } },
  contexts: { prod: { cluster: 'prod', user: 'alice', namespace: 'shop' }, bare: { cluster: 'staging', user: 'robot' } },
  current: 'prod',
});

/** What a request made through this connection would carry. */
function user(conn: Connection) {
  return conn.kc.getCurrentUser();
}

function thrown(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(2);
    expect((err as Error).message).not.toContain('\n');
    return err as UserError;
  }
  throw new Error('expected a UserError');
}

describe('connect: where the configuration comes from', () => {
  it('reads the --kubeconfig file and its current context', () => {
    const file = writeKubeconfig(tempDir(), 'config', PROD);
    const conn = connect({ kubeconfig: file }, {});
    expect(conn.contextName).toBe('prod');
    expect(conn.server).toBe('https://prod.example.com:6443');
    expect(conn.namespace).toBe('shop');
    expect(conn.requestTimeoutMs).toBeNull();
    expect(conn.kc).toBeInstanceOf(ClusterKubeConfig);
    expect(user(conn)?.token).toBe('alice-token');
  });

  it('--kubeconfig wins over KUBECONFIG and ~/.kube/config', () => {
    const dir = tempDir();
    const flagFile = writeKubeconfig(dir, 'flag.yaml', PROD);
    const envFile = writeKubeconfig(
      dir,
      'env.yaml',
      config({ clusters: { other: { server: 'https://env.example.com' } }, contexts: { other: { cluster: 'other' } }, current: 'other' }),
    );
    writeKubeconfig(
      dir,
      'home/.kube/config',
      config({ clusters: { h: { server: 'https://home.example.com' } }, contexts: { h: { cluster: 'h' } }, current: 'h' }),
    );
    const conn = connect({ kubeconfig: flagFile }, { KUBECONFIG: envFile, HOME: path.join(dir, 'home') });
    expect(conn.server).toBe('https://prod.example.com:6443');
  });

  it('merges every KUBECONFIG file: first file wins per name, missing files are skipped', () => {
    const dir = tempDir();
    const first = writeKubeconfig(
      dir,
      'a.yaml',
      config({
        clusters: { shared: { server: 'https://first.example.com' } },
        users: { jane: { token: 'first-token' } },
        contexts: { dev: { cluster: 'shared', user: 'jane', namespace: 'dev' } },
      }),
    );
    const second = writeKubeconfig(
      dir,
      'b.yaml',
      config({
        clusters: { shared: { server: 'https://second.example.com' }, ops: { server: 'https://ops.example.com' } },
        users: { jane: { token: 'second-token' }, op: { token: 'op-token' } },
        contexts: { dev: { cluster: 'ops', user: 'op' }, ops: { cluster: 'ops', user: 'op', namespace: 'infra' } },
        current: 'dev', // the first file sets no current-context: this one is used
      }),
    );
    const missing = path.join(dir, 'does-not-exist.yaml');
    const env = { KUBECONFIG: [missing, first, second].join(path.delimiter) };

    const conn = connect({}, env);
    expect(conn.contextName).toBe('dev');
    expect(conn.server).toBe('https://first.example.com');
    expect(conn.namespace).toBe('dev');
    expect(user(conn)?.token).toBe('first-token');

    const ops = connect({ context: 'ops' }, env);
    expect(ops.server).toBe('https://ops.example.com');
    expect(ops.namespace).toBe('infra');
    expect(user(ops)?.token).toBe('op-token');
  });

  it('falls back to ~/.kube/config', () => {
    const home = tempDir();
    writeKubeconfig(home, '.kube/config', PROD);
    expect(connect({}, { HOME: home }).server).toBe('https://prod.example.com:6443');
  });

  it('uses the pod service account when there is no kubeconfig', () => {
    const sa = tempDir();
    writeFile(sa, 'token', 'sa-token\n');
    writeFile(sa, 'namespace', 'shop');
    writeFile(sa, 'ca.crt', '-----BEGIN CERTIFICATE-----\n');
    const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443', HOME: tempDir() };
    const conn = connect({}, env, { serviceAccountDir: sa });
    expect(conn.contextName).toBe('in-cluster');
    expect(conn.server).toBe('https://10.96.0.1:443');
    expect(conn.namespace).toBe('shop');
    expect(conn.kc.getCurrentCluster()?.caFile).toBe(path.join(sa, 'ca.crt'));

    expect(connect({}, { ...env, POD_NAMESPACE: 'payments' }, { serviceAccountDir: sa }).namespace).toBe('payments');
    expect(connect({ namespace: 'ops' }, { ...env, POD_NAMESPACE: 'payments' }, { serviceAccountDir: sa }).namespace).toBe('ops');
    expect(connect({}, { ...env, KUBERNETES_SERVICE_HOST: 'fd00::1' }, { serviceAccountDir: sa }).server).toBe('https://[fd00::1]:443');
  });

  it('in-cluster needs host, port and a token file', () => {
    const sa = tempDir();
    const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };
    expect(thrown(() => connect({}, env, { serviceAccountDir: sa })).message).toMatch(/^no configuration has been provided/);
    writeFile(sa, 'token', 't');
    expect(thrown(() => connect({}, { KUBERNETES_SERVICE_HOST: '10.96.0.1' }, { serviceAccountDir: sa })).message).toMatch(/^no configuration/);
    expect(connect({}, env, { serviceAccountDir: sa }).namespace).toBe('default');
  });

  it('with no configuration at all, says so as kubectl does', () => {
    const err = thrown(() => connect({}, { HOME: tempDir() }, { serviceAccountDir: tempDir() }));
    expect(err.message).toMatch(/^no configuration has been provided, try setting KUBECONFIG/);
    // KUBECONFIG naming only missing files is no configuration either
    const err2 = thrown(() => connect({}, { KUBECONFIG: '/nonexistent/a:/nonexistent/b' }, { serviceAccountDir: tempDir() }));
    expect(err2.message).toMatch(/^no configuration has been provided/);
  });
});

describe('connect: choosing context, cluster, user and namespace', () => {
  const file = () => writeKubeconfig(tempDir(), 'config', PROD);

  it('a context without a namespace means "default"; -n wins over the context', () => {
    const f = file();
    expect(connect({ kubeconfig: f, context: 'bare' }, {}).namespace).toBe('default');
    expect(connect({ kubeconfig: f, namespace: 'payments' }, {}).namespace).toBe('payments');
    expect(connect({ kubeconfig: f }, {}).kc.getContextObject('prod')?.namespace).toBe('shop');
  });

  it('rejects an unknown --context in one line', () => {
    expect(thrown(() => connect({ kubeconfig: file(), context: 'nope' }, {})).message).toBe('context "nope" does not exist in the kubeconfig');
    const dangling = writeKubeconfig(tempDir(), 'c', config({ clusters: { c: { server: 'https://c' } }, contexts: { a: { cluster: 'c' } }, current: 'gone' }));
    expect(thrown(() => connect({ kubeconfig: dangling }, {})).message).toBe('context "gone" does not exist in the kubeconfig');
    // --context with no configuration at all is the same error, not an in-cluster fallback
    expect(thrown(() => connect({ context: 'x' }, { HOME: tempDir() })).message).toBe('context "x" does not exist in the kubeconfig');
  });

  it('--cluster and --user override the context', () => {
    const conn = connect({ kubeconfig: file(), cluster: 'staging', user: 'robot' }, {});
    expect(conn.contextName).toBe('prod');
    expect(conn.server).toBe('https://staging.example.com');
    expect(user(conn)?.token).toBe('robot-token');
    expect(conn.namespace).toBe('shop');
    expect(thrown(() => connect({ kubeconfig: file(), cluster: 'mars' }, {})).message).toBe('cluster "mars" does not exist in the kubeconfig');
    expect(thrown(() => connect({ kubeconfig: file(), user: 'bob' }, {})).message).toBe('user "bob" does not exist in the kubeconfig');
  });

  it('--cluster works without any context', () => {
    const f = writeKubeconfig(tempDir(), 'c', config({ clusters: { c: { server: 'https://c.example.com' } }, users: { u: { token: 't' } } }));
    const conn = connect({ kubeconfig: f, cluster: 'c', user: 'u' }, {});
    expect(conn.contextName).toBe('');
    expect(conn.server).toBe('https://c.example.com');
    expect(user(conn)?.token).toBe('t');
    expect(thrown(() => connect({ kubeconfig: f }, {})).message).toMatch(/^no context is selected: .* sets no current-context/);
  });

  it('makes relative certificate paths absolute against the kubeconfig file', () => {
    const dir = tempDir();
    writeFile(dir, 'sub/pki/u.crt', fs.readFileSync(tlsFile('server.crt'), 'utf8'));
    writeFile(dir, 'sub/pki/ca.crt', fs.readFileSync(tlsFile('ca.crt'), 'utf8'));
    const keyFile = writeFile(tempDir(), 'u.key', fs.readFileSync(tlsFile('server.key'), 'utf8'));
    const f = writeKubeconfig(
      dir,
      'sub/config',
      config({
        clusters: { c: { server: 'https://c.example.com', 'certificate-authority': 'pki/ca.crt' } },
        users: { u: { 'client-certificate': 'pki/u.crt', 'client-key': keyFile } },
        contexts: { x: { cluster: 'c', user: 'u' } },
        current: 'x',
      }),
    );
    const conn = connect({ kubeconfig: f }, {});
    expect(conn.kc.getCurrentCluster()?.caFile).toBe(path.join(dir, 'sub/pki/ca.crt'));
    expect(user(conn)?.certFile).toBe(path.join(dir, 'sub/pki/u.crt'));
    expect(user(conn)?.keyFile).toBe(keyFile);
  });

  it('lets a plain http server through (kubectl allows it; client-node alone refuses)', () => {
    const f = writeKubeconfig(
      tempDir(),
      'c',
      config({ clusters: { c: { server: 'http://127.0.0.1:8080/' } }, contexts: { x: { cluster: 'c' } }, current: 'x' }),
    );
    const conn = connect({ kubeconfig: f }, {});
    expect(conn.server).toBe('http://127.0.0.1:8080');
    expect(conn.kc.getCurrentCluster()?.skipTLSVerify).toBe(true);
  });

  it('adds a scheme to a bare host as client-go does', () => {
    const tls = writeKubeconfig(
      tempDir(),
      'c',
      config({ clusters: { c: { server: 'k8s.example.com:6443', 'insecure-skip-tls-verify': true } }, contexts: { x: { cluster: 'c' } }, current: 'x' }),
    );
    expect(connect({ kubeconfig: tls }, {}).server).toBe('https://k8s.example.com:6443');
    const plain = writeKubeconfig(tempDir(), 'c', config({ clusters: { c: { server: 'localhost:8080' } }, contexts: { x: { cluster: 'c' } }, current: 'x' }));
    expect(connect({ kubeconfig: plain }, {}).server).toBe('http://localhost:8080');
  });

  it('impersonation: flags win over the kubeconfig user, groups need a user', () => {
    const f = writeKubeconfig(
      tempDir(),
      'c',
      config({
        clusters: { c: { server: 'https://c' } },
        users: { u: { token: 't', as: 'kube-user', 'as-groups': ['viewers'] }, plain: { token: 't' } },
        contexts: { x: { cluster: 'c', user: 'u' }, y: { cluster: 'c', user: 'plain' } },
        current: 'x',
      }),
    );
    const settings = (c: Connection) => (c.kc as ClusterKubeConfig).settings;
    expect(settings(connect({ kubeconfig: f }, {}))).toMatchObject({ impersonateUser: 'kube-user', impersonateGroups: ['viewers'] });
    expect(settings(connect({ kubeconfig: f, as: 'jane', asGroups: ['dev', 'ops'] }, {}))).toMatchObject({
      impersonateUser: 'jane',
      impersonateGroups: ['dev', 'ops'],
    });
    expect(thrown(() => connect({ kubeconfig: f, context: 'y', asGroups: ['dev'] }, {})).message).toMatch(/--as-group needs --as/);
  });
});

describe('connect: broken configuration is one line naming the file', () => {
  it('malformed YAML', () => {
    const f = writeFile(tempDir(), 'config', 'apiVersion: v1\nclusters:\n- name: a\n  cluster: {server: [\n');
    const err = thrown(() => connect({ kubeconfig: f }, {}));
    expect(err.message).toMatch(new RegExp(`^error loading config file "${f}": `));
  });

  it('malformed entries and non-mapping documents', () => {
    const noName = writeKubeconfig(tempDir(), 'config', { clusters: [{ cluster: { server: 'https://x' } }] });
    expect(thrown(() => connect({ kubeconfig: noName }, {})).message).toBe(`error loading config file "${noName}": clusters[0].name is missing`);
    const scalar = writeFile(tempDir(), 'config', 'just a string\n');
    expect(thrown(() => connect({ kubeconfig: scalar }, {})).message).toMatch(/^error loading config file ".*": not a kubeconfig/);
  });

  it('a malformed file in KUBECONFIG is named too', () => {
    const dir = tempDir();
    const good = writeKubeconfig(dir, 'good', PROD);
    const bad = writeFile(dir, 'bad', 'clusters: [\n');
    expect(thrown(() => connect({}, { KUBECONFIG: `${good}${path.delimiter}${bad}` })).message).toMatch(new RegExp(`^error loading config file "${bad}"`));
  });

  it('a --kubeconfig that does not exist', () => {
    const f = path.join(tempDir(), 'nope');
    expect(thrown(() => connect({ kubeconfig: f }, {})).message).toBe(`cannot read kubeconfig "${f}": no such file or directory`);
  });

  it('an unreadable token-file', () => {
    const f = writeKubeconfig(
      tempDir(),
      'config',
      config({
        clusters: { c: { server: 'https://c' } },
        users: { u: { 'token-file': 'missing-token' } },
        contexts: { x: { cluster: 'c', user: 'u' } },
        current: 'x',
      }),
    );
    expect(thrown(() => connect({ kubeconfig: f }, {})).message).toBe(
      `user "u": cannot read token file "${path.join(path.dirname(f), 'missing-token')}": no such file or directory`,
    );
  });
});

describe('--request-timeout', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['0', null],
    ['0s', null],
    ['30', 30_000],
    ['30s', 30_000],
    ['1m', 60_000],
    ['500ms', 500],
    ['1.5s', 1_500],
    ['1h2m3.5s', 3_723_500],
    ['250us', 1],
  ])('%s → %s ms', (value, ms) => {
    expect(parseRequestTimeout(value)).toBe(ms);
  });

  it.each(['abc', '-1s', '10x', '1.2.3s', 's', '5 s'])('rejects %s', (value) => {
    expect(thrown(() => parseRequestTimeout(value)).message).toMatch(/^invalid --request-timeout/);
  });

  it('is on the connection, and formats back for messages', () => {
    const f = writeKubeconfig(tempDir(), 'config', PROD);
    expect(connect({ kubeconfig: f, requestTimeout: '200ms' }, {}).requestTimeoutMs).toBe(200);
    expect(formatTimeout(200)).toBe('200ms');
    expect(formatTimeout(30_000)).toBe('30s');
  });
});

describe('connect: YAML read as kubectl reads it (typed fields, not YAML 1.1 guesses)', () => {
  it('names like "y" and "1234" stay strings; yes/on are booleans where a boolean is expected', () => {
    const f = writeFile(
      tempDir(),
      'config',
      [
        'apiVersion: v1',
        'clusters:',
        '- name: y',
        '  cluster:',
        '    server: https://y.example.com',
        '    insecure-skip-tls-verify: yes',
        'users:',
        '- name: 1234',
        '  user:',
        '    token: abc',
        'contexts:',
        '- name: on',
        '  context:',
        '    cluster: y',
        '    user: 1234',
        '    namespace: 2024',
        'current-context: on',
        '',
      ].join('\n'),
    );
    const conn = connect({ kubeconfig: f }, {});
    expect(conn.contextName).toBe('on');
    expect(conn.namespace).toBe('2024');
    expect(conn.kc.getCurrentCluster()?.skipTLSVerify).toBe(true);
    expect(user(conn)?.token).toBe('abc');
  });

  it('a null namespace is no namespace', () => {
    const f = writeFile(
      tempDir(),
      'config',
      'clusters: [{name: c, cluster: {server: "https://c"}}]\ncontexts: [{name: x, context: {cluster: c, namespace: null}}]\ncurrent-context: x\n',
    );
    expect(connect({ kubeconfig: f }, {}).namespace).toBe('default');
  });
});

describe('impersonation on fetch-based helpers (Watch)', () => {
  it('applyToFetchOptions carries Impersonate-User and one Impersonate-Group value per group', async () => {
    const f = writeKubeconfig(tempDir(), 'config', PROD);
    const conn = connect({ kubeconfig: f, as: 'jane', asGroups: ['dev', 'ops'] }, {});
    const init = await conn.kc.applyToFetchOptions({});
    const headers = init.headers as { raw(): Record<string, string[]> };
    expect(headers.raw()['Impersonate-User']).toEqual(['jane']);
    expect(headers.raw()['Impersonate-Group']).toEqual(['dev', 'ops']);
    expect(headers.raw().Authorization).toEqual(['Bearer alice-token']);
  });
});
