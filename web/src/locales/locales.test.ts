import { describe, expect, it } from 'vitest';
import { expectCopy, expectNonEmptyStrings, expectSameKeys, expectSameTokens, flattenCopy as flatten } from '../test/copy';
import enHomeText from './en.json?raw';
import enPages from './en.pages.json';
import es from './es.json';
import pt from './pt.json';

/* Read as text: i18next merges the pages' copy into the imported home copy object at run time. */
const enHome: unknown = JSON.parse(enHomeText);
const source = new Map([...flatten(enHome), ...flatten(enPages)]);
const translations = { pt: flatten(pt), es: flatten(es) };

describe('locales', () => {
  it('en has only non-empty string leaves', () => {
    expectNonEmptyStrings(source);
  });

  it('the home copy and the other pages\' copy share no key', () => {
    const pages = flatten(enPages);
    expect([...flatten(enHome).keys()].filter((k) => pages.has(k))).toEqual([]);
  });

  for (const [lang, flat] of Object.entries(translations)) {
    describe(lang, () => {
      it('has exactly the keys of en (none missing, none extra)', () => {
        expectSameKeys(source, flat);
      });

      it('keeps every interpolation and tag of en, with non-empty text', () => {
        expectSameTokens(source, flat);
      });
    });
  }

  it('carries the Portuguese error and success copy', () => {
    expectCopy(pt, {
      'login.error': 'Erro ao fazer login',
      'login.toastTitle': 'Erro no login',
      'login.toastHint': 'Verifique suas credenciais e tente novamente.',
      'register.error': 'Erro ao registrar',
      'register.toastTitle': 'Erro no cadastro',
      'register.toastHint': 'Ocorreu um erro ao criar sua conta. Tente novamente.',
      'register.termsTitle': 'Termos obrigatórios',
      'register.termsDescription': 'Você deve aceitar os termos para continuar.',
      'forgot.error': 'Erro ao solicitar recuperação',
      'reset.error': 'Erro ao redefinir senha',
      'errors.codes.network': 'Erro de conexão',
      'errors.request': 'Erro na requisição',
      'profile.saveError': 'Erro ao salvar',
      'profile.saveErrorDescription': 'Não foi possível atualizar seu perfil.',
      'profile.updated': 'Perfil atualizado',
    });
  });

  it('carries the English error and success copy', () => {
    expectCopy(enPages, {
      'forgot.limited': 'You can only request a password reset once per hour.',
      'forgot.wait': 'Please wait {{time}} before requesting again.',
      'forgot.failed': 'Could not send reset email.',
      'forgot.success': 'Check your email for the password reset link.',
      'reset.failed': 'Could not reset password.',
      'reset.success': 'Password updated successfully!',
      'notFound.title': 'Oops! Page not found',
    });
  });
});
