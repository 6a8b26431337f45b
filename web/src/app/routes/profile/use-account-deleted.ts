import { useNavigate } from 'react-router';
import { CAPTION_STORAGE_KEYS } from '@app/shared/caption-style';
import { STORAGE_KEYS } from '@app/shared/constants';
import { forgetDeviceTranscripts } from '../../../features/transcribe/device-data';
import { useSessionActions } from '../../../lib/auth';
import { writeStorage } from '../../../lib/storage';

/**
 * What this browser kept of the user, besides their transcripts: the recognition language, the
 * survey flag, the last analytics visit, text corrections and caption styles. The interface
 * language, theme and cookie choice are the device's, not the account's, and stay.
 */
const ACCOUNT_KEYS = [
  STORAGE_KEYS.transcriptionLang,
  STORAGE_KEYS.surveyShown,
  STORAGE_KEYS.analyticsLastVisit,
  STORAGE_KEYS.corrections,
  CAPTION_STORAGE_KEYS.style,
  CAPTION_STORAGE_KEYS.liveViewer,
];

/**
 * After the account was deleted: this browser forgets the user (their device transcripts and
 * autosave queue, sent nowhere, and the settings above), the session ends, and the home page shows.
 */
export function useAccountDeleted(userId: string) {
  const navigate = useNavigate();
  const { endSession } = useSessionActions();
  return async () => {
    await forgetDeviceTranscripts(userId);
    for (const key of ACCOUNT_KEYS) writeStorage(key, null);
    await endSession();
    await navigate('/');
  };
}
