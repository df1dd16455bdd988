import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import {
  behaviourFlags,
  connectionFlags,
  forceFlag,
  inHelpGroup,
  modelOptions,
  scopeFlags,
  sourceOptions,
  whatIfFlags,
  writerFlags,
  writerOptions,
} from '../cli/flags.js';
import { progressOn } from '../cli/progress.js';
import { parseControllerTargets } from '../cli/targets.js';
import { colorLevel } from '../render/color.js';
import { historyPageScript } from '../services/history-page.js';
import { prepareWatch } from '../services/watch/prepare.js';

export default class Watch extends BaseCommand {
  static override summary = 'A live dashboard of what the ReplicaSet controller sees and would do';
  static override description = `A full-screen terminal view, re-planned on every change: a header (context, namespace, mode,
counts, last update), the controllers (desired / current / ready / available, adopt / release /
create / delete, drift, a ready bar) and, for the selected one, its pods with the decision and the
reason, the deletion order and the sentence why; a log of recent changes.

Live (default): watches pods, replicasets, replicationcontrollers and deployments with informers,
read-only, and re-plans at most every 100 ms. Each Deployment in scope comes first, decided by the
deployment controller's rules, with its ReplicaSets under it ("web-5f6b4c8d9 3/3 → 2": current /
desired, then the size its next sync sets) and the next step in words; Enter shows its strategy's
arithmetic and its ReplicaSets' revisions, images and counts. With -f: shows a saved snapshot the
same way (static).
--reconcile: also runs the controller, as "run" does (same --workers, --kube-api-qps,
--kube-api-burst; refuses when the upstream controller is active unless --force), and shows its
workqueue (depth, in flight, retries), the expectations pending per controller and every action.

Keys: arrows or j/k move, Enter opens, Esc goes back, / filters, s changes the sort, h shows the
selected controller's history in place of the log (its last writes since the watch started, who
made them, and whether the rules predict the controller's, as "history" explains them; there w
writes them as the timeline page of "history -o html" and says its path), p pauses,
? shows help, q quits.

--record FILE also writes every change of ReplicaSets, ReplicationControllers and pods and the
controllers' Events, as "record" does (docs/recording-format.md), for "history --recording".

When stdout is not a terminal (piped, CI) or with --plain: prints one line per change instead,
"TIME NAMESPACE/NAME KIND desired=… current=… adopt=… release=… create=… delete=… drift|in-sync"
(a Deployment: "TIME NAMESPACE/NAME deploy replicas=… updated=… available=…
replicasets=NAME:CUR/DES→NEXT,… drift|in-sync next: …"), only when its line changed; it ends after
the snapshot with -f, on Ctrl-C when live.
NO_COLOR is respected.`;

  static override examples = [
    { description: 'Watch one namespace', command: '<%= config.bin %> watch -n shop' },
    { description: 'A saved snapshot, as of the time it was taken', command: '<%= config.bin %> watch -f snap.yaml --now 2026-01-01T00:00:00Z' },
    { description: 'In CI logs: one line per change', command: '<%= config.bin %> watch -A --plain' },
    { description: 'Run the controller and watch it work', command: '<%= config.bin %> watch -n shop --reconcile' },
  ];

  static override strict = false;
  static override args = {
    name: Args.string({
      description: 'controllers to show: NAME, rs/NAME, rc/NAME, or deploy/NAME for the ReplicaSets of a Deployment (default: all in scope)',
      ignoreStdin: true,
    }),
  };

  static override flags = {
    ...scopeFlags,
    ...inHelpGroup('WHAT-IF', { now: whatIfFlags.now, ...behaviourFlags }),
    plain: Flags.boolean({ description: 'print the plain-text update stream even on a terminal', default: false }),
    record: Flags.string({ description: 'also write every change seen to FILE, as "record" does, for "history --recording" (.gz: compressed)' }),
    ...inHelpGroup('RECONCILE', {
      reconcile: Flags.boolean({ description: 'also run the controller (as "run") and show its workqueue, expectations and actions', default: false }),
      ...writerFlags,
      ...forceFlag,
    }),
    ...connectionFlags,
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Watch);
    const feed = await prepareWatch(
      {
        source: { ...sourceOptions(flags), targets: parseControllerTargets(argv as string[], 'watch') },
        model: modelOptions(flags),
        record: flags.record,
        reconcile: flags.reconcile ? { ...writerOptions(flags), force: flags.force } : undefined,
      },
      { stdin: process.stdin, progress: progressOn(process.stderr) },
    );
    for (const n of feed.notices) this.warning(n);
    // Ctrl-C (a signal, or the key on the dashboard) ends the watch, then exits 130 (BaseCommand)
    const interruption = this.interruptible();

    if (!flags.plain && process.stdout.isTTY && process.stdin.isTTY) {
      // React's production build (its development build renders several times slower)
      process.env.NODE_ENV ??= 'production';
      // ink draws nothing but its last frame, and ignores resizes, when it believes it runs in CI
      // (it reads CI when loaded): this is a terminal, so draw live.
      for (const k of ['CI', 'CONTINUOUS_INTEGRATION']) if (process.env[k] !== undefined) process.env[k] = 'false';
      const { runDashboard } = await import('../ui/run.js');
      await runDashboard(feed, {
        stdout: process.stdout,
        stdin: process.stdin,
        stderr: process.stderr,
        color: colorLevel(process.stdout, process.env) > 0,
        pageScript: historyPageScript,
        onInterrupt: () => interruption.interrupt(),
      });
      process.exitCode = 0;
      return;
    }

    const { runPlain } = await import('../ui/plain.js');
    // a reader that goes away (`| head`) ends the stream too, with exit status 0
    const gone = new AbortController();
    const onPipeError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') gone.abort();
      else throw err;
    };
    process.stdout.on('error', onPipeError);
    try {
      await runPlain(feed, { out: process.stdout, err: process.stderr, signal: AbortSignal.any([interruption.signal, gone.signal]) });
    } finally {
      process.stdout.off('error', onPipeError);
    }
    process.exitCode = 0;
  }
}
