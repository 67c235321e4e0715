/**
 * Pixi's Graphics registration (`scene/graphics/init.mjs`, which `Graphics.mjs` imports for its side
 * effect) as the widget's bundle has it (scripts/pixi-webgl.ts): nothing to do. Pixi's module
 * registers the graphics pipe and context system for every renderer, the Canvas renderer's too; the
 * table's WebGL renderer (pixi.ts) registers its own two, GraphicsPipe and GraphicsContextSystem,
 * and the Canvas pair is never bundled.
 */
export {};
