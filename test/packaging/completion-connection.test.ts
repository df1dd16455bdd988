// TAB's cluster lookups take kubectl's connection flags from the words typed so far: a command
// line that reaches the sandbox with --server, --token and --certificate-authority alone gets
// its names completed from there.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionFrom, controllerNames, liveNamespaces } from '../../src/completion/names.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-complete-conn-'));
let sb: Sandbox;
let ca: string;

beforeAll(async () => {
  const labels = { app: 'web' };
  sb = await startSandbox({
    seed: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'web', namespace: 'shop' },
        spec: { replicas: 0, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
      },
    ],
  });
  ca = join(dir, 'ca.crt');
  writeFileSync(ca, sb.ca);
}, 60_000);
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const words = (values: Record<string, string[]>) => ({ values: new Map(Object.entries(values)), positionals: [] });
const env = { HOME: '/nonexistent-home', KUBECONFIG: '/nonexistent/kubeconfig' };

describe('completion with the connection flags typed', () => {
  it('maps every flag kubectl would use', () => {
    const typed = words({
      server: ['https://a', 'https://b'],
      token: ['t'],
      'certificate-authority': ['ca.crt'],
      'insecure-skip-tls-verify': ['true'],
      'tls-server-name': ['n'],
      'client-certificate': ['c'],
      'client-key': ['k'],
      username: ['u'],
      password: ['p'],
      'as-uid': ['1'],
      'disable-compression': ['true'],
    });
    expect(connectionFrom(typed, '2s')).toMatchObject({
      server: 'https://b', // the last one wins, as for any flag
      token: 't',
      certificateAuthority: 'ca.crt',
      insecureSkipTlsVerify: true,
      tlsServerName: 'n',
      clientCertificate: 'c',
      clientKey: 'k',
      username: 'u',
      password: 'p',
      asUid: '1',
      disableCompression: true,
      requestTimeout: '2s',
    });
  });

  it('looks names up on the server the flags name, with no kubeconfig', async () => {
    const typed = words({ server: [sb.url], token: [sb.token], 'certificate-authority': [ca], namespace: ['shop'] });
    expect(await liveNamespaces(typed, { env })).toContain('shop');
    expect((await controllerNames(typed, { env })).map((c) => `${c.namespace}/${c.name}`)).toEqual(['shop/web']);
  });
});
