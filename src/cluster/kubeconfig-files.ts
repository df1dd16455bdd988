// The kubeconfig files kubectl would read (client-go's loading rules: --kubeconfig, else every
// file of KUBECONFIG, else ~/.kube/config) and the names they define, without kubeconfig.ts's
// connection machinery (the Kubernetes client, credentials): shell completion reads the names of
// contexts, clusters and users on every TAB, and must not load what a connection needs.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * KUBECONFIG's files in order (empty entries skipped), else ~/.kube/config; `home` is where that
 * is looked for (no home: no file).
 */
export function kubeconfigFiles(env: NodeJS.ProcessEnv, home: string | undefined = env.HOME): string[] {
  const list = env.KUBECONFIG;
  const files = list ? list.split(delimiter).filter((f) => f !== '') : [];
  if (files.length === 0 && home) files.push(join(home, '.kube', 'config'));
  return files;
}

/**
 * A reader tried before `yaml` (which lives with the Kubernetes client in the single file's
 * heavy.cjs, which one TAB does not load: docs/startup.md): the document, or undefined to leave
 * the text to `yaml`.
 */
export type QuickYaml = (text: string) => { doc: unknown } | undefined;

/**
 * The names of the contexts, clusters or users of the files `--kubeconfig` (when given) or the
 * loading rules name, sorted; a file that cannot be read or parsed adds none (completion is
 * silent). The home folder is the OS's when HOME is unset.
 */
export function kubeconfigNames(
  section: 'contexts' | 'clusters' | 'users',
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  quick?: QuickYaml,
): string[] {
  const files = explicit ? [explicit] : kubeconfigFiles(env, env.HOME || homedir());
  const names = new Set<string>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    // kubeconfig files are YAML (JSON is YAML too); only the names are needed
    const fast = quick?.(text);
    const doc = (fast ? fast.doc : parseYamlLoose(text)) as Record<string, unknown> | null;
    const list = doc?.[section];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const name = (item as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && name) names.add(name);
    }
  }
  return [...names].sort();
}

let yamlParse: ((text: string) => unknown) | undefined;
function parseYamlLoose(text: string): unknown {
  try {
    // yaml is loaded only when a kubeconfig must be read
    yamlParse ??= (createRequire(import.meta.url)('yaml') as { parse: (t: string) => unknown }).parse;
    return yamlParse(text);
  } catch {
    return null;
  }
}
