// The header room: the session's title, status and actions, its deliberation and QA-steps lines, the live
// deliberation strip under it and the banner above it that offers another live session.
export { DeliberationStatusView } from './deliberationStatus';
export { ExplorerHeader } from './header';
export { SessionOffer } from './sessionOffer';
