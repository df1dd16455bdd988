// Files of ../shared (the project's shared reference material) that tests need, with their
// vendored copies in this repository: the ../shared copy when it exists (it is authoritative),
// else the vendored one, so the tests run in a clone without ../shared.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED_DIR = fileURLToPath(new URL('../../../shared/', import.meta.url));

/** Each shared path (relative to ../shared) and where its vendored copy lives (relative to the root). */
export const VENDORED: Record<string, string> = {
  'tools/gen-snapshot.mjs': 'tools/gen-snapshot.mjs',
  'contract/cases.json': 'test/contract/cases.json',
  'contract/cases': 'test/contract/cases',
};

/** The marker that ends the vendoring note at the top of a vendored text file. */
export const VENDOR_MARKER = '---- vendored text follows ----';

export const sharedPath = (rel: string): string => `${SHARED_DIR}${rel}`;
export const vendoredPath = (rel: string): string => `${ROOT}${VENDORED[rel]}`;

/** ../shared/<rel> when it exists, else its vendored copy. */
export function sharedOrVendored(rel: string): string {
  if (!(rel in VENDORED)) throw new Error(`${rel} is not vendored: add it to VENDORED`);
  const shared = sharedPath(rel);
  return existsSync(shared) ? shared : vendoredPath(rel);
}

/** A vendored text file's content with its vendoring note removed (the shebang line is kept). */
export function withoutVendorNote(text: string): string {
  const end = text.indexOf(VENDOR_MARKER);
  if (end < 0) return text;
  const shebang = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') + 1) : '';
  return shebang + text.slice(text.indexOf('\n', end) + 1);
}
