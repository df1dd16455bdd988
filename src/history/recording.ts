// Recordings (`rs-reconcile record`, `watch --record`): what the informers saw, one JSON object a
// line (docs/recording-format.md), and how `history --recording` reads them back as the writes
// the replay takes (src/history/replay.ts).
//
// A watch shows the result of a write, not the request: who wrote it comes from the managedFields
// entry the change touched, and for what managedFields cannot tell (who deleted a pod; who created
// it when the server keeps no managedFields) from the controllers' own Events ("Created pod: X",
// "Deleted pod: X"). Nothing else is guessed: a change nobody can be named for is "<unknown user>".
//
// Pure: no I/O and no clock; times come from the lines.

import { CONTROLLER_KINDS, isControllerKind, kindOfResource } from '../core/controller.js';
import type { ControllerKind } from '../core/types.js';
import { CONTROLLER_USERS } from './agents.js';
import { RECORDING_API_VERSION, RECORDING_FORMAT_VERSION, RECORDING_KIND, type RecordedRules, type RecordingHeader } from './recording-header.js';
import type { ApiWrite } from './types.js';
import { isObj } from '../core/guards.js';
import { kindKey, metaNamespaceKey, splitMetaNamespaceKey, verbKey } from '../core/object-key.js';

export type RecordedResource = 'pods' | 'replicasets' | 'replicationcontrollers' | 'events';
const RECORDED_RESOURCES: readonly RecordedResource[] = ['pods', 'replicasets', 'replicationcontrollers', 'events'];
export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** Who wrote a change, from the managedFields entry it touched. */
export interface ChangeWriter {
  manager: string | null;
  operation: string | null;
  subresource: string | null;
}

export interface RecordedChange extends ChangeWriter {
  kind: 'Change';
  /** When the recorder saw the change. */
  time: string;
  type: ChangeType;
  resource: RecordedResource;
  /** true: the change comes from a list (the first one, or a relist after a gap), not a watch event. */
  listed: boolean;
  resourceVersion: string | null;
  /** The whole object as the server sent it (managedFields included); the last state for DELETED. */
  object: Record<string, any>;
}

/** A watch that had to relist (410 Gone): the changes between are not in the recording. */
interface RecordedGap {
  kind: 'Gap';
  time: string;
  resource: RecordedResource;
  reason: string;
}

export type RecordingLine = RecordingHeader | RecordedChange | RecordedGap;

/** The Event sources whose "Created pod: X" / "Deleted pod: X" name the controller as the writer. */
export const EVENT_COMPONENT_USERS: Readonly<Record<string, string>> = {
  'replicaset-controller': 'system:serviceaccount:kube-system:replicaset-controller',
  'replication-controller': 'system:serviceaccount:kube-system:replication-controller',
  'rs-reconcile': 'rs-reconcile',
};
/** The message prefix of the Event client-go's recorder sends for similar Events past the 10th (EventAggregatorByReasonMessageFunc). */
export const COMBINED_PREFIX = '(combined from similar events): ';
/** The user `rs-reconcile run`'s writes get in a recording: history counts it as the controller's. */
export const RS_RECONCILE_USER = 'rs-reconcile';
export const UNKNOWN_USER = '<unknown user>';
const LISTED_USER = '<listed>';
/** The controllers' event reasons that are evidence, with the verb they witness. */
const EVIDENCE_REASONS: Readonly<Record<string, 'create' | 'delete'>> = { SuccessfulCreate: 'create', SuccessfulDelete: 'delete' };
const EVIDENCE_MESSAGE = /(?:Created|Deleted) pod: (\S+)/;
/** How long (recorded time) a create or delete waits for its controller's Event before it stays "<unknown user>". */
export const EVIDENCE_WINDOW_MS = 30_000;
/** At most this many changes wait for evidence (memory stays bounded on a busy recording). */
const MAX_HELD_CHANGES = 10_000;

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * The managedFields entry a change touched: the one the new object has and the old did not (or
 * had with another time or other fields); else the newest by time, the last of equal times.
 */
export function writerOf(after: Record<string, any>, before?: Record<string, any>): ChangeWriter {
  const now: unknown[] = Array.isArray(after?.metadata?.managedFields) ? after.metadata.managedFields : [];
  const was: unknown[] = Array.isArray(before?.metadata?.managedFields) ? before!.metadata.managedFields : [];
  const entries = now.filter(isObj);
  if (entries.length === 0) return { manager: null, operation: null, subresource: null };
  let pick: Record<string, any> | undefined;
  if (before) {
    const old = new Set(was.map((e) => JSON.stringify(e)));
    const touched = entries.filter((e) => !old.has(JSON.stringify(e)));
    if (touched.length === 0) return { manager: null, operation: null, subresource: null };
    pick = newest(touched);
  } else pick = newest(entries);
  return {
    manager: typeof pick.manager === 'string' ? pick.manager : null,
    operation: typeof pick.operation === 'string' ? pick.operation : null,
    subresource: typeof pick.subresource === 'string' && pick.subresource !== '' ? pick.subresource : null,
  };
}

function newest(entries: Record<string, any>[]): Record<string, any> {
  let best = entries[0];
  for (const e of entries) if (String(e.time ?? '') >= String(best.time ?? '')) best = e;
  return best;
}

/** One change as a recording line. `before` is the object the informer held before (MODIFIED). */
export function changeLine(
  type: ChangeType,
  resource: RecordedResource,
  object: Record<string, any>,
  time: string,
  listed: boolean,
  before?: Record<string, any>,
): RecordedChange {
  // Nothing touched the managedFields of a DELETED object: its writer is not in them.
  const writer = type === 'DELETED' ? { manager: null, operation: null, subresource: null } : writerOf(object, type === 'MODIFIED' ? before : undefined);
  const rv = object?.metadata?.resourceVersion;
  return { kind: 'Change', time, type, resource, listed, resourceVersion: typeof rv === 'string' ? rv : null, ...writer, object };
}

/** The component that recorded a core/v1 Event, when it is a controller whose events are evidence. */
function evidenceComponent(e: Record<string, any>): string | null {
  const reporting = typeof e?.reportingComponent === 'string' ? e.reportingComponent : '';
  const source = typeof e?.source?.component === 'string' ? e.source.component : '';
  for (const c of [reporting, source]) if (c in EVENT_COMPONENT_USERS) return c;
  return null;
}

/** Whether `record` keeps this Event: one of the controllers' (the rest is not evidence of anything here). */
export function isControllerEvent(e: Record<string, any>): boolean {
  return evidenceComponent(e) !== null;
}

// ---------------------------------------------------------------------------------------------
// Reading

export class RecordingFormatError extends Error {}

/** A parsed line checked for the fields the reader needs; throws RecordingFormatError. */
export function parseRecordingLine(v: unknown): RecordingLine {
  if (!isObj(v)) throw new RecordingFormatError('not a recording line (expected a JSON object)');
  if (v.kind === RECORDING_KIND) {
    if (v.apiVersion !== RECORDING_API_VERSION)
      throw new RecordingFormatError(`recording header with apiVersion ${JSON.stringify(v.apiVersion)} (expected ${RECORDING_API_VERSION})`);
    if (typeof v.version !== 'number' || !Number.isInteger(v.version) || v.version < 1)
      throw new RecordingFormatError('recording header without a format version');
    if (v.version > RECORDING_FORMAT_VERSION)
      throw new RecordingFormatError(
        `recording format version ${v.version} is newer than this rs-reconcile reads (${RECORDING_FORMAT_VERSION}): upgrade rs-reconcile`,
      );
    if (typeof v.time !== 'string') throw new RecordingFormatError('recording header without time');
    return v as RecordingHeader;
  }
  if (v.kind === 'Change') {
    if (typeof v.time !== 'string' || Number.isNaN(Date.parse(v.time))) throw new RecordingFormatError('change without a valid time');
    if (v.type !== 'ADDED' && v.type !== 'MODIFIED' && v.type !== 'DELETED')
      throw new RecordingFormatError(`change of unknown type ${JSON.stringify(v.type)} (ADDED, MODIFIED or DELETED)`);
    if (!RECORDED_RESOURCES.includes(v.resource)) throw new RecordingFormatError(`change of unknown resource ${JSON.stringify(v.resource)}`);
    if (!isObj(v.object) || !isObj(v.object.metadata) || typeof v.object.metadata.name !== 'string')
      throw new RecordingFormatError('change without an object with metadata.name');
    return v as RecordedChange;
  }
  if (v.kind === 'Gap') {
    if (typeof v.time !== 'string' || !RECORDED_RESOURCES.includes(v.resource)) throw new RecordingFormatError('gap without time or resource');
    return v as RecordedGap;
  }
  throw new RecordingFormatError(
    `not a recording line (kind ${typeof v.kind === 'string' ? JSON.stringify(v.kind.slice(0, 40)) : 'missing'}; expected Recording, Change or Gap)`,
  );
}

/** One write for the replay; stateOnly: it brings state (a list, a removal after termination) and is no event. */
export interface ConvertedWrite {
  write: ApiWrite;
  stateOnly: boolean;
}

interface Held extends ConvertedWrite {
  /** The evidence key it waits for, or null when ready. */
  wait: string | null;
  deadline: number;
  /** The rules its recording's header names (set on release, once the writer is known). */
  rules?: RecordedRules | null;
  /** A delete's pod's controller (`ns/kind/name`): its combined Events may name it as the deleter (see burstOf). */
  owner?: string | null;
}

interface PodSeen {
  ctl: { kind: ControllerKind; uid: string; name: string } | null;
  terminating: boolean;
  shape: number;
}

interface ControllerSeen {
  terminating: boolean;
  shape: number;
  replicas: unknown;
}

/**
 * Recorded changes in, the writes they stand for out, in order. A create or delete of a pod
 * whose writer managedFields cannot name is held (with everything after it, to keep the order)
 * until its controller's Event names it, EVIDENCE_WINDOW_MS of recorded time passes, or the input
 * ends.
 */
export class RecordingConverter {
  private readonly pods = new Map<string, PodSeen>();
  private readonly controllers = new Map<string, ControllerSeen>();
  /** Evidence seen before its change: key → user and when. */
  private readonly evidence = new Map<string, { user: string; at: number }>();
  /**
   * The controllers seen sending "(combined from similar events)" Events, by `verb/ns/kind/name`:
   * who and when last. Past that point its Event recorder names only the last pod of each patch
   * and its spam filter drops the rest (25 a burst per object), so a create or delete of its own
   * pods in that window that no Event names is still its.
   */
  private readonly bursts = new Map<string, { user: string; at: number }>();
  /** Writes named by a controller's combined Events only (a notice says how many). */
  private byBurst = 0;
  private readonly held: Held[] = [];
  private headers = 0;
  private lastTime: string | null = null;
  /** After a second header: the objects known before it not listed again yet, by resource. */
  private stale: Map<string, Set<string>> | null = null;
  readonly notices: string[] = [];

  /** The writes `line` releases (none while waiting for evidence); `rules`: what its file's header names. */
  push(line: RecordingLine, rules: RecordedRules | null = null): ConvertedWrite[] {
    const out: ConvertedWrite[] = [];
    if (line.kind === RECORDING_KIND) {
      this.headers++;
      if (this.headers > 1) {
        this.notices.push(
          `the recording restarted at ${line.time}${this.lastTime ? ` (the one before ended at ${this.lastTime})` : ''}: what happened between is not in it; the state is read again from the new recording's lists`,
        );
        this.stale = new Map([
          ['pods', new Set(this.pods.keys())],
          ...CONTROLLER_KINDS.map(
            (k) => [k.resource, new Set([...this.controllers.keys()].filter((key) => key.startsWith(kindKey(k.kind, ''))))] as [string, Set<string>],
          ),
        ]);
      }
      return this.release(Date.parse(line.time), out);
    }
    this.lastTime = line.time;
    const at = Date.parse(line.time);
    if (line.kind === 'Gap') {
      this.notices.push(
        `the watch of ${line.resource} restarted at ${line.time} (${line.reason}): changes before its relist are missing from the recording; the state is read again from the relist`,
      );
      return this.release(at, out);
    }
    if (line.resource === 'events') {
      this.witness(line, at);
      return this.release(at, out);
    }
    if (this.stale) this.dropStale(line);
    const c = line.resource === 'pods' ? this.podChange(line) : this.controllerChange(line);
    if (c) this.held.push({ ...c, rules });
    return this.release(at, out);
  }

  /** What waited past its window by `time`: a live feed calls it when no new line comes. */
  tick(time: string): ConvertedWrite[] {
    return this.release(Date.parse(time), []);
  }

  /** Everything still held, at the end of the input. */
  end(): ConvertedWrite[] {
    if (this.stale) for (const r of [...this.stale.keys()]) this.flushStale(r, this.lastTime ?? '');
    const out = this.release(Number.POSITIVE_INFINITY, []);
    if (this.byBurst > 0)
      this.notices.push(
        `${this.byBurst} pod write${this.byBurst === 1 ? '' : 's'} named by no Event of ${this.byBurst === 1 ? 'its' : 'their'} own ${this.byBurst === 1 ? 'is' : 'are'} the controller's: ${this.byBurst === 1 ? 'it' : 'they'} came while its Events were combined ("combined from similar events"), which name only the last pod, and its event recorder's spam filter drops the rest`,
      );
    return out;
  }

  private release(at: number, out: ConvertedWrite[]): ConvertedWrite[] {
    while (this.held.length > 0) {
      const h = this.held[0];
      if (h.wait !== null && at <= h.deadline && this.held.length <= MAX_HELD_CHANGES) break;
      this.held.shift();
      if (h.wait !== null) this.burstOf(h);
      const rules = h.rules ? (h.write.user === RS_RECONCILE_USER ? h.rules.rsReconcile : h.rules.server) : null;
      if (rules) h.write.rules = rules;
      out.push({ write: h.write, stateOnly: h.stateOnly });
    }
    // Evidence never matched (its change was listed, or read from managedFields) goes after the window.
    if (this.evidence.size > 0 && Number.isFinite(at)) for (const [k, e] of this.evidence) if (at - e.at > EVIDENCE_WINDOW_MS) this.evidence.delete(k);
    if (this.bursts.size > 0 && Number.isFinite(at)) for (const [k, b] of this.bursts) if (at - b.at > 2 * EVIDENCE_WINDOW_MS) this.bursts.delete(k);
    return out;
  }

  /** A create or delete no Event named, of a pod whose controller was sending combined Events within the window: that controller's. */
  private burstOf(h: Held): void {
    if (!h.owner) return;
    const verb = h.wait!.slice(0, h.wait!.indexOf('/'));
    const b = this.bursts.get(verbKey(verb, h.owner));
    if (!b || Math.abs(b.at - (h.deadline - EVIDENCE_WINDOW_MS)) > EVIDENCE_WINDOW_MS) return;
    h.write.user = b.user;
    this.byBurst++;
  }

  /** A controller's Event: evidence for the change it names, held or still to come. */
  private witness(line: RecordedChange, at: number): void {
    if (line.type === 'DELETED') return;
    const e = line.object;
    const component = evidenceComponent(e);
    const verb = EVIDENCE_REASONS[e.reason];
    const pod = typeof e.message === 'string' ? EVIDENCE_MESSAGE.exec(e.message)?.[1] : undefined;
    if (!component || !verb || !pod) return;
    const ns = e.involvedObject?.namespace ?? e.metadata?.namespace;
    const key = verbKey(verb, metaNamespaceKey(ns, pod));
    const user = EVENT_COMPONENT_USERS[component];
    if (!line.listed && typeof e.message === 'string' && e.message.startsWith(COMBINED_PREFIX) && isControllerKind(e.involvedObject?.kind))
      this.bursts.set(verbKey(verb, metaNamespaceKey(ns, kindKey(e.involvedObject.kind, e.involvedObject.name))), { user, at });
    const waiting = this.held.find((h) => h.wait === key);
    if (waiting) {
      waiting.write.user = user;
      waiting.wait = null;
    } else if (!line.listed) this.evidence.set(key, { user, at });
  }

  private podChange(line: RecordedChange): Held | null {
    const o = withKind(line.object, 'Pod');
    const ns: string = o.metadata.namespace ?? '';
    const name: string = o.metadata.name;
    const key = metaNamespaceKey(ns, name);
    const seen = this.pods.get(key);
    const at = Date.parse(line.time);
    if (line.type === 'DELETED') {
      this.pods.delete(key);
      const w = this.write(line, 'delete', null, ns, name, null);
      // A pod already terminating was deleted when its deletionTimestamp appeared: this is its removal.
      if (line.listed || seen?.terminating) return { write: { ...w, user: LISTED_USER }, stateOnly: true, wait: null, deadline: at };
      return this.evidenced(w, 'delete', ns, name, at, seen?.ctl ?? controllerOf(o));
    }
    const ctl = controllerOf(o);
    const terminating = typeof o.metadata.deletionTimestamp === 'string';
    const shape = podShape(o);
    this.pods.set(key, { ctl, terminating, shape });
    if (line.listed)
      return { write: { ...this.write(line, seen ? 'update' : 'create', null, ns, name, o), user: LISTED_USER }, stateOnly: true, wait: null, deadline: at };
    if (!seen && line.type === 'MODIFIED') {
      // First seen changing (a recording without its lists): not a create; the replay marks what it cannot know.
      return ready({ ...this.write(line, 'update', line.subresource === 'status' ? 'status' : null, ns, name, o), user: line.manager ?? UNKNOWN_USER });
    }
    if (!seen) {
      const w = this.write(line, 'create', null, ns, name, o);
      if (ctl && line.manager !== null) {
        w.user = this.userOf(line.manager, ctl.kind);
        return ready(w);
      }
      if (ctl) return this.evidenced(w, 'create', ns, name, at, ctl);
      return ready({ ...w, user: line.manager ?? UNKNOWN_USER });
    }
    if (terminating && !seen.terminating) return this.evidenced(this.write(line, 'delete', null, ns, name, o), 'delete', ns, name, at, ctl ?? seen.ctl);
    if ((ctl?.uid ?? null) !== (seen.ctl?.uid ?? null)) {
      // Adopting and releasing are the controller's patches of ownerReferences.
      const kind = ctl?.kind ?? seen.ctl?.kind;
      return ready({ ...this.write(line, 'patch', null, ns, name, o), user: line.manager !== null ? this.userOf(line.manager, kind) : UNKNOWN_USER });
    }
    // Nothing but status (or the node it was bound to) changed: the kubelet's and scheduler's, state only.
    const statusOnly = line.subresource === 'status' || line.subresource === 'binding' || shape === seen.shape;
    return ready({ ...this.write(line, 'update', statusOnly ? 'status' : null, ns, name, o), user: line.manager ?? UNKNOWN_USER });
  }

  private controllerChange(line: RecordedChange): Held | null {
    const kind = kindOfResource(line.resource)!;
    const o = withKind(line.object, kind);
    const ns: string = o.metadata.namespace ?? '';
    const name: string = o.metadata.name;
    const key = kindKey(kind, metaNamespaceKey(ns, name));
    const seen = this.controllers.get(key);
    const at = Date.parse(line.time);
    const user = line.manager ?? UNKNOWN_USER;
    if (line.type === 'DELETED') {
      this.controllers.delete(key);
      const w = this.write(line, 'delete', null, ns, name, null);
      if (line.listed || seen?.terminating) return { write: { ...w, user: LISTED_USER }, stateOnly: true, wait: null, deadline: at };
      return ready({ ...w, user: UNKNOWN_USER });
    }
    const terminating = typeof o.metadata.deletionTimestamp === 'string';
    const shape = controllerShape(o);
    this.controllers.set(key, { terminating, shape, replicas: o.spec?.replicas });
    if (line.listed)
      return { write: { ...this.write(line, seen ? 'update' : 'create', null, ns, name, o), user: LISTED_USER }, stateOnly: true, wait: null, deadline: at };
    if (!seen)
      return ready({
        ...this.write(
          line,
          line.type === 'ADDED' ? 'create' : 'update',
          line.type === 'MODIFIED' && line.subresource === 'status' ? 'status' : null,
          ns,
          name,
          o,
        ),
        user,
      });
    if (terminating && !seen.terminating) return ready({ ...this.write(line, 'delete', null, ns, name, o), user: UNKNOWN_USER });
    if (line.subresource === 'scale') return ready({ ...this.write(line, 'update', 'scale', ns, name, o), user });
    // A second scale by the same manager touches no entry (those of the scale subresource keep no
    // time): spec.replicas changed, and the entry that owns it now is a scale's, names who did it.
    const scaler = line.manager === null && o.spec?.replicas !== seen.replicas ? fieldOwner(o, 'scale', ['f:spec', 'f:replicas']) : null;
    if (scaler !== null) return ready({ ...this.write(line, 'update', 'scale', ns, name, o), user: scaler });
    if (line.subresource === 'status' || shape === seen.shape) {
      // a status write that touched no entry (the same manager within the second): the one that owns the status
      const manager = line.manager ?? fieldOwner(o, 'status', ['f:status']);
      return ready({ ...this.write(line, 'update', 'status', ns, name, o), user: manager !== null ? this.userOf(manager, kind) : UNKNOWN_USER });
    }
    return ready({ ...this.write(line, 'update', null, ns, name, o), user });
  }

  /** A manager's name as the user history shows: kube-controller-manager and rs-reconcile as the controller they run. */
  private userOf(manager: string, kind: ControllerKind | undefined): string {
    if (manager === 'kube-controller-manager' && kind) return controllerUserOf(kind);
    if (manager.startsWith('rs-reconcile')) return RS_RECONCILE_USER;
    return manager;
  }

  /** A create or delete the controller's Event can name: named now, or held until it does. */
  private evidenced(w: ApiWrite, verb: 'create' | 'delete', ns: string, pod: string, at: number, ctl: PodSeen['ctl']): Held {
    const key = verbKey(verb, metaNamespaceKey(ns, pod));
    const e = this.evidence.get(key);
    if (e) {
      this.evidence.delete(key);
      return ready({ ...w, user: e.user });
    }
    const owner = ctl ? metaNamespaceKey(ns, kindKey(ctl.kind, ctl.name)) : null;
    return { write: { ...w, user: UNKNOWN_USER }, stateOnly: false, wait: key, deadline: at + EVIDENCE_WINDOW_MS, owner };
  }

  private write(
    line: RecordedChange,
    verb: ApiWrite['verb'],
    subresource: string | null,
    namespace: string,
    name: string,
    o: Record<string, any> | null,
  ): ApiWrite {
    return {
      time: line.time,
      user: UNKNOWN_USER,
      userAgent: '',
      verb,
      resource: line.resource as ApiWrite['resource'],
      subresource,
      namespace,
      name,
      code: verb === 'create' ? 201 : 200,
      bodies: true,
      // The object is both what was asked and what was answered (a status write is read from request.status).
      request: o,
      response: o,
    };
  }

  /** After a recording restarted: what the new lists did not show again is gone. */
  private dropStale(line: RecordedChange): void {
    const set = this.stale!.get(line.resource);
    if (!set) return;
    const o = line.object;
    const key =
      line.resource === 'pods'
        ? metaNamespaceKey(o.metadata.namespace, o.metadata.name)
        : kindKey(kindOfResource(line.resource)!, metaNamespaceKey(o.metadata.namespace, o.metadata.name));
    if (line.listed) set.delete(key);
    else this.flushStale(line.resource, line.time);
  }

  private flushStale(resource: string, time: string): void {
    const set = this.stale?.get(resource);
    if (!set) return;
    this.stale!.delete(resource);
    if (this.stale!.size === 0) this.stale = null;
    for (const key of set) {
      if (resource === 'pods') this.pods.delete(key);
      else this.controllers.delete(key);
      // a controller's key has its kind in front (kindKey)
      const id = splitMetaNamespaceKey(resource === 'pods' ? key : key.slice(key.indexOf('/') + 1));
      if (!id) continue; // an object name holds no '/'
      const { namespace: ns, name } = id;
      this.held.push({
        write: {
          time,
          user: LISTED_USER,
          userAgent: '',
          verb: 'delete',
          resource: resource as ApiWrite['resource'],
          subresource: null,
          namespace: ns,
          name,
          code: 200,
          bodies: true,
          request: null,
          response: null,
        },
        stateOnly: true,
        wait: null,
        deadline: 0,
      });
    }
  }
}

function ready(write: ApiWrite): Held {
  return { write, stateOnly: false, wait: null, deadline: 0 };
}

function controllerUserOf(kind: ControllerKind): string {
  for (const [user, k] of Object.entries(CONTROLLER_USERS)) if (k === kind) return user;
  return RS_RECONCILE_USER;
}

/**
 * The one manager whose managedFields entry of `subresource` owns the field at `path` (`f:spec`,
 * `f:replicas`), or null when none or several do: who wrote a change that touched no entry.
 */
function fieldOwner(o: Record<string, any>, subresource: string, path: readonly string[]): string | null {
  const entries: unknown[] = Array.isArray(o.metadata?.managedFields) ? o.metadata.managedFields : [];
  const owners = new Set<string>();
  for (const e of entries) {
    if (!isObj(e) || e.subresource !== subresource || typeof e.manager !== 'string') continue;
    let at: unknown = e.fieldsV1;
    for (const k of path) at = isObj(at) ? at[k] : undefined;
    if (at !== undefined) owners.add(e.manager);
  }
  return owners.size === 1 ? [...owners][0] : null;
}

function withKind(o: Record<string, any>, kind: string): Record<string, any> {
  return o.kind === kind ? o : { ...o, kind };
}

function controllerOf(o: Record<string, any>): PodSeen['ctl'] {
  const refs = o.metadata?.ownerReferences;
  if (!Array.isArray(refs)) return null;
  for (const r of refs) {
    if (isObj(r) && r.controller === true && isControllerKind(r.kind)) return { kind: r.kind, uid: String(r.uid ?? ''), name: String(r.name ?? '') };
  }
  return null;
}

/** A pod's metadata and spec but its node: a change of anything else is not the kubelet's or the scheduler's. */
function podShape(o: Record<string, any>): number {
  const m = o.metadata ?? {};
  const { nodeName: _node, ...spec } = o.spec ?? {};
  return hash(JSON.stringify([m.labels, m.annotations, m.ownerReferences, m.finalizers, m.deletionTimestamp, spec]));
}

function controllerShape(o: Record<string, any>): number {
  const m = o.metadata ?? {};
  return hash(JSON.stringify([m.labels, m.annotations, m.ownerReferences, m.finalizers, m.deletionTimestamp, o.spec]));
}

/** FNV-1a: one number a pod instead of its text (a recording can follow 100k pods). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
