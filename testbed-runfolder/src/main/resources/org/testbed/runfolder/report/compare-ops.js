'use strict';
// The compare page's per-operation section (data.operations): for each step of several operations
// compared in both runs, each operation's throughput, p50 and p99 with B/A, interval and verdict.
// report.js calls testbedCompareOperations with its helpers once the steps' table is drawn; this
// script runs first and only registers the function.
window.testbedCompareOperations = function (main, ops, kit) {
  var FIGURES = [
    {key: 'rps', name: 'throughput', unit: 'req/s', digits: 0},
    {key: 'p50', name: 'p50', unit: 'ms', digits: 3},
    {key: 'p99', name: 'p99', unit: 'ms', digits: 3}];
  var html = kit.html;
  var steps = (ops && ops.steps) || [];
  var notes = (ops && ops.notes) || [];
  if (!steps.length && !notes.length) { return; }
  var section = html('section', {id: 'operations'}, main);
  html('h2', {}, section, 'Per operation, B/A');
  function pct(f) { return Math.round(f * 100) + '%'; }
  var me = ops.min_effect || {};
  html('p', {'class': 'note'}, section, 'A step\'s figures mix its kinds of request; here each operation (operations.csv) is compared on its own samples, ' +
    'fork by fork, by the same rule as the steps: the whole interval on one side of 1 and a change beyond the noise floor (at least ' +
    pct(me.rps) + ' for throughput and p50, ' + pct(me.p99) + ' for p99). A step of one operation is its step and is not repeated here.');
  notes.forEach(function (n) { html('p', {'class': 'note flag'}, section, 'Per operation: ' + n); });
  if (!steps.length) { return; }
  var rows = [];
  steps.forEach(function (s) { s.operations.forEach(function (o) { rows.push({s: s, o: o}); }); });
  function text(r, f) {
    var ch = r.o.changes[f.key];
    return r.s.variant + ' ' + r.s.scenario + ' ' + r.s.level + ' ' + r.o.operation + ' ' + f.key + ' ' + kit.ratioText(ch) + '× ' +
      kit.ciText(ch) + ' ' + ch.verdict + ' (A ' + kit.fmt(kit.num(ch.a), f.digits) + ' → B ' + kit.fmt(kit.num(ch.b), f.digits) + ' ' + f.unit +
      '; n ' + ch.n_a + '/' + ch.n_b + ')';
  }
  var changed = [];
  rows.forEach(function (r) {
    FIGURES.forEach(function (f) {
      var cls = kit.verdictOf(r.o.changes[f.key]).cls;
      if (cls === 'better' || cls === 'worse') { changed.push({cls: cls, text: text(r, f)}); }
    });
  });
  // The page leads with what changed: point there to the operations that did, which the steps' figures may hide.
  var lead = main.querySelector('ul.changes, p.summary');
  if (changed.length && lead) {
    var pointer = html('p', {'class': 'note flag', id: 'operations-changed'}, null);
    html('a', {href: '#operations'}, pointer, changed.length + ' per-operation figure(s) changed beyond noise');
    pointer.appendChild(document.createTextNode(': see "Per operation, B/A" below.'));
    lead.parentNode.insertBefore(pointer, lead.nextSibling);
  }
  if (!changed.length) {
    html('p', {'class': 'summary noise'}, section, 'No operation changed beyond noise (' + rows.length * FIGURES.length + ' figures compared).');
  } else {
    var ul = html('ul', {'class': 'changes', id: 'operation-changes'}, section);
    changed.forEach(function (c) { html('li', {'class': c.cls}, ul, c.text); });
  }
  var headers = [{name: 'variant', l: 1}, {name: 'scenario', l: 1}, 'level', {name: 'operation', l: 1}];
  FIGURES.forEach(function (f) {
    headers.push(f.name + ' A', f.name + ' B', 'B/A', 'interval', {name: 'verdict', l: 1});
  });
  kit.table(section, headers, rows.map(function (r) {
    var cells = [r.s.variant, r.s.scenario, r.s.level, r.o.operation];
    FIGURES.forEach(function (f) {
      var ch = r.o.changes[f.key];
      var cls = kit.verdictOf(ch).cls;
      cells.push(kit.fmt(kit.num(ch.a), f.digits), kit.fmt(kit.num(ch.b), f.digits), {text: kit.ratioText(ch), cls: cls},
        {text: kit.ciText(ch) || '–', cls: cls}, {text: ch.verdict + ' (n ' + ch.n_a + '/' + ch.n_b + ')', cls: cls});
    });
    return cells;
  }));
};
