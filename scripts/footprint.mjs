// What the npm package weighs: `npm pack` of the checkout's build (no prepack: run `npm run build`
// first), then `npm install -g --prefix DIR` of the tarball into a temporary folder, counted. Prints
// a Markdown table (docs/dependencies.md, "What `npm install` of the package installs"), and the
// checkout's own node_modules for comparison (what `npm ci` installs to build and test).
//
//   node scripts/footprint.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(root, 'dist', 'bundle', 'boot.cjs'))) {
  console.error('footprint: no build (dist/bundle/boot.cjs): run npm run build first');
  process.exit(2);
}

function npm(args, cwd) {
  const r = spawnSync('npm', [...args, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (r.status !== 0) throw new Error(`footprint: npm ${args.join(' ')} failed: ${r.stderr.trim().split('\n').pop()}`);
  return r.stdout;
}

/** Bytes of the files under `dir` (symbolic links not followed), and the packages in it (folders holding a package.json under node_modules). */
function measure(dir) {
  let bytes = 0;
  let packages = 0;
  const walk = (d, inModules) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isSymbolicLink()) continue;
      if (e.isDirectory()) {
        const isPackage = inModules && !e.name.startsWith('@') && !e.name.startsWith('.') && existsSync(join(p, 'package.json'));
        if (isPackage) packages++;
        walk(p, e.name === 'node_modules' || (inModules && e.name.startsWith('@')));
      } else bytes += lstatSync(p).size;
    }
  };
  walk(dir, dir.endsWith('node_modules'));
  return { bytes, packages };
}

const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
const tmp = mkdtempSync(join(tmpdir(), 'rs-footprint-'));
try {
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', tmp], root));
  const prefix = join(tmp, 'prefix');
  npm(['install', '-g', '--prefix', prefix, join(tmp, packed.filename)], tmp);
  const installed = measure(join(prefix, 'lib', 'node_modules'));
  const checkout = measure(join(root, 'node_modules'));
  console.log(`### The npm package (${packed.name}@${packed.version}), measured by scripts/footprint.mjs`);
  console.log('| | |');
  console.log('|---|---|');
  console.log(`| tarball, packed / unpacked | ${mb(packed.size)} / ${mb(packed.unpackedSize)} (${packed.entryCount} files) |`);
  console.log(`| \`npm install -g\` of it: packages installed | ${installed.packages} |`);
  console.log(`| \`npm install -g\` of it: size on disk | ${mb(installed.bytes)} |`);
  console.log(`| the checkout's node_modules (\`npm ci\`, to build and test) | ${checkout.packages} packages, ${mb(checkout.bytes)} |`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
