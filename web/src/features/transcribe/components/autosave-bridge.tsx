import { useEffect } from 'react';
import { useAutosave, type Autosave } from '../autosave/use-autosave';

/** Mounted for signed-in users only (lazily): hands the server autosave to the card. */
export default function AutosaveBridge({ onReady }: { onReady: (autosave: Autosave) => void }) {
  const autosave = useAutosave({ enabled: true });
  useEffect(() => onReady(autosave), [autosave, onReady]);
  return null;
}
