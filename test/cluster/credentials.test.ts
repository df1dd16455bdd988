// Credentials handled as kubectl (client-go) handles them, through real HTTP(S) and client-node:
// none over plain http, no unverified TLS with a CA, exec plugins whose output never reaches an
// error, client certificates checked before any request.
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { ClusterError } from '../../src/cluster/errors.js';
import { connect, type ConnectOptions } from '../../src/cluster/kubeconfig.js';
import { getServerVersion, readCluster } from '../../src/cluster/read.js';
import { recordedServers, tempDir, writeFile, writeKubeconfig } from './helpers.js';
import { TEST_TOKEN, tlsFile, type RecordedServer } from './recorded-server.js';

const serve = recordedServers();

/** A fake secret the tests look for in every message. */
const SECRET = 'sekret-token-0123456789abcdef';
const V1 = 'client.authentication.k8s.io/v1';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';

function kubeconfig(server: string, user: object, cluster: object = {}): string {
  return writeKubeconfig(tempDir(), 'config', {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server, ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  });
}

const caData = (server: RecordedServer) => ({ 'certificate-authority-data': server.caData });

/** An executable exec plugin: a node script (absolute interpreter path: the test env has no PATH). */
function plugin(body: string, name = 'plugin'): string {
  const file = path.join(tempDir(), name);
  fs.writeFileSync(file, `#!${process.execPath}\n${body}\n`, { mode: 0o755 });
  return file;
}

/** A plugin printing this ExecCredential (or text) on stdout. */
function printing(output: unknown, extra = ''): string {
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  return plugin(`${extra}\nprocess.stdout.write(${JSON.stringify(text)});`);
}

const credential = (status: object, apiVersion = V1) => ({ apiVersion, kind: 'ExecCredential', status });

function execUser(
  command: string,
  o: { apiVersion?: string; args?: string[]; env?: object[]; interactiveMode?: string; provideClusterInfo?: boolean; installHint?: string } = {},
): object {
  return { exec: { apiVersion: o.apiVersion ?? V1, command, interactiveMode: o.interactiveMode ?? 'Never', ...o } };
}

interface Captured {
  options: ConnectOptions;
  stderr: () => string;
}

function capture(now?: () => number): Captured {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return {
    options: { execIO: { stderr: stream, stdinIsTTY: false, ...(now ? { now } : {}) } },
    stderr: () => Buffer.concat(chunks).toString('utf8'),
  };
}

async function clusterFailure(promise: Promise<unknown>): Promise<ClusterError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ClusterError);
    expect((err as Error).message).not.toContain('\n');
    return err as ClusterError;
  }
  throw new Error('expected a ClusterError');
}

function thrown(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).not.toContain('\n');
    return err as UserError;
  }
  throw new Error('expected a UserError');
}

describe('plain http: no credential is sent (clientcmd reads auth info only for TLS)', () => {
  it('a token user reaches an http server anonymously; the same kubeconfig over https sends the token', async () => {
    const plain = await serve({ tls: false, token: null });
    const read = await readCluster(connect({ kubeconfig: kubeconfig(plain.url, { token: SECRET }) }, {}), { namespace: 'payments' });
    expect(read.snapshot.pods).toHaveLength(4);
    expect(plain.requests.length).toBeGreaterThan(1);
    for (const r of plain.requests) {
      expect(r.headers.authorization).toBeUndefined();
      expect(JSON.stringify(r.rawHeaders)).not.toContain(SECRET);
    }

    const tls = await serve({ token: SECRET });
    await readCluster(connect({ kubeconfig: kubeconfig(tls.url, { token: SECRET }, caData(tls)) }, {}), { namespace: 'payments' });
    expect(tls.requests.every((r) => r.headers.authorization === `Bearer ${SECRET}`)).toBe(true);
  });

  it('nor basic auth, nor a token-file, nor an exec plugin (never run)', async () => {
    const plain = await serve({ tls: false, token: null });
    const dir = tempDir();
    const ran = path.join(dir, 'ran');
    const execPlugin = plugin(
      `require('node:fs').writeFileSync(${JSON.stringify(ran)}, 'x'); process.stdout.write(${JSON.stringify(JSON.stringify(credential({ token: SECRET })))});`,
    );
    const tokenFile = writeFile(dir, 'token', SECRET);
    for (const user of [{ username: 'admin', password: SECRET }, { 'token-file': tokenFile }, execUser(execPlugin)]) {
      const conn = connect({ kubeconfig: kubeconfig(plain.url, user) }, {}, capture().options);
      expect(await getServerVersion(conn)).toMatchObject({ major: '1' });
    }
    expect(plain.requests).toHaveLength(3);
    expect(plain.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(fs.existsSync(ran)).toBe(false);
  });

  it('impersonation is not a credential: it is sent over http too, as kubectl does', async () => {
    const plain = await serve({ tls: false, token: null });
    const conn = connect({ kubeconfig: kubeconfig(plain.url, { token: SECRET, as: 'jane' }) }, {});
    await getServerVersion(conn);
    expect(plain.requests[0].headers['impersonate-user']).toBe('jane');
    expect(plain.requests[0].headers.authorization).toBeUndefined();
  });
});

describe('insecure-skip-tls-verify with a CA', () => {
  it("is refused with client-go's words, naming the cluster, before any request", async () => {
    const server = await serve();
    for (const ca of [{ 'certificate-authority': tlsFile('ca.crt') }, caData(server)]) {
      const file = kubeconfig(server.url, { token: TEST_TOKEN }, { ...ca, 'insecure-skip-tls-verify': true });
      const err = thrown(() => connect({ kubeconfig: file }, {}));
      expect(err.message).toBe(
        `cluster "c": specifying a root certificates file with the insecure flag is not allowed (insecure-skip-tls-verify is set together with ${Object.keys(ca)[0]})`,
      );
    }
    expect(server.requests).toHaveLength(0);
  });

  it('insecure-skip-tls-verify alone still skips verification (kubectl allows it)', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfig(server.url, { token: TEST_TOKEN }, { 'insecure-skip-tls-verify': true }) }, {});
    expect(await getServerVersion(conn)).toMatchObject({ major: '1' });
  });
});

describe('exec credential plugins', () => {
  it("a v1 plugin's token is sent; the plugin runs once for many requests, gets KUBERNETES_EXEC_INFO, args and env", async () => {
    const server = await serve();
    const dir = tempDir();
    const log = path.join(dir, 'runs.log');
    const command = plugin(
      [
        `const fs = require('node:fs');`,
        `fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ info: JSON.parse(process.env.KUBERNETES_EXEC_INFO), args: process.argv.slice(2), extra: process.env.EXTRA }) + '\\n');`,
        `process.stderr.write('plugin says hello\\n');`,
        // like kubelogin: answer in the version KUBERNETES_EXEC_INFO asks for
        `const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);`,
        `process.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status: { token: ${JSON.stringify(TEST_TOKEN)} } }));`,
      ].join('\n'),
    );
    const io = capture();
    const file = kubeconfig(
      server.url,
      execUser(command, { args: ['get-token', '--cluster=c'], env: [{ name: 'EXTRA', value: 'on' }], provideClusterInfo: true }),
      caData(server),
    );
    const conn = connect({ kubeconfig: file }, {}, io.options);
    const read = await readCluster(conn, { namespace: 'shop' });
    expect(read.snapshot.pods).toHaveLength(13);
    expect(server.requests.length).toBeGreaterThan(3);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${TEST_TOKEN}`)).toBe(true);

    const runs = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toEqual({
      info: {
        kind: 'ExecCredential',
        apiVersion: V1,
        spec: { interactive: false, cluster: { server: server.url, 'certificate-authority-data': server.caData } },
      },
      args: ['get-token', '--cluster=c'],
      extra: 'on',
    });
    // client-go hands the plugin's stderr to the user's
    expect(io.stderr()).toBe('plugin says hello\n');
  });

  it('v1beta1 without interactiveMode defaults to IfAvailable; the cluster is told only with provideClusterInfo', async () => {
    const server = await serve();
    const log = path.join(tempDir(), 'info');
    const command = plugin(
      `require('node:fs').writeFileSync(${JSON.stringify(log)}, process.env.KUBERNETES_EXEC_INFO);\nprocess.stdout.write(${JSON.stringify(JSON.stringify(credential({ token: TEST_TOKEN }, V1BETA1)))});`,
    );
    const file = kubeconfig(server.url, { exec: { apiVersion: V1BETA1, command } }, caData(server));
    await getServerVersion(connect({ kubeconfig: file }, {}, capture().options));
    expect(JSON.parse(fs.readFileSync(log, 'utf8'))).toEqual({ kind: 'ExecCredential', apiVersion: V1BETA1, spec: { interactive: false } });
  });

  // What the plugin prints | what the user is told. SECRET is in every output and in no message.
  const broken: [string, string, string][] = [
    ['not JSON, a token in it', `oops ${SECRET} {"token":`, 'exec plugin "CMD": decoding stdout: the output is not a JSON object'],
    ['a JSON string', JSON.stringify(SECRET), 'exec plugin "CMD": decoding stdout: the output is not a JSON object'],
    [
      'another kind',
      JSON.stringify({ apiVersion: V1, kind: 'Secret', status: { token: SECRET } }),
      'exec plugin "CMD": decoding stdout: the object\'s kind is not ExecCredential',
    ],
    [
      'the kind is the secret',
      JSON.stringify({ apiVersion: V1, kind: SECRET, status: { token: SECRET } }),
      'exec plugin "CMD": decoding stdout: the object\'s kind is not ExecCredential',
    ],
    [
      'another apiVersion',
      JSON.stringify(credential({ token: SECRET }, V1BETA1)),
      `exec plugin "CMD" is configured to use API version ${V1}, plugin returned version ${V1BETA1}`,
    ],
    [
      'no apiVersion',
      JSON.stringify({ kind: 'ExecCredential', status: { token: SECRET } }),
      `exec plugin "CMD" is configured to use API version ${V1}, plugin returned version (none)`,
    ],
    [
      'the apiVersion is the secret',
      JSON.stringify({ apiVersion: SECRET, kind: 'ExecCredential', status: { token: SECRET } }),
      `exec plugin "CMD" is configured to use API version ${V1}, plugin returned version (not an API version)`,
    ],
    ['no status', JSON.stringify({ apiVersion: V1, kind: 'ExecCredential', spec: { token: SECRET } }), 'exec plugin "CMD" didn\'t return a status field'],
    ['no token', JSON.stringify(credential({ tokn: SECRET })), 'exec plugin "CMD" didn\'t return a token or cert/key pair'],
    [
      'a token that is not a string',
      JSON.stringify(credential({ token: { value: SECRET } })),
      'exec plugin "CMD": decoding stdout: status.token is not a string',
    ],
    [
      'an expired token',
      JSON.stringify(credential({ token: SECRET, expirationTimestamp: '2020-01-02T03:04:05Z' })),
      'exec plugin "CMD" returned a credential that expired at 2020-01-02T03:04:05.000Z',
    ],
    [
      'a malformed expiry',
      JSON.stringify(credential({ token: SECRET, expirationTimestamp: `soon ${SECRET}` })),
      'exec plugin "CMD": decoding stdout: status.expirationTimestamp is not an RFC 3339 time',
    ],
    [
      'a certificate without key',
      JSON.stringify(credential({ clientCertificateData: SECRET })),
      'exec plugin "CMD" returned only certificate or key, not both',
    ],
    [
      'a certificate and key that are not PEM',
      JSON.stringify(credential({ clientCertificateData: SECRET, clientKeyData: SECRET })),
      'exec plugin "CMD": failed parsing client key/certificate: not a PEM certificate and private key',
    ],
  ];

  it.each(broken)('%s: one line naming the plugin, never its output', async (_name, output, message) => {
    const server = await serve();
    const command = printing(output);
    const io = capture();
    const conn = connect({ kubeconfig: kubeconfig(server.url, execUser(command), caData(server)) }, {}, io.options);
    const err = await clusterFailure(getServerVersion(conn));
    expect(err.reason).toBe('credentials');
    expect(err.message).toBe(`cannot load the credentials of context "x": ${message.replace('CMD', command)}`);
    expect(err.message).not.toContain(SECRET);
    expect(err.stack ?? '').not.toContain(SECRET);
    expect(io.stderr()).not.toContain(SECRET);
    expect(server.requests).toHaveLength(0);
  });

  it('a plugin that fails: its exit code, never its stdout; its stderr goes to the user', async () => {
    const server = await serve();
    const command = plugin(`process.stdout.write(${JSON.stringify(SECRET)}); process.stderr.write('login required\\n'); process.exit(3);`);
    const io = capture();
    const err = await clusterFailure(getServerVersion(connect({ kubeconfig: kubeconfig(server.url, execUser(command), caData(server)) }, {}, io.options)));
    expect(err.message).toBe(`cannot load the credentials of context "x": exec: executable ${command} failed with exit code 3`);
    expect(io.stderr()).toBe('login required\n');
    expect(server.requests).toHaveLength(0);
  });

  it("a plugin that is not installed: client-go's words and the install hint, on one line", async () => {
    const server = await serve();
    const command = path.join(tempDir(), 'no-such-plugin');
    const user = execUser(command, { installHint: 'install it with:\n  brew install \u001b[1mthing\u001b[0m' });
    const err = await clusterFailure(getServerVersion(connect({ kubeconfig: kubeconfig(server.url, user, caData(server)) }, {}, capture().options)));
    expect(err.message).toBe(`cannot load the credentials of context "x": exec: executable ${command} not found (install it with: brew install [1mthing [0m)`);
  });

  it('a plugin file that is not executable', async () => {
    const server = await serve();
    const command = path.join(tempDir(), 'not-executable');
    fs.writeFileSync(command, `#!${process.execPath}\n`, { mode: 0o644 });
    const err = await clusterFailure(
      getServerVersion(connect({ kubeconfig: kubeconfig(server.url, execUser(command), caData(server)) }, {}, capture().options)),
    );
    expect(err.message).toBe(`cannot load the credentials of context "x": exec: executable ${command} cannot be run: permission denied`);
  });

  it('a plugin whose output has no end is cut off (bounded memory)', async () => {
    const server = await serve();
    const command = plugin(
      `const chunk = Buffer.alloc(65536, 'a'); const more = () => { while (process.stdout.write(chunk)); process.stdout.once('drain', more); }; more();`,
    );
    const err = await clusterFailure(
      getServerVersion(connect({ kubeconfig: kubeconfig(server.url, execUser(command), caData(server)) }, {}, capture().options)),
    );
    expect(err.message).toBe(`cannot load the credentials of context "x": exec plugin "${command}": decoding stdout: the output exceeds 1048576 bytes`);
  });

  it('a token or basic auth in the kubeconfig wins: the plugin is never run (client-go)', async () => {
    const server = await serve();
    const ran = path.join(tempDir(), 'ran');
    const command = plugin(`require('node:fs').writeFileSync(${JSON.stringify(ran)}, 'x');`);
    const conn = connect({ kubeconfig: kubeconfig(server.url, { token: TEST_TOKEN, ...execUser(command) }, caData(server)) }, {}, capture().options);
    await getServerVersion(conn);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(fs.existsSync(ran)).toBe(false);
  });

  it('runs the plugin again once the credential expires, and after a 401', async () => {
    const server = await serve();
    const dir = tempDir();
    const count = path.join(dir, 'count');
    // run n: a token valid until n o'clock; the 2nd run's token is one the server rejects
    const command = plugin(
      [
        `const fs = require('node:fs');`,
        `const n = fs.existsSync(${JSON.stringify(count)}) ? Number(fs.readFileSync(${JSON.stringify(count)}, 'utf8')) + 1 : 1;`,
        `fs.writeFileSync(${JSON.stringify(count)}, String(n));`,
        `const token = n === 2 ? 'revoked' : ${JSON.stringify(TEST_TOKEN)};`,
        `process.stdout.write(JSON.stringify({ apiVersion: '${V1}', kind: 'ExecCredential', status: { token, expirationTimestamp: '2030-01-01T0' + n + ':00:00Z' } }));`,
      ].join('\n'),
    );
    let now = Date.parse('2030-01-01T00:00:00Z');
    const io = capture(() => now);
    const conn = connect({ kubeconfig: kubeconfig(server.url, execUser(command), caData(server)) }, {}, io.options);
    await getServerVersion(conn);
    await getServerVersion(conn);
    expect(fs.readFileSync(count, 'utf8')).toBe('1');

    now = Date.parse('2030-01-01T01:00:00Z'); // expired: the next request runs the plugin
    const err = await clusterFailure(getServerVersion(conn));
    expect(err.status).toBe(401);
    expect(fs.readFileSync(count, 'utf8')).toBe('2');
    await getServerVersion(conn); // the 401 dropped the rejected credential
    expect(fs.readFileSync(count, 'utf8')).toBe('3');
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${TEST_TOKEN}`,
      `Bearer ${TEST_TOKEN}`,
      'Bearer revoked',
      `Bearer ${TEST_TOKEN}`,
    ]);
  });

  it('concurrent requests share one run of the plugin', async () => {
    const server = await serve();
    const count = path.join(tempDir(), 'count');
    const command = plugin(
      `require('node:fs').appendFileSync(${JSON.stringify(count)}, 'x');\nsetTimeout(() => process.stdout.write(${JSON.stringify(JSON.stringify(credential({ token: TEST_TOKEN })))}), 100);`,
    );
    const conn = connect({ kubeconfig: kubeconfig(server.url, execUser(command), caData(server)) }, {}, capture().options);
    await Promise.all([getServerVersion(conn), getServerVersion(conn), getServerVersion(conn)]);
    expect(fs.readFileSync(count, 'utf8')).toBe('x');
  });

  it('the exec block is checked as clientcmd checks it, before any request', () => {
    const file = (exec: object, extra: object = {}) => kubeconfig('https://127.0.0.1:1', { exec, ...extra });
    const cases: [object, string][] = [
      [{ apiVersion: V1, interactiveMode: 'Never' }, 'user "u": command must be specified for u to use exec authentication plugin'],
      [{ command: 'x', interactiveMode: 'Never' }, 'user "u": apiVersion must be specified for u to use exec authentication plugin'],
      [
        { command: 'x', apiVersion: 'client.authentication.k8s.io/v1alpha1' },
        'user "u": exec plugin: invalid apiVersion "client.authentication.k8s.io/v1alpha1"',
      ],
      [{ command: 'x', apiVersion: V1 }, 'user "u": interactiveMode must be specified for u to use exec authentication plugin'],
      [{ command: 'x', apiVersion: V1, interactiveMode: 'Sometimes' }, 'user "u": invalid interactiveMode for u: "Sometimes"'],
      [
        { command: 'x', apiVersion: V1, interactiveMode: 'Never', env: [{ value: 'v' }] },
        'user "u": env variable name must be specified for u to use exec authentication plugin',
      ],
    ];
    for (const [exec, message] of cases) expect(thrown(() => connect({ kubeconfig: file(exec) }, {})).message).toBe(message);
    expect(
      thrown(() => connect({ kubeconfig: file({ command: 'x', apiVersion: V1, interactiveMode: 'Never' }, { 'auth-provider': { name: 'oidc' } }) }, {}))
        .message,
    ).toBe('user "u": authProvider cannot be provided in combination with an exec plugin for u');
  });

  it('interactiveMode Always without a terminal is an error, and the plugin is not run', async () => {
    const server = await serve();
    const ran = path.join(tempDir(), 'ran');
    const command = plugin(`require('node:fs').writeFileSync(${JSON.stringify(ran)}, 'x');`);
    const conn = connect({ kubeconfig: kubeconfig(server.url, execUser(command, { interactiveMode: 'Always' }), caData(server)) }, {}, capture().options);
    const err = await clusterFailure(getServerVersion(conn));
    expect(err.message).toBe(
      `cannot load the credentials of context "x": exec plugin "${command}": standard input is not a terminal (interactiveMode is Always)`,
    );
    expect(fs.existsSync(ran)).toBe(false);
  });
});

describe('client certificates: one line naming the field and the user', () => {
  const cert = () => fs.readFileSync(tlsFile('server.crt'), 'utf8');
  const key = () => fs.readFileSync(tlsFile('server.key'), 'utf8');
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const otherKey = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const attempt = (user: object) => () => connect({ kubeconfig: kubeconfig('https://127.0.0.1:1', user) }, {});

  it('a matching pair from files or data is accepted; data wins over a file as in client-go', () => {
    const dir = tempDir();
    const certFile = writeFile(dir, 'u.crt', cert());
    const keyFile = writeFile(dir, 'u.key', key());
    expect(attempt({ 'client-certificate': certFile, 'client-key': keyFile })().kc.getCurrentUser()?.certFile).toBe(certFile);
    const conn = attempt({ 'client-certificate': '/nonexistent/u.crt', 'client-certificate-data': b64(cert()), 'client-key-data': b64(key()) })();
    expect(conn.kc.getCurrentUser()?.certFile).toBeFalsy();
    expect(conn.kc.getCurrentUser()?.certData).toBe(b64(cert()));
  });

  it.each([
    [
      'an unreadable certificate file',
      () => ({ 'client-certificate': '/nonexistent/u.crt', 'client-key-data': b64(key()) }),
      'user "u": cannot read client-certificate "/nonexistent/u.crt": no such file or directory',
    ],
    [
      'an unreadable key file',
      () => ({ 'client-certificate-data': b64(cert()), 'client-key': '/nonexistent/u.key' }),
      'user "u": cannot read client-key "/nonexistent/u.key": no such file or directory',
    ],
    [
      'no key at all',
      () => ({ 'client-certificate-data': b64(cert()) }),
      'user "u": client-key-data or client-key must be specified for u to use the clientCert authentication method',
    ],
    [
      'certificate data that is not PEM',
      () => ({ 'client-certificate-data': b64('hello'), 'client-key-data': b64(key()) }),
      'user "u": client-certificate-data is not a PEM certificate',
    ],
    [
      'certificate data that is not base64',
      () => ({ 'client-certificate-data': 'not base64!', 'client-key-data': b64(key()) }),
      'user "u": client-certificate-data is not valid base64',
    ],
    [
      'a key that is not PEM',
      () => ({ 'client-certificate-data': b64(cert()), 'client-key-data': b64(`${SECRET}\n`) }),
      'user "u": client-key-data is not an unencrypted PEM private key',
    ],
    [
      "a key that is not the certificate's",
      () => ({ 'client-certificate-data': b64(cert()), 'client-key-data': b64(otherKey()) }),
      'user "u": client-certificate-data and client-key-data do not match (the private key is not the certificate\'s)',
    ],
  ])('%s', (_name, user, message) => {
    const err = thrown(attempt(user()));
    expect(err.message).toBe(message);
    expect(err.message).not.toContain(SECRET);
  });

  it('a certificate file that holds no PEM is named by its path', () => {
    const dir = tempDir();
    const certFile = writeFile(dir, 'u.crt', 'garbage');
    expect(thrown(attempt({ 'client-certificate': certFile, 'client-key-data': b64(key()) })).message).toBe(
      `user "u": client-certificate "${certFile}" is not a PEM certificate`,
    );
  });
});

describe('a plain http server that asks for credentials', () => {
  it('says none were sent, rather than that they were rejected', async () => {
    const plain = await serve({ tls: false, token: SECRET });
    const err = await clusterFailure(getServerVersion(connect({ kubeconfig: kubeconfig(plain.url, { token: SECRET }) }, {})));
    expect(err.status).toBe(401);
    expect(err.message).toBe(`unauthorized: ${plain.url} asks for credentials, and those of context "x" are sent over https only (as kubectl does)`);
  });
});

describe('auth-provider', () => {
  const attempt = (provider: object) => () => connect({ kubeconfig: kubeconfig('https://127.0.0.1:1', { 'auth-provider': provider }) }, {});
  it('gcp and azure were removed from client-go (1.26): the same advice, on one line', () => {
    expect(thrown(attempt({ name: 'gcp', config: { 'cmd-path': '/bin/echo', 'access-token': SECRET } })).message).toBe(
      'user "u": The gcp auth plugin has been removed. Please use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead. See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details',
    );
    expect(thrown(attempt({ name: 'azure', config: {} })).message).toMatch(
      /^user "u": The azure auth plugin has been removed\. Please use the https:\/\/github\.com\/Azure\/kubelogin /,
    );
  });

  it('an unknown provider is an error, not an anonymous request; oidc is kept', () => {
    expect(thrown(attempt({ name: 'keystone' })).message).toBe('user "u": no Auth Provider found for name "keystone"');
    expect(attempt({ name: 'oidc', config: { 'id-token': SECRET } })().kc.getCurrentUser()?.authProvider?.name).toBe('oidc');
  });
});
