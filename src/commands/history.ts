import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { behaviourFlags, inHelpGroup, namespaceScopeFlags, noHeadersFlag, outputFlag } from '../cli/flags.js';
import { parsePodTarget } from '../cli/pod-target.js';
import { progressOn } from '../cli/progress.js';
import { parseTarget } from '../cli/targets.js';
import { UserError } from '../errors.js';
import { colorLevel, makeChalk } from '../render/color.js';
import { renderOutput } from '../render/formats.js';
import { historyTableChunks, renderHistoryNotes, renderPodStory } from '../render/history.js';
import { buildHistory, type HistoryTarget } from '../services/history-service.js';

export default class History extends BaseCommand {
  static override summary = 'Tell what the controller did, and why, from kube-apiserver audit logs or recordings';
  static override description = `Replays the writes of pods, ReplicaSets and ReplicationControllers logged by kube-apiserver
(audit.k8s.io/v1 events, one JSON object a line, as written with --audit-log-format=json; several
files, rotated and gzip-compressed ones included, are merged in time order), rebuilds their state
from the request and response bodies, and explains every write. A write of the controller itself
is checked against the one sync the rules plan on the state just before that sync (the planner
diff uses): PREDICTED says whether they do that write, and when they do not, what they would
have done instead. Users' writes (a scale, a delete, a label change) are shown as they are.

A write logged without bodies (level Metadata) leaves the state of what it wrote unknown from
there on; explanations resume once the object's whole state is logged again. Nothing is guessed.

--recording reads recordings of "record" (or "watch --record") instead, for clusters without
audit logs: every change the informers saw, who wrote it from its managedFields, and the
controllers' Events ("Deleted pod: X") for who deleted a pod. A change nobody can be named for is
shown as <unknown user>; a watch that had to relist is a gap, said in a warning.

pod/NAME tells one pod's story: created when and by whom, adopted or released, deleted by whom and
why, with the ranking sentence as it stood at that moment.

Exit status: 0, or 1 when a controller write was not predicted by the rules.`;

  static override examples = [
    { description: 'Why did the ReplicaSet delete that pod last night?', command: '<%= config.bin %> history pod/web-7d4f8-x2kq9 -n shop --audit-log /var/log/kubernetes/audit.log' },
    { description: 'Every write of one ReplicaSet, rotated logs included', command: '<%= config.bin %> history rs/web -n shop --audit-log audit.log --audit-log audit.log.1.gz' },
    { description: 'The whole log as the history contract, for a script', command: '<%= config.bin %> history --audit-log audit.log -A -o json' },
    { description: 'A cluster without audit logs: explain what "record -n shop -o shop.jsonl" saw', command: '<%= config.bin %> history rs/web -n shop --recording shop.jsonl' },
  ];

  static override args = {
    name: Args.string({ description: 'what to follow: rs/NAME, rc/NAME, deploy/NAME or pod/NAME (default: everything in scope)', ignoreStdin: true }),
  };

  static override flags = {
    'audit-log': Flags.string({ description: 'kube-apiserver audit log (JSON lines, plain or gzip); repeatable', multiple: true }),
    recording: Flags.string({ description: 'a recording of "record" or "watch --record" (plain or gzip), instead of audit logs; repeatable', multiple: true }),
    ...namespaceScopeFlags,
    ...outputFlag(['json', 'yaml', 'wide']),
    ...noHeadersFlag,
    'controller-user': Flags.string({ description: "a user whose writes are the controller's, besides kube-controller-manager's replicaset-controller and replication-controller service accounts; repeatable", multiple: true }),
    ...inHelpGroup('WHAT-IF', { 'kube-version': behaviourFlags['kube-version'], 'feature-gates': behaviourFlags['feature-gates'] }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(History);
    let target: HistoryTarget | undefined;
    if (args.name !== undefined) {
      const pod = parsePodTarget(args.name);
      target = pod !== undefined ? { kind: 'Pod', name: pod } : parseTarget(args.name);
    }
    if (flags.namespace !== undefined && flags['all-namespaces']) throw new UserError('-n and -A cannot be used together');
    // Ctrl-C: exit through process.exit, so that the events kept on disk are removed ('exit')
    process.once('SIGINT', () => process.exit(130));
    const progress = progressOn(process.stderr);
    let result;
    try {
      result = await buildHistory({
        auditLogs: flags['audit-log'] ?? [],
        recordings: flags.recording ?? [],
        namespace: flags['all-namespaces'] ? undefined : flags.namespace,
        target,
        kubeVersion: flags['kube-version'],
        featureGates: flags['feature-gates'],
        controllerUsers: flags['controller-user'],
        onBytes: (read, total) => progress.update(`reading ${flags.recording ? 'recordings' : 'audit logs'}: ${Math.round((100 * read) / Math.max(total, 1))}%`),
      });
    } finally {
      progress.done();
    }
    for (const n of result.notices) this.warning(n);
    const { history } = result;
    try {
      await this.printChunks(
        renderOutput(flags.output, {
          document: () => history,
          *human(wide) {
            const chalk = makeChalk(colorLevel(process.stdout, process.env));
            const o = { chalk, wide, noHeaders: flags['no-headers'], width: process.stdout.isTTY ? process.stdout.columns : undefined };
            if (target?.kind === 'Pod') {
              yield renderPodStory(history.events, target.name, result.targetNamespace, o);
              return;
            }
            // the table in parts, read from disk as it is written out
            yield* historyTableChunks(history.events, o);
            yield '\n' + renderHistoryNotes(result.counts, result.notPredicted, o);
          },
        }),
      );
    } finally {
      result.close();
    }
    process.exitCode = result.counts.notPredicted > 0 ? 1 : 0;
  }
}
