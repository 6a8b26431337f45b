import { describe, it } from 'vitest';
import { expectCopy } from '../../test/copy';
import en from '../../locales/en.pages.json';
import pt from '../../locales/pt.json';

describe('site copy (pages and error messages)', () => {
  it('carries the Portuguese maintenance copy', () => {
    expectCopy(pt, { 'maintenance.empty': 'Por favor, digite uma senha', 'maintenance.wrong': 'Senha incorreta', 'maintenance.retry': 'Tentar novamente' });
    expectCopy(en, { 'maintenance.retry': 'Try again', 'maintenance.devMode': 'Dev Mode' });
  });
});
