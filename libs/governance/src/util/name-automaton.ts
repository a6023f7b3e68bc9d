/**
 * A tiny Thompson automaton over UTF-16 code units, run by simulating every state at once (Pike
 * style): matching costs O(name length × pattern size) whatever the input, so a glob cannot be made to
 * backtrack. Besides characters it knows zero-width assertions that look at most a few code units
 * around the current position; they are what picomatch's dot-segment lookaheads become here.
 */

/** Whether the code unit at `index` of `name` may be consumed there. */
export type UnitTest = (name: string, index: number) => boolean;
/** A zero-width check at position `index` (0..name.length). */
export type PositionTest = (name: string, index: number) => boolean;

export type NameNode =
  | { readonly kind: 'Unit'; readonly test: UnitTest }
  | { readonly kind: 'Assert'; readonly test: PositionTest }
  | { readonly kind: 'Seq'; readonly items: readonly NameNode[] }
  | { readonly kind: 'Alt'; readonly options: readonly NameNode[] }
  /** `body` repeated at least `min` times, without bound. */
  | { readonly kind: 'Repeat'; readonly body: NameNode; readonly min: 0 | 1 };

type Instruction =
  | { op: 'Unit'; test: UnitTest; next: number }
  | { op: 'Assert'; test: PositionTest; next: number }
  | { op: 'Split'; first: number; second: number }
  | { op: 'Jump'; next: number }
  | { op: 'Match' };

export const EMPTY: NameNode = { kind: 'Seq', items: [] };

/** Compiles the tree once; the returned function matches whole names. */
export function compileNameAutomaton(root: NameNode): (name: string) => boolean {
  const program: Instruction[] = [];
  const start = emit(root, program);
  const end = program.length;
  program.push({ op: 'Match' });
  patchOpenEnds(program, start.openEnds, end);
  return matcher(program, start.entry);
}

interface Fragment {
  readonly entry: number;
  /** Instructions whose `next` (or `second`) still points nowhere; patched to what follows. */
  readonly openEnds: OpenEnd[];
}
type OpenEnd = { index: number; field: 'next' | 'first' | 'second' };

const UNSET = -1;

function emit(node: NameNode, program: Instruction[]): Fragment {
  switch (node.kind) {
    case 'Unit':
    case 'Assert': {
      const index = program.push({ op: node.kind, test: node.test, next: UNSET }) - 1;
      return { entry: index, openEnds: [{ index, field: 'next' }] };
    }
    case 'Seq': {
      if (node.items.length === 0) {
        const index = program.push({ op: 'Jump', next: UNSET }) - 1;
        return { entry: index, openEnds: [{ index, field: 'next' }] };
      }
      let first: Fragment | undefined;
      let previous: Fragment | undefined;
      for (const item of node.items) {
        const fragment = emit(item, program);
        if (previous === undefined) first = fragment;
        else patchOpenEnds(program, previous.openEnds, fragment.entry);
        previous = fragment;
      }
      return { entry: (first as Fragment).entry, openEnds: (previous as Fragment).openEnds };
    }
    case 'Alt': {
      if (node.options.length === 0) return emit(EMPTY, program);
      // A chain of splits, one per option but the last.
      const fragments: Fragment[] = [];
      const splits: number[] = [];
      for (let i = 0; i < node.options.length - 1; i += 1) {
        splits.push(program.push({ op: 'Split', first: UNSET, second: UNSET }) - 1);
      }
      for (const option of node.options) fragments.push(emit(option, program));
      splits.forEach((split, i) => {
        const instruction = program[split] as Extract<Instruction, { op: 'Split' }>;
        instruction.first = (fragments[i] as Fragment).entry;
        instruction.second =
          i + 1 < splits.length ? (splits[i + 1] as number) : (fragments[i + 1] as Fragment).entry;
      });
      return {
        entry: splits.length === 0 ? (fragments[0] as Fragment).entry : (splits[0] as number),
        openEnds: fragments.flatMap((fragment) => fragment.openEnds),
      };
    }
    case 'Repeat': {
      // loop: split(body, out); body → loop. min 1 enters the body first.
      const loop = program.push({ op: 'Split', first: UNSET, second: UNSET }) - 1;
      const body = emit(node.body, program);
      (program[loop] as Extract<Instruction, { op: 'Split' }>).first = body.entry;
      patchOpenEnds(program, body.openEnds, loop);
      return { entry: node.min === 1 ? body.entry : loop, openEnds: [{ index: loop, field: 'second' }] };
    }
  }
}

function patchOpenEnds(program: Instruction[], openEnds: readonly OpenEnd[], target: number): void {
  for (const { index, field } of openEnds) (program[index] as Record<string, unknown>)[field] = target;
}

/**
 * Every live state advances together, one code unit per step; each state is visited once per step.
 * The work lists are allocated once per compiled glob and reused: matching is synchronous, so two
 * runs of one matcher never overlap.
 */
function matcher(program: readonly Instruction[], entry: number): (name: string) => boolean {
  const seen = new Float64Array(program.length).fill(-1);
  let stamp = 0;
  let current: number[] = [];
  let next: number[] = [];
  const stack: number[] = [];

  // `seen` holds stamp + position: a new run moves the stamp past every position of the last one.
  const addClosure = (name: string, from: number, position: number, into: number[]): boolean => {
    const mark = stamp + position;
    stack.push(from);
    let matched = false;
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      if (seen[pc] === mark) continue;
      seen[pc] = mark;
      const instruction = program[pc] as Instruction;
      switch (instruction.op) {
        case 'Match':
          if (position === name.length) matched = true;
          break;
        case 'Unit':
          into.push(pc);
          break;
        case 'Assert':
          if (instruction.test(name, position)) stack.push(instruction.next);
          break;
        case 'Jump':
          stack.push(instruction.next);
          break;
        case 'Split':
          stack.push(instruction.second, instruction.first);
          break;
      }
    }
    return matched;
  };

  return (name) => {
    current.length = 0;
    next.length = 0;
    let matched = addClosure(name, entry, 0, current);
    for (let position = 0; position < name.length && current.length > 0; position += 1) {
      matched = false;
      for (const pc of current) {
        const instruction = program[pc] as Extract<Instruction, { op: 'Unit' }>;
        if (instruction.test(name, position) && addClosure(name, instruction.next, position + 1, next))
          matched = true;
      }
      [current, next] = [next, current];
      next.length = 0;
    }
    stamp += name.length + 1;
    return matched;
  };
}
