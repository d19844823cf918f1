import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CATEGORY_LIST, CATEGORIES } from '@app/shared';
import { choiceLabelKey, FieldValue } from '../src/features/records/FieldValue';
import '../src/lib/i18n';
import am from '../src/locales/am.json';
import en from '../src/locales/en.json';
import { testRecord } from './fixtures';

/** Choice fields (a place's precision) show their options' labels, in both languages, never the stored word. */
const lookup = (strings: unknown, key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], strings);

describe('choice fields', () => {
  afterEach(cleanup);

  it('have an English and an Amharic label for every option the registry lists', () => {
    const choices = CATEGORY_LIST.flatMap((category) => category.fields.filter((field) => field.kind === 'choice'));
    expect(choices.length).toBeGreaterThan(0);
    for (const field of choices) {
      for (const option of field.options ?? []) {
        expect(lookup(en, choiceLabelKey(field, option)), `en ${field.name}.${option}`).toEqual(expect.any(String));
        expect(lookup(am, choiceLabelKey(field, option)), `am ${field.name}.${option}`).toEqual(expect.any(String));
      }
    }
  });

  it("show the option's label on a record's page, and a value no longer listed as stored", () => {
    const field = CATEGORIES.massacres.fields.find((f) => f.name === 'geoPrecision')!;
    const massacre = (geoPrecision: string) => testRecord({ category: 'massacres', geoPrecision });
    const { container, rerender } = render(<FieldValue field={field} record={massacre('town')} />);
    expect(container.textContent).toBe('Town');
    rerender(<FieldValue field={field} record={massacre('village')} />);
    expect(container.textContent).toBe('village');
  });
});
