// What each tool capability is called, which words in a tool's name, description or tags show a tool has it, and
// which words in a step or thought show the step needs it. The recommender's whole vocabulary, in one table, so a
// rationale can always name the words it matched.
import type { ToolCapability } from '../engine/strategies/qaWorkflow';

export interface CapabilityWords {
  /** Short label for rationales ("run a command"). */
  label: string;
  /** Matched against a tool's lower-cased name (underscores as spaces), description and tags. */
  tool: RegExp;
  /** Matched against the step, the thought and the verification target. */
  need: RegExp;
}

export const CAPABILITY_WORDS: Readonly<Record<ToolCapability, CapabilityWords>> = {
  read_files: {
    label: 'read files',
    tool: /\b(read\w*|open|view|cat|file contents?|list dir\w*|directory|get file)\b/,
    need: /\b(read|examine|inspect|check|look at|open|package\.json|lock ?file|installed|config file|version)\b/i,
  },
  search_code: {
    label: 'search the code',
    tool: /\b(grep|glob|ripgrep|codebase|workspace|symbols?|usages?|references)\b|\b(search|find)\b.{0,30}\b(code|files?|text)\b/,
    need: /\b(find|locate|search|where|usages?|references?)\b/i,
  },
  run_command: {
    label: 'run a command',
    tool: /\b(execute|exec|command|terminal|shell|bash|powershell|run in terminal)\b/,
    need: /\b(run|execute|npm|yarn|pnpm|npx|install|build|command|cli|verify|validate)\b/i,
  },
  run_tests: {
    label: 'run tests',
    tool: /\b(tests?|jest|mocha|pytest|vitest|test runner)\b/,
    need: /\b(tests?|spec|passe?s?|passing|regression)\b/i,
  },
  fetch_docs: {
    label: 'fetch docs or web pages',
    tool: /\b(fetch|url|https?|web ?page|docs|documentation|navigate|download|scrape)\b/,
    need: /\b(docs?|documentation|official|changelog|release notes|breaking changes|guide|migration)\b/i,
  },
  search_web: {
    label: 'search the web',
    tool: /\b(web search|search the web|internet|brave|google|bing|kagi|duckduckgo|tavily|omnisearch|perplexity)\b/,
    need: /\b(search|look up|research|online|web)\b/i,
  },
  edit_files: {
    label: 'edit files',
    tool: /\b(edit|write|replace|insert|create file|modify|patch|apply|update file|rename)\b/,
    need: /\b(write|edit|implement(ing)?|create|fix|update|change|replace|modify|configure|design)\b/i,
  },
  diagnostics: {
    label: 'read diagnostics or lint',
    tool: /\b(diagnostics?|problems|lint|linter|errors|typecheck|compile errors?|warnings)\b/,
    need: /\b(syntax|lint|errors?|compile|type ?check|warnings|diagnos\w*)\b/i,
  },
  version_control: {
    label: 'use version control',
    tool: /\b(git|diff|commit|blame|changes|scm|pull request)\b/,
    need: /\b(git|diff|commit|changed|blame|history)\b/i,
  },
  browser_preview: {
    label: 'view it in a browser',
    tool: /\b(browser|screenshot|preview|playwright|puppeteer|click)\b/,
    need: /\b(visual(ly)?|browser|rendered|styles?|ui|screenshot)\b/i,
  },
};
