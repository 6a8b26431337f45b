import { useEffect, useState } from 'react';

/** Whole seconds left until `deadline` (epoch ms), re-rendering every second; 0 without one. */
export function useCountdown(deadline: number | null): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (deadline === null) return;
    const id = window.setInterval(() => {
      setTick((n) => n + 1);
      if (Date.now() >= deadline) window.clearInterval(id);
    }, 1000);
    return () => window.clearInterval(id);
  }, [deadline]);
  return deadline === null ? 0 : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}
