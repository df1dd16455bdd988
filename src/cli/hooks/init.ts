// oclif's init hook (package.json oclif.hooks; scripts/bundle.mjs bundles it): `--version` prints
// the client's versions as the `version` command prints them first (src/core/client-version.ts).

import type { Hook } from '@oclif/core';
import { clientVersionLines } from '../../core/client-version.js';

/** What `--version` prints: the client lines of `version`, without the trailing newline oclif adds. */
export function versionAnswer(version: string, node: string = process.version): string {
  return clientVersionLines(version, node).join('\n');
}

/**
 * oclif answers `--version` (its first word) right after this hook by printing config.userAgent,
 * and reads that field for nothing else in such a run: it is set to the answer only then.
 */
const hook: Hook<'init'> = async ({ config, id }) => {
  if (id === '--version') (config as { userAgent: string }).userAgent = versionAnswer(config.version);
};

export default hook;
