// The case list: each case is a name ("Op" or "Op.variant", the op under test first) and a
// function that builds its graph on a Graph and returns the tensor(s) TF.js and our engine must
// agree on. `also` names further converter ops a case exercises (a TF1 loop holds Enter, Merge,
// Switch, ...); every converter op must be the op or in `also` of at least one case.
import { a } from './graph.mjs';

export const cases = [];

// A complex64 tensor made by Complex from two float32 inputs of `shape`, and a complex result seen
// through Real and Imag (a graph's output cannot be complex64).
export const cx = (g, shape, lo, hi) => g.op('Complex', [g.f(shape, lo, hi), g.f(shape, lo, hi)]);
export const complexOut = (g, c) => [
  g.op('Real', [c], { Tout: a.type('float32') }),
  g.op('Imag', [c], { Tout: a.type('float32') }),
];

// `check` replaces the value comparison for draws TF.js makes without a seed: {uniform: [lo, hi]}.
export function C(name, build, { also = [], check } = {}) {
  if (cases.some((c) => c.name === name)) throw new Error(`case ${name} is defined twice`);
  cases.push({ name, op: name.split('.')[0], build, also, check });
}
