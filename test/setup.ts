// Runs before every test file.
import fc from 'fast-check';

// Property runs are reproducible: a fixed seed by default, so CI sees the same cases on every
// run; FC_SEED=<n> replays a reported seed and FC_SEED=random explores new cases locally.
const seed = process.env.FC_SEED;
if (seed !== 'random') fc.configureGlobal({ seed: seed === undefined ? 20_261_124 : Number(seed) });

// ink decides when it is imported whether it runs in CI (CI or CONTINUOUS_INTEGRATION set), and
// then ignores resizes and draws only its last frame: component tests must see what a terminal
// sees, wherever they run. (`watch` does the same on a terminal.)
for (const k of ['CI', 'CONTINUOUS_INTEGRATION']) if (process.env[k] !== undefined) process.env[k] = 'false';
