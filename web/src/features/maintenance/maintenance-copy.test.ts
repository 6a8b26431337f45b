import { describe, expect, it } from 'vitest';
import en from '../../locales/en.pages.json';
import pt from '../../locales/pt.json';

describe('site copy (pages and error messages)', () => {
  it('carries the Portuguese maintenance copy', () => {
    expect(pt.maintenance.empty).toBe('Por favor, digite uma senha');
    expect(pt.maintenance.wrong).toBe('Senha incorreta');
    expect(pt.maintenance.retry).toBe('Tentar novamente');
    expect(en.maintenance.retry).toBe('Try again');
    expect(en.maintenance.devMode).toBe('Dev Mode');
  });
});
