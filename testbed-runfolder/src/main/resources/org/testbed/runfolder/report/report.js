'use strict';
// testbed report renderer: no libraries, no network. Reads the JSON in #data, draws SVG charts and
// tables into #main, then marks <body data-render="ok"> (or "error" with the messages shown), which
// the headless-browser test checks.
(function () {
  var errors = [];
  var charts = 0;
  var rowCount = 0;
  var finished = false;
  // The thresholds the pages draw, as the Java side decides them (data.rules): never typed here again.
  var RULES = {};
  // Every figure as the run folder declares it (data.figures): key, label, unit, digits, which way is
  // better, where it comes from. No figure's name, unit or digits is typed in this script.
  var FIGURES = [];
  function pct(fraction) { return Math.round(fraction * 100) + '%'; }
  function figure(key) { return FIGURES.filter(function (f) { return f.key === key; })[0]; }
  function figureName(f) { return f.label + (f.unit ? ' (' + f.unit + ')' : ''); }
  // A declared figure by key; a page made from data without declarations (an old run) still draws, with the key as its name.
  function FIG(key) { return figure(key) || {key: key, label: key, unit: '', digits: undefined}; }
  function labelOf(key) { return FIG(key).label; }
  function unitOf(key) { return FIG(key).unit; }
  function digitsOf(key) { return FIG(key).digits; }
  // A column or axis title: the figure's label and unit, "p99 latency, ms".
  function hdr(key) { var f = FIG(key); return f.label + (f.unit ? ', ' + f.unit : ''); }
  function figureValue(f, v) { return f.significant ? (isNaN(num(v)) ? '–' : String(Number(num(v).toPrecision(f.digits)))) : fmt(num(v), f.digits); }
  // The probes' figures some step of these rows measured (steps.csv holds each step's median).
  function probed(rows) {
    return FIGURES.filter(function (f) {
      return f.source === 'probe' && f.levels.indexOf('step') >= 0 && rows.some(function (r) { return r.step && !isNaN(num(r.step[f.key])); });
    });
  }

  window.addEventListener('error', function (e) {
    errors.push('script error: ' + e.message + (e.lineno ? ' (line ' + e.lineno + ')' : ''));
    if (finished) { finish(); }
  });

  function finish() {
    finished = true;
    var status = document.getElementById('render-status');
    var box = document.getElementById('render-errors');
    if (errors.length) {
      document.body.setAttribute('data-render', 'error');
      box.hidden = false;
      box.textContent = errors.join('\n');
      status.textContent = 'Rendering failed: ' + errors.length + ' error(s).';
    } else {
      document.body.setAttribute('data-render', 'ok');
      status.textContent = 'Rendered ' + charts + ' chart(s) from ' + rowCount + ' row(s).';
      // Said at the top only when something is wrong (scripts off, an error); a page that drew opens with its answer.
      document.body.appendChild(status);
    }
  }

  var NS = 'http://www.w3.org/2000/svg';
  var PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2',
    '#7f7f7f', '#bcbd22', '#393b79', '#637939'];
  // The compare page's one colour language, in its table, list and charts alike.
  var VERDICT = {
    'faster': {color: '#1a7f37', cls: 'better', name: 'better beyond noise'},
    'slower': {color: '#cf222e', cls: 'worse', name: 'worse beyond noise'},
    'within noise': {color: '#8c959f', cls: 'noise', name: 'within noise'},
    'no noise estimate': {color: '#c9d1d9', cls: 'noise', name: 'no noise estimate (one sample a side)'}
  };
  // A figure that says its change in its own words (a cost cheaper or costlier, a size smaller or
  // larger: data.figures) gets the same colours under them.
  function verdictWords(figures) {
    figures.forEach(function (f) {
      if (!VERDICT[f.better_word]) { VERDICT[f.better_word] = {color: VERDICT.faster.color, cls: 'better', name: f.better_word + ' beyond noise'}; }
      if (!VERDICT[f.worse_word]) { VERDICT[f.worse_word] = {color: VERDICT.slower.color, cls: 'worse', name: f.worse_word + ' beyond noise'}; }
    });
  }
  var NOT_STEADY = '#6e40c9';

  function svg(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) { if (attrs[k] !== undefined && attrs[k] !== null) { e.setAttribute(k, attrs[k]); } }
    if (parent) { parent.appendChild(e); }
    return e;
  }

  function html(tag, attrs, parent, text) {
    var e = document.createElement(tag);
    for (var k in (attrs || {})) { e.setAttribute(k, attrs[k]); }
    if (text !== undefined && text !== null) { e.textContent = text; }
    if (parent) { parent.appendChild(e); }
    return e;
  }

  function tip(parent, text) { svg('title', {}, parent).textContent = text; }

  // A number from the data: Jackson writes NaN as the string "NaN"; older runs lack fields.
  function num(v) {
    if (v === null || v === undefined || v === '') { return NaN; }
    return typeof v === 'number' ? v : Number(v);
  }

  // steps.csv's columns of a figure's spread: prefix and suffix around min, max, ci_low, ci_high.
  // The cost of a million requests (a run with a price) has an interval, no min or max.
  var SPREAD_COLUMNS = {rps: ['rps_', ''], p99: ['lat_p99_', '_ms'], cpu: ['cpu_ms_per_req_', ''], cost: ['cost_per_million_', '']};

  // The spread of a figure of a repeated step ('rps', 'p99', 'cpu' of steps.csv), or null for a single sample.
  function spreadOf(r, key) {
    var s = r.step, c = SPREAD_COLUMNS[key];
    if (!s || !(num(s.repeats) > 1)) { return null; }
    function col(part) { return num(s[c[0] + part + c[1]]); }
    var lo = col('ci_low'), hi = col('ci_high');
    if (isNaN(lo) || isNaN(hi)) { return null; }
    return {n: num(s.repeats), lo: lo, hi: hi, min: col('min'), max: col('max'), confidence: num(s.ci_confidence)};
  }

  function spreadText(sp, digits) {
    if (!sp) { return ''; }
    return '[' + fmt(sp.lo, digits) + ', ' + fmt(sp.hi, digits) + '] ±' + fmt(halfWidth(sp), 1) + '% ' +
      Math.round(sp.confidence * 1000) / 10 + '%, n=' + sp.n;
  }

  // The smallest change an interval can tell, in per cent: its half-width on the log scale, √(hi / lo) − 1.
  function halfWidth(sp) { return sp && sp.lo > 0 ? (Math.sqrt(sp.hi / sp.lo) - 1) * 100 : NaN; }

  // Each fork's mean of a figure ('rps', 'p99', 'cpu'): [[fork, mean], ...], or [] for a step of one fork.
  function forkMeansOf(r, key) { return (r.fork_means && r.fork_means[key]) || []; }

  // The fork means as small open dots at x, over an error bar: two JVMs apart show as two modes.
  function forkDots(parent, x, Y, forks, color, label, digits) {
    forks.forEach(function (f) {
      var d = svg('circle', {'class': 'forkdot', cx: x, cy: Y(f[1]), r: 2.6, fill: '#fff', stroke: color, 'stroke-width': 1.4}, parent);
      tip(d, label + ' — fork ' + f[0] + ' mean: ' + fmt(f[1], digits));
    });
  }

  function notSteady(r) { return !!(r.step && num(r.step.not_steady_samples) > 0); }
  // A step whose listen queue overflowed: its slowest requests waited for a dropped SYN's retry.
  function connectRetries(r) { return !!(r.step && (num(r.step.listen_overflow_samples) > 0 || num(r.step.listen_overflows) > 0)); }
  function p99Cell(r, text) { return connectRetries(r) ? {text: text + ' (connect retries)', cls: 'bad'} : text; }

  // A vertical error bar from y1 to y2 (pixels) at x, with caps.
  function errorBar(parent, x, y1, y2, color, text) {
    var g = svg('g', {'class': 'errbar', stroke: color, 'stroke-width': 1.5}, parent);
    svg('line', {x1: x, x2: x, y1: y1, y2: y2}, g);
    svg('line', {x1: x - 4, x2: x + 4, y1: y1, y2: y1}, g);
    svg('line', {x1: x - 4, x2: x + 4, y1: y2, y2: y2}, g);
    if (text) { tip(g, text); }
    return g;
  }

  // The marker of a step whose throughput still trended within its window: a dashed ring.
  function steadyRing(parent, x, y, text) {
    var ring = svg('circle', {'class': 'not-steady', cx: x, cy: y, r: 9, fill: 'none', stroke: NOT_STEADY, 'stroke-width': 1.5, 'stroke-dasharray': '3 2'}, parent);
    tip(ring, text);
    return ring;
  }

  function fmt(v, digits) {
    if (v === null || v === undefined || isNaN(v)) { return '–'; }
    if (digits !== undefined) { return Number(v).toFixed(digits); }
    var a = Math.abs(v);
    if (Number.isInteger(v)) { return v.toLocaleString('en-US'); }
    if (a >= 1000) { return Math.round(v).toLocaleString('en-US'); }
    if (a >= 100) { return v.toFixed(0); }
    if (a >= 10) { return v.toFixed(1); }
    if (a >= 1) { return v.toFixed(2); }
    return v.toPrecision(3);
  }

  function niceTicks(min, max, count) {
    if (max <= min) { max = min + 1; }
    var span = max - min;
    var step = Math.pow(10, Math.floor(Math.log10(span / count)));
    var err = count / span * step;
    if (err <= 0.15) { step *= 10; } else if (err <= 0.35) { step *= 5; } else if (err <= 0.75) { step *= 2; }
    var ticks = [];
    for (var t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) { ticks.push(Number(t.toPrecision(12))); }
    return ticks;
  }

  function logTicks(min, max) {
    var ticks = [];
    for (var p = Math.floor(Math.log10(min)); p <= Math.ceil(Math.log10(max)); p++) {
      [1, 2, 5].forEach(function (m) {
        var v = m * Math.pow(10, p);
        if (v >= min * 0.999 && v <= max * 1.001) { ticks.push(v); }
      });
    }
    return ticks;
  }

  function scale(min, max, a, b, log) {
    if (log) {
      var l0 = Math.log10(min), l1 = Math.log10(max);
      return function (v) { return a + (Math.log10(Math.max(v, min)) - l0) / ((l1 - l0) || 1) * (b - a); };
    }
    return function (v) { return a + (v - min) / ((max - min) || 1) * (b - a); };
  }

  function chartBox(parent, title, caption) {
    var box = html('div', {'class': 'chart'}, parent);
    var W = 600, H = 340;
    var root = svg('svg', {width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img'}, box);
    svg('text', {x: 10, y: 18, 'font-weight': '600'}, root).textContent = title;
    charts++;
    return {box: box, root: root, W: W, H: H, caption: function (text) { html('div', {'class': 'caption'}, box, text); }};
  }

  function legend(box, items) {
    var div = html('div', {'class': 'caption'}, box);
    items.forEach(function (it) {
      var span = html('span', {style: 'margin-right:12px;display:inline-block'}, div);
      html('span', {'class': 'swatch', style: 'background:' + it.color + (it.dash ? ';opacity:0.6' : '')}, span);
      span.appendChild(document.createTextNode(it.name));
    });
  }

  // opts: {title, xLabel, yLabel, xLog, yLog, series: [{name, color, points: [{x, y, tip, flag, lo, hi, ring}]}],
  //        bounds: [{name, color, points: [{x, y}]}], yFmt}
  // lo/hi draw an error bar; ring (a text) marks a step that was not steady; yFmt writes the y axis' ticks (default fmt).
  function lineChart(parent, opts) {
    var c = chartBox(parent, opts.title);
    var m = {l: 66, r: 18, t: 30, b: 44};
    var xs = [], ys = [];
    opts.series.forEach(function (s) { s.points.forEach(function (p) {
      if (p.y !== null && !isNaN(p.y)) { xs.push(p.x); ys.push(p.y); }
      [p.lo, p.hi].forEach(function (v) { if (v !== undefined && v !== null && !isNaN(v) && (!opts.yLog || v > 0)) { ys.push(v); } });
    }); });
    (opts.bounds || []).forEach(function (s) { s.points.forEach(function (p) { ys.push(p.y); xs.push(p.x); }); });
    if (!xs.length) { c.caption('no data'); return c; }
    var xmin = Math.min.apply(null, xs), xmax = Math.max.apply(null, xs);
    var ymax = Math.max.apply(null, ys), ymin = opts.yLog ? Math.max(Math.min.apply(null, ys.filter(function (v) { return v > 0; })), 1e-3) : 0;
    if (opts.yLog) { ymin = Math.pow(10, Math.floor(Math.log10(ymin))); ymax = Math.pow(10, Math.ceil(Math.log10(ymax * 1.05))); } else { ymax = ymax * 1.08 || 1; }
    if (opts.xLog) { xmin = xmin / 1.25; xmax = xmax * 1.25; } else if (xmin === xmax) { xmin = xmin * 0.5; xmax = xmax * 1.5; } else { var pad = (xmax - xmin) * 0.04; xmin -= pad; xmax += pad; if (xmin < 0) { xmin = 0; } }
    var X = scale(xmin, xmax, m.l, c.W - m.r, opts.xLog), Y = scale(ymin, ymax, c.H - m.b, m.t, opts.yLog);
    var grid = svg('g', {'class': 'grid'}, c.root), axis = svg('g', {'class': 'axis'}, c.root);
    var yt = opts.yLog ? logTicks(ymin, ymax) : niceTicks(ymin, ymax, 6);
    yt.forEach(function (t) {
      svg('line', {x1: m.l, x2: c.W - m.r, y1: Y(t), y2: Y(t)}, grid);
      svg('text', {x: m.l - 6, y: Y(t) + 4, 'text-anchor': 'end'}, axis).textContent = (opts.yFmt || fmt)(t);
    });
    var xt = opts.xLog ? (opts.xTicks || logTicks(xmin, xmax)) : niceTicks(xmin, xmax, 8);
    xt.forEach(function (t) {
      if (t < xmin || t > xmax) { return; }
      svg('line', {x1: X(t), x2: X(t), y1: c.H - m.b, y2: c.H - m.b + 4}, axis);
      svg('text', {x: X(t), y: c.H - m.b + 16, 'text-anchor': 'middle'}, axis).textContent = fmt(t);
    });
    svg('line', {x1: m.l, x2: c.W - m.r, y1: c.H - m.b, y2: c.H - m.b}, axis);
    svg('line', {x1: m.l, x2: m.l, y1: m.t, y2: c.H - m.b}, axis);
    svg('text', {x: (m.l + c.W - m.r) / 2, y: c.H - 8, 'text-anchor': 'middle'}, c.root).textContent = opts.xLabel + (opts.xLog ? ' (log)' : '');
    svg('text', {x: 14, y: (m.t + c.H - m.b) / 2, 'text-anchor': 'middle', transform: 'rotate(-90 14 ' + (m.t + c.H - m.b) / 2 + ')'}, c.root).textContent = opts.yLabel + (opts.yLog ? ' (log)' : '');
    (opts.bounds || []).forEach(function (b, bi) {
      var d = b.points.map(function (p, i) { return (i ? 'L' : 'M') + X(p.x).toFixed(1) + ',' + Y(p.y).toFixed(1); }).join(' ');
      var path = svg('path', {d: d, fill: 'none', stroke: b.color, 'stroke-width': 2, 'stroke-dasharray': '6 4'}, c.root);
      tip(path, b.name);
      var last = b.points[b.points.length - 1];
      svg('text', {x: Math.min(X(last.x), c.W - m.r) - 4, y: Y(last.y) - 5 + bi * 16, 'text-anchor': 'end', fill: b.color}, c.root).textContent = b.label || b.name;
    });
    opts.series.forEach(function (s) {
      var pts = s.points.filter(function (p) { return p.y !== null && !isNaN(p.y); }).sort(function (a, b) { return a.x - b.x; });
      if (pts.length > 1) {
        svg('path', {d: pts.map(function (p, i) { return (i ? 'L' : 'M') + X(p.x).toFixed(1) + ',' + Y(p.y).toFixed(1); }).join(' '),
          fill: 'none', stroke: s.color, 'stroke-width': 2, 'stroke-dasharray': s.dash || null}, c.root);
      }
      pts.forEach(function (p) {
        if (p.lo !== undefined && p.lo !== null && !isNaN(p.lo) && !isNaN(p.hi)) {
          errorBar(c.root, X(p.x), Y(p.lo), Y(p.hi), s.color, s.name + ' ' + (p.errTip || ('[' + fmt(p.lo) + ', ' + fmt(p.hi) + ']')));
          forkDots(c.root, X(p.x), Y, p.forks || [], s.color, s.name + ' ' + fmt(p.x));
        }
        if (p.ring) { steadyRing(c.root, X(p.x), Y(p.y), s.name + ': ' + p.ring); }
        var dot = svg('circle', {cx: X(p.x), cy: Y(p.y), r: p.flag ? 5.5 : 3.5, fill: p.flag ? '#fff' : s.color,
          stroke: p.flag ? '#b35900' : s.color, 'stroke-width': p.flag ? 2.5 : 1}, c.root);
        tip(dot, s.name + ': ' + (p.tip || (fmt(p.x) + ' → ' + fmt(p.y))) + (p.flag ? ' — load generator saturated' : ''));
      });
    });
    legend(c.box, opts.series.concat((opts.bounds || []).map(function (b) { return {name: b.name, color: b.color, dash: true}; })));
    return c;
  }

  // opts: {title, yLabel, groups: [{label, color, bars: [{label, flag, ring, err: {lo, hi, tip}, segments: [{value, color, name}]}]}],
  //        lines: [{y, label, color}], yFmt}; err draws an error bar, ring (a text) marks a step that was not steady.
  function barChart(parent, opts) {
    var c = chartBox(parent, opts.title);
    var m = {l: 66, r: 14, t: 30, b: 96};
    var ymax = 0;
    opts.groups.forEach(function (g) { g.bars.forEach(function (b) {
      var sum = b.segments.reduce(function (a, s) { return a + (isNaN(s.value) || s.value === null ? 0 : s.value); }, 0);
      ymax = Math.max(ymax, sum);
      if (b.err && !isNaN(b.err.hi)) { ymax = Math.max(ymax, b.err.hi); }
    }); });
    (opts.lines || []).forEach(function (l) { ymax = Math.max(ymax, l.y); });
    ymax = ymax * 1.1 || 1;
    var Y = scale(0, ymax, c.H - m.b, m.t, false);
    var grid = svg('g', {'class': 'grid'}, c.root), axis = svg('g', {'class': 'axis'}, c.root);
    niceTicks(0, ymax, 6).forEach(function (t) {
      svg('line', {x1: m.l, x2: c.W - m.r, y1: Y(t), y2: Y(t)}, grid);
      svg('text', {x: m.l - 6, y: Y(t) + 4, 'text-anchor': 'end'}, axis).textContent = (opts.yFmt || fmt)(t);
    });
    svg('line', {x1: m.l, x2: c.W - m.r, y1: c.H - m.b, y2: c.H - m.b}, axis);
    svg('text', {x: 14, y: (m.t + c.H - m.b) / 2, 'text-anchor': 'middle', transform: 'rotate(-90 14 ' + (m.t + c.H - m.b) / 2 + ')'}, c.root).textContent = opts.yLabel;
    var n = opts.groups.length || 1;
    var gw = (c.W - m.l - m.r) / n;
    opts.groups.forEach(function (g, gi) {
      var nb = g.bars.length || 1;
      var bw = Math.max(3, Math.min(28, (gw - 10) / nb));
      var x0 = m.l + gi * gw + (gw - bw * nb) / 2;
      g.bars.forEach(function (b, bi) {
        var y = c.H - m.b;
        b.segments.forEach(function (s) {
          var v = isNaN(s.value) || s.value === null ? 0 : s.value;
          var h = (c.H - m.b) - Y(v);
          var r = svg('rect', {x: x0 + bi * bw + 1, y: y - h, width: bw - 2, height: Math.max(0, h), fill: s.color,
            stroke: b.flag ? '#b35900' : 'none', 'stroke-width': b.flag ? 2 : 0}, c.root);
          tip(r, g.label + ' ' + b.label + ' — ' + s.name + ': ' + fmt(v, s.digits) + (b.flag ? ' (load generator saturated)' : ''));
          y -= h;
        });
        var cx = x0 + bi * bw + bw / 2;
        if (b.err && !isNaN(b.err.lo) && !isNaN(b.err.hi)) {
          errorBar(c.root, cx, Y(b.err.lo), Y(b.err.hi), '#1d232a', g.label + ' ' + b.label + ' — ' + (b.err.tip || ('[' + fmt(b.err.lo) + ', ' + fmt(b.err.hi) + ']')));
          forkDots(c.root, cx, Y, b.err.forks || [], '#1d232a', g.label + ' ' + b.label, b.err.digits);
        }
        if (b.ring) { steadyRing(c.root, cx, y - 10, g.label + ' ' + b.label + ': ' + b.ring); }
      });
      var lx = m.l + gi * gw + gw / 2;
      svg('text', {x: lx, y: c.H - m.b + 12, 'text-anchor': 'end', transform: 'rotate(-35 ' + lx + ' ' + (c.H - m.b + 12) + ')', fill: g.color || '#1d232a'}, c.root).textContent = g.label;
    });
    (opts.lines || []).forEach(function (l, li) {
      svg('line', {x1: m.l, x2: c.W - m.r, y1: Y(l.y), y2: Y(l.y), stroke: l.color, 'stroke-width': 2, 'stroke-dasharray': '6 4'}, c.root);
      svg('text', {x: c.W - m.r - 4, y: Y(l.y) - 5 + (li % 2) * 17, 'text-anchor': 'end', fill: l.color}, c.root).textContent = l.label;
    });
    return c;
  }

  function unique(list) { var seen = {}; return list.filter(function (v) { if (seen[v]) { return false; } seen[v] = 1; return true; }); }

  function levelOf(r) { return r.target_rps > 0 ? r.target_rps : r.concurrency; }
  function levelLabel(r) { return r.target_rps > 0 ? fmt(r.target_rps) + '/s' : 'c=' + r.concurrency; }
  function cpuPerReq(r) { return (r.cpu_user_ms_per_req || 0) + (r.cpu_sys_ms_per_req || 0); }
  function saturated(r) { return !!(r.step && r.step.load_saturated); }

  function isLogX(values) {
    var v = unique(values).sort(function (a, b) { return a - b; });
    if (v.length < 3 || v[0] <= 0) { return false; }
    var d = v[1] - v[0];
    for (var i = 2; i < v.length; i++) { if (Math.abs(v[i] - v[i - 1] - d) > d * 0.01) { return v[v.length - 1] / v[0] >= 16; } }
    return false;
  }

  function table(parent, headers, rows, rowClass) {
    var t = html('table', {}, parent);
    var tr = html('tr', {}, html('thead', {}, t));
    headers.forEach(function (h) { html('th', {'class': h.l ? 'l' : ''}, tr, h.name || h); });
    var tb = html('tbody', {}, t);
    rows.forEach(function (r, i) {
      var row = html('tr', rowClass ? {'class': rowClass(i) || ''} : {}, tb);
      r.forEach(function (cell, ci) {
        var td = html('td', {'class': (headers[ci].l ? 'l ' : '') + (cell && cell.cls ? cell.cls : '')}, row);
        if (cell && cell.href) { html('a', {href: cell.href}, td, cell.text); } else if (cell && cell.text !== undefined) { td.textContent = cell.text; } else { td.textContent = cell === null || cell === undefined ? '' : cell; }
      });
    });
    return t;
  }

  function envFacts(env) {
    var m = env.machine || {}, run = env.run || {}, pin = env.pinning || {};
    var jdks = (env.jdks || []).map(function (j) { return j.vendor + ' ' + j.version + ' (' + (j.flags || '') + ')'; }).join('; ');
    return [
      ['host', m.host], ['CPU', m.cpu_model], ['arch / CPUs', (m.arch || '') + ' / ' + (m.cpus || '')],
      ['kernel', m.kernel], ['OS', m.os], ['CPU governor', typeof m.cpu_governor === 'string' ? m.cpu_governor : JSON.stringify(m.cpu_governor)],
      ['JDKs (flags as the server saw them)', jdks], ['pinning', pin.description],
      ['profile', run.profile], ['driver', run.driver], ['conditions (TLS, gzip, metrics, store latency)', run.conditions || 'plain'], ['step / warm-up', (run.duration_s || '') + ' s / ' + (run.warmup_s || '') + ' s'],
      ['sync worker threads / delay', (run.threads || '') + ' / ' + (run.delay_ms || '') + ' ms'],
      ['memcached', (run.memcached_servers || '') + (run.memcached_started_by_runner ? ' (started by the runner)' : '')],
      ['tools', env.tools ? 'wrk: ' + env.tools.wrk + '; memcached: ' + env.tools.memcached +
        (env.tools.toxiproxy && env.tools.toxiproxy !== 'not used' ? '; ' + env.tools.toxiproxy + ' (the store latency\'s proxy)' : '') : ''],
      ['wall time', run.wall_time_s !== undefined ? run.wall_time_s + ' s' : ''],
      ['flame graphs', run.flamegraph || 'off'],
      ['problems', (run.problems || []).join('; ') || 'none']
    ].concat(priceFacts(env.price));
  }

  // environment.json's price (--price-per-hour, --prices, or added later by ./testbed report).
  function priceFacts(price) {
    if (!price) { return []; }
    return [['price', price.price_per_hour + ' per hour (' + price.source + ')' + (price.priced_after_the_run ? '; added after the run: ' + price.priced_after_the_run : '')],
      ['server share', price.server_share + ': ' + price.share], ['cost per million requests', price.formula]];
  }

  // A tick of a small figure without trailing zeros (0.0002, not 0.000200), so the axis keeps clear of its title.
  function shortNumber(v) { return v === 0 ? '0' : String(Number(Number(v).toPrecision(3))); }

  // steps.csv's cost of a million requests at the step's throughput; NaN for a run without a price.
  function costOf(r) { return r.step ? num(r.step.cost_per_million) : NaN; }

  // A cost chart beside a throughput chart: cost per million requests per variant and level, error bars from the interval.
  function costChart(div, sc, kind, kr, variants, color, xs, xLog, price) {
    if (!kr.some(function (r) { return !isNaN(costOf(r)); })) { return; }
    var title = sc + ': ' + labelOf('cost') + (xs.length > 1 ? ' vs ' + (kind[0] === 'closed' ? 'concurrency' : 'offered rate') : ' at ' + levelLabel(kr[0]));
    var c;
    if (xs.length > 1) {
      c = lineChart(div, {title: title, xLabel: kind[2], yLabel: labelOf('cost'), xLog: xLog, xTicks: xLog ? xs : null, yFmt: shortNumber,
        series: variants.filter(function (v) { return kr.some(function (r) { return r.variant === v; }); }).map(function (v) {
          return {name: v, color: color[v], points: kr.filter(function (r) { return r.variant === v; }).map(function (r) {
            var sp = spreadOf(r, 'cost');
            return {x: levelOf(r), y: costOf(r), flag: saturated(r), ring: steadyTip(r), lo: sp ? sp.lo : null, hi: sp ? sp.hi : null,
              tip: levelLabel(r) + ': ' + fmt(costOf(r)) + ' ' + unitOf('cost') + ' at ' + fmt(r.rps) + ' ' + unitOf('rps') + (sp ? ' ' + spreadText(sp) : ''),
              errTip: sp ? levelLabel(r) + ' cost ' + spreadText(sp) : null};
          })};
        })});
    } else {
      c = barChart(div, {title: title, yLabel: labelOf('cost'), yFmt: shortNumber, groups: kr.map(function (r) {
        return {label: r.variant, color: color[r.variant], bars: [{label: levelLabel(r), flag: saturated(r), ring: steadyTip(r),
          err: errOf(r, 'cost'), segments: [{value: costOf(r), color: color[r.variant], name: labelOf('cost')}]}]};
      })});
    }
    c.box.setAttribute('data-chart', 'cost');
    c.caption('Lower is better. ' + (price ? 'At ' + price.price_per_hour + ' per hour × server share ' + price.server_share + ' (' + price.share + '): ' : '') +
      'cost = price per hour × share ÷ (req/s × 3600) × 1,000,000, at each step\'s median throughput' +
      (kr.some(function (r) { return spreadOf(r, 'cost'); }) ? '; error bars: the throughput\'s interval turned into cost (the low end of the cost is the high end of the throughput).' : '.'));
  }

  // The not-steady marker's text for a step, or null when it was steady (or the run predates the check).
  function steadyTip(r) {
    if (!notSteady(r)) { return null; }
    return 'not steady: throughput still trended within the step in ' + num(r.step.not_steady_samples) + ' of ' + (num(r.step.repeats) || 1) + ' sample(s)';
  }

  function steadyCell(r) {
    if (!r.step || r.step.not_steady_samples === undefined) { return ''; }
    return notSteady(r) ? {text: 'NOT STEADY (' + num(r.step.not_steady_samples) + ' of ' + (num(r.step.repeats) || 1) + ')', cls: 'unsteady'} : 'steady';
  }

  function errOf(r, key, digits) {
    var sp = spreadOf(r, key);
    return sp ? {lo: sp.lo, hi: sp.hi, tip: spreadText(sp, digits), forks: forkMeansOf(r, key), digits: digits} : null;
  }

  function range(values, digits, unit) {
    var v = values.filter(function (x) { return !isNaN(x); });
    if (!v.length) { return '–'; }
    var lo = Math.min.apply(null, v), hi = Math.max.apply(null, v);
    return (lo === hi ? fmt(lo, digits) : fmt(lo, digits) + '–' + fmt(hi, digits)) + (unit || '');
  }

  // The run's repeats, the error bars' meaning, steadiness, the warm-up per variant, and mixed JDKs.
  function renderRepeats(main, rows, variants, run) {
    var withStep = rows.filter(function (r) { return r.step; });
    if (run.mixed_jdks === true) {
      var byVariant = variants.map(function (v) {
        return v + ': JDK ' + unique(rows.filter(function (r) { return r.variant === v; }).map(function (r) { return r.jdk; })).join(', ');
      });
      html('p', {'class': 'warning', id: 'mixed-jdks'}, main, 'Warning: the variants ran on different JDKs (' + byVariant.join('; ') +
        '). Differences between them are differences of JDK as well as of server.');
    }
    var repeats = withStep.map(function (r) { return num(r.step.repeats); }).filter(function (n) { return !isNaN(n); });
    var maxRepeats = repeats.length ? Math.max.apply(null, repeats) : NaN;
    if (maxRepeats > 1) {
      var conf = withStep.map(function (r) { var sp = spreadOf(r, 'rps'); return sp ? sp.confidence * 100 : NaN; });
      html('p', {'class': 'note', id: 'error-bars'}, main, 'Repeats: each step was measured ' + range(repeats, 0) + ' times' +
        (run.repeat ? ': in ' + run.repeat + ' freshly started server(s) (forks, the variants in a rotated order), ' + (run.iterations || 1) +
          ' time(s) in a row in each after one warm-up' : '') + '; the figures are the medians of the samples. Error bars: the ' + range(conf, 1, '%') +
        ' confidence interval of the figure\'s centre (the geometric mean of the fork means), with the fork as the unit: iterations of one ' +
        'server scatter less than servers do. With two forks it can be wide, and reach beyond the samples\' range. Open dots: each fork\'s mean, ' +
        'so that two JVMs apart show as two levels; ±N% beside an interval is its half-width, the smallest change the step can tell.');
    }
    var missed = withStep.filter(function (r) { return r.step.precision === 'missed'; });
    var added = withStep.filter(function (r) { return num(r.step.added_forks) > 0; });
    if (added.length || missed.length) {
      html('p', {'class': 'note' + (missed.length ? ' flag' : ''), id: 'precision'}, main, 'Precision: ' + added.length + ' step(s) got forks after the planned ones, ' +
        'the widest per second of cost first (precision.txt says why each). ' + (missed.length ? missed.length + ' step(s) are still wider than their target of ±' +
        unique(missed.map(function (r) { return r.step.precision_target_pct; })).join('/') + '%: ' + missed.map(function (r) {
          return r.variant + ' ' + r.scenario + ' ' + levelLabel(r) + ' (' + num(r.step.forks) + ' forks)';
        }).join(', ') + '. Their fork dots show whether their JVMs fall in two modes.' : 'Every step met its target.'));
    }
    if (!(maxRepeats > 1) && repeats.length) {
      html('p', {'class': 'note', id: 'error-bars'}, main, 'Repeats: each step was measured once, so there are no error bars and no spread: ' +
        'run with --forks 2 --iterations 2 or more to see how much the figures vary within a server and from one server start to the next.');
    }
    var unsteady = rows.filter(notSteady);
    if (unsteady.length) {
      html('p', {'class': 'note flag'}, main, unsteady.length + ' of ' + rows.length + ' steps were not steady: in some of their samples throughput still trended ' +
        'within the measured window (first third against last third of its 1-second windows). They are ringed in purple (dashed) on the charts and marked in the tables: ' +
        unsteady.map(function (r) { return r.variant + ' ' + r.scenario + ' ' + levelLabel(r); }).join(', ') + '.');
    }
    var retried = rows.filter(connectRetries);
    if (retried.length) {
      html('p', {'class': 'note flag', id: 'connect-retries'}, main, retried.length + ' of ' + rows.length + ' steps overflowed a listen queue: ' +
        'the kernel dropped connection attempts, which their clients retry only after a second (the initial SYN retransmission timeout), so ' +
        'their latency tail holds connect retries, not service time. Their p99 is marked "(connect retries)" in the tables: ' +
        retried.map(function (r) { return r.variant + ' ' + r.scenario + ' ' + levelLabel(r); }).join(', ') + '.');
    }
    // Windows the machine ran slow in (--slow-machine): left out of their step's figure, or measured again.
    var slowMachine = rows.filter(function (r) { return r.step && (num(r.step.slow_machine_samples) > 0 || num(r.step.slow_machine_retakes) > 0); });
    if (slowMachine.length) {
      html('p', {'class': 'note flag', id: 'slow-machine'}, main, slowMachine.length + ' of ' + rows.length + ' steps had windows in which ' +
        'the machine ran slow (a fixed loop timed on the server\'s or the load CPUs under --slow-machine of its best): those windows are left out ' +
        'of the step\'s figure (samples.csv left_out), and were measured again while the run allowed. Steps, windows left out and windows measured again: ' +
        slowMachine.map(function (r) {
          return r.variant + ' ' + r.scenario + ' ' + levelLabel(r) + ' (' + num(r.step.slow_machine_samples) + ' left out, ' +
            num(r.step.slow_machine_retakes) + ' measured again' + (r.step.slow_machine_figure === true || r.step.slow_machine_figure === 'true' ? '; every window was slow: the figure is theirs' : '') + ')';
        }).join(', ') + '.');
    }
    var cutShort = rows.filter(function (r) { return r.step && num(r.step.warmup_unsettled_samples) > 0; });
    if (cutShort.length) {
      html('p', {'class': 'note flag', id: 'warmup-cut-short'}, main, cutShort.length + ' of ' + rows.length + ' steps followed a warm-up that reached ' +
        'its --warmup limit before the server was steady (throughput still rising or the JIT still compiling): their figures may be those of a ' +
        'JVM still warming up. Raise --warmup for them: ' +
        cutShort.map(function (r) { return r.variant + ' ' + r.scenario + ' ' + levelLabel(r); }).join(', ') + '.');
    }
    if (!withStep.some(function (r) { return r.step.repeats !== undefined; })) { return; }
    html('h2', {}, main, 'Variants: warm-up, repeats, steadiness');
    table(main, [{name: 'variant', l: 1}, {name: 'mode', l: 1}, {name: 'JDK', l: 1}, {name: 'warm-up used per scenario', l: 1}, 'repeats', 'steps', {name: 'not steady', l: 1}],
      variants.map(function (v) {
        var vr = rows.filter(function (r) { return r.variant === v; });
        var warm = unique(vr.map(function (r) { return r.scenario; })).map(function (sc) {
          var w = vr.filter(function (r) { return r.scenario === sc && r.step; }).map(function (r) { return num(r.step.warmup_s); });
          return sc + ' ' + range(w, 1, ' s');
        });
        var bad = vr.filter(notSteady).length;
        return [v, vr[0].mode, unique(vr.map(function (r) { return r.jdk; })).join(', '), warm.join('; '),
          range(vr.map(function (r) { return r.step ? num(r.step.repeats) : NaN; }), 0), vr.length,
          bad ? {text: bad + ' step(s)', cls: 'unsteady'} : 'none'];
      }));
  }

  // A step under conditions other than plain (--tls, --conditions plain,metrics) is its own series: "vertx tls".
  function seriesOf(r) { return r.conditions && r.conditions !== 'plain' ? r.variant + ' ' + r.conditions : r.variant; }

  // The answer first: each scenario's level with its variants ranked (a shared rank: within noise), their
  // efficiency and p99, then the findings, each linked to the section that shows its evidence. Computed in
  // Java (RunSummary); the page only lays it out.
  function renderSummary(main, summary, emulated) {
    if (!summary || !summary.rankings || !summary.rankings.length) { return; }
    var sec = html('section', {id: 'summary'}, main);
    html('h2', {}, sec, 'The answer');
    if (emulated) { html('p', {'class': 'note flag'}, sec, 'Emulated: ' + emulated + '.'); }
    var priced = summary.rankings.some(function (r) { return r.places.some(function (p) { return !isNaN(num(p.cost_per_million)); }); });
    var grid = html('div', {'class': 'summary-grid'}, sec);
    summary.rankings.forEach(function (r) {
      var box = html('div', {'class': 'ranking'}, grid);
      html('h3', {}, box, r.scenario + ' ' + r.level + (r.conditions === 'plain' ? '' : ' (' + r.conditions + ')'));
      table(box, [{name: '#', l: 0}, {name: 'variant', l: 1}, hdr('rps'), 'smallest change', 'req per CPU-s', 'of best', hdr('p99')].concat(priced ? [labelOf('cost')] : []),
        r.places.map(function (p) {
          return [p.rank, p.variant + (p.saturated ? ' (load saturated)' : ''), fmt(num(p.rps), 0),
            isNaN(num(p.rps_half_width_pct)) ? '–' : '±' + fmt(num(p.rps_half_width_pct), 1) + '%',
            isNaN(num(p.requests_per_cpu_second)) ? '–' : fmt(num(p.requests_per_cpu_second), 0),
            isNaN(num(p.efficiency_of_best)) ? '–' : fmt(num(p.efficiency_of_best), 2), fmt(num(p.p99_ms), digitsOf('p99'))]
            .concat(priced ? [figureValue(FIG('cost'), p.cost_per_million)] : []);
        }));
      if (r.note) { html('p', {'class': 'note'}, box, r.note.charAt(0).toUpperCase() + r.note.slice(1) + '.'); }
    });
    html('p', {'class': 'note'}, sec, 'Ranked by throughput; variants that share a rank differ by less than the run\'s compare rule calls a change. ' +
      'Requests per CPU-second: the server\'s efficiency, 1 / its CPU time per request; "of best" is its share of the best one\'s.');
    if (summary.findings && summary.findings.length) {
      html('h3', {}, sec, 'Findings');
      var ul = html('ul', {'class': 'findings'}, sec);
      summary.findings.forEach(function (f) {
        var li = html('li', {'data-rule': f.rule}, ul, f.text + ' ');
        var a = html('a', {href: '#' + f.evidence, title: f.why}, li, '(evidence)');
        a.setAttribute('class', 'evidence');
      });
    }
  }

  function renderReport(data) {
    [data.rows, data.counters, data.capacity].forEach(function (list) {
      (list || []).forEach(function (r) { r.server = r.variant; r.variant = seriesOf(r); });
    });
    var rows = data.rows || [];
    var env = data.env || {};
    rowCount = rows.length;
    var main = document.getElementById('main');
    var run = env.run || {};
    renderSummary(main, data.summary, data.emulation_note);
    html('h2', {id: 'method'}, main, 'Method');
    html('p', {'class': 'note'}, main, (env.machine ? env.machine.cpu_model + ', ' + env.machine.arch + ', ' + env.machine.cpus + ' CPUs; ' : '') +
      (env.pinning ? env.pinning.description + '. ' : '') +
      'Server CPU per request comes from /proc/PID/stat (user and system time of the server process) before and after each step' +
      (rows.some(function (r) { return r.step && r.step.cpu_clock === 'schedstat'; }) ? ', or, where a window held under 200 clock ticks of it (cpu_clock in ' +
        'steps.csv), from its threads\' schedstat run time in nanoseconds, split in the ticks\' proportion' : '') + '. ' +
      'Points and bars outlined in orange are steps where the load generator used more than ' + (run.saturation_pct || 90) +
      '% of its CPUs (the driver, memcached when it shares them, and the interrupt/softirq time of loopback networking there): the limit may have been the client, not the server. ' +
      '"Load/server CPUs busy" and "steal" (from /proc/stat) count anything that ran there; "other load" is the busy time none of the run\'s processes accounts for: above ' + RULES.not_quiet_pct + '% the machine was not quiet and the figures are noisy.');
    if (data.emulation_note) { html('p', {'class': 'note flag', id: 'emulation-note'}, main, 'Emulated: ' + data.emulation_note + '.'); }
    var noisy = rows.filter(function (r) { return r.step && r.step.other_load_pct > RULES.not_quiet_pct; }).length;
    if (noisy) { html('p', {'class': 'note flag'}, main, noisy + ' of ' + rows.length + ' steps ran on a machine that was not quiet (other load above ' + RULES.not_quiet_pct + '% of the CPUs): compare them with care, or re-run on an idle machine.'); }
    if (!rows.length) { html('p', {}, main, 'No rows in results.csv.'); return; }
    var variants = unique(rows.map(function (r) { return r.variant; }));
    var color = {};
    variants.forEach(function (v, i) { color[v] = PALETTE[i % PALETTE.length]; });
    if (data.capacity && data.capacity.length) { renderCapacity(main, data.capacity, color); }
    renderConditionCost(main, rows);
    renderStoreLatency(main, rows);
    renderRepeats(main, rows, variants, run);
    var scenarios = unique(rows.map(function (r) { return r.scenario; }));
    scenarios.forEach(function (sc) {
      var rs = rows.filter(function (r) { return r.scenario === sc; });
      var delayMs = 0, threads = 0;
      rs.forEach(function (r) { if (r.step) { delayMs = r.step.delay_ms || delayMs; threads = r.step.threads || threads; } });
      if (sc === 'delay') { delayMs = delayMs || run.delay_ms || 150; threads = threads || run.threads || 200; }
      html('h2', {id: 'scenario-' + sc}, main, 'Scenario: ' + sc + (sc === 'delay' ? ' (' + delayMs + ' ms of simulated I/O per request)' : ''));
      [['closed', function (r) { return !(r.target_rps > 0); }, 'concurrent users (closed model)'],
        ['open', function (r) { return r.target_rps > 0; }, 'offered rate, req/s (open model)']].forEach(function (kind) {
        var kr = rs.filter(kind[1]);
        if (!kr.length) { return; }
        var div = html('div', {'class': 'charts'}, main);
        var xsAll = kr.map(levelOf);
        var xs = unique(xsAll);
        var syncVariants = unique(kr.filter(function (r) { return r.mode === 'sync'; }).map(function (r) { return r.variant; }));
        var bound = sc === 'delay' && delayMs > 0 && threads > 0 && syncVariants.length;
        var boundRps = threads / (delayMs / 1000);
        var boundLabel = 'Little\'s law, sync: ' + threads + ' threads / ' + (delayMs / 1000).toFixed(3) + ' s = ' + fmt(boundRps) + ' req/s';
        if (xs.length > 1) {
          var xLog = isLogX(xsAll);
          var series = variants.filter(function (v) { return kr.some(function (r) { return r.variant === v; }); }).map(function (v) {
            return {name: v + (syncVariants.indexOf(v) >= 0 && bound ? ' (sync)' : ''), color: color[v], points: kr.filter(function (r) { return r.variant === v; }).map(function (r) {
              var sp = spreadOf(r, 'rps');
              return {x: levelOf(r), y: r.rps, flag: saturated(r), tip: levelLabel(r) + ': ' + fmt(r.rps) + ' ' + unitOf('rps') + (sp ? ' ' + spreadText(sp, 0) : '') + ', p99 ' + fmt(r.lat_p99_ms) + ' ' + unitOf('p99'),
                lo: sp ? sp.lo : null, hi: sp ? sp.hi : null, errTip: sp ? levelLabel(r) + ' ' + unitOf('rps') + ' ' + spreadText(sp, 0) : null, ring: steadyTip(r),
                forks: forkMeansOf(r, 'rps')};
            })};
          });
          var bounds = [];
          if (bound) {
            var sx = xs.slice().sort(function (a, b) { return a - b; });
            var pts = kind[0] === 'closed'
              ? sx.map(function (x) { return {x: x, y: Math.min(x, threads) / (delayMs / 1000)}; })
              : [{x: sx[0], y: boundRps}, {x: sx[sx.length - 1], y: boundRps}];
            bounds.push({name: boundLabel, label: 'sync bound ' + fmt(boundRps) + '/s', color: '#b00020', points: pts});
            if (kind[0] === 'closed') {
              bounds.push({name: 'closed-loop client bound: users / delay', label: 'client bound', color: '#7f7f7f',
                points: sx.map(function (x) { return {x: x, y: x / (delayMs / 1000)}; })});
            }
          }
          lineChart(div, {title: sc + ': ' + labelOf('rps') + ' vs ' + (kind[0] === 'closed' ? 'concurrency' : 'offered rate'), xLabel: kind[2],
            yLabel: hdr('rps'), xLog: xLog, xTicks: xLog ? xs : null, series: series, bounds: bounds});
          costChart(div, sc, kind, kr, variants, color, xs, xLog, env.price);
          // The probes of a capacity search (--sla on p99): the objective as a line, so the rates met lie under it.
          var slaBounds = [];
          var slas = {};
          kr.forEach(function (r) { if (r.step && r.step.sla && r.step.sla_percentile === 99) { slas[r.step.sla] = r.step.sla_bound_ms; } });
          Object.keys(slas).forEach(function (sla) {
            if (xs.length) {
              var sx2 = xs.slice().sort(function (a, b) { return a - b; });
              slaBounds.push({name: 'SLA ' + sla, label: 'SLA ' + sla, color: '#b00020',
                points: [{x: sx2[0], y: slas[sla]}, {x: sx2[sx2.length - 1], y: slas[sla]}]});
            }
          });
          lineChart(div, {title: sc + ': ' + labelOf('p99') + ' vs ' + (kind[0] === 'closed' ? 'concurrency' : 'offered rate'), xLabel: kind[2],
            yLabel: hdr('p99'), xLog: xLog, xTicks: xLog ? xs : null, yLog: true, bounds: slaBounds, series: series.map(function (s, i) {
              var v = variants.filter(function (vv) { return kr.some(function (r) { return r.variant === vv; }); })[i];
              return {name: s.name, color: s.color, points: kr.filter(function (r) { return r.variant === v; }).map(function (r) {
                var sp = spreadOf(r, 'p99');
                return {x: levelOf(r), y: r.lat_p99_ms, flag: saturated(r), tip: levelLabel(r) + ': p99 ' + fmt(r.lat_p99_ms) + ' ' + unitOf('p99') + (sp ? ' ' + spreadText(sp, digitsOf('p99')) : ''),
                  lo: sp ? sp.lo : null, hi: sp ? sp.hi : null, errTip: sp ? levelLabel(r) + ' ' + hdr('p99') + ' ' + spreadText(sp, digitsOf('p99')) : null, ring: steadyTip(r),
                  forks: forkMeansOf(r, 'p99')};
              })};
            })});
        } else {
          var lines = [];
          if (bound) {
            lines.push({y: Math.min(kind[0] === 'closed' ? xs[0] : Infinity, threads) / (delayMs / 1000), label: boundLabel, color: '#b00020'});
            if (kind[0] === 'closed') { lines.push({y: xs[0] / (delayMs / 1000), label: 'closed-loop client bound: ' + xs[0] + ' users / ' + (delayMs / 1000).toFixed(3) + ' s', color: '#7f7f7f'}); }
            if (kind[0] === 'open') { lines.push({y: xs[0], label: 'offered ' + fmt(xs[0]) + ' ' + unitOf('rps'), color: '#7f7f7f'}); }
          }
          var groups = kr.map(function (r) {
            return {label: r.variant + (r.mode === 'sync' && bound ? ' (sync)' : ''), color: color[r.variant], bars: [{label: levelLabel(r), flag: saturated(r),
              err: errOf(r, 'rps', 0), ring: steadyTip(r), segments: [{value: r.rps, color: color[r.variant], name: unitOf('rps')}]}]};
          });
          barChart(div, {title: sc + ' at ' + levelLabel(kr[0]) + ': ' + labelOf('rps'), yLabel: hdr('rps'), groups: groups, lines: lines});
          costChart(div, sc, kind, kr, variants, color, xs, false, env.price);
          barChart(div, {title: sc + ' at ' + levelLabel(kr[0]) + ': ' + labelOf('p99'), yLabel: hdr('p99'), groups: kr.map(function (r) {
            return {label: r.variant, color: color[r.variant], bars: [{label: levelLabel(r), flag: saturated(r),
              err: errOf(r, 'p99', digitsOf('p99')), ring: steadyTip(r), segments: [{value: r.lat_p99_ms, color: color[r.variant], name: hdr('p99'), digits: digitsOf('p99')}]}]};
          })});
        }
        // CPU per request, user and system stacked, a bar per level in each variant's group.
        var cpuGroups = variants.filter(function (v) { return kr.some(function (r) { return r.variant === v; }); }).map(function (v) {
          return {label: v, color: color[v], bars: kr.filter(function (r) { return r.variant === v; }).sort(function (a, b) { return levelOf(a) - levelOf(b); }).map(function (r) {
            return {label: levelLabel(r), flag: saturated(r), err: errOf(r, 'cpu', digitsOf('cpu')), ring: steadyTip(r), segments: [
              {value: r.cpu_user_ms_per_req, color: color[v], name: 'user ' + unitOf('cpu'), digits: digitsOf('cpu')},
              {value: r.cpu_sys_ms_per_req, color: '#c9d1d9', name: 'system ' + unitOf('cpu'), digits: digitsOf('cpu')}]};
          })};
        });
        var cc = barChart(div, {title: sc + ': server ' + labelOf('cpu') + ' (user + system), one bar per level', yLabel: hdr('cpu'), groups: cpuGroups});
        cc.caption('Dark: user time; grey: system (kernel) time' + (kr.some(function (r) { return spreadOf(r, 'cpu'); }) ? '; error bars: the interval of the total (see the note at the top)' : '') + '. Bars left to right: ' + xs.slice().sort(function (a, b) { return a - b; }).map(function (x) { return kind[0] === 'closed' ? 'c=' + x : fmt(x) + '/s'; }).join(', ') + '.');
        // Best level per variant.
        html('h3', {}, main, sc + ' (' + kind[0] + ' model): best ' + labelOf('rps') + ' per variant');
        var best = variants.map(function (v) {
          var vr = kr.filter(function (r) { return r.variant === v; });
          if (!vr.length) { return null; }
          return vr.reduce(function (a, b) { return b.rps > a.rps ? b : a; });
        }).filter(function (r) { return r; }).sort(function (a, b) { return b.rps - a.rps; });
        table(main, [{name: 'variant', l: 1}, {name: 'mode', l: 1}, 'level', hdr('rps'), {name: labelOf('rps') + ' interval', l: 1}, hdr('p99'), hdr('cpu') + ' (user+sys)', labelOf('errors'), {name: 'steady', l: 1}, {name: 'load generator', l: 1}],
          best.map(function (r) { return [r.variant, r.mode, levelLabel(r), fmt(r.rps, 0), spreadText(spreadOf(r, 'rps'), 0), p99Cell(r, fmt(r.lat_p99_ms, digitsOf('p99'))), fmt(cpuPerReq(r), digitsOf('cpu')), r.errors, steadyCell(r),
            r.step ? {text: (saturated(r) ? 'SATURATED: ' : '') + 'load side ' + fmt(r.step.load_side_pct || (r.step.driver_cpu_pct || 0) + (r.step.memcached_cpu_pct || 0), 0) + '% (driver ' + fmt(r.step.driver_cpu_pct, 0) + '%, memcached ' +
              fmt(r.step.memcached_cpu_pct, 0) + '%)', cls: saturated(r) ? 'bad' : ''} : '']; }));
      });
    });
    // timeline.js: the per-operation figures here, and each step through time (its rows' links below).
    var kit = {html: html, table: table, barChart: barChart, legend: legend, fmt: fmt, niceTicks: niceTicks, unique: unique,
      levelOf: levelOf, levelLabel: levelLabel, seriesOf: seriesOf, color: color, chart: function () { charts++; }};
    if (window.testbedTimeline) { window.testbedTimeline.operations(main, data, kit); }
    html('h2', {id: 'steps'}, main, 'Every step: latency percentiles, server CPU, memory, GC');
    // With --jfr, the JVM's own account of the window beside the CPU and the saturation readings.
    var recorded = rows.some(function (r) { return r.jfr; });
    var at = -1;
    var afterThrottled = function (cells, jfrCells) {
      if (at < 0) { at = cells.indexOf('CPU throttled') + 1; } // the header comes first: every row splices there too
      return recorded ? cells.slice(0, at).concat(jfrCells).concat(cells.slice(at)) : cells;
    };
    table(main, afterThrottled([{name: 'variant', l: 1}, {name: 'scenario', l: 1}, 'level', {name: 'through time', l: 1}, {name: 'driver', l: 1}, {name: 'conditions', l: 1}, 'TLS handshakes', 'gzip responses', 'requests', labelOf('errors'), hdr('rps'),
      hdr('p50'), hdr('p90'), hdr('p99'), hdr('p99.9'), 'max ms', 'CPU user, ' + unitOf('cpu'), 'CPU sys, ' + unitOf('cpu'), hdr('runq_wait'), 'queued (of its CPUs)',
      hdr('involuntary_cs'), 'listen overflows', 'TCP retransmits', 'CPU throttled', 'RSS MiB', 'GCs', 'GC ms',
      'load side', 'driver CPU', 'memcached CPU', 'load CPUs busy', 'server CPUs busy', 'steal', 'other load',
      'repeats', {name: hdr('rps') + ' interval', l: 1}, {name: hdr('p99') + ' interval', l: 1}, {name: hdr('cpu') + ' interval', l: 1}, {name: 'steady', l: 1}, 'warm-up',
      {name: 'raw', l: 1}, {name: 'flame graph', l: 1}, {name: 'heat map', l: 1}], ['pinned virtual threads (JFR)', 'GC pauses (JFR)', 'safepoints (JFR)',
      'allocated MB/s (JFR)', 'allocated kB/req (JFR)', {name: 'contended monitors (JFR)', l: 1}]),
      rows.map(function (r) {
        var s = r.step || {};
        var j = r.jfr;
        return afterThrottled([r.variant, r.scenario, levelLabel(r), r.timeline !== undefined ? {href: '#timeline=' + r.timeline, text: 'through time'} : '',
          r.driver, r.conditions || 'plain', s.tls_handshakes !== undefined ? s.tls_handshakes : '',
          s.gzip_responses !== undefined ? s.gzip_responses : '', r.requests, r.errors ? {text: String(r.errors), cls: 'bad'} : 0, fmt(r.rps, 1),
          fmt(r.lat_p50_ms, digitsOf('p50')), fmt(r.lat_p90_ms, digitsOf('p90')), p99Cell(r, fmt(r.lat_p99_ms, digitsOf('p99'))), fmt(r.lat_p999_ms, digitsOf('p99.9')), fmt(r.lat_max_ms, digitsOf('p99')),
          fmt(r.cpu_user_ms_per_req, digitsOf('cpu')), fmt(r.cpu_sys_ms_per_req, digitsOf('cpu')), fmt(num(s.runq_wait_us_per_req), digitsOf('runq_wait')),
          isNaN(num(s.runq_wait_pct)) ? '' : {text: fmt(num(s.runq_wait_pct), 0) + '%', cls: num(s.runq_wait_pct) >= 10 ? 'bad' : ''},
          fmt(num(s.involuntary_cs_per_req), digitsOf('involuntary_cs')), num(s.listen_overflows) > 0 ? {text: fmt(num(s.listen_overflows), 0), cls: 'bad'} : fmt(num(s.listen_overflows), 0),
          fmt(num(s.tcp_retransmits), 0), num(s.cpu_throttled_ms) > 0 ? {text: fmt(num(s.cpu_throttled_ms), 0) + ' ms of ' + fmt(num(s.cgroup_cpu_limit), 2) + ' CPUs', cls: 'bad'} : '',
          fmt(r.server_rss_mb, 1), r.gc_count, fmt(r.gc_ms, 1),
          s.load_side_pct !== undefined ? {text: fmt(s.load_side_pct, 0) + '%' + (s.load_saturated ? ' SATURATED' : ''), cls: s.load_saturated ? 'bad' : ''} : '',
          s.driver_cpu_pct !== undefined ? fmt(s.driver_cpu_pct, 0) + '%' : '',
          s.memcached_cpu_pct !== undefined ? fmt(s.memcached_cpu_pct, 0) + '%' : '', s.load_cpus_busy_pct !== undefined ? fmt(s.load_cpus_busy_pct, 0) + '%' : '', s.server_cpus_busy_pct !== undefined ? fmt(s.server_cpus_busy_pct, 0) + '%' : '',
          s.steal_pct !== undefined ? fmt(s.steal_pct, 1) + '%' : '',
          s.other_load_pct !== undefined ? {text: fmt(s.other_load_pct, 0) + '%', cls: s.other_load_pct > RULES.not_quiet_pct ? 'bad' : ''} : '',
          s.repeats !== undefined ? s.repeats : '', spreadText(spreadOf(r, 'rps'), digitsOf('rps')), spreadText(spreadOf(r, 'p99'), digitsOf('p99')), spreadText(spreadOf(r, 'cpu'), digitsOf('cpu')),
          steadyCell(r), isNaN(num(s.warmup_s)) ? '' : (num(s.warmup_unsettled_samples) > 0
            ? {text: fmt(num(s.warmup_s), 1) + ' s, cut short in ' + num(s.warmup_unsettled_samples), cls: 'unsteady'} : fmt(num(s.warmup_s), 1) + ' s'),
          s.raw ? {href: s.raw, text: 'raw'} : '', s.flamegraph ? {href: s.flamegraph, text: 'flame graph'} : '',
          s.heatmap ? {href: s.heatmap, text: 'heat map'} : ''], !j ? ['', '', '', '', '', ''] : [
          num(j.pinned) > 0 ? {text: fmt(num(j.pinned), 0) + ', ' + fmt(num(j.pinned_ms), 0) + ' ms, longest ' + fmt(num(j.pinned_max_ms), 0) + ' ms', cls: 'bad'} : '0',
          fmt(num(j.gc_pauses), 0) + ', ' + fmt(num(j.gc_pause_ms), 1) + ' ms, longest ' + fmt(num(j.gc_pause_max_ms), 1) + ' ms',
          fmt(num(j.safepoints), 0) + ', ' + fmt(num(j.safepoint_ms), 1) + ' ms', fmt(num(j.alloc_mb_per_s), 1), fmt(num(j.alloc_kb_per_req), 2),
          j.jfr_file ? {href: j.jfr_file, text: j.contended_monitors || 'none'} : (j.contended_monitors || 'none')]);
      }), function (i) { return saturated(rows[i]) ? 'saturated' : ''; });
    renderProbedFigures(main, rows);
    renderStepColumns(main, rows);
    if (data.counters && data.counters.length) { renderCounters(main, data.counters, color); }
    renderEnvironment(main, env);
    if (window.testbedTimeline) { window.testbedTimeline.install(main, data, kit); }
  }

  // The probes' figures of every step (steps.csv: the median of its samples), each under its declared
  // label and unit: a figure a probe adds shows here without a line of this script.
  function renderProbedFigures(main, rows) {
    var figures = probed(rows);
    if (!figures.length) { return; }
    html('h2', {id: 'probed'}, main, 'Figures from probes');
    html('p', {'class': 'note'}, main, figures.map(function (f) { return f.label + ': ' + f.better; }).join('; ') +
      '. Each step\'s figure is the median of its samples.');
    table(main, [{name: 'variant', l: 1}, {name: 'scenario', l: 1}, 'level', {name: 'conditions', l: 1}].concat(figures.map(figureName)),
      rows.map(function (r) {
        var s = r.step || {};
        return [r.server || r.variant, r.scenario, levelLabel(r), r.conditions || 'plain'].concat(figures.map(function (f) { return figureValue(f, s[f.key]); }));
      }));
  }

  // steps.csv as written, every column under its own name: a figure added to the run folder's
  // schema shows here without a line of this script.
  function renderStepColumns(main, rows) {
    var withStep = rows.filter(function (r) { return r.step; });
    if (!withStep.length) { return; }
    var columns = Object.keys(withStep[0].step);
    var d = html('details', {}, main);
    html('summary', {}, d, 'Every column of steps.csv');
    table(d, columns.map(function (c) { return {name: c, l: 1}; }), withStep.map(function (r) {
      return columns.map(function (c) {
        var v = r.step[c];
        return v === null || v === undefined ? '' : typeof v === 'number' ? fmt(v) : String(v);
      });
    }));
  }

  // A run under several conditions (--conditions plain,metrics): each condition's step against the same step under plain.
  function renderConditionCost(main, rows) {
    var pairs = [];
    rows.forEach(function (r) {
      if (!r.conditions || r.conditions === 'plain') { return; }
      var base = rows.filter(function (p) {
        return p.server === r.server && p.scenario === r.scenario && levelOf(p) === levelOf(r) && (p.conditions || 'plain') === 'plain' && !!(p.target_rps > 0) === !!(r.target_rps > 0);
      })[0];
      if (base) { pairs.push([base, r]); }
    });
    if (!pairs.length) { return; }
    html('h2', {id: 'condition-cost'}, main, 'What each condition costs (against the same step under plain)');
    html('p', {'class': 'note'}, main, 'Each variant ran under each set of conditions in turn, started afresh for each. Ratios are the condition\'s step over the plain one (medians); ' +
      'for intervals and verdicts from the repeats, run ./testbed compare on this run folder twice with --conditions plain:<set>.');
    function ratio(b, a) { return a > 0 ? fmt(b / a, 3) : ''; }
    // A probe's figure (the bytes a response took) beside the CPU it costs: what gzip saves and what it spends.
    var extra = probed(rows);
    table(main, [{name: 'variant', l: 1}, {name: 'scenario', l: 1}, 'level', {name: 'conditions', l: 1}, hdr('rps') + ' plain', hdr('rps'), 'ratio',
      hdr('p99') + ' plain', hdr('p99'), 'ratio', hdr('cpu') + ' plain', hdr('cpu'), 'ratio', 'CPU µs/req added']
      .concat([].concat.apply([], extra.map(function (f) { return [figureName(f) + ' plain', figureName(f), 'ratio']; }))),
      pairs.map(function (p) {
        var a = p[0], b = p[1];
        return [a.server, a.scenario, levelLabel(a), b.conditions, fmt(a.rps), fmt(b.rps), ratio(b.rps, a.rps), fmt(a.lat_p99_ms, digitsOf('p99')), fmt(b.lat_p99_ms, digitsOf('p99')),
          ratio(b.lat_p99_ms, a.lat_p99_ms), fmt(cpuPerReq(a), digitsOf('cpu')), fmt(cpuPerReq(b), digitsOf('cpu')), ratio(cpuPerReq(b), cpuPerReq(a)), fmt(1000 * (cpuPerReq(b) - cpuPerReq(a)), 1)]
          .concat([].concat.apply([], extra.map(function (f) {
            var va = num((a.step || {})[f.key]), vb = num((b.step || {})[f.key]);
            return [figureValue(f, va), figureValue(f, vb), ratio(vb, va)];
          })));
      }));
  }

  // The store latency of a row's conditions (store10ms, tls+store10ms~2ms), in ms; NaN when it has none.
  function storeLatencyOf(r) {
    var m = /(?:^|\+)store(\d+)ms/.exec(r.conditions || '');
    return m ? Number(m[1]) : NaN;
  }

  // --store-latency with several latencies (the store-latency profile): throughput and p99 against the store's
  // distance, one line per server at each scenario, level and other conditions; the x axis is what changed.
  function renderStoreLatency(main, rows) {
    var stored = rows.filter(function (r) { return !isNaN(storeLatencyOf(r)); });
    if (unique(stored.map(storeLatencyOf)).length < 2) { return; }
    html('h2', {id: 'store-latency'}, main, 'Throughput and p99 against the store\'s latency');
    html('p', {'class': 'note'}, main, 'Each variant reached memcached through Toxiproxy, every reply delayed by the latency on the x axis ' +
      '(0 ms: through the proxy, undelayed). A sync server holds a worker thread for each wait, so its throughput is bound by threads / latency; ' +
      'an async one holds none. Medians; the error bars are the intervals of the repeats.');
    var servers = unique(stored.map(function (r) { return r.server; }));
    var colors = {};
    servers.forEach(function (v, i) { colors[v] = PALETTE[i % PALETTE.length]; });
    function rest(r) { return (r.conditions || '').split('+').filter(function (c) { return !/^store\d/.test(c); }).join('+'); }
    var groups = unique(stored.map(function (r) { return r.scenario + '|' + levelLabel(r) + '|' + rest(r); }));
    groups.forEach(function (g) {
      var gr = stored.filter(function (r) { return r.scenario + '|' + levelLabel(r) + '|' + rest(r) === g; });
      var first = gr[0];
      var where = first.scenario + ' at ' + levelLabel(first) + (rest(first) ? ' (' + rest(first) + ')' : '');
      var div = html('div', {'class': 'charts'}, main);
      [['rps', false], ['p99', true]].forEach(function (f) {
        var key = f[0];
        lineChart(div, {title: where + ': ' + labelOf(key) + ' vs store latency', xLabel: 'store latency, ms', yLabel: hdr(key), yLog: f[1],
          series: servers.filter(function (v) { return gr.some(function (r) { return r.server === v; }); }).map(function (v) {
            return {name: v, color: colors[v], points: gr.filter(function (r) { return r.server === v; }).map(function (r) {
              var y = key === 'rps' ? r.rps : r.lat_p99_ms;
              var sp = spreadOf(r, key);
              return {x: storeLatencyOf(r), y: y, flag: saturated(r), lo: sp ? sp.lo : null, hi: sp ? sp.hi : null, ring: steadyTip(r),
                tip: r.conditions + ': ' + fmt(y, digitsOf(key)) + ' ' + unitOf(key) + (sp ? ' ' + spreadText(sp, digitsOf(key)) : '')};
            })};
          })});
      });
    });
  }

  // capacity.csv (--sla): the highest offered rate whose step met the SLA with no error, per variant and scenario.
  function renderCapacity(main, capacity, color) {
    html('h2', {id: 'capacity'}, main, 'Capacity under ' + unique(capacity.map(function (c) { return c.sla; })).join(', '));
    html('p', {'class': 'note'}, main, 'Each capacity is the highest offered rate (open model, latency from the intended start) whose step met the objective with no error: ' +
      'the rate doubled until a step missed, then bisected between the last rate met and the first missed. Every probe is a step of its own, drawn below with the scenario. ' +
      'With repeats, each pass searched in a freshly started server: the bar is the median, the whisker the range of the passes. Capacity 0 means even the lowest rate missed.');
    var scenarios = unique(capacity.map(function (c) { return c.scenario; }));
    var div = html('div', {'class': 'charts'}, main);
    scenarios.forEach(function (sc) {
      var cs = capacity.filter(function (c) { return c.scenario === sc; });
      barChart(div, {title: sc + ': capacity under ' + unique(cs.map(function (c) { return c.sla; })).join(', '), yLabel: 'requests per second', groups: cs.map(function (c) {
        return {label: c.variant, color: color[c.variant], bars: [{label: c.sla,
          segments: [{value: c.capacity_rps, color: color[c.variant], name: 'capacity, req/s', digits: 0}],
          err: c.searches > 1 ? {lo: c.min, hi: c.max, tip: 'range of ' + c.searches + ' passes: [' + fmt(c.min) + ', ' + fmt(c.max) + ']'} : null}]};
      })});
    });
    var rows = [];
    var priced = capacity.some(function (c) { return c.cost_per_million !== undefined; });
    capacity.forEach(function (c) {
      c.passes.forEach(function (p, i) {
        var row = [i === 0 ? c.variant : '', i === 0 ? c.scenario : '', i === 0 ? c.conditions : '', i === 0 ? c.sla : '',
          i === 0 ? fmt(c.capacity_rps) + (c.searches > 1 ? ' [' + fmt(c.min) + ', ' + fmt(c.max) + ']' : '') : ''];
        if (priced) { row.push(i === 0 ? fmt(num(c.cost_per_million)) : ''); }
        rows.push(row.concat([p.repeat, fmt(p.capacity_rps), p.probe_log, p.reason]));
      });
    });
    table(main, [{name: 'variant', l: 1}, {name: 'scenario', l: 1}, {name: 'conditions', l: 1}, {name: 'SLA', l: 1}, 'capacity, req/s']
      .concat(priced ? ['cost per million requests at capacity'] : [])
      .concat(['pass', 'found', {name: 'probes (req/s)', l: 1}, {name: 'why it stopped there', l: 1}]), rows);
  }

  // counters.csv (--counters): what perf stat counted in the server per request, median of a step's samples.
  var COUNTERS = [['task_clock_ms_per_req', 'task-clock ms', 4], ['context_switches_per_req', 'context switches', 3],
    ['cpu_migrations_per_req', 'CPU migrations', 4], ['page_faults_per_req', 'page faults', 3], ['cycles_per_req', 'cycles', 0],
    ['instructions_per_req', 'instructions', 0], ['ipc', 'IPC', 2], ['ref_cycles_per_req', 'ref-cycles', 0],
    ['ipc_per_ref_cycle', 'IPC per ref-cycle', 2], ['branch_misses_per_req', 'branch misses', 1],
    ['llc_loads_per_req', 'LLC loads', 1], ['llc_load_misses_per_req', 'LLC load misses', 1]];

  function renderCounters(main, counters, color) {
    html('h2', {}, main, 'Counters per request (perf stat on the server process)');
    var reasons = unique(counters.map(function (c) { return c.unavailable; }).filter(function (u) { return u; }));
    html('p', {'class': 'note'}, main, 'perf stat counted the server\'s threads over each step\'s window; each figure is per completed request, the median of the step\'s samples. ' +
      'IPC is instructions per cycle; IPC per ref-cycle uses cycles at the nominal frequency, which turbo and power saving do not skew.' +
      (reasons.length ? ' Not counted here: ' + reasons.join(' | ') + '.' : ''));
    var div = html('div', {'class': 'charts'}, main);
    var variants = unique(counters.map(function (c) { return c.variant; }));
    function chart(key, title, yLabel, digits) {
      if (!counters.some(function (c) { return c[key] !== null && !isNaN(c[key]); })) { return; }
      barChart(div, {title: title, yLabel: yLabel, groups: variants.map(function (v) {
        return {label: v, color: color[v], bars: counters.filter(function (c) { return c.variant === v; }).map(function (c) {
          return {label: c.scenario + ' ' + levelLabel(c), segments: [{value: c[key], color: color[v], name: yLabel, digits: digits}]};
        })};
      })});
    }
    chart('instructions_per_req', 'Instructions per request', 'instructions per request', 0);
    chart('ipc', 'IPC (instructions per cycle)', 'IPC', 2);
    chart('context_switches_per_req', 'Context switches per request', 'context switches per request', 3);
    chart('task_clock_ms_per_req', 'Server task-clock per request', 'ms per request', 4);
    table(main, [{name: 'variant', l: 1}, {name: 'scenario', l: 1}, 'level', 'samples', 'requests'].concat(COUNTERS.map(function (k) { return k[1]; })),
      counters.map(function (c) {
        return [c.variant, c.scenario, levelLabel(c), c.repeat, c.requests].concat(COUNTERS.map(function (k) {
          return c[k[0]] === null || isNaN(c[k[0]]) ? 'n/a' : fmt(c[k[0]], k[2]);
        }));
      }));
  }

  function renderEnvironment(main, env) {
    html('h2', {}, main, 'Environment');
    table(main, [{name: 'what', l: 1}, {name: 'value', l: 1}], envFacts(env).map(function (f) { return [f[0], f[1] === undefined ? '' : String(f[1])]; }));
    var d = html('details', {}, main);
    html('summary', {}, d, 'environment.json (lscpu, JDK flags, variant manifest, ...)');
    html('pre', {}, d, JSON.stringify(env, null, 2));
  }

  function flatten(obj, prefix, out) {
    if (obj === null || typeof obj !== 'object') { out[prefix] = obj; return out; }
    if (Array.isArray(obj) && obj.every(function (v) { return v === null || typeof v !== 'object'; })) { out[prefix] = obj.join(' '); return out; }
    Object.keys(obj).forEach(function (k) {
      if (k === 'lscpu' || k === 'manifest' || k === 'command_line') { return; }
      flatten(obj[k], prefix ? prefix + '.' + k : k, out);
    });
    return out;
  }

  // A compared figure as the compare page draws it, from its declaration.
  function comparedFigure(f) { return {key: f.key, name: f.label, unit: f.unit, digits: f.significant ? undefined : f.digits, better: f.better}; }

  function verdictOf(ch) { return VERDICT[ch && ch.verdict] || VERDICT['no noise estimate']; }

  function ciText(ch) {
    if (!ch || ch.ci_low === null || ch.ci_low === undefined || isNaN(num(ch.ci_low))) { return ''; }
    return '[' + num(ch.ci_low).toFixed(3) + ', ' + num(ch.ci_high).toFixed(3) + ']';
  }

  function ratioText(ch) {
    return ch && ch.ratio !== null && ch.ratio !== undefined ? num(ch.ratio).toFixed(3) : '–';
  }

  function changeText(m, metric) {
    var ch = m.changes[metric.key];
    return m.variant + ' ' + m.scenario + ' ' + m.level + ' ' + metric.key + ' ' + ratioText(ch) + '× ' + ciText(ch) + ' ' + ch.verdict +
      ' (' + metric.name + ' A ' + fmt(num(ch.a), metric.digits) + ' → B ' + fmt(num(ch.b), metric.digits) + ' ' + metric.unit +
      '; ' + Math.round(num(ch.confidence) * 1000) / 10 + '% interval, n ' + ch.n_a + '/' + ch.n_b + ')';
  }

  function verdictLegend(parent) {
    var div = html('div', {'class': 'legend'}, parent);
    ['faster', 'slower', 'within noise', 'no noise estimate'].forEach(function (v) {
      var span = html('span', {'class': 'legend-item'}, div);
      html('span', {'class': 'swatch', style: 'background:' + VERDICT[v].color}, span);
      span.appendChild(document.createTextNode(VERDICT[v].name));
    });
    return div;
  }

  function renderCompare(data) {
    var main = document.getElementById('main');
    var matched = data.matched || [];
    rowCount = matched.length;
    // The figures compared, in their declared order: those some matched step has a change of.
    var metrics = FIGURES.filter(function (f) { return matched.some(function (m) { return m.changes[f.key]; }); }).map(comparedFigure);
    var figures = [];
    matched.forEach(function (m) { metrics.forEach(function (k) { if (m.changes[k.key]) { figures.push({m: m, k: k, ch: m.changes[k.key]}); } }); });
    var changed = figures.filter(function (f) { return f.ch && (verdictOf(f.ch).cls === 'better' || verdictOf(f.ch).cls === 'worse'); });
    var unknown = figures.filter(function (f) { return !f.ch || f.ch.verdict === 'no noise estimate'; });
    // The answer first (what changed, what did not, the smallest change the pair could tell), then how it was judged.
    html('h2', {}, main, 'Changed beyond noise');
    if (!changed.length) {
      html('p', {'class': 'summary noise'}, main, 'Nothing changed beyond noise' + (figures.length ? ' (' + figures.length + ' figures compared).' : '.'));
    } else {
      var ul = html('ul', {'class': 'changes'}, main);
      changed.forEach(function (f) { html('li', {'class': verdictOf(f.ch).cls}, ul, changeText(f.m, f.k)); });
      html('p', {'class': 'summary noise'}, main, (figures.length - changed.length - unknown.length) + ' other figure(s) are within noise.');
    }
    if (data.smallest_change) { html('p', {'class': 'note', id: 'smallest-change'}, main, data.smallest_change); }
    if (unknown.length) {
      html('p', {'class': 'note flag'}, main, unknown.length + ' of ' + figures.length + ' figures have no noise estimate (a run measured the step once, or after a warm-up cut short by --warmup): ' +
        'their ratios are shown in grey and no change is called. Measure both runs with --repeat 3 or more, and a --warmup long ' +
        'enough for every warm-up to settle, to compare them.');
    }
    html('p', {'class': 'note'}, main, 'A = ' + data.a.dir + '; B = ' + data.b.dir + '. Steps are matched by variant, scenario and level. ' +
      'For each figure the ratio B / A and its confidence interval come from the samples of the step in both runs (samples.csv), ' +
      'fork by fork: the ratio of the geometric means of the fork means, and Welch\'s 95% interval with the fork (a freshly started server) ' +
      'as the unit. A figure is called better or worse only when ' +
      'the whole interval lies on one side of 1 AND the change exceeds the noise floor: the larger of ' +
      pct(RULES.min_effect.rps) + ' (' + pct(RULES.min_effect.p99) + ' for p99, ' + pct(RULES.min_effect.cpu) + ' for CPU per request) and both runs\' ' +
      'scatter between samples ((max − min) / median) added up. So many figures are compared at once that an interval alone would call about one in twenty a change ' +
      'between two runs of the same thing. Better means more req/s, lower p99, less CPU per request. Caveats (a warm-up cut short, not steady, ' +
      'not quiet, saturated, one fork) stand beside a verdict, never instead of it.');
    html('p', {'class': 'note', id: 'platforms'}, main, 'A ran on ' + data.a.platform + '. B ran on ' + data.b.platform + '.' +
      (data.a.arch !== data.b.arch ? ' Servers of different archs: ' + data.a.arch + ' against ' + data.b.arch + '.' : ''));
    (data.emulation_notes || []).forEach(function (note) { html('p', {'class': 'note flag emulation-note'}, main, 'Emulated: ' + note + '.'); });
    verdictLegend(main);
    if (data.price_note) { html('p', {'class': 'note', id: 'price-note'}, main, data.price_note); }
    var variants = unique(matched.map(function (m) { return m.variant; }));
    var div = html('div', {'class': 'charts'}, main);
    metrics.forEach(function (k) {
      var c = barChart(div, {title: k.name + ' ratio B/A (' + k.better + ')', yLabel: 'B / A', lines: [{y: 1, label: 'same', color: '#57606a'}], groups: variants.map(function (v) {
        return {label: v, bars: matched.filter(function (m) { return m.variant === v; }).map(function (m) {
          var ch = m.changes[k.key] || {};
          var lo = num(ch.ci_low), hi = num(ch.ci_high);
          return {label: m.scenario + ' ' + m.level + ' (' + ch.verdict + ')',
            err: isNaN(lo) || isNaN(hi) ? null : {lo: lo, hi: hi, tip: ciText(ch) + ' at ' + Math.round(num(ch.confidence) * 1000) / 10 + '%'},
            segments: [{value: num(ch.ratio), color: verdictOf(ch).color, name: 'B/A', digits: 3}]};
        })};
      })});
      c.caption('Bar colour: the verdict (legend above). Error bars: the confidence interval of the ratio, at the confidence the repeats reach (95% where they allow; 90% with 3 a side). No error bar: no noise estimate.');
    });
    html('h2', {}, main, 'Matched steps');
    var headers = [{name: 'variant', l: 1}, {name: 'scenario', l: 1}, 'level'];
    metrics.forEach(function (k) {
      headers.push(k.name + ' A', k.name + ' B', 'B/A', 'interval', {name: 'verdict', l: 1});
    });
    headers.push({name: 'flags', l: 1});
    var anyFlameDiff = matched.some(function (m) { return m.flame_diff; });
    if (anyFlameDiff) { headers.push({name: 'flame graph B vs A', l: 1}, {name: 'frames changed most', l: 1}); }
    table(main, headers, matched.map(function (m) {
      var cells = [m.variant, m.scenario, m.level];
      metrics.forEach(function (k) {
        var ch = m.changes[k.key] || {};
        var cls = verdictOf(ch).cls;
        cells.push(fmt(num(ch.a), k.digits), fmt(num(ch.b), k.digits), {text: ratioText(ch), cls: cls},
          {text: ciText(ch) ? ciText(ch) + ' ' + Math.round(num(ch.confidence) * 100) + '%' : '–', cls: cls},
          {text: (ch.verdict || '') + (ch.n_a !== undefined ? ' (n ' + ch.n_a + '/' + ch.n_b + ')' : ''), cls: cls});
      });
      cells.push((m.flags || []).join('; '));
      if (anyFlameDiff) {
        cells.push(m.flame_diff ? {href: m.flame_diff, text: 'differential flame graph'} : '',
          m.flame_frames ? {href: m.flame_frames, text: 'frames whose self time changed most'} : '');
      }
      return cells;
    }));
    if ((data.only_a || []).length || (data.only_b || []).length) {
      html('h3', {}, main, 'Steps in one run only');
      table(main, [{name: 'run', l: 1}, {name: 'variant', l: 1}, {name: 'scenario', l: 1}, 'level'],
        (data.only_a || []).map(function (k) { return ['A', k.variant, k.scenario, k.level]; })
          .concat((data.only_b || []).map(function (k) { return ['B', k.variant, k.scenario, k.level]; })));
    }
    // Per-operation figures: drawn by compare-ops.js, which ReportWriter inlines before this script.
    if (window.testbedCompareOperations) {
      window.testbedCompareOperations(main, data.operations, {html: html, table: table, fmt: fmt, num: num, verdictOf: verdictOf, ciText: ciText, ratioText: ratioText});
    }
    if ((data.capacity || []).length) { renderCapacityRatios(main, data.capacity); }
    if ((data.counters || []).length) { renderCounterRatios(main, data.counters); }
    html('h2', {}, main, 'Environments side by side');
    var fa = flatten(data.a.env || {}, '', {}), fb = flatten(data.b.env || {}, '', {});
    var keys = unique(Object.keys(fa).concat(Object.keys(fb)));
    table(main, [{name: 'key', l: 1}, {name: 'A', l: 1}, {name: 'B', l: 1}], keys.map(function (k) {
      return [k, fa[k] === undefined ? '' : String(fa[k]), fb[k] === undefined ? '' : String(fb[k])];
    }), function (i) { return String(fa[keys[i]]) !== String(fb[keys[i]]) ? 'diff' : ''; });
    ['a', 'b'].forEach(function (side) {
      var d = html('details', {}, main);
      html('summary', {}, d, side.toUpperCase() + ': lscpu');
      html('pre', {}, d, ((data[side].env || {}).machine || {}).lscpu || '');
    });
  }

  // Both runs had --counters: per step, each per-request counter's B/A beside CPU's, so a CPU change reads as instructions × IPC.
  // Both runs had --sla: each capacity's B/A, with the interval and verdict from the passes (higher is better).
  function renderCapacityRatios(main, entries) {
    html('h2', {}, main, 'Capacity under an SLA, B/A');
    html('p', {'class': 'note'}, main, 'The highest offered rate that met the objective with no error, the median of each run\'s passes [their range]. ' +
      'Interval and verdict as for throughput, from the passes\' capacities: higher is better.');
    table(main, [{name: 'variant', l: 1}, {name: 'scenario', l: 1}, {name: 'conditions', l: 1}, {name: 'SLA', l: 1}, 'A, req/s', 'B, req/s', 'B/A', 'interval', {name: 'verdict', l: 1}],
      entries.map(function (e) {
        var v = verdictOf(e);
        return [e.variant, e.scenario, e.conditions, e.sla, fmt(e.a) + ' ' + e.a_range, fmt(e.b) + ' ' + e.b_range,
          {text: e.ratio === null ? 'n/a' : fmt(e.ratio, 3), cls: v.cls},
          e.ci_low === null || e.ci_low === undefined ? '–' : '[' + fmt(e.ci_low, 3) + ', ' + fmt(e.ci_high, 3) + ']',
          {text: e.verdict === 'faster' ? 'higher' : e.verdict === 'slower' ? 'lower' : e.verdict, cls: v.cls}];
      }));
  }

  function renderCounterRatios(main, steps) {
    html('h2', {}, main, 'Why: server counters per request, B/A');
    html('p', {'class': 'note'}, main, 'perf stat in the server, medians of each step\'s samples. CPU per request ≈ instructions per request ÷ IPC: ' +
      'a CPU ratio with the same instructions ratio is the code doing more work; with an IPC ratio below 1, the same work running slower (cache misses, branch misses, a slower core). ' +
      'n/a: a side could not count it (see its environment: perf, perf_event_paranoid, hardware PMU).');
    table(main, [{name: 'variant', l: 1}, {name: 'scenario', l: 1}, 'level', 'CPU ms/req B/A'].concat(COUNTERS.map(function (k) { return k[1] + ' B/A'; })),
      steps.map(function (s) {
        return [s.variant, s.scenario, s.level, s.cpu === null ? 'n/a' : fmt(s.cpu, 3) + '×'].concat(COUNTERS.map(function (k) {
          var r = s.ratios[k[0]], a = s.a[k[0]], b = s.b[k[0]];
          return r === null || r === undefined ? 'n/a' : {text: fmt(r, 3) + '× (' + fmt(a, k[2]) + ' → ' + fmt(b, k[2]) + ')'};
        }));
      }));
  }

  try {
    var data = JSON.parse(document.getElementById('data').textContent);
    RULES = data.rules || {};
    FIGURES = data.figures || [];
    verdictWords(FIGURES);
    if (document.body.getAttribute('data-mode') === 'compare') { renderCompare(data); } else { renderReport(data); }
  } catch (e) {
    errors.push(String(e && e.stack ? e.stack : e));
  }
  finish();
})();
