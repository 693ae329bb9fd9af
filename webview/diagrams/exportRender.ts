// The script inlined into an exported HTML file: draws each diagram whose Mermaid source the exporter left in a
// `<pre class="mermaid-src">` as SVG, with the bundled Mermaid in strict security mode. The file's CSP admits only
// this script (by hash), so nothing else — and nothing from thought text — can run. Without scripts the sources
// stay readable as text.
import mermaid from 'mermaid';
import { MERMAID_BASE_CONFIG } from '../../src/diagrams/diagramLayout';
import { diagramSchemeCss } from '../../src/diagrams/schemeStyle';
import { MERMAID_MAX_EDGES, MERMAID_MAX_TEXT_SIZE } from '../../src/diagrams/diagramWindow';
import { errorMessage } from '../../src/engine/browserSafe/errorMessage';

mermaid.initialize({
  ...MERMAID_BASE_CONFIG,
  // Colours come from diagramSchemeCss, which follows the page's scheme as it changes; the theme only lays out.
  theme: 'default',
  // The exporter already keeps sources within these limits; stating them keeps both sides in step.
  maxTextSize: MERMAID_MAX_TEXT_SIZE,
  maxEdges: MERMAID_MAX_EDGES,
});

async function renderAll(): Promise<void> {
  const started = performance.now();
  const sources = Array.from(document.querySelectorAll<HTMLPreElement>('pre.mermaid-src'));
  let index = 0;
  for (const source of sources) {
    const figure = source.closest('figure');
    const figureStarted = performance.now();
    try {
      const id = `export-diagram-${index++}`;
      const { svg } = await mermaid.render(id, source.textContent ?? '');
      const holder = document.createElement('div');
      holder.className = 'diagram-svg';
      holder.innerHTML = svg;
      const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
      style.textContent = diagramSchemeCss(id);
      holder.querySelector('svg')?.append(style);
      source.hidden = true;
      source.after(holder);
      figure?.setAttribute('data-rendered', 'true');
      figure?.setAttribute('data-render-ms', String(Math.round(performance.now() - figureStarted)));
    } catch (error) {
      // Keep the source visible and say what failed; never leave an empty figure.
      const note = document.createElement('p');
      note.className = 'render-error';
      note.textContent = `This diagram could not be drawn: ${errorMessage(error)}`;
      source.before(note);
      figure?.setAttribute('data-rendered', 'error');
    }
  }
  // How long drawing took, for the tests and anyone curious about a large export.
  document.documentElement.setAttribute('data-render-ms', String(Math.round(performance.now() - started)));
  document.documentElement.setAttribute('data-diagrams', 'done');
}

void renderAll();
