import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import type { RecognitionLanguage } from '@app/shared/constants';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { languageName } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import { getOnDeviceRecognition } from '../engine/on-device';
import { getSpeechRecognition, type OnDeviceAvailability } from '../engine/speech-recognition';
import type { CardStatus, TranscriptionController } from '../lib/transcription-controller';
import { useOnDeviceT } from './i18n';
import { OnDeviceState } from './on-device-state';

/** How often install progress is read (`available()` says 'downloading' until the pack is in). */
const INSTALL_POLL_MS = 400;

type Install = { state: 'idle' } | { state: 'installing' } | { state: 'done'; ok: boolean };

/**
 * On-device recognition (Web Speech API draft), shown where the browser has it: the chosen
 * language's availability on this device, the private option (`processLocally`), the install
 * of a downloadable language pack on a click, and the badge naming the recognizer that runs.
 * When on-device recognition turns out to be missing, it explains and offers the cloud recognizer.
 */
export default function OnDevicePanel({ controller, language, status }: { controller: TranscriptionController; language: RecognitionLanguage; status: CardStatus }) {
  const t = useOnDeviceT();
  const hintId = useId();
  const [onDevice] = useState(() => getOnDeviceRecognition(getSpeechRecognition()));
  const [state] = useState(() => new OnDeviceState(controller));
  const snapshot = useSyncExternalStore(state.subscribe, state.getSnapshot);

  // The controller asks this state which recognizer to use; the network's comings and goings move it.
  useEffect(() => {
    if (!onDevice) return;
    controller.setRecognizerPolicy(state);
    const onNetwork = () => state.networkChanged(navigator.onLine);
    window.addEventListener('online', onNetwork);
    window.addEventListener('offline', onNetwork);
    return () => {
      controller.setRecognizerPolicy(null);
      window.removeEventListener('online', onNetwork);
      window.removeEventListener('offline', onNetwork);
    };
  }, [controller, onDevice, state]);
  const [availability, setAvailability] = useState<OnDeviceAvailability | 'checking' | 'error'>('checking');
  const [install, setInstall] = useState<Install>({ state: 'idle' });
  const [checks, setChecks] = useState(0);
  const name = languageName(language, currentUiLanguage());

  useEffect(() => {
    if (!onDevice) return;
    let live = true;
    setAvailability('checking');
    onDevice.available({ langs: [language], processLocally: true }).then(
      (answer) => {
        if (!live) return;
        setAvailability(answer);
        state.setReady(answer === 'available');
      },
      () => {
        if (!live) return;
        setAvailability('error');
        state.setReady(false);
      },
    );
    return () => {
      live = false;
    };
  }, [state, onDevice, language, checks]);

  useEffect(() => setInstall({ state: 'idle' }), [language]);

  const installPack = () => {
    if (!onDevice) return;
    setInstall({ state: 'installing' });
    // The draft's install() gives no progress events: 'downloading' from available() is the progress,
    // read as soon as the install has begun, then every INSTALL_POLL_MS.
    const installing = onDevice.install({ langs: [language], processLocally: true });
    const poll = () => void onDevice.available({ langs: [language], processLocally: true }).then(setAvailability, () => undefined);
    poll();
    const timer = setInterval(poll, INSTALL_POLL_MS);
    installing
      .then(
        (ok) => setInstall({ state: 'done', ok }),
        () => setInstall({ state: 'done', ok: false }),
      )
      .finally(() => {
        clearInterval(timer);
        setChecks((n) => n + 1);
      });
  };

  const busy = status === 'recording' || status === 'paused';
  const badge = !onDevice ? t('badge.browser') : snapshot.recognizer === 'cloud' ? t('badge.cloud') : snapshot.offlineSwitch ? t('badge.offline') : t('badge.onDevice');

  return (
    <div className="flex flex-col gap-2 text-sm">
      {busy && (
        <p>
          <span className="inline-flex rounded-full bg-surface-muted px-2.5 py-0.5 text-xs font-medium text-fg" data-recognizer={snapshot.recognizer}>
            {badge}
          </span>
        </p>
      )}
      {onDevice && (
        <>
          {/* The status and its install action share one row of fixed height: the answer of
              available() (checking, then installable or not) never moves what is below. */}
          <div className="flex min-h-9 items-center gap-2">
            <p className="min-w-0 flex-1 text-xs text-fg-muted" data-availability={availability}>
              {t(`status.${availability}`)}
            </p>
            {install.state === 'installing' && <progress aria-label={t('installProgress')} className="h-2 w-16 shrink-0" />}
            {(availability === 'downloadable' || install.state === 'installing') && !busy && (
              <Button
                size="sm"
                variant="secondary"
                className="shrink-0"
                onClick={installPack}
                disabled={install.state === 'installing'}
                aria-label={install.state === 'installing' ? t('installing', { language: name }) : t('install', { language: name })}
              >
                {install.state === 'installing' ? t('installingShort') : t('installShort')}
              </Button>
            )}
          </div>
          <label className={cn('flex items-start gap-2', availability !== 'available' && 'opacity-60')}>
            <input
              type="checkbox"
              className="mt-0.5 size-4"
              checked={snapshot.privateMode}
              disabled={availability !== 'available' && !snapshot.privateMode}
              aria-describedby={hintId}
              onChange={(e) => state.setPrivate(e.target.checked)}
            />
            <span>{t('private')}</span>
          </label>
          {/* Two lines kept for the hint, whichever the answer: the longer one never pushes the card down. */}
          <p id={hintId} className="min-h-8 text-xs text-fg-muted">
            {availability === 'available' ? t('privateHint') : t('privateNeedsInstall')}
          </p>
          {install.state === 'done' && (
            <p role={install.ok ? 'status' : 'alert'} className={cn('text-xs', install.ok ? 'text-success-soft-fg' : 'text-danger-soft-fg')}>
              {install.ok ? t('installed', { language: name }) : t('installFailed', { language: name })}
            </p>
          )}
        </>
      )}
      {snapshot.missing && (
        <div role="alert" className="flex flex-col gap-2 rounded-lg border border-warning-line bg-warning-soft p-3 text-warning-soft-fg">
          <p>{t(`missing.${snapshot.missing as 'service-not-allowed' | 'language-not-supported'}`)}</p>
          <p>{t('missing.kept')}</p>
          <div>
            <Button size="sm" onClick={() => state.useCloud()}>
              {t('missing.useCloud')}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
