/** The header's navigation for signed-in users. */
export const NAV_ITEMS = [
  { to: '/', label: 'header.transcription', end: true },
  { to: '/transcricoes', label: 'header.transcriptions', end: false },
  { to: '/transcricoes-automaticas', label: 'automatic.nav', end: false },
  { to: '/help', label: 'header.help', end: false },
] as const;
