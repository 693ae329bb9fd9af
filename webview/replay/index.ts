// The replay room: a session as it unfolds, either replayed step by step (the replay bar) or live, followed to the
// newest thought and announced to screen readers.
export { FollowMode, scrollIntoContainer } from './followMode';
export { LiveAnnouncer } from './liveAnnouncer';
export { ReplayController, type ReplaySnapshot } from './replayController';
