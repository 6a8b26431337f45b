import { describe, expect, it } from 'vitest';
import { i18n } from '../../../../lib/i18n';
import '../i18n';
import { itTranslatesEveryKey } from '../../../../test/copy';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';

describe('on-device recognition copy (the i18next namespace "onDevice")', () => {
  itTranslatesEveryKey(en, { pt, es });

  it('is registered for every UI language, Portuguese and Spanish loading when first used', async () => {
    expect(i18n.hasResourceBundle('pt', 'onDevice')).toBe(false);
    await i18n.loadLanguages(['pt', 'es']);
    await i18n.loadNamespaces('onDevice');
    expect(i18n.t('private', { ns: 'onDevice', lng: 'pt' })).toBe('Privado: o áudio fica neste dispositivo');
    expect(i18n.t('badge.cloud', { ns: 'onDevice', lng: 'es' })).toBe('Reconocimiento: servicio en la nube');
  });
});
