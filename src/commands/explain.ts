import { stat } from 'node:fs/promises';
import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { UserError } from '../errors.js';
import {
  connectionFlags,
  modelFlags,
  modelOptions,
  oneTargetScopeFlags,
  outputFileFlag,
  outputFlag,
  sourceOptions,
  stderrChalk,
  stdoutStyle,
} from '../cli/flags.js';
import { progressOn } from '../cli/progress.js';
import { writeFd } from '../cli/stdio.js';
import { parseOneTarget } from '../cli/targets.js';
import { NAME_OF_TYPE_ARG } from '../completion/words.js';
import { renderOverlapWarnings } from '../render/diff-table.js';
import { renderDeploymentDecision, renderDeploymentTree } from '../render/deployment-tree.js';
import { renderExplain } from '../render/explain.js';
import { renderOutput } from '../render/formats.js';
import { formatBytes } from '../input/read-input.js';
import { explainController, explainPod } from '../services/explain-service.js';
import { isRolloutChange, rolloutAssumptions, rolloutChange, rolloutFlags } from '../cli/rollout-flags.js';

export default class Explain extends BaseCommand {
  static override summary = 'Tell the story of one ReplicaSet (which pods it keeps, adopts, releases, creates or deletes, and why) or of one pod';
  static override description = `Explains one sync of one ReplicaSet or ReplicationController as the upstream controller would
run it: its selector, every pod it considers with the decision and the reason, the deletion order
with one sentence per pod saying why it goes before the first pod that stays, the slow-start
creation batches, the status before and after, and warnings (overlapping selectors, template
labels that do not match the selector, pods owned by a controller that does not exist).
deploy/NAME draws the Deployment NAME as a tree (Deployment, its ReplicaSets by revision, new and
old, and their pods with what the sync does to each, its place in the deletion order and why),
then explains each ReplicaSet in turn. They are found by their owner references: the Deployment
itself need not be readable. --replicas does not scale one of its ReplicaSets (the Deployment
controller decides how replicas are split between them): it foresees the Deployment's scale, below.

deploy/NAME with --image CONTAINER=IMAGE, --replicas N, --set-template-label KEY=VALUE or --undo
foresees the whole rollout that change starts: the deployment controller and the ReplicaSet
controller in turn, step by step, until the Deployment is complete or the rollout stalls (new pods
that never turn ready, the progress deadline), under stated assumptions about the kubelet
(--pod-ready-after, --pod-gone-after). It prints the ReplicaSet sizes after every write of the
deployment controller and every step with its reason: which ReplicaSet is created or scaled and by
the controller's own arithmetic, and which pods are deleted and on which ranking criterion. This
needs the Deployment itself (kubectl get deploy,rs,pods -o yaml, or the cluster). With
--exit-code it exits 1 when the rollout would not complete. -o html draws it on history's timeline
page as history would show it had it happened, titled as a prediction, the assumptions in its
header (on stdout, or in --output-file FILE).

--replicas N is a what-if: every header, table and the plan (its whatIf field) say "as if", and
such a plan cannot be applied with reconcile --plan.

With pod/NAME (po/NAME, pods/NAME) it tells the story of one pod instead: its controller owner
and whether that owner exists, why it is orphaned (its owner deleted with --cascade=orphan, a
release after its labels stopped matching, or an owner re-created under a new uid), every
controller that selects or owns it with its decision, its place in its owner's deletion order
(now and with --replicas N) and the pod-deletion-cost at which it would no longer be picked.
Like kubectl describe, it exits 0 when it told the story, whatever the story (greater than 1 on an
error). For a gate, --exit-code exits as diff does: 1 when a controller would act (for a pod: adopt,
release or delete it), 0 when none would.

Nothing is written.`;

  static override examples = [
    { description: 'Why did my ReplicaSet pick those pods?', command: '<%= config.bin %> explain web-7d4f8 -n shop' },
    { description: 'Which pods go if I scale to 3?', command: '<%= config.bin %> explain rs/web-7d4f8 --replicas 3' },
    { description: 'From a snapshot, as of the time it was taken', command: '<%= config.bin %> explain rc/db -f snap.yaml --now 2026-01-01T00:00:00Z' },
    { description: 'Every ReplicaSet of a Deployment mid-rollout, old and new', command: '<%= config.bin %> explain deploy/checkout -n shop' },
    { description: 'What will this rollout do to my pods, step by step?', command: '<%= config.bin %> explain deploy/web -n shop --image app=nginx:1.27' },
    { description: 'A gate: exit 1 when the sync would act, as diff does', command: '<%= config.bin %> explain rs/web-7d4f8 -n shop --exit-code' },
    {
      description: 'Why is this pod orphaned, and would a scale to 2 delete it?',
      command: '<%= config.bin %> explain pod/web-7d4f8-x2kq9 -n shop --replicas 2',
    },
  ];

  static override args = {
    name: Args.string({
      description:
        "a controller (NAME, rs/NAME, replicaset/NAME or rc/NAME), a Deployment's ReplicaSets (deploy/NAME) or a pod (pod/NAME, po/NAME); or the TYPE of kubectl's TYPE NAME (rs web)",
      required: true,
      ignoreStdin: true,
    }),
    // kubectl's TYPE NAME: the usage line stays COMMAND NAME, the first argument's text tells it
    [NAME_OF_TYPE_ARG]: Args.string({ description: "after a TYPE (kubectl's TYPE NAME, e.g. rs web): the NAME", ignoreStdin: true, hidden: true }),
  };
  // the story is one controller's (or one pod's): no table to widen, no list of names, no selector
  // to choose by (the NAME chooses; -A looks for it in every namespace)
  static override flags = {
    ...oneTargetScopeFlags,
    ...outputFlag(['document', 'human', 'page'], "output format (html: a rollout foreseen, on history's page)"),
    ...outputFileFlag,
    'exit-code': Flags.boolean({
      description: 'exit as diff does: 1 when the sync would act, 0 when it would not (default: 0 once explained, as kubectl describe)',
      default: false,
    }),
    ...rolloutFlags,
    ...modelFlags,
    ...connectionFlags,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Explain);
    const named = parseOneTarget(args.name, args[NAME_OF_TYPE_ARG], 'explain');
    if (flags.output === 'html' && (named.kind !== 'Deployment' || !isRolloutChange(rolloutChange(flags))))
      throw new UserError(
        `-o html draws a rollout foreseen on history's timeline page: it needs deploy/NAME with --image, --replicas, --set-template-label or --undo, not ${args.name} alone`,
      );
    const io = { progress: progressOn() };
    if (named.kind === 'Pod') {
      const { renderPodExplanation } = await import('../render/pod-explain.js');
      const story = await explainPod(sourceOptions(flags), modelOptions(flags), named.name, io);
      for (const n of story.notices) this.warning(n);
      await this.printChunks(
        renderOutput(flags.output, {
          document: () => story.explanation,
          human: () => [renderPodExplanation(story.explanation, explainStyle())],
        }),
        flags['output-file'],
      );
      await saidWritten(flags['output-file']);
      process.exitCode = flags['exit-code'] && story.acts ? 1 : 0;
      return;
    }
    const change = rolloutChange(flags);
    if (isRolloutChange({ ...change, replicas: named.kind === 'Deployment' ? change.replicas : undefined })) {
      if (named.kind !== 'Deployment')
        throw new UserError(`--image, --set-template-label and --undo foresee a rollout: they need deploy/NAME, not ${args.name}`);
      // a rollout's modules are loaded by the rollout only: a controller's story never runs them
      const [{ explainRollout }, { renderRolloutPrediction }, { predictedHistory }] = await Promise.all([
        import('../services/rollout-service.js'),
        import('../render/rollout.js'),
        import('../render/history-html/prediction.js'),
      ]);
      const rollout = await explainRollout(sourceOptions(flags), modelOptions(flags), named.name, change, rolloutAssumptions(flags), io);
      for (const n of rollout.notices) this.warning(n);
      // -o html: the prediction drawn as history would show it, on history's page (its script loaded only for it)
      const script = flags.output === 'html' ? await (await import('../services/history-page.js')).historyPageScript() : undefined;
      await this.printChunks(
        renderOutput(flags.output, {
          document: () => (script === undefined ? rollout.prediction : predictedHistory(rollout.prediction)),
          pageScript: script === undefined ? undefined : () => script,
          human: () => [renderRolloutPrediction(rollout.prediction, rollout.deployment, rollout.changeNotes, explainStyle())],
        }),
        flags['output-file'],
      );
      await saidWritten(flags['output-file']);
      process.exitCode = flags['exit-code'] && !rollout.prediction.complete ? 1 : 0;
      return;
    }

    const story = await explainController({ ...sourceOptions(flags), deployments: named.kind === 'Deployment' }, modelOptions(flags), named, io);
    for (const n of story.notices) this.warning(n);
    writeFd(2, renderOverlapWarnings(story.plan, stderrChalk()));
    await this.printChunks(
      renderOutput(flags.output, {
        document: () => story.plan,
        human: () => {
          const opts = explainStyle();
          // deploy/NAME: the Deployment as a tree first, then each ReplicaSet's story
          const { models, trees } = story.stories();
          // with the Deployment in the input: its controller's next sync under its header
          const decisions = story.plan.deployments ?? [];
          const decisionOf = (t: (typeof trees)[number]) => decisions.find((d) => d.uid === t.uid) ?? null;
          const alone = decisions.filter((d) => !trees.some((t) => t.uid === d.uid)).map((d) => renderDeploymentDecision(d, opts));
          return [...alone, ...trees.map((t) => renderDeploymentTree(t, opts, decisionOf(t))), ...models.map((m) => renderExplain(m, opts))].map(
            (text, i) => (i ? '\n' : '') + text,
          );
        },
      }),
      flags['output-file'],
    );
    await saidWritten(flags['output-file']);
    // a describe: 0 once explained; diff's codes only when asked for (--exit-code)
    process.exitCode = flags['exit-code'] && story.acts ? 1 : 0;
  }
}

/** A file written says so, with its size, as history does: the page to open is found by its name. */
async function saidWritten(file: string | undefined): Promise<void> {
  if (file !== undefined) process.stderr.write(`wrote ${file} (${formatBytes((await stat(file)).size)})\n`);
}

/** A story's page: stdout's colours, at least 80 columns wide (100 when not a terminal). */
function explainStyle() {
  const { chalk, width } = stdoutStyle();
  return { chalk, width: Math.max(80, width || 100) };
}
