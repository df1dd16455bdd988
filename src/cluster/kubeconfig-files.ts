// The kubeconfig files kubectl would read (client-go's loading rules: --kubeconfig, else every
// file of KUBECONFIG, else ~/.kube/config) and the names they define, without kubeconfig.ts's
// connection machinery (the Kubernetes client, credentials): shell completion reads the names of
// contexts, clusters and users on every TAB, and must not load what a connection needs.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type * as JsYaml from 'js-yaml';

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
 * The names of the contexts, clusters or users of the files `--kubeconfig` (when given) or the
 * loading rules name, sorted; a file that cannot be read or parsed adds none (completion is
 * silent). The home folder is the OS's when HOME is unset.
 */
export function kubeconfigNames(section: 'contexts' | 'clusters' | 'users', explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): string[] {
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
    let doc: Record<string, unknown> | null;
    try {
      doc = parseKubeconfigYaml(text) as Record<string, unknown> | null;
    } catch {
      continue;
    }
    const list = doc?.[section];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const name = (item as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && name) names.add(name);
    }
  }
  return [...names].sort();
}

let kubeconfigYaml: { load: (text: string) => unknown } | undefined;

/**
 * A kubeconfig's text as kubectl reads it: kubectl decodes YAML into typed Go structs, so
 * `name: y` or `namespace: 1234` stay strings, where a plain YAML 1.1 or 1.2 parse would make a
 * boolean or a number. Every scalar is read as a string (the failsafe schema) but a plain
 * null/~/empty, which is null; a key given twice keeps its last value. js-yaml is loaded on first
 * use. Throws js-yaml's error on a text that is not YAML.
 */
export function parseKubeconfigYaml(text: string): unknown {
  if (!kubeconfigYaml) {
    const jsyaml = createRequire(import.meta.url)('js-yaml') as typeof JsYaml;
    const plainNull = new jsyaml.Type('tag:yaml.org,2002:null', {
      kind: 'scalar',
      resolve: (t: string) => /^(?:~|null|Null|NULL|)$/.test(t),
      construct: () => null,
    });
    const schema = jsyaml.FAILSAFE_SCHEMA.extend({ implicit: [plainNull] });
    kubeconfigYaml = { load: (t) => jsyaml.load(t, { schema, json: true }) };
  }
  return kubeconfigYaml.load(text);
}
