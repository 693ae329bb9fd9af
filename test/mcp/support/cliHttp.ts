// The CLI serving Streamable HTTP (`--http 0`, plus any flags): its URL and bearer token, read from stderr.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, tempDir } from './clients';
import { waitFor } from './waitFor';

export interface CliHttpServer {
  url: string;
  token: string;
  storageDir: string;
  stderr(): string;
  stop(): Promise<void>;
}

export async function startCliHttp(extraArgs: string[] = [], storageDir = tempDir()): Promise<CliHttpServer> {
  const child: ChildProcess = spawn(process.execPath, [CLI, '--http', '0', '--storage-path', storageDir, ...extraArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(() => /bearer token: \S+/.test(stderr) || child.exitCode !== null, 'the CLI printing its URL and token', 20_000);
  const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
  const token = /bearer token: (\S+)/.exec(stderr)?.[1];
  if (!url || !token) throw new Error(`the CLI did not start an HTTP server:\n${stderr}`);
  return {
    url,
    token,
    storageDir,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
