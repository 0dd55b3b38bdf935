import { useFileUrls } from '../../renderers/data/fileUrls';
import { consoleFiles } from './fileTicket';

/**
 * The urls of stored files (and other urls as they are) for the console's own screens, at the
 * session's urls (src/format/fileTicket.ts). A module of its own: the screens that show files are
 * lazy, and the first paint names the source without the code that asks.
 */
export function useConsoleFileUrls(values: readonly string[]): (value: string) => string | undefined {
  return useFileUrls(consoleFiles, values);
}
