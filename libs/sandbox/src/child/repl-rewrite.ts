/**
 * Makes a snippet behave like a REPL line: its top-level `let`, `const` and `class` declarations become
 * `var` bindings on the global object, so they survive into the next execute and can be declared again
 * there (QuickJS otherwise refuses with "redeclaration of 'x'"). Only the program's own statements
 * change; blocks, loops and functions keep their scoping. Edits keep every line where it was, so error
 * positions still match the snippet as written.
 */
import { type Program } from 'acorn';

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export function rewriteTopLevel(program: Program, source: string): string {
  const edits: Edit[] = [];
  for (const statement of program.body) {
    if (
      statement.type === 'VariableDeclaration' &&
      (statement.kind === 'let' || statement.kind === 'const')
    ) {
      edits.push({ start: statement.start, end: statement.start + statement.kind.length, text: 'var' });
    } else if (statement.type === 'ClassDeclaration') {
      const name = statement.id.name;
      edits.push({ start: statement.start, end: statement.start, text: `var ${name} = ` });
      edits.push({ start: statement.end, end: statement.end, text: ';' });
    }
  }
  let out = '';
  let cursor = 0;
  for (const edit of edits) {
    out += source.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return out + source.slice(cursor);
}
