// Parses PromQL expressions with the Prometheus project's grammar (@prometheus-io/lezer-promql) and reports, for
// each, its syntax errors, a few type errors the grammar alone accepts, and the metric names it selects.
// stdin: [{"id": "...", "expr": "..."}]; stdout: [{"id": "...", "errors": ["..."], "metrics": ["..."]}]
import { parser } from '@prometheus-io/lezer-promql';
import { readFileSync } from 'node:fs';

// Functions whose argument (the one that is a range) must be a range vector: a selector with [d] or a subquery.
const RANGE_FUNCTIONS = new Set(['Rate', 'Irate', 'Increase', 'Delta', 'Idelta', 'Deriv', 'Changes', 'Resets',
  'PredictLinear', 'HoltWinters', 'DoubleExponentialSmoothing', 'AvgOverTime', 'MinOverTime', 'MaxOverTime',
  'SumOverTime', 'CountOverTime', 'StddevOverTime', 'StdvarOverTime', 'QuantileOverTime', 'LastOverTime',
  'PresentOverTime', 'AbsentOverTime', 'MadOverTime', 'TsOfMaxOverTime', 'TsOfMinOverTime', 'TsOfLastOverTime',
  'FirstOverTime', 'TsOfFirstOverTime']);
const RANGE = new Set(['MatrixSelector', 'SubqueryExpr']);

function children(node) {
  const out = [];
  for (let c = node.firstChild; c; c = c.nextSibling) out.push(c);
  return out;
}

function check(expr) {
  const errors = [];
  const metrics = new Set();
  const tree = parser.parse(expr);
  const text = (n) => expr.slice(n.from, n.to);
  tree.iterate({
    enter: (ref) => {
      const node = ref.node;
      if (node.type.isError) {
        errors.push(`syntax error at ${node.from}: "${expr.slice(Math.max(0, node.from - 15), node.to + 15)}"`);
        return;
      }
      if (node.name === 'VectorSelector') {
        const id = children(node).find((c) => c.name === 'Identifier');
        if (id) metrics.add(text(id));
      }
      if (node.name === 'FunctionCall') {
        const fn = children(node).find((c) => c.name === 'FunctionIdentifier');
        const body = children(node).find((c) => c.name === 'FunctionCallBody');
        const name = fn && fn.firstChild ? fn.firstChild.name : '?';
        const args = body ? children(body) : [];
        if (RANGE_FUNCTIONS.has(name)) {
          const rangeArg = name === 'PredictLinear' || name === 'HoltWinters' || name === 'DoubleExponentialSmoothing'
            || name === 'QuantileOverTime' ? args[name === 'QuantileOverTime' ? 1 : 0] : args[0];
          if (!rangeArg || !RANGE.has(rangeArg.name)) {
            errors.push(`${text(fn)}() needs a range vector (a selector with [duration] or a subquery): ${text(node)}`);
          }
        }
        for (const arg of args) {
          if (arg.name === 'MatrixSelector' && !RANGE_FUNCTIONS.has(name)) {
            errors.push(`a range vector is not a valid argument of ${text(fn)}(): ${text(node)}`);
          }
        }
      }
      if (node.name === 'AggregateExpr' || node.name === 'BinaryExpr' || node.name === 'ParenExpr') {
        for (const c of children(node)) {
          if (c.name === 'MatrixSelector') {
            errors.push(`a range vector where an instant vector is needed: ${text(c)}`);
          } else if (c.name === 'FunctionCallBody') {
            for (const a of children(c)) {
              if (a.name === 'MatrixSelector') errors.push(`a range vector where an instant vector is needed: ${text(a)}`);
            }
          }
        }
      }
    },
  });
  const top = tree.topNode.firstChild;
  if (top && top.name === 'MatrixSelector') errors.push('the expression is a range vector, not an instant vector');
  if (expr.trim() === '') errors.push('empty expression');
  return { errors, metrics: [...metrics].sort() };
}

const input = JSON.parse(readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(input.map(({ id, expr }) => ({ id, ...check(expr) }))));
