// The case list: each case is a name ("Op" or "Op.variant", the op under test first) and a
// function that builds its graph on a Graph and returns the tensor(s) TF.js and our engine must
// agree on. `also` names further converter ops a case exercises (a TF1 loop holds Enter, Merge,
// Switch, ...); every converter op must be the op or in `also` of at least one case.
export const cases = [];

// `check` replaces the value comparison for draws TF.js makes without a seed: {uniform: [lo, hi]}.
export function C(name, build, { also = [], check } = {}) {
  if (cases.some((c) => c.name === name)) throw new Error(`case ${name} is defined twice`);
  cases.push({ name, op: name.split('.')[0], build, also, check });
}
