// The webview's side of VS Code's messaging and state API, typed with the shared protocol. Only this file names
// `acquireVsCodeApi`, which VS Code (or the Chromium test harness) defines before the bundle runs.
import type { WebviewMessage } from '../../src/shared/protocol';

interface RawVsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): RawVsCodeApi;

export interface ExplorerHost<State> {
  post(message: WebviewMessage): void;
  getState(): Partial<State> | undefined;
  setState(state: State): void;
}

/** Wraps the API, which may be acquired only once per webview. */
export function connectToHost<State extends object>(): ExplorerHost<State> {
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    getState: () => {
      const state = api.getState();
      return typeof state === 'object' && state !== null ? (state as Partial<State>) : undefined;
    },
    setState: (state) => api.setState(state),
  };
}
