import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { addressBucket } from '../../src/domain/client-address.js';
import { isEmailAddress } from '../../src/domain/email.js';
import { applyClientRules } from '../../src/oauth/client-rules.js';
import { mayFetchFrom } from '../../src/oauth/metadata-documents.js';

/**
 * A regular expression that backtracks can take time quadratic (or worse) in its input: the sign-up
 * form's email pattern once held the event loop for 0.4 s on one request of 16 KB. Every pattern of
 * src/ must match in linear time, and every check of user input refuses a hostile input of 64 KB
 * (docs/security.md, "Input that costs time").
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

/** Every regular-expression literal of src/, with where it is, read by the TypeScript parser. */
function regexLiterals(): Array<{ where: string; source: string; flags: string }> {
  return sourceFiles('src').flatMap((file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const found: Array<{ where: string; source: string; flags: string }> = [];
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(sourceFile);
        const end = literal.lastIndexOf('/');
        const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
        found.push({
          where: `${file}:${line + 1}`,
          source: literal.slice(1, end),
          flags: literal.slice(end + 1),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
    return found;
  });
}

/** Patterns built at run time; each is made of escaped text and fixed-length parts only. */
function dynamicPatterns(): string[] {
  return sourceFiles('src').flatMap((file) =>
    readFileSync(path.join(root, file), 'utf8').includes('new RegExp(') ? [file] : [],
  );
}

const HOSTILE_BYTES = 64 * 1024;

describe('regular expressions', () => {
  const literals = regexLiterals();

  it('finds the patterns of src/', () => {
    expect(literals.length).toBeGreaterThan(20);
    expect(literals.map((literal) => literal.source)).toContain('^[^@\\s]+@[^@\\s.]+(?:\\.[^@\\s.]+)+$');
  });

  // recheck analyses the pattern itself (its automaton, then fuzzing): no timing is involved.
  it.each(literals)('$where /$source/$flags matches in linear time', ({ source, flags }) => {
    const diagnostics = checkSync(source, flags);
    expect({
      status: diagnostics.status,
      attack: diagnostics.status === 'vulnerable' ? diagnostics.attack.pattern : '',
    }).toEqual({ status: 'safe', attack: '' });
  });

  it('builds patterns at run time only where they are listed here', () => {
    // search-indices.ts escapes an index alias; schemas/inputs.ts adds a fixed id prefix to `_[0-9A-Za-z]{10}`.
    expect(dynamicPatterns()).toEqual(['src/schemas/inputs.ts', 'src/stores/search-indices.ts']);
  });
});

describe('a hostile input of 64 KB is refused by every check of user input', () => {
  const refusalOf = (property: string, value: unknown): string => {
    try {
      applyClientRules(undefined, property, value, {});
      return 'accepted';
    } catch (error) {
      return (error as { error_description?: string }).error_description ?? String(error);
    }
  };

  it('an email of dots between two @ (the sign-up form), and one just within the length limit', () => {
    expect(isEmailAddress(`a@${'.'.repeat(HOSTILE_BYTES)}@`)).toBe(false);
    expect(isEmailAddress(`a@${'.'.repeat(250)}@`)).toBe(false);
    expect(isEmailAddress(`${'a'.repeat(240)}@example.test`)).toBe(true);
  });

  it('client metadata: a name, a redirect URI of dotted scheme labels, a link, contacts', () => {
    expect(refusalOf('client_name', '\u202e'.repeat(HOSTILE_BYTES))).toMatch(
      /client_name: control and bidirectional/,
    );
    expect(refusalOf('client_name', 'a'.repeat(HOSTILE_BYTES))).toMatch(
      /client_name: at most 100 characters/,
    );
    expect(refusalOf('redirect_uris', [`${'a.'.repeat(HOSTILE_BYTES / 2)}:/cb`])).toMatch(
      /redirect_uris: at most 2000 characters/,
    );
    expect(refusalOf('client_uri', `https://${'a'.repeat(HOSTILE_BYTES)}`)).toMatch(
      /client_uri: at most 2000/,
    );
    expect(refusalOf('contacts', [`${'a'.repeat(HOSTILE_BYTES)}@example.test`])).toMatch(
      /contacts: at most 254/,
    );
  });

  it('a forwarded client address, and a metadata document URL', () => {
    expect(addressBucket(`${'1:'.repeat(HOSTILE_BYTES / 2)}1.2.3.4`)).toBe('unparsable');
    expect(addressBucket(`1.1.1.1%${'%'.repeat(HOSTILE_BYTES)}`)).toBe('unparsable');
    expect(mayFetchFrom(`https://[${':'.repeat(HOSTILE_BYTES)}]/client.json`)).toBe(false);
  });
});
