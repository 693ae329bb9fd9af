// How one model call of a deliberation ended, named once for the runner, the recorder, the deliberate tool's reply
// and the explorer's deliberation cards (which read it back from a thought's `extra`).
export const DELIBERATION_CALL_STATUSES = ['ok', 'failed', 'cancelled', 'budget-exhausted'] as const;
export type CallStatus = (typeof DELIBERATION_CALL_STATUSES)[number];
