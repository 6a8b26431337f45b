import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Radio } from 'lucide';
import { Button } from '../../../components/ui/button';
import { Icon } from '../../../components/ui/icon';
import { api, ApiError } from '../../../lib/api';
import { openUpgrade } from '../../../lib/open-upgrade';
import { toast } from '../../../lib/toast';
import { useLiveT } from '../i18n';

/* The link, QR code and viewer count load when the speaker shares. */
const SharePanel = lazy(() => import('./share-panel'));

/** What the transcription screen hands the control (app/ composes the two features). */
export interface LiveShareProps {
  /** The server id of the automatic transcription being recorded; null while none is running. */
  sessionId: string | null;
  isPro: boolean;
  /** Turns the short autosave cadence on while a share is live, and off after. */
  setLive: (on: boolean) => void;
}

interface Share {
  code: string;
  expiresAt: string;
  sessionId: string;
}

/** Stops a share on the server, even as the page goes away; a failure leaves it to end by itself (session end, expiry). */
const stopOnServer = (code: string) => api('stopLiveShare', { params: { code }, keepalive: true }).catch(() => undefined);

/**
 * Share live: a Pro speaker shares the session being recorded by a link anyone can follow;
 * free users are offered the upgrade. Viewers read what is said from then on, or, when the
 * speaker ticks the box, what was said before too. The share ends when its speaker stops it or
 * when its session ends; the control never lets go of a share it has not stopped (another
 * session, a cleared one, leaving the screen), so no link outlives what the speaker sees.
 */
export default function LiveShareControl({ sessionId, isPro, setLive }: LiveShareProps) {
  const { t } = useTranslation();
  const tl = useLiveT();
  const [share, setShare] = useState<Share | null>(null);
  const [ended, setEnded] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<'failed' | 'stopFailed' | null>(null);
  const [includeEarlier, setIncludeEarlier] = useState(false);
  const includeId = useId();

  // The session the share shows has ended (stopped, cleared, or another one began): stopped, then let go.
  useEffect(() => {
    if (share && share.sessionId !== sessionId) {
      void stopOnServer(share.code);
      setShare(null);
      setEnded(true);
      setError(null);
      setLive(false);
    }
  }, [share, sessionId, setLive]);

  // Leaving the screen while sharing: the share stops, and the autosave goes back to the usual cadence.
  const latestSetLive = useRef(setLive);
  latestSetLive.current = setLive;
  const current = useRef(share);
  current.current = share;
  useEffect(
    () => () => {
      if (current.current) void stopOnServer(current.current.code);
      latestSetLive.current(false);
    },
    [],
  );

  const start = async () => {
    if (!isPro) {
      toast.error(tl('share.proOnly'), { id: 'live-pro-only' });
      openUpgrade();
      return;
    }
    if (!sessionId) return;
    setBusy(true);
    setError(null);
    try {
      const started = await api('startLiveShare', { body: { sessionId, includeEarlier } });
      setShare({ ...started, sessionId });
      setEnded(false);
      setLive(true);
    } catch (err) {
      if (err instanceof ApiError && err.requiresPro) openUpgrade();
      else if (err instanceof ApiError && err.code === 'session_completed') setEnded(true);
      else setError('failed');
    } finally {
      setBusy(false);
    }
  };

  const stop = async () => {
    if (!share) return;
    setBusy(true);
    setError(null);
    try {
      await api('stopLiveShare', { params: { code: share.code } });
      setShare(null);
      setLive(false);
    } catch (err) {
      // Already gone on the server (expired, or its session completed): it is stopped all the same.
      if (err instanceof ApiError && err.status === 404) {
        setShare(null);
        setLive(false);
      } else setError('stopFailed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col items-start gap-3">
      {!share && sessionId && (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <Button variant="secondary" onClick={() => void start()} loading={busy}>
            <Icon node={Radio} size={18} />
            {tl('share.start')}
            {!isPro && (
              <span aria-hidden="true" className="rounded bg-warning-muted px-1 text-[0.65rem] font-bold text-warning-soft-fg">
                {t('transcribe.proTag')}
              </span>
            )}
          </Button>
          {isPro && (
            <label htmlFor={includeId} className="flex items-center gap-2 text-sm text-fg-muted">
              <input
                id={includeId}
                type="checkbox"
                checked={includeEarlier}
                onChange={(e) => setIncludeEarlier(e.target.checked)}
                className="size-4 accent-primary"
              />
              {tl('share.includeEarlier')}
            </label>
          )}
        </div>
      )}
      {share && (
        <Suspense fallback={null}>
          <SharePanel code={share.code} expiresAt={share.expiresAt} onStop={() => void stop()} stopping={busy} />
        </Suspense>
      )}
      {ended && !share && !sessionId && (
        <p role="status" className="text-sm text-fg-muted">
          {tl('share.ended')}
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-danger">
          {tl(`share.${error}`)}
        </p>
      )}
    </div>
  );
}
