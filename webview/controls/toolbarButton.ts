// One toolbar button of the explorer (header, zoom toolbar, search bar): a codicon button from the VS Code Elements
// toolkit with its label as tooltip and accessible name, and a `data-action` tests and the keyboard help refer to.

/** `text`, when given, is shown beside the icon (or alone when `icon` is empty) for a button an icon cannot name. */
export function toolbarButton(icon: string, label: string, action: string, onClick: () => void, text?: string): HTMLElement {
  const button = document.createElement('vscode-toolbar-button');
  if (icon !== '') button.setAttribute('icon', icon);
  if (text !== undefined) button.textContent = text;
  button.setAttribute('label', label);
  button.setAttribute('aria-label', label);
  button.title = label;
  button.dataset.action = action;
  button.addEventListener('click', onClick);
  return button;
}
