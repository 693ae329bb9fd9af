// The word-level diff between a thought and its revision, under the revision chain. Built from text nodes only.
import type { ThoughtRecord } from '../../src/engine/model';
import { resolveLinks } from '../../src/diagrams/thoughtLinks';
import { wordDiff } from '../../src/engine/browserSafe/wordDiff';

export class RevisionDiffView {
  readonly element: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly body: HTMLElement;

  constructor() {
    this.element = document.createElement('section');
    this.element.className = 'revision-diff';
    this.element.setAttribute('aria-label', 'Word diff between a thought and its revision');
    this.heading = document.createElement('h2');
    this.body = document.createElement('div');
    this.body.className = 'diff-body';
    this.element.append(this.heading, this.body);
    this.showHint();
  }

  /** Shows the diff for the selected thought: its revision of an earlier one, or its own first revision. */
  show(thoughts: readonly ThoughtRecord[], selectedSeq: number | undefined): void {
    if (selectedSeq === undefined || selectedSeq >= thoughts.length) return this.showHint();
    const { revises } = resolveLinks(thoughts);
    let before = revises[selectedSeq];
    let after: number | undefined = selectedSeq;
    if (before === undefined) {
      // The selected thought was revised later: compare it with its first revision.
      const firstRevision = revises.findIndex((target) => target === selectedSeq);
      before = firstRevision === -1 ? undefined : selectedSeq;
      after = firstRevision === -1 ? undefined : firstRevision;
    }
    if (before === undefined || after === undefined) return this.showHint();
    const older = thoughts[before];
    const newer = thoughts[after];
    this.heading.textContent = `#${older.thoughtNumber} → revision #${newer.thoughtNumber}`;
    const fragment = document.createDocumentFragment();
    for (const segment of wordDiff(older.thought, newer.thought)) {
      const element = document.createElement(segment.kind === 'added' ? 'ins' : segment.kind === 'removed' ? 'del' : 'span');
      element.className = `diff-${segment.kind}`;
      element.textContent = segment.text;
      fragment.append(element);
    }
    this.body.replaceChildren(fragment);
    this.element.dataset.before = String(before);
    this.element.dataset.after = String(after);
  }

  private showHint(): void {
    this.heading.textContent = 'Word diff';
    const hint = document.createElement('p');
    hint.className = 'hint';
    hint.textContent = 'Select a revision (or a revised thought) to compare it word by word.';
    this.body.replaceChildren(hint);
    delete this.element.dataset.before;
    delete this.element.dataset.after;
  }
}
