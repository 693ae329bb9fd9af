// What the person opened in the folded thought diagrams, per diagram: the keys of folded nodes they expanded (click
// or Enter on a folded node) and whether they asked for everything ("Expand all"). Kept in the webview's saved state
// so it survives hide/show, and forgotten when another session is shown. Also remembers which thoughts each drawn node
// holds, so a selected thought inside a folded node can be marked on that node.
import { isFoldKey } from '../src/diagrams/compression';
import type { ThoughtDiagramKind } from '../src/engine/browserSafe/diagramKinds';

export type ExpandedNodes = Partial<Record<ThoughtDiagramKind, string[]>>;

/** The part of the UI state this module owns. */
export interface FoldingState {
  showAll: string[];
  expanded?: ExpandedNodes;
}

/** At most this many keys per diagram are kept: older openings fall off first (each only adds protection). */
const MAX_EXPANDED_KEYS = 200;

export class DiagramFolding {
  private readonly membersByKind = new Map<ThoughtDiagramKind, ReadonlyMap<string, readonly number[]>>();

  constructor(private readonly state: FoldingState) {}

  expanded(kind: ThoughtDiagramKind): string[] {
    return this.state.expanded?.[kind] ?? [];
  }

  showAll(kind: ThoughtDiagramKind): boolean {
    return this.state.showAll.includes(kind);
  }

  /** The person opened something: the button under the diagram offers to fold it back. */
  isOpened(kind: ThoughtDiagramKind): boolean {
    return this.showAll(kind) || this.expanded(kind).length > 0;
  }

  /** Opens a folded node in place; false when `nodeId` is not a folded node. A key given again opens it further. */
  expand(kind: ThoughtDiagramKind, nodeId: string): boolean {
    if (!isFoldKey(nodeId)) return false;
    const expanded = { ...this.state.expanded };
    expanded[kind] = [...this.expanded(kind), nodeId].slice(-MAX_EXPANDED_KEYS);
    this.state.expanded = expanded;
    return true;
  }

  /** The button under the diagram: "Expand all" when nothing is open, otherwise fold everything back. */
  toggle(kind: ThoughtDiagramKind): void {
    const opened = this.isOpened(kind);
    const expanded = { ...this.state.expanded };
    delete expanded[kind];
    this.state.expanded = expanded;
    const others = this.state.showAll.filter((entry) => entry !== kind);
    this.state.showAll.splice(0, this.state.showAll.length, ...(opened ? others : [...others, kind]));
  }

  /** Another session is shown: what was opened belonged to the previous one. */
  forget(): void {
    this.state.expanded = {};
    this.membersByKind.clear();
  }

  remember(kind: ThoughtDiagramKind, members: ReadonlyMap<string, readonly number[]>): void {
    this.membersByKind.set(kind, members);
  }

  /** The thoughts (seqs) each node of the last drawing of `kind` holds, by node id. */
  members(kind: ThoughtDiagramKind): ReadonlyMap<string, readonly number[]> {
    return this.membersByKind.get(kind) ?? new Map();
  }

  /** The node that holds `seq` in the last drawing of `kind`, if any. */
  nodeHolding(kind: ThoughtDiagramKind, seq: number): string | undefined {
    const direct = `t${seq}`;
    const members = this.membersByKind.get(kind);
    if (!members || members.has(direct)) return direct;
    for (const [id, seqs] of members) if (seqs.includes(seq)) return id;
    return direct;
  }
}

/** Validates the saved `expanded` field: only fold keys, per thought diagram. */
export function restoreExpanded(saved: unknown): ExpandedNodes {
  const result: ExpandedNodes = {};
  if (typeof saved !== 'object' || saved === null) return result;
  for (const kind of ['branchTree', 'revisionChain'] as const) {
    const keys = (saved as Record<string, unknown>)[kind];
    if (Array.isArray(keys))
      result[kind] = keys.filter((key): key is string => typeof key === 'string' && isFoldKey(key)).slice(-MAX_EXPANDED_KEYS);
  }
  return result;
}
