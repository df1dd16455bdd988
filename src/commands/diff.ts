import { Args } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { connectionFlags, modelFlags, modelOptions, noHeadersFlag, outputFlag, scopeFlags, sourceOptions, stderrChalk, stdoutStyle } from '../cli/flags.js';
import { progressOn } from '../cli/progress.js';
import { writeFd } from '../cli/stdio.js';
import { parseControllerTargets } from '../cli/targets.js';
import { namespaceOf } from '../core/controller.js';
import { entryKey } from '../core/plan-compare.js';
import { renderDeploymentDiff } from '../render/deployment-diff.js';
import { namespaceColumnShown, noResourcesFound, renderDiffTable, renderOverlapWarnings, renderSummary } from '../render/diff-table.js';
import { renderOutput } from '../render/formats.js';
import { renderNames } from '../render/plan-output.js';
import { diffInSync, preparePlan } from '../services/plan-service.js';

export default class Diff extends BaseCommand {
  static override summary = 'Show what the ReplicaSet controller would change: adopt, release, create, delete, status';
  static override description = `Plans one sync of every ReplicaSet and ReplicationController in scope, exactly as the upstream
controller would run it, and shows the differences. Nothing is written. Reads a snapshot
(-f, as printed by "kubectl get rs,rc,pods -o yaml") or the live cluster (read-only).

Selectors that overlap get one "Warning:" line per pair on stderr and an OVERLAPS column. The
summary counts pods: an orphan two controllers would adopt is one pod (only the first to patch it
adopts it). With --replicas the plan is a what-if: DESIRED reads "N (as if)", and the plan cannot
be applied with reconcile --plan.

Where the input holds Deployments (kubectl get deploy,rs,rc,pods), the deployment controller's
next sync of each is planned too (its ReplicaSet creates, scales and deletes, with their
arithmetic): listed after the table, as deployment.apps/NAME with -o name, and under
"deployments" with -o json|yaml.

Exit status, as kubectl diff: 0 when every controller and Deployment is in sync, 1 when the plan
has any action or status change or a controller is skipped for an invalid selector (upstream does
nothing for it, so it is not in sync), greater than 1 on an error.`;

  static override examples = [
    { description: 'Audit a saved snapshot', command: 'kubectl get rs,rc,pods -A -o yaml > snap.yaml\n<%= config.bin %> diff -f snap.yaml -A' },
    { description: 'The plan as JSON for a CI job (exit 1 on drift)', command: '<%= config.bin %> diff -n shop -o json' },
    { description: 'Which pods would go if web were scaled to 3', command: '<%= config.bin %> diff rs/web --replicas 3 -o wide' },
    { description: 'Every ReplicaSet of the Deployment checkout (found by owner references)', command: '<%= config.bin %> diff deploy/checkout -n shop' },
    {
      description: 'As the controller of Kubernetes 1.32 would see it',
      command: '<%= config.bin %> diff -f snap.yaml --kube-version 1.32 --now 2026-01-01T00:00:00Z',
    },
  ];

  static override strict = false;
  static override args = {
    name: Args.string({
      description: 'controllers to plan: NAME, rs/NAME, rc/NAME, or deploy/NAME for the ReplicaSets of a Deployment (default: all in scope)',
      ignoreStdin: true,
    }),
  };

  static override flags = { ...scopeFlags, ...outputFlag(['document', 'human', 'wide', 'names']), ...noHeadersFlag, ...modelFlags, ...connectionFlags };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Diff);
    const targets = parseControllerTargets(argv as string[], 'diff');
    const ctx = await preparePlan({ ...sourceOptions(flags), deployments: true }, modelOptions(flags), targets, { progress: progressOn() });
    for (const n of ctx.notices) this.warning(n);
    const plan = ctx.plan;
    writeFd(2, renderOverlapWarnings(plan, stderrChalk()));
    await this.printChunks(
      renderOutput(flags.output, {
        document: () => plan,
        names: () => renderNames(plan),
        human: (wide) => {
          if (plan.controllers.length === 0) {
            if (plan.deployments?.length) return [renderDeploymentDiff(plan, stdoutStyle().chalk).replace(/^\n/, '')];
            writeFd(
              2,
              noResourcesFound({ allNamespaces: flags['all-namespaces'], namespace: flags.namespace ?? ctx.namespace, snapshot: !!flags.filename?.length }),
            );
            return [];
          }
          const { chalk, width } = stdoutStyle();
          const before = new Map(
            ctx.selected.map((c) => [entryKey({ kind: c.kind, namespace: namespaceOf(c), name: c.metadata.name }), c.status?.observedGeneration ?? null]),
          );
          const table = renderDiffTable(plan, {
            wide,
            noHeaders: flags['no-headers'],
            chalk,
            width,
            namespaceColumn: namespaceColumnShown(flags['all-namespaces']),
            observedGenerationBefore: (c) => before.get(entryKey(c)),
          });
          const deployments = renderDeploymentDiff(plan, chalk);
          return [...(flags['no-headers'] ? [table] : [table, renderSummary(plan, chalk)]), ...(deployments ? [deployments] : [])];
        },
      }),
    );
    process.exitCode = diffInSync(plan) ? 0 : 1;
  }
}
