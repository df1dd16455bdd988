// The first lines of every bundled file (scripts/bundle.mjs, scripts/single-file.mjs): on Node.js
// 22 and newer, node-fetch 2 and its whatwg-url 5 (which @kubernetes/client-node 1.x bundles for
// its watches) print two deprecation warnings to stderr on every cluster command, DEP0040 (the
// built-in `punycode`) and DEP0169 (`url.parse()`). They name no problem of the user's, so these
// two codes, and only these, are dropped; every other warning is printed as before. Installed
// once per process, whichever bundled file loads first.
export const QUIET_DEPRECATIONS = [
  'if (!globalThis.__rsQuietDeprecations) {',
  '  globalThis.__rsQuietDeprecations = true;',
  '  const __rsEmitWarning = process.emitWarning;',
  '  process.emitWarning = function (warning, type, code, ...rest) {',
  "    const c = type !== null && typeof type === 'object' ? type.code : code;",
  "    if (c === 'DEP0040' || c === 'DEP0169') return;",
  '    return __rsEmitWarning.call(this, warning, type, code, ...rest);',
  '  };',
  '}',
].join('\n');
