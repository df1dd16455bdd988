// docs/commands.md (generated from the oclif manifest), CHANGELOG.md and the README's install notes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBundle, node } from './helpers.js';

beforeAll(() => ensureBundle(), 300_000);

const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
const commands = () =>
  Object.values(JSON.parse(read('oclif.manifest.json')).commands) as Array<{
    id: string;
    hidden?: boolean;
    summary?: string;
    flags: Record<string, { name: string; hidden?: boolean; char?: string; default?: unknown; type: string; helpGroup?: string }>;
    examples?: unknown[];
  }>;

describe('docs/commands.md', () => {
  it('is what `npm run docs` generates from the current commands', () => {
    const r = node(join(ROOT, 'scripts', 'docs.mjs'), ['--check']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('documents every command: summary, usage, every visible flag with its default, examples', () => {
    const doc = read('docs/commands.md');
    for (const c of commands().filter((x) => !x.hidden)) {
      const start = doc.indexOf(`## \`kubectl rs-reconcile ${c.id}\``);
      expect(start, c.id).toBeGreaterThan(0);
      const next = doc.indexOf('\n## ', start + 1);
      const section = doc.slice(start, next < 0 ? undefined : next);
      if (c.summary) expect(section).toContain(c.summary);
      expect(section).toMatch(new RegExp(`\`\`\`\\nkubectl rs-reconcile ${c.id}( .*)? \\[flags\\]\\n\`\`\``));
      for (const f of Object.values(c.flags)) {
        if ((f.helpGroup ?? '').toUpperCase() === 'GLOBAL') {
          // every command's flags (--debug): said once, above the commands
          expect(doc.slice(0, doc.indexOf('\n## ')), `${c.id} --${f.name}`).toContain(`\`--${f.name}\``);
          continue;
        }
        if (f.hidden) {
          expect(section).not.toContain(`\`--${f.name}\``);
          continue;
        }
        const row = section.split('\n').find((l) => l.startsWith(`| ${f.char ? `\`-${f.char}\`, ` : ''}\`--${f.name}\` |`));
        expect(row, `${c.id} --${f.name}`).toBeDefined();
        if (f.type === 'boolean') expect(row).toContain(`| \`${f.default === true}\` |`);
        else if (typeof f.default === 'number' || typeof f.default === 'string') expect(row).toContain(`| \`${f.default}\` |`);
      }
      if (c.examples?.length) expect(section).toContain('```sh\n# ');
      expect(section).not.toContain('<%=');
    }
  });
});

describe('CHANGELOG.md and README.md', () => {
  it('the changelog has 0.1.0 with every command', () => {
    const log = read('CHANGELOG.md');
    const version = JSON.parse(read('package.json')).version;
    expect(log).toContain(`## [${version}]`);
    for (const c of commands().filter((x) => !x.hidden)) expect(log, c.id).toMatch(new RegExp(`^- \`${c.id}[ \`]`, 'm'));
  });

  it('the README still starts with its two commands, and says how to install with krew and npm', () => {
    const readme = read('README.md');
    expect(readme.split('\n').slice(0, 6).join('\n')).toBe(
      [
        '# rs-reconcile',
        '',
        '```sh',
        'npm ci && npm run build && node bin/run.js explain shop-web -f examples/drifted-replicaset.yaml --now 2026-01-01T00:00:00Z',
        'npm ci && npm test',
        '```',
      ].join('\n'),
    );
    const install = readme.slice(readme.indexOf('## Install'));
    expect(install).toContain('kubectl krew install --manifest=plugins/rs-reconcile.yaml');
    expect(install).toContain('npm install -g');
    expect(install).toContain('docs/commands.md');
    expect(install).toContain('CHANGELOG.md');
  });
});
