import type { UiLanguage } from '@app/shared/constants';

/** Transactional mail copy in the three interface languages. */
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
