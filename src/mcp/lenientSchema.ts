// A tool's `input`: McpServer parses a call with the lenient schema the engine's lenientOf makes from the canonical one
// (src/engine/lenientSchema.ts: how values may be written), and tools/list shows the canonical one.
import type { z } from 'zod';
import { lenientOf } from '../engine/lenientSchema';
import { advertisedAs } from './advertisedSchema';

/** A tool's `input`: parsed leniently, advertised as `canonical`. */
export function toolInput<Shape extends z.ZodRawShape>(canonical: z.ZodObject<Shape>) {
  return advertisedAs(lenientOf(canonical), canonical);
}
