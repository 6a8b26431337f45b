import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FREE_AUTOMATIC_PER_MONTH, RECOGNITION_LANGUAGE_COUNT, VISITOR_LIMIT_SECONDS } from '@app/shared/constants';
import { i18n } from '../../../lib/i18n';
import { renderPage } from '../../../test/render';
import helpEn from '../content/help.en.json';
import helpPt from '../content/help.pt.json';
import { Faq } from './faq';

describe('help FAQ', () => {
  it('answers Free vs Pro with the numbers of the shared constants', async () => {
    renderPage(<Faq faq={helpEn.faq} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'What is the difference between Free and Pro?' }));
    const answer = screen.getByRole('region', { name: 'What is the difference between Free and Pro?' });
    expect(answer).toHaveTextContent(`Without an account, each session stops after ${VISITOR_LIMIT_SECONDS} seconds.`);
    expect(answer).toHaveTextContent(`${FREE_AUTOMATIC_PER_MONTH} recordings kept each month`);
    expect(answer).toHaveTextContent(`all ${RECOGNITION_LANGUAGE_COUNT} recognition languages, no monthly limit on recordings`);
    expect(answer).not.toHaveTextContent(/\{\{|unlimited/i);
  });

  it('says the same in Portuguese', async () => {
    await i18n.changeLanguage('pt');
    renderPage(<Faq faq={helpPt.faq} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Qual a diferença entre o plano gratuito e o Pro?' }));
    const answer = screen.getByRole('region', { name: 'Qual a diferença entre o plano gratuito e o Pro?' });
    expect(answer).toHaveTextContent(`Sem conta, cada sessão para após ${VISITOR_LIMIT_SECONDS} segundos.`);
    expect(answer).toHaveTextContent(`${FREE_AUTOMATIC_PER_MONTH} gravações guardadas por mês`);
    expect(answer).not.toHaveTextContent(/\{\{/);
  });
});
