import { describe, expect, it } from 'vitest';
import { parsePodTarget } from '../../src/cli/pod-target.js';

describe('pod targets as kubectl takes them', () => {
  it('pod/NAME, po/NAME and pods/NAME, the type in any case', () => {
    for (const t of ['pod', 'po', 'pods', 'Pod', 'PO', 'PODS']) expect(parsePodTarget(`${t}/web-x`)).toBe('web-x');
  });

  it('leaves controller names to the controller targets', () => {
    for (const a of ['web', 'rs/web', 'rc/db', 'deploy/web', 'podx/web', 'web/pod']) expect(parsePodTarget(a)).toBeUndefined();
  });

  it('refuses an empty name or a nested slash in one line', () => {
    expect(() => parsePodTarget('pod/')).toThrow('invalid pod name "pod/": expected pod/NAME');
    expect(() => parsePodTarget('po/a/b')).toThrow('expected pod/NAME');
  });
});
