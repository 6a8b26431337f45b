import { encode } from 'uqr';

/**
 * A QR code of `text`, drawn as one SVG path (dark modules on white, with the quiet zone the
 * standard asks for), so a phone can open the link from the speaker's screen.
 */
export function QrCode({ text, label, size = 176 }: { text: string; label: string; size?: number }) {
  const { data } = encode(text, { ecc: 'M', border: 4 });
  const modules = data.length;
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${modules} ${modules}`} shapeRendering="crispEdges" className="rounded-md">
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
