// -o: one table from format to renderer (src/render/formats.ts), the only dispatch the commands use.
import { afterEach, describe, expect, it } from 'vitest';
import { outputFlag } from '../../src/cli/flags.js';
import { formatsFor, OUTPUT_FORMATS, renderOutput, type Views } from '../../src/render/formats.js';
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
    expect(OUTPUT_FORMATS.map((f) => f.name)).toEqual(['json', 'yaml', 'wide', 'name', 'html']);
  });
});

describe('adding an output format (the seam of docs/how-it-works.md: this table and the renderer)', () => {
  // a throw-away format, added as a real one is: one entry in OUTPUT_FORMATS with its renderer
  const count = {
    name: 'count',
    needs: ['document'] as const,
    render: (v: Views) => v.document && [`${Object.keys(v.document()).length} fields\n`],
  };
  afterEach(() => {
    const i = OUTPUT_FORMATS.indexOf(count);
    if (i >= 0) OUTPUT_FORMATS.splice(i, 1);
  });

  it('is offered by every command whose views it needs, and rendered through renderOutput alone', () => {
    expect(formatsFor(['document', 'human'])).not.toContain('count');
    OUTPUT_FORMATS.push(count);
    // diff, explain, version, history and reconcile all have a document: each -o now offers it
    expect(outputFlag(['document', 'human']).output.options).toEqual(['json', 'yaml', 'count']);
    expect(outputFlag(['document', 'human', 'wide', 'names']).output.options).toEqual(['json', 'yaml', 'wide', 'name', 'count']);
    // a command without a document does not offer it
    expect(formatsFor(['human', 'names'])).toEqual(['name']);
    expect(text('count', { document: () => fullPlan })).toBe(`${Object.keys(fullPlan).length} fields\n`);
    // the formats already there are untouched
    expect(text('json', { document: () => fullPlan })).toBe(renderPlanJson(fullPlan));
  });
});
