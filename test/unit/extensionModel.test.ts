// The extension's pure pieces: settings, the Sessions tree's titles/grouping/nesting/escaping, the status bar text
// and the stdio configuration other MCP clients paste.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { displayedStatus, IDLE_AS_ABANDONED_MS } from '../../src/engine/browserSafe/sessionStatus';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionMeta, ThoughtRecord } from '../../src/engine/model';
import { strategyNames } from '../../src/engine/strategies/catalog';
import { stdioClientConfiguration } from '../../src/extension/mcpConfig';
import {
  dayKey,
  escapeMarkdown,
  groupSessions,
  startTimesForSameTitles,
  layoutThoughts,
  sessionDescription,
  chatLabel,
  sessionTitle,
  sessionTooltipMarkdown,
  thoughtTooltipMarkdown,
} from '../../src/extension/sessionTreeModel';
import { engineSettingsChanged, readSettings, resolveStoragePath } from '../../src/extension/settings';
import { LiveSessionTracker, statusBarText } from '../../src/extension/statusBar';

const NOW = new Date(2026, 10, 22, 12, 0, 0).getTime();

function meta(overrides: Partial<SessionMeta> = {}): SessionMeta {
  return {
    id: 's1',
    strategy: 'react',
    stage: 'action_planning',
    status: 'live',
    createdAt: NOW - 60_000,
    updatedAt: NOW - 1000,
    thoughtCount: 4,
    revisionCount: 0,
    branchIds: [],
    lastThoughtNumber: 4,
    totalThoughts: 7,
    ...overrides,
  };
}

function record(seq: number, thoughtNumber: number, extra: Partial<ThoughtRecord> = {}): ThoughtRecord {
  return { seq, thought: `thought ${thoughtNumber}`, thoughtNumber, totalThoughts: 9, nextThoughtNeeded: true, timestamp: NOW, ...extra };
}

function settingsFrom(values: Record<string, unknown>) {
  return readSettings({ get: <T>(key: string) => values[key] as T | undefined });
}

describe('settings', () => {
  test('defaults when nothing is set', () => {
    const { settings, problems } = settingsFrom({});
    assert.deepEqual(problems, []);
    assert.equal(settings.storagePath, '');
    assert.equal(settings.mcpServerEnabled, true);
    assert.equal(settings.defaultStrategy, 'linear');
    assert.equal(settings.followLiveSession, true);
    assert.equal(settings.limits.maxThoughtLength, 20_000);
  });

  test('valid values are taken; bad ones fall back to the default and are reported by name', () => {
    const { settings, problems } = settingsFrom({
      'limits.maxThoughtLength': 500,
      'limits.maxThoughtsPerSession': 0,
      'limits.maxSessionsInMemory': 2.5,
      defaultStrategy: 'nonsense',
      'mcpServer.enabled': false,
    });
    assert.equal(settings.limits.maxThoughtLength, 500);
    assert.equal(settings.limits.maxThoughtsPerSession, 10_000);
    assert.equal(settings.limits.maxSessionsInMemory, 32);
    assert.equal(settings.defaultStrategy, 'linear');
    assert.equal(settings.mcpServerEnabled, false);
    assert.equal(problems.length, 3);
    assert.match(problems.join('\n'), /maxThoughtsPerSession/);
    assert.match(problems.join('\n'), /maxSessionsInMemory/);
    assert.match(problems.join('\n'), /"nonsense" is not a known strategy/);
  });

  test('every strategy name is accepted as the default strategy', () => {
    // The names the settings UI offers (the manifest's enum), checked against the engine's catalog and one by one.
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: {
        configuration: { properties: Record<string, { enum?: string[] }> } | { properties: Record<string, { enum?: string[] }> }[];
      };
    };
    const sections = [manifest.contributes.configuration].flat();
    const offered =
      sections.map((section) => section.properties['thoughtExplorer.defaultStrategy']?.enum).find((names) => names !== undefined) ?? [];
    assert.equal(offered.length, 16);
    assert.deepEqual([...offered].sort(), strategyNames().slice().sort());
    for (const name of offered) {
      const { settings, problems } = settingsFrom({ defaultStrategy: name });
      assert.deepEqual(problems, [], name);
      assert.equal(settings.defaultStrategy, name);
      const reply = new ThinkingEngine({ defaultStrategy: settings.defaultStrategy, log: () => {} }).process('c', {
        thought: 't',
        thoughtNumber: 1,
        totalThoughts: 2,
        nextThoughtNeeded: true,
      });
      assert.ok(reply.ok && reply.reply.strategy === name, `${name}: ${JSON.stringify(reply)}`);
    }
  });

  test('storage path: empty means the CLI default, ~ is expanded, relative paths start at the workspace folder', () => {
    assert.equal(resolveStoragePath('', '/default', '/home/me', '/ws'), '/default');
    assert.equal(resolveStoragePath('~/te', '/default', '/home/me', '/ws'), join('/home/me', 'te'));
    assert.equal(resolveStoragePath('.sessions', '/default', '/home/me', '/ws'), join('/ws', '.sessions'));
    assert.equal(resolveStoragePath('.sessions', '/default', '/home/me', undefined), join('/home/me', '.sessions'));
    assert.equal(resolveStoragePath('/abs/../x', '/default', '/home/me', '/ws'), '/x');
  });

  test('only storage, limits and default strategy require a new engine', () => {
    const base = settingsFrom({}).settings;
    assert.equal(engineSettingsChanged(base, settingsFrom({ followLiveSession: false }).settings), false);
    assert.equal(engineSettingsChanged(base, settingsFrom({ 'mcpServer.enabled': false }).settings), false);
    assert.equal(engineSettingsChanged(base, settingsFrom({ storagePath: '/elsewhere' }).settings), true);
    assert.equal(engineSettingsChanged(base, settingsFrom({ 'limits.maxSessionsInMemory': 3 }).settings), true);
    assert.equal(engineSettingsChanged(base, settingsFrom({ defaultStrategy: 'react' }).settings), true);
  });
});

describe('Sessions tree model', () => {
  test('title falls back from the given name to the purpose to the id, flattened and shortened', () => {
    assert.equal(sessionTitle(meta({ title: 'Named', purpose: 'Purpose' })), 'Named');
    assert.equal(sessionTitle(meta({ purpose: 'Plan\n  the   trip' })), 'Plan the trip');
    assert.equal(sessionTitle(meta()), 's1');
    assert.equal(Array.from(sessionTitle(meta({ purpose: 'x'.repeat(200) }))).length, 80);
  });

  test('description: strategy, thoughts, then branches and revisions only when there are any', () => {
    assert.equal(sessionDescription(meta()), 'react · 4 thoughts');
    assert.equal(
      sessionDescription(meta({ thoughtCount: 1, branchIds: ['a'], revisionCount: 1 })),
      'react · 1 thought · 1 branch · 1 revision',
    );
    assert.equal(sessionDescription(meta({ branchIds: ['a', 'b'], revisionCount: 3 })), 'react · 4 thoughts · 2 branches · 3 revisions');
  });

  test('a session a chat started names that chat: a short label in the row, the whole id in the tooltip', () => {
    const fromChat = meta({ conversationId: '6f1c2d3e-aaaa-bbbb-cccc-000000000001' });
    assert.equal(sessionDescription(fromChat), 'react · 4 thoughts · chat 6f1c2d3e');
    assert.match(sessionTooltipMarkdown(fromChat, NOW), /From chat 6f1c2d3e\\-aaaa\\-bbbb\\-cccc\\-000000000001/);
    assert.equal(chatLabel('sha256:0123456789abcdef'), 'chat 01234567');
    assert.equal(chatLabel('***'), 'chat ?');
    // The id is outside text: markdown in it is escaped like any agent-written text.
    assert.match(sessionTooltipMarkdown(meta({ conversationId: '[x](command:y)' }), NOW), /From chat \\\[x\\\]/);
  });

  test('a session the store cannot read is shown as unreadable, with the reason (escaped) in its tooltip', () => {
    const unreadable = meta({ thoughtCount: 0, unreadable: '/s/x.jsonl: not a session journal <b>' });
    assert.equal(sessionDescription(unreadable), 'unreadable');
    const markdown = sessionTooltipMarkdown(unreadable, NOW);
    assert.match(markdown, /^\*\*s1\*\*\n\nUnreadable: .*x\\\.jsonl.* not a session journal \\<b\\>/);
    assert.doesNotMatch(markdown, /Thought 0 of/);
  });

  test('a live session idle for more than 30 minutes is shown as abandoned; the stored status is not touched', () => {
    const idle = meta({ updatedAt: NOW - IDLE_AS_ABANDONED_MS - 1 });
    assert.equal(displayedStatus(idle, NOW), 'abandoned');
    assert.equal(idle.status, 'live');
    assert.equal(displayedStatus(meta({ updatedAt: NOW - IDLE_AS_ABANDONED_MS + 1000 }), NOW), 'live');
    assert.equal(displayedStatus(meta({ status: 'complete', updatedAt: NOW - 10 * IDLE_AS_ABANDONED_MS }), NOW), 'complete');
  });

  test('groups: live sessions most recent first; finished within the hour under Recent; older ones by day, newest day first', () => {
    const day = 24 * 3600 * 1000;
    const grouped = groupSessions(
      [
        meta({ id: 'live-old', updatedAt: NOW - 5000 }),
        meta({ id: 'live-new', updatedAt: NOW - 100 }),
        meta({ id: 'done-today', status: 'complete', updatedAt: NOW - 2000 }),
        meta({ id: 'done-2-days', status: 'complete', updatedAt: NOW - 2 * day }),
        meta({ id: 'idle', updatedAt: NOW - IDLE_AS_ABANDONED_MS - 10 }),
      ],
      NOW,
    );
    assert.deepEqual(
      grouped.live.map((m) => m.id),
      ['live-new', 'live-old'],
    );
    assert.deepEqual(
      grouped.recent.map((m) => m.id),
      ['done-today', 'idle'],
    );
    assert.deepEqual(
      grouped.savedByDay.map((d) => d.day),
      [dayKey(NOW - 2 * day)],
    );
    assert.deepEqual(
      grouped.savedByDay[0].sessions.map((m) => m.id),
      ['done-2-days'],
    );
    // With Recent turned off (0 ms), a session finished today is saved under its day.
    assert.deepEqual(
      groupSessions([meta({ id: 'done-today', status: 'complete', updatedAt: NOW - 2000 })], NOW, IDLE_AS_ABANDONED_MS, 0).savedByDay.map(
        (d) => d.day,
      ),
      [dayKey(NOW)],
    );
  });

  test('same titles get start times: minutes, or seconds where the minute is shared; unique titles none', () => {
    const at = (hours: number, minutes: number, seconds: number) => new Date(2026, 10, 26, hours, minutes, seconds).getTime();
    const times = startTimesForSameTitles([
      meta({ id: 'a', title: 'Demo', createdAt: at(14, 5, 1) }),
      meta({ id: 'b', title: 'Demo', createdAt: at(14, 5, 40) }),
      meta({ id: 'c', title: 'Demo', createdAt: at(15, 0, 0) }),
      meta({ id: 'd', title: 'Other', createdAt: at(15, 0, 0) }),
    ]);
    assert.deepEqual(Object.fromEntries(times), { a: '14:05:01', b: '14:05:40', c: '15:00' });
  });

  test('branch thoughts nest under their fork point, nested branches under theirs, in arrival order', () => {
    const roots = layoutThoughts([
      record(0, 1),
      record(1, 2),
      record(2, 3, { branchId: 'alt', branchFromThought: 2 }),
      record(3, 4, { branchId: 'alt', branchFromThought: 2 }),
      record(4, 5, { branchId: 'deeper', branchFromThought: 3 }),
      record(5, 3),
      record(6, 4, { isRevision: true, revisesThought: 3 }),
    ]);
    assert.deepEqual(
      roots.map((entry) => entry.thought.seq),
      [0, 1, 5, 6],
    );
    const fork = roots[1];
    assert.equal(fork.branches.length, 1);
    assert.equal(fork.branches[0].branchId, 'alt');
    assert.deepEqual(
      fork.branches[0].entries.map((entry) => entry.thought.seq),
      [2, 3],
    );
    const nested = fork.branches[0].entries[0].branches[0];
    assert.equal(nested.branchId, 'deeper');
    assert.deepEqual(
      nested.entries.map((entry) => entry.thought.seq),
      [4],
    );
  });

  test('a branch whose fork point is missing stays visible at the top level', () => {
    const roots = layoutThoughts([record(0, 1), record(1, 2, { branchId: 'lost', branchFromThought: 7 })]);
    assert.deepEqual(
      roots.map((entry) => entry.thought.seq),
      [0, 1],
    );
  });

  test('tooltips escape agent-written text: no link, image, HTML, code or icon syntax survives', () => {
    const hostile =
      '[click](command:workbench.action.terminal.new) ![x](http://e/x.png) <img src=x onerror=alert(1)> `code` $(zap) **bold**';
    const markdown = sessionTooltipMarkdown(meta({ title: hostile, purpose: hostile, branchIds: ['<b>'] }), NOW);
    assert.doesNotMatch(markdown, /(?<!\\)\[click(?<!\\)\]/);
    assert.doesNotMatch(markdown, /(?<!\\)</);
    assert.doesNotMatch(markdown, /(?<!\\)\$(?<!\\)\(/);
    assert.doesNotMatch(markdown, /(?<!\\)`code/);
    assert.match(markdown, /\\\[click\\\]\\\(command\\:workbench/);
    const thoughtMarkdown = thoughtTooltipMarkdown(record(0, 1, { thought: hostile }));
    assert.doesNotMatch(thoughtMarkdown, /(?<!\\)<img/);
    assert.equal(escapeMarkdown('a_b*c'), 'a\\_b\\*c');
  });
});

describe('status bar', () => {
  test('text: lightbulb, n/total, strategy, stage', () => {
    assert.equal(statusBarText(meta()), '$(lightbulb) 4/7 · react · action_planning');
    assert.equal(
      statusBarText(meta({ stage: undefined, strategy: 'linear', lastThoughtNumber: 1, totalThoughts: 3 })),
      '$(lightbulb) 1/3 · linear',
    );
  });

  test('tracks the most recently active live session; falls back to another when it ends; none after idling out', () => {
    let now = NOW;
    const tracker = new LiveSessionTracker(() => now);
    assert.equal(tracker.current(), undefined);
    tracker.apply({ type: 'sessionStarted', meta: meta({ id: 'a', updatedAt: now }) });
    tracker.apply({ type: 'sessionStarted', meta: meta({ id: 'b', updatedAt: now }) });
    assert.equal(tracker.current()?.id, 'b');
    tracker.apply({ type: 'sessionUpdated', meta: meta({ id: 'a', updatedAt: now }) });
    assert.equal(tracker.current()?.id, 'a');
    tracker.apply({ type: 'sessionEnded', meta: meta({ id: 'a', status: 'complete', updatedAt: now }) });
    assert.equal(tracker.current()?.id, 'b');
    tracker.apply({ type: 'sessionDeleted', sessionId: 'b' });
    assert.equal(tracker.current(), undefined);
    tracker.apply({ type: 'sessionStarted', meta: meta({ id: 'c', updatedAt: now }) });
    now += IDLE_AS_ABANDONED_MS + 1;
    assert.equal(tracker.current(), undefined);
  });
});

describe('configuration for other MCP clients', () => {
  test('the stdio CLI entry points at the bundled CLI and the same store', () => {
    const text = stdioClientConfiguration('/ext', '/home/me/.thought-explorer/sessions');
    assert.deepEqual(JSON.parse(text), {
      mcpServers: {
        'thought-explorer': {
          command: 'node',
          args: [join('/ext', 'dist', 'cli.js'), '--storage-path', '/home/me/.thought-explorer/sessions'],
        },
      },
    });
  });

  test('the npx entry runs the npm package on the same store', () => {
    const text = stdioClientConfiguration('/ext', '/home/me/.thought-explorer/sessions', 'npx');
    assert.deepEqual(JSON.parse(text), {
      mcpServers: {
        'thought-explorer': {
          command: 'npx',
          args: ['-y', 'thought-explorer-mcp', '--storage-path', '/home/me/.thought-explorer/sessions'],
        },
      },
    });
  });

  test('paths with spaces, quotes and backslashes survive as JSON strings', () => {
    const text = stdioClientConfiguration('C:\\Users\\A "B"\\ext', 'C:\\Users\\A "B"\\sessions');
    const parsed = JSON.parse(text) as { mcpServers: Record<string, { args: string[] }> };
    assert.equal(parsed.mcpServers['thought-explorer'].args[2], 'C:\\Users\\A "B"\\sessions');
  });
});
