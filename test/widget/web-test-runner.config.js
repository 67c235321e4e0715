// @ts-check
/**
 * web-test-runner for the widget: real Chromium (Debian's /usr/bin/chromium, WebGL through
 * SwiftShader), mocha in the page. Each test file is served as ONE esbuild bundle: Pixi ships
 * CommonJS dependencies that plain ES-module serving cannot load, and our sources are TypeScript
 * with `.ts` imports. Bundling per test file keeps every file independent and needs no import map.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromeLauncher } from '@web/test-runner-chrome';
import { embedHost } from './embed-host.ts';
import { pixiWebGl } from '../../scripts/pixi-webgl.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Serves `*.test.ts` (and any other `.ts` under test/widget) as a bundled ES module. */
function esbuildBundlePlugin() {
  return {
    name: 'esbuild-bundle-per-test',
    /** @param {import('@web/dev-server-core').Context} context */
    async serve(context) {
      if (!context.path.endsWith('.ts') || !context.path.startsWith('/test/widget/')) return undefined;
      const entry = path.join(root, decodeURIComponent(context.path));
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        write: false,
        sourcemap: false,
        // The test runner's own browser modules (server commands) are served by the runner itself.
        external: ['/__web-dev-server__*'],
        define: { 'process.env.NODE_ENV': '"test"' },
        // The scene's Pixi as the widget's bundle has it (scripts/pixi-webgl.ts): the batch shader without WGSL.
        plugins: [pixiWebGl],
        logLevel: 'silent',
      });
      const file = result.outputFiles[0];
      return { body: file ? file.text : '', type: 'js' };
    },
  };
}

export default {
  rootDir: root,
  files: ['test/widget/**/*.test.ts'],
  nodeResolve: false,
  // Two cores and a software GPU: one page at a time keeps WebGL timing sane.
  concurrency: 1,
  concurrentBrowsers: 1,
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 120_000,
  testFramework: { config: { timeout: 15_000 } },
  plugins: [esbuildBundlePlugin()],
  // The embedding tests' host pages (strict CSP header) and the built widget's API (fake Worker).
  middleware: [embedHost(root)],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: CHROMIUM_ARGS,
      },
    }),
  ],
};
