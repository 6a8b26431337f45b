import { describe, expect, it } from 'vitest';
import enHomeText from './en.json?raw';
import enPages from './en.pages.json';
import es from './es.json';
import pt from './pt.json';

/** Every leaf as "a.b.c" -> string. */
function flatten(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof tree === 'object' && tree !== null && !Array.isArray(tree)) {
    for (const [key, value] of Object.entries(tree)) {
      for (const [k, v] of flatten(value, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
    }
  } else {
    out.set(prefix, tree);
  }
  return out;
}

/** Interpolations ({{x}}) and markup tags (<termsLink>) a translation must keep. */
const tokens = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)>/g)].map((m) => m[0].replace(/\s/g, '')).sort();

/* Read as text: i18next merges the pages' copy into the imported home copy object at run time. */
const enHome: unknown = JSON.parse(enHomeText);
const source = new Map([...flatten(enHome), ...flatten(enPages)]);
const translations = { pt: flatten(pt), es: flatten(es) };

describe('locales', () => {
  it('en has only non-empty string leaves', () => {
    for (const [key, value] of source) {
      expect(typeof value, key).toBe('string');
      expect((value as string).trim(), key).not.toBe('');
    }
  });

  it('the home copy and the other pages\' copy share no key', () => {
    const pages = flatten(enPages);
    expect([...flatten(enHome).keys()].filter((k) => pages.has(k))).toEqual([]);
  });

  for (const [lang, flat] of Object.entries(translations)) {
    describe(lang, () => {
      it('has exactly the keys of en (none missing, none extra)', () => {
        const missing = [...source.keys()].filter((k) => !flat.has(k));
        const extra = [...flat.keys()].filter((k) => !source.has(k));
        expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      });

      it('keeps every interpolation and tag of en, with non-empty text', () => {
        for (const [key, value] of source) {
          const translated = flat.get(key);
          expect(typeof translated, key).toBe('string');
          expect((translated as string).trim(), key).not.toBe('');
          expect(tokens(translated as string), key).toEqual(tokens(value as string));
        }
      });
    });
  }

  it('carries the Portuguese error and success copy', () => {
    expect(pt.login.error).toBe('Erro ao fazer login');
    expect(pt.login.toastTitle).toBe('Erro no login');
    expect(pt.login.toastHint).toBe('Verifique suas credenciais e tente novamente.');
    expect(pt.register.error).toBe('Erro ao registrar');
    expect(pt.register.toastTitle).toBe('Erro no cadastro');
    expect(pt.register.toastHint).toBe('Ocorreu um erro ao criar sua conta. Tente novamente.');
    expect(pt.register.termsTitle).toBe('Termos obrigatórios');
    expect(pt.register.termsDescription).toBe('Você deve aceitar os termos para continuar.');
    expect(pt.forgot.error).toBe('Erro ao solicitar recuperação');
    expect(pt.reset.error).toBe('Erro ao redefinir senha');
    expect(pt.errors.codes.network).toBe('Erro de conexão');
    expect(pt.errors.request).toBe('Erro na requisição');
    expect(pt.profile.saveError).toBe('Erro ao salvar');
    expect(pt.profile.saveErrorDescription).toBe('Não foi possível atualizar seu perfil.');
    expect(pt.profile.updated).toBe('Perfil atualizado');
  });

  it('carries the English error and success copy', () => {
    expect(enPages.forgot.limited).toBe('You can only request a password reset once per hour.');
    expect(enPages.forgot.wait).toBe('Please wait {{time}} before requesting again.');
    expect(enPages.forgot.failed).toBe('Could not send reset email.');
    expect(enPages.forgot.success).toBe('Check your email for the password reset link.');
    expect(enPages.reset.failed).toBe('Could not reset password.');
    expect(enPages.reset.success).toBe('Password updated successfully!');
    expect(enPages.notFound.title).toBe('Oops! Page not found');
  });
});
