// The little of markdown-it the tests use (it ships no types; @types/markdown-it is not worth a dependency here).
declare module 'markdown-it' {
  export default class MarkdownIt {
    constructor(options?: { html?: boolean; linkify?: boolean; typographer?: boolean });
    render(text: string): string;
  }
}
