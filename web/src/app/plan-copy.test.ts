import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { FREE_AUTOMATIC_PER_MONTH, RECOGNITION_LANGUAGE_COUNT, VISITOR_LIMIT_SECONDS, type UiLanguage } from '@app/shared/constants';
import billingEn from '../features/billing/locales/en.json';
import billingEs from '../features/billing/locales/es.json';
import billingPt from '../features/billing/locales/pt.json';
import helpEn from '../features/help/content/help.en.json';
import helpEs from '../features/help/content/help.es.json';
import helpPt from '../features/help/content/help.pt.json';
import termsEn from '../features/legal/content/terms.en.json';
import termsEs from '../features/legal/content/terms.es.json';
import termsPt from '../features/legal/content/terms.pt.json';
import enHomeText from '../locales/en.json?raw';
import enPages from '../locales/en.pages.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import { fill } from '../lib/lazy-content';
import { FREE_PLAN, PLAN_VALUES, PRO_PLAN } from '../lib/plan-values';
import { flattenCopy } from '../test/copy';

/**
 * The plans, said one way everywhere, in every UI language: a visitor transcribes VISITOR_LIMIT_SECONDS
 * a session; a free account has no time limit, English, and keeps FREE_AUTOMATIC_PER_MONTH recordings a
 * month (the counter "n of 5"), named as the menu names their page ("My recordings"); Pro adds every language, no monthly limit, saving,
 * export, the dark theme and the badge. The home card, the pricing page, the upgrade modal and the
 * profile's plan card list the shared `plans.*` texts; the help FAQ and the terms say them in prose.
 * Every number comes from the shared constants through PLAN_VALUES, never from the text.
 */
const LANGUAGES = ['en', 'pt', 'es'] as const satisfies readonly UiLanguage[];

/** `a` with `b`'s leaves added, deeply: as i18next adds the pages' copy to the home copy. */
function merged(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const here = out[k];
    out[k] = typeof here === 'object' && here !== null && typeof v === 'object' && v !== null ? merged(here as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}

/* Read as text: i18next merges the pages' copy into the imported home copy object at run time. */
const translation = { en: merged(JSON.parse(enHomeText) as Record<string, unknown>, enPages), pt, es };
const billing = { en: billingEn, pt: billingPt, es: billingEs };
const help = { en: helpEn, pt: helpPt, es: helpEs };
const terms = { en: termsEn, pt: termsPt, es: termsEs };

/** The noun for what a free account keeps each month: the menu's page of them is "My recordings". */
const NOUN: Record<UiLanguage, string> = { en: 'recordings', pt: 'gravações', es: 'grabaciones' };
/** The words of "n recordings kept", which the free plan, the counter, the FAQ and the terms share. */
const KEPT: Record<UiLanguage, string> = {
  en: `${NOUN.en} kept`,
  pt: `${NOUN.pt} guardadas`,
  es: `${NOUN.es} conservadas`,
};
/** The name they had before the menu named their page, which no text uses any more. */
const OLD_NOUN: Record<UiLanguage, RegExp> = {
  en: /\bautomatic transcriptions?\b/i,
  pt: /transcriç(ão|ões) (salvas? ou )?automáticas?/i,
  es: /transcripci(ón|ones) (guardadas? o )?automáticas?/i,
};

/** Texts (key paths of the app's copy) that state a plan number, and the placeholder each must carry. */
const STATING: Record<string, (keyof typeof PLAN_VALUES)[]> = {
  'plans.visitor': ['seconds'],
  'plans.free.automatic': ['perMonth'],
  'plans.pro.languages': ['languages'],
  'automatic.counter': ['perMonth'],
  'transcribe.limit.reachedBody': ['seconds'],
  'profile.freeDescription': ['perMonth'],
  'profile.proDescription': ['languages'],
};
/** The same for the help FAQ answers and the terms paragraphs. */
const FAQ_STATING: Record<string, (keyof typeof PLAN_VALUES)[]> = {
  plans: ['seconds', 'perMonth', 'languages'],
  languages: ['languages'],
  saving: ['perMonth'],
};

const faqAnswer = (lang: UiLanguage, item: keyof typeof helpEn.faq.items) => help[lang].faq.items[item].a;
/** Every text of the app, the help and the terms in `lang`, as one string. */
const allCopy = (lang: UiLanguage) =>
  [...flattenCopy(translation[lang]).values(), ...flattenCopy(billing[lang]).values(), ...flattenCopy(help[lang]).values(), termsText(lang)].join('\n');
const termsText = (lang: UiLanguage) => terms[lang].sections.flatMap((s) => [...s.paragraphs, ...(('items' in s && s.items) || [])]).join('\n');
/** A text as the pages show it: placeholders filled with the plan numbers (prices left out). */
const shown = (text: string) => fill(text, PLAN_VALUES);
const lower = (text: string) => text.toLocaleLowerCase();
/** The text with its placeholders taken out: what a translator wrote. */
const written = (text: string) => text.replace(/\{\{\s*\w+\s*\}\}/g, '');

const ts = {} as Record<UiLanguage, TFunction>;
beforeAll(async () => {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'en',
    fallbackLng: false,
    resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: translation[l], billing: billing[l] }])),
    interpolation: { escapeValue: false },
  });
  for (const l of LANGUAGES) ts[l] = i18n.getFixedT(l);
});

/** The shared plan texts of a language, as the cards show them. */
function planTexts(lang: UiLanguage) {
  const t = ts[lang];
  return {
    visitor: t('plans.visitor', PLAN_VALUES),
    free: FREE_PLAN.map((k) => t(`plans.free.${k}`, PLAN_VALUES)),
    pro: PRO_PLAN.map((k) => t(`plans.pro.${k}`, PLAN_VALUES)),
  };
}

describe('the plans in every language', () => {
  for (const lang of LANGUAGES) {
    describe(lang, () => {
      it('every text that states a plan number carries it as a placeholder, and writes no digit of its own', () => {
        const copy = flattenCopy(translation[lang]);
        const stated = Object.entries(STATING).map(([path, names]) => ({ where: path, text: copy.get(path) as string, names }));
        stated.push(...Object.entries(FAQ_STATING).map(([item, names]) => ({ where: `faq.${item}`, text: faqAnswer(lang, item as keyof typeof helpEn.faq.items), names })));
        stated.push({ where: 'terms', text: termsText(lang), names: ['seconds', 'perMonth'] });
        for (const path of [...FREE_PLAN.map((k) => `plans.free.${k}`), ...PRO_PLAN.map((k) => `plans.pro.${k}`)]) {
          stated.push({ where: path, text: copy.get(path) as string, names: STATING[path] ?? [] });
        }
        for (const { where, text, names } of stated) {
          expect(typeof text, where).toBe('string');
          for (const name of names) expect(text, where).toContain(`{{${name}}}`);
          if (where !== 'terms') expect(written(text), where).not.toMatch(/\d/);
        }
        // The terms hold other numbers (ages, days); the plan numbers among them are placeholders.
        for (const n of [VISITOR_LIMIT_SECONDS, FREE_AUTOMATIC_PER_MONTH]) expect(written(termsText(lang)), 'terms').not.toMatch(new RegExp(`\\b${n}\\b`));
      });

      it('the shared plan texts show the numbers of the shared constants', () => {
        const { visitor, free, pro } = planTexts(lang);
        expect(visitor).toContain(String(VISITOR_LIMIT_SECONDS));
        expect(free.join('\n')).toContain(`${FREE_AUTOMATIC_PER_MONTH} ${KEPT[lang]}`);
        expect(pro.join('\n')).toContain(String(RECOGNITION_LANGUAGE_COUNT));
        for (const text of [visitor, ...free, ...pro]) expect(text).not.toMatch(/\{\{|\}\}/);
      });

      it('the counter counts what the free plan keeps, in the same words, out of the same number', () => {
        const counter = ts[lang]('automatic.counter', { ...PLAN_VALUES, count: 2 });
        expect(counter).toContain(`2`);
        expect(counter).toContain(`${FREE_AUTOMATIC_PER_MONTH} ${KEPT[lang]}`);
        expect(ts[lang]('automatic.notKept')).not.toBe('');
      });

      it("the plans, the counter and the page call what a free account keeps by the menu's name for it", () => {
        const t = ts[lang];
        const { pro } = planTexts(lang);
        const noun = NOUN[lang];
        for (const key of ['header.recordings', 'automatic.title', 'automatic.list'] as const) expect(lower(t(key)), key).toContain(noun);
        expect(lower(pro[1]!), 'plans.pro.automatic').toContain(noun);
        expect(lower(t('profile.proDescription', PLAN_VALUES)), 'profile.proDescription').toContain(noun);
        // The FAQ and the terms send the user to the page by the menu's name.
        expect(faqAnswer(lang, 'saving')).toContain(t('header.recordings'));
        expect(termsText(lang)).toContain(t('header.recordings'));
        const everything = allCopy(lang);
        expect(everything).not.toMatch(OLD_NOUN[lang]);
      });

      it('the help FAQ says every plan fact in the words of the cards', () => {
        const faq = lower(shown(faqAnswer(lang, 'plans')));
        const { visitor, free, pro } = planTexts(lang);
        for (const text of [visitor, ...free, ...pro]) expect(faq, text).toContain(lower(text));
        expect(lower(shown(faqAnswer(lang, 'saving')))).toContain(String(FREE_AUTOMATIC_PER_MONTH));
        expect(lower(shown(faqAnswer(lang, 'languages')))).toContain(String(RECOGNITION_LANGUAGE_COUNT));
      });

      it('the profile plan card and the terms say the free and Pro plans in the same words', () => {
        const t = ts[lang];
        const { free, pro } = planTexts(lang);
        const freeCard = lower(t('profile.freeDescription', PLAN_VALUES));
        const proCard = lower(t('profile.proDescription', PLAN_VALUES));
        for (const text of free) expect(freeCard, text).toContain(lower(text));
        for (const text of [pro[0]!, pro[1]!, pro[2]!]) expect(proCard, text).toContain(lower(text));
        const termsShown = lower(shown(termsText(lang)));
        expect(termsShown).toContain(String(VISITOR_LIMIT_SECONDS));
        for (const text of [free[0]!, free[2]!, pro[1]!]) expect(termsShown, text).toContain(lower(text));
      });

      it('Pro never claims what a free account already has, and no text promises "unlimited"', () => {
        const { free, pro } = planTexts(lang);
        const noTimeLimit = lower(free[0]!);
        for (const text of pro) expect(lower(text)).not.toContain(noTimeLimit);
        expect(lower(ts[lang]('profile.proDescription', PLAN_VALUES))).not.toContain(noTimeLimit);
        const everything = allCopy(lang);
        expect(everything).not.toMatch(/unlimited|ilimitad/i);
      });
    });
  }

  it('the billing copy keeps no list of its own: the Pro benefits and the free plan come from the shared texts', () => {
    for (const lang of LANGUAGES) {
      expect(billing[lang]).not.toHaveProperty('benefits');
      expect(Object.keys(billing[lang].pricing.freeFeatures)).toEqual(['live']);
    }
  });
});
