import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import '../i18n';
import { itTranslatesEveryKey } from '../../../test/copy';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';

describe('live sharing copy (the i18next namespace "live")', () => {
  itTranslatesEveryKey(en, { pt, es });

  it('is registered for every UI language, with plural forms of the viewer count', () => {
    expect(i18n.t('share.viewers', { ns: 'live', lng: 'pt', count: 1 })).toBe('1 pessoa acompanhando');
    expect(i18n.t('share.viewers', { ns: 'live', lng: 'es', count: 4 })).toBe('4 personas siguiendo');
    expect(i18n.t('viewer.ended', { ns: 'live', lng: 'en' })).toBe('The speaker stopped sharing.');
  });
});
