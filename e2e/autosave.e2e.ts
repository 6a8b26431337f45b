import { describe, expect, it } from 'vitest';
import { routeUrl } from '@app/shared/routes';
import { AUTOSAVE_INTERVAL_MS, FREE_AUTOMATIC_PER_MONTH } from '../shared/src/constants.ts';
import { registerAccount, type Account } from './browser.ts';
import { card, deviceContext, deviceCopies, dismissUpgradeModal, openApi, openBrowser, speech, startRecording, storedSegmentTexts } from './journeys.ts';

/**
 * Autosave, driven by the transcription card and the scripted recognizer:
 * a free user's session shows in the automatic list in progress, then finished after
 * Stop; a free user whose month is full transcribes live with nothing kept; two minutes offline
 * while speaking lose nothing; neither does a reload mid-session; the unsent text is kept on the
 * device once, in the transcript's device copy the queue reads.
 * The server's copy is read through the API with the user's token.
 */
const browser = await openBrowser();
const api = await openApi();

const openContext = (account: Account) => deviceContext(browser, { account, speech: true });

/** Home for `account`, on the page's fake clock (the autosave timers are fast-forwarded), with its card and recognizer. */
async function openHome(account: Account) {
  const context = await openContext(account);
  await context.clock.install();
  const page = await context.newPage();
  await page.goto('/');
  return { context, page, c: card(page), s: speech(page) };
}

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
    const { context, page, c, s } = await openHome(free);
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
    await list.getByText(`1 of ${FREE_AUTOMATIC_PER_MONTH} recordings kept this month`).waitFor();

    await page.bringToFront();
    await s.final('see you next week');
    await c.button('Stop').click();
    await c.statusIs('Stopped');
    // After 30 s of silence (more than the default 2 s), a new paragraph.
    await expect
      .poll(async () => (await serverSessions(free)).map((x) => [x.isCompleted, x.fullTranscript]))
      .toEqual([[true, 'the quarterly numbers look good we will hire two engineers\n\nsee you next week']]);

    await list.bringToFront();
    await list.reload();
    await item.waitFor();
    expect(await item.textContent()).toContain('Finished');
    await list.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'In progress' }).click();
    await list.getByText('No recordings match these filters.').waitFor();
    await context.close();
  });

  it("a free user whose month's recordings are all kept is told before Start; the session transcribes live and the server keeps none of it", async () => {
    const free = await registerAccount(api, 'autosave-month-full', 'free');
    const headers = { authorization: `Bearer ${free.token}` };
    for (let i = 0; i < FREE_AUTOMATIC_PER_MONTH; i++) {
      expect((await api.get(routeUrl('autosaveSessionId'), { headers })).status()).toBe(200);
    }
    const { context, page, c, s } = await openHome(free);
    await dismissUpgradeModal(page);
    await c.root.getByText(`${FREE_AUTOMATIC_PER_MONTH} of ${FREE_AUTOMATIC_PER_MONTH} recordings kept this month`).waitFor();
    await c.root.getByText(/^New sessions still transcribe live but are not kept until next month\./).waitFor();

    const refused = page.waitForResponse((res) => new URL(res.url()).pathname === routeUrl('autosaveSessionId'));
    await startRecording(page);
    expect((await refused).status()).toBe(403);
    await s.final('said live, not kept');
    await page.clock.fastForward(AUTOSAVE_INTERVAL_MS + 1_000);
    await c.button('Stop').click();
    await c.statusIs('Stopped');
    expect(await c.transcriptText()).toBe('said live, not kept');
    const kept = await serverSessions(free);
    expect(kept).toHaveLength(FREE_AUTOMATIC_PER_MONTH);
    expect(kept.map((x) => x.fullTranscript)).not.toContain('said live, not kept');
    // Nothing waits on the device to be sent later.
    expect(await page.evaluate(() => localStorage.getItem('autosave_queue') ?? '')).not.toContain('said live');
    await context.close();
  });

  it('two minutes offline while speaking: back online, the server has all the text', async () => {
    const pro = await registerAccount(api, 'autosave-offline', 'pro');
    const { context, page, c, s } = await openHome(pro);
    await startRecording(page);
    await s.final('before the connection drops.');
    await page.clock.fastForward(AUTOSAVE_INTERVAL_MS + 1_000);
    await expect.poll(async () => (await serverSessions(pro))[0]?.fullTranscript).toBe('before the connection drops.');

    await context.setOffline(true);
    // Each phrase comes 8 s after the one before: more than the default silence (2 s), a paragraph each.
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
    // ... and the unsent text waits in device storage, in the transcript's device copy (the queue keeps no copy of its own).
    await expect.poll(() => storedSegmentTexts(page)).toContain('\n\noffline phrase number 15.');
    expect(await deviceCopies(page, 'offline phrase number 15.')).toBe(1);

    // Back online: the 'online' event sends the backlog at once (no waiting for the 30-second save).
    await context.setOffline(false);
    await expect.poll(async () => (await serverSessions(pro))[0]?.fullTranscript).toBe(spoken.join('\n\n'));

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

  it('the unsent text is on the device once; after a reload the queue sends it unrestored, the restore prompt declined, and then nothing of it is left', async () => {
    const pro = await registerAccount(api, 'autosave-once', 'pro');
    const context = await openContext(pro);
    await context.clock.install();
    // The server cannot be reached for the autosave: everything said stays unsent.
    const autosave = (url: URL) => url.pathname.startsWith('/api/transcriptions-autosave/');
    await context.route(autosave, (route) => route.abort());
    const page = await context.newPage();
    const s = speech(page);
    await page.goto('/');
    await startRecording(page);
    const said = ['words the server has not got.', 'nor these ones.'];
    for (const words of said) await s.final(words);
    await page.clock.fastForward(2_000);
    await expect.poll(() => storedSegmentTexts(page)).toEqual(said);
    await s.interim('still speaking');
    await card(page).transcript.getByText('still speaking').waitFor();

    await page.reload();
    const c = card(page);
    await c.restorePrompt.waitFor();
    // Each part once on the device: the finals in the transcript's device copy, the interim text in its pagehide tail.
    for (const words of [...said, 'still speaking']) expect(await deviceCopies(page, words)).toBe(1);

    // Declined: no longer offered, but still the queue's to send.
    await c.button('Discard').click();
    await c.restorePrompt.waitFor({ state: 'detached' });
    expect(await deviceCopies(page, said[0]!)).toBe(1);
    await context.unroute(autosave);
    await page.clock.fastForward(AUTOSAVE_INTERVAL_MS + 1_000);
    await expect.poll(async () => (await serverSessions(pro)).map((x) => x.fullTranscript)).toEqual([said.join(' ')]);
    // Sent, and not offered: nothing of it is left on the device.
    await expect.poll(() => deviceCopies(page, said[0]!)).toBe(0);
    expect(await deviceCopies(page, 'still speaking')).toBe(0);
    await page.reload();
    await c.recoveryChecked();
    expect(await c.restorePrompt.count()).toBe(0);
    await context.close();
  });
});
