// A throw-away kind added through the two seams a new sandbox kind touches (its kind file, here
// the `widgets` object, and the RESOURCES list of src/sandbox/kinds/index.ts), then created, read,
// listed as a table, selected by field, patched and rejected over HTTPS like any built-in kind:
// nothing else in the sandbox needs to know about it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldError } from '../../src/sandbox/errors.js';
import { RESOURCES } from '../../src/sandbox/kinds/index.js';
import { ALL_VERBS, apiVersionOf, fieldString, STATUS, type Kind } from '../../src/sandbox/kinds/kind.js';
import { messageNames, typeForKind } from '../../src/sandbox/protobuf/schema.js';
import { AGE, col, NAME } from '../../src/sandbox/table.js';
import { sinceAge, type Obj } from '../../src/sandbox/util.js';
import { raw, startEnv, type Env } from './helpers.js';
import { headerOf, kubectlFor, rowOf } from './kubectl-runner.js';

const widgets: Kind = {
  name: 'widgets',
  singularName: 'widget',
  kind: 'Widget',
  listKind: 'WidgetList',
  group: 'example.rs-reconcile.dev',
  version: 'v1alpha1',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['wd'],
  subresources: { status: STATUS },
  generation: true,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Background',
  storageVersionHash: 'd2lkZ2V0cw==',
  defaults(o: Obj) {
    o.spec ??= {};
    o.spec.size ??= 1;
  },
  createStatus: () => ({ built: 0 }),
  validate(o: Obj, errs: FieldError[]) {
    if (!(o.spec.size > 0)) errs.push({ type: 'Invalid', field: 'spec.size', value: o.spec.size, detail: 'must be greater than 0' });
  },
  validateUpdate(o: Obj, old: Obj, errs: FieldError[]) {
    if (o.spec.color !== old.spec.color) errs.push({ type: 'Invalid', field: 'spec.color', value: o.spec.color ?? '', detail: 'field is immutable' });
  },
  selectableFields: { 'spec.color': fieldString('spec.color') },
  columns: [NAME, col('Size', 'integer', 'How big.'), AGE],
  row: (o: Obj, now: number) => [o.metadata.name, o.spec.size, sinceAge(o.metadata.creationTimestamp, now)],
  listStrategy: (path) => (path.join('.') === 'spec.parts' ? { merge: true, mergeKey: 'name' } : undefined),
};

const BASE = '/apis/example.rs-reconcile.dev/v1alpha1/namespaces/default/widgets';
let env: Env;
beforeAll(async () => {
  RESOURCES.push(widgets);
  env = await startEnv();
});
afterAll(async () => {
  await env.sb.close();
  RESOURCES.splice(RESOURCES.indexOf(widgets), 1);
});

const widget = (name: string, spec: Obj) => ({ apiVersion: 'example.rs-reconcile.dev/v1alpha1', kind: 'Widget', metadata: { name }, spec });

describe('a kind added through its kind file and the RESOURCES list only', () => {
  it('is discovered with its group, version and status subresource', async () => {
    const groups = await raw(env.sb, 'GET', '/apis');
    expect(groups.json.groups.map((g: Obj) => g.name)).toContain('example.rs-reconcile.dev');
    const gv = await raw(env.sb, 'GET', '/apis/example.rs-reconcile.dev/v1alpha1');
    expect(gv.json.resources.map((r: Obj) => r.name)).toEqual(['widgets', 'widgets/status']);
    expect(gv.json.resources[0]).toMatchObject({ kind: 'Widget', namespaced: true, shortNames: ['wd'] });
  });

  it('is created with its defaults and create status, and read back', async () => {
    const created = await raw(env.sb, 'POST', BASE, {
      body: {
        ...widget('w1', {
          color: 'red',
          parts: [
            { name: 'a', n: 1 },
            { name: 'b', n: 2 },
          ],
        }),
        status: { built: 9 },
      },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ kind: 'Widget', spec: { size: 1, color: 'red' }, status: { built: 0 }, metadata: { generation: 1 } });
    const got = await raw(env.sb, 'GET', `${BASE}/w1`);
    expect(got.json.spec).toEqual(created.json.spec);
    expect(got.json.metadata.uid).toBe(created.json.metadata.uid);
  });

  it('is validated by its own Validate and ValidateUpdate', async () => {
    const bad = await raw(env.sb, 'POST', BASE, { body: widget('w0', { size: 0 }) });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({
      reason: 'Invalid',
      details: { kind: 'Widget', causes: [{ field: 'spec.size', message: 'Invalid value: 0: must be greater than 0' }] },
    });
    const immutable = await raw(env.sb, 'PATCH', `${BASE}/w1`, { body: { spec: { color: 'blue' } }, contentType: 'application/merge-patch+json' });
    expect(immutable.status).toBe(422);
    expect(immutable.json.details.causes[0]).toMatchObject({ field: 'spec.color' });
  });

  it('merges its lists by the merge key it declares in a strategic merge patch, and bumps generation', async () => {
    const patched = await raw(env.sb, 'PATCH', `${BASE}/w1`, {
      body: {
        spec: {
          parts: [
            { name: 'b', n: 20 },
            { name: 'c', n: 3 },
          ],
        },
      },
      contentType: 'application/strategic-merge-patch+json',
    });
    expect(patched.status).toBe(200);
    // mergeSlice: the stored elements keep their places (b updated by its key), new ones follow;
    // a list without a merge key would have been replaced by the patch's two elements.
    expect(patched.json.spec.parts).toEqual([
      { name: 'a', n: 1 },
      { name: 'b', n: 20 },
      { name: 'c', n: 3 },
    ]);
    expect(patched.json.metadata.generation).toBe(2);
  });

  it('lists as its own table, and by its own selectable field', async () => {
    await raw(env.sb, 'POST', BASE, { body: widget('w2', { color: 'green', size: 3 }) });
    const table = await raw(env.sb, 'GET', BASE, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.json.kind).toBe('Table');
    expect(table.json.columnDefinitions.map((c: Obj) => c.name)).toEqual(['Name', 'Size', 'Age']);
    expect(table.json.rows.map((r: Obj) => r.cells.slice(0, 2))).toEqual([
      ['w1', 1],
      ['w2', 3],
    ]);
    const green = await raw(env.sb, 'GET', `${BASE}?fieldSelector=spec.color%3Dgreen`);
    expect(green.json.items.map((o: Obj) => o.metadata.name)).toEqual(['w2']);
    const unknown = await raw(env.sb, 'GET', `${BASE}?fieldSelector=spec.size%3D3`);
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe('field label not supported: spec.size');
  });
});

describe('the throw-away kind through kubectl', () => {
  it('create -f, get by its short name as its own table, patch by its merge key, and the validation errors', async () => {
    const k = await kubectlFor(env.sb);
    try {
      const file = await k.file(
        'w3.yaml',
        'apiVersion: example.rs-reconcile.dev/v1alpha1\nkind: Widget\nmetadata:\n  name: w3\nspec:\n  size: 7\n  parts:\n  - name: a\n',
      );
      const created = await k.run('create', '-f', file);
      expect(created.stderr).toBe('');
      expect(created.stdout).toBe('widget.example.rs-reconcile.dev/w3 created\n');
      const got = await k.run('get', 'wd');
      expect(headerOf(got.stdout)).toEqual(['NAME', 'SIZE', 'AGE']);
      expect(rowOf(got.stdout, 'w3')?.slice(0, 2)).toEqual(['w3', '7']);
      const patched = await k.run('patch', 'widget', 'w3', '--type', 'strategic', '-p', '{"spec":{"parts":[{"name":"b"}]}}');
      expect(patched.stdout).toBe('widget.example.rs-reconcile.dev/w3 patched\n');
      const parts = await k.run('get', 'widget', 'w3', '-o', 'jsonpath={.spec.parts[*].name}');
      // merged by name, not replaced; normalizeElementOrder puts the patch's new element before
      // the server-only one here (as the HTTP case above keeps a stored element's place)
      expect(parts.stdout).toBe('b a');
      const bad = await k.run('patch', 'widget', 'w3', '--type', 'merge', '-p', '{"spec":{"size":0}}');
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('spec.size: Invalid value: 0: must be greater than 0');
    } finally {
      await k.close();
    }
  });
});

describe('the kinds and the generic code', () => {
  it("every built-in kind's protobuf message is the generated table's root for its apiVersion and kind", () => {
    const builtIn = RESOURCES.filter((r) => r !== widgets);
    expect(builtIn.length).toBe(11);
    const names = new Set(messageNames());
    for (const r of builtIn) {
      expect(r.protobuf, r.name).toBeDefined();
      expect(typeForKind(apiVersionOf(r), r.kind), r.name).toBe(r.protobuf);
      expect(names.has(r.protobuf!), r.name).toBe(true);
    }
  });

  it('the message table says in its first lines that it is generated, by which command, from which commits', () => {
    const head = readFileSync('src/sandbox/protobuf/types.generated.ts', 'utf8').split('\n').slice(0, 4).join('\n');
    expect(head).toMatch(/^\/\/ GENERATED FILE/);
    expect(head).toContain('scripts/gen-protobuf-types.mjs');
    expect(head).toMatch(/github\.com\/kubernetes\/api v0\.32\.\d+ \([0-9a-f]{40}\)/);
    expect(head).toMatch(/github\.com\/kubernetes\/apimachinery v0\.32\.\d+ \([0-9a-f]{40}\)/);
  });

  it('no generic sandbox module tests a resource by its name (the kind says what is special)', () => {
    // Admission plugins select the resource they act on, as upstream's do
    // (a.GetResource().GroupResource() != api.Resource("pods")): serviceaccounts.ts.
    const generic = readdirSync('src/sandbox').filter((f) => f.endsWith('.ts') && f !== 'serviceaccounts.ts');
    const offenders = generic.flatMap((f) =>
      readFileSync(join('src/sandbox', f), 'utf8')
        .split('\n')
        .filter((l) => /switch \((p\.)?res\.name\)|\bres\.name [!=]==? '/.test(l))
        .map((l) => `${f}: ${l.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
