// `completion bash|zsh|fish|kubectl`: shell completion scripts, and the completion engine they call back:
// `completion __complete -- WORD... CURRENT` answers in cobra's format (one candidate per line,
// "value<TAB>description", then ":DIRECTIVE"), which is also what kubectl (1.26 and newer) expects
// from a kubectl_complete-<plugin> executable. The engine is src/completion/: commands, flags and
// flag values from the oclif manifest, names from the cluster, the snapshot files or the kubeconfig.

import { Args } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { RESOLVE_SCRIPT_DIR } from '../cli/shell.js';
import { controllerType, isDeploymentType } from '../cli/targets.js';
import { formatCobra } from '../completion/cobra.js';
import { complete } from '../completion/engine.js';
import type { ControllerSpellings } from '../completion/names.js';
import { bashScript, fishScript, kubectlHelperScript, zshScript } from '../completion/scripts.js';
import type { CommandSpec } from '../completion/words.js';
import { deploymentOf } from '../services/targets.js';
import { UserError } from '../errors.js';

/** The commands' own spellings of controller types, for names completed as TYPE/NAME. */
export const spellings: ControllerSpellings = { controllerType, isDeploymentType, deploymentOf };

export default class Completion extends BaseCommand {
  static override summary = 'Print a shell completion script (bash, zsh, fish, or the kubectl plugin helper)';
  static override description = `Completes commands, flags, values of -o and the other flags with fixed values, namespace names
for -n and controller names (rs/NAME, rc/NAME, and deploy/NAME for the Deployments owning
ReplicaSets) for the NAME arguments. Names come from the live cluster (read-only, with the
connection flags already typed, at most 3 seconds), or from the snapshot files already given with
-f; nothing is completed when the cluster cannot be reached.

bash, zsh and fish complete the kubectl-rs_reconcile and rs-reconcile programs. For
"kubectl rs-reconcile <TAB>" kubectl 1.26 and newer run an executable named
kubectl_complete-rs_reconcile from PATH: "completion kubectl" prints it (the krew archive and
the npm package already include it).`;

  static override examples = [
    { description: 'bash, in the current shell', command: 'source <(<%= config.bin %> completion bash)' },
    { description: 'zsh, for every new shell', command: '<%= config.bin %> completion zsh > "${fpath[1]}/_kubectl_rs_reconcile"' },
    { description: 'fish, in the current shell', command: '<%= config.bin %> completion fish | source' },
    {
      description: 'kubectl rs-reconcile <TAB>: the helper next to the plugin',
      command:
        '<%= config.bin %> completion kubectl > "$(dirname "$(command -v kubectl-rs_reconcile)")/kubectl_complete-rs_reconcile"\nchmod +x "$(dirname "$(command -v kubectl-rs_reconcile)")/kubectl_complete-rs_reconcile"',
    },
  ];

  static override args = {
    shell: Args.string({
      description: 'the shell: bash, zsh, fish, or kubectl for the kubectl_complete-rs_reconcile helper',
      options: ['bash', 'zsh', 'fish', 'kubectl'],
      required: true,
    }),
  };

  async run(): Promise<void> {
    if (this.argv[0] === '__complete') {
      this.parsed = true;
      return this.completeWords(this.argv[1] === '--' ? this.argv.slice(2) : this.argv.slice(1));
    }
    const { args } = await this.parse(Completion);
    if (args.shell === 'bash') this.print(bashScript());
    else if (args.shell === 'zsh') this.print(zshScript());
    else if (args.shell === 'fish') this.print(fishScript());
    else if (args.shell === 'kubectl') this.print(kubectlHelperScript(RESOLVE_SCRIPT_DIR));
    else throw new UserError(`unsupported shell ${JSON.stringify(args.shell)}: use bash, zsh, fish or kubectl`);
  }

  private async completeWords(words: string[]): Promise<void> {
    const commands = this.config.commands as CommandSpec[];
    const { candidates, directive, timedOut } = await complete(words.length ? words : [''], commands, { spellings });
    const text = formatCobra(candidates, directive);
    // A lookup still in flight (a slow cluster, a credential plugin) must not hold the shell.
    await new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
    if (timedOut) process.exit(0);
  }
}
