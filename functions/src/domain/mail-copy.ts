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
