/**
 * The scene's only door to PixiJS: the classes the table draws with, taken from Pixi's own ES
 * modules instead of the `pixi.js` barrel, and a WebGL renderer made of only the systems and pipes
 * the table uses.
 *
 * Why not `import { … } from 'pixi.js'`: the barrel registers the browser environment, whose
 * `import('./browserAll')` — like autoDetectRenderer's `import()` of the WebGPU, WebGL and canvas
 * renderers — is a split point in our esbuild build (splitting is on). esbuild then links every
 * module those dynamic chunks share with the barrel statically into the scene: events,
 * accessibility, filters, asset loaders, the whole WebGPU and canvas renderers (≈ 180 KB gzip for
 * Pixi and the scene, against ≈ 125 KB this way). Deep imports reach none of that.
 *
 * Pixi publishes no `.d.mts` beside its `.mjs` files and its package `exports` only open the barrel,
 * so each module is imported by path, untyped, and typed here from the barrel's declarations
 * (`import type` is erased: nothing of the barrel is bundled). Each class is the very one the
 * barrel re-exports. Pixi is pinned (package.json): re-check these paths when upgrading it.
 *
 * CSP: Pixi generates its uniform, UBO and shader sync functions with `new Function`; its
 * `pixi.js/unsafe-eval` module swaps them for static polyfills so the table runs WITHOUT
 * 'unsafe-eval' (Pixi docs, "CSP-compliant setup"). That module also installs the WebGPU UBO and
 * particle-container polyfills, which pull the WebGPU UBO system and the particle container into the
 * scene though the table draws neither; `installStaticSync` below installs the same polyfills on the
 * WebGL systems only, before any renderer exists.
 *
 * WGSL and Canvas: Pixi's default batcher compiles a WebGPU program beside its WebGL one, and
 * Graphics registers the Canvas renderer's pipe and system on import; the widget's bundle gives the
 * batcher the GLSL-only shader of ./pixi-batch-shader.ts and Graphics the empty registration of
 * ./pixi-graphics-init.ts instead, and leaves Pixi's WGSL parser out (scripts/pixi-webgl.ts).
 * The SYSTEMS and PIPES below register everything the table draws with.
 */
import type * as Pixi from 'pixi.js';
// @ts-expect-error untyped deep module
import { generateShaderSyncPolyfill } from '../../node_modules/pixi.js/lib/unsafe-eval/shader/generateShaderSyncPolyfill.mjs';
// @ts-expect-error untyped deep module
import { generateUboSyncPolyfillSTD40 } from '../../node_modules/pixi.js/lib/unsafe-eval/ubo/generateUboSyncPolyfill.mjs';
// @ts-expect-error untyped deep module
import { generateUniformsSyncPolyfill } from '../../node_modules/pixi.js/lib/unsafe-eval/uniforms/generateUniformsSyncPolyfill.mjs';
// @ts-expect-error untyped deep module
import { UboSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/shader/UboSystem.mjs';
// @ts-expect-error untyped deep module (see above)
import { extensions as extensionsImpl, ExtensionType } from '../../node_modules/pixi.js/lib/extensions/Extensions.mjs';
// @ts-expect-error untyped deep module
import { Matrix as MatrixImpl } from '../../node_modules/pixi.js/lib/maths/matrix/Matrix.mjs';
// @ts-expect-error untyped deep module
import { Rectangle as RectangleImpl } from '../../node_modules/pixi.js/lib/maths/shapes/Rectangle.mjs';
// @ts-expect-error untyped deep module
import { GlBatchAdaptor } from '../../node_modules/pixi.js/lib/rendering/batcher/gl/GlBatchAdaptor.mjs';
// @ts-expect-error untyped deep module
import { BatcherPipe } from '../../node_modules/pixi.js/lib/rendering/batcher/shared/BatcherPipe.mjs';
// @ts-expect-error untyped deep module
import { ColorMaskPipe } from '../../node_modules/pixi.js/lib/rendering/mask/color/ColorMaskPipe.mjs';
// @ts-expect-error untyped deep module
import { GlBufferSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/buffer/GlBufferSystem.mjs';
// @ts-expect-error untyped deep module
import { GlContextSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/context/GlContextSystem.mjs';
// @ts-expect-error untyped deep module
import { GlGeometrySystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/geometry/GlGeometrySystem.mjs';
// @ts-expect-error untyped deep module
import { GlBackBufferSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/GlBackBufferSystem.mjs';
// @ts-expect-error untyped deep module
import { GlColorMaskSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/GlColorMaskSystem.mjs';
// @ts-expect-error untyped deep module
import { GlEncoderSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/GlEncoderSystem.mjs';
// @ts-expect-error untyped deep module
import { GlLimitsSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/GlLimitsSystem.mjs';
// @ts-expect-error untyped deep module
import { GlStencilSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/GlStencilSystem.mjs';
// @ts-expect-error untyped deep module
import { GlUboSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/GlUboSystem.mjs';
// @ts-expect-error untyped deep module
import { GlRenderTargetSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/renderTarget/GlRenderTargetSystem.mjs';
// @ts-expect-error untyped deep module
import { GlShaderSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/shader/GlShaderSystem.mjs';
// @ts-expect-error untyped deep module
import { GlUniformGroupSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/shader/GlUniformGroupSystem.mjs';
// @ts-expect-error untyped deep module
import { GlStateSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/state/GlStateSystem.mjs';
// @ts-expect-error untyped deep module
import { GlTextureSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/gl/texture/GlTextureSystem.mjs';
// @ts-expect-error untyped deep module
import { BackgroundSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/background/BackgroundSystem.mjs';
// @ts-expect-error untyped deep module
import { BlendModePipe } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/blendModes/BlendModePipe.mjs';
// @ts-expect-error untyped deep module
import { GenerateTextureSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/extract/GenerateTextureSystem.mjs';
// @ts-expect-error untyped deep module
import { GCSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/GCSystem.mjs';
// @ts-expect-error untyped deep module
import { GlobalUniformSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/renderTarget/GlobalUniformSystem.mjs';
// @ts-expect-error untyped deep module
import { SchedulerSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/SchedulerSystem.mjs';
// @ts-expect-error untyped deep module
import { AbstractRenderer } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/system/AbstractRenderer.mjs';
// @ts-expect-error untyped deep module
import { RenderableGCSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/texture/RenderableGCSystem.mjs';
// @ts-expect-error untyped deep module
import { TextureGCSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/texture/TextureGCSystem.mjs';
// @ts-expect-error untyped deep module
import { ViewSystem } from '../../node_modules/pixi.js/lib/rendering/renderers/shared/view/ViewSystem.mjs';
// @ts-expect-error untyped deep module
import { RendererType } from '../../node_modules/pixi.js/lib/rendering/renderers/types.mjs';
// @ts-expect-error untyped deep module
import { Container as ContainerImpl } from '../../node_modules/pixi.js/lib/scene/container/Container.mjs';
// @ts-expect-error untyped deep module
import { RenderGroupPipe } from '../../node_modules/pixi.js/lib/scene/container/RenderGroupPipe.mjs';
// @ts-expect-error untyped deep module
import { RenderGroupSystem } from '../../node_modules/pixi.js/lib/scene/container/RenderGroupSystem.mjs';
// @ts-expect-error untyped deep module
import { GlGraphicsAdaptor } from '../../node_modules/pixi.js/lib/scene/graphics/gl/GlGraphicsAdaptor.mjs';
// @ts-expect-error untyped deep module
import { FillGradient as FillGradientImpl } from '../../node_modules/pixi.js/lib/scene/graphics/shared/fill/FillGradient.mjs';
// @ts-expect-error untyped deep module
import { Graphics as GraphicsImpl } from '../../node_modules/pixi.js/lib/scene/graphics/shared/Graphics.mjs';
// @ts-expect-error untyped deep module
import { GraphicsContextSystem } from '../../node_modules/pixi.js/lib/scene/graphics/shared/GraphicsContextSystem.mjs';
// @ts-expect-error untyped deep module
import { GraphicsPipe } from '../../node_modules/pixi.js/lib/scene/graphics/shared/GraphicsPipe.mjs';
// @ts-expect-error untyped deep module
import { Sprite as SpriteImpl } from '../../node_modules/pixi.js/lib/scene/sprite/Sprite.mjs';
// @ts-expect-error untyped deep module
import { SpritePipe } from '../../node_modules/pixi.js/lib/scene/sprite/SpritePipe.mjs';
// @ts-expect-error untyped deep module
import { CanvasTextPipe } from '../../node_modules/pixi.js/lib/scene/text/canvas/CanvasTextPipe.mjs';
// @ts-expect-error untyped deep module
import { CanvasTextSystem } from '../../node_modules/pixi.js/lib/scene/text/shared/GpuTextSystem.mjs';
// @ts-expect-error untyped deep module
import { Text as TextImpl } from '../../node_modules/pixi.js/lib/scene/text/Text.mjs';
// @ts-expect-error untyped deep module
import { UPDATE_PRIORITY as UPDATE_PRIORITY_IMPL } from '../../node_modules/pixi.js/lib/ticker/const.mjs';
// @ts-expect-error untyped deep module
import { Ticker as TickerImpl } from '../../node_modules/pixi.js/lib/ticker/Ticker.mjs';
// @ts-expect-error untyped deep module
import { RendererInitHook } from '../../node_modules/pixi.js/lib/utils/global/globalHooks.mjs';

/** The static sync polyfills on the WebGL systems (see the file's comment): once, at import, before any renderer. */
function installStaticSync(): void {
  const noCheck = { _unsafeEvalCheck(): void {}, _systemCheck(): void {} };
  Object.assign(AbstractRenderer.prototype, { _unsafeEvalCheck: noCheck._unsafeEvalCheck });
  Object.assign(UboSystem.prototype, { _systemCheck: noCheck._systemCheck });
  Object.assign(GlUniformGroupSystem.prototype, { _generateUniformsSync: generateUniformsSyncPolyfill });
  Object.assign(GlUboSystem.prototype, { _generateUboSync: generateUboSyncPolyfillSTD40 });
  Object.assign(GlShaderSystem.prototype, { _generateShaderSync: generateShaderSyncPolyfill });
}
installStaticSync();

export const Container: typeof Pixi.Container = ContainerImpl;
export type Container = Pixi.Container;
export const Graphics: typeof Pixi.Graphics = GraphicsImpl;
export type Graphics = Pixi.Graphics;
export const Sprite: typeof Pixi.Sprite = SpriteImpl;
export type Sprite = Pixi.Sprite;
export const Text: typeof Pixi.Text = TextImpl;
export type Text = Pixi.Text;
export const FillGradient: typeof Pixi.FillGradient = FillGradientImpl;
export type FillGradient = Pixi.FillGradient;
export const Rectangle: typeof Pixi.Rectangle = RectangleImpl;
export type Rectangle = Pixi.Rectangle;
export const Matrix: typeof Pixi.Matrix = MatrixImpl;
export type Matrix = Pixi.Matrix;
export const Ticker: typeof Pixi.Ticker = TickerImpl;
export type Ticker = Pixi.Ticker;
export const UPDATE_PRIORITY: typeof Pixi.UPDATE_PRIORITY = UPDATE_PRIORITY_IMPL;
export type Texture = Pixi.Texture;
export type TextStyleOptions = Pixi.TextStyleOptions;
/**
 * The table's renderer. Typed as Pixi's WebGLRenderer, which it mirrors, but it has only the
 * systems and pipes below: no masks, filters, meshes, extract, nor the hello banner.
 */
export type Renderer = Pixi.WebGLRenderer;

/*
 * Pixi's WebGLRenderer (rendering/renderers/gl/WebGLRenderer.mjs) with shorter lists: the same
 * registration through `extensions`, so Pixi orders the systems by their declared priority.
 * Left out of Pixi's defaults: the alpha and stencil mask pipes (the alpha one pulls in the filter
 * system's mask filter), the mesh adaptor, the custom-render pipe, ExtractSystem and HelloSystem.
 * ColorMaskPipe stays: the render-group system calls it on every build.
 */
const SYSTEMS = [
  BackgroundSystem,
  GlobalUniformSystem,
  ViewSystem,
  RenderGroupSystem,
  GCSystem,
  TextureGCSystem,
  GenerateTextureSystem,
  RendererInitHook,
  RenderableGCSystem,
  SchedulerSystem,
  GlUboSystem,
  GlBackBufferSystem,
  GlContextSystem,
  GlLimitsSystem,
  GlBufferSystem,
  GlTextureSystem,
  GlRenderTargetSystem,
  GlGeometrySystem,
  GlUniformGroupSystem,
  GlShaderSystem,
  GlEncoderSystem,
  GlStateSystem,
  GlStencilSystem,
  GlColorMaskSystem,
  GraphicsContextSystem,
  CanvasTextSystem,
];
const PIPES = [BlendModePipe, BatcherPipe, SpritePipe, RenderGroupPipe, ColorMaskPipe, GraphicsPipe, CanvasTextPipe];
const ADAPTORS = [GlBatchAdaptor, GlGraphicsAdaptor];

type Named = { name: string; value: unknown }[];
const systems: Named = [];
const renderPipes: Named = [];
const renderPipeAdaptors: Named = [];
const extensions: typeof Pixi.extensions = extensionsImpl;
extensions.handleByNamedList(ExtensionType.WebGLSystem, systems);
extensions.handleByNamedList(ExtensionType.WebGLPipes, renderPipes);
extensions.handleByNamedList(ExtensionType.WebGLPipesAdaptor, renderPipeAdaptors);
extensions.add(...SYSTEMS, ...PIPES, ...ADAPTORS);

class TableRenderer extends (AbstractRenderer as new (config: unknown) => object) {
  constructor() {
    super({ name: 'webgl', type: RendererType.WEBGL, systems, renderPipes, renderPipeAdaptors, loaders: [] });
  }
}

/** Makes and initialises the table's WebGL renderer (options as Pixi's WebGLRenderer.init). */
export async function createRenderer(options: Partial<Pixi.WebGLOptions>): Promise<Renderer> {
  const renderer = new TableRenderer() as unknown as Renderer;
  // No environment extensions to import: the table needs none of browserAll's (events, a11y, …).
  await renderer.init({ ...options, skipExtensionImports: true });
  return renderer;
}
