// Checking and slimming the kinds the controllers read (pods, ReplicaSets, ReplicationControllers, Deployments).
//
// Validation is limited to what the controller reads, plus kubectl's strict field validation
// at the levels where a typo silently changes the result (top level, metadata, the RS/RC spec,
// the selector, the template). Label-selector *semantics* (operators, key syntax) are the
// planner's business: upstream tolerates an invalid selector by skipping that controller.
//
// Projection keeps only what the controller (and the plan renderers) need, so a snapshot of a
// big cluster fits in memory: for pods, identity, labels, annotations, owners, node, phase,
// conditions and restart counts; for ReplicaSets and ReplicationControllers, metadata, the whole
// spec (its template is what new pods are made from) and the status.

import { isRfc3339, timeValue, withoutDates } from './timestamps.js';
import type {
  Deployment,
  Container,
  ContainerStatus,
  ControllerKind,
  ObjectMeta,
  Pod,
  PodSpec,
  PodStatus,
  ReplicaSet,
  ReplicaSetStatus,
  ReplicationController,
} from '../core/types.js';

export type Path = ReadonlyArray<string | number>;
type Obj = Record<string, unknown>;

/** A problem with one field of one object; the loader adds the file, line and object name. */
export class FieldError extends Error {
  constructor(
    readonly path: Path,
    message: string,
  ) {
    super(message);
    this.name = 'FieldError';
  }
}

export function isMapping(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `spec.template.metadata.labels["app.kubernetes.io/name"]`, `status.conditions[1].type`. */
export function formatPath(path: Path): string {
  let s = '';
  for (const seg of path) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) s += s === '' ? seg : `.${seg}`;
    else s += `[${JSON.stringify(seg)}]`;
  }
  return s;
}

/** `s` as is, or quoted and escaped when it holds line breaks or other control characters. */
export function printable(s: string): string {
  return /[\u0000-\u001f\u007f\u2028\u2029]/.test(s) ? JSON.stringify(s) : s;
}

/** `string "three"`, `number 1.5`, `boolean true`, `null`, `a list`, `a mapping`. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  switch (typeof v) {
    case 'string':
      return `string ${JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v)}`;
    case 'number':
    case 'bigint':
      return `number ${String(v)}`;
    case 'boolean':
      return `boolean ${String(v)}`;
    case 'object':
      return v instanceof Date ? `timestamp ${v.toISOString()}` : 'a mapping';
    default:
      return typeof v;
  }
}

// ---------------------------------------------------------------------------------------------
// Field checks. Each gets the value (read by the caller with a plain property access, which V8
// keeps fast, unlike `o[key]` through a shared helper), the parent's path and the key; the full
// path is only built on failure. This runs for every field of every pod of a big snapshot.

const INT32_MAX = 2147483647;

function at(path: Path, key: string | number): Path {
  return [...path, key];
}

function mustBe(path: Path, key: string | number, expected: string, v: unknown): never {
  const p = at(path, key);
  throw new FieldError(p, `${formatPath(p)} must be ${expected}, got ${describeValue(v)}`);
}

function mapping(v: unknown, path: Path, key: string): Obj | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isMapping(v)) mustBe(path, key, 'a mapping', v);
  return v;
}

function list(v: unknown, path: Path, key: string): unknown[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) mustBe(path, key, 'a list', v);
  return v;
}

function string(v: unknown, path: Path, key: string): void {
  if (v !== undefined && v !== null && typeof v !== 'string') mustBe(path, key, 'a string', v);
}

function requiredString(v: unknown, path: Path, key: string): void {
  if (typeof v === 'string') return;
  if (v === undefined || v === null) {
    const p = at(path, key);
    throw new FieldError(p, `${formatPath(p)} is missing`);
  }
  mustBe(path, key, 'a string', v);
}

function boolean(v: unknown, path: Path, key: string): void {
  if (v !== undefined && v !== null && typeof v !== 'boolean') mustBe(path, key, 'a boolean', v);
}

function integer(v: unknown, path: Path, key: string, nonNegative = false, max = Number.MAX_SAFE_INTEGER): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'number' || !Number.isInteger(v)) mustBe(path, key, 'an integer', v);
  if (nonNegative && v < 0) {
    const p = at(path, key);
    throw new FieldError(p, `${formatPath(p)} must not be negative, got ${v}`);
  }
  if (v > max || v < -max - 1) {
    const p = at(path, key);
    throw new FieldError(p, `${formatPath(p)} must be at most ${max}, got ${v}`);
  }
}

function timestamp(v: unknown, path: Path, key: string): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'string') mustBe(path, key, 'an RFC3339 timestamp string', v);
  if (!isRfc3339(v)) {
    const p = at(path, key);
    throw new FieldError(p, `${formatPath(p)} must be an RFC3339 timestamp like "2006-01-02T15:04:05Z", got ${describeValue(v)}`);
  }
}

function stringMap(v: unknown, path: Path, key: string): void {
  const m = mapping(v, path, key);
  if (!m) return;
  for (const k in m) {
    if (typeof m[k] !== 'string') mustBe(at(path, key), k, 'a string', m[k]);
  }
}

function stringList(v: unknown, path: Path, key: string): void {
  const l = list(v, path, key);
  if (!l) return;
  for (let i = 0; i < l.length; i++) {
    if (typeof l[i] !== 'string') mustBe(at(path, key), i, 'a string', l[i]);
  }
}

/**
 * The path of a list element, `[...parent, key, index]`: one array per list field, its index
 * updated in place for each element (a failing check copies it), so that checking the
 * conditions of 100,000 pods allocates nothing.
 */
type ElementPath = Array<string | number>;

function elementPath(...parent: string[]): ElementPath {
  return [...parent, 0];
}

/** Each element of the list `v` (at `p` without its index) must be a mapping passing `check`. */
function mappings(v: unknown, p: ElementPath, check: (e: Obj, p: Path) => void): void {
  if (v === undefined || v === null) return;
  const last = p.length - 1;
  if (!Array.isArray(v)) mustBe(p.slice(0, last - 1), p[last - 1], 'a list', v);
  for (let i = 0; i < v.length; i++) {
    const e: unknown = v[i];
    p[last] = i;
    if (!isMapping(e)) mustBe(p.slice(0, last), i, 'a mapping', e);
    check(e, p);
  }
}

function known(o: Obj, allowed: ReadonlySet<string>, path: Path): void {
  for (const k in o) {
    if (!allowed.has(k)) {
      const p = at(path, k);
      throw new FieldError(p, `unknown field ${JSON.stringify(p.join('.'))}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Per-kind validation

const OBJECT_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
const META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
  'clusterName',
]);
const CONTROLLER_SPEC_FIELDS = new Set(['replicas', 'minReadySeconds', 'selector', 'template']);
const SELECTOR_FIELDS = new Set(['matchLabels', 'matchExpressions']);
const REQUIREMENT_FIELDS = new Set(['key', 'operator', 'values']);
const TEMPLATE_FIELDS = new Set(['metadata', 'spec']);

const METADATA_OWNERS = elementPath('metadata', 'ownerReferences');
const TEMPLATE_OWNERS = elementPath('spec', 'template', 'metadata', 'ownerReferences');
const INIT_CONTAINERS = elementPath('spec', 'initContainers');
const CONDITIONS = elementPath('status', 'conditions');
const CONTAINER_STATUSES = elementPath('status', 'containerStatuses');
const INIT_CONTAINER_STATUSES = elementPath('status', 'initContainerStatuses');
const MATCH_EXPRESSIONS = elementPath('spec', 'selector', 'matchExpressions');

const ROOT: Path = [];
const METADATA: Path = ['metadata'];
const SPEC: Path = ['spec'];
const STATUS: Path = ['status'];
const SELECTOR: Path = ['spec', 'selector'];
const TEMPLATE: Path = ['spec', 'template'];
const TEMPLATE_METADATA: Path = ['spec', 'template', 'metadata'];

const UID_MISSING_HINT = 'a snapshot must come from the API server (e.g. kubectl get rs,rc,pods -A -o yaml)';

function checkOwnerReference(r: Obj, p: Path): void {
  requiredString(r.uid, p, 'uid');
  requiredString(r.kind, p, 'kind');
  requiredString(r.name, p, 'name');
  string(r.apiVersion, p, 'apiVersion');
  boolean(r.controller, p, 'controller');
  boolean(r.blockOwnerDeletion, p, 'blockOwnerDeletion');
}

/** Shared by objects and pod templates: the ObjectMeta fields the controller reads. */
function checkMetaFields(m: Obj, path: Path, owners: ElementPath): void {
  known(m, META_FIELDS, path);
  string(m.generateName, path, 'generateName');
  string(m.namespace, path, 'namespace');
  string(m.resourceVersion, path, 'resourceVersion');
  string(m.selfLink, path, 'selfLink');
  integer(m.generation, path, 'generation', true);
  timestamp(m.creationTimestamp, path, 'creationTimestamp');
  timestamp(m.deletionTimestamp, path, 'deletionTimestamp');
  integer(m.deletionGracePeriodSeconds, path, 'deletionGracePeriodSeconds');
  stringMap(m.labels, path, 'labels');
  stringMap(m.annotations, path, 'annotations');
  mappings(m.ownerReferences, owners, checkOwnerReference);
  stringList(m.finalizers, path, 'finalizers');
  list(m.managedFields, path, 'managedFields');
}

function checkMetadata(o: Obj): void {
  const m = o.metadata;
  if (m === undefined || m === null) throw new FieldError(METADATA, 'metadata.name is missing');
  if (!isMapping(m)) mustBe(ROOT, 'metadata', 'a mapping', m);
  if (m.name === undefined || m.name === null || m.name === '') {
    throw new FieldError(at(METADATA, 'name'), 'metadata.name is missing');
  }
  if (typeof m.name !== 'string') mustBe(METADATA, 'name', 'a string', m.name);
  if (m.uid === undefined || m.uid === null || m.uid === '') {
    throw new FieldError(at(METADATA, 'uid'), `metadata.uid is missing: ${UID_MISSING_HINT}`);
  }
  if (typeof m.uid !== 'string') mustBe(METADATA, 'uid', 'a string', m.uid);
  checkMetaFields(m, METADATA, METADATA_OWNERS);
}

function checkCondition(c: Obj, p: Path): void {
  requiredString(c.type, p, 'type');
  requiredString(c.status, p, 'status');
  timestamp(c.lastTransitionTime, p, 'lastTransitionTime');
  timestamp(c.lastProbeTime, p, 'lastProbeTime');
  string(c.reason, p, 'reason');
  string(c.message, p, 'message');
}

function checkContainerStatus(s: Obj, p: Path): void {
  requiredString(s.name, p, 'name');
  integer(s.restartCount, p, 'restartCount', true, INT32_MAX);
  boolean(s.ready, p, 'ready');
}

function checkInitContainer(c: Obj, p: Path): void {
  requiredString(c.name, p, 'name');
  string(c.restartPolicy, p, 'restartPolicy');
}

/** Throws a FieldError for the first problem of a Pod (as decoded from YAML/JSON). */
export function validatePod(o: Obj): void {
  known(o, OBJECT_FIELDS, ROOT);
  checkMetadata(o);
  const spec = mapping(o.spec, ROOT, 'spec');
  if (spec) {
    string(spec.nodeName, SPEC, 'nodeName');
    mappings(spec.initContainers, INIT_CONTAINERS, checkInitContainer);
  }
  const status = mapping(o.status, ROOT, 'status');
  if (status) {
    string(status.phase, STATUS, 'phase');
    mappings(status.conditions, CONDITIONS, checkCondition);
    mappings(status.containerStatuses, CONTAINER_STATUSES, checkContainerStatus);
    mappings(status.initContainerStatuses, INIT_CONTAINER_STATUSES, checkContainerStatus);
  }
}

function checkRequirement(r: Obj, p: Path): void {
  known(r, REQUIREMENT_FIELDS, p);
  string(r.key, p, 'key');
  string(r.operator, p, 'operator');
  stringList(r.values, p, 'values');
}

/** spec.selector as a metav1.LabelSelector (ReplicaSets, Deployments). */
function checkLabelSelector(spec: Obj): void {
  const selector = mapping(spec.selector, SPEC, 'selector');
  if (!selector) return;
  known(selector, SELECTOR_FIELDS, SELECTOR);
  stringMap(selector.matchLabels, SELECTOR, 'matchLabels');
  mappings(selector.matchExpressions, MATCH_EXPRESSIONS, checkRequirement);
}

/** spec.template: its known fields, its metadata, a mapping for its spec. */
function checkPodTemplate(spec: Obj): void {
  const template = mapping(spec.template, SPEC, 'template');
  if (!template) return;
  known(template, TEMPLATE_FIELDS, TEMPLATE);
  const tm = mapping(template.metadata, TEMPLATE, 'metadata');
  if (tm) checkMetaFields(tm, TEMPLATE_METADATA, TEMPLATE_OWNERS);
  mapping(template.spec, TEMPLATE, 'spec');
}

/** Throws a FieldError for the first problem of a ReplicaSet or ReplicationController. */
export function validateController(o: Obj, kind: ControllerKind): void {
  known(o, OBJECT_FIELDS, ROOT);
  checkMetadata(o);
  const spec = mapping(o.spec, ROOT, 'spec');
  if (spec) {
    known(spec, CONTROLLER_SPEC_FIELDS, SPEC);
    integer(spec.replicas, SPEC, 'replicas', true, INT32_MAX);
    integer(spec.minReadySeconds, SPEC, 'minReadySeconds', true, INT32_MAX);
    if (kind === 'ReplicaSet') {
      checkLabelSelector(spec);
    } else {
      stringMap(spec.selector, SPEC, 'selector');
    }
    checkPodTemplate(spec);
  }
  const status = mapping(o.status, ROOT, 'status');
  if (status) {
    integer(status.replicas, STATUS, 'replicas', true, INT32_MAX);
    integer(status.fullyLabeledReplicas, STATUS, 'fullyLabeledReplicas', true, INT32_MAX);
    integer(status.readyReplicas, STATUS, 'readyReplicas', true, INT32_MAX);
    integer(status.availableReplicas, STATUS, 'availableReplicas', true, INT32_MAX);
    integer(status.terminatingReplicas, STATUS, 'terminatingReplicas', true, INT32_MAX);
    integer(status.observedGeneration, STATUS, 'observedGeneration');
    mappings(status.conditions, CONDITIONS, checkCondition);
  }
}

/**
 * A Deployment: the fields the deployment controller reads (its strategy's values are checked by
 * the rules, which refuse what validation would).
 */
export function validateDeployment(o: Obj): void {
  known(o, OBJECT_FIELDS, ROOT);
  checkMetadata(o);
  const spec = mapping(o.spec, ROOT, 'spec');
  if (spec) {
    integer(spec.replicas, SPEC, 'replicas', true, INT32_MAX);
    integer(spec.minReadySeconds, SPEC, 'minReadySeconds', true, INT32_MAX);
    integer(spec.revisionHistoryLimit, SPEC, 'revisionHistoryLimit', true, INT32_MAX);
    integer(spec.progressDeadlineSeconds, SPEC, 'progressDeadlineSeconds', true, INT32_MAX);
    checkLabelSelector(spec);
    checkPodTemplate(spec);
    mapping(spec.strategy, SPEC, 'strategy');
  }
  const status = mapping(o.status, ROOT, 'status');
  if (status) {
    for (const key of ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount'])
      integer(status[key], STATUS, key, true, INT32_MAX);
    integer(status.observedGeneration, STATUS, 'observedGeneration');
  }
}

// ---------------------------------------------------------------------------------------------
// Projection

/** The part of a Deployment its controller reads: metadata, the whole spec, the status. */
export function slimDeployment(obj: object): Deployment {
  const o = obj as Obj;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: slimMeta(isMapping(o.metadata) ? o.metadata : {}, true),
    spec: withoutDates(isMapping(o.spec) ? o.spec : {}) as Deployment['spec'],
    status: withoutDates(isMapping(o.status) ? o.status : {}) as Deployment['status'],
  };
}

function slimMeta(m: Obj, withGeneration: boolean): ObjectMeta {
  const out = { name: m.name } as ObjectMeta;
  if (m.generateName != null) out.generateName = m.generateName as string;
  // Every namespaced object has one; a hand-made snapshot may leave it out.
  out.namespace = typeof m.namespace === 'string' && m.namespace !== '' ? m.namespace : 'default';
  out.uid = m.uid as string;
  if (withGeneration && m.generation != null) out.generation = m.generation as number;
  if (m.resourceVersion != null) out.resourceVersion = m.resourceVersion as string;
  if (m.creationTimestamp !== undefined) out.creationTimestamp = timeValue(m.creationTimestamp);
  if (m.deletionTimestamp !== undefined) out.deletionTimestamp = timeValue(m.deletionTimestamp);
  if (m.deletionGracePeriodSeconds != null) out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds as number;
  if (m.labels !== undefined) out.labels = m.labels as ObjectMeta['labels'];
  if (m.annotations !== undefined) out.annotations = m.annotations as ObjectMeta['annotations'];
  if (m.ownerReferences !== undefined) out.ownerReferences = m.ownerReferences as ObjectMeta['ownerReferences'];
  if (m.finalizers !== undefined) out.finalizers = m.finalizers as ObjectMeta['finalizers'];
  return out;
}

function slimContainerStatuses(v: unknown): ContainerStatus[] | null | undefined {
  if (!Array.isArray(v)) return v as null | undefined;
  return v.map((s: Obj) => {
    const out = { name: s.name } as ContainerStatus;
    if (s.restartCount != null) out.restartCount = s.restartCount as number;
    if (s.ready != null) out.ready = s.ready as boolean;
    return out;
  });
}

function slimConditions<T>(v: unknown): T[] | null | undefined {
  // Conditions are small and kept whole (no copy); only client-node's Dates need converting.
  if (!Array.isArray(v)) return v as null | undefined;
  let out: unknown[] | undefined;
  for (let i = 0; i < v.length; i++) {
    const c = v[i] as { lastTransitionTime?: unknown; lastProbeTime?: unknown };
    if (c.lastTransitionTime instanceof Date || c.lastProbeTime instanceof Date) {
      (out ??= v.slice())[i] = withoutDates(c);
    }
  }
  return (out ?? v) as T[];
}

/**
 * The part of a Pod the controller reads. Accepts what the API server sends (as JSON, YAML or a
 * @kubernetes/client-node object, whose times are Dates); `kind`/`apiVersion` are always set.
 */
export function slimPod(obj: object): Pod {
  const o = obj as Obj;
  const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: slimMeta(isMapping(o.metadata) ? o.metadata : {}, false) };
  const spec = o.spec;
  if (isMapping(spec)) {
    const s: PodSpec = {};
    if (spec.nodeName != null) s.nodeName = spec.nodeName as string;
    if (Array.isArray(spec.initContainers)) {
      s.initContainers = spec.initContainers.map((c: Obj) => {
        const out: Container = { name: c.name as string };
        if (c.restartPolicy != null) out.restartPolicy = c.restartPolicy as string;
        return out;
      });
    }
    pod.spec = s;
  }
  const status = o.status;
  if (isMapping(status)) {
    const s: PodStatus = {};
    if (status.phase != null) s.phase = status.phase as string;
    if (status.conditions !== undefined) s.conditions = slimConditions(status.conditions);
    if (status.containerStatuses !== undefined) s.containerStatuses = slimContainerStatuses(status.containerStatuses);
    if (status.initContainerStatuses !== undefined) {
      s.initContainerStatuses = slimContainerStatuses(status.initContainerStatuses);
    }
    pod.status = s;
  }
  return pod;
}

const STATUS_COUNTS = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const;

/**
 * The part of a ReplicaSet or ReplicationController the controller reads: metadata, the whole
 * spec, the status. `kind` defaults to the object's own (API list items carry none).
 */
export function slimController(obj: object, kind: 'ReplicaSet'): ReplicaSet;
export function slimController(obj: object, kind: 'ReplicationController'): ReplicationController;
export function slimController(obj: object, kind?: ControllerKind): ReplicaSet | ReplicationController;
export function slimController(obj: object, kind?: ControllerKind): ReplicaSet | ReplicationController {
  const o = obj as Obj;
  const k: ControllerKind = kind ?? (o.kind === 'ReplicationController' ? 'ReplicationController' : 'ReplicaSet');
  const src = isMapping(o.spec) ? o.spec : {};
  const spec: Obj = {};
  for (const key of Object.keys(src)) {
    const v = src[key];
    if (v === undefined || (v === null && (key === 'replicas' || key === 'minReadySeconds'))) continue;
    spec[key] = key === 'template' ? withoutDates(v) : v;
  }
  const out = {
    apiVersion: k === 'ReplicaSet' ? 'apps/v1' : 'v1',
    kind: k,
    metadata: slimMeta(isMapping(o.metadata) ? o.metadata : {}, true),
    spec,
  } as ReplicaSet | ReplicationController;
  if (isMapping(o.status)) {
    const st = o.status;
    const status: ReplicaSetStatus = {};
    for (const key of STATUS_COUNTS) if (st[key] != null) status[key] = st[key] as number;
    if (st.terminatingReplicas !== undefined) status.terminatingReplicas = st.terminatingReplicas as number | null;
    if (st.conditions !== undefined) status.conditions = slimConditions(st.conditions);
    out.status = status;
  }
  return out;
}
