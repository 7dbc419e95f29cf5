/** What a built page loads for the app's entry, as the web build's manifest (dist/.vite/manifest.json) names it. */
export interface EntryAssets {
  /** The entry module's script. */
  script: string;
  /** The chunks it imports statically, all the way down (index.html preloads them). */
  preloads: string[];
  /** The stylesheets of the entry and of those chunks (index.html links them). */
  stylesheets: string[];
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * The entry's files from the text of Vite's manifest (`build.manifest: true`): its `index.html`
 * chunk's file, the files of its static imports (transitively) and every stylesheet of those,
 * as root paths. Throws on a manifest without the entry or naming a chunk it does not hold.
 */
export function entryAssets(manifestJson: string): EntryAssets {
  const manifest = JSON.parse(manifestJson) as Record<string, ManifestChunk>;
  const chunk = (key: string) => {
    const found = manifest[key];
    if (!found) throw new Error(`the web build's manifest has no ${key}`);
    return found;
  };
  const entry = chunk('index.html');
  const imported = new Map<string, ManifestChunk>();
  const collect = (key: string) => {
    if (imported.has(key)) return;
    const found = chunk(key);
    imported.set(key, found);
    (found.imports ?? []).forEach(collect);
  };
  (entry.imports ?? []).forEach(collect);
  const all = [entry, ...imported.values()];
  return {
    script: `/${entry.file}`,
    preloads: [...imported.values()].map((c) => `/${c.file}`),
    stylesheets: [...new Set(all.flatMap((c) => c.css ?? []))].map((file) => `/${file}`),
  };
}
