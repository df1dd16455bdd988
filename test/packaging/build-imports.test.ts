// The scripts and benchmarks that import the build (`dist/…`) name only what its sources export:
// knip follows imports of src/, not of dist/, so an export only they use could go unnoticed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((f) =>
    f.isDirectory() ? [] : /\.(mjs|cjs|js)$/.test(f.name) ? [join(ROOT, dir, f.name)] : [],
  );
}

/** The names `src/X.ts` exports (declarations and export lists; `export *` is not used in src/). */
function exportsOf(source: string): Set<string> {
  const names = new Set<string>();
  for (const m of source.matchAll(
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|var|function\*?|class|type|interface|enum|abstract\s+class)\s+([A-Za-z_$][\w$]*)/gm,
  ))
    names.add(m[1]);
  for (const m of source.matchAll(/^export\s*\{([^}]*)\}/gm))
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .at(-1)
        ?.replace(/^type\s+/, '');
      if (name) names.add(name);
    }
  return names;
}

/** Each import of the build in `file`: the module (as a src/ path) and the names it takes. */
function buildImports(file: string): { module: string; names: string[] }[] {
  const text = readFileSync(file, 'utf8');
  const out: { module: string; names: string[] }[] = [];
  const toSrc = (distPath: string) => distPath.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts');
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]([^'"]*\bdist\/[^'"]+\.js)['"]/g)) {
    const distPath = relative(ROOT, resolve(dirname(file), m[2]));
    out.push({ module: toSrc(distPath), names: m[1].split(',').map((x) => x.trim().split(/\s+as\s+/)[0]) });
  }
  for (const m of text.matchAll(/const\s*\{([^}]*)\}\s*=\s*await\s+import\(\s*join\(\s*root\s*,\s*((?:'[^']*'\s*,?\s*)+)\)\s*\)/g)) {
    const distPath = [...m[2].matchAll(/'([^']*)'/g)].map((x) => x[1]).join('/');
    out.push({ module: toSrc(distPath), names: m[1].split(',').map((x) => x.trim().split(/\s*:\s*/)[0]) });
  }
  return out.map((i) => ({ ...i, names: i.names.filter(Boolean) }));
}

describe('what scripts and benchmarks import from the build', () => {
  const importers = [...files('bench'), ...files('scripts')];

  it('is exported by the sources it is built from', () => {
    const missing: string[] = [];
    let seen = 0;
    for (const file of importers)
      for (const { module, names } of buildImports(file)) {
        const source = join(ROOT, module);
        if (!existsSync(source) && existsSync(source.replace(/\.ts$/, '.tsx'))) continue;
        if (!existsSync(source)) {
          missing.push(`${relative(ROOT, file)}: ${module} does not exist`);
          continue;
        }
        const exported = exportsOf(readFileSync(source, 'utf8'));
        for (const n of names) {
          seen++;
          if (!exported.has(n)) missing.push(`${relative(ROOT, file)}: ${module} does not export ${n}`);
        }
      }
    expect(missing).toEqual([]);
    // the benchmarks do import the build: a reader that found nothing would prove nothing
    expect(seen).toBeGreaterThanOrEqual(5);
  });

  it('the reader sees a name a module lacks', () => {
    expect(exportsOf('export const a = 1;\nconst b = 2;\nexport { b as c };\nexport async function d() {}\n')).toEqual(new Set(['a', 'c', 'd']));
  });
});
