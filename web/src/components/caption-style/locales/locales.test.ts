import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import '../i18n';
import { itTranslatesEveryKey } from '../../../test/copy';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';

describe('caption style copy (the i18next namespace "captionStyle")', () => {
  itTranslatesEveryKey(en, { pt, es });

  it('is registered for every UI language', () => {
    expect(i18n.t('positions.lowerThird', { ns: 'captionStyle', lng: 'pt' })).toBe('Terço inferior');
    expect(i18n.t('contrast', { ns: 'captionStyle', lng: 'es', ratio: '3.2' })).toBe('Contraste 3.2:1');
  });
});
