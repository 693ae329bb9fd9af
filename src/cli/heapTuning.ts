// V8 heap tuning for the standalone server process (never the VS Code extension host, whose heap is VS Code's).
// Imported for its effect, first of all the CLI's imports, so that it acts before the other modules load.
//
// It keeps V8's young generation at its starting size. By default V8 doubles the young generation whenever enough
// objects survive its scavenges, and a server that keeps every thought of a session in memory gets there within a few
// thousand thoughts; the larger young generation is memory the process keeps (RSS) without serving anything faster.
// Why at run time rather than as a node flag: `--max-semi-space-size` (the command-line equivalent) only works on the
// node command line, which neither `npx` nor npm's bin shims let a package set portably; the growth factor is read on
// every growth decision, so setting it here takes effect. Measured with bench/compareBuilds.ts: see CHANGELOG.md.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--semi-space-growth-factor=1');
