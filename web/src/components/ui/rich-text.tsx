import { Fragment, type ReactNode } from 'react';

const TAG = /<(\w+)>(.*?)<\/\1>/g;

/**
 * Translated text with marked parts (`Read our <termsLink>privacy policy</termsLink>.`), each
 * rendered by the function of its name; unknown names render their text. Tags do not nest.
 * Small on purpose: the first load does without react-i18next's `<Trans>` and its HTML parser.
 */
export function RichText({ text, parts }: { text: string; parts: Record<string, (children: string) => ReactNode> }) {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    const [whole, name = '', inner = ''] = match;
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const render = parts[name];
    nodes.push(<Fragment key={match.index}>{render ? render(inner) : inner}</Fragment>);
    last = match.index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return <>{nodes}</>;
}
