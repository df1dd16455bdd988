import { stat } from 'node:fs/promises';
import { Args, Flags, type Interfaces } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import {
  behaviourFlags,
  behaviourOptions,
  connection,
  connectionFlags,
  inHelpGroup,
  namespaceScopeFlags,
  noHeadersFlag,
  outputFileFlag,
  outputFlag,
  repeatable,
  stdoutStyle,
  type OutputStyle,
} from '../cli/flags.js';
import { historyFlags, timeWindow, type TimeWindow } from '../cli/history-flags.js';
import { progressOn } from '../cli/progress.js';
import { parseOneTarget } from '../cli/targets.js';
import { NAME_OF_TYPE_ARG } from '../completion/words.js';
import { UserError } from '../errors.js';
import { formatBytes } from '../input/read-input.js';
import { renderOutput } from '../render/formats.js';
import { historyTableChunks, renderCoverageLine, renderHistoryNotes, renderPodStory } from '../render/history.js';
import { buildEventsHistory } from '../services/events-history.js';
import { historyPageScript } from '../services/history-page.js';
import { historyQuery, QUERY_CLOUDS } from '../services/history-query.js';
import { buildHistory, type HistoryResult, type HistoryTarget } from '../services/history-service.js';

export default class History extends BaseCommand {
  static override summary = 'Tell what the controller did, and why, from audit logs (kube-apiserver, GKE, EKS, AKS, OpenShift), Events or recordings';
  static override description = `Replays the writes of pods, ReplicaSets and ReplicationControllers logged by kube-apiserver
(audit.k8s.io/v1 events, as written with --audit-log-format=json; several files and directories,
rotated and gzip-compressed ones included, are merged in time order), rebuilds their state from
the request and response bodies, and explains every write. A write of the controller itself is
checked against the one sync the rules plan on the state just before that sync (the planner diff
uses): PREDICTED says whether they do that write, and when they do not, what they would have done
instead. Users' writes (a scale, a delete, a label change) are shown as they are. Why the
controller acted (its cause chain: the deployment controller's scale, the admin's change that made
it roll out) is in -o wide's CAUSE column, in pod stories and in -o json.

The same log as a managed cluster exports it is recognised from its content, no flag needed: GKE
(gcloud logging read, a Cloud Storage sink, BigQuery), EKS (CloudWatch, its S3 export, Logs
Insights), AKS (a storage account, Event Hub, Log Analytics) and OpenShift (oc adm node-logs,
must-gather). --audit-log-format forces one format for every --audit-log input.

The first line on stderr says what the input covers: its format, the times of the first and last
write shown, and what it lacks (status writes, truncated or duplicated entries). Every time is UTC.

A write logged without bodies (level Metadata) leaves the state of what it wrote unknown from
there on; explanations resume once the object's whole state is logged again. Nothing is guessed.

--since and --until show a window of the log (a duration back from now, as kubectl's --since, or an
RFC 3339 time); the state is still rebuilt from the whole log. --controller-writes-only leaves out
the writes that made no controller act, such as the kubelet's final deletes of terminated pods.

--print-query gke|bigquery|eks|aks prints the query that fetches those writes from the cloud's log
engine (Cloud Logging, a BigQuery sink, CloudWatch, Log Analytics) for -n NAMESPACE or -A, the
target and --since/--until, with the command that writes it to a file for --audit-log; it reads
nothing.

--events (the live cluster, read-only) or --events-file FILE (kubectl get events -o json) tell what
a cluster without audit logs still keeps for about an hour: the controllers' Events name the pods
they created and deleted, with no verdict (Events carry no state).

--recording reads recordings of "record" (or "watch --record") instead, for clusters without
audit logs: every change the informers saw, who wrote it from its managedFields, and the
controllers' Events ("Deleted pod: X") for who deleted a pod. A change nobody can be named for is
shown as <unknown user>; a watch that had to relist is a gap, said in a warning.

pod/NAME tells one pod's story: created when and by whom, adopted or released (or refused that),
deleted by whom and why, with the ranking sentence as it stood at that moment and the chain of
writes that made the controller act.

Exit status: 0, or 1 when a controller write was not predicted by the rules.`;

  static override examples = [
    {
      description: 'Why did the ReplicaSet delete that pod last night?',
      command: '<%= config.bin %> history pod/web-7d4f8-x2kq9 -n shop --audit-log /var/log/kubernetes/audit.log',
    },
    {
      description: 'Every write of one ReplicaSet, rotated logs included',
      command: '<%= config.bin %> history rs/web -n shop --audit-log audit.log --audit-log audit.log.1.gz',
    },
    {
      description: "The last two hours of a GKE export, the controllers' writes and their causes only",
      command: '<%= config.bin %> history deploy/web -n shop --audit-log gcloud-logs.json --since 2h --controller-writes-only -o wide',
    },
    {
      description: 'An OpenShift must-gather directory, one morning (UTC)',
      command: '<%= config.bin %> history -A --audit-log must-gather/audit_logs --since 2026-11-25T08:00:00Z --until 2026-11-25T12:00:00Z',
    },
    {
      description: "The query that exports one namespace of an EKS cluster's audit log, the last day",
      command: '<%= config.bin %> history --print-query eks -n shop --since 24h',
    },
    { description: "No audit log: what the cluster's Events still say about a Deployment", command: '<%= config.bin %> history deploy/web -n shop --events' },
    { description: 'The whole log as the history contract, for a script', command: '<%= config.bin %> history --audit-log audit.log -A -o json' },
    {
      description: 'A cluster without audit logs: explain what "record -n shop --output-file shop.jsonl" saw',
      command: '<%= config.bin %> history rs/web -n shop --recording shop.jsonl',
    },
  ];

  static override args = {
    name: Args.string({
      description: "what to follow: rs/NAME, rc/NAME, deploy/NAME or pod/NAME, or the TYPE of kubectl's TYPE NAME (default: everything in scope)",
      ignoreStdin: true,
    }),
    // kubectl's TYPE NAME: the usage line stays COMMAND NAME, the first argument's text tells it
    [NAME_OF_TYPE_ARG]: Args.string({ description: "after a TYPE (kubectl's TYPE NAME, e.g. rs web): the NAME", ignoreStdin: true, hidden: true }),
  };

  static override flags = {
    'audit-log': Flags.string({
      description:
        'audit log: a file, or a directory of them (plain or gzip; JSON lines of kube-apiserver, or an export of GKE, EKS, AKS or OpenShift, recognised from its content); repeatable',
      ...repeatable,
    }),
    'audit-log-format': historyFlags['audit-log-format'],
    recording: Flags.string({ description: 'a recording of "record" or "watch --record" (plain or gzip), instead of audit logs; repeatable', ...repeatable }),
    events: Flags.boolean({
      description:
        "read the live cluster's Events (read-only), instead of audit logs: the pods the controllers created and deleted in the last hour or so, without verdicts",
      default: false,
    }),
    'events-file': Flags.string({
      description: 'a file of "kubectl get events -o json" (or -o yaml; plain or gzip; - for stdin), instead of audit logs; repeatable',
      ...repeatable,
    }),
    'print-query': Flags.option({
      description:
        "print the query that fetches what --audit-log reads from GKE's Cloud Logging, a BigQuery sink, EKS's CloudWatch or AKS's Log Analytics (for -n or -A, the target and --since/--until), and read nothing",
      options: QUERY_CLOUDS,
    })(),
    ...namespaceScopeFlags,
    since: historyFlags.since,
    until: historyFlags.until,
    'controller-writes-only': historyFlags['controller-writes-only'],
    ...outputFlag(
      ['document', 'human', 'wide', 'page'],
      'output format: json and yaml print the history contract, wide adds the CAUSE and MESSAGE columns, html a self-contained timeline page',
    ),
    ...outputFileFlag,
    ...noHeadersFlag,
    'controller-user': Flags.string({
      description:
        "a user whose writes are the controller's, besides kube-controller-manager's replicaset-controller and replication-controller service accounts; repeatable",
      ...repeatable,
    }),
    ...inHelpGroup('WHAT-IF', { 'kube-version': behaviourFlags['kube-version'], 'feature-gates': behaviourFlags['feature-gates'] }),
    // --events only: the cluster whose Events are read
    ...connectionFlags,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(History);
    const target = args.name === undefined ? undefined : (parseOneTarget(args.name, args[NAME_OF_TYPE_ARG], 'history') as HistoryTarget);
    if (flags.namespace !== undefined && flags['all-namespaces']) throw new UserError('-n and -A cannot be used together');
    const inputs = inputFlags(flags);
    // durations count back from now: the command's clock, read once
    const window = timeWindow(flags, Date.now());
    if (flags['print-query'] !== undefined) {
      this.print(printedQuery(flags, flags['print-query'], inputs, target, window));
      return;
    }
    const events = flags.events || (flags['events-file']?.length ?? 0) > 0;
    if (events && inputs.length > 1) throw new UserError(`one history is read from one kind of input: give one of ${inputs.join(', ')}`);
    // Ctrl-C: exit 130 at once, through process.exit, so that the events kept on disk are removed ('exit')
    this.interruptible({ atOnce: true });
    const result = await readHistory(flags, events, target, window);
    const { history } = result;
    // what the input covers and lacks comes first, before any notice, whatever -o is (stdout
    // stays the document)
    process.stderr.write(renderCoverageLine(result.coverage, iso(result.span?.from) ?? history.from, iso(result.span?.to) ?? history.to) + '\n');
    for (const n of result.notices) this.warning(n);
    // -o html inlines the page's script: loaded only for it
    const script = flags.output === 'html' ? await historyPageScript() : undefined;
    try {
      await this.printChunks(
        renderOutput(flags.output, {
          document: () => history,
          pageScript: script === undefined ? undefined : () => script,
          human: (wide) => humanHistory(result, target, { ...stdoutStyle(flags), wide, noHeaders: flags['no-headers'] }),
        }),
        flags['output-file'],
      );
    } finally {
      result.close();
    }
    // a file written says so, with its size, as the page to open is found by its name
    const file = flags['output-file'];
    if (file !== undefined) process.stderr.write(`wrote ${file} (${formatBytes((await stat(file)).size)})\n`);
    process.exitCode = result.counts.notPredicted > 0 ? 1 : 0;
  }
}

type HistoryFlags = Interfaces.InferredFlags<typeof History.flags>;

/** The inputs given, by their flags; --audit-log-format without --audit-log is refused. */
function inputFlags(flags: HistoryFlags): string[] {
  const inputs = [
    flags['audit-log']?.length && '--audit-log',
    flags.recording?.length && '--recording',
    flags.events && '--events',
    flags['events-file']?.length && '--events-file',
  ].filter((x): x is string => typeof x === 'string');
  if (flags['audit-log-format'] !== undefined && !flags['audit-log']?.length) {
    throw new UserError(
      `--audit-log-format says how to read the --audit-log inputs: give them with --audit-log FILE${inputs.length ? ` (not ${inputs.join(', ')})` : ''}`,
    );
  }
  return inputs;
}

/** --print-query: the cloud's query for the scope, the target and the window; nothing is read. */
function printedQuery(
  flags: HistoryFlags,
  cloud: NonNullable<HistoryFlags['print-query']>,
  inputs: string[],
  target: HistoryTarget | undefined,
  window: TimeWindow,
): string {
  if (inputs.length > 0) throw new UserError(`--print-query prints the query that fetches the log, and reads nothing: leave out ${inputs.join(', ')}`);
  if (flags.namespace === undefined && !flags['all-namespaces'])
    throw new UserError('--print-query needs a scope: -n NAMESPACE, or -A for every namespace (every write of the cluster)');
  return historyQuery({ cloud, namespace: flags['all-namespaces'] ? undefined : flags.namespace, target, ...window });
}

/** The history of the Events (--events, --events-file), else of the audit logs or recordings, with progress on stderr. */
async function readHistory(flags: HistoryFlags, events: boolean, target: HistoryTarget | undefined, window: TimeWindow): Promise<HistoryResult> {
  const progress = progressOn(process.stderr);
  const common = { target, ...behaviourOptions(flags), ...window, controllerWritesOnly: flags['controller-writes-only'] };
  try {
    if (events) {
      return await buildEventsHistory({
        ...common,
        files: flags['events-file'],
        connection: flags.events ? connection(flags) : undefined,
        namespace: flags.namespace,
        allNamespaces: flags['all-namespaces'],
        onProgress: (text) => progress.update(text),
      });
    }
    return await buildHistory({
      ...common,
      auditLogs: flags['audit-log'] ?? [],
      recordings: flags.recording ?? [],
      namespace: flags['all-namespaces'] ? undefined : flags.namespace,
      controllerUsers: flags['controller-user'],
      auditLogFormat: flags['audit-log-format'],
      onBytes: (read, total) => progress.update(`reading ${flags.recording ? 'recordings' : 'audit logs'}: ${Math.round((100 * read) / Math.max(total, 1))}%`),
    });
  } finally {
    progress.done();
  }
}

/** The table (read from disk as it is written out) and its notes, or a pod's story. */
function* humanHistory(
  result: HistoryResult,
  target: HistoryTarget | undefined,
  o: OutputStyle & { wide: boolean; noHeaders: boolean },
): Generator<string, void, undefined> {
  const { history, refused, targetNamespace } = result;
  if (target?.kind === 'Pod') {
    yield renderPodStory({ pod: target.name, namespace: targetNamespace, events: history.events, refused: refused.filter((w) => w.pod === target.name) }, o);
    return;
  }
  const layout = yield* historyTableChunks(history.events, o);
  yield '\n' + renderHistoryNotes(result.counts, result.notPredicted, o, layout);
}

/** A time read (ms) as the contract writes times, or null. */
function iso(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}
