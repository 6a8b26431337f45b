import type { UiLanguage } from '@app/shared/constants';

/** Transactional mail copy in the interface languages (UI_LANGUAGES). */
export function resetPasswordMail(language: UiLanguage, name: string, link: string): { subject: string; text: string } {
  switch (language) {
    case 'pt':
      return {
        subject: 'Redefinição de senha',
        text: `Olá, ${name}.\n\nRecebemos um pedido para redefinir sua senha. Abra o link abaixo para escolher uma nova senha (válido por 1 hora):\n\n${link}\n\nSe você não pediu isso, ignore este email: sua senha continua a mesma.`,
      };
    case 'es':
      return {
        subject: 'Restablecer contraseña',
        text: `Hola, ${name}.\n\nRecibimos una solicitud para restablecer tu contraseña. Abre el enlace para elegir una nueva (válido durante 1 hora):\n\n${link}\n\nSi no lo pediste, ignora este correo: tu contraseña no cambia.`,
      };
    default:
      return {
        subject: 'Reset your password',
        text: `Hi ${name},\n\nWe received a request to reset your password. Open the link below to choose a new one (valid for 1 hour):\n\n${link}\n\nIf you did not ask for this, ignore this email: your password stays the same.`,
      };
  }
}

/** The notice that the account's password was changed (every other session was ended). */
export function passwordChangedMail(language: UiLanguage, name: string, resetLink: string): { subject: string; text: string } {
  switch (language) {
    case 'pt':
      return {
        subject: 'Sua senha foi alterada',
        text: `Olá, ${name}.\n\nA senha da sua conta acabou de ser alterada, e as sessões abertas em outros dispositivos foram encerradas.\n\nSe não foi você, redefina sua senha agora:\n\n${resetLink}`,
      };
    case 'es':
      return {
        subject: 'Tu contraseña ha cambiado',
        text: `Hola, ${name}.\n\nLa contraseña de tu cuenta acaba de cambiar, y las sesiones abiertas en otros dispositivos se han cerrado.\n\nSi no fuiste tú, restablece tu contraseña ahora:\n\n${resetLink}`,
      };
    default:
      return {
        subject: 'Your password was changed',
        text: `Hi ${name},\n\nThe password of your account was just changed, and the sessions open on other devices were ended.\n\nIf this was not you, reset your password now:\n\n${resetLink}`,
      };
  }
}

/**
 * The confirmation that the account was deleted: what went, that a subscription ended, and what
 * is kept (the billing records the law requires, held by the payment processor).
 */
export function accountDeletedMail(language: UiLanguage, name: string, subscriptionEnded: boolean): { subject: string; text: string } {
  switch (language) {
    case 'pt':
      return {
        subject: 'Sua conta foi excluída',
        text: `Olá, ${name}.\n\nSua conta do Live Transcribe foi excluída, com seu perfil, suas transcrições salvas, gravações, links ao vivo e configurações.${subscriptionEnded ? '\n\nSua assinatura Pro foi cancelada: não haverá novas cobranças.' : ''}\n\nGuardamos apenas os registros de cobrança que a lei exige, como explicam os Termos.\n\nSe não foi você, fale conosco pelo formulário de contato do site.`,
      };
    case 'es':
      return {
        subject: 'Tu cuenta ha sido eliminada',
        text: `Hola, ${name}.\n\nTu cuenta de Live Transcribe ha sido eliminada, con tu perfil, tus transcripciones guardadas, grabaciones, enlaces en vivo y ajustes.${subscriptionEnded ? '\n\nTu suscripción Pro ha sido cancelada: no habrá más cargos.' : ''}\n\nSolo conservamos los registros de facturación que exige la ley, como explican los Términos.\n\nSi no fuiste tú, escríbenos desde el formulario de contacto del sitio.`,
      };
    default:
      return {
        subject: 'Your account was deleted',
        text: `Hi ${name},\n\nYour Live Transcribe account was deleted, with your profile, your saved transcriptions, recordings, live links and settings.${subscriptionEnded ? '\n\nYour Pro subscription was cancelled: there will be no further charges.' : ''}\n\nWe keep only the billing records the law requires, as the Terms explain.\n\nIf this was not you, write to us through the site's contact form.`,
      };
  }
}

/** The link that verifies the account's address (mailed at sign-up and on request). */
export function verifyEmailMail(language: UiLanguage, name: string, link: string): { subject: string; text: string } {
  switch (language) {
    case 'pt':
      return {
        subject: 'Confirme seu e-mail',
        text: `Olá, ${name}.\n\nConfirme que este é o seu e-mail abrindo o link abaixo (válido por 24 horas):\n\n${link}\n\nSe você não criou uma conta no Live Transcribe, ignore este e-mail.`,
      };
    case 'es':
      return {
        subject: 'Confirma tu correo',
        text: `Hola, ${name}.\n\nConfirma que este es tu correo abriendo el enlace (válido durante 24 horas):\n\n${link}\n\nSi no creaste una cuenta en Live Transcribe, ignora este correo.`,
      };
    default:
      return {
        subject: 'Confirm your email address',
        text: `Hi ${name},\n\nConfirm that this is your email address by opening the link below (valid for 24 hours):\n\n${link}\n\nIf you did not create a Live Transcribe account, ignore this email.`,
      };
  }
}

/** The notice that a passkey was added to the account or removed from it, naming it. */
export function passkeyChangedMail(
  language: UiLanguage,
  name: string,
  passkeyName: string,
  change: 'added' | 'removed',
  profileLink: string,
): { subject: string; text: string } {
  switch (language) {
    case 'pt':
      return change === 'added'
        ? {
            subject: 'Uma chave de acesso foi adicionada à sua conta',
            text: `Olá, ${name}.\n\nA chave de acesso "${passkeyName}" foi adicionada à sua conta e já pode ser usada para entrar.\n\nSe não foi você, remova-a no seu perfil e altere sua senha:\n\n${profileLink}`,
          }
        : {
            subject: 'Uma chave de acesso foi removida da sua conta',
            text: `Olá, ${name}.\n\nA chave de acesso "${passkeyName}" foi removida da sua conta e não serve mais para entrar.\n\nSe não foi você, altere sua senha:\n\n${profileLink}`,
          };
    case 'es':
      return change === 'added'
        ? {
            subject: 'Se añadió una llave de acceso a tu cuenta',
            text: `Hola, ${name}.\n\nLa llave de acceso "${passkeyName}" se añadió a tu cuenta y ya sirve para iniciar sesión.\n\nSi no fuiste tú, quítala en tu perfil y cambia tu contraseña:\n\n${profileLink}`,
          }
        : {
            subject: 'Se quitó una llave de acceso de tu cuenta',
            text: `Hola, ${name}.\n\nLa llave de acceso "${passkeyName}" se quitó de tu cuenta y ya no sirve para iniciar sesión.\n\nSi no fuiste tú, cambia tu contraseña:\n\n${profileLink}`,
          };
    default:
      return change === 'added'
        ? {
            subject: 'A passkey was added to your account',
            text: `Hi ${name},\n\nThe passkey "${passkeyName}" was added to your account and can now be used to sign in.\n\nIf this was not you, remove it on your profile and change your password:\n\n${profileLink}`,
          }
        : {
            subject: 'A passkey was removed from your account',
            text: `Hi ${name},\n\nThe passkey "${passkeyName}" was removed from your account and no longer signs you in.\n\nIf this was not you, change your password:\n\n${profileLink}`,
          };
  }
}
