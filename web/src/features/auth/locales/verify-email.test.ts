import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { expectNonEmptyStrings, flattenCopy as flatten, itTranslatesEveryKey } from '../../../test/copy';
import '../verify-email-i18n';
import en from './verify-email.en.json';
import es from './verify-email.es.json';
import pt from './verify-email.pt.json';

describe('email verification copy (the i18next namespace "verifyEmail")', () => {
  it('en has only non-empty string leaves', () => {
    expectNonEmptyStrings(flatten(en));
  });

  itTranslatesEveryKey(en, { pt, es });

  it('is registered for every UI language', () => {
    for (const lang of ['en', 'pt', 'es']) expect(i18n.hasResourceBundle(lang, 'verifyEmail')).toBe(true);
    expect(i18n.t('banner.resend', { ns: 'verifyEmail', lng: 'es' })).toBe('Enviar el enlace de nuevo');
  });
});
