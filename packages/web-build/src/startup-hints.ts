import type { Compilation, Compiler } from '@rspack/core';

/** One chunk group of a build, reduced to what startupFiles needs. */
export interface GroupInfo {
  /** Identifiers of the modules whose import created the group (its origins). */
  origins: string[];
  /** The files of the group's chunks, in order. */
  files: string[];
}

/**
 * The files a front end loads as soon as its entry runs, before anything it renders can ask for
 * more: the chunks of the shared modules the app provides (its react, react-dom, router, …: with
 * `loaded-first` the first app on the page provides them), which MF's asyncStartup loads before
 * the entry runs, and the chunks of any dynamic import of the entry module itself. A browser only finds
 * these once main.js has run; listed in the HTML as preloads, they load in parallel with it.
 * The consume fallbacks (second copies of the same modules) are left out: they load only when
 * no provider is there, which on the app's own page does not happen.
 */
export function startupFiles(groups: readonly GroupInfo[], entryModule: (identifier: string) => boolean): { js: string[]; css: string[] } {
  const files = new Set<string>();
  for (const group of groups) {
    const fromEntry = group.origins.some(entryModule);
    const provided = group.origins.some((origin) => origin.startsWith('provide shared module ('));
    if (fromEntry || provided) for (const file of group.files) files.add(file);
  }
  const all = [...files];
  return { js: all.filter((f) => f.endsWith('.js')), css: all.filter((f) => f.endsWith('.css')) };
}

/** `<link>` preloads for those files; classic scripts (the chunk loader adds `<script>` without crossorigin). */
export function startupHintTags(files: { js: string[]; css: string[] }, publicPath: string): string {
  const href = (file: string) => `${publicPath}${file}`.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return [
    ...files.css.map((file) => `<link rel="preload" as="style" href="${href(file)}">`),
    ...files.js.map((file) => `<link rel="preload" as="script" href="${href(file)}">`),
  ].join('');
}

/**
 * Writes the startup preloads into the build's index.html, before its `<title>` (else its first
 * `<script`): the shell's server sends that file as every page's template and puts the page's
 * own head and hints where the title is, so the shell's scripts, which run first, are asked for
 * first. Only for a fixed publicPath ('/'); with 'auto' (remotes) the files' base is only known
 * in the browser.
 */
export class StartupHintsPlugin {
  constructor(private readonly options: { publicPath: string; html?: string }) {}

  apply(compiler: Compiler): void {
    const htmlName = this.options.html ?? 'index.html';
    compiler.hooks.thisCompilation.tap('StartupHintsPlugin', (compilation: Compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'StartupHintsPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          const asset = compilation.getAsset(htmlName);
          if (!asset) return;
          const entryModules = new Set<string>();
          // The entry's own script first: it is what runs first, and a preload gives it the high
          // priority the other preloads have (a deferred script's own is low).
          const entryFiles: string[] = [];
          for (const entrypoint of compilation.entrypoints.values()) {
            for (const chunk of entrypoint.chunks) {
              entryFiles.push(...[...chunk.files].filter((file) => file.endsWith('.js')));
              for (const module of compilation.chunkGraph.getChunkEntryModulesIterable(chunk)) entryModules.add(module.identifier());
            }
          }
          const groups: GroupInfo[] = compilation.chunkGroups
            .filter((group) => !group.isInitial())
            .map((group) => ({
              origins: group.origins.map((origin) => origin.module?.identifier() ?? ''),
              files: group.chunks.flatMap((chunk) => [...chunk.files]),
            }));
          const files = startupFiles(groups, (id) => entryModules.has(id));
          const tags = startupHintTags({ js: [...entryFiles, ...files.js], css: files.css }, this.options.publicPath);
          if (!tags) return;
          const html = asset.source.source().toString();
          const title = html.indexOf('<title>');
          const at = title >= 0 ? title : html.indexOf('<script');
          const updated = at >= 0 ? html.slice(0, at) + tags + html.slice(at) : html.replace('</head>', `${tags}</head>`);
          compilation.updateAsset(htmlName, new compiler.webpack.sources.RawSource(updated));
        },
      );
    });
  }
}
