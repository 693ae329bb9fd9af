// The app room: the explorer page as a whole (its layout, the UI state it saves, the session it holds, the host's
// messages) and the only place that knows every other room. main.ts starts it.
export { ExplorerApp } from './explorerApp';
export { connectToHost } from './vscodeApi';
