// Types of the demo's sample session for the TypeScript tests that replay it.
export declare const SAMPLE_SESSION: readonly Record<string, unknown>[];
