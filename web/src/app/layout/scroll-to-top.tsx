import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/** New pages start at the top; back/forward keeps the browser's own position. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type !== 'POP') window.scrollTo(0, 0);
  }, [pathname, type]);
  return null;
}
