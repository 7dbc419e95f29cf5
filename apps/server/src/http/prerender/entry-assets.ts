/** What a built page loads for the app's entry, as the web build's manifest (dist/.vite/manifest.json) names it. */
export interface EntryAssets {
  /** The entry module's script. */
  script: string;
  /** The chunks index.html preloads: its static imports all the way down, and those loaded apart at start. */
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
 * The entry's files from the text of Vite's manifest (`build.manifest: true`) and of index.html:
 * its `index.html` chunk's file; its static imports (transitively); the chunks index.html preloads
 * beside them, each with its static imports (the React DOM renderer, which the entry imports apart
 * to evaluate it in a task of its own: apps/web/vite.config.ts, preloadAtStart); and every
 * stylesheet of those, as root paths. Throws on a manifest without the entry or naming a chunk it
 * does not hold; a preload link naming no chunk of the manifest is left out.
 */
export function entryAssets(manifestJson: string, indexHtml: string): EntryAssets {
  const manifest = JSON.parse(manifestJson) as Record<string, ManifestChunk>;
  const chunk = (key: string) => {
    const found = manifest[key];
    if (!found) throw new Error(`the web build's manifest has no ${key}`);
    return found;
  };
  const entry = chunk('index.html');
  const imported = new Map<string, ManifestChunk>();
  const collect = (key: string) => {
    // A chunk loaded apart imports the entry's exports: the entry is the script, not a preload.
    if (key === 'index.html' || imported.has(key)) return;
    const found = chunk(key);
    imported.set(key, found);
    (found.imports ?? []).forEach(collect);
  };
  (entry.imports ?? []).forEach(collect);
  const keyOfFile = new Map(Object.entries(manifest).map(([key, c]) => [`/${c.file}`, key]));
  for (const [, href] of indexHtml.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)) {
    const key = keyOfFile.get(href!);
    if (key) collect(key);
  }
  const all = [entry, ...imported.values()];
  return {
    script: `/${entry.file}`,
    preloads: [...imported.values()].map((c) => `/${c.file}`),
    stylesheets: [...new Set(all.flatMap((c) => c.css ?? []))].map((file) => `/${file}`),
  };
}
