import { describe, expect, it } from 'vitest';
import en from './en.json';
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

const source = flatten(en);
const translations = { pt: flatten(pt), es: flatten(es) };

describe('locales', () => {
  it('en has only non-empty string leaves', () => {
    for (const [key, value] of source) {
      expect(typeof value, key).toBe('string');
      expect((value as string).trim(), key).not.toBe('');
    }
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
    expect(en.forgot.limited).toBe('You can only request a password reset once per hour.');
    expect(en.forgot.wait).toBe('Please wait {{time}} before requesting again.');
    expect(en.forgot.failed).toBe('Could not send reset email.');
    expect(en.forgot.success).toBe('Check your email for the password reset link.');
    expect(en.reset.failed).toBe('Could not reset password.');
    expect(en.reset.success).toBe('Password updated successfully!');
    expect(en.notFound.title).toBe('Oops! Page not found');
  });
});
