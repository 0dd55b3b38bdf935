/**
 * The session's file ticket (system.file.ticket): the server serves a stored file only to those who
 * may read it, and an `<img src>` cannot send the token header, so every file url carries the
 * ticket instead (issue 18). Set by the session, cleared when it ends. A module of its own without
 * imports: the session (in the login screen's first paint) sets it without pulling in the formats.
 */
let fileTicket: string | null = null;

export function setFileTicket(ticket: string | null): void {
  fileTicket = ticket;
}

export function currentFileTicket(): string | null {
  return fileTicket;
}
