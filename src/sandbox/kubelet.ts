// A kwok-like scheduler and kubelet: pods get a node after scheduleDelayMs, run after
// runDelayMs, turn Ready after readyDelayMs; a seeded share fails; terminating pods are removed
// after terminationGraceMs. Delays run on a clock that tests can advance.
import { randomBytes } from 'node:crypto';
import { selectorFromSet } from '../core/selector.js';
import type { AuditLog } from './audit.js';
import { notFound } from './errors.js';
import { act, KUBELET, KUBELET_STATUS, USERS } from './internal.js';
import type { Registry } from './registry.js';
import { resourceByName } from './resources.js';
import type { Store, StoreEvent } from './store.js';
import { clone, prng, rfc3339, type Obj } from './util.js';

export interface KubeletOptions {
  scheduleDelayMs?: number;
  runDelayMs?: number;
  readyDelayMs?: number;
  /** Share of pods whose start fails (phase Failed), 0..1, drawn from `seed`. */
  failureRate?: number;
  seed?: number;
  terminationGraceMs?: number;
}

type Stage = 'schedule' | 'run' | 'ready' | 'terminate';

interface Work {
  ns: string;
  name: string;
  uid: string;
  stage: Stage;
  due: number;
}

const PODS = resourceByName('pods')!;
const NODES = resourceByName('nodes')!;

export class Kubelet {
  private readonly work = new Map<string, Work>();
  private readonly nodeNames: string[];
  private readonly random: () => number;
  private offset = 0;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private ipCounter = 0;
  private readonly o: Required<KubeletOptions>;

  constructor(
    private readonly registry: Registry,
    private readonly store: Store,
    private readonly audit: AuditLog,
    nodes: number,
    opts: KubeletOptions = {},
  ) {
    // node-1…node-N, the names the bundled examples and seeds put their pods on
    this.nodeNames = Array.from({ length: nodes }, (_, i) => `node-${i + 1}`);
    this.o = {
      scheduleDelayMs: opts.scheduleDelayMs ?? 50,
      runDelayMs: opts.runDelayMs ?? 200,
      readyDelayMs: opts.readyDelayMs ?? 200,
      failureRate: opts.failureRate ?? 0,
      seed: opts.seed ?? 1,
      terminationGraceMs: opts.terminationGraceMs ?? 200,
    };
    this.random = prng(this.o.seed);
  }

  private now(): number {
    return Date.now() + this.offset;
  }

  start(): void {
    // Pods seeded onto other nodes bring their node along: those kubelets were running already, so
    // every seeded pod sits on a node that exists and is run, and deleted, like any other.
    for (const p of this.store.list('pods')) {
      const n = p.spec?.nodeName;
      if (typeof n === 'string' && n !== '' && !this.nodeNames.includes(n)) this.nodeNames.push(n);
    }
    for (const [i, name] of this.nodeNames.entries()) {
      if (this.store.get('nodes', undefined, name)) continue;
      act(
        this.audit,
        USERS.node(name),
        { verb: 'create', resource: 'nodes', name },
        () => this.registry.create(NODES, undefined, nodeObject(name, i), { dryRun: false, user: USERS.node(name), fieldManager: KUBELET }),
        201,
      );
    }
    this.unsubscribe = this.store.subscribe((ev) => this.observe(ev));
    for (const p of this.store.list('pods')) this.track(p);
    this.timer = setInterval(() => this.tick(), 10);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    this.work.clear();
  }

  /**
   * Moves the kubelet's clock forward by `ms`, stepping through each due time on the way, so that
   * work a step schedules inside the window (a pod bound now runs `runDelayMs` later) is done too,
   * as that much real time would have done it.
   */
  advance(ms: number): void {
    const target = this.now() + Math.max(0, ms);
    // A pod whose write keeps failing retries every second: a long jump caps its steps.
    for (let step = 0; step < 10_000; step++) {
      let next = Infinity;
      for (const w of this.work.values()) if (w.due < next) next = w.due;
      if (next > target) break;
      this.offset += Math.max(0, next - this.now());
      this.tick();
    }
    this.offset += Math.max(0, target - this.now());
    this.tick();
  }

  private observe(ev: StoreEvent): void {
    if (ev.resource !== 'pods') return;
    if (ev.type === 'DELETED') this.work.delete(ev.object.metadata.uid);
    else this.track(ev.object);
  }

  private ownsNode(name: string | undefined): boolean {
    return !!name && this.nodeNames.includes(name);
  }

  private stageOf(p: Obj): Stage | undefined {
    const node = p.spec?.nodeName;
    const phase = p.status?.phase;
    if (p.metadata.deletionTimestamp) return this.ownsNode(node) ? 'terminate' : undefined;
    if (phase === 'Failed' || phase === 'Succeeded') return undefined;
    if (!node) return (p.spec?.schedulerName ?? 'default-scheduler') === 'default-scheduler' ? 'schedule' : undefined;
    if (!this.ownsNode(node)) return undefined;
    if (phase !== 'Running') return 'run';
    const ready = ((p.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'Ready');
    // A ready pod seeded without container statuses gets them, as a real kubelet reports them.
    const reported = ((p.status?.containerStatuses ?? []) as Obj[]).length >= ((p.spec?.containers ?? []) as Obj[]).length;
    return ready?.status === 'True' && reported ? undefined : 'ready';
  }

  private delay(stage: Stage, p: Obj): number {
    switch (stage) {
      case 'schedule':
        return this.o.scheduleDelayMs;
      case 'run':
        return this.o.runDelayMs;
      case 'ready':
        return this.o.readyDelayMs;
      case 'terminate':
        return Math.min(this.o.terminationGraceMs, (p.metadata.deletionGracePeriodSeconds ?? 30) * 1000);
    }
  }

  private track(p: Obj): void {
    const uid = p.metadata.uid;
    const stage = this.stageOf(p);
    if (!stage) {
      this.work.delete(uid);
      return;
    }
    const cur = this.work.get(uid);
    if (cur && cur.stage === stage) return;
    this.work.set(uid, { ns: p.metadata.namespace, name: p.metadata.name, uid, stage, due: this.now() + this.delay(stage, p) });
  }

  /** Processes every piece of work that is due now. */
  tick(): void {
    const now = this.now();
    const due = [...this.work.values()].filter((w) => w.due <= now).sort((a, b) => a.due - b.due);
    for (const w of due) {
      const p = this.store.get('pods', w.ns, w.name);
      if (!p || p.metadata.uid !== w.uid) {
        this.work.delete(w.uid);
        continue;
      }
      if (this.stageOf(p) !== w.stage) {
        this.work.delete(w.uid);
        this.track(p);
        continue;
      }
      switch (w.stage) {
        case 'schedule':
          this.schedule(p, w);
          break;
        case 'run':
          this.run(p);
          break;
        case 'ready':
          this.ready(p);
          break;
        case 'terminate':
          this.terminate(p);
          break;
      }
      // Still at the same stage (the write failed or changed nothing): retry a second later.
      const after = this.work.get(w.uid);
      if (after && after.stage === w.stage && after.due <= now) after.due = now + 1000;
    }
  }

  private schedule(p: Obj, w: Work): void {
    const nodes = this.store
      .list('nodes')
      .filter((n) => !n.spec?.unschedulable)
      .filter((n) => ((n.status?.conditions ?? []) as Obj[]).some((c) => c.type === 'Ready' && c.status === 'True'))
      .filter((n) => {
        return selectorFromSet((p.spec?.nodeSelector ?? {}) as Record<string, string>).matches(n.metadata.labels);
      });
    if (nodes.length === 0) {
      w.due = this.now() + 1000;
      const conds = (p.status?.conditions ?? []) as Obj[];
      if (conds.some((c) => c.type === 'PodScheduled' && c.status === 'False')) return;
      const total = this.store.count('nodes');
      this.writeStatus(p, USERS.scheduler, (st) => {
        setCondition(st, {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: `0/${total} nodes are available: ${total} node(s) didn't match Pod's node affinity/selector. preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.`,
        });
      });
      return;
    }
    const load = new Map<string, number>();
    for (const q of this.store.list('pods')) {
      const n = q.spec?.nodeName;
      if (n && q.status?.phase !== 'Failed' && q.status?.phase !== 'Succeeded') load.set(n, (load.get(n) ?? 0) + 1);
    }
    nodes.sort((a, b) => (load.get(a.metadata.name) ?? 0) - (load.get(b.metadata.name) ?? 0) || (a.metadata.name < b.metadata.name ? -1 : 1));
    const target = nodes[0].metadata.name;
    const binding = {
      kind: 'Binding',
      apiVersion: 'v1',
      metadata: { name: p.metadata.name, namespace: p.metadata.namespace, uid: p.metadata.uid },
      target: { kind: 'Node', name: target },
    };
    act(
      this.audit,
      USERS.scheduler,
      { verb: 'create', resource: 'pods', subresource: 'binding', namespace: p.metadata.namespace, name: p.metadata.name, request: binding },
      () => this.registry.bind(p.metadata.namespace, p.metadata.name, binding, { dryRun: false, user: USERS.scheduler }),
      201,
    );
  }

  private writeStatus(p: Obj, user: string, mutate: (status: Obj, pod: Obj) => void): void {
    const next = clone(p);
    next.status ??= {};
    mutate(next.status, next);
    if (Array.isArray(next.status.conditions)) {
      // The order the kubelet writes them in.
      const order = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
      const rank = (c: Obj) => (order.includes(c.type) ? order.indexOf(c.type) : order.length);
      next.status.conditions = [...next.status.conditions].sort((a: Obj, b: Obj) => rank(a) - rank(b));
    }
    // The kubelet's status manager sends a strategic merge patch naming the pod's uid.
    const request = { metadata: { uid: p.metadata.uid }, status: next.status };
    act(this.audit, user, { verb: 'patch', resource: 'pods', subresource: 'status', namespace: p.metadata.namespace, name: p.metadata.name, request }, () =>
      this.registry.updateWith(PODS, p, next, { dryRun: false, user, fieldManager: KUBELET_STATUS }, 'status'),
    );
  }

  private run(p: Obj): void {
    const node = p.spec.nodeName as string;
    const nodeIndex = this.nodeNames.indexOf(node);
    const fails = this.o.failureRate > 0 && this.random() < this.o.failureRate;
    const now = rfc3339();
    this.writeStatus(p, USERS.node(node), (st, pod) => {
      st.hostIP = `10.0.0.${nodeIndex + 1}`;
      st.hostIPs = [{ ip: st.hostIP }];
      st.startTime ??= now;
      setCondition(st, { type: 'PodReadyToStartContainers', status: 'True' });
      setCondition(st, { type: 'Initialized', status: 'True' });
      setCondition(st, { type: 'PodScheduled', status: 'True' });
      const containers = (pod.spec.containers ?? []) as Obj[];
      const names = containers.map((c) => c.name).join(' ');
      if (fails) {
        st.phase = 'Failed';
        setCondition(st, { type: 'Ready', status: 'False', reason: 'PodFailed' });
        setCondition(st, { type: 'ContainersReady', status: 'False', reason: 'PodFailed' });
        st.containerStatuses = containers.map((c) => ({
          name: c.name,
          image: c.image,
          imageID: '',
          containerID: containerID(),
          ready: false,
          started: false,
          restartCount: 0,
          state: {
            terminated: { exitCode: 1, reason: 'Error', message: 'simulated start failure', startedAt: now, finishedAt: now, containerID: containerID() },
          },
          lastState: {},
        }));
        return;
      }
      this.ipCounter++;
      st.phase = 'Running';
      st.podIP = `10.244.${nodeIndex}.${(this.ipCounter % 250) + 2}`;
      st.podIPs = [{ ip: st.podIP }];
      setCondition(st, { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${names}]` });
      setCondition(st, { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${names}]` });
      st.containerStatuses = containers.map((c) => ({
        name: c.name,
        image: c.image,
        imageID: `docker.io/library/${c.image}@sha256:${randomBytes(32).toString('hex')}`,
        containerID: containerID(),
        ready: false,
        started: true,
        restartCount: 0,
        state: { running: { startedAt: now } },
        lastState: {},
      }));
    });
  }

  private ready(p: Obj): void {
    const node = p.spec.nodeName as string;
    this.writeStatus(p, USERS.node(node), (st, pod) => {
      setCondition(st, { type: 'ContainersReady', status: 'True' });
      setCondition(st, { type: 'Ready', status: 'True' });
      const statuses = (st.containerStatuses ??= []) as Obj[];
      for (const c of (pod.spec.containers ?? []) as Obj[]) {
        if (statuses.some((x) => x.name === c.name)) continue;
        const startedAt = (st.startTime as string | undefined) ?? rfc3339();
        statuses.push({
          name: c.name,
          image: c.image,
          imageID: '',
          containerID: containerID(),
          ready: true,
          started: true,
          restartCount: 0,
          state: { running: { startedAt } },
          lastState: {},
        });
      }
      for (const c of statuses) {
        c.ready = true;
        c.started = true;
      }
    });
  }

  private terminate(p: Obj): void {
    const node = p.spec.nodeName as string;
    const opts = { gracePeriodSeconds: 0, preconditions: { uid: p.metadata.uid } };
    act(
      this.audit,
      USERS.node(node),
      {
        verb: 'delete',
        resource: 'pods',
        namespace: p.metadata.namespace,
        name: p.metadata.name,
        request: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/__internal', ...opts },
      },
      () => this.registry.delete(PODS, p.metadata.namespace, p.metadata.name, opts, { dryRun: false, user: USERS.node(node) }),
    );
  }

  /** Makes a container of a running pod restart: restartCount+1, not ready until readyDelayMs passed. */
  restartContainer(ns: string, name: string, container?: string): Obj {
    const p = this.store.get('pods', ns, name);
    if (!p) throw notFound({ group: '', resource: 'pods' }, name);
    const statuses = (p.status?.containerStatuses ?? []) as Obj[];
    const target = container ? statuses.find((c) => c.name === container) : statuses[0];
    if (!target) throw notFound({ group: '', resource: 'pods' }, `${name}/${container ?? ''}`);
    const node = (p.spec?.nodeName as string) ?? 'node';
    const now = rfc3339();
    this.writeStatus(p, USERS.node(node), (st) => {
      const c = ((st.containerStatuses ?? []) as Obj[]).find((x) => x.name === target.name)!;
      c.lastState = {
        terminated: { exitCode: 137, reason: 'Error', startedAt: c.state?.running?.startedAt ?? now, finishedAt: now, containerID: c.containerID },
      };
      c.restartCount = (c.restartCount ?? 0) + 1;
      c.containerID = containerID();
      c.state = { running: { startedAt: now } };
      c.ready = false;
      const unready = ((st.containerStatuses ?? []) as Obj[])
        .filter((x) => !x.ready)
        .map((x) => x.name)
        .join(' ');
      setCondition(st, { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${unready}]` });
      setCondition(st, { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${unready}]` });
    });
    return this.store.get('pods', ns, name)!;
  }

  nodes(): string[] {
    return [...this.nodeNames];
  }
}

function containerID(): string {
  return `containerd://${randomBytes(32).toString('hex')}`;
}

/** Sets a pod condition; lastTransitionTime changes only when the status does. */
function setCondition(st: Obj, c: { type: string; status: string; reason?: string; message?: string }): void {
  const conds: Obj[] = (st.conditions ??= []);
  const now = rfc3339();
  const existing = conds.find((x) => x.type === c.type);
  if (existing) {
    if (existing.status !== c.status) existing.lastTransitionTime = now;
    existing.status = c.status;
    if (c.reason) existing.reason = c.reason;
    else delete existing.reason;
    if (c.message) existing.message = c.message;
    else delete existing.message;
    existing.lastProbeTime = null;
  } else {
    conds.push({
      type: c.type,
      status: c.status,
      lastProbeTime: null,
      lastTransitionTime: now,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.message ? { message: c.message } : {}),
    });
  }
}

function nodeObject(name: string, i: number): Obj {
  const now = rfc3339();
  const resources = { cpu: '32', memory: '256Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        type: 'kwok',
      },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'kwok.x-k8s.io/node': 'fake' },
    },
    spec: {},
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [
        {
          type: 'MemoryPressure',
          status: 'False',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
          reason: 'KubeletHasSufficientMemory',
          message: 'kubelet has sufficient memory available',
        },
        {
          type: 'DiskPressure',
          status: 'False',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
          reason: 'KubeletHasNoDiskPressure',
          message: 'kubelet has no disk pressure',
        },
        {
          type: 'PIDPressure',
          status: 'False',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
          reason: 'KubeletHasSufficientPID',
          message: 'kubelet has sufficient PID available',
        },
        { type: 'Ready', status: 'True', lastHeartbeatTime: now, lastTransitionTime: now, reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      addresses: [
        { type: 'InternalIP', address: `10.0.0.${i + 1}` },
        { type: 'Hostname', address: name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: '',
        systemUUID: '',
        bootID: '',
        kernelVersion: '6.1.0-sandbox',
        osImage: 'rs-reconcile sandbox',
        containerRuntimeVersion: 'containerd://1.7.24',
        kubeletVersion: 'v1.32.0',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}
