// The recommended tools of a thought (extra.qa, read through src/shared/qaView) as chips under its card: the tool's
// name and its confidence, marked when it is a generic capability (no tool list was known) or a tool the known list
// lacks. Tool names come from agents and imported files: they go in through textContent only.
import type { ThoughtRecord } from '../../src/engine/model';
import { qaViewOf } from '../../src/shared/qaView';

/** The chips of `thought`, or undefined when it has no recommended tools. */
export function qaToolChips(thought: ThoughtRecord): HTMLElement | undefined {
  if (thought.extra?.qa === undefined) return undefined;
  const view = qaViewOf(thought);
  if (!view || view.tools.length === 0) return undefined;
  const list = document.createElement('ul');
  list.className = 'qa-tools';
  list.setAttribute('aria-label', view.step ? `Recommended tools for: ${view.step}` : 'Recommended tools');
  for (const tool of view.tools) {
    const chip = document.createElement('li');
    chip.className = 'tool-chip';
    if (tool.generic) chip.classList.add('generic');
    if (tool.unavailable) chip.classList.add('unavailable');
    const percent = Math.round(tool.confidence * 100);
    chip.dataset.confidence = tool.confidence.toFixed(2);
    chip.style.setProperty('--confidence', `${percent}%`);
    const name = document.createElement('span');
    name.className = 'tool-name';
    name.textContent = tool.name;
    const confidence = document.createElement('span');
    confidence.className = 'tool-confidence';
    confidence.textContent = `${percent}%`;
    chip.append(name, confidence);
    const notes = [`confidence ${tool.confidence.toFixed(2)}`];
    if (tool.generic) notes.push('a kind of tool: no tool list was known');
    if (tool.unavailable) notes.push('not among the available tools');
    chip.title = `${tool.name}: ${notes.join('; ')}`;
    list.append(chip);
  }
  return list;
}
