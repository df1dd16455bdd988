import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { confirm } from '../cli/confirm.js';
import type { Interruption } from '../cli/interrupt.js';
import {
  behaviourFlags,
  connectionFlags,
  modelOptions,
  noHeadersFlag,
  outputFlag,
  scopeFlags,
  sourceOptions,
  stdoutStyle,
  syncedTimeoutFlag,
  whatIfFlags,
  writerFlags,
  writerOptions,
} from '../cli/flags.js';
import { progressOn } from '../cli/progress.js';
import { detectUpstreamController } from '../cluster/upstream-detect.js';
import type { Connection } from '../cluster/kubeconfig.js';
import { parseControllerTargets } from '../cli/targets.js';
import { UserError } from '../errors.js';
import { namespaceColumnShown, noResourcesFound, renderDiffTable, renderSummary } from '../render/diff-table.js';
import { renderOutput } from '../render/formats.js';
import { renderNames } from '../render/plan-output.js';
import { parseDurationMs } from '../core/duration.js';
import type { Plan, PlanController } from '../core/plan-types.js';
import { parseByteQuantity } from '../input/read-input.js';
import { confirmationText, reconcileProblems, reconcileSummary, renderStaleness, stoppedSummary } from '../render/reconcile-output.js';
import { applyPlan, confirmedPods, startReconcile, type DryRun, type ReconcileReport } from '../services/reconcile-service.js';

export default class Reconcile extends BaseCommand {
  static override summary = 'Run one sync of the ReplicaSet controller against the cluster, and apply it';
  static override description = `Reads fresh state, computes the plan exactly as "diff" shows it, asks for confirmation on a
terminal naming the pods it will adopt, release and delete (--yes to skip; required when stdin is
not a terminal), then carries out exactly that plan as upstream's sync does: re-checks the
controller before adopting, adopts and releases with upstream's strategic merge patches, creates
pods from the template in slow-start batches (stopping at the first failed batch), deletes the
ranked pods in parallel, writes the status through the status subresource, and records Events as
upstream's recorder does (reportingController rs-reconcile).

Then it converges: the controllers are synced again on fresh state, as the controller would on the
events its writes cause (a pod it created turning ready, a pod it deleted gone, the minReadySeconds
requeue), until "diff" on them would exit 0 and nothing it wrote is still changing, or --timeout
passes. --once stops after the first sync. A follow-up sync never deletes or releases a pod the
confirmation did not name; such a controller is left for another run. Ctrl-C stops the writes and
says, per controller, what was already written (exit status 130).

-f SNAPSHOT (with --dry-run=client) plans a saved snapshot as diff does, as of --now; a live
cluster is planned at the time it is read, so --now is refused there.

--plan FILE applies a plan saved with "diff -o json" (or -o yaml) exactly: it plans again on fresh
state first and, if anything the plan does differs (other pods, other counts, a re-created
controller, another Kubernetes version), writes nothing at all and lists the differences.

Exit status: 0 when every action succeeded and every controller is in sync, 1 when --timeout passed
before that or the confirmation was answered no (the drift remains, as diff's 1), 2 when any action
failed, 3 when a saved plan is stale (nothing written), 130 when interrupted.

Before writing it looks for the upstream controller as "run" does (its Events of the last hour in
scope) and warns when it is active: the two act on the same objects.`;

  static override examples = [
    { description: 'Look first, then apply after confirming', command: '<%= config.bin %> reconcile -n shop' },
    {
      description: 'Send every write with dryRun=All: the server validates, nothing changes',
      command: '<%= config.bin %> reconcile -n shop --dry-run=server -o json',
    },
    { description: 'In a script', command: '<%= config.bin %> reconcile rs/web --yes' },
    {
      description: 'Review a plan, then apply exactly that plan',
      command: '<%= config.bin %> diff -n shop -o json > plan.json; <%= config.bin %> reconcile --plan plan.json --yes',
    },
  ];

  static override strict = false;
  static override args = {
    name: Args.string({
      description: 'controllers to reconcile: NAME, rs/NAME, rc/NAME, or deploy/NAME for the ReplicaSets of a Deployment (default: all in scope)',
      ignoreStdin: true,
    }),
  };
  static override flags = {
    ...scopeFlags,
    ...outputFlag(
      ['document', 'human', 'wide', 'names'],
      'output format: json and yaml print the plan and the outcome of every action, wide adds columns to the table, name prints the controllers synced',
    ),
    ...noHeadersFlag,
    plan: Flags.string({ description: 'apply exactly this plan, saved with "diff -o json|yaml" (- for stdin); refused with no write when stale' }),
    'dry-run': Flags.string({
      description: 'none: apply; client: send nothing; server: send every write with dryRun=All',
      options: ['none', 'client', 'server'],
      default: 'none',
    }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
    once: Flags.boolean({ description: 'one sync only: do not go on syncing until the controllers are in sync', default: false }),
    ...syncedTimeoutFlag,
    ...writerFlags,
    // a snapshot (-f, with --dry-run=client) is planned as of --now, as diff plans it
    now: whatIfFlags.now,
    ...behaviourFlags,
    ...connectionFlags,
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Reconcile);
    // Ctrl-C while reading and at the prompt: exit 130 there and then (nothing was written)
    const interruption = this.interruptible({ atOnce: true });
    const dryRun = flags['dry-run'] as DryRun;
    if (flags.filename?.length && dryRun !== 'client')
      throw new UserError('reconcile writes to a cluster: -f (a snapshot) is only allowed with --dry-run=client');
    // the writes happen now: a live cluster is planned at the time it is read
    if (flags.now !== undefined && !flags.filename?.length)
      throw new UserError('--now is only allowed with -f (a snapshot): a live cluster is planned at the time it is read');
    const targets = parseControllerTargets(argv as string[], 'reconcile');
    const timeoutMs = parseDurationMs(flags.timeout, 's');
    if (timeoutMs === null || timeoutMs <= 0) throw new UserError(`invalid --timeout ${JSON.stringify(flags.timeout)}: expected a duration such as 30s or 2m`);
    const progress = progressOn(process.stderr);
    const io = { stdin: process.stdin, progress };
    const savedPlan = flags.plan === undefined ? undefined : { path: flags.plan, maxInputBytes: parseByteQuantity(flags['max-input-size']) };
    const start = await startReconcile(sourceOptions(flags), modelOptions(flags), targets, io, savedPlan);
    if (!start) {
      this.print('nothing to do: the plan holds no controller');
      return;
    }
    const { ctx, saved, stale, refresh } = start;
    for (const n of ctx.notices) this.warning(n);
    if (stale.length) {
      process.stderr.write(renderStaleness(stale));
      process.exitCode = 3;
      return;
    }
    const work = ctx.plan.controllers.filter((c) => !c.inSync && c.skip?.reason !== 'InvalidSelector');
    if (flags.output === undefined || flags.output === 'wide') this.printPlan(ctx.plan, ctx.namespace, flags);
    // as run refuses to start beside it (unless --force), an apply beside the upstream controller
    // is told: the two fight over the same pods
    if (work.length > 0 && dryRun === 'none' && ctx.connection) await this.warnBesideUpstreamController(ctx.connection, ctx.namespace);
    const confirmedByPrompt = work.length > 0 && dryRun === 'none' && !flags.yes;
    // a plan read from stdin (--plan -) leaves no terminal to answer on
    if (confirmedByPrompt && !(await this.confirmWrites(work, ctx.connection, interruption, flags.plan === '-'))) {
      // the drift the plan shows is still there: exit as diff does on drift
      process.stderr.write('Nothing was written.\n');
      process.exitCode = 1;
      return;
    }
    // What the user agreed to see deleted or released: follow-up syncs stay within it.
    const confirmed = confirmedByPrompt || saved ? confirmedPods(work) : undefined;
    let done = 0;
    // Ctrl-C mid-apply: no further write, then say what was written (a second Ctrl-C ends at once).
    const signal = interruption.graceful();
    const report: ReconcileReport = await applyPlan(ctx, {
      dryRun,
      ...writerOptions(flags),
      onAction: (a, c) => {
        done++;
        progress.update(`applying: ${done} actions (${c.namespace}/${c.name}: ${a.action}${a.pod ? ' ' + a.pod : ''})`);
      },
      converge: flags.once ? undefined : { timeoutMs, confirmed, refresh },
      signal,
    });
    progress.done();
    await this.printChunks(
      renderOutput(flags.output, {
        document: () => report,
        names: () => renderNames({ ...ctx.plan, controllers: work }),
        human: () => [reconcileSummary(report, work.length)],
      }),
    );
    process.stderr.write(reconcileProblems(report));
    process.stderr.write(stoppedSummary(report));
    process.exitCode = report.stopped?.reason === 'interrupted' ? 130 : report.failed || report.stopped ? 2 : report.converged === false ? 1 : 0;
  }

  /** The plan as diff shows it (table and summary), or kubectl's "No resources found" when it holds no controller. */
  private printPlan(plan: Plan, namespace: string | null, flags: PlanTableFlags): void {
    if (!plan.controllers.length) {
      process.stderr.write(noResourcesFound(emptyScope(flags, namespace)));
      return;
    }
    const { chalk, width } = stdoutStyle();
    this.print(
      renderDiffTable(plan, {
        wide: flags.output === 'wide',
        noHeaders: flags['no-headers'],
        chalk,
        width,
        namespaceColumn: namespaceColumnShown(flags['all-namespaces']),
      }),
    );
    this.print(renderSummary(plan, chalk));
  }

  /** The user's yes to the writes on the cluster the connection names, asked on the terminal. */
  private confirmWrites(work: PlanController[], conn: Connection | null, interruption: Interruption, inputTaken: boolean): Promise<boolean> {
    const where = conn ? ` on ${conn.contextName || conn.server}` : '';
    return confirm(confirmationText(work, where), { input: process.stdin, output: process.stderr, interruption }, inputTaken);
  }

  /** One warning when the upstream controller has acted in scope within the hour (its Events), as `run` looks for it. */
  private async warnBesideUpstreamController(conn: Connection, namespace: string | null): Promise<void> {
    const found = await detectUpstreamController(conn, namespace);
    if (found.warning) this.warning(found.warning);
    if (found.found)
      this.warning(
        `the upstream ReplicaSet controller is active ${namespace ? `in namespace "${namespace}"` : 'in this cluster'} (${found.evidence}): it acts on the same objects, and may undo or repeat these writes`,
      );
  }
}

/** The flags that shape the plan's table and its empty result. */
type PlanTableFlags = { output?: string; 'no-headers': boolean; 'all-namespaces': boolean; namespace?: string; filename?: string[] };

/** The scope an empty result names, as kubectl get's "No resources found" does. */
function emptyScope(flags: { 'all-namespaces': boolean; namespace?: string; filename?: string[] }, namespace: string | null) {
  return { allNamespaces: flags['all-namespaces'], namespace: flags.namespace ?? namespace, snapshot: !!flags.filename?.length };
}
