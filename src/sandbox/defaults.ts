// Defaulting and the create/update strategies (PrepareForCreate / PrepareForUpdate) of each resource.
import { badRequest } from './errors.js';
import type { Kind as ResourceDef } from './kinds/kind.js';
import { isObj } from '../core/guards.js';
import { clone, deepEqual, type Obj } from './util.js';

function defaultContainer(c: Obj): void {
  if (!isObj(c)) return;
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  if (c.imagePullPolicy === undefined && typeof c.image === 'string') {
    const ref = c.image.split('@')[0];
    const lastSlash = ref.lastIndexOf('/');
    const colon = ref.lastIndexOf(':');
    const tag = colon > lastSlash ? ref.slice(colon + 1) : '';
    c.imagePullPolicy = tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
  }
  c.resources ??= {};
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObj(p)) p.protocol ??= 'TCP';
}

/** SetDefaults_PodSpec (and what the admission chain adds for real pods). */
export function defaultPodSpec(spec: Obj, isPod: boolean): void {
  if (!isObj(spec)) return;
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  if (Array.isArray(spec.containers)) spec.containers.forEach(defaultContainer);
  if (Array.isArray(spec.initContainers)) spec.initContainers.forEach(defaultContainer);
  if (isPod) {
    // ServiceAccount, Priority and DefaultTolerationSeconds admission. The deprecated
    // serviceAccount is read when serviceAccountName is empty and always written back equal to it
    // (the v1 conversion of PodSpec).
    spec.serviceAccountName = spec.serviceAccountName || spec.serviceAccount || 'default';
    spec.serviceAccount = spec.serviceAccountName;
    if (spec.priority === undefined && !spec.priorityClassName) spec.priority = 0;
    spec.preemptionPolicy ??= 'PreemptLowerPriority';
    const tolerations: Obj[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
    for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
      if (!tolerations.some((t) => t.key === key && (t.effect === 'NoExecute' || !t.effect))) {
        tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
      }
    }
    spec.tolerations = tolerations;
  }
}

/** GetPodQOS, simplified to requests/limits presence. */
export function podQOS(spec: Obj): string {
  const containers = [...((spec?.containers ?? []) as Obj[]), ...((spec?.initContainers ?? []) as Obj[])];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    if (!lim.cpu || !lim.memory) guaranteed = false;
    for (const k of ['cpu', 'memory']) if (req[k] !== undefined && lim[k] !== undefined && req[k] !== lim[k]) guaranteed = false;
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** SetDefaults_Deployment (apps/v1), with the pod template defaulted as for ReplicaSets. */
export function defaultDeployment(o: Obj): void {
  o.spec ??= {};
  const spec = o.spec;
  spec.replicas ??= 1;
  if (isObj(spec.strategy) || spec.strategy === undefined) {
    const strategy = (spec.strategy ??= {});
    strategy.type ||= 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') {
      const ru = (strategy.rollingUpdate ??= {});
      if (isObj(ru)) {
        ru.maxUnavailable ??= '25%';
        ru.maxSurge ??= '25%';
      }
    }
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  if (isObj(spec.template)) defaultPodSpec(spec.template.spec, false);
}

/** How Go's encoding/json reports a string that is not standard base64 (a []byte field). */
function base64Error(s: string): string | undefined {
  const clean = s.replace(/[\r\n]/g, '');
  const bad = clean.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) return `illegal base64 data at input byte ${bad}`;
  const pad = clean.indexOf('=');
  if (pad >= 0 && !/^={1,2}$/.test(clean.slice(pad))) return `illegal base64 data at input byte ${pad}`;
  if (clean.length % 4 !== 0) return `illegal base64 data at input byte ${clean.length - (clean.length % 4)}`;
  return undefined;
}

/** A map[string]string field: anything else fails decoding as the real server's JSON decoder does. */
export function stringMap(res: ResourceDef, o: Obj, field: string): void {
  const m = o[field];
  if (m === undefined || m === null) return;
  const where = `${res.kind}.${field}`;
  if (!isObj(m))
    throw badRequest(
      `${res.kind} in version "v1" cannot be handled as a ${res.kind}: json: cannot unmarshal ${Array.isArray(m) ? 'array' : typeof m} into Go struct field ${where} of type map[string]string`,
    );
  for (const v of Object.values(m)) {
    if (typeof v !== 'string' && v !== null) {
      throw badRequest(
        `${res.kind} in version "v1" cannot be handled as a ${res.kind}: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go struct field ${where} of type string`,
      );
    }
  }
}

/**
 * The v1 Secret conversion: `data` values are base64 ([]byte), `stringData` is written into
 * `data` (it wins over the same key) and never stored. SetDefaults_Secret: type Opaque.
 */
export function convertSecret(res: ResourceDef, o: Obj): void {
  stringMap(res, o, 'data');
  stringMap(res, o, 'stringData');
  for (const v of Object.values((o.data ?? {}) as Record<string, string | null>)) {
    const e = typeof v === 'string' ? base64Error(v) : undefined;
    if (e) throw badRequest(`Secret in version "v1" cannot be handled as a Secret: ${e}`);
  }
  if (isObj(o.stringData) && Object.keys(o.stringData).length > 0) {
    o.data = isObj(o.data) ? o.data : {};
    for (const [k, v] of Object.entries(o.stringData as Record<string, string | null>)) o.data[k] = Buffer.from(v ?? '', 'utf8').toString('base64');
  }
  delete o.stringData;
  o.type ||= 'Opaque';
}

/**
 * Applies API defaults to a whole object (create and update paths alike). `admission: false`: a
 * pod as decoding defaults it, without what admission adds (what the field manager sees on create).
 */
export function applyDefaults(res: ResourceDef, o: Obj, opts: { admission?: boolean } = {}): void {
  res.defaults?.(o, opts);
}

/** PrepareForCreate: the status a client sends on create is not kept (the kind says what it starts with). */
export function prepareForCreate(res: ResourceDef, o: Obj): void {
  if (res.createStatus) o.status = res.createStatus(o);
  if (res.generation) o.metadata.generation = 1;
}

/**
 * PrepareForUpdate. For the main resource, status is copied from the stored object; for the
 * status subresource, spec is (and what else the kind's status strategy keeps). generation
 * follows spec changes (or what the kind says changes it).
 */
export function prepareForUpdate(res: ResourceDef, next: Obj, old: Obj, sub: 'status' | undefined): void {
  const hasStatus = 'status' in res.subresources;
  if (sub === 'status') {
    if (old.spec === undefined) delete next.spec;
    else next.spec = clone(old.spec);
    res.prepareForStatusUpdate?.(next, old);
  } else if (hasStatus) {
    if (old.status === undefined) delete next.status;
    else next.status = clone(old.status);
  }
  if (res.generation) {
    const g = old.metadata.generation ?? 1;
    const changed = sub !== 'status' && res.generationChanged ? res.generationChanged(next, old) : !deepEqual(next.spec, old.spec);
    next.metadata.generation = changed ? g + 1 : g;
  } else if (old.metadata.generation !== undefined) {
    next.metadata.generation = old.metadata.generation;
  } else {
    delete next.metadata.generation;
  }
}

/** Drops what Go's omitempty drops, so stored objects serialize as the real server's do. */
export function normalize(o: Obj): Obj {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!isObj(v)) return v;
    for (const k of Object.keys(v)) {
      if (v[k] === null || v[k] === undefined) delete v[k];
      else v[k] = strip(v[k]);
    }
    return v;
  };
  strip(o);
  const m = o.metadata;
  if (isObj(m)) {
    for (const k of ['labels', 'annotations']) if (isObj(m[k]) && Object.keys(m[k]).length === 0) delete m[k];
    for (const k of ['ownerReferences', 'finalizers', 'managedFields']) if (Array.isArray(m[k]) && m[k].length === 0) delete m[k];
  }
  return o;
}
