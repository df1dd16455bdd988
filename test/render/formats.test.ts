// -o: one table from format to renderer (src/render/formats.ts), the only dispatch the commands use.
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, renderOutput, type Views } from '../../src/render/formats.js';
import { renderNames, renderPlanJson, renderPlanYaml } from '../../src/render/plan-output.js';
import { fullPlan } from './fixtures.js';

const text = (format: string | undefined, views: Views) => [...renderOutput(format, views)].join('');

describe('the output format table', () => {
  const calls: string[] = [];
  const views: Views = {
    document: () => (calls.push('document'), fullPlan),
    names: () => (calls.push('names'), renderNames(fullPlan)),
    human: (wide) => (calls.push(`human wide=${wide}`), ['TABLE', 'summary\n', '', 'last']),
  };

  it('json and yaml print the document exactly as the plan renderers do', () => {
    expect(text('json', views)).toBe(renderPlanJson(fullPlan));
    expect(text('yaml', views)).toBe(renderPlanYaml(fullPlan));
  });

  it('name prints the names; no -o and wide the human view, each block ending in one newline', () => {
    calls.length = 0;
    expect(text('name', views)).toBe(renderNames(fullPlan));
    expect(text(undefined, views)).toBe('TABLE\nsummary\nlast\n');
    expect(text('wide', views)).toBe('TABLE\nsummary\nlast\n');
    // each format asks only for its own view
    expect(calls).toEqual(['names', 'human wide=false', 'human wide=true']);
  });

  it('a document of any shape (the version, a report) goes through the same emitters', () => {
    const info = { rsReconcile: '0.1.0', controllerBehaviour: { newest: '1.35' } };
    expect(text('json', { document: () => info })).toBe(JSON.stringify(info, null, 2) + '\n');
    expect(text('yaml', { document: () => info })).toBe('rsReconcile: "0.1.0"\ncontrollerBehaviour:\n  newest: "1.35"\n');
  });

  it('a format with no view, or one not in the table, is a bug: it throws', () => {
    expect(() => renderOutput('name', { document: () => fullPlan })).toThrow(/"name" has no view/);
    expect(() => renderOutput('xml', views)).toThrow(/"xml" has no view/);
    expect(() => renderOutput('toString', views)).toThrow(/has no view/);
    expect(OUTPUT_FORMATS).toEqual(['json', 'yaml', 'wide', 'name', 'html']);
  });
});
