// Makes a pre-rendered diagram SVG (from the editor's webview) safe to put in an exported file. The SVG is treated as
// untrusted: it ends up in an <img> (an SVG image never runs scripts or handlers and loads nothing), and before that
// it is rebuilt tag by tag keeping only what is inert — no scripts, frames or embeds, no event handler attributes, no
// link that leaves the document, no script/data URL anywhere. Defence in depth: either measure alone would do.
// A tokenizer rather than whole-text regexes, so text content (a thought that *mentions* `onerror=`) is never touched
// and the output stays well-formed XML, which an SVG image requires.

export class SvgRejectedError extends Error {}

/** Elements dropped together with everything inside them. */
const DROPPED_ELEMENTS = new Set([
  'script',
  'iframe',
  'object',
  'embed',
  'handler',
  'listener',
  'frame',
  'frameset',
  'applet',
  'base',
  'meta',
  'link',
]);
/** HTML void elements that Mermaid's HTML serialisation leaves unclosed inside foreignObject. */
const VOID_ELEMENTS = new Set(['br', 'img', 'hr', 'input', 'wbr', 'col', 'area', 'source', 'track', 'param']);
const LINK_ATTRIBUTES = new Set([
  'href',
  'xlink:href',
  'src',
  'action',
  'formaction',
  'srcdoc',
  'data',
  'codebase',
  'background',
  'poster',
]);

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^\s=/>"']+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']+))?)*)\s*(\/?)>/y;
const ATTRIBUTE = /\s+([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>"']+))?/g;

/** The SVG rebuilt with only inert content; throws SvgRejectedError when the text is not an SVG document. */
export function sanitizeSvg(svg: string): string {
  const start = svg.search(/<svg[\s>]/i);
  const prologue = svg.slice(0, Math.max(0, start));
  if (start < 0 || !/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*$/.test(prologue)) {
    throw new SvgRejectedError('A pre-rendered diagram must be an SVG document (starting with <svg>).');
  }
  const out: string[] = [];
  const open: string[] = [];
  let dropping: { name: string; depth: number } | undefined;
  let position = start;
  while (position < svg.length) {
    const next = svg.indexOf('<', position);
    const text = svg.slice(position, next < 0 ? svg.length : next);
    if (!dropping && text !== '') out.push(xmlText(text));
    if (next < 0) break;
    position = next;

    if (svg.startsWith('<!--', position)) {
      const end = svg.indexOf('-->', position + 4);
      position = end < 0 ? svg.length : end + 3;
      continue;
    }
    if (svg.startsWith('<![CDATA[', position)) {
      const end = svg.indexOf(']]>', position);
      const stop = end < 0 ? svg.length : end + 3;
      if (!dropping) out.push(svg.slice(position, stop));
      position = stop;
      continue;
    }
    if (svg.startsWith('<?', position) || svg.startsWith('<!', position)) {
      const end = svg.indexOf('>', position);
      position = end < 0 ? svg.length : end + 1;
      continue;
    }
    TAG.lastIndex = position;
    const tag = TAG.exec(svg);
    if (!tag) {
      // A stray "<" that starts no tag: keep it as text.
      if (!dropping) out.push('&lt;');
      position++;
      continue;
    }
    position = TAG.lastIndex;
    const [, closing, rawName, attributes, selfClosing] = tag;
    const name = rawName.toLowerCase();
    const localName = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;

    if (dropping) {
      if (localName === dropping.name && !selfClosing) dropping.depth += closing ? -1 : 1;
      if (dropping.depth === 0) dropping = undefined;
      continue;
    }
    if (DROPPED_ELEMENTS.has(localName)) {
      if (!closing && !selfClosing && !VOID_ELEMENTS.has(localName)) dropping = { name: localName, depth: 1 };
      continue;
    }
    if (closing) {
      // Close only what is open, so the result stays well-formed whatever the input.
      const index = open.lastIndexOf(rawName);
      if (index < 0) continue;
      while (open.length > index) out.push(`</${open.pop()}>`);
      continue;
    }
    const kept = inertAttributes(attributes);
    if (selfClosing || VOID_ELEMENTS.has(localName)) {
      out.push(`<${rawName}${kept}/>`);
    } else {
      out.push(`<${rawName}${kept}>`);
      open.push(rawName);
    }
  }
  while (open.length > 0) out.push(`</${open.pop()}>`);
  return withXmlCharacters(out.join(''));
}

// Characters XML 1.0 forbids even as references: control characters (thought text may hold them, and Mermaid draws
// them into labels), lone surrogates, U+FFFE/U+FFFF. One of them makes the whole SVG image fail to load.
const NON_XML_CHARACTER =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const CHARACTER_REFERENCE = /&#(?:x([0-9A-Fa-f]+)|(\d+));/g;

/** Replaces characters (raw or as references) that XML does not allow with U+FFFD, so the SVG stays well-formed. */
function withXmlCharacters(xml: string): string {
  return xml
    .replace(NON_XML_CHARACTER, '\ufffd')
    .replace(CHARACTER_REFERENCE, (reference, hex: string | undefined, decimal: string | undefined) => {
      const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal);
      const allowed =
        code === 0x9 ||
        code === 0xa ||
        code === 0xd ||
        (code >= 0x20 && code <= 0xd7ff) ||
        (code >= 0xe000 && code <= 0xfffd) ||
        (code >= 0x10000 && code <= 0x10ffff);
      return allowed ? reference : '&#xFFFD;';
    });
}

/** Attributes that can do nothing: no handlers, no links out of the document, no script or data URLs. */
function inertAttributes(attributes: string): string {
  let kept = '';
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    const name = match[1];
    const lower = name.toLowerCase();
    const raw = match[2] ?? '""';
    const value = /^["']/.test(raw) ? raw.slice(1, -1) : raw;
    if (lower.startsWith('on')) continue;
    const decoded = decodeEntities(value)
      .replace(/[\s\u0000-\u001f]+/g, '')
      .toLowerCase();
    if (/(javascript|vbscript|data|livescript):/.test(decoded)) continue;
    if (LINK_ATTRIBUTES.has(lower) && !/^#[\w:.-]*$/.test(value.trim())) continue;
    // url(...) may only point inside the document (markers, gradients): url(#id).
    if (/url\(\s*['"]?(?!#)/.test(decoded)) continue;
    // Mermaid sometimes writes attribute values as HTML allows: quote them and escape "<" and bare "&" for XML.
    const xmlValue = value
      .replace(/&(?![A-Za-z]+;|#\d+;|#x[0-9A-Fa-f]+;)/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/"/g, '&quot;');
    kept += ` ${name}="${xmlValue.replace(/&nbsp;/g, '&#160;')}"`;
  }
  return kept;
}

function xmlText(text: string): string {
  // HTML serialisation may leave named entities XML does not know, and a bare "&" or ">" is harmless but "&" must be
  // an entity in XML.
  return text.replace(/&nbsp;/g, '&#160;').replace(/&(?!(?:amp|lt|gt|quot|apos);|#\d+;|#x[0-9A-Fa-f]+;)/g, '&amp;');
}

function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, decimal: string) => String.fromCodePoint(Number(decimal) % 0x110000))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;|&newline;/gi, '');
}

/** The sanitised SVG as a standalone XML image document. */
export function svgForImage(svg: string): string {
  const xml = sanitizeSvg(svg);
  return /^<svg[^>]*\sxmlns=/i.test(xml) ? xml : xml.replace(/^<svg/i, '<svg xmlns="http://www.w3.org/2000/svg"');
}
