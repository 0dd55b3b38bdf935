import { createDataQueryClient } from '../../renderers/data/queryClient';
import { tellFailure } from './failures';

/**
 * The console's one cache of the platform's answers, shared by every page tab and hand-written
 * screen: a change saved in one tab refreshes what the others show of it
 * (renderers/data/invalidation.ts). Its onError tells the user of a failed query or mutation
 * (src/api/failures.ts). Whose answers it holds is the session's business: src/session/session.ts
 * empties it when the user or the organisation changes.
 */
export const consoleQueries = createDataQueryClient({ report: tellFailure });
