import { hostname } from 'node:os';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import {
  behaviourFlags,
  behaviourOptions,
  connection,
  connectionFlags,
  forceFlag,
  namespaceFlags,
  syncedTimeoutFlag,
  writerFlags,
  writerOptions,
} from '../cli/flags.js';
import { parseDurationMs } from '../core/duration.js';
import { CONTROLLER_KINDS } from '../core/controller.js';
import type { ControllerKind } from '../core/types.js';
import { UserError } from '../errors.js';

function duration(flag: string, text: string): number {
  const ms = parseDurationMs(text);
  if (ms === null || ms <= 0) throw new UserError(`invalid --${flag} ${JSON.stringify(text)}: expected a duration such as 15s, 2m or 500ms`);
  return ms;
}

/** The controllers `run` has, by kube-controller-manager's names. */
const CONTROLLER_NAMES = [...CONTROLLER_KINDS.map((k) => k.kind.toLowerCase()), 'deployment'];

/**
 * --controllers as kube-controller-manager reads it: a comma list where `*` (or `all`) is every
 * controller, NAME enables one and -NAME disables one, a name being either the short one or
 * kube-controller-manager's own (`replicaset-controller`). An unknown name is refused.
 */
export function parseControllers(text: string): Set<string> {
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const expected = `expected a comma list of ${CONTROLLER_NAMES.join(', ')} (or their kube-controller-manager names, NAME-controller), -NAME to leave one out, or * for all`;
  if (names.length === 0) throw new UserError(`invalid --controllers ${JSON.stringify(text)}: ${expected}`);
  const on = new Set<string>();
  const off = new Set<string>();
  for (const n of names) {
    const negated = n.startsWith('-');
    const bare = negated ? n.slice(1) : n;
    if (bare === '*' || bare === 'all') {
      if (negated) throw new UserError(`invalid --controllers ${JSON.stringify(text)}: ${JSON.stringify(n)} leaves nothing out (${expected})`);
      for (const c of CONTROLLER_NAMES) on.add(c);
      continue;
    }
    const short = bare.endsWith('-controller') ? bare.slice(0, -'-controller'.length) : bare;
    if (!CONTROLLER_NAMES.includes(short))
      throw new UserError(`invalid --controllers ${JSON.stringify(text)}: unknown controller ${JSON.stringify(bare)} (${expected})`);
    (negated ? off : on).add(short);
  }
  // as kube-controller-manager: -NAME wins over NAME and *, and without * only the names given run
  for (const c of off) on.delete(c);
  if (on.size === 0) throw new UserError(`invalid --controllers ${JSON.stringify(text)}: it leaves no controller to run (${expected})`);
  return on;
}

export default class Run extends BaseCommand {
  static override summary = 'Run the ReplicaSet, ReplicationController and Deployment controllers in the foreground, as kube-controller-manager does';
  static override description = `The upstream controller re-expressed: informers (paginated list, then watch with bookmarks;
relist on 410 Gone; reconnect with backoff), a rate-limited workqueue, expectations, and workers
that run one sync per key. Use it against an API server that has no kube-controller-manager, or
in-cluster as a Deployment (see deploy/). It refuses to start when the upstream controller is
active in scope (recent Events from replicaset-controller), unless --force: two controllers on the
same objects fight.

Each delete is logged with the reason the sync's ranking gave it, as "history" tells it.

The deployment controller (--controllers deployment, in "all") shares the ReplicaSet and pod
informers and carries out the writes "explain deploy/NAME" shows; the ReplicaSets it creates are
named <deployment>-<pod-template-hash> with rs-reconcile's own hash, not kube-controller-manager's.

Stops on SIGINT/SIGTERM: takes no new work, finishes the syncs in flight, releases the lease.`;

  static override examples = [
    { description: 'Reconcile one namespace until Ctrl-C', command: '<%= config.bin %> run -n shop' },
    { description: 'In CI: exit 0 once everything is in sync (1 on timeout)', command: '<%= config.bin %> run -A --until-synced --timeout 2m' },
    {
      description: 'Two replicas with leader election and metrics',
      command: '<%= config.bin %> run -A --leader-elect --metrics-bind-address :8080 --log-format json',
    },
  ];

  static override flags = {
    ...namespaceFlags,
    controllers: Flags.string({
      description: `which controllers to run, a comma list as kube-controller-manager's --controllers (${CONTROLLER_NAMES.join(', ')}, their NAME-controller names, -NAME to leave one out, * for all)`,
      default: 'all',
    }),
    ...writerFlags,
    ...behaviourFlags,
    'resync-period': Flags.string({ description: 'periodic resync of the informers (0: off)', default: '0' }),
    'leader-elect': Flags.boolean({ description: 'only the holder of a coordination.k8s.io Lease reconciles', default: false }),
    'leader-elect-lease-name': Flags.string({ description: 'the Lease used for leader election', default: 'rs-reconcile' }),
    'leader-elect-namespace': Flags.string({ description: 'namespace of the Lease (default: the controlled namespace, or default with -A)' }),
    'leader-elect-lease-duration': Flags.string({ description: 'how long standbys wait before taking an unrenewed lease', default: '15s' }),
    'leader-elect-renew-deadline': Flags.string({ description: 'how long the leader retries renewing before it stops leading', default: '10s' }),
    'leader-elect-retry-period': Flags.string({ description: 'between attempts to acquire or renew', default: '2s' }),
    ...forceFlag,
    'log-format': Flags.string({ description: 'log format', options: ['text', 'json'], default: 'text' }),
    v: Flags.integer({ char: 'v', description: 'log verbosity (klog levels: 2 shows every sync, 4 every event)', default: 0, min: 0 }),
    'metrics-bind-address': Flags.string({ description: 'serve /metrics, /healthz and /readyz on this address (e.g. :8080); 0 disables', default: '0' }),
    'until-synced': Flags.boolean({
      description:
        'exit 0 once "diff" on the same scope would exit 0 and stay there: no expectation or requeue pending, the pods it created ready, those it deleted gone',
      default: false,
    }),
    ...syncedTimeoutFlag,
    ...connectionFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Run);
    const chosen = parseControllers(flags.controllers);
    const kinds: ControllerKind[] = CONTROLLER_KINDS.map((k) => k.kind).filter((k) => chosen.has(k.toLowerCase()));
    const { runForeground } = await import('../services/run-foreground.js');
    // Ctrl-C stops the controllers gracefully, then exits 130 (BaseCommand)
    const interruption = this.interruptible();
    const code = await runForeground({
      signal: interruption.signal,
      connection: connection(flags),
      namespace: flags.namespace,
      allNamespaces: flags['all-namespaces'],
      selector: flags.selector,
      kinds,
      deployment: chosen.has('deployment'),
      ...writerOptions(flags),
      burstReplicas: flags['burst-replicas'],
      ...behaviourOptions(flags),
      resyncMs: flags['resync-period'] === '0' ? 0 : duration('resync-period', flags['resync-period']),
      leaderElect: flags['leader-elect'],
      leaseName: flags['leader-elect-lease-name'],
      leaseNamespace: flags['leader-elect-namespace'],
      leaseDurationMs: duration('leader-elect-lease-duration', flags['leader-elect-lease-duration']),
      renewDeadlineMs: duration('leader-elect-renew-deadline', flags['leader-elect-renew-deadline']),
      retryPeriodMs: duration('leader-elect-retry-period', flags['leader-elect-retry-period']),
      identity: `${hostname()}_${process.pid}`,
      force: flags.force,
      logFormat: flags['log-format'] as 'text' | 'json',
      verbosity: flags.v,
      metricsBindAddress: flags['metrics-bind-address'],
      untilSynced: flags['until-synced'],
      timeoutMs: duration('timeout', flags.timeout),
    });
    process.exitCode = code;
  }
}
