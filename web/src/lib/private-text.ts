/**
 * Marks an element whose text is the user's own (a transcript, its title, a share link, the
 * account's details): session recording (Microsoft Clarity) replaces the text of such an element
 * and of everything inside it with blank blocks, keeping only the layout. Spread on the element:
 * `<main {...PRIVATE_TEXT}>`. The app's main region, every dialog and caption mode carry it.
 */
export const PRIVATE_TEXT = { 'data-clarity-mask': 'true' } as const;
