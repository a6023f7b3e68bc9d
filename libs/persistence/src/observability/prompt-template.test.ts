import { describe, expect, it } from 'vitest';
import { PromptVariableMissingError } from './errors.js';
import { renderTemplate, templateVariables } from './prompt-template.js';

describe('prompt templates', () => {
  it('lists distinct variables in order of first use', () => {
    expect(templateVariables('{{b}} and {{ a }} then {{b}}; {single} {{1x}} {{}}')).toEqual(['b', 'a']);
  });

  it('fills every placeholder in one pass', () => {
    expect(
      renderTemplate('p', 'Hi {{ name }}, {{n}} new {{flag}}: {{name}}', {
        name: '{{n}}',
        n: 3,
        flag: false,
      }),
    ).toBe('Hi {{n}}, 3 new false: {{n}}');
  });

  it('names every missing variable', () => {
    let error: unknown;
    try {
      renderTemplate('greeting', '{{a}} {{b}} {{c}}', { b: 'x', toString: 'y' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PromptVariableMissingError);
    expect(error).toMatchObject({ code: 'PROMPT_VARIABLE_MISSING', prompt: 'greeting', missing: ['a', 'c'] });
    expect((error as Error).message).toBe('prompt greeting needs a value for {{a}}, {{c}}');
  });
});
