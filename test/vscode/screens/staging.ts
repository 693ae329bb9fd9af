// What every screenshot staging shares: its failure said where scripts/screenshots.mjs shows it.

function say(line: string): void {
  // The runner shows only lines carrying its marker (the rest of the console is the workbench's own log).
  console.log(`${process.env.THOUGHT_EXPLORER_TEST_OUTPUT_MARKER ?? ''}${line}`);
}

/** Runs `stage`; a failure is said (with its stack) before it fails the run. */
export async function runStaging(name: string, stage: () => Promise<void>): Promise<void> {
  try {
    await stage();
  } catch (error) {
    say(`${name} staging failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    throw error;
  }
}
