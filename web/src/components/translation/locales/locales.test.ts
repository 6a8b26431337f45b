import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import '../i18n';
import { itTranslatesEveryKey } from '../../../test/copy';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';

describe('translated captions copy (the i18next namespace "captionTranslation")', () => {
  itTranslatesEveryKey(en, { pt, es });

  it('is registered for every UI language', () => {
    expect(i18n.t('status.downloading', { ns: 'captionTranslation', lng: 'pt', percent: 40 })).toBe('Baixando o modelo de tradução: 40%');
  });
});
