// The differential table: what a real kube-apiserver v1.32 answers (with kubectl v1.32 as the
// client), row by row, and how each row is asked of the sandbox. Every `want` comes from
// ../shared/reference/real-apiserver-facts.md (the row is quoted in `facts`) or, where the page is
// silent, from the upstream source named there. Rows run in order against one sandbox (no
// kubelet, so a pod bound to a node waits for it) in namespace `diff`; a row may use what an
// earlier one created.
//
// To add a row: give it a name, the facts row it checks, an `act` that asks (kubectl or HTTPS) and
// returns what came back, and the `want` it must match (toMatchObject: strings, numbers, nested
// objects, expect.stringMatching).
import { expect } from 'vitest';

/** How one kubectl run ended. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a row's `act` can ask of the sandbox; differential.test.ts provides it. */
export interface Ctx {
  kubectl(...args: string[]): Promise<Run>;
  /**
   * Creates a namespace with `kubectl create -f`; where the sandbox serves ServiceAccounts, waits
   * for its `default` one, as a client of a real cluster must before creating pods there.
   */
  namespace(name: string): Promise<Run>;
  /** Writes a file in the test's directory (`{dir}` in the wanted answers); returns its path. */
  file(name: string, text: string): Promise<string>;
  http(method: string, path: string, o?: { body?: unknown; contentType?: string }): Promise<{ status: number; json: any }>;
  watch(path: string): Promise<{ status: number; ended: boolean; events: unknown[] }>;
  uid(resource: 'pods' | 'replicasets', name: string): Promise<string>;
  /** The names of a pod's owners, in the stored order. */
  owners(pod: string): Promise<string[]>;
  /** The requests a `-v=6` run made to resources and OpenAPI (discovery left out): `METHOD path?query code`. */
  requests(stderr: string): string[];
  examples(): string[];
  example(name: string): string;
  namespacesOf(file: string): string[];
}

export interface Row {
  name: string;
  /** The facts page row (or upstream source) the wanted answer comes from. */
  facts: string;
  act: (c: Ctx) => Promise<Record<string, unknown>>;
  want: Record<string, unknown>;
}

const NS = 'diff';
const POD = (name: string, extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${NS}
  labels: {app: web, tier: fe}
spec:
${extra}  containers:
  - name: c
    image: nginx:1.27
`;
const RS = (name: string, replicas: number, app: string) => `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: ${name}, namespace: ${NS}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${app}}}
  template:
    metadata: {labels: {app: ${app}}}
    spec:
      containers: [{name: c, image: nginx:1.27}]
`;
const ownerRef = (name: string, uid: string, controller: boolean) =>
  controller
    ? { apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid, controller: true, blockOwnerDeletion: true }
    : { apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid };
const STALE = 'the object has been modified; please apply your changes to the latest version and try again';
const ALPHABET = '[bcdfghjklmnpqrstvwxz2456789]';

export const ROWS: Row[] = [
  {
    name: 'create -f reads /openapi/v3 and its group-version document, then POSTs with fieldValidation=Strict',
    facts:
      'What kubectl v1.32 sends: `create -f` → it first reads `/openapi/v3` (and the group-version document it points to) for field validation, then `POST …?fieldManager=kubectl-create&fieldValidation=Strict`.',
    act: async (c) => {
      await c.namespace(NS);
      const r = await c.kubectl('create', '-v=6', '-f', await c.file('p1.yaml', POD('p1')));
      return { code: r.code, stdout: r.stdout, requests: c.requests(r.stderr) };
    },
    want: {
      code: 0,
      stdout: 'pod/p1 created\n',
      requests: [
        'GET /openapi/v3 200',
        'GET /openapi/v3/api/v1 200',
        `POST /api/v1/namespaces/${NS}/pods?fieldManager=kubectl-create&fieldValidation=Strict 201`,
      ],
    },
  },
  {
    name: 'an unknown field is refused by the server under fieldValidation=Strict',
    facts: "handlers/create.go: a strict decoding error under fieldValidation=Strict is a 400 BadRequest carrying the decoder's message",
    act: async (c) => {
      const r = await c.kubectl('create', '-f', await c.file('bogus.yaml', POD('bogus', '  foo: 1\n')));
      return { code: r.code, stderr: r.stderr, stored: (await c.http('GET', `/api/v1/namespaces/${NS}/pods/bogus`)).status };
    },
    want: {
      code: 1,
      stderr: `Error from server (BadRequest): error when creating "${'{dir}'}/bogus.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"\n`,
      stored: 404,
    },
  },
  {
    name: 'generateName: the prefix plus 5 characters from the name alphabet',
    facts: '`generateName: web-abc-` → name `web-abc-` plus 5 random characters from `bcdfghjklmnpqrstvwxz2456789`',
    act: async (c) => {
      const r = await c.kubectl('create', '-f', await c.file('gen.yaml', POD('x').replace('name: x', 'generateName: web-abc-')));
      return { code: r.code, stdout: r.stdout };
    },
    want: { code: 0, stdout: expect.stringMatching(new RegExp(`^pod/web-abc-${ALPHABET}{5} created\\n$`)) },
  },
  {
    name: 'adoption: SMP with the right metadata.uid adds the controller reference',
    facts: 'same patch with the right `metadata.uid`, adding a controller ownerReference → 200; the list gains the entry (SMP merge key `uid`)',
    act: async (c) => {
      await c.kubectl(
        'create',
        '-f',
        await c.file('owners.yaml', `${RS('web', 0, 'web')}---\n${RS('cm', 0, 'cm')}---\n${RS('other', 0, 'other')}---\n${POD('orphan')}`),
      );
      const pod = await c.uid('pods', 'orphan');
      const r = await c.kubectl(
        'patch',
        'pod',
        'orphan',
        '-n',
        NS,
        '--type',
        'strategic',
        '-p',
        JSON.stringify({ metadata: { ownerReferences: [ownerRef('web', await c.uid('replicasets', 'web'), true)], uid: pod } }),
      );
      return { code: r.code, stdout: r.stdout, owners: await c.owners('orphan') };
    },
    want: { code: 0, stdout: 'pod/orphan patched\n', owners: ['web'] },
  },
  {
    name: 'a new ownerReference goes first in the merged list (strategicpatch normalizeElementOrder)',
    facts:
      'apimachinery strategicpatch mergeSlice: patch items before the server-only items they are not ordered after; adding `cm` to a pod owned by `web` gives `cm,web`',
    act: async (c) => {
      const r = await c.kubectl(
        'patch',
        'pod',
        'orphan',
        '-n',
        NS,
        '--type',
        'strategic',
        '-p',
        JSON.stringify({ metadata: { ownerReferences: [ownerRef('cm', await c.uid('replicasets', 'cm'), false)] } }),
      );
      return { code: r.code, owners: await c.owners('orphan') };
    },
    want: { code: 0, owners: ['cm', 'web'] },
  },
  {
    name: 'adoption with a different metadata.uid: 422 field is immutable (not 409)',
    facts:
      'strategic merge patch on a pod whose body carries `metadata.uid` different from the pod\'s → 422 Invalid, `metadata.uid: Invalid value: "…": field is immutable` (not 409)',
    act: async (c) => {
      const body = { metadata: { ownerReferences: [ownerRef('web', await c.uid('replicasets', 'web'), true)], uid: 'uid-of-the-old-pod' } };
      const r = await c.kubectl('patch', 'pod', 'orphan', '-n', NS, '--type', 'strategic', '-p', JSON.stringify(body));
      const h = await c.http('PATCH', `/api/v1/namespaces/${NS}/pods/orphan`, { body, contentType: 'application/strategic-merge-patch+json' });
      return { code: r.code, stderr: r.stderr, status: h.status, body: h.json };
    },
    want: {
      code: 1,
      stderr: 'The Pod "orphan" is invalid: metadata.uid: Invalid value: "uid-of-the-old-pod": field is immutable\n',
      status: 422,
      body: { reason: 'Invalid', details: { name: 'orphan', kind: 'Pod', causes: [{ reason: 'FieldValueInvalid', field: 'metadata.uid' }] } },
    },
  },
  {
    name: 'a second controller reference: 422 naming both',
    facts:
      'adding a second ownerReference with `controller: true` → 422 Invalid: `metadata.ownerReferences: Invalid value: …: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/y and ReplicaSet/x`',
    act: async (c) => {
      const body = { metadata: { ownerReferences: [ownerRef('other', await c.uid('replicasets', 'other'), true)], uid: await c.uid('pods', 'orphan') } };
      const r = await c.kubectl('patch', 'pod', 'orphan', '-n', NS, '--type', 'strategic', '-p', JSON.stringify(body));
      return { code: r.code, stderr: r.stderr, owners: await c.owners('orphan') };
    },
    want: {
      code: 1,
      stderr: expect.stringMatching(
        /^The Pod "orphan" is invalid: metadata\.ownerReferences: Invalid value: .*: Only one reference can have Controller set to true\. Found "true" in references for ReplicaSet\/other and ReplicaSet\/web\n$/,
      ),
      owners: ['cm', 'web'],
    },
  },
  {
    name: 'release: $patch delete by uid; sent again when nothing matches: 200, no change',
    facts:
      'release: SMP `{"metadata":{"ownerReferences":[{"$patch":"delete","uid":U}],"uid":POD_UID}}` → 200, the entry is gone; sent again when nothing matches: 200, no change',
    act: async (c) => {
      const body = JSON.stringify({
        metadata: { ownerReferences: [{ $patch: 'delete', uid: await c.uid('replicasets', 'web') }], uid: await c.uid('pods', 'orphan') },
      });
      const first = await c.kubectl('patch', 'pod', 'orphan', '-n', NS, '--type', 'strategic', '-p', body);
      const owners = await c.owners('orphan');
      const again = await c.kubectl('patch', 'pod', 'orphan', '-n', NS, '--type', 'strategic', '-p', body);
      return { first: first.stdout, owners, again: again.stdout };
    },
    want: { first: 'pod/orphan patched\n', owners: ['cm'], again: 'pod/orphan patched (no change)\n' },
  },
  {
    name: 'replace with a stale resourceVersion: 409 Conflict',
    facts:
      'PUT with a stale `metadata.resourceVersion` → 409 Conflict, reason `Conflict`: `Operation cannot be fulfilled on pods "p1": the object has been modified; please apply your changes to the latest version and try again`',
    act: async (c) => {
      const stale = await c.kubectl('get', 'pod', 'p1', '-n', NS, '-o', 'yaml');
      const file = await c.file('stale.yaml', stale.stdout);
      await c.kubectl('label', 'pod', 'p1', '-n', NS, 'touched=yes');
      const r = await c.kubectl('replace', '-f', file);
      return { code: r.code, stderr: r.stderr };
    },
    want: { code: 1, stderr: `Error from server (Conflict): error when replacing "{dir}/stale.yaml": Operation cannot be fulfilled on pods "p1": ${STALE}\n` },
  },
  {
    name: "label and annotate: GET the object, then a merge patch with kubectl's field manager",
    facts: 'What kubectl v1.32 sends: `label` / `annotate` → `GET` the object, then `PATCH …?fieldManager=kubectl-label` (a merge patch)',
    act: async (c) => {
      const l = await c.kubectl('label', 'pod', 'p1', '-n', NS, 'lab=1', '-v=6');
      const a = await c.kubectl('annotate', 'pod', 'p1', '-n', NS, 'ann=1', '-v=6');
      return { out: [l.stdout, a.stdout], requests: [...c.requests(l.stderr), ...c.requests(a.stderr)] };
    },
    want: {
      out: ['pod/p1 labeled\n', 'pod/p1 annotated\n'],
      requests: [
        `GET /api/v1/namespaces/${NS}/pods/p1 200`,
        `PATCH /api/v1/namespaces/${NS}/pods/p1?fieldManager=kubectl-label 200`,
        `GET /api/v1/namespaces/${NS}/pods/p1 200`,
        `PATCH /api/v1/namespaces/${NS}/pods/p1?fieldManager=kubectl-annotate 200`,
      ],
    },
  },
  {
    name: 'discovery of apps/v1 lists replicasets with its scale and status subresources',
    facts: 'discovery of apps/v1 → resources `replicasets`, `replicasets/scale`, `replicasets/status` (each with its verbs)',
    act: async (c) => {
      const r = JSON.parse((await c.kubectl('get', '--raw', '/apis/apps/v1')).stdout);
      return {
        resources: Object.fromEntries(
          r.resources.filter((x: { name: string }) => x.name.startsWith('replicasets')).map((x: { name: string; verbs: string[] }) => [x.name, x.verbs]),
        ),
      };
    },
    want: {
      resources: {
        replicasets: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        'replicasets/scale': ['get', 'patch', 'update'],
        'replicasets/status': ['get', 'patch', 'update'],
      },
    },
  },
  {
    name: 'patch of a missing pod: 404',
    facts: 'patch of a missing pod → 404 NotFound, reason `NotFound`, `pods "nope" not found`',
    act: async (c) => {
      const r = await c.kubectl('patch', 'pod', 'nope', '-n', NS, '--type', 'merge', '-p', '{"metadata":{"labels":{"a":"b"}}}');
      return { code: r.code, stderr: r.stderr };
    },
    want: { code: 1, stderr: 'Error from server (NotFound): pods "nope" not found\n' },
  },
  {
    name: 'the three patch types; a failed JSON patch test is the generic 422',
    facts: 'handlers/patch.go: jsonPatcher wraps json-patch Apply errors in errors.NewGenericServerResponse(422, …, isUnexpectedResponse=false)',
    act: async (c) => {
      const json = await c.kubectl(
        'patch',
        'pod',
        'p1',
        '-n',
        NS,
        '--type',
        'json',
        '-p',
        '[{"op":"test","path":"/metadata/labels/app","value":"web"},{"op":"add","path":"/metadata/labels/j","value":"1"}]',
      );
      const merge = await c.kubectl('patch', 'pod', 'p1', '-n', NS, '--type', 'merge', '-p', '{"metadata":{"labels":{"m":"1"}}}');
      const smp = await c.kubectl('patch', 'pod', 'p1', '-n', NS, '--type', 'strategic', '-p', '{"spec":{"containers":[{"name":"c","image":"nginx:1.28"}]}}');
      const failed = await c.kubectl('patch', 'pod', 'p1', '-n', NS, '--type', 'json', '-p', '[{"op":"test","path":"/metadata/labels/app","value":"db"}]');
      const h = await c.http('PATCH', `/api/v1/namespaces/${NS}/pods/p1`, {
        body: [{ op: 'remove', path: '/metadata/labels/missing' }],
        contentType: 'application/json-patch+json',
      });
      const p = (await c.http('GET', `/api/v1/namespaces/${NS}/pods/p1`)).json;
      return {
        out: [json.stdout, merge.stdout, smp.stdout],
        failed: [failed.code, failed.stderr],
        status: h.status,
        body: h.json,
        labels: p.metadata.labels,
        image: p.spec.containers[0].image,
      };
    },
    want: {
      out: ['pod/p1 patched\n', 'pod/p1 patched\n', 'pod/p1 patched\n'],
      failed: [1, 'The request is invalid: the server rejected our request due to an error in our request\n'],
      status: 422,
      body: {
        kind: 'Status',
        status: 'Failure',
        reason: 'Invalid',
        code: 422,
        details: {},
        message: 'the server rejected our request due to an error in our request',
      },
      labels: { app: 'web', tier: 'fe', touched: 'yes', lab: '1', j: '1', m: '1' },
      image: 'nginx:1.28',
    },
  },
  {
    name: 'status subresource: status changes through /status only',
    facts: 'discovery lists pods/status with its verbs; the pod strategy keeps status on writes to the main resource',
    act: async (c) => {
      const main = await c.kubectl('patch', 'pod', 'p1', '-n', NS, '--type', 'merge', '-p', '{"status":{"phase":"Failed"}}');
      const sub = await c.kubectl('patch', 'pod', 'p1', '-n', NS, '--subresource', 'status', '--type', 'merge', '-p', '{"status":{"phase":"Running"}}');
      return { main: main.stdout, sub: sub.stdout, phase: (await c.http('GET', `/api/v1/namespaces/${NS}/pods/p1`)).json.status.phase };
    },
    want: { main: 'pod/p1 patched (no change)\n', sub: 'pod/p1 patched\n', phase: 'Running' },
  },
  {
    name: 'scale goes through the scale subresource; generation follows spec changes only',
    facts: '`scale rs X --replicas N` → `GET` the ReplicaSet, then `PATCH …/replicasets/X/scale` with `application/merge-patch+json`',
    act: async (c) => {
      const gen = async () => (await c.http('GET', `/apis/apps/v1/namespaces/${NS}/replicasets/web`)).json.metadata.generation;
      const g0 = await gen();
      const r = await c.kubectl('scale', 'rs', 'web', '-n', NS, '--replicas', '3', '-v=6');
      const g1 = await gen();
      await c.kubectl('label', 'rs', 'web', '-n', NS, 'owner=team');
      await c.kubectl('patch', 'rs', 'web', '-n', NS, '--subresource', 'status', '--type', 'merge', '-p', '{"status":{"replicas":3}}');
      return { stdout: r.stdout, requests: c.requests(r.stderr), generations: [g0, g1, await gen()] };
    },
    want: {
      stdout: 'replicaset.apps/web scaled\n',
      requests: [`GET /apis/apps/v1/namespaces/${NS}/replicasets/web 200`, `PATCH /apis/apps/v1/namespaces/${NS}/replicasets/web/scale 200`],
      generations: [1, 2, 2],
    },
  },
  {
    name: 'label selectors',
    facts: '`get pods` → `GET …/pods?limit=500` with the selector',
    act: async (c) => {
      const r = await c.kubectl('get', 'pods', '-n', NS, '-l', 'app=web,touched in (yes),tier notin (db),!gone', '-o', 'name');
      const absent = await c.kubectl('get', 'pods', '-n', NS, '-l', 'touched notin (yes)', '-o', 'name');
      return { stdout: r.stdout, absent: absent.stdout };
    },
    // notin also matches the objects that do not carry the label
    want: { stdout: 'pod/p1\n', absent: expect.stringMatching(/^pod\/orphan\npod\/web-abc-\w{5}\n$/) },
  },
  {
    name: 'pagination: --chunk-size pages with continue tokens',
    facts: '`get pods` → `GET …/pods?limit=500`; with --chunk-size the limit is the chunk size and each page carries the continue token',
    act: async (c) => {
      const r = await c.kubectl('get', 'pods', '-n', NS, '--chunk-size', '2', '-o', 'name', '-v=6');
      const all = await c.kubectl('get', 'pods', '-n', NS, '-o', 'name');
      return { same: r.stdout === all.stdout, pages: c.requests(r.stderr).map((l) => l.replace(/continue=[^&\s]+/, 'continue=…')) };
    },
    want: {
      same: true,
      pages: [`GET /api/v1/namespaces/${NS}/pods?limit=2 200`, `GET /api/v1/namespaces/${NS}/pods?continue=…&limit=2 200`],
    },
  },
  {
    name: 'server dry run on every verb leaves the state unchanged',
    facts:
      '`kubectl delete pod X --dry-run=server` (`DELETE …?dryRun=All`) → 200, prints `pod "X" deleted (server dry run)`, and the pod is still there. `dryRun=All` leaves storage untouched on every write verb',
    act: async (c) => {
      const rv = async () => (await c.http('GET', `/api/v1/namespaces/${NS}/pods`)).json.metadata.resourceVersion;
      const before = await rv();
      const file = await c.file('dry.yaml', POD('dry'));
      const outs = [
        await c.kubectl('create', '-f', file, '--dry-run=server'),
        await c.kubectl('apply', '-f', file, '--dry-run=server'),
        await c.kubectl('patch', 'pod', 'p1', '-n', NS, '--type', 'merge', '-p', '{"metadata":{"labels":{"d":"1"}}}', '--dry-run=server'),
        await c.kubectl('label', 'pod', 'p1', '-n', NS, 'd=1', '--dry-run=server'),
        await c.kubectl('scale', 'rs', 'web', '-n', NS, '--replicas', '9', '--dry-run=server'),
        await c.kubectl('delete', 'pod', 'p1', '-n', NS, '--dry-run=server'),
      ].map((r) => r.stdout);
      return { outs, unchanged: (await rv()) === before, dry: (await c.http('GET', `/api/v1/namespaces/${NS}/pods/dry`)).status };
    },
    want: {
      outs: [
        'pod/dry created (server dry run)\n',
        'pod/dry created (server dry run)\n',
        'pod/p1 patched\n', // kubectl's patch prints no dry-run suffix
        'pod/p1 labeled (server dry run)\n',
        'replicaset.apps/web scaled (server dry run)\n',
        'pod "p1" deleted (server dry run)\n',
      ],
      unchanged: true,
      dry: 404,
    },
  },
  {
    name: 'watch from a resourceVersion older than the server keeps: 200, one ERROR 410 Expired, end',
    facts:
      'watch from a resourceVersion older than the server keeps → HTTP 200, then one event `{"type":"ERROR","object":{"kind":"Status","status":"Failure","message":"too old resource version: 1 (497)","reason":"Expired","code":410}}`, then the stream ends',
    act: async (c) => {
      // more writes than the sandbox's watch history (50 here) keeps
      for (let i = 0; i < 60; i++)
        await c.http('PATCH', `/api/v1/namespaces/${NS}/pods/p1`, {
          body: { metadata: { annotations: { n: String(i) } } },
          contentType: 'application/merge-patch+json',
        });
      return c.watch(`/api/v1/namespaces/${NS}/pods?watch=true&resourceVersion=1`);
    },
    want: {
      status: 200,
      ended: true,
      events: [
        {
          type: 'ERROR',
          object: { kind: 'Status', status: 'Failure', message: expect.stringMatching(/^too old resource version: 1 \(\d+\)$/), reason: 'Expired', code: 410 },
        },
      ],
    },
  },
  {
    name: 'finalizers hold a deleted pod until they are removed',
    facts: 'a pod with no node is removed at once unless finalizers hold it (registry.Store: deletionTimestamp set, object kept while finalizers remain)',
    act: async (c) => {
      await c.kubectl('create', '-f', await c.file('held.yaml', POD('held').replace('labels:', 'finalizers: [example.com/hold]\n  labels:')));
      const del = await c.kubectl('delete', 'pod', 'held', '-n', NS, '--wait=false');
      const held = (await c.http('GET', `/api/v1/namespaces/${NS}/pods/held`)).json;
      await c.kubectl('patch', 'pod', 'held', '-n', NS, '--type', 'merge', '-p', '{"metadata":{"finalizers":null}}');
      return {
        del: del.stdout,
        terminating: !!held.metadata.deletionTimestamp,
        grace: held.metadata.deletionGracePeriodSeconds,
        after: (await c.http('GET', `/api/v1/namespaces/${NS}/pods/held`)).status,
      };
    },
    want: { del: 'pod "held" deleted\n', terminating: true, grace: 0, after: 404 },
  },
  {
    name: 'delete of a pod on a node: it stays with deletionTimestamp and grace 30; without a node it goes at once',
    facts:
      'delete a pod that has `spec.nodeName` (no kubelet running) → 200; the pod stays, with `deletionTimestamp` and `deletionGracePeriodSeconds: 30`, until the kubelet (or a force delete with grace 0) removes it. A pod with no node is removed at once.',
    act: async (c) => {
      await c.kubectl('create', '-f', await c.file('bound.yaml', `${POD('bound', '  nodeName: node-1\n')}---\n${POD('loose')}`));
      const del = await c.kubectl('delete', 'pod', 'bound', 'loose', '-n', NS, '--wait=false');
      const bound = (await c.http('GET', `/api/v1/namespaces/${NS}/pods/bound`)).json;
      const force = await c.kubectl('delete', 'pod', 'bound', '-n', NS, '--grace-period=0', '--force');
      return {
        del: del.stdout,
        bound: { terminating: !!bound.metadata.deletionTimestamp, grace: bound.metadata.deletionGracePeriodSeconds },
        loose: (await c.http('GET', `/api/v1/namespaces/${NS}/pods/loose`)).status,
        force: force.code,
        gone: (await c.http('GET', `/api/v1/namespaces/${NS}/pods/bound`)).status,
      };
    },
    want: { del: 'pod "bound" deleted\npod "loose" deleted\n', bound: { terminating: true, grace: 30 }, loose: 404, force: 0, gone: 404 },
  },
  {
    name: 'create in a terminating namespace: 403 NamespaceTerminating with its cause',
    facts:
      'create in a namespace that is being deleted → 403 Forbidden, message `pods "t" is forbidden: unable to create new content in namespace shop-old because it is being terminated`, `details.causes[0]` = `{"reason":"NamespaceTerminating","message":"namespace shop-old is being terminated","field":"metadata.namespace"}`',
    act: async (c) => {
      await c.namespace('shop-old');
      await c.kubectl(
        'create',
        '-f',
        await c.file(
          'old.yaml',
          POD('keep').replace(`namespace: ${NS}`, 'namespace: shop-old').replace('labels:', 'finalizers: [example.com/hold]\n  labels:'),
        ),
      );
      await c.kubectl('delete', 'namespace', 'shop-old', '--wait=false');
      const r = await c.kubectl('create', '-f', await c.file('t.yaml', POD('t').replace(`namespace: ${NS}`, 'namespace: shop-old')));
      const h = await c.http('POST', '/api/v1/namespaces/shop-old/pods', {
        body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 't' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      });
      return { code: r.code, stderr: r.stderr, status: h.status, body: h.json };
    },
    want: {
      code: 1,
      stderr:
        'Error from server (Forbidden): error when creating "{dir}/t.yaml": pods "t" is forbidden: unable to create new content in namespace shop-old because it is being terminated\n',
      status: 403,
      body: {
        reason: 'Forbidden',
        message: 'pods "t" is forbidden: unable to create new content in namespace shop-old because it is being terminated',
        details: {
          name: 't',
          kind: 'pods',
          causes: [{ reason: 'NamespaceTerminating', message: 'namespace shop-old is being terminated', field: 'metadata.namespace' }],
        },
      },
    },
  },
  {
    name: 'apply -f: create, then a changed file is a three-way merge patch, then unchanged',
    facts: 'kubectl apply (client-side): GET, then POST when missing, else a strategic merge patch computed from last-applied, live and the file',
    act: async (c) => {
      const v1 = RS('applied', 1, 'applied').replace(
        'containers: [{name: c, image: nginx:1.27}]',
        'containers: [{name: c, image: nginx:1.27, env: [{name: A, value: "1"}]}]',
      );
      const v2 = v1.replace('replicas: 1', 'replicas: 2').replace('env: [{name: A, value: "1"}]', 'env: [{name: A, value: "1"}, {name: B, value: "2"}]');
      const outs = [
        await c.kubectl('apply', '-f', await c.file('a1.yaml', v1)),
        await c.kubectl('apply', '-f', await c.file('a2.yaml', v2)),
        await c.kubectl('apply', '-f', await c.file('a2.yaml', v2)),
      ];
      const rs = (await c.http('GET', `/apis/apps/v1/namespaces/${NS}/replicasets/applied`)).json;
      return {
        outs: outs.map((r) => r.stdout),
        stderr: outs.map((r) => r.stderr).join(''),
        replicas: rs.spec.replicas,
        env: rs.spec.template.spec.containers[0].env.map((e: { name: string }) => e.name),
      };
    },
    want: {
      outs: ['replicaset.apps/applied created\n', 'replicaset.apps/applied configured\n', 'replicaset.apps/applied unchanged\n'],
      stderr: '', // no "warning: error calculating patch from openapi spec"
      replicas: 2,
      env: ['A', 'B'],
    },
  },
  {
    name: "create -f --dry-run=server and apply -f of every bundled example (kind: List) pass kubectl's validation",
    facts:
      'kubectl pkg/validation: a v1 List always gets client-side schema validation, from /openapi/v2 as protobuf (client-go discovery OpenAPISchema, no JSON fallback)',
    act: async (c) => {
      const out: Record<string, unknown> = {};
      for (const name of c.examples()) {
        const file = c.example(name);
        for (const ns of c.namespacesOf(file)) await c.namespace(ns);
        const dry = await c.kubectl('create', '-f', file, '--dry-run=server');
        const apply = await c.kubectl('apply', '-f', file);
        out[name] = [dry.code, dry.stderr, apply.code, apply.stderr];
      }
      return out;
    },
    want: {
      ...Object.fromEntries(
        [
          'deployment-rollout',
          'drifted-replicaset',
          'orphaned-pods',
          'orphans-and-released',
          'overlapping-selectors',
          'replication-controller',
          'scale-down-ranking',
        ].map((n) => [`${n}.yaml`, [0, '', 0, '']]),
      ),
      // the example's ReplicaSet "broken" is invalid on purpose (an input for explain): a real server refuses it
      // (apimachinery ValidateLabelSelectorRequirement) and takes the rest of the List
      'invalid-selector.yaml': [
        1,
        'The ReplicaSet "broken" is invalid: spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator\n',
        1,
        'The ReplicaSet "broken" is invalid: spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator\n',
      ],
    },
  },
  {
    name: "kubectl's typed generators send protobuf bodies, and they work",
    facts:
      'Observed 2026-11-25: `kubectl create namespace`, `create deployment`, `create configmap` send protobuf (`k8s\\0` + runtime.Unknown); kubectl has no fallback: a 415 or 400 fails the command.',
    act: async (c) => {
      const runs = [
        await c.kubectl('create', '-v=8', 'namespace', 'gen'),
        await c.kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '-n', NS),
        await c.kubectl('create', 'configmap', 'cm', '--from-literal=a=b', '-n', NS),
        await c.kubectl('create', 'secret', 'generic', 's', '--from-literal=k=v', '-n', NS),
        await c.kubectl('create', 'serviceaccount', 'bot', '-n', NS),
      ];
      const cm = await c.http('GET', `/api/v1/namespaces/${NS}/configmaps/cm`);
      const secret = await c.http('GET', `/api/v1/namespaces/${NS}/secrets/s`);
      const deploy = await c.http('GET', `/apis/apps/v1/namespaces/${NS}/deployments/web`);
      return {
        results: runs.map((r) => [r.code, r.stdout.trim()]),
        protobuf: /Content-Type: application\/vnd\.kubernetes\.protobuf/.test(runs[0].stderr),
        cm: cm.json.data,
        secret: [secret.json.type, secret.json.data],
        deploy: [deploy.json.spec.replicas, deploy.json.spec.template.spec.containers[0].image, deploy.json.spec.strategy.type],
      };
    },
    want: {
      results: [
        [0, 'namespace/gen created'],
        [0, 'deployment.apps/web created'],
        [0, 'configmap/cm created'],
        [0, 'secret/s created'],
        [0, 'serviceaccount/bot created'],
      ],
      protobuf: true,
      cm: { a: 'b' },
      secret: ['Opaque', { k: 'dg==' }],
      deploy: [1, 'nginx:1.27', 'RollingUpdate'],
    },
  },
  {
    name: 'ServiceAccount admission: a pod naming a service account that does not exist is forbidden',
    facts:
      'Observed 2026-11-25: create a pod in a namespace that has no `default` ServiceAccount → 403 Forbidden: `pods "x" is forbidden: error looking up service account NS/default: serviceaccount "default" not found` (upstream plugin/pkg/admission/serviceaccount: the same lookup for a named account)',
    act: async (c) => {
      const r = await c.kubectl('run', 'x', '--image=nginx:1.27', '-n', NS, '--overrides', JSON.stringify({ spec: { serviceAccountName: 'nobody' } }));
      const h = await c.http('POST', `/api/v1/namespaces/${NS}/pods`, {
        body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'y' }, spec: { serviceAccountName: 'nobody', containers: [{ name: 'c', image: 'nginx' }] } },
      });
      return { code: r.code, stderr: r.stderr, status: h.status, body: h.json };
    },
    want: {
      code: 1,
      stderr: `Error from server (Forbidden): pods "x" is forbidden: error looking up service account ${NS}/nobody: serviceaccount "nobody" not found\n`,
      status: 403,
      body: {
        kind: 'Status',
        status: 'Failure',
        reason: 'Forbidden',
        code: 403,
        message: `pods "y" is forbidden: error looking up service account ${NS}/nobody: serviceaccount "nobody" not found`,
        details: { name: 'y', kind: 'pods' },
      },
    },
  },
];
