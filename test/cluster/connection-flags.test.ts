// kubectl's connection flags over the kubeconfig, as clientcmd's DirectClientConfig merges its
// ConfigOverrides: each flag replaces its field of the selected context, cluster or user.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import type { ClusterKubeConfig } from '../../src/cluster/http.js';
import { connect, NO_CONFIGURATION, type Connection } from '../../src/cluster/kubeconfig.js';
import type { ConnectionFlags } from '../../src/cluster/config-overrides.js';
import { connection } from '../../src/cli/flags.js';
import { removeTempDirs, tempDir, writeFile, writeKubeconfig } from './helpers.js';
import { tlsFile } from './recorded-server.js';

afterEach(removeTempDirs);

const b64 = (file: string) => fs.readFileSync(file).toString('base64');
const caData = () => b64(tlsFile('ca.crt'));

function kubeconfig(): string {
  return writeKubeconfig(tempDir(), 'config', {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'prod', cluster: { server: 'https://prod.example.com:6443', 'certificate-authority-data': caData(), 'tls-server-name': 'api.prod' } },
      { name: 'other', cluster: { server: 'https://other.example.com' } },
    ],
    users: [
      { name: 'alice', user: { token: 'alice-token', 'client-certificate-data': b64(tlsFile('server.crt')), 'client-key-data': b64(tlsFile('server.key')) } },
      {
        name: 'robot',
        user: { 'token-file': '/nonexistent/token', exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'false', interactiveMode: 'Never' } },
      },
    ],
    contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'alice', namespace: 'shop' } }],
    'current-context': 'prod',
  });
}

const cluster = (c: Connection) => c.kc.getCurrentCluster();
const user = (c: Connection) => c.kc.getCurrentUser();
const settings = (c: Connection) => (c.kc as ClusterKubeConfig).settings;
const noSa = { serviceAccountDir: '/nonexistent', waitingNotice: null };

function thrown(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return err as UserError;
  }
  throw new Error('expected an error');
}

describe('--server, --token and --certificate-authority without any kubeconfig', () => {
  it('make a connection of their own (no kubeconfig file is needed)', () => {
    const ca = writeFile(tempDir(), 'ca.crt', fs.readFileSync(tlsFile('ca.crt'), 'utf8'));
    const conn = connect({ server: 'https://127.0.0.1:6443', token: 's3cret', certificateAuthority: ca }, { HOME: tempDir() }, noSa);
    expect(conn.server).toBe('https://127.0.0.1:6443');
    expect(conn.contextName).toBe('');
    expect(conn.namespace).toBe('default');
    expect(cluster(conn)?.caFile).toBe(ca);
    expect(user(conn)?.token).toBe('s3cret');
  });

  it('--server alone: an anonymous request, https unless the scheme says otherwise', () => {
    const conn = connect({ server: 'http://localhost:8080' }, { HOME: tempDir() }, noSa);
    expect(conn.server).toBe('http://localhost:8080');
    expect(user(conn)?.token).toBeUndefined();
  });

  it('no kubeconfig and no --server: the message says how to go on without a cluster', () => {
    const err = thrown(() => connect({}, { HOME: tempDir() }, noSa));
    expect(err.message).toBe(NO_CONFIGURATION);
    expect(err.message).toContain('-f SNAPSHOT');
    expect(err.message).toContain('sandbox');
  });

  it('a bad --server names the flag', () => {
    expect(thrown(() => connect({ server: 'ftp://x' }, { HOME: tempDir() }, noSa)).message).toBe(
      '--server has an unsupported server address "ftp://x" (only http and https)',
    );
  });
});

describe('flags over the selected context, cluster and user', () => {
  it('--server replaces the cluster server and the kubeconfig tls-server-name (clientcmd clears it with --server)', () => {
    const conn = connect({ kubeconfig: kubeconfig(), server: 'https://10.0.0.1:6443' }, {}, noSa);
    expect(conn.server).toBe('https://10.0.0.1:6443');
    expect(cluster(conn)?.tlsServerName).toBeUndefined();
    expect(cluster(conn)?.caData).toBe(caData()); // the trust is the kubeconfig's still
    expect(conn.namespace).toBe('shop');
  });

  it('--tls-server-name replaces the kubeconfig one', () => {
    expect(cluster(connect({ kubeconfig: kubeconfig(), tlsServerName: 'api.internal' }, {}, noSa))?.tlsServerName).toBe('api.internal');
    expect(cluster(connect({ kubeconfig: kubeconfig() }, {}, noSa))?.tlsServerName).toBe('api.prod');
  });

  it("--insecure-skip-tls-verify clears the kubeconfig's CA (no 'CA and insecure' refusal)", () => {
    const conn = connect({ kubeconfig: kubeconfig(), insecureSkipTlsVerify: true }, {}, noSa);
    expect(cluster(conn)?.skipTLSVerify).toBe(true);
    expect(cluster(conn)?.caData).toBeUndefined();
    expect(cluster(conn)?.caFile).toBeUndefined();
  });

  it('--certificate-authority replaces the CA data of the kubeconfig', () => {
    const ca = writeFile(tempDir(), 'ca.crt', fs.readFileSync(tlsFile('ca.crt'), 'utf8'));
    const conn = connect({ kubeconfig: kubeconfig(), certificateAuthority: ca }, {}, noSa);
    expect([cluster(conn)?.caFile, cluster(conn)?.caData, cluster(conn)?.skipTLSVerify]).toEqual([ca, undefined, false]);
  });

  it('--certificate-authority with --insecure-skip-tls-verify is refused, in kubectl words', () => {
    const ca = writeFile(tempDir(), 'ca.crt', 'x');
    const err = thrown(() => connect({ kubeconfig: kubeconfig(), certificateAuthority: ca, insecureSkipTlsVerify: true }, {}, noSa));
    expect(err.message).toMatch(/^specifying a root certificates file with the insecure flag is not allowed/);
  });

  it("--token stands in for the user's token-file and exec plugin (none is read or run)", () => {
    const conn = connect({ kubeconfig: kubeconfig(), user: 'robot', token: 'flag-token' }, {}, noSa);
    expect(user(conn)?.token).toBe('flag-token');
    expect(user(conn)?.authProvider).toBeUndefined();
    expect(user(conn)?.exec).toBeUndefined();
    // without it, the robot's unreadable token-file is an error before any request
    expect(thrown(() => connect({ kubeconfig: kubeconfig(), user: 'robot' }, {}, noSa)).message).toMatch(/token file/);
  });

  it('--token over an inline token; --user picks another user first', () => {
    const conn = connect(
      { kubeconfig: kubeconfig(), user: 'alice', token: 'flag-token', clientCertificate: tlsFile('server.crt'), clientKey: tlsFile('server.key') },
      {},
      noSa,
    );
    expect(user(conn)?.token).toBe('flag-token');
    // --client-certificate and --client-key replace the inline data (which would win otherwise)
    expect(user(conn)?.certFile).toBe(tlsFile('server.crt'));
    expect(user(conn)?.keyFile).toBe(tlsFile('server.key'));
    expect(user(conn)?.certData).toBeUndefined();
    expect(user(conn)?.keyData).toBeUndefined();
  });

  it('--username and --password: basic auth', () => {
    const conn = connect({ kubeconfig: kubeconfig(), user: 'alice', username: 'admin', password: 'pw' }, {}, noSa);
    expect([user(conn)?.username, user(conn)?.password]).toEqual(['admin', 'pw']);
  });

  it('--cluster and --context choose before the field flags apply', () => {
    const conn = connect({ kubeconfig: kubeconfig(), cluster: 'other', user: 'alice' }, {}, noSa);
    expect(conn.server).toBe('https://other.example.com');
    expect(thrown(() => connect({ kubeconfig: kubeconfig(), context: 'nope', server: 'https://x' }, {}, noSa)).message).toMatch(
      /context "nope" does not exist/,
    );
  });

  it('--as, --as-group, --as-uid impersonate; a UID or groups without a user are refused', () => {
    const conn = connect({ kubeconfig: kubeconfig(), user: 'alice', as: 'jane', asGroups: ['dev', 'ops'], asUid: '1234' }, {}, noSa);
    expect([settings(conn).impersonateUser, settings(conn).impersonateGroups, settings(conn).impersonateUid]).toEqual(['jane', ['dev', 'ops'], '1234']);
    expect(thrown(() => connect({ kubeconfig: kubeconfig(), user: 'alice', asUid: '1234' }, {}, noSa)).message).toMatch(/^--as-uid needs --as/);
  });

  it('--disable-compression: no gzip asked for', () => {
    expect(settings(connect({ kubeconfig: kubeconfig(), user: 'alice', disableCompression: true }, {}, noSa)).disableCompression).toBe(true);
    expect(settings(connect({ kubeconfig: kubeconfig(), user: 'alice' }, {}, noSa)).disableCompression).toBe(false);
  });

  it('no flag set: the kubeconfig as it is', () => {
    const conn = connect({ kubeconfig: kubeconfig(), user: 'alice' }, {}, noSa);
    expect([conn.server, user(conn)?.token, cluster(conn)?.caData]).toEqual(['https://prod.example.com:6443', 'alice-token', caData()]);
  });
});

describe('in a pod, the flags the in-cluster configuration takes', () => {
  it('--token and --server replace the service account ones', () => {
    const sa = tempDir();
    writeFile(sa, 'token', 'sa-token\n');
    const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443', HOME: tempDir() };
    const conn = connect({ token: 'flag-token' }, env, { serviceAccountDir: sa, waitingNotice: null });
    expect(conn.server).toBe('https://10.96.0.1:443');
    expect(user(conn)?.token).toBe('flag-token');
    // --server without a kubeconfig is a configuration of its own, not the pod's
    expect(connect({ server: 'https://elsewhere:6443' }, env, { serviceAccountDir: sa, waitingNotice: null }).contextName).toBe('');
  });
});

describe('the command flags → the connection options', () => {
  it('maps every kubectl connection flag', () => {
    const options: ConnectionFlags = connection({
      server: 'https://s',
      token: 't',
      'certificate-authority': 'ca',
      'insecure-skip-tls-verify': true,
      'client-certificate': 'c',
      'client-key': 'k',
      'tls-server-name': 'n',
      username: 'u',
      password: 'p',
      'as-uid': '1',
      'disable-compression': true,
    });
    expect(options).toMatchObject({
      server: 'https://s',
      token: 't',
      certificateAuthority: 'ca',
      insecureSkipTlsVerify: true,
      clientCertificate: 'c',
      clientKey: 'k',
      tlsServerName: 'n',
      username: 'u',
      password: 'p',
      asUid: '1',
      disableCompression: true,
    });
  });
});

describe('files the flags name are read before any request', () => {
  it('an unreadable --certificate-authority or --client-certificate is one line naming it', () => {
    const env = { HOME: tempDir() };
    expect(thrown(() => connect({ server: 'https://s:6443', certificateAuthority: '/nonexistent/ca.crt' }, env, noSa)).message).toBe(
      'unable to read certificate-authority /nonexistent/ca.crt for --server: no such file or directory',
    );
    expect(
      thrown(() => connect({ server: 'https://s:6443', clientCertificate: '/nonexistent/c.crt', clientKey: '/nonexistent/k.key' }, env, noSa)).message,
    ).toBe('user "(flags)": cannot read client-certificate "/nonexistent/c.crt": no such file or directory');
  });
});
