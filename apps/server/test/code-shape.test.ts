import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The shape of the code base (issue 41 item 4), read from the sources with TypeScript's own parser: areas that do not
 * import each other in a cycle, files and functions short enough to hold in one's head (or saying why not), and one
 * copy of the helpers that were copied before.
 */

const REPO = path.resolve(import.meta.dirname, '../../..');
const SOURCE_ROOTS = ['apps/server/src', 'apps/web/src', 'packages/shared/src'];
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
/** What a long file's or function's first comment says to keep it long. */
const REASON = /\blong because\b/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    source = ts.createSourceFile(file, readFileSync(path.join(REPO, file), 'utf8'), ts.ScriptTarget.Latest, true, kind);
    parsed.set(file, source);
  }
  return source;
}

const ALL_FILES = SOURCE_ROOTS.flatMap(sourceFiles);

/** The module specifiers a file imports or re-exports, type-only ones and dynamic import() included. */
function importsOf(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The folder-level graph of `root`'s subfolders: which imports which, with one import that shows it. */
function areaGraph(root: string): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of ALL_FILES.filter((f) => f.startsWith(`${root}/`))) {
    const area = file.slice(root.length + 1).split('/')[0]!;
    if (!file.slice(root.length + 1).includes('/')) continue;
    for (const spec of importsOf(parse(file))) {
      if (!spec.startsWith('.')) continue;
      const target = path.relative(path.join(REPO, root), path.resolve(path.join(REPO, path.dirname(file)), spec)).split(path.sep);
      if (target[0] === '..' || target.length < 2 || target[0] === area) continue;
      const edges = graph.get(area) ?? new Map<string, string>();
      if (!edges.has(target[0]!)) edges.set(target[0]!, `${file} imports ${spec}`);
      graph.set(area, edges);
    }
  }
  return graph;
}

/** Each cycle of the graph, as its shortest loop from its alphabetically first area ("a -> b -> a"), once. */
function cyclesOf(graph: Map<string, Map<string, string>>): { cycle: string; evidence: string[] }[] {
  const found = new Map<string, string[]>();
  for (const start of [...graph.keys()].sort()) {
    // Breadth-first from start back to start, through areas sorting after it (so each cycle is found from its first).
    const queue: string[][] = [[start]];
    const seen = new Set<string>();
    while (queue.length) {
      const route = queue.shift()!;
      for (const next of graph.get(route.at(-1)!)?.keys() ?? []) {
        if (next === start) {
          const loop = [...route, start];
          const key = loop.join(' -> ');
          if (!found.has(key)) found.set(key, loop.slice(0, -1).map((a, i) => graph.get(a)!.get(loop[i + 1]!)!));
        } else if (next > start && !seen.has(next)) {
          seen.add(next);
          queue.push([...route, next]);
        }
      }
    }
  }
  return [...found].map(([cycle, evidence]) => ({ cycle, evidence }));
}

function lineOf(source: ts.SourceFile, pos: number): number {
  return source.getLineAndCharacterOfPosition(pos).line + 1;
}

function commentsAt(text: string, pos: number): string[] {
  return (ts.getLeadingCommentRanges(text, pos) ?? []).map((r) => text.slice(r.pos, r.end));
}

/** The first comment in `text` from `from` on (comments only, not strings that look like one). */
function firstCommentFrom(text: string, from: number, to: number): string | null {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text.slice(from, to));
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) return scanner.getTokenText();
  }
  return null;
}

/**
 * A function's first comment: the one above it (or above the declaration, property or call it is part of), else the
 * first one in its body.
 */
function firstCommentOf(source: ts.SourceFile, fn: ts.FunctionLikeDeclaration): string | null {
  for (let node: ts.Node | undefined = fn, depth = 0; node && depth < 4; node = node.parent, depth++) {
    const above = commentsAt(source.text, node.getFullStart());
    if (above.length) return above.join('\n');
    if (ts.isStatement(node) || ts.isClassElement(node)) break;
  }
  return fn.body ? firstCommentFrom(source.text, fn.body.getStart(source) + 1, fn.body.end) : null;
}

function nameOf(source: ts.SourceFile, fn: ts.FunctionLikeDeclaration): string {
  if (fn.name) return fn.name.getText(source);
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  return '(anonymous)';
}

interface Long {
  key: string;
  where: string;
  lines: number;
}

function longOnes(): Long[] {
  const out: Long[] = [];
  for (const file of ALL_FILES) {
    const source = parse(file);
    const lines = source.getLineStarts().length - (source.text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES && !REASON.test(firstCommentFrom(source.text, 0, source.text.length) ?? '')) {
      out.push({ key: file, where: file, lines });
    }
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
        const fn = node as ts.FunctionLikeDeclaration;
        const start = lineOf(source, fn.getStart(source));
        const length = lineOf(source, fn.end) - start + 1;
        if (length > MAX_FUNCTION_LINES && !REASON.test(firstCommentOf(source, fn) ?? '')) {
          out.push({ key: `${file} ${nameOf(source, fn)}`, where: `${file}:${start} ${nameOf(source, fn)}`, lines: length });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

describe('the shape of the code', () => {
  it('has no area of the server (modules/*) or the web app (features/*) importing another in a cycle', () => {
    const cycles = [...cyclesOf(areaGraph('apps/server/src/modules')), ...cyclesOf(areaGraph('apps/web/src/features'))];
    expect(cycles.map((c) => `${c.cycle} (${c.evidence.join('; ')})`)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a imports b']])],
      ['b', new Map([['c', 'b imports c']])],
      ['c', new Map([['a', 'c imports a']])],
    ]);
    expect(cyclesOf(graph)).toEqual([{ cycle: 'a -> b -> c -> a', evidence: ['a imports b', 'b imports c', 'c imports a'] }]);
  });

  it(`has no file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES} without "long because" in its first comment`, () => {
    const found = longOnes();
    expect(found.map((l) => `${l.where} (${l.lines} lines)`)).toEqual([]);
  });

  it('has one HTML escape and one UUID pattern', () => {
    const copies = (pattern: RegExp) => ALL_FILES.filter((file) => pattern.test(parse(file).text));
    // The escape's table or chain names '&amp;'; the UUID's first group is eight hex digits.
    expect(copies(/['"`]&amp;['"`]/)).toEqual(['packages/shared/src/text.ts']);
    expect(copies(/\[0-9a-f(A-F)?\]\{8\}-/)).toEqual(['packages/shared/src/ids.ts']);
  });
});
