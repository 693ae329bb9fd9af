// One toolbar button of the explorer (header, zoom toolbar, search bar): a codicon button from the VS Code Elements
// toolkit with its label as tooltip and accessible name, and a `data-action` tests and the keyboard help refer to.

export function toolbarButton(icon: string, label: string, action: string, onClick: () => void): HTMLElement {
  const button = document.createElement('vscode-toolbar-button');
  button.setAttribute('icon', icon);
  button.setAttribute('label', label);
  button.setAttribute('aria-label', label);
  button.title = label;
  button.dataset.action = action;
  button.addEventListener('click', onClick);
  return button;
}
