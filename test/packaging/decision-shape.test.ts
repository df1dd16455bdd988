// One decision per sync, its plan entry a projection made in one place: the ReplicaSet
// controller's planControllerOf (src/core/sync-decision.ts) is called by the planner's
// decideAll only, the deployment controller's planDeploymentOf by planDeployments only. Every
// other reader reads the decision (or the plan it is in), so no second plan entry of a sync can
// be built and drift from the first. Calls are found with the TypeScript parser.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Where `name(…)` is called in src: file and the enclosing function's name. */
function callSites(name: string): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes(name)) continue;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node, within: string): void => {
      let here = within;
      if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) here = node.name.getText(sf);
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name) out.push(`${relative(ROOT, file)} ${here}`);
      ts.forEachChild(node, (n) => visit(n, here));
    };
    visit(sf, '<module>');
  }
  return out.sort();
}

describe('the plan entry: built in one place from the one decision', () => {
  it('planControllerOf is called by ClusterPlanner.decideAll only', () => {
    expect(callSites('planControllerOf')).toEqual(['src/core/plan.ts decideAll']);
  });

  it('planDeploymentOf is called by planDeployments only', () => {
    expect(callSites('planDeploymentOf')).toEqual(['src/core/deployment/plan.ts planDeployments']);
  });
});
