import { createInterface } from 'node:readline/promises';
import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { behaviourFlags, connection, connectionFlags, noHeadersFlag, outputFlag, scopeFlags, writerFlags } from '../cli/flags.js';
import { progressOn } from '../cli/progress.js';
import { parseTarget } from '../cli/targets.js';
import { UserError } from '../errors.js';
import { colorLevel, makeChalk } from '../render/color.js';
import { renderDiffTable, renderSummary } from '../render/diff-table.js';
import { renderOutput } from '../render/formats.js';
import { renderNames } from '../render/plan-output.js';
import { preparePlan } from '../services/plan-service.js';
import { applyPlan, tally, type DryRun } from '../services/reconcile-service.js';

export default class Reconcile extends BaseCommand {
  static override summary = 'Run one sync of the ReplicaSet controller against the cluster, and apply it';
  static override description = `Reads fresh state, computes the plan exactly as "diff" shows it, asks for confirmation on a
terminal (--yes to skip; required when stdin is not a terminal), then acts as upstream's sync does:
re-checks the controller before adopting, adopts and releases with upstream's strategic merge
patches, creates pods from the template in slow-start batches (stopping at the first failed batch),
deletes the ranked pods in parallel, writes the status through the status subresource, and records
the same Events upstream records (reportingController rs-reconcile).

Exit status: 0 when every action succeeded (or nothing was to do), 2 when any failed.`;

  static override examples = [
    { description: 'Look first, then apply after confirming', command: '<%= config.bin %> reconcile -n shop' },
    { description: 'Send every write with dryRun=All: the server validates, nothing changes', command: '<%= config.bin %> reconcile -n shop --dry-run=server -o json' },
    { description: 'In a script', command: '<%= config.bin %> reconcile rs/web --yes' },
  ];

  static override strict = false;
  static override args = { name: Args.string({ description: 'controllers to reconcile: NAME, rs/NAME or rc/NAME (default: all in scope)', ignoreStdin: true }) };
  static override flags = {
    ...scopeFlags,
    ...outputFlag(['json', 'yaml', 'wide', 'name'], 'output format: json and yaml print the plan and the outcome of every action, wide adds columns to the table, name prints the controllers synced'),
    ...noHeadersFlag,
    'dry-run': Flags.string({ description: 'none: apply; client: send nothing; server: send every write with dryRun=All', options: ['none', 'client', 'server'], default: 'none' }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
    ...writerFlags,
    ...behaviourFlags,
    ...connectionFlags,
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Reconcile);
    const dryRun = flags['dry-run'] as DryRun;
    if (flags.filename?.length && dryRun !== 'client') throw new UserError('reconcile writes to a cluster: -f (a snapshot) is only allowed with --dry-run=client');
    const targets = (argv as string[]).map(parseTarget);
    const progress = progressOn(process.stderr);
    const ctx = await preparePlan(
      { filename: flags.filename, namespace: flags.namespace, allNamespaces: flags['all-namespaces'], selector: flags.selector, maxInputSize: flags['max-input-size'], connection: connection(flags) },
      { kubeVersion: flags['kube-version'], featureGates: flags['feature-gates'], burstReplicas: flags['burst-replicas'] },
      targets,
      { stdin: process.stdin, progress },
    );
    for (const n of ctx.notices) this.warning(n);
    const chalk = makeChalk(colorLevel(process.stdout, process.env));
    const human = flags.output === undefined || flags.output === 'wide';
    const work = ctx.plan.controllers.filter((c) => !c.inSync && c.skip?.reason !== 'InvalidSelector');
    if (human) {
      if (ctx.plan.controllers.length) {
        this.print(renderDiffTable(ctx.plan, { wide: flags.output === 'wide', noHeaders: flags['no-headers'], chalk, width: process.stdout.columns, namespaceColumn: flags['all-namespaces'] || new Set(ctx.plan.controllers.map((c) => c.namespace)).size > 1 }));
        this.print(renderSummary(ctx.plan, chalk));
      } else process.stderr.write('No ReplicaSets or ReplicationControllers found.\n');
    }
    if (work.length && dryRun === 'none' && !flags.yes) {
      if (!process.stdin.isTTY) throw new UserError('refusing to write to the cluster without confirmation: stdin is not a terminal, pass --yes (or --dry-run=client|server)');
      const where = ctx.connection ? ` on ${ctx.connection.contextName || ctx.connection.server}` : '';
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      const answer = (await rl.question(`Apply ${work.length} controller sync${work.length === 1 ? '' : 's'}${where}? [y/N] `)).trim().toLowerCase();
      rl.close();
      if (answer !== 'y' && answer !== 'yes') {
        process.stderr.write('Nothing was written.\n');
        process.exitCode = 0;
        return;
      }
    }
    let done = 0;
    const report = await applyPlan(ctx, {
      dryRun,
      qps: flags['kube-api-qps'],
      burst: flags['kube-api-burst'],
      workers: flags.workers,
      onAction: (a, c) => {
        done++;
        progress.update(`applying: ${done} actions (${c.namespace}/${c.name}: ${a.action}${a.pod ? ' ' + a.pod : ''})`);
      },
    });
    progress.done();
    await this.printChunks(
      renderOutput(flags.output, {
        document: () => report,
        names: () => renderNames({ ...ctx.plan, controllers: work }),
        human: () => {
          const t = tally(report);
          const mode = dryRun === 'client' ? ' (dry run: nothing sent)' : dryRun === 'server' ? ' (server dry run: nothing changed)' : '';
          if (dryRun !== 'client' && work.length)
            return [`reconciled ${work.length} controller${work.length === 1 ? '' : 's'}${mode}: adopted ${t.adopt}, released ${t.release}, created ${t.create}, deleted ${t.delete}, status written ${t.status}, failed ${t.failed}`];
          if (!work.length) return ['nothing to do: every controller is in sync'];
          return [`would sync ${work.length} controller${work.length === 1 ? '' : 's'}${mode}`];
        },
      }),
    );
    for (const c of report.controllers) {
      for (const a of c.outcome.actions) if (!a.ok) process.stderr.write(`error: ${c.kind} ${c.namespace}/${c.name}: ${a.action}${a.pod ? ' ' + a.pod : ''} failed: ${a.error}\n`);
      if (c.outcome.error && !c.outcome.actions.some((a) => !a.ok)) process.stderr.write(`error: ${c.kind} ${c.namespace}/${c.name}: ${c.outcome.error}\n`);
    }
    process.exitCode = report.failed ? 2 : 0;
  }
}
