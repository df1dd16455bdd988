// Differential test: the real kubectl (v1.32, on PATH) against the sandbox, row by row of
// differential-cases.ts, each answer compared with what a real kube-apiserver v1.32 answers
// (../shared/reference/real-apiserver-facts.md). Raw HTTPS where the exact Status or a watch
// stream matters.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { type Ctx, ROWS } from './differential-cases.js';
import { openWatch, raw, startEnv, waitFor, type Env } from './helpers.js';

const EXAMPLES = resolve(__dirname, '../../examples');

let env: Env;
let dir: string;
let ctx: Ctx;

beforeAll(async () => {
  // No kubelet: a pod bound to a node waits for it. A short watch history, so a row can outrun it.
  env = await startEnv({ nodes: 0, watchHistory: 50 });
  dir = await mkdtemp(join(tmpdir(), 'sbx-diff-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await env.sb.writeKubeconfig(kubeconfig);
  let runs = 0;
  ctx = {
    kubectl: (...args) =>
      new Promise((done) => {
        // a fresh cache each run, so every run asks for what it needs (discovery, OpenAPI)
        const cache = join(dir, `cache-${runs++}`);
        execFile(
          'kubectl',
          ['--kubeconfig', kubeconfig, '--cache-dir', cache, ...args],
          { env: { PATH: process.env.PATH ?? '', HOME: dir }, timeout: 30_000 },
          (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      }),
    namespace: async (name) => {
      const r = await ctx.kubectl('create', '-f', await ctx.file(`ns-${name}.yaml`, `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${name}}\n`));
      const core = (await raw(env.sb, 'GET', '/api/v1')).json;
      if (core.resources.some((x: { name: string }) => x.name === 'serviceaccounts')) {
        await waitFor(
          async () => (await raw(env.sb, 'GET', `/api/v1/namespaces/${name}/serviceaccounts/default`)).status === 200,
          `serviceaccount ${name}/default`,
        );
      }
      return r;
    },
    file: async (name, text) => {
      const p = join(dir, name);
      await writeFile(p, text);
      return p;
    },
    http: async (method, path, o = {}) => {
      const r = await raw(env.sb, method, path, o);
      return { status: r.status, json: r.json };
    },
    watch: async (path) => {
      const w = openWatch(env.sb, path);
      await Promise.race([w.ended$, new Promise((r) => setTimeout(r, 3000))]);
      w.close();
      return { status: w.status, ended: w.ended, events: w.events };
    },
    uid: async (resource, name) => {
      const base = resource === 'pods' ? '/api/v1' : '/apis/apps/v1';
      return (await raw(env.sb, 'GET', `${base}/namespaces/diff/${resource}/${name}`)).json.metadata.uid;
    },
    owners: async (pod) =>
      ((await raw(env.sb, 'GET', `/api/v1/namespaces/diff/pods/${pod}`)).json.metadata.ownerReferences ?? []).map((r: { name: string }) => r.name),
    requests: (stderr) =>
      stderr
        .split('\n')
        .map((l) => /\] (GET|POST|PUT|PATCH|DELETE) https:\/\/[^/]+(\/\S*) (\d{3}) /.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .map(([, method, target, code]) => {
          const url = new URL(target, 'https://x');
          url.searchParams.delete('timeout');
          if (url.pathname.startsWith('/openapi/')) url.searchParams.delete('hash');
          return `${method} ${url.pathname}${url.search} ${code}`;
        })
        .filter((l) => !/^GET \/(api|apis)(\/[^/]+){0,2} /.test(l) || /\/namespaces\//.test(l)),
    examples: () =>
      readdirSync(EXAMPLES)
        .filter((f) => f.endsWith('.yaml'))
        .sort(),
    example: (name) => join(EXAMPLES, name),
    namespacesOf: (file) => {
      const names = new Set<string>();
      for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
        const o = doc.toJS() as { items?: { metadata?: { namespace?: string } }[]; metadata?: { namespace?: string } };
        for (const item of o?.items ?? [o]) if (item?.metadata?.namespace) names.add(item.metadata.namespace);
      }
      return [...names].sort();
    },
  };
});
afterAll(async () => {
  await env.sb.close();
  await rm(dir, { recursive: true, force: true });
});

/** The answer with the test directory written as `{dir}`, as the table writes it. */
function normalized(v: unknown): unknown {
  if (typeof v === 'string') return v.split(dir).join('{dir}');
  if (Array.isArray(v)) return v.map(normalized);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalized(x)]));
  return v;
}

describe('kubectl against the sandbox answers as a real kube-apiserver v1.32', () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      const answer = normalized(await row.act(ctx));
      expect(answer, row.facts).toMatchObject(row.want);
    }, 60_000);
  }
});
