// Command-line parsing of thought-explorer-mcp: every command and flag, and a clear UsageError for anything else.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError, parseCliArguments } from '../../src/cli/options';

describe('parseCliArguments', () => {
  it('reads --reply-detail for serving, and refuses an unknown level or another command', () => {
    assert.deepEqual(parseCliArguments(['--reply-detail', 'full']), { kind: 'serve', replyDetail: 'full', limits: {} });
    assert.deepEqual(parseCliArguments(['--reply-detail=standard', '--http']), {
      kind: 'serve',
      http: { port: 0, allowedOrigins: [] },
      replyDetail: 'standard',
      limits: {},
    });
    const cases: [string[], RegExp][] = [
      [['--reply-detail', 'verbose'], /^--reply-detail must be one of compact, standard, full, got "verbose"$/],
      [['--reply-detail'], /--reply-detail needs a value/],
      [['export', 'x', '--format', 'md', '--reply-detail', 'full'], /--reply-detail is for serving/],
    ];
    for (const [argv, message] of cases)
      assert.throws(
        () => parseCliArguments(argv),
        (error: unknown) => error instanceof UsageError && message.test(error.message),
        argv.join(' '),
      );
  });

  it('serves stdio by default and HTTP with --http, with or without a port', () => {
    assert.deepEqual(parseCliArguments([]), { kind: 'serve', limits: {} });
    assert.deepEqual(parseCliArguments(['--http']), { kind: 'serve', http: { port: 0, allowedOrigins: [] }, limits: {} });
    assert.deepEqual(parseCliArguments(['--http', '8123']), { kind: 'serve', http: { port: 8123, allowedOrigins: [] }, limits: {} });
    assert.deepEqual(parseCliArguments(['--http=0', '-s', '/tmp/x']), {
      kind: 'serve',
      http: { port: 0, allowedOrigins: [] },
      storagePath: '/tmp/x',
      limits: {},
    });
  });

  it('reads --allow-origin (repeatable) and --idle-timeout for --http', () => {
    assert.deepEqual(
      parseCliArguments(['--http', '--allow-origin', 'https://a.example', '--allow-origin=http://localhost:6274', '--idle-timeout', '90']),
      {
        kind: 'serve',
        http: { port: 0, allowedOrigins: ['https://a.example', 'http://localhost:6274'], sessionIdleSeconds: 90 },
        limits: {},
      },
    );
    const cases: [string[], RegExp][] = [
      [['--allow-origin', 'https://a.example'], /belong to --http/],
      [['--idle-timeout', '5'], /belong to --http/],
      [['--stateless'], /belong to --http/],
      [['--http', '--allow-origin', '*'], /exact origin/],
      [['--http', '--allow-origin', 'null'], /exact origin/],
      [['--http', '--allow-origin', 'https://a.example/path'], /no path/],
      [['--http', '--idle-timeout', '0'], /at least 1/],
      [['--http', '--idle-timeout', '9999999'], /at most 2147483 seconds/],
    ];
    for (const [argv, message] of cases)
      assert.throws(
        () => parseCliArguments(argv),
        (error: unknown) => error instanceof UsageError && message.test(error.message),
        argv.join(' '),
      );
  });

  it('reads the storage path and the limits', () => {
    assert.deepEqual(
      parseCliArguments(['--storage-path', 'dir', '--max-thought-length', '500', '--max-thoughts=20', '--max-sessions-in-memory', '3']),
      {
        kind: 'serve',
        storagePath: 'dir',
        limits: { maxThoughtLength: 500, maxThoughtsPerSession: 20, maxSessionsInMemory: 3 },
      },
    );
  });

  it('parses export and import', () => {
    assert.deepEqual(parseCliArguments(['export', 'abc', '--format', 'html', '--out', 'f.html', '-s', 'd']), {
      kind: 'export',
      sessionId: 'abc',
      format: 'html',
      out: 'f.html',
      storagePath: 'd',
      limits: {},
    });
    assert.deepEqual(parseCliArguments(['import', 'file.json']), { kind: 'import', file: 'file.json', limits: {} });
    for (const name of ['sequentialthinking-plus', 'json-seed001']) {
      assert.equal((parseCliArguments(['export', 'abc', '--format', name]) as { format?: string }).format, 'sequentialthinking-plus', name);
    }
  });

  it('reads --otlp-endpoint and --otlp-include-text for serving', () => {
    assert.deepEqual(parseCliArguments(['--otlp-endpoint', 'http://127.0.0.1:4318', '--otlp-include-text']), {
      kind: 'serve',
      otlp: { endpoint: 'http://127.0.0.1:4318', includeText: true },
      limits: {},
    });
    assert.deepEqual(parseCliArguments(['--otlp-include-text']), { kind: 'serve', otlp: { includeText: true }, limits: {} });
    const cases: [string[], RegExp][] = [
      [
        ['--otlp-endpoint', 'ftp://collector'],
        /^--otlp-endpoint: the OTLP endpoint must be an http:\/\/ or https:\/\/ URL, got "ftp:\/\/collector"$/,
      ],
      [['--otlp-endpoint'], /--otlp-endpoint needs a value/],
      [['export', 'x', '--format', 'otlp', '--otlp-endpoint', 'http://h:4318'], /are for serving/],
    ];
    for (const [argv, message] of cases)
      assert.throws(
        () => parseCliArguments(argv),
        (error: unknown) => error instanceof UsageError && message.test(error.message),
        argv.join(' '),
      );
  });

  it('answers help and version first', () => {
    assert.deepEqual(parseCliArguments(['--help', '--bogus']), { kind: 'help' });
    assert.deepEqual(parseCliArguments(['-v']), { kind: 'version' });
  });

  it('reads --tools as a comma list of the tools to advertise', () => {
    assert.deepEqual(parseCliArguments(['--tools', 'sequentialthinking']), { kind: 'serve', tools: ['sequentialthinking'], limits: {} });
    assert.deepEqual(parseCliArguments(['--tools=deliberate, sequentialthinking']), {
      kind: 'serve',
      tools: ['sequentialthinking', 'deliberate'],
      limits: {},
    });
    assert.equal((parseCliArguments([]) as { tools?: unknown }).tools, undefined);
  });

  it('refuses what it does not understand, saying what is wrong', () => {
    const cases: [string[], RegExp][] = [
      [['--bogus'], /Unknown option --bogus/],
      [['--http', '70000'], /port must be 0-65535/],
      [['--max-thoughts', '0'], /--max-thoughts must be a whole number of at least 1/],
      [['--max-thoughts', 'many'], /--max-thoughts must be a whole number/],
      [['--storage-path'], /--storage-path needs a value/],
      [['export', 'abc'], /export needs --format/],
      [['export', '--format', 'md'], /exactly one session id/],
      [['export', 'abc', '--format', 'pdf'], /Unknown export format "pdf"/],
      [['import'], /exactly one file/],
      [['frobnicate'], /Unknown command "frobnicate"/],
      [['export', 'abc', '--format', 'md', '--http'], /--http is for serving/],
      [['--format', 'md'], /belong to the export command/],
      [
        ['--tools', 'sequentialthinking,think'],
        /--tools: unknown tool "think"; the tools are sequentialthinking, thinking_sessions, deliberate/,
      ],
      [['--tools', ','], /--tools: name at least one tool/],
      [['export', 'abc', '--format', 'md', '--tools', 'deliberate'], /--tools is for serving/],
    ];
    for (const [argv, expected] of cases)
      assert.throws(
        () => parseCliArguments(argv),
        (error: unknown) => error instanceof UsageError && expected.test(error.message),
        argv.join(' '),
      );
  });
});
