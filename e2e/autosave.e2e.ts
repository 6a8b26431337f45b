import { describe, expect, it } from 'vitest';
import { routeUrl } from '@app/shared/routes';
import { AUTOSAVE_INTERVAL_MS } from '../shared/src/constants.ts';
import { registerAccount, type Account } from './browser.ts';
import { card, deviceContext, dismissUpgradeModal, openApi, openBrowser, speech, startRecording } from './journeys.ts';

/**
 * Autosave, driven by the transcription card and the scripted recognizer:
 * a free user's session shows in the automatic list in progress, then finished after
 * Stop; two minutes offline while speaking lose nothing; neither does a reload mid-session.
 * The server's copy is read through the API with the user's token.
 */
const browser = await openBrowser();
const api = await openApi();

const openContext = (account: Account) => deviceContext(browser, { account, speech: true });

interface ServerSession {
  _id: string;
  isCompleted: boolean;
  fullTranscript: string;
}

/** The user's automatic transcriptions as the server has them, full text included. */
async function serverSessions(account: Account): Promise<ServerSession[]> {
  const headers = { authorization: `Bearer ${account.token}` };
  const list = (await (await api.get(routeUrl('listAutomaticTranscriptions'), { headers })).json()) as { transcriptions: { _id: string }[] };
  return Promise.all(
    list.transcriptions.map(async ({ _id }) => (await (await api.get(routeUrl('getAutomaticTranscription', { id: _id }), { headers })).json()) as ServerSession),
  );
}

describe('autosave from the transcription card', () => {
  it("a free user's session appears in the automatic list in progress, then finished after Stop", async () => {
    const free = await registerAccount(api, 'autosave-free', 'free');
    const context = await openContext(free);
    await context.clock.install();
    const page = await context.newPage();
    const c = card(page);
    const s = speech(page);
    await page.goto('/');
    // A free user on home gets the upgrade modal once.
    await dismissUpgradeModal(page);

    await startRecording(page);
    await s.final('the quarterly numbers look good');
    await s.final('we will hire two engineers');
    // The 30-second autosave.
    await page.clock.fastForward(AUTOSAVE_INTERVAL_MS + 1_000);
    await expect
      .poll(async () => (await serverSessions(free)).map((x) => [x.isCompleted, x.fullTranscript]))
      .toEqual([[false, 'the quarterly numbers look good we will hire two engineers']]);

    const list = await context.newPage();
    await list.goto('/transcricoes-automaticas');
    const item = list.getByRole('list', { name: 'My recordings' }).getByRole('listitem').filter({ hasText: 'the quarterly numbers' });
    await item.waitFor();
    expect(await item.textContent()).toContain('In progress');
    await list.getByText('1 of 5 recordings started this month').waitFor();

    await page.bringToFront();
    await s.final('see you next week');
    await c.button('Stop').click();
    await c.statusIs('Stopped');
    await expect
      .poll(async () => (await serverSessions(free)).map((x) => [x.isCompleted, x.fullTranscript]))
      .toEqual([[true, 'the quarterly numbers look good we will hire two engineers see you next week']]);

    await list.bringToFront();
    await list.reload();
    await item.waitFor();
    expect(await item.textContent()).toContain('Finished');
    await list.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'In progress' }).click();
    await list.getByText('No recordings match these filters.').waitFor();
    await context.close();
  });

  it('two minutes offline while speaking: back online, the server has all the text', async () => {
    const pro = await registerAccount(api, 'autosave-offline', 'pro');
    const context = await openContext(pro);
    await context.clock.install();
    const page = await context.newPage();
    const c = card(page);
    const s = speech(page);
    await page.goto('/');
    await startRecording(page);
    await s.final('before the connection drops.');
    await page.clock.fastForward(AUTOSAVE_INTERVAL_MS + 1_000);
    await expect.poll(async () => (await serverSessions(pro))[0]?.fullTranscript).toBe('before the connection drops.');

    await context.setOffline(true);
    const spoken = ['before the connection drops.'];
    for (let second = 0; second < 120; second += 8) {
      const phrase = `offline phrase number ${second / 8 + 1}.`;
      spoken.push(phrase);
      await s.final(phrase);
      await page.clock.fastForward(8_000);
    }
    await expect.poll(() => c.transcriptText()).toBe(spoken.join(' '));
    // Nothing new reached the server while offline.
    expect((await serverSessions(pro))[0]?.fullTranscript).toBe('before the connection drops.');
    // ... and the unsent text waits in device storage.
    expect(await page.evaluate(() => localStorage.getItem('autosave_queue'))).toContain('offline phrase number 15.');

    // Back online: the 'online' event sends the backlog at once (no waiting for the 30-second save).
    await context.setOffline(false);
    await expect.poll(async () => (await serverSessions(pro))[0]?.fullTranscript).toBe(spoken.join(' '));

    await c.button('Stop').click();
    await c.statusIs('Stopped');
    await expect.poll(async () => (await serverSessions(pro)).map((x) => x.isCompleted)).toEqual([true]);
    await context.close();
  });

  it('a reload mid-session loses nothing, and resuming the restored transcript continues the same session', async () => {
    const pro = await registerAccount(api, 'autosave-reload', 'pro');
    const context = await openContext(pro);
    const page = await context.newPage();
    const c = card(page);
    const s = speech(page);
    await page.goto('/');
    await startRecording(page);
    // Said within the last seconds: not autosaved yet (less than 10 s since the session began).
    await s.final('first words.');
    await s.final('more words right before the reload.');
    await expect.poll(() => c.transcriptText()).toBe('first words. more words right before the reload.');

    await page.reload();
    // The page going away sent what the server lacked (keepalive), or the new page load sends it.
    await expect
      .poll(async () => (await serverSessions(pro)).map((x) => [x.isCompleted, x.fullTranscript]))
      .toEqual([[false, 'first words. more words right before the reload.']]);

    const after = card(page);
    await after.restorePrompt.waitFor();
    await after.button('Restore').click();
    await after.statusIs('Paused');
    await after.button('Resume').click();
    await speech(page).waitStarted(1);
    await speech(page).final('and after the reload.');
    await after.button('Stop').click();
    await after.statusIs('Stopped');
    await expect
      .poll(async () => (await serverSessions(pro)).map((x) => [x.isCompleted, x.fullTranscript]))
      .toEqual([[true, 'first words. more words right before the reload. and after the reload.']]);
    await context.close();
  });
});
