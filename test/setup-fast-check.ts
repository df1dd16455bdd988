// Property runs are reproducible: a fixed seed by default, so CI sees the same cases on every
// run; FC_SEED=<n> replays a reported seed and FC_SEED=random explores new cases locally.
import fc from 'fast-check';

const seed = process.env.FC_SEED;
if (seed !== 'random') fc.configureGlobal({ seed: seed === undefined ? 20_261_124 : Number(seed) });
