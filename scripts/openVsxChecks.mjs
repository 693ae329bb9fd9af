// The checks Open VSX's CLI (`ovsx` 1.3.0) makes before a publish that need no network: the manifest names a publisher,
// a name and a version (its validateManifest), and the extension has a license (its isLicenseOk: a `license` field or
// a LICENSE file). Everything else ovsx offers needs the registry (`publish`, `verify` against the registry's key) or a
// signature file (`verify-signature`), so it cannot run here. ovsx is not a dependency: these are the same rules,
// plus the repository link Open VSX shows and checks for. Returns the lines to print; throws on a failure.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function openVsxProblems(manifest, hasLicenseFile) {
  const problems = [];
  for (const field of ['publisher', 'name', 'version']) {
    if (typeof manifest[field] !== 'string' || manifest[field] === '') problems.push(`Missing required field '${field}'.`);
  }
  if (!manifest.license && !hasLicenseFile) problems.push('No license: add a "license" field or a LICENSE file.');
  const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (!repository)
    problems.push('No "repository": Open VSX links the extension to its source (ovsx refuses without --allow-missing-repository).');
  return problems;
}

export function openVsxChecks(repo) {
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  const hasLicenseFile = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].some((name) => existsSync(join(repo, name)));
  const problems = openVsxProblems(manifest, hasLicenseFile);
  if (problems.length > 0) throw new Error(`Open VSX would refuse this extension:\n  ${problems.join('\n  ')}`);
  return [
    `Open VSX offline checks passed (publisher ${manifest.publisher}, name ${manifest.name}, version ${manifest.version}, license ${manifest.license ?? 'file'}, repository).`,
  ];
}
