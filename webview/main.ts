// The explorer webview's entry: registers the VS Code webview elements the page uses and starts the app
// (explorerApp.ts), which speaks the shared protocol with the host.
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { connectToHost, ExplorerApp } from './app';

new ExplorerApp(connectToHost(), document).start();
