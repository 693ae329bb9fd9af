// `node scripts/nlsManifest.mjs [--check]`: moves every user-visible literal string of package.json (titles, names,
// descriptions, settings' texts, walkthrough steps, chat participant texts, …) into package.nls.json and puts its
// `%key%` placeholder in the manifest, so a translation is one `package.nls.<locale>.json` file. Keys are stable (made
// from where the string sits: `commands.<id>.title`, `settings.<key>.markdownDescription`, …), the run is idempotent,
// and a literal that changed since the last run replaces its key's text. --check only lists the literals left (exit 1
// if any). The pure functions are exported for test/unit/nlsManifest.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PLACEHOLDER = /^%[^%\s]+%$/;

/** "Thought Explorer" → "thoughtExplorer": the key of a shared value such as a command category. */
function camelSlug(text) {
  const words = text
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ');
  return words
    .map((word, index) => (index === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()))
    .join('');
}

/**
 * Every user-visible string slot of the manifest: `{ holder, field, key }`, where holder[field] is the string. Unknown
 * contribution points are not walked: add their slots here when one with user-visible text is used.
 */
export function localizableSlots(manifest) {
  const slots = [];
  const add = (holder, field, key) => {
    if (holder && typeof holder[field] === 'string') slots.push({ holder, field, key });
  };
  const list = (value) => (Array.isArray(value) ? value : []);
  const idOf = (entry, fallback) => entry.id ?? entry.command ?? entry.name ?? fallback;
  add(manifest, 'displayName', 'displayName');
  add(manifest, 'description', 'description');
  const contributes = manifest.contributes ?? {};

  for (const [place, containers] of Object.entries(contributes.viewsContainers ?? {})) {
    for (const container of list(containers)) add(container, 'title', `viewsContainers.${place}.${container.id}.title`);
  }
  for (const views of Object.values(contributes.views ?? {})) {
    for (const view of list(views)) {
      add(view, 'name', `views.${view.id}.name`);
      add(view, 'contextualTitle', `views.${view.id}.contextualTitle`);
    }
  }
  const welcomeCount = new Map();
  for (const welcome of list(contributes.viewsWelcome)) {
    const seen = welcomeCount.get(welcome.view) ?? 0;
    welcomeCount.set(welcome.view, seen + 1);
    add(welcome, 'contents', `viewsWelcome.${welcome.view}${seen > 0 ? `.${seen}` : ''}.contents`);
  }
  for (const command of list(contributes.commands)) {
    add(command, 'title', `commands.${command.command}.title`);
    add(command, 'shortTitle', `commands.${command.command}.shortTitle`);
    if (typeof command.category === 'string') {
      // One key per category text, shared by every command in it.
      add(
        command,
        'category',
        PLACEHOLDER.test(command.category) ? command.category.slice(1, -1) : `category.${camelSlug(command.category)}`,
      );
    }
  }
  for (const submenu of list(contributes.submenus)) add(submenu, 'label', `submenus.${submenu.id}.label`);
  const configurations = Array.isArray(contributes.configuration) ? contributes.configuration : [contributes.configuration].filter(Boolean);
  configurations.forEach((configuration, index) => {
    add(configuration, 'title', configurations.length > 1 ? `configuration.${configuration.id ?? index}.title` : 'configuration.title');
    for (const [name, property] of Object.entries(configuration.properties ?? {})) {
      for (const field of ['description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage']) {
        add(property, field, `settings.${name}.${field}`);
      }
      for (const field of ['enumDescriptions', 'markdownEnumDescriptions', 'enumItemLabels']) {
        list(property[field]).forEach((_, position) => {
          const value = Array.isArray(property.enum) ? property.enum[position] : undefined;
          add(property[field], position, `settings.${name}.${field}.${value ?? position}`);
        });
      }
    }
  });
  for (const walkthrough of list(contributes.walkthroughs)) {
    const base = `walkthroughs.${walkthrough.id}`;
    add(walkthrough, 'title', `${base}.title`);
    add(walkthrough, 'description', `${base}.description`);
    for (const step of list(walkthrough.steps)) {
      add(step, 'title', `${base}.steps.${step.id}.title`);
      add(step, 'description', `${base}.steps.${step.id}.description`);
      add(step.media, 'altText', `${base}.steps.${step.id}.altText`);
    }
  }
  for (const participant of list(contributes.chatParticipants)) {
    add(participant, 'fullName', `chatParticipants.${participant.id}.fullName`);
    add(participant, 'description', `chatParticipants.${participant.id}.description`);
    for (const command of list(participant.commands))
      add(command, 'description', `chatParticipants.${participant.id}.commands.${command.name}.description`);
  }
  for (const provider of list(contributes.mcpServerDefinitionProviders))
    add(provider, 'label', `mcpServerDefinitionProviders.${provider.id}.label`);
  for (const tool of list(contributes.languageModelTools)) {
    for (const field of ['displayName', 'userDescription', 'modelDescription'])
      add(tool, field, `languageModelTools.${idOf(tool)}.${field}`);
  }
  return slots;
}

/** The slots that still hold a literal (not a `%key%` placeholder), as `key: text` pairs. */
export function literalStrings(manifest) {
  return localizableSlots(manifest)
    .filter(({ holder, field }) => !PLACEHOLDER.test(holder[field]))
    .map(({ holder, field, key }) => ({ key, text: holder[field] }));
}

/**
 * Moves the manifest's literals into the nls table; returns the new manifest and table (inputs untouched) and the keys
 * moved. A key already in the table with other text takes the literal's text (the manifest was edited since).
 */
export function convertManifest(manifest, nls) {
  const nextManifest = structuredClone(manifest);
  const nextNls = { ...nls };
  const moved = [];
  for (const { holder, field, key } of localizableSlots(nextManifest)) {
    const text = holder[field];
    if (PLACEHOLDER.test(text)) continue;
    nextNls[key] = text;
    holder[field] = `%${key}%`;
    moved.push(key);
  }
  return { manifest: nextManifest, nls: nextNls, moved };
}

/** `%key%` placeholders of the manifest whose key the table lacks (VS Code would show the raw placeholder). */
export function missingKeys(manifest, nls) {
  return localizableSlots(manifest)
    .map(({ holder, field }) => holder[field])
    .filter((text) => PLACEHOLDER.test(text) && !(text.slice(1, -1) in nls))
    .map((text) => text.slice(1, -1));
}

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const manifestPath = join(repo, 'package.json');
  const nlsPath = join(repo, 'package.nls.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  let nls = {};
  try {
    nls = JSON.parse(readFileSync(nlsPath, 'utf8'));
  } catch {
    // No table yet: this run creates it.
  }
  if (process.argv.includes('--check')) {
    const literals = literalStrings(manifest);
    for (const { key, text } of literals) console.log(`${key}: ${JSON.stringify(text)}`);
    const missing = missingKeys(manifest, nls);
    for (const key of missing) console.log(`%${key}% has no text in package.nls.json`);
    process.exit(literals.length + missing.length > 0 ? 1 : 0);
  }
  const result = convertManifest(manifest, nls);
  writeFileSync(manifestPath, `${JSON.stringify(result.manifest, null, 2)}\n`);
  writeFileSync(nlsPath, `${JSON.stringify(result.nls, null, 2)}\n`);
  console.log(
    result.moved.length === 0
      ? 'package.json has no literal string left.'
      : `Moved ${result.moved.length} strings to package.nls.json:\n  ${result.moved.join('\n  ')}`,
  );
}
