import { FILE_URL_OPERATION, type FileUrlSource } from '../../renderers/data/filePaths';
import { typedApi } from '../api/typed';
import { consoleQueries } from '../renderer/consoleQueries';
import { readSession } from '../session/storage';

/**
 * The console's file urls (issue 30): the server serves a stored file only at a url it gave this
 * session for that one file, and an `<img src>` cannot send the token header. Whatever shows a
 * stored file (image displays, rich-text HTML with /files/ images, the upload list, the avatar,
 * the mall's pictures) asks for its url through the console's one cache (renderers/data/
 * fileUrls.ts; useConsoleFileUrls for the console's own screens): the paths shown together go to
 * system.file.ticket in one call. The urls are the session's: a new access token (a refresh
 * starts a new session on the server) asks again, and signing out clears them with the rest of
 * the cache (src/renderer/consoleQueries.ts). No hooks here: the first paint names the source
 * without the code that asks.
 */

export const consoleFiles: FileUrlSource = {
  queries: consoleQueries,
  fetch: (paths) => typedApi.call(FILE_URL_OPERATION, { paths }),
  // The access token names the session the urls were given to (only ever held in memory here).
  holder: () => readSession('accessToken') ?? '',
};
