import { Args } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { connection, connectionFlags, modelFlags, oneTargetScopeFlags, outputFlag } from '../cli/flags.js';
import { progressOn } from '../cli/progress.js';
import { parseTarget } from '../cli/targets.js';
import { buildExplainModel } from '../core/explain.js';
import { summarize } from '../core/plan.js';
import { UserError } from '../errors.js';
import { colorLevel, makeChalk } from '../render/color.js';
import { renderExplain } from '../render/explain.js';
import { renderOutput } from '../render/formats.js';
import { preparePlan } from '../services/plan-service.js';

export default class Explain extends BaseCommand {
  static override summary = 'Tell the story of one ReplicaSet: which pods it keeps, adopts, releases, creates or deletes, and why';
  static override description = `Explains one sync of one ReplicaSet or ReplicationController as the upstream controller would
run it: its selector, every pod it considers with the decision and the reason, the deletion order
with one sentence per pod saying why it goes before the first pod that stays, the slow-start
creation batches, the status before and after, and warnings (overlapping selectors, template
labels that do not match the selector, pods owned by a controller that does not exist).
Nothing is written.`;

  static override examples = [
    { description: 'Why did my ReplicaSet pick those pods?', command: '<%= config.bin %> explain web-7d4f8 -n shop' },
    { description: 'Which pods go if I scale to 3?', command: '<%= config.bin %> explain rs/web-7d4f8 --replicas 3' },
    { description: 'From a snapshot, as of the time it was taken', command: '<%= config.bin %> explain rc/db -f snap.yaml --now 2026-01-01T00:00:00Z' },
  ];

  static override args = { name: Args.string({ description: 'the controller: NAME, rs/NAME, replicaset/NAME or rc/NAME', required: true, ignoreStdin: true }) };
  // the story is one controller's: no table to widen, no list of names, no selector to choose by
  // (the NAME chooses; -A looks for it in every namespace)
  static override flags = { ...oneTargetScopeFlags, ...outputFlag(['json', 'yaml']), ...modelFlags, ...connectionFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Explain);
    const target = parseTarget(args.name);
    const ctx = await preparePlan(
      { filename: flags.filename, namespace: flags.namespace, allNamespaces: flags['all-namespaces'], maxInputSize: flags['max-input-size'], connection: connection(flags) },
      { now: flags.now, replicas: flags.replicas, kubeVersion: flags['kube-version'], featureGates: flags['feature-gates'], burstReplicas: flags['burst-replicas'] },
      [target],
      { stdin: process.stdin, progress: progressOn(process.stderr) },
    );
    if (ctx.selected.length > 1) {
      const where = ctx.selected.map((c) => c.metadata.namespace).sort().join(', ');
      throw new UserError(`"${target.name}" exists in several namespaces (${where}): choose one with -n`);
    }
    for (const n of ctx.notices) this.warning(n);
    const entry = ctx.plan.controllers[0];
    await this.printChunks(
      renderOutput(flags.output, {
        document: () => ({ ...ctx.plan, summary: summarize([entry]), controllers: [entry] }),
        human: () => {
          const model = buildExplainModel(ctx.planner, ctx.selected[0], ctx.nowMs, ctx.behaviour.version);
          const chalk = makeChalk(colorLevel(process.stdout, process.env));
          return [renderExplain(model, { chalk, width: Math.max(80, process.stdout.columns || 100) })];
        },
      }),
    );
    process.exitCode = entry.inSync ? 0 : 1;
  }
}
