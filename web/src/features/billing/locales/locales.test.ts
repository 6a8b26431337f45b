import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { expectCopy, expectNonEmptyStrings, flattenCopy as flatten, itTranslatesEveryKey } from '../../../test/copy';
import '../i18n';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';

const source = flatten(en);

describe('billing copy (the i18next namespace "billing")', () => {
  it('en has only non-empty string leaves', () => {
    expectNonEmptyStrings(source);
  });

  itTranslatesEveryKey(en, { pt, es }, { mayMatchEnglish: true });

  it('carries the product copy: Portuguese payment error and plan states', () => {
    expectCopy(pt, { 'pricing.paymentError': 'Erro no pagamento', 'success.proActive': 'Pro ativo', 'success.processing': /^Processando/ });
  });

  it('is registered for every UI language', () => {
    for (const lang of ['en', 'pt', 'es']) expect(i18n.hasResourceBundle(lang, 'billing')).toBe(true);
    expect(i18n.t('upgrade', { ns: 'billing', lng: 'es' })).toBe('Mejorar');
  });
});
