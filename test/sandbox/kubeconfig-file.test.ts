// The kubeconfig `sandbox` writes holds a bearer token: owner-only, never written through a
// symlink or into a file someone else created.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { writeKubeconfigFile } from '../../src/sandbox/kubeconfig.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-reconcile-kubeconfig-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ token: 'sandbox-secret-token' });
});
afterAll(() => sb.close());

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('sandbox kubeconfig file', () => {
  it('a new file is 0600 and holds the sandbox kubeconfig', async () => {
    const file = path.join(tempDir(), 'sandbox.kubeconfig');
    await sb.writeKubeconfig(file);
    expect(mode(file)).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe(sb.kubeconfig());
    expect(fs.readdirSync(path.dirname(file))).toEqual(['sandbox.kubeconfig']); // no temporary file left
  });

  it('an existing 0644 file becomes 0600', async () => {
    const file = path.join(tempDir(), 'sandbox.kubeconfig');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    await sb.writeKubeconfig(file);
    expect(mode(file)).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toContain('sandbox-secret-token');
  });

  it('a symlink at the target is replaced; the file it pointed to is untouched', async () => {
    const dir = tempDir();
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(victim, 'precious', { mode: 0o644 });
    fs.chmodSync(victim, 0o644);
    const link = path.join(dir, 'sandbox.kubeconfig');
    fs.symlinkSync(victim, link);
    await sb.writeKubeconfig(link);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
    expect(mode(victim)).toBe(0o644);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(false);
    expect(mode(link)).toBe(0o600);
    expect(fs.readFileSync(link, 'utf8')).toBe(sb.kubeconfig());
  });

  it("a file or symlink already at the temporary name (someone else's) is not written: another name is used", async () => {
    const dir = tempDir();
    const target = path.join(dir, 'config');
    const taken = path.join(dir, 'taken');
    const trap = path.join(dir, 'trap');
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(taken, 'attacker', { mode: 0o666 });
    fs.writeFileSync(victim, 'precious');
    fs.symlinkSync(victim, trap);
    const names = ['taken', 'trap', 'free'];
    await writeKubeconfigFile(target, 'token: x\n', { tempName: (_t, attempt) => names[attempt] });
    expect(fs.readFileSync(taken, 'utf8')).toBe('attacker');
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
    expect(fs.readFileSync(target, 'utf8')).toBe('token: x\n');
    expect(mode(target)).toBe(0o600);
    expect(fs.existsSync(path.join(dir, 'free'))).toBe(false); // renamed into place
  });

  it('when every temporary name is taken, nothing is written and the error is one line', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'config');
    fs.writeFileSync(target, 'old');
    fs.writeFileSync(path.join(dir, 'taken'), 'attacker');
    const err = await writeKubeconfigFile(target, 'new', { tempName: () => 'taken' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(`cannot write the kubeconfig "${target}": no free temporary file name in ${dir} after 8 attempts`);
    expect(fs.readFileSync(target, 'utf8')).toBe('old');
    expect(fs.readFileSync(path.join(dir, 'taken'), 'utf8')).toBe('attacker');
  });

  it('a umask cannot change the mode, and a missing directory is a one-line error', async () => {
    const dir = tempDir();
    const old = process.umask(0o377);
    try {
      await writeKubeconfigFile(path.join(dir, 'config'), 'x');
    } finally {
      process.umask(old);
    }
    expect(mode(path.join(dir, 'config'))).toBe(0o600);
    const missing = path.join(dir, 'nope', 'config');
    await expect(writeKubeconfigFile(missing, 'x')).rejects.toThrow(`cannot write the kubeconfig "${missing}": no such file or directory`);
  });
});
