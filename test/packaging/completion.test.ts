// Shell completion: the engine (`completion __complete`), the bash and zsh scripts, the kubectl
// helper, and names from a live (sandbox) cluster.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spellings } from '../../src/commands/completion.js';
import { formatCobra } from '../../src/completion/cobra.js';
import { complete as completeWords } from '../../src/completion/engine.js';
import { controllerCandidates } from '../../src/completion/names.js';
import { analyze, type CommandSpec } from '../../src/completion/words.js';
import { kubeconfigNames } from '../../src/cluster/kubeconfig-files.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ROOT, RUN_JS, baseEnv, ensureBundle, node, tempDir } from './helpers.js';

beforeAll(() => ensureBundle(), 300_000);

const execFileP = promisify(execFile);
const commands = () => Object.values(JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')).commands) as CommandSpec[];
const EXAMPLES = join(ROOT, 'examples');

/** `completion __complete -- words…`: the candidates (values only) and the directive. */
function complete(words: string[], env: Record<string, string | undefined> = {}) {
  const r = node(RUN_JS, ['completion', '__complete', '--', ...words], env);
  const lines = r.stdout.split('\n').filter(Boolean);
  const directive = lines.pop();
  return { status: r.status, values: lines.map((l) => l.split('\t')[0]), lines, directive, stderr: r.stderr };
}

describe('the completion engine', () => {
  it('reads the words as the parser would', () => {
    const cmds = commands();
    expect(analyze([''], cmds)).toMatchObject({ kind: 'commands', prefix: '' });
    expect(analyze(['diff', '-o', ''], cmds)).toMatchObject({ kind: 'flag-value', flag: { name: 'output' } });
    expect(analyze(['diff', '-nshop', '-A', ''], cmds)).toMatchObject({
      kind: 'arg',
      context: {
        values: new Map([
          ['namespace', ['shop']],
          ['all-namespaces', ['true']],
        ]),
      },
    });
    expect(analyze(['diff', '--output=ya'], cmds)).toMatchObject({ kind: 'flag-value', prefix: 'ya', insertPrefix: '--output=' });
    // explain takes one object: after TYPE/NAME nothing; after a word that may be a TYPE, its NAME (looked up)
    expect(analyze(['explain', 'rs/web', ''], cmds)).toEqual({ kind: 'none' });
    expect(analyze(['explain', 'rs', ''], cmds)).toMatchObject({ kind: 'arg', arg: { name: 'name-of-type' } });
    expect(analyze(['explain', 'rs', 'web', ''], cmds)).toEqual({ kind: 'none' });
    expect(analyze(['diff', 'rs/a', ''], cmds)).toMatchObject({ kind: 'arg' }); // diff takes many
    expect(analyze(['diff', '--', '-x'], cmds)).toMatchObject({ kind: 'arg', prefix: '-x' });
    expect(analyze(['nosuch', ''], cmds)).toEqual({ kind: 'none' });
  });

  it('names controllers as rs/NAME and rc/NAME, or in the type being typed', () => {
    const names = [
      { kind: 'ReplicaSet' as const, name: 'web', namespace: 'a' },
      { kind: 'ReplicaSet' as const, name: 'web', namespace: 'b' },
      { kind: 'ReplicationController' as const, name: 'db', namespace: 'a' },
    ];
    expect(controllerCandidates(names, '', false, spellings)).toEqual([{ value: 'rc/db' }, { value: 'rs/web' }]);
    expect(controllerCandidates(names, 'replicaset/', true, spellings)).toEqual([{ value: 'replicaset/web', description: 'a, b' }]);
    expect(controllerCandidates(names, 'pods/', false, spellings)).toEqual([]);
  });

  it("prints cobra's format", () => {
    expect(formatCobra([{ value: 'a', description: 'x\ty' }, { value: 'b' }], 4)).toBe('a\tx y\nb\n:4\n');
    expect(formatCobra([], 0)).toBe(':0\n');
  });

  it('completes commands, flags and -o values from the manifest', () => {
    const top = complete(['']);
    expect(top.status).toBe(0);
    expect(top.directive).toBe(':4');
    expect(top.values).toEqual(
      commands()
        .filter((c) => !c.hidden)
        .map((c) => c.id)
        .sort(),
    );
    expect(top.lines).toContain('diff\tShow what the ReplicaSet controller would change: adopt, release, create, delete, status');
    expect(complete(['di']).values).toEqual(['diff']);
    expect(complete(['diff', '-o', '']).values).toEqual(['json', 'yaml', 'wide', 'name']);
    expect(complete(['diff', '--output=y']).values).toEqual(['--output=yaml']);
    expect(complete(['diff', '--no']).values).toEqual(['--no-headers', '--now']);
    expect(complete(['diff', '-o', 'json', '--ou']).values).toEqual([]); // given already
    const flags = complete(['reconcile', '-']).values;
    for (const f of [
      '-n',
      '--namespace',
      '-A',
      '--all-namespaces',
      '-l',
      '--kubeconfig',
      '--context',
      '--as',
      '--as-group',
      '--request-timeout',
      '--dry-run',
      '-y',
    ])
      expect(flags).toContain(f);
    expect(flags).toContain('--debug'); // a global option, in every command's help
    expect(complete(['reconcile', '--dry-run', '']).values).toEqual(['none', 'client', 'server']);
    expect(complete(['completion', '']).values).toEqual(['bash', 'zsh', 'fish', 'kubectl']);
  });

  it('leaves file flags to the shell (directive 0) and free text to nothing (4)', () => {
    expect(complete(['diff', '-f', ''])).toMatchObject({ values: [], directive: ':0' });
    expect(complete(['diff', '--kubeconfig', ''])).toMatchObject({ values: [], directive: ':0' });
    expect(complete(['diff', '--now', ''])).toMatchObject({ values: [], directive: ':4' });
  });

  it('completes controller names from the -f snapshot, in the -n namespace', () => {
    expect(complete(['diff', '-f', join(EXAMPLES, 'drifted-replicaset.yaml'), '-n', 'shop', '']).values).toEqual(['rs/shop-web']);
    expect(complete(['diff', '-f', join(EXAMPLES, 'drifted-replicaset.yaml'), '-n', 'other', '']).values).toEqual([]);
    const all = complete(['explain', '-f', EXAMPLES, '']).values;
    expect(all).toContain('rs/shop-web');
    expect(all).toContain('rc/legacy-db');
    expect(complete(['explain', '-f', EXAMPLES, 'rc/']).values).toEqual(all.filter((v) => v.startsWith('rc/')));
    expect(complete(['diff', '-f', join(EXAMPLES, 'drifted-replicaset.yaml'), 'rs/shop-web', '']).values).toEqual([]); // already typed
  });

  it("offers only what then parses: names after a repeatable flag's value, bare NAMEs after a TYPE, nothing after one object", () => {
    const snap = join(EXAMPLES, 'drifted-replicaset.yaml');
    const other = join(EXAMPLES, 'scale-down-ranking.yaml');
    // -f takes one value per occurrence: the word after its value is a name again
    expect(complete(['explain', '-f', snap, '']).values).toEqual(['rs/shop-web']);
    const both = ['deploy/search', 'rs/search-5f7c9', 'rs/shop-web'];
    expect(complete(['diff', '-f', snap, '-f', other, '-A', '']).values).toEqual(both);
    expect(complete(['diff', '-f', `${snap},${other}`, '-A', '']).values).toEqual(both);
    expect(complete(['diff', `--filename=${snap}`, '']).values).toEqual(['rs/shop-web']);
    // kubectl's TYPE NAME: after the TYPE, the NAMEs of that type alone
    expect(complete(['explain', '-f', snap, 'rs', '']).values).toEqual(['shop-web']);
    expect(complete(['explain', '-f', snap, 'replicasets.apps', 'sh']).values).toEqual(['shop-web']);
    expect(complete(['explain', '-f', snap, 'rc', '']).values).toEqual([]);
    expect(complete(['diff', '-f', snap, '-f', other, '-A', 'rs', 'shop-web', '']).values).toEqual(['search-5f7c9']);
    // a one-object command: nothing after a NAME that is no TYPE, nor after TYPE/NAME or TYPE NAME
    expect(complete(['explain', '-f', snap, 'shop-web', '']).values).toEqual([]);
    expect(complete(['explain', '-f', snap, 'rs/shop-web', '']).values).toEqual([]);
    expect(complete(['explain', '-f', snap, 'rs', 'shop-web', '']).values).toEqual([]);
  });

  it('completes contexts, clusters and users from the kubeconfig', () => {
    const dir = tempDir('rs-kc-');
    const kc = join(dir, 'config');
    writeFileSync(
      kc,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c1, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u1, user: {}}]\ncontexts: [{name: prod, context: {cluster: c1, user: u1}}, {name: dev, context: {cluster: c1, user: u1}}]\ncurrent-context: dev\n',
    );
    expect(complete(['diff', '--context', ''], { KUBECONFIG: kc }).values).toEqual(['dev', 'prod']);
    expect(complete(['diff', '--kubeconfig', kc, '--cluster', '']).values).toEqual(['c1']);
    expect(complete(['diff', '--user', ''], { KUBECONFIG: kc }).values).toEqual(['u1']);
  });

  it('reads the names of a kubectl-written kubeconfig and of a flow-style one alike, as kubectl does (names stay strings)', () => {
    const dir = tempDir('rs-kc-');
    const block = join(dir, 'block');
    // as `kubectl config view --raw` writes it: block YAML
    writeFileSync(
      block,
      'apiVersion: v1\nclusters:\n- cluster:\n    server: https://127.0.0.1:1\n  name: c1\ncontexts:\n- context:\n    cluster: c1\n    user: u1\n  name: prod\n- context:\n    cluster: c1\n  name: dev\ncurrent-context: dev\nkind: Config\nusers:\n- name: u1\n  user:\n    token: t\n',
    );
    const flow = join(dir, 'flow');
    writeFileSync(flow, 'contexts: [{name: staging, context: {cluster: c1}}, {name: 1234, context: {cluster: c1}}]\n');
    const env = { KUBECONFIG: `${block}:${flow}` };
    expect(kubeconfigNames('contexts', undefined, env)).toEqual(['1234', 'dev', 'prod', 'staging']);
    expect(kubeconfigNames('clusters', undefined, env)).toEqual(['c1']);
    expect(kubeconfigNames('users', undefined, env)).toEqual(['u1']);
    expect(complete(['diff', '--context', ''], env).values).toEqual(['1234', 'dev', 'prod', 'staging']);
  });

  it('fails silently when there is no cluster', () => {
    const noConfig = complete(['diff', '-n', '']);
    expect(noConfig).toMatchObject({ status: 0, values: [], directive: ':4', stderr: '' });
    const refused = complete(['diff', '-n', ''], { KUBECONFIG: join(ROOT, 'test', 'packaging', 'fixtures', 'unreachable.kubeconfig') });
    expect(refused).toMatchObject({ status: 0, values: [], directive: ':4', stderr: '' });
  });

  it('gives up a lookup that gets no answer when its time limit passes, offering nothing (fake clock)', async () => {
    // a server that takes the connection and never says a word (not even TLS)
    const sockets = new Set<Socket>();
    const server = createServer((s) => sockets.add(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const kc = join(tempDir('rs-kc-'), 'config');
    writeFileSync(
      kc,
      `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:${(server.address() as AddressInfo).port}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n`,
    );
    const realTimeout = globalThis.setTimeout;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // no per-request timeout to end it first: only the lookup's own limit
      const pending = completeWords(['diff', '-n', ''], commands(), { env: { KUBECONFIG: kc }, requestTimeout: '1h', timeoutMs: 3000, spellings });
      let settled = false;
      void pending.then(() => (settled = true));
      // the request is out (waiting on the real clock: the fake one stands still until advanced)
      while (sockets.size === 0) await new Promise((r) => realTimeout(r, 10));
      await vi.advanceTimersByTimeAsync(2999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toEqual({ candidates: [], directive: 4, timedOut: true });
    } finally {
      vi.useRealTimers();
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    }
  });
});

/** The same, without blocking this process (the sandbox answers from it). */
async function completeLive(words: string[], env: Record<string, string | undefined> = {}) {
  const { stdout } = await execFileP(process.execPath, [RUN_JS, 'completion', '__complete', '--', ...words], {
    cwd: ROOT,
    env: baseEnv(env),
    encoding: 'utf8',
  });
  const lines = stdout.split('\n').filter(Boolean);
  const directive = lines.pop();
  return { values: lines.map((l) => l.split('\t')[0]), lines, directive };
}

describe('names from a live cluster (the embedded API server)', () => {
  let sb: Sandbox;
  let kubeconfig: string;
  beforeAll(async () => {
    const load = (f: string) => parseAllDocuments(readFileSync(join(EXAMPLES, f), 'utf8')).map((d) => d.toJS());
    sb = await startSandbox({
      seed: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'legacy' } },
        ...load('drifted-replicaset.yaml'),
        ...load('replication-controller.yaml'),
      ],
    });
    kubeconfig = join(tempDir('rs-sb-'), 'kubeconfig');
    await sb.writeKubeconfig(kubeconfig, 'shop');
  });
  afterAll(async () => sb?.close());

  it('completes namespaces for -n', async () => {
    const r = await completeLive(['diff', '-n', ''], { KUBECONFIG: kubeconfig });
    expect(r.values).toEqual(expect.arrayContaining(['default', 'legacy', 'shop']));
    expect(r.directive).toBe(':4');
    expect((await completeLive(['diff', '--namespace=le'], { KUBECONFIG: kubeconfig })).values).toEqual(['--namespace=legacy']);
  });

  it('completes controllers of the context namespace, of -n, and of every namespace with -A', async () => {
    expect((await completeLive(['explain', ''], { KUBECONFIG: kubeconfig })).values).toEqual(['rs/shop-web']);
    expect((await completeLive(['diff', '-n', 'legacy', ''], { KUBECONFIG: kubeconfig })).values).toEqual(['rc/legacy-db']);
    expect((await completeLive(['reconcile', '--kubeconfig', kubeconfig, '-A', ''])).lines).toEqual(['rc/legacy-db\tlegacy', 'rs/shop-web\tshop']);
  });

  it('the kubectl_complete-rs_reconcile helpers (sh script and npm bin) answer kubectl the same way', async () => {
    const dir = tempDir('rs-kcomp-');
    mkdirSync(join(dir, 'bin'));
    symlinkSync(RUN_JS, join(dir, 'bin', 'kubectl-rs_reconcile'));
    const script = join(dir, 'bin', 'kubectl_complete-rs_reconcile');
    writeFileSync(script, node(RUN_JS, ['completion', 'kubectl']).stdout);
    chmodSync(script, 0o755);
    const env = baseEnv({ KUBECONFIG: kubeconfig, PATH: `${join(dir, 'bin')}:${process.env.PATH}` });
    const viaScript = await execFileP(script, ['diff', '-n', ''], { encoding: 'utf8', env });
    expect(viaScript.stdout.split('\n')).toEqual(expect.arrayContaining(['shop', 'legacy', ':4']));
    const viaNpmBin = await execFileP(process.execPath, [join(ROOT, 'bin', 'complete.js'), 'explain', ''], { encoding: 'utf8', env });
    expect(viaNpmBin.stdout).toBe('rs/shop-web\n:4\n');
  });
});

describe('the shell scripts', () => {
  it('bash accepts the bash script, which registers both programs', () => {
    const script = node(RUN_JS, ['completion', 'bash']).stdout;
    const r = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(script).toMatch(/^complete -o default -F __rs_reconcile_complete kubectl-rs_reconcile rs-reconcile$/m);
  });

  it('bash completes through the script (COMP_LINE as readline sets it)', () => {
    const dir = tempDir('rs-bash-');
    mkdirSync(join(dir, 'bin'));
    symlinkSync(RUN_JS, join(dir, 'bin', 'kubectl-rs_reconcile'));
    const script = join(dir, 'completion.bash');
    writeFileSync(script, node(RUN_JS, ['completion', 'bash']).stdout);
    const probe = `source ${script}
t() { COMP_LINE="$1"; COMP_POINT=\${#COMP_LINE}; COMPREPLY=(); __rs_reconcile_complete; echo "\${COMPREPLY[*]}"; }
t "kubectl-rs_reconcile di"
t "kubectl-rs_reconcile diff -o "
t "kubectl-rs_reconcile diff --output=ya"
t "kubectl-rs_reconcile diff -f ${EXAMPLES}/drifted-replicaset.yaml "
t "kubectl-rs_reconcile explain --all-n"
`;
    const r = spawnSync('bash', ['-c', probe], { encoding: 'utf8', env: baseEnv({ PATH: `${join(dir, 'bin')}:${process.env.PATH}` }) });
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n').slice(0, 5)).toEqual(['diff', 'json yaml wide name', 'yaml', 'rs/shop-web', '--all-namespaces']);
  });

  it('the zsh script defines and registers the completion function (zsh -n when zsh is installed)', (ctx) => {
    const script = node(RUN_JS, ['completion', 'zsh']).stdout;
    expect(script.split('\n')[0]).toBe('#compdef kubectl-rs_reconcile rs-reconcile');
    expect(script).toContain('completion __complete -- "${(@)words[2,CURRENT-1]}" "${words[CURRENT]}"');
    expect(script).toContain('compdef _kubectl_rs_reconcile kubectl-rs_reconcile rs-reconcile');
    const zsh = spawnSync('zsh', ['-n'], { input: script, encoding: 'utf8' });
    if (zsh.error) {
      ctx.skip(true, 'zsh is not installed: only the script text was checked');
      return;
    }
    expect(zsh.stderr).toBe('');
    expect(zsh.status).toBe(0);
  });

  it('the fish script asks the program for candidates and registers both programs', () => {
    const script = node(RUN_JS, ['completion', 'fish']).stdout;
    // the words before the cursor and the word under it, as the engine reads them
    expect(script).toContain('set -l out ($words[1] completion __complete -- $words[2..-1] "$cur" 2>/dev/null)');
    for (const p of ['kubectl-rs_reconcile', 'rs-reconcile']) {
      expect(script).toContain(`complete -c ${p} -e\n`);
      expect(script).toContain(`complete -c ${p} -n __rs_reconcile_prepare -f -k -a '$__rs_reconcile_results'`);
    }
    // the directive decides between no file names (4) and fish's own file completion
    expect(script).toMatch(/test \(math "floor\(\$directive \/ 4\) % 2"\) -ne 0\nend\n/);
  });

  it('fish completes through the script: commands, values with descriptions, names from -f, files when asked (when fish is installed)', (ctx) => {
    const dir = tempDir('rs-fish-');
    mkdirSync(join(dir, 'bin'));
    for (const p of ['kubectl-rs_reconcile', 'rs-reconcile']) symlinkSync(RUN_JS, join(dir, 'bin', p));
    const script = join(dir, 'completion.fish');
    writeFileSync(script, node(RUN_JS, ['completion', 'fish']).stdout);
    writeFileSync(join(dir, 'snap.yaml'), readFileSync(join(EXAMPLES, 'drifted-replicaset.yaml')));
    const probe = [
      `source ${script}`,
      ...[
        'rs-reconcile di',
        'kubectl-rs_reconcile diff -o ',
        'rs-reconcile diff --output=ya',
        `rs-reconcile explain -f ${dir}/snap.yaml `,
        `rs-reconcile diff -f ${dir}/sn`,
        'rs-reconcile diff --now ',
      ].flatMap((line) => [`complete -C '${line}'`, 'echo ---']),
    ].join('\n');
    const r = spawnSync('fish', ['--no-config', '-c', probe], {
      encoding: 'utf8',
      env: baseEnv({ PATH: `${join(dir, 'bin')}:${process.env.PATH}`, HOME: dir }),
    });
    if (r.error) {
      ctx.skip(true, 'fish is not installed: only the script text was checked');
      return;
    }
    expect(r.stderr).toBe('');
    const answers = r.stdout
      .split('---\n')
      .slice(0, 6)
      .map((a) => a.split('\n').filter(Boolean));
    expect(answers[0]).toEqual(['diff\tShow what the ReplicaSet controller would change: adopt, release, create, delete, status']);
    expect(answers[1]).toEqual(['json', 'yaml', 'wide', 'name']);
    expect(answers[2]).toEqual(['--output=yaml']);
    expect(answers[3]).toEqual(['rs/shop-web']);
    expect(answers[4]).toEqual([`${dir}/snap.yaml`]); // -f: fish's own file names (directive 0)
    expect(answers[5]).toEqual([]); // --now: free text, no file names (directive 4)
  });

  it('the kubectl helper is a POSIX sh script calling the plugin', () => {
    const script = node(RUN_JS, ['completion', 'kubectl']).stdout;
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(script).toContain('completion __complete -- "$@"');
    expect(spawnSync('sh', ['-n'], { input: script }).status).toBe(0);
  });
});
