/** The base language of a recognition language: `pt-BR` -> `pt`. */
export const baseLanguage = (lang: string) => lang.split('-')[0]!.toLowerCase();
