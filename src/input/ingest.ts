// From decoded values to the snapshot: lists are flattened, Pods, ReplicaSets and
// ReplicationControllers are checked and slimmed, anything else is counted by kind.
// Shared by the JSON and YAML readers, which only differ in how they name a line.

import { emptySnapshot, isControllerKind } from '../core/controller.js';
import type { Deployment, ControllerKind, Pod, ReplicaSet, ReplicationController, Snapshot } from '../core/types.js';
import { fileParseError, type UserError } from '../errors.js';
import {
  describeValue,
  FieldError,
  formatPath,
  isMapping,
  printable,
  slimController,
  slimDeployment,
  slimPod,
  validateController,
  validateDeployment,
  validatePod,
  type Path,
} from './objects.js';
import { metaNamespaceKey } from '../core/object-key.js';

export type KeptKind = 'Pod' | ControllerKind;
export type KeptObject = Pod | ReplicaSet | ReplicationController;

/** Where ingested objects go. */
export interface Sink {
  add(kind: KeptKind, obj: KeptObject): void;
  /** A Deployment, for the deployment controller's rules. */
  addDeployment(obj: Deployment): void;
  skip(kind: string): void;
}

export class SnapshotBuilder implements Sink {
  readonly snapshot: Snapshot = emptySnapshot();
  private readonly skipped = new Map<string, number>();
  /** Per kind: namespace → name → index in the kind's list. */
  private readonly seen: Record<KeptKind, Map<string, Map<string, number>>> = {
    Pod: new Map(),
    ReplicaSet: new Map(),
    ReplicationController: new Map(),
  };

  add(kind: KeptKind, obj: KeptObject): void {
    const list: KeptObject[] = kind === 'Pod' ? this.snapshot.pods : this.snapshot.controllers[kind];
    const ns = obj.metadata.namespace ?? 'default';
    let names = this.seen[kind].get(ns);
    if (names === undefined) this.seen[kind].set(ns, (names = new Map()));
    // Like applying twice: the later object replaces the earlier one, in its place.
    const at = names.get(obj.metadata.name);
    if (at === undefined) {
      names.set(obj.metadata.name, list.length);
      list.push(obj);
    } else {
      list[at] = obj;
    }
  }

  private readonly seenDeployments = new Map<string, number>();

  addDeployment(obj: Deployment): void {
    const list = (this.snapshot.deployments ??= []);
    // namespace/name: a later object replaces the earlier one, in its place
    const key = metaNamespaceKey(obj.metadata.namespace ?? 'default', obj.metadata.name);
    const at = this.seenDeployments.get(key);
    if (at === undefined) {
      this.seenDeployments.set(key, list.length);
      list.push(obj);
    } else list[at] = obj;
  }

  skip(kind: string): void {
    this.skipped.set(kind, (this.skipped.get(kind) ?? 0) + 1);
  }

  skippedKinds(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, v] of this.skipped) {
      // defineProperty: a kind named "__proto__" is still just a key.
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
}

/**
 * Holds what a document's items produce until the document is known to be a list (kubectl
 * prints `kind: List` after `items`), then replays it, in order, into the real sink.
 */
export class StagedSink implements Sink {
  private tags: Array<KeptKind | 'Deployment' | 'skip' | 'later'> = [];
  private values: Array<KeptObject | Deployment | string | ((sink: Sink) => void)> = [];

  add(kind: KeptKind, obj: KeptObject): void {
    this.tags.push(kind);
    this.values.push(obj);
  }

  addDeployment(obj: Deployment): void {
    this.tags.push('Deployment');
    this.values.push(obj);
  }

  skip(kind: string): void {
    this.tags.push('skip');
    this.values.push(kind);
  }

  /** Something to do at commit time, in order with the objects (an item to decode later). */
  later(op: (sink: Sink) => void): void {
    this.tags.push('later');
    this.values.push(op);
  }

  commit(sink: Sink): void {
    for (let i = 0; i < this.tags.length; i++) {
      const tag = this.tags[i];
      const value = this.values[i];
      if (tag === 'skip') sink.skip(value as string);
      else if (tag === 'later') (value as (sink: Sink) => void)(sink);
      else if (tag === 'Deployment') sink.addDeployment(value as Deployment);
      else sink.add(tag, value as KeptObject);
    }
    this.clear();
  }

  clear(): void {
    this.tags = [];
    this.values = [];
  }
}

/**
 * Where a decoded value came from, to name a line in messages. Only read when reporting a
 * problem, so a reader may reuse one object for all the elements of a list.
 */
export interface Origin {
  file: string;
  /** Path of the root value within its document (`['items', 4]` for a list element). */
  readonly base: Path;
  /** 1-based line of the deepest part of `rel` (a path from the root value) that exists. */
  line(rel: Path): number | undefined;
  /**
   * Throws if the root value's source names a property twice in one object (strict decoding);
   * for readers whose parser keeps the last value silently (JSON.parse). YAML parsers refuse
   * duplicates themselves.
   */
  strict?(): void;
}

/** What a typed list (`PodList`) says about its items, which may lack kind and apiVersion. */
export interface ListContext {
  kind: string;
  apiVersion: string | undefined;
}

/** The API server's strict decoding error for a field given twice, with the path to it. */
export function duplicateFieldError(file: string, line: number | undefined, path: Path): UserError {
  return fileParseError(file, `strict decoding error: duplicate field ${JSON.stringify(formatPath(path))}`, { line });
}

export function fail(origin: Origin, path: Path, subject: string, text: string): never {
  throw fileParseError(origin.file, `${subject ? `${subject}: ` : ''}${text}`, { line: origin.line(path) });
}

/** Typed lists (`PodList`) name their items' kind; plain `List` items must carry their own. */
export function itemsContext(kind: string, apiVersion: string | undefined): ListContext | undefined {
  return kind === 'List' ? undefined : { kind: kind.slice(0, -'List'.length), apiVersion };
}

/** Whether a value of this kind holding these keys is a list to flatten. */
function isListKind(kind: string, hasItems: boolean): boolean {
  return kind.endsWith('List') && (kind === 'List' || hasItems);
}

const KEPT_API_VERSIONS: Record<KeptKind, ReadonlySet<string>> = {
  Pod: new Set(['v1']),
  // The API server serves ReplicaSets as apps/v1; old snapshots may carry the beta groups.
  ReplicaSet: new Set(['apps/v1', 'extensions/v1beta1', 'apps/v1beta2']),
  ReplicationController: new Set(['v1']),
};

/** The API server serves Deployments as apps/v1; old snapshots may carry the beta groups. */
const DEPLOYMENT_API_VERSIONS: ReadonlySet<string> = new Set(['apps/v1', 'apps/v1beta2', 'apps/v1beta1', 'extensions/v1beta1']);

function isKeptKindName(kind: string): kind is KeptKind {
  return kind === 'Pod' || isControllerKind(kind);
}

function whereOf(origin: Origin, rel: Path): string {
  return formatPath([...origin.base, ...rel]);
}

function subjectOf(kind: string, v: Record<string, unknown>, where: string): string {
  const m = v.metadata;
  if (isMapping(m) && typeof m.name === 'string' && m.name !== '') {
    const ns = typeof m.namespace === 'string' && m.namespace !== '' ? m.namespace : 'default';
    return `${kind} ${printable(`${ns}/${m.name}`)}`;
  }
  return where ? `${kind} at ${where}` : kind;
}

/** One decoded value: a list (flattened), a kept object (checked, slimmed), or a skipped one. */
export function ingestValue(sink: Sink, v: unknown, origin: Origin, rel: Path, list: ListContext | undefined): void {
  if (!isMapping(v)) fail(origin, rel, whereOf(origin, rel), `expected a mapping (an object), got ${describeValue(v)}`);
  const kind = v.kind ?? list?.kind;
  if (kind === undefined || kind === null || kind === '') {
    fail(origin, rel, whereOf(origin, rel), 'kind is missing (every object needs apiVersion and kind)');
  }
  if (typeof kind !== 'string') {
    fail(origin, [...rel, 'kind'], whereOf(origin, rel), `kind must be a string, got ${describeValue(kind)}`);
  }
  const apiVersion = v.apiVersion ?? list?.apiVersion;
  if (apiVersion !== undefined && apiVersion !== null && typeof apiVersion !== 'string') {
    fail(origin, [...rel, 'apiVersion'], whereOf(origin, rel), `apiVersion must be a string, got ${describeValue(apiVersion)}`);
  }
  const version = typeof apiVersion === 'string' && apiVersion !== '' ? apiVersion : undefined;

  if (isListKind(kind, 'items' in v)) {
    origin.strict?.();
    const items = v.items;
    if (items === undefined || items === null) return;
    if (!Array.isArray(items)) {
      const where = whereOf(origin, rel);
      const subject = printable(kind);
      fail(origin, [...rel, 'items'], where ? `${subject} at ${where}` : subject, `items must be a list, got ${describeValue(items)}`);
    }
    const inner = itemsContext(kind, version);
    for (let i = 0; i < items.length; i++) ingestValue(sink, items[i], origin, [...rel, 'items', i], inner);
    return;
  }

  if (kind === 'Deployment' && (version === undefined || DEPLOYMENT_API_VERSIONS.has(version))) {
    origin.strict?.();
    try {
      validateDeployment(v);
    } catch (e) {
      if (e instanceof FieldError) fail(origin, [...rel, ...e.path], subjectOf(kind, v, whereOf(origin, rel)), e.message);
      throw e;
    }
    sink.addDeployment(slimDeployment(v));
    return;
  }
  if (!isKeptKindName(kind)) {
    sink.skip(kind);
    return;
  }
  if (version !== undefined && !KEPT_API_VERSIONS[kind].has(version)) {
    // Same name, another group (a CRD): not what the controller watches.
    sink.skip(`${kind} (${version})`);
    return;
  }
  origin.strict?.();
  try {
    if (kind === 'Pod') validatePod(v);
    else validateController(v, kind);
  } catch (e) {
    if (e instanceof FieldError) fail(origin, [...rel, ...e.path], subjectOf(kind, v, whereOf(origin, rel)), e.message);
    throw e;
  }
  sink.add(kind, kind === 'Pod' ? slimPod(v) : slimController(v, kind));
}

// ---------------------------------------------------------------------------------------------
// Progress

const PROGRESS_INTERVAL_MS = 100;
/** The clock is read once this many bytes were read since it was last read: not at every element. */
const CLOCK_READ_BYTES = 64 * 1024;

/**
 * Milliseconds on a monotonic clock. process.hrtime, not performance.now(): on Node.js 20 the
 * global `performance` loads node:perf_hooks and ten internal modules on first use (docs/startup.md),
 * and a Progress is made for every read, shown or not.
 */
function monotonicMs(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}

export class Progress {
  private doneBefore = 0;
  private last = monotonicMs();
  /** Where (bytes into all files) the clock was last read. */
  private clockReadAt = 0;

  constructor(
    private readonly callback: (bytesDone: number, bytesTotal: number) => void,
    public total: number,
  ) {}

  /** Whether a report is due; if so, reports `offset` bytes into the current file. */
  due(offset: number): boolean {
    const at = this.doneBefore + offset;
    if (at >= this.clockReadAt && at - this.clockReadAt < CLOCK_READ_BYTES) return false;
    this.clockReadAt = at;
    const now = monotonicMs();
    if (now - this.last < PROGRESS_INTERVAL_MS) return false;
    this.last = now;
    this.callback(this.doneBefore + Math.min(offset, this.total - this.doneBefore), this.total);
    return true;
  }

  fileDone(size: number): void {
    this.doneBefore += size;
    if (this.doneBefore > this.total) this.total = this.doneBefore;
  }

  finish(): void {
    this.callback(this.total, this.total);
  }
}

/** Readers yield where a caller may let the event loop run (only after a progress report). */
export type Steps = Generator<void, void, void>;
