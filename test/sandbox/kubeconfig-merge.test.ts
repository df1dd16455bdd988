// `sandbox` and the user's kubeconfig: its cluster, user and context (rs-reconcile-NAME) are merged
// into the file and taken out again at exit, the rest of the file untouched; a file that is not a
// kubeconfig is refused; two sandboxes never clobber each other; the default file is owner-only
// and outside the checkout.
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { UserError } from '../../src/errors.js';
import { defaultKubeconfigPath, runSandboxCli, type SandboxCliOptions } from '../../src/sandbox/cli.js';
import { itUnless } from '../skips.js';
import { waitFor } from './helpers.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-reconcile-kc-merge-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

interface Running {
  stdout: () => string;
  stderr: () => string;
  /** Aborts the sandbox and waits for it to be stopped. */
  stop: () => Promise<void>;
}

/** Starts runSandboxCli and waits for its ready line. */
async function start(o: Partial<SandboxCliOptions>): Promise<Running> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  const ac = new AbortController();
  let failed: unknown;
  const running = runSandboxCli({ nodes: 0, ...o, out, err, signal: ac.signal }).catch((e: unknown) => {
    failed = e;
  });
  await waitFor(() => failed !== undefined || stderr.includes('Ctrl-C to stop.'), 'the ready line', 30_000);
  if (failed) throw failed;
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      ac.abort();
      await running;
      if (failed) throw failed;
    },
  };
}

const USER_CONFIG = `# my clusters: keep this comment
apiVersion: v1
kind: Config
preferences:
  colors: true
clusters:
- name: prod
  cluster:
    server: https://prod.example:6443
users:
- name: me
  user:
    token: my-secret
contexts:
- name: prod
  context:
    cluster: prod
    user: me
    namespace: shop
current-context: prod
extensions:
- name: mine
  extension: {kept: yes}
`;

const mode = (f: string) => fs.statSync(f).mode & 0o777;
const load = (f: string) => parseYaml(fs.readFileSync(f, 'utf8'));
const names = (doc: any, list: string) => (doc[list] ?? []).map((x: { name: string }) => x.name);

describe('sandbox --write-kubeconfig on an existing kubeconfig', () => {
  it('merges rs-reconcile-sandbox in, makes it current, and at exit leaves the file as it was', async () => {
    const file = path.join(tempDir(), 'config');
    fs.writeFileSync(file, USER_CONFIG);
    fs.chmodSync(file, 0o640);
    const sb = await start({ kubeconfigPath: file });
    const during = load(file);
    expect(names(during, 'clusters')).toEqual(['prod', 'rs-reconcile-sandbox']);
    expect(names(during, 'users')).toEqual(['me', 'rs-reconcile-sandbox']);
    expect(names(during, 'contexts')).toEqual(['prod', 'rs-reconcile-sandbox']);
    expect(during['current-context']).toBe('rs-reconcile-sandbox');
    expect(during.preferences).toEqual({ colors: true });
    expect(during.extensions).toEqual([{ name: 'mine', extension: { kept: 'yes' } }]);
    expect(mode(file)).toBe(0o600);
    expect(sb.stdout()).toBe(`export KUBECONFIG=${file}\n`);
    expect(sb.stderr()).toContain(
      `merged the cluster, user and context rs-reconcile-sandbox into ${file} and made it current (was prod); they are taken out again when the sandbox stops\n`,
    );

    // the real client reaches the sandbox through the merged file's current context
    const kc = new KubeConfig();
    kc.loadFromFile(file);
    const nss = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(nss.items.map((n) => n.metadata?.name)).toContain('kube-system');

    await sb.stop();
    expect(fs.readFileSync(file, 'utf8')).toBe(USER_CONFIG); // byte for byte, as nothing else changed
    expect(mode(file)).toBe(0o640); // 0600 only while it held the sandbox's token
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    expect(sb.stderr().trim().split('\n').at(-1)).toBe(
      `sandbox stopped: removed its cluster, user and context rs-reconcile-sandbox from ${file} (the rest is kept; current-context: prod)`,
    );
  });

  it('re-reads the file at exit: what others added meanwhile stays, and a context the user switched to stays current', async () => {
    const file = path.join(tempDir(), 'config');
    fs.writeFileSync(file, USER_CONFIG, { mode: 0o600 });
    const sb = await start({ kubeconfigPath: file });
    const doc = load(file);
    doc.clusters.push({ name: 'staging', cluster: { server: 'https://staging.example:6443' } });
    doc.contexts.push({ name: 'staging', context: { cluster: 'staging', user: 'me' } });
    doc['current-context'] = 'staging';
    fs.writeFileSync(file, JSON.stringify(doc));
    await sb.stop();
    const left = load(file);
    expect(names(left, 'clusters')).toEqual(['prod', 'staging']);
    expect(names(left, 'users')).toEqual(['me']);
    expect(names(left, 'contexts')).toEqual(['prod', 'staging']);
    expect(left['current-context']).toBe('staging');
    expect(left.extensions).toEqual([{ name: 'mine', extension: { kept: 'yes' } }]);
  });

  it('an empty existing file is a kubeconfig: it is kept (not deleted) at exit', async () => {
    const file = path.join(tempDir(), 'config');
    fs.writeFileSync(file, '');
    const sb = await start({ kubeconfigPath: file });
    expect(load(file)['current-context']).toBe('rs-reconcile-sandbox');
    await sb.stop();
    expect(fs.readFileSync(file, 'utf8')).toBe(''); // kept, and empty again
  });

  it.each([
    ['a YAML object of another kind', 'apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n', 'kind Pod, not Config'],
    ['a list', '- a\n- b\n', 'not a map of kind Config'],
    ['not YAML', 'a: [b\n', 'not YAML or JSON'],
    ['a map of something else', 'hello: world\n', 'no kind Config, and a field "hello"'],
    ['clusters that are not a list', 'apiVersion: v1\nkind: Config\nclusters: {a: 1}\n', 'clusters is not a list'],
  ])('refuses %s with one line and writes nothing', async (_what, text, why) => {
    const dir = tempDir();
    const file = path.join(dir, 'notes.txt');
    fs.writeFileSync(file, text, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const err = await start({ kubeconfigPath: file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain(`"${file}" is not a kubeconfig (${why}`);
    expect((err as Error).message).not.toContain('\n');
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    expect(mode(file)).toBe(0o644);
    expect(fs.readdirSync(dir)).toEqual(['notes.txt']); // no lock or temporary file left
  });

  it('a symlinked kubeconfig is written through: the link stays a link', async () => {
    const dir = tempDir();
    const real = path.join(dir, 'real-config');
    const link = path.join(dir, 'config');
    fs.writeFileSync(real, USER_CONFIG, { mode: 0o600 });
    fs.symlinkSync(real, link);
    const sb = await start({ kubeconfigPath: link });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(names(load(real), 'contexts')).toEqual(['prod', 'rs-reconcile-sandbox']);
    await sb.stop();
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(load(real)).toEqual(parseYaml(USER_CONFIG));
  });
});

describe('two sandboxes, one kubeconfig', () => {
  it('the second gets rs-reconcile-sandbox-2; each takes out only its own entries', async () => {
    const file = path.join(tempDir(), 'config');
    fs.writeFileSync(file, USER_CONFIG, { mode: 0o600 });
    const first = await start({ kubeconfigPath: file });
    const second = await start({ kubeconfigPath: file });
    const both = load(file);
    expect(names(both, 'contexts')).toEqual(['prod', 'rs-reconcile-sandbox', 'rs-reconcile-sandbox-2']);
    expect(both['current-context']).toBe('rs-reconcile-sandbox-2');
    expect(second.stderr()).toContain('(was rs-reconcile-sandbox)');

    await first.stop();
    const afterFirst = load(file);
    expect(names(afterFirst, 'contexts')).toEqual(['prod', 'rs-reconcile-sandbox-2']);
    expect(names(afterFirst, 'clusters')).toEqual(['prod', 'rs-reconcile-sandbox-2']);
    expect(afterFirst['current-context']).toBe('rs-reconcile-sandbox-2'); // not the first's to change
    const kc = new KubeConfig();
    kc.loadFromFile(file);
    await kc.makeApiClient(CoreV1Api).listNamespace(); // the second still answers through it

    await second.stop();
    // the second's previous context (the first's) is gone: current-context is unset, not pointing at a dead port
    const left = load(file);
    expect(names(left, 'contexts')).toEqual(['prod']);
    expect(left['current-context']).toBeUndefined();
  });

  it('an explicit --name that a running sandbox has is refused, the file unchanged', async () => {
    const file = path.join(tempDir(), 'config');
    const first = await start({ kubeconfigPath: file, name: 'demo' });
    const during = fs.readFileSync(file, 'utf8');
    try {
      await expect(start({ kubeconfigPath: file, name: 'demo' })).rejects.toThrow(
        `the kubeconfig "${file}" already has a context rs-reconcile-demo of a running sandbox (or someone else's): choose another --name`,
      );
      expect(fs.readFileSync(file, 'utf8')).toBe(during);
    } finally {
      await first.stop();
    }
    expect(fs.existsSync(file)).toBe(false); // it made the file, and nothing else is in it
  });

  it("a killed sandbox's entry (its 127.0.0.1 port no longer answers) is replaced; someone else's entry of that name is not", async () => {
    const dir = tempDir();
    // a port that answers nothing: bound, then closed
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const deadPort = (srv.address() as { port: number }).port;
    await new Promise((r) => srv.close(r));
    const stale = path.join(dir, 'stale');
    fs.writeFileSync(
      stale,
      `apiVersion: v1\nkind: Config\nclusters: [{name: rs-reconcile-demo, cluster: {server: "https://127.0.0.1:${deadPort}"}}]\nusers: [{name: rs-reconcile-demo, user: {token: old}}]\ncontexts: [{name: rs-reconcile-demo, context: {cluster: rs-reconcile-demo, user: rs-reconcile-demo}}]\ncurrent-context: rs-reconcile-demo\n`,
    );
    const sb = await start({ kubeconfigPath: stale, name: 'demo' });
    const doc = load(stale);
    expect(names(doc, 'clusters')).toEqual(['rs-reconcile-demo']);
    expect(doc.clusters[0].cluster.server).not.toBe(`https://127.0.0.1:${deadPort}`);
    await sb.stop();

    const foreign = path.join(dir, 'foreign');
    const text = 'apiVersion: v1\nkind: Config\ncontexts: [{name: rs-reconcile-demo, context: {cluster: mine, user: mine}}]\n';
    fs.writeFileSync(foreign, text);
    await expect(start({ kubeconfigPath: foreign, name: 'demo' })).rejects.toThrow('already has a context rs-reconcile-demo');
    expect(fs.readFileSync(foreign, 'utf8')).toBe(text);
  });

  it('an invalid --name is one line', async () => {
    await expect(start({ kubeconfigPath: path.join(tempDir(), 'c'), name: 'Bad_Name' })).rejects.toThrow(/^invalid sandbox name "Bad_Name": /);
  });
});

describe('the default kubeconfig', () => {
  it('is an owner-only file in an owner-only directory outside the working directory, removed with its directory at exit', async () => {
    const runtimeDir = tempDir();
    const sb = await start({ runtimeDir });
    const file = defaultKubeconfigPath('sandbox', runtimeDir);
    expect(file).toBe(path.join(runtimeDir, 'rs-reconcile-sandbox', 'kubeconfig'));
    expect(sb.stdout()).toBe(`export KUBECONFIG=${file}\n`);
    expect(mode(file)).toBe(0o600);
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(file.startsWith(process.cwd())).toBe(false);
    // a second default sandbox gets its own name and file
    const second = await start({ runtimeDir });
    expect(second.stdout()).toBe(`export KUBECONFIG=${defaultKubeconfigPath('sandbox-2', runtimeDir)}\n`);
    await second.stop();
    await sb.stop();
    expect(fs.readdirSync(runtimeDir)).toEqual([]);
  });

  it('a directory of that name that others can enter is refused', async () => {
    const runtimeDir = tempDir();
    const dir = path.join(runtimeDir, 'rs-reconcile-sandbox');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
    await expect(start({ runtimeDir })).rejects.toThrow(`"${dir}" is not a private directory of this user`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('the kubeconfig write', () => {
  it("waits for kubectl's FILE.lock, and a lock that stays is one line naming it; the file and the lock untouched", async () => {
    const file = path.join(tempDir(), 'config');
    fs.writeFileSync(file, USER_CONFIG);
    fs.writeFileSync(`${file}.lock`, '');
    await expect(start({ kubeconfigPath: file })).rejects.toThrow(
      `the kubeconfig "${file}" is locked by ${file}.lock: another program is writing it (if none is, remove ${file}.lock)`,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(USER_CONFIG);
    expect(fs.existsSync(`${file}.lock`)).toBe(true);
  }, 30_000);

  itUnless(process.getuid?.() === 0 ? null : 'not running as root: a file of another owner cannot be made to check that its owner is kept')(
    "an existing file keeps its owner (the merged file is given the old one's uid and gid); its mode is 0600 while the sandbox runs",
    async () => {
      const file = path.join(tempDir(), 'config');
      fs.writeFileSync(file, USER_CONFIG, { mode: 0o644 });
      fs.chownSync(file, 1234, 2345);
      const sb = await start({ kubeconfigPath: file });
      const st = fs.statSync(file);
      expect([st.uid, st.gid, st.mode & 0o777]).toEqual([1234, 2345, 0o600]);
      await sb.stop();
      const after = fs.statSync(file);
      expect([after.uid, after.gid, after.mode & 0o777]).toEqual([1234, 2345, 0o644]);
    },
  );
});
