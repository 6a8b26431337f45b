import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { expectNonEmptyStrings, flattenCopy as flatten, itTranslatesEveryKey } from '../../../test/copy';
import '../passkeys-i18n';
import en from './passkeys.en.json';
import es from './passkeys.es.json';
import pt from './passkeys.pt.json';

describe('passkeys copy (the i18next namespace "passkeys")', () => {
  it('en has only non-empty string leaves', () => {
    expectNonEmptyStrings(flatten(en));
  });

  itTranslatesEveryKey(en, { pt, es });

  it('is registered for every UI language', () => {
    for (const lang of ['en', 'pt', 'es']) expect(i18n.hasResourceBundle(lang, 'passkeys')).toBe(true);
    expect(i18n.t('signIn.button', { ns: 'passkeys', lng: 'es' })).toBe('Iniciar sesión con una llave de acceso');
  });
});
