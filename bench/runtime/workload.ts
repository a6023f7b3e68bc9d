/** What both servers of the runtime benchmark serve: the same events, at the same pace, to the same streams. */
export const SESSIONS = 50;
export const STREAMS_PER_SESSION = 20;
/** Text deltas per run (plus RunStarted, UserMessageReceived, TurnEnded and RunEnded). */
export const DELTAS = 100;
/** Between two deltas: 20 events a second per session, 20,000 deliveries a second in all. */
export const DELTA_INTERVAL_MS = 50;
export const DELTA_TEXT = 'lorem ipsum dolor sit amet ';
export const TOKEN = 'bench-runtime-token-000000000000000001';
