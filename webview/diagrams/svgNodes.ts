// Finding diagram nodes in Mermaid's SVG by the ids our sources gave them (`t12`, `s_action_95_planning`). Mermaid
// keeps the id inside the element id (`<svgId>-flowchart-<nodeId>-<n>`) and, in some versions, in `data-id`.
const FLOWCHART_NODE = /-flowchart-(.+)-\d+$/;

/** Our node id of a Mermaid node group, or undefined for anything else. */
export function diagramNodeId(node: Element): string | undefined {
  const dataId = node.getAttribute('data-id');
  if (dataId) return dataId;
  return FLOWCHART_NODE.exec(node.id)?.[1];
}

/** Every node group of a drawn flowchart, by our node id. */
export function nodesById(svg: SVGSVGElement): Map<string, SVGGElement> {
  const nodes = new Map<string, SVGGElement>();
  for (const node of svg.querySelectorAll<SVGGElement>('g.node')) {
    const id = diagramNodeId(node);
    if (id !== undefined) nodes.set(id, node);
  }
  return nodes;
}

/** The node id under a click target, if it is inside a node. */
export function nodeIdAt(target: EventTarget | null): string | undefined {
  if (!(target instanceof Element)) return undefined;
  const node = target.closest('g.node');
  return node ? diagramNodeId(node) : undefined;
}
