import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { expectNonEmptyStrings, flattenCopy as flatten, itTranslatesEveryKey } from '../../../test/copy';
import '../i18n';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';

describe('your data copy (the i18next namespace "accountData")', () => {
  it('en has only non-empty string leaves', () => {
    expectNonEmptyStrings(flatten(en));
  });

  itTranslatesEveryKey(en, { pt, es });

  it('is registered for every UI language', () => {
    for (const lang of ['en', 'pt', 'es']) expect(i18n.hasResourceBundle(lang, 'accountData')).toBe(true);
    expect(i18n.t('delete.button', { ns: 'accountData', lng: 'pt' })).toBe('Excluir minha conta');
  });
});
