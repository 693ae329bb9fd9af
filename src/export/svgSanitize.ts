// Makes a pre-rendered diagram SVG (from the editor's webview) safe to put in an exported file. The SVG is treated as
// untrusted: it ends up in an <img> (an SVG image never runs scripts, handlers or loads anything), and before that
// everything active is stripped anyway — scripts, event handler attributes, non-fragment links, embedded frames.
// Defence in depth: either measure alone would do.

export class SvgRejectedError extends Error {}

const ACTIVE_ELEMENTS = /<\s*([a-z]+:)?(script|iframe|object|embed|handler|listener)\b[\s\S]*?(<\s*\/\s*([a-z]+:)?\2\s*>|\/\s*>)/gi;
const LEFTOVER_ACTIVE_TAG = /<\s*\/?\s*([a-z]+:)?(script|iframe|object|embed|handler|listener)\b[^>]*>/gi;
const EVENT_ATTRIBUTE = /\s(on[a-z]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi;
const SCRIPT_URL_ATTRIBUTE = /\s[\w:.-]+\s*=\s*("[^"]*(javascript|vbscript|data)\s*:[^"]*"|'[^']*(javascript|vbscript|data)\s*:[^']*')/gi;
const LINK_ATTRIBUTE = /\s((?:xlink:)?href|src|action|formaction)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi;

/** The SVG with everything active removed; throws SvgRejectedError when the text is not an SVG document at all. */
export function sanitizeSvg(svg: string): string {
  const start = svg.search(/<svg[\s>]/i);
  const prologue = svg.slice(0, Math.max(0, start));
  if (start < 0 || !/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*$/.test(prologue)) {
    throw new SvgRejectedError('A pre-rendered diagram must be an SVG document (starting with <svg>).');
  }
  let clean = svg.slice(start);
  // Repeat until stable: removing one construct must not join the pieces of another.
  for (let previous = ''; previous !== clean; ) {
    previous = clean;
    clean = clean.replace(ACTIVE_ELEMENTS, '').replace(LEFTOVER_ACTIVE_TAG, '').replace(EVENT_ATTRIBUTE, '').replace(SCRIPT_URL_ATTRIBUTE, '');
    clean = clean.replace(LINK_ATTRIBUTE, (attribute: string, _name: string, quoted: string) => {
      const value = quoted.replace(/^["']|["']$/g, '').trim();
      // Only in-document references (markers, gradients, <use href="#id">) survive.
      return value.startsWith('#') && !/[\s"'<>]/.test(value) ? attribute : '';
    });
  }
  return clean;
}

/**
 * Mermaid serialises its SVG as HTML (`<br>`, named entities); an SVG image is parsed as XML, so those few HTML-isms
 * are turned into their XML equivalents.
 */
export function svgForImage(svg: string): string {
  let xml = sanitizeSvg(svg).replace(/<br\s*>/gi, '<br/>').replace(/&nbsp;/g, '&#160;');
  if (!/^<svg[^>]*\sxmlns=/i.test(xml)) xml = xml.replace(/^<svg/i, '<svg xmlns="http://www.w3.org/2000/svg"');
  return xml;
}
