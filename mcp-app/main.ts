// The inline thought graph: an MCP App (ext-apps' App class over postMessage) that the host shows beside each
// sequentialthinking / deliberate call. It takes the call's arguments and result from the host, reads the session's
// structure through the app-only page tool (no session data is ever in the HTML), and draws it in the host's theme.
import './noEval';
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { OPEN_EXPLORER_TOOL_NAME, SESSION_PAGE_TOOL_NAME, type OpenExplorerReply, type SessionPage } from '../src/shared/thoughtGraph';
import { InlineGraph, drawThoughtGraph } from './diagram';
import { GraphView, type ViewModel } from './graphView';
import { SessionData } from './sessionData';
import { replyOf, textOf, thoughtOfArguments, type ToolReply } from './toolReplies';
import { errorMessage } from '../src/engine/browserSafe/errorMessage';

const app = new App({ name: 'Thought Explorer thought graph', version: '1.0.0' }, {}, { autoResize: true });
const view = new GraphView(document.getElementById('app') ?? document.body);
const session = new SessionData();
const graph = new InlineGraph();
let lastReply: ToolReply | undefined;
let pending: string | undefined;
let wantedSession: string | undefined;
let refreshing: Promise<void> | undefined;
let refreshAgain = false;

app.ontoolinput = ({ arguments: args }) => {
  pending = thoughtOfArguments(args);
  render();
};

app.ontoolresult = (result) => {
  pending = undefined;
  const reply = replyOf(result);
  if (reply.isError) {
    view.showNote(`The call was refused: ${reply.error ?? ''}`.trim());
    render();
    return;
  }
  lastReply = reply;
  if (reply.sessionId !== undefined) wantedSession = reply.sessionId;
  void refresh();
};

app.onhostcontextchanged = (context) => {
  applyHostContext(context);
  redraw();
};

/** Reads the new thoughts, then redraws; calls that arrive meanwhile fold into one more round. */
function refresh(): Promise<void> {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      try {
        await session.refresh(wantedSession, readPage);
      } catch (error) {
        view.showNote(`The session could not be read: ${errorMessage(error)}`);
      }
      redraw();
    } while (refreshAgain);
    refreshing = undefined;
  })();
  return refreshing;
}

async function readPage(sessionId: string | undefined, offset: number): Promise<SessionPage> {
  const result = await app.callServerTool({ name: SESSION_PAGE_TOOL_NAME, arguments: { ...(sessionId ? { sessionId } : {}), offset } });
  if (result.isError) throw new Error(textOf(result));
  return (result.structuredContent ?? JSON.parse(textOf(result))) as unknown as SessionPage;
}

function model(): ViewModel {
  const meta = session.meta;
  const latest = session.latest();
  return {
    title: meta?.title,
    strategy: meta?.strategy ?? lastReply?.strategy,
    stage: lastReply?.sessionId === meta?.sessionId ? (lastReply?.stage ?? meta?.stage) : meta?.stage,
    nextStages: lastReply?.nextStages,
    thoughts: session.thoughts.length,
    branches: meta?.branchIds.length ?? 0,
    revisions: meta?.revisionCount ?? 0,
    totalThoughts: latest?.totalThoughts ?? meta?.totalThoughts,
    complete: meta?.status === 'complete' || latest?.nextThoughtNeeded === false,
    latest,
    pending,
  };
}

function render(): void {
  view.show(model());
}

function redraw(): void {
  render();
  const count = session.thoughts.length;
  if (count === 0) return;
  try {
    const drawn = drawThoughtGraph(graph.update(session.snapshot()));
    view.showDiagram(drawn.figure, drawn.shown, drawn.total);
  } catch (error) {
    view.showDiagramError(errorMessage(error));
  }
  // For hosts' tests and anyone inspecting: how many thoughts the drawn tree reflects.
  document.body.dataset.drawn = String(count);
}

function applyHostContext(context: McpUiHostContext | undefined): void {
  if (!context) return;
  if (context.theme) {
    applyDocumentTheme(context.theme);
    document.body.dataset.theme = context.theme;
  }
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

view.openButton.addEventListener('click', () => {
  void openExplorer();
});

async function openExplorer(): Promise<void> {
  const sessionId = session.meta?.sessionId ?? wantedSession;
  view.showNote('Opening…');
  try {
    const result = await app.callServerTool({ name: OPEN_EXPLORER_TOOL_NAME, arguments: sessionId ? { sessionId } : {} });
    const reply = result.structuredContent as unknown as OpenExplorerReply | undefined;
    if (result.isError) view.showNote(textOf(result));
    else view.showNote(reply?.opened ? 'Opened in the Thought Explorer.' : (reply?.hint ?? textOf(result)));
  } catch (error) {
    view.showNote(`Could not open the explorer: ${errorMessage(error)}`);
  }
}

render();
app
  .connect()
  .then(() => {
    applyHostContext(app.getHostContext());
    document.body.dataset.connected = 'true';
    redraw();
  })
  .catch((error: unknown) => {
    view.showNote(`Not connected to a host: ${errorMessage(error)}`);
  });
