// How `npm test` (scripts/test.mjs) counts one `biome check`: every error, warning and info it
// reports is a finding, formatting included, and any finding fails the phase; a check that failed
// without reporting one (a broken biome.json, a missing binary) fails it too. Pure: it reads what
// biome printed (the `Found N errors.` lines of its default and summary reporters).

/**
 * @param {object} run
 * @param {string} run.output  what `biome check` printed, stdout and stderr together
 * @param {number | null} run.status  its exit status; null when a signal ended it
 * @returns {{ passed: number, failed: number, findings: number, problem: string | null }}
 */
export function countBiomeCheck({ output, status }) {
  let findings = 0;
  for (const m of output.matchAll(/^Found (\d+) (?:errors?|warnings?|infos?)\.$/gm)) findings += Number(m[1]);
  if (findings > 0) {
    return { passed: 0, failed: 1, findings, problem: `lint and format: ${findings} finding${findings === 1 ? '' : 's'} (\`npm run lint\` shows them)` };
  }
  if (status !== 0) return { passed: 0, failed: 1, findings, problem: `lint and format: biome check failed with no finding (exit status ${status})` };
  if (!/^Checked [1-9]\d* files? in /m.test(output)) return { passed: 0, failed: 1, findings, problem: 'lint and format: biome check checked no file' };
  return { passed: 1, failed: 0, findings, problem: null };
}
