import { Flags } from '@oclif/core';
import { BaseCommand, invalidFlagValue } from '../cli/base.js';
import { connection, connectionFlags, namespaceScopeFlags } from '../cli/flags.js';
import { parseDurationMs } from '../core/duration.js';
import { UserError } from '../errors.js';

export default class Record extends BaseCommand {
  static override summary = 'Record what happens to ReplicaSets, ReplicationControllers and pods, for "history --recording"';
  static override description = `For clusters without audit logs: watches ReplicaSets, ReplicationControllers and pods with the
informers "run" and "watch" use, read-only, and writes every change as one JSON line
(docs/recording-format.md): ADDED / MODIFIED / DELETED, the whole object, its resourceVersion,
the time it was seen, and who wrote it (the manager of the managedFields entry the change
touched: kube-controller-manager, kubectl-client-side-apply, rs-reconcile…). The controllers'
Events (replicaset-controller, replication-controller, rs-reconcile: SuccessfulCreate,
SuccessfulDelete, FailedCreate…) are recorded too: managedFields cannot say who deleted a pod,
"Deleted pod: X" can.

Runs until Ctrl-C (or --timeout), then flushes the file (and exits 130 after Ctrl-C, as a shell
expects of a command stopped by it; 0 at --timeout). A name ending in .gz is written
gzip-compressed; - writes to stdout. Then: history --recording FILE.`;

  static override examples = [
    { description: 'Record one namespace until Ctrl-C', command: '<%= config.bin %> record -n shop --output-file shop.jsonl' },
    { description: 'Record the whole cluster for an hour, compressed', command: '<%= config.bin %> record -A --output-file cluster.jsonl.gz --timeout 1h' },
    { description: 'Then: what did the controller do, and why?', command: '<%= config.bin %> history rs/web -n shop --recording shop.jsonl' },
  ];

  static override flags = {
    ...namespaceScopeFlags,
    // As everywhere (and as kubectl cluster-info dump, which has -o and --output-directory), -o is
    // the output format: a recording has one, JSON lines. The file is named by --output-file only,
    // so that `record -o json` cannot write a file named json.
    output: Flags.string({
      char: 'o',
      description: 'output format: json, JSON lines (docs/recording-format.md), the only one; name the file with --output-file',
      default: 'json',
      parse: async (value) => {
        if (value === 'json') return value;
        throw invalidFlagValue(
          value,
          `expected json (a recording is JSON lines); name the file to write with --output-file${/^(yaml|wide|name)$/.test(value) ? '' : ` ${value}`}`,
        );
      },
    }),
    'output-file': Flags.string({ description: 'the file to write (.gz: compressed; -: stdout)', required: true }),
    timeout: Flags.string({ description: 'stop after this long (e.g. 30s, 10m, 1h); default: until Ctrl-C' }),
    ...connectionFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Record);
    if (flags.namespace !== undefined && flags['all-namespaces']) throw new UserError('-n and -A cannot be used together');
    let timeoutMs: number | undefined;
    if (flags.timeout !== undefined) {
      const ms = parseDurationMs(flags.timeout);
      if (ms === null || ms <= 0) throw new UserError(`invalid --timeout ${JSON.stringify(flags.timeout)}: expected a duration such as 30s, 10m or 1h`);
      timeoutMs = ms;
    }
    const { record } = await import('../services/record-service.js');
    // Ctrl-C ends the recording: the file is flushed, then the command exits 130 (BaseCommand)
    const interruption = this.interruptible();
    // what it says goes to stderr, on a terminal or not (a recording left running in the
    // background, or under a supervisor, says in its log when it started and what it holds)
    const result = await record(
      { connection: connection(flags), namespace: flags.namespace, allNamespaces: flags['all-namespaces'], output: flags['output-file'], timeoutMs },
      {
        signal: interruption.signal,
        onNotice: (text) => this.warning(text),
        onSynced: (summary) => process.stderr.write(`${summary}${timeoutMs !== undefined ? ` for ${flags.timeout}; Ctrl-C stops sooner` : '; Ctrl-C stops'}\n`),
      },
    );
    process.stderr.write(`recorded ${result.changes} change${result.changes === 1 ? '' : 's'} to ${result.file}\n`);
    process.exitCode = 0;
  }
}
