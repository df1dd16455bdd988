// Skips that say why. vitest's skipIf and runIf skip without a word; a test skipped through these
// carries its reason (ctx.skip's note), which `npm test` prints in its closing lines
// (scripts/vitest-errors.mjs, scripts/test-count.mjs's skipLines). Every conditional skip of the
// suite goes through them, so that nothing is skipped unseen.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `it` when `why` is null; otherwise an `it` whose every test is skipped with `why` as its reason. */
export function itUnless(why: string | null): typeof it {
  if (why === null) return it;
  return it.extend<{ skipped: undefined }>({
    skipped: [
      async ({ skip }, use) => {
        skip(true, why);
        await use(undefined);
      },
      { auto: true },
    ],
  });
}

/**
 * Every test of the enclosing describe (or file) skipped with `why` as its reason, when it is not
 * null. The describe's beforeAll hooks still run: they must return early on `why` themselves.
 */
export function skipAllIf(why: string | null): void {
  beforeEach((ctx) => {
    if (why !== null) ctx.skip(true, why);
  });
}

/**
 * Why a test that reads `path` from ../shared (the shared references beside the checkout) cannot
 * run: null when it is there.
 */
export function withoutShared(path: string): string | null {
  return existsSync(path) ? null : `${relative(ROOT, path)} is absent: it comes with ../shared, beside the checkout`;
}
