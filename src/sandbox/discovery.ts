// Discovery (/version, /api, /apis, group versions) and the OpenAPI v3 documents kubectl reads
// before `create -f` to learn that the server validates fields itself (fieldValidation).
import { createHash } from 'node:crypto';
import { groupVersions, RESOURCES, type ResourceDef } from './resources.js';
import type { Obj } from './util.js';

export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0',
  gitCommit: '70d3cc986aa8221cd1dfb1121852688902d3bf53',
  gitTreeState: 'clean',
  buildDate: '2024-12-11T17:59:15Z',
  goVersion: 'go1.23.3',
  compiler: 'gc',
  platform: 'linux/amd64',
};

export function apiVersions(serverAddress: string): Obj {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupEntry(group: string): Obj {
  const versions = groupVersions()
    .filter((gv) => gv.group === group)
    .map((gv) => ({ groupVersion: `${group}/${gv.version}`, version: gv.version }));
  return { name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupList(): Obj {
  const groups = [...new Set(RESOURCES.map((r) => r.group).filter((g) => g !== ''))];
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(groupEntry) };
}

export function apiGroup(group: string): Obj | undefined {
  if (!RESOURCES.some((r) => r.group === group)) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(group) };
}

export function apiResourceList(group: string, version: string): Obj | undefined {
  const rs = RESOURCES.filter((r) => r.group === group && r.version === version);
  if (rs.length === 0) return undefined;
  const resources: Obj[] = [];
  for (const r of rs) {
    const entry: Obj = { name: r.name, singularName: r.singularName, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs };
    if (r.shortNames) entry.shortNames = r.shortNames;
    if (r.categories) entry.categories = r.categories;
    entry.storageVersionHash = r.storageVersionHash;
    resources.push(entry);
    for (const [sub, d] of Object.entries(r.subresources)) {
      const s: Obj = { name: `${r.name}/${sub}`, singularName: '', namespaced: r.namespaced };
      if (d.group) s.group = d.group;
      if (d.version) s.version = d.version;
      s.kind = d.kind ?? r.kind;
      s.verbs = d.verbs;
      resources.push(s);
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

// ---------------- OpenAPI v3 ----------------

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

const QUERY = (name: string, description: string) => ({ name, in: 'query', description, schema: { type: 'string', uniqueItems: true } });
const WRITE_PARAMS = [
  QUERY('dryRun', 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed'),
  QUERY('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.'),
  QUERY(
    'fieldValidation',
    'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict',
  ),
];

function schemaName(r: ResourceDef): string {
  // the Go package: core for the legacy group, else the group's first label (coordination.k8s.io → coordination)
  const pkg = r.group === '' ? 'core' : r.group.split('.')[0];
  return `io.k8s.api.${pkg}.${r.version}.${r.kind}`;
}

function resourceSchema(r: ResourceDef): Obj {
  const props: Obj = {
    apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
    kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
    metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], default: {} },
  };
  if (r.name !== 'events') props.spec = { type: 'object', description: `Spec of the ${r.kind}.` };
  if ('status' in r.subresources) props.status = { type: 'object', description: `Most recently observed status of the ${r.kind}.` };
  return {
    type: 'object',
    description: `${r.kind} (served by the rs-reconcile sandbox).`,
    properties: props,
    'x-kubernetes-group-version-kind': [{ group: r.group, kind: r.kind, version: r.version }],
  };
}

function operation(r: ResourceDef, action: string, verb: string, params: Obj[], kind = r.kind, group = r.group, version = r.version): Obj {
  const ref = { $ref: `#/components/schemas/${schemaName(r)}` };
  return {
    description: `${verb} ${r.kind}`,
    operationId: `${verb}${r.kind}`,
    parameters: params,
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: ref } } }, '401': { description: 'Unauthorized' } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': { group, version, kind },
  };
}

export function openApiV3Doc(group: string, version: string): Obj | undefined {
  const rs = RESOURCES.filter((r) => r.group === group && r.version === version);
  if (rs.length === 0) return undefined;
  const prefix = `/${gvPath(group, version)}`;
  const paths: Obj = {};
  const schemas: Obj = {
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object', description: 'ObjectMeta is metadata that all persisted resources must have.' },
  };
  for (const r of rs) {
    schemas[schemaName(r)] = resourceSchema(r);
    const coll = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.name}` : `${prefix}/${r.name}`;
    paths[coll] = {
      get: operation(r, 'list', 'list', [QUERY('labelSelector', 'A selector to restrict the list of returned objects by their labels.')]),
      post: operation(r, 'post', 'create', WRITE_PARAMS),
    };
    paths[`${coll}/{name}`] = {
      get: operation(r, 'get', 'read', []),
      put: operation(r, 'put', 'replace', WRITE_PARAMS),
      patch: operation(r, 'patch', 'patch', [...WRITE_PARAMS, QUERY('force', 'Force is going to "force" Apply requests.')]),
      delete: operation(r, 'delete', 'delete', [QUERY('gracePeriodSeconds', 'The duration in seconds before the object should be deleted.')]),
    };
    for (const [sub, d] of Object.entries(r.subresources)) {
      if (sub === 'finalize' || sub === 'binding') continue;
      const ops: Obj = { get: operation(r, 'get', `read${sub}`, [], d.kind ?? r.kind, d.group ?? r.group, d.version ?? r.version) };
      ops.put = operation(r, 'put', `replace${sub}`, WRITE_PARAMS, d.kind ?? r.kind, d.group ?? r.group, d.version ?? r.version);
      ops.patch = operation(r, 'patch', `patch${sub}`, WRITE_PARAMS, d.kind ?? r.kind, d.group ?? r.group, d.version ?? r.version);
      paths[`${coll}/{name}/${sub}`] = ops;
    }
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: SERVER_VERSION.gitVersion },
    paths,
    components: { schemas },
  };
}

let rootCache: Obj | undefined;

export function openApiV3Root(): Obj {
  if (rootCache) return rootCache;
  const paths: Obj = {};
  for (const gv of groupVersions()) {
    const p = gvPath(gv.group, gv.version);
    const hash = createHash('sha512')
      .update(JSON.stringify(openApiV3Doc(gv.group, gv.version)))
      .digest('hex')
      .toUpperCase()
      .slice(0, 128);
    paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${hash}` };
  }
  rootCache = { paths };
  return rootCache;
}
