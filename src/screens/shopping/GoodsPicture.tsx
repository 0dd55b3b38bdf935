import type { CSSProperties, ImgHTMLAttributes } from 'react';
import { useConsoleFileUrls } from '../../format/useConsoleFileUrls';

/**
 * A goods picture: a built-in one (a data: url) as it is, an uploaded one at the url the server
 * gives for it (public once goods take it, src/format/fileTicket.ts); its place until it is known.
 */
export function GoodsPicture({ value, alt, style, ...rest }: { value: string; alt: string; style: CSSProperties } & Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'>) {
  const urlOf = useConsoleFileUrls([value]);
  const url = urlOf(value);
  return url ? <img src={url} alt={alt} style={style} {...rest} /> : <span role="img" aria-label={alt} style={{ display: 'inline-block', ...style }} />;
}
