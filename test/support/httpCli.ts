// The built CLI serving Streamable HTTP (`node dist/cli.js --http 0`, plus any flags) as a child process: its URL and
// the bearer token it prints to stderr. Shared by the MCP suite and the attack suite.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join, resolve } from 'node:path';

export const CLI = join(resolve(__dirname, '..', '..'), 'dist', 'cli.js');

export interface HttpCli {
  url: string;
  token: string;
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  stop(): Promise<void>;
}

/** `node dist/cli.js --http 0`: waits for the URL and bearer token it prints to stderr. */
export async function startHttpCli(storageDir: string, extraArgs: string[] = []): Promise<HttpCli> {
  const child = spawn(process.execPath, [CLI, '--http', '0', '--storage-path', storageDir, ...extraArgs], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const ready = new Promise<{ url: string; token: string }>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`the HTTP server did not start: ${stderr}`)), 15_000);
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-20_000);
      const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      const token = /bearer token: (\S+)/.exec(stderr)?.[1];
      if (url && token) {
        clearTimeout(timer);
        resolvePromise({ url, token });
      }
    });
    child.once('exit', (code) => reject(new Error(`the HTTP server exited with ${code}: ${stderr}`)));
  });
  const { url, token } = await ready;
  const exited = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()));
  return {
    url,
    token,
    child,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
