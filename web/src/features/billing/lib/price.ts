import { PRICES, type Currency, type UiLanguage } from '@app/shared/constants';

/** Number formats by UI language: Portuguese as written in Brazil, where BRL is charged. */
const NUMBER_LOCALES: Record<UiLanguage, string> = { en: 'en-US', pt: 'pt-BR', es: 'es' };

/** An amount in minor units as the UI language writes it ("$6.00", "R$ 35,00"). */
export function formatMoney(amountMinor: number, currency: Currency, language: UiLanguage): string {
  // Zero reads better without decimals ("R$ 0" for the free plan).
  const digits = amountMinor === 0 ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {};
  return new Intl.NumberFormat(NUMBER_LOCALES[language], { style: 'currency', currency, ...digits }).format(amountMinor / 100);
}

/** The monthly Pro price in one currency, from the one price table. */
export const formatPrice = (currency: Currency, language: UiLanguage): string =>
  formatMoney(PRICES[currency].amountMinor, currency, language);

/** The currency a UI language leads with: English copy quotes USD, Portuguese and Spanish BRL. */
export const leadCurrency = (language: UiLanguage): Currency => (language === 'en' ? 'USD' : 'BRL');
