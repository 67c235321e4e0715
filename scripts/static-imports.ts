/**
 * For one-file bundles (the standalone verify page, scripts/verify-page.ts): every `import('…')` with
 * a literal specifier in the project's own TypeScript becomes a static import, so the module is part
 * of the bundle's one scope like any other.
 *
 * Why: without code splitting esbuild puts a dynamically imported module into the same file anyway,
 * but wraps it, and every module it imports in turn, in a lazy initialiser (`__esm`) with its
 * exports gathered on an object. Such a module keeps every declaration and export, used or not, and
 * the wrappers themselves cost bytes. The verifier's two lazy imports (the shared-table verifier
 * with the beacon's BLS code, and @noble/ed25519 where WebCrypto is missing) wrapped some fifty
 * modules this way. The code is the same code either way; only its evaluation moves from first use
 * to page load. Builds with splitting (the widget) keep their lazy chunks and do not use this.
 *
 * Found with TypeScript's parser, not a pattern: type positions (`typeof import('…')`), strings and
 * comments are not calls.
 */
import ts from 'typescript';

/** One `import('…')` call in a source: its span and its specifier. */
interface ImportCall {
  start: number;
  end: number;
  specifier: string;
}

function importCalls(file: string, source: string): ImportCall[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const calls: ImportCall[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (node.arguments.length === 1 && argument !== undefined && ts.isStringLiteralLike(argument)) {
        calls.push({ start: node.getStart(tree), end: node.getEnd(), specifier: argument.text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return calls;
}

/**
 * `source` with each `import('x')` replaced by `Promise.resolve(ns)` and `import * as ns from 'x'`
 * put in front, on the first line (line numbers stay). The same specifier twice shares one name.
 * Unchanged when the source has no such call.
 */
export function bindImportsStatically(file: string, source: string): string {
  if (!source.includes('import(')) return source;
  const calls = importCalls(file, source);
  if (calls.length === 0) return source;
  const names = new Map<string, string>();
  const nameOf = (specifier: string): string => {
    let name = names.get(specifier);
    if (name === undefined) names.set(specifier, (name = `__staticImport${names.size}`));
    return name;
  };
  let out = source;
  for (const call of [...calls].sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, call.start)}Promise.resolve(${nameOf(call.specifier)})${out.slice(call.end)}`;
  }
  const head = [...names].map(([specifier, name]) => `import * as ${name} from ${JSON.stringify(specifier)};`).join(' ');
  return `${head} ${out}`;
}
