#!/usr/bin/env node
// Size limits for src/: no file over MAX_FILE_LINES lines, no function (declaration, method, accessor,
// constructor, function expression or arrow function) over MAX_FUNCTION_LINES lines, counted from its
// first to its last line. Prints `path:line name N lines` per violation and exits 1 if there is any.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;
const root = process.cwd();

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function functionName(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  ) {
    return parent.name.getText();
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '<anonymous>';
}

function isFunction(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

const violations = [];
for (const path of sourceFiles(join(root, 'src')).sort()) {
  const text = readFileSync(path, 'utf8');
  const rel = relative(root, path);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const fileLines = source.getLineAndCharacterOfPosition(text.length).line + (text.endsWith('\n') ? 0 : 1);
  if (fileLines > MAX_FILE_LINES) violations.push(`${rel}:1 (file) ${fileLines} lines`);
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES)
        violations.push(`${rel}:${first + 1} ${functionName(node)} ${lines} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

for (const line of violations) console.log(line);
if (violations.length > 0) {
  console.error(
    `${violations.length} size violation(s): files over ${MAX_FILE_LINES} lines or functions over ${MAX_FUNCTION_LINES} lines`,
  );
  process.exit(1);
}
console.log(`src/: no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES} lines`);
