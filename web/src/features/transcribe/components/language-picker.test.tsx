import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { RecognitionLanguage } from '@app/shared/constants';
import { RECOGNITION_LANGUAGES } from '@app/shared/recognition-languages';
import { i18n } from '../../../lib/i18n';
import { renderPage } from '../../../test/render';
import { LanguagePicker } from './language-picker';

function Picker({ isPro = true, initial = 'en-US', onChange = () => undefined }: { isPro?: boolean; initial?: RecognitionLanguage; onChange?: (l: RecognitionLanguage) => void }) {
  const [value, setValue] = useState<RecognitionLanguage>(initial);
  return (
    <LanguagePicker
      value={value}
      onChange={(l) => {
        setValue(l);
        onChange(l);
      }}
      isPro={isPro}
      locked={false}
    />
  );
}

const group = () => screen.getByRole('group', { name: 'Recognition language' });
const search = () => screen.findByRole('combobox', { name: 'Search languages' });
const options = () => within(screen.getByRole('listbox', { name: 'Recognition languages' })).queryAllByRole('option');

async function openSearch() {
  const ui = userEvent.setup();
  await ui.click(await screen.findByRole('button', { name: 'More languages' }));
  const box = await search();
  await waitFor(() => expect(box).toHaveFocus());
  return { ui, box };
}

describe('language picker: every language for Pro', () => {
  it('lists every recognition language, the featured ones first', async () => {
    renderPage(<Picker />);
    expect(await screen.findByRole('button', { name: 'More languages' })).toHaveAttribute('aria-expanded', 'false');
    await openSearch();
    expect(screen.getByRole('button', { name: 'More languages' })).toHaveAttribute('aria-expanded', 'true');
    expect(options()).toHaveLength(RECOGNITION_LANGUAGES.length);
    const featured = within(screen.getByRole('group', { name: 'Featured' })).getAllByRole('option');
    expect(featured.map((o) => o.textContent)).toEqual([
      'English (United States)en-US', 'Español (España)Spanish (Spain)es-ES', 'Português (Brasil)Portuguese (Brazil)pt-BR',
      'Français (France)French (France)fr-FR', 'العربية (المملكة العربية السعودية)Arabic (Saudi Arabia)ar-SA',
      'עברית (ישראל)Hebrew (Israel)he-IL', '中文（中国）Chinese (China)zh-CN', 'Русский (Россия)Russian (Russia)ru-RU',
    ]);
    expect(featured.map((o) => o.getAttribute('aria-selected'))).toEqual(['true', ...Array<string>(7).fill('false')]);
    // Each name in its own language, marked as such (a screen reader speaks it in that voice).
    expect(within(featured[1]!).getByText('Español (España)')).toHaveAttribute('lang', 'es-ES');
  });

  it('finds Japanese by its own name, its name in English and its tag, in any case', async () => {
    renderPage(<Picker />);
    const { ui, box } = await openSearch();
    for (const query of ['日本', 'Japanese', 'ja-JP', 'ja-jp', 'JAPAN']) {
      await ui.clear(box);
      await ui.paste(query);
      expect(options().map((o) => o.textContent), query).toContain('日本語 (日本)Japanese (Japan)ja-JP');
      expect(options().length, query).toBeLessThan(4);
    }
  });

  it('finds by the name in the interface language, accents and case aside', async () => {
    await i18n.changeLanguage('pt');
    try {
      renderPage(<Picker />);
      const ui = userEvent.setup();
      await ui.click(await screen.findByRole('button', { name: 'Mais idiomas' }));
      const box = await screen.findByRole('combobox', { name: 'Buscar idiomas' });
      await ui.type(box, 'japones', { skipClick: true });
      const list = screen.getByRole('listbox', { name: 'Idiomas de reconhecimento' });
      expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['日本語 (日本)Japonês (Japão)ja-JP']);
      await ui.clear(box);
      await ui.paste('klingon');
      expect(within(list).queryAllByRole('option')).toEqual([]);
      expect(screen.getByText('Nenhum idioma corresponde a “klingon”.')).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('works from the keyboard: arrows move, Enter picks, Escape clears then closes', async () => {
    const changed = vi.fn();
    renderPage(<Picker onChange={changed} />);
    const { ui, box } = await openSearch();
    await ui.type(box, 'portugu');
    const [brazil, portugal] = options();
    expect([brazil?.textContent, portugal?.textContent]).toEqual(['Português (Brasil)Portuguese (Brazil)pt-BR', 'Português (Portugal)Portuguese (Portugal)pt-PT']);
    expect(box).toHaveAttribute('aria-activedescendant', brazil!.id);
    await ui.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', portugal!.id);
    await ui.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', brazil!.id);
    await ui.keyboard('{ArrowUp}{Enter}');
    expect(changed).toHaveBeenLastCalledWith('pt-PT');
    // Picked: the search closes, focus goes back to its button, and the language shows as chosen.
    expect(screen.queryByRole('combobox', { name: 'Search languages' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'More languages' })).toHaveFocus();
    expect(within(group()).getByRole('button', { name: 'Portuguese (Portugal)' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(group()).getByRole('button', { name: 'Portuguese (Brazil)' })).toHaveAttribute('aria-pressed', 'false');

    const again = await openSearch();
    await again.ui.paste('thai');
    await again.ui.keyboard('{Escape}');
    expect(again.box).toHaveValue('');
    expect(options()).toHaveLength(RECOGNITION_LANGUAGES.length);
    await again.ui.keyboard('{Escape}');
    expect(screen.queryByRole('combobox', { name: 'Search languages' })).not.toBeInTheDocument();
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('a tap on an option picks it, and the phone’s select holds it', async () => {
    const changed = vi.fn();
    renderPage(<Picker onChange={changed} />);
    const { ui } = await openSearch();
    await ui.paste('ไทย');
    await ui.click(within(screen.getByRole('listbox', { name: 'Recognition languages' })).getByRole('option', { name: /Thai \(Thailand\)/ }));
    expect(changed).toHaveBeenCalledWith('th-TH');
    expect(screen.getByRole('combobox', { name: 'Recognition language' })).toHaveValue('th-TH');
  });
});

describe('language picker: free users', () => {
  it('offer no search: the other featured languages ask for the upgrade', async () => {
    // Pro's button loaded first: a free picker would then show it at once.
    const pro = renderPage(<Picker />);
    await screen.findByRole('button', { name: 'More languages' });
    pro.unmount();
    renderPage(<Picker isPro={false} />);
    expect(screen.queryByRole('button', { name: 'More languages' })).not.toBeInTheDocument();
    expect(within(group()).getAllByRole('button')).toHaveLength(8);
    expect(within(group()).getByRole('button', { name: 'Spanish (Spain)' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(group()).queryByRole('button', { name: /Japanese/ })).not.toBeInTheDocument();
  });
});
