'use strict';
// testbed report, the per-operation figures and each step through time. report.js calls it
// (window.testbedTimeline) with its own helpers (kit), so both parts share one look. The through-time
// view draws on canvas: a few thousand seconds cost a few thousand rectangles, not DOM nodes.
window.testbedTimeline = (function () {
  var P50 = '#1f77b4', P99 = '#d62728', MAX = '#8c959f', RPS = '#2ca02c', GC = '#ff7f0e';

  // operations.csv, medians over each step's samples: per scenario a p99 chart and a table.
  function operations(main, data, kit) {
    var ops = data.operations || [];
    if (!ops.length) { return; }
    ops.forEach(function (o) { o.variant = kit.seriesOf(o); });
    kit.html('h2', {id: 'operations'}, main, 'Per operation');
    kit.html('p', {'class': 'note'}, main, 'A step mixes its kinds of request (the mix\'s methods, the journey\'s steps); here each is on its own ' +
      '(operations.csv), so a slow write is not hidden by fast reads. Each figure is the median over the step\'s samples, as in the rest of the report; ' +
      'a step measured by wrk has no breakdown.');
    kit.unique(ops.map(function (o) { return o.scenario; })).forEach(function (sc) {
      var so = ops.filter(function (o) { return o.scenario === sc; });
      var names = kit.unique(so.map(function (o) { return o.operation; }));
      var variants = kit.unique(so.map(function (o) { return o.variant; }));
      kit.html('h3', {}, main, sc + ': per operation');
      var div = kit.html('div', {'class': 'charts'}, main);
      // One level per variant on the chart, its best throughput (as the "best" table above), or the bars would crowd.
      var best = {};
      (data.rows || []).forEach(function (r) {
        if (r.scenario === sc && (!best[r.variant] || r.rps > best[r.variant].rps)) { best[r.variant] = r; }
      });
      var c = kit.barChart(div, {title: sc + ': p99 latency per operation', yLabel: 'p99 latency, ms', groups: names.map(function (name) {
        return {label: name, bars: variants.map(function (v) {
          var at = best[v];
          var o = so.filter(function (x) { return x.variant === v && x.operation === name && (!at || kit.levelOf(x) === kit.levelOf(at)); })[0];
          return {label: v + (o ? ' ' + kit.levelLabel(o) : ''), segments: [{value: o ? o.lat_p99_ms : NaN, color: kit.color[v], name: 'p99 ms', digits: 3}]};
        })};
      })});
      c.box.setAttribute('data-chart', 'operations');
      kit.legend(c.box, variants.map(function (v) { return {name: v + (best[v] ? ' at ' + kit.levelLabel(best[v]) : ''), color: kit.color[v]}; }));
      c.caption('Each variant at the level of its best throughput in this scenario; every level is in the table.');
      var t = kit.table(main, [{name: 'variant', l: 1}, 'level', {name: 'operation', l: 1}, 'samples', 'requests', 'errors', 'req/s',
        'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'max ms'],
        so.slice().sort(function (a, b) {
          return variants.indexOf(a.variant) - variants.indexOf(b.variant) || kit.levelOf(a) - kit.levelOf(b) ||
            names.indexOf(a.operation) - names.indexOf(b.operation);
        }).map(function (o) {
          return [o.variant, kit.levelLabel(o), o.operation, o.samples, o.requests, o.errors ? {text: String(o.errors), cls: 'bad'} : 0,
            kit.fmt(o.rps, 1), kit.fmt(o.lat_p50_ms, 3), kit.fmt(o.lat_p90_ms, 3), kit.fmt(o.lat_p99_ms, 3), kit.fmt(o.lat_p999_ms, 3),
            kit.fmt(o.lat_max_ms, 3)];
        }));
      t.setAttribute('class', 'operations-table');
    });
  }

  // The step's samples through time, shown over the page when the address ends in #timeline=<row>,
  // which each step's "through time" link sets: one click, and the browser's back button closes it.
  function install(main, data, kit) {
    if (!data.timelines) { return; }
    var overlay = kit.html('div', {id: 'timeline-view', 'class': 'timeline-overlay'}, document.body);
    overlay.hidden = true;
    function show() {
      var m = /^#timeline=(\d+)$/.exec(window.location.hash);
      while (overlay.firstChild) { overlay.removeChild(overlay.firstChild); }
      var samples = m && data.timelines[m[1]];
      overlay.hidden = !samples;
      if (samples) { render(overlay, data.rows[Number(m[1])], samples, data.timeline_buckets_ms, kit); }
    }
    window.addEventListener('hashchange', show);
    show();
  }

  function render(panel, row, samples, edges, kit) {
    kit.html('a', {href: '#', 'class': 'close'}, panel, 'close ✕');
    kit.html('h2', {}, panel, row.variant + ' ' + row.scenario + ' ' + kit.levelLabel(row) + ': through time');
    var gcKnown = samples.some(function (s) { return s.gc_ms; });
    kit.html('p', {'class': 'note'}, panel, 'Each sample\'s measured window second by second, from its interval log: responses per second; ' +
      'p50, p99 and the highest latency of the responses that arrived in each second (log scale); and every latency as a heat map ' +
      '(five rows a decade, darker: more responses). ' + (gcKnown
        ? 'Orange: seconds in which the server\'s JVM collected garbage, the band\'s strength its GC time (read from its counters every quarter second).'
        : 'The server\'s GC was not read second by second in this run (a remote server, or a run from before it was).') +
      ' Move the pointer over a chart to read a second.');
    samples.forEach(function (s) {
      if (s.error) {
        kit.html('h3', {}, panel, s.label + ' (' + s.log + ')');
        kit.html('p', {'class': 'stall'}, panel, 'Its interval log could not be read: ' + s.error);
        return;
      }
      kit.html('h3', {}, panel, s.label + ' (' + s.n.length + ' s from ' + new Date(s.start_ms).toISOString() + '; ' + s.log + ')');
      kit.html('p', {'class': 'stall'}, panel, worstSeconds(s, kit));
      if (s.faults) { kit.html('p', {'class': 'stall'}, panel, faultWords(s.faults)); }
      drawSample(panel, s, edges, kit);
    });
  }

  // Each fault in words: when it was in effect and how long the window took to come back.
  function faultWords(faults) {
    return faults.map(function (f) {
      return 'Fault ' + f.fault + ' (grey): in effect ' + f.from.toFixed(2) + '–' + f.to.toFixed(2) + ' s; ' +
        (f.back === null ? 'throughput and p99 not back within 10 % of before the fault by the window\'s end.'
          : 'throughput and p99 back within 10 % of before it from second ' + f.back + '.');
    }).join(' ');
  }

  function median(values) {
    var v = values.filter(function (x) { return x !== null && !isNaN(x); }).sort(function (a, b) { return a - b; });
    if (!v.length) { return NaN; }
    return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  // The seconds that stand out, in words: a stall is a second of low throughput beside one of high p99.
  function worstSeconds(s, kit) {
    var n = s.rps.length;
    if (!n) { return 'no seconds in the log'; }
    var lowest = 0, highest = -1;
    for (var i = 0; i < n; i++) {
      if (s.rps[i] < s.rps[lowest]) { lowest = i; }
      if (s.p99[i] !== null && (highest < 0 || s.p99[i] > s.p99[highest])) { highest = i; }
    }
    return 'Lowest throughput: second ' + lowest + ', ' + kit.fmt(Math.round(s.rps[lowest])) + ' req/s (median second ' + kit.fmt(Math.round(median(s.rps))) + ' req/s). ' +
      (highest < 0 ? 'No responses.' : 'Highest p99: second ' + highest + ', ' + kit.fmt(s.p99[highest], 3) + ' ms (median second ' + kit.fmt(median(s.p99), 3) + ' ms).');
  }

  // 1-2-5 ticks over a few decades, powers of ten alone over more, so the labels never overlap.
  function logTicks(lo, hi) {
    var t = [], steps = Math.log10(hi / lo) > 3 ? [1] : [1, 2, 5];
    for (var p = Math.floor(Math.log10(lo)); p <= Math.ceil(Math.log10(hi)); p++) {
      steps.forEach(function (m) { var v = m * Math.pow(10, p); if (v >= lo && v <= hi) { t.push(v); } });
    }
    return t;
  }

  // Count to colour: white to deep blue to near black, on a log scale so one busy bucket leaves the rest visible.
  var RAMP = [[247, 251, 255], [158, 202, 225], [49, 130, 189], [8, 48, 107], [20, 20, 40]];
  function heatColour(count, most) {
    var t = Math.log(1 + count) / Math.log(1 + most);
    var x = t * (RAMP.length - 1), i = Math.min(Math.floor(x), RAMP.length - 2), f = x - i;
    var c = RAMP[i].map(function (a, k) { return Math.round(a + (RAMP[i + 1][k] - a) * f); });
    return 'rgb(' + c.join(',') + ')';
  }

  function drawSample(panel, s, edges, kit) {
    var n = s.n.length;
    var W = Math.max(600, Math.min(1240, (window.innerWidth || 1280) - 90));
    var L = 70, R = 16, top = 10, hRps = 110, gap = 14, hLat = 150, hHeat = 170, axis = 30;
    var H = top + hRps + gap + hLat + gap + hHeat + axis;
    var canvas = kit.html('canvas', {'data-kind': 'timeline', 'data-seconds': String(n)}, panel);
    var ratio = window.devicePixelRatio || 1;
    canvas.width = W * ratio; canvas.height = H * ratio;
    canvas.style.width = W + 'px'; canvas.style.height = H + 'px';
    kit.chart();
    var readout = kit.html('div', {'class': 'readout'}, panel, ' ');
    var g = canvas.getContext('2d');
    g.scale(ratio, ratio);
    g.font = '11px system-ui, sans-serif';
    var plotW = W - L - R, cw = plotW / Math.max(n, 1);
    function X(i) { return L + i * cw; }
    var yRps = top, yLat = top + hRps + gap, yHeat = yLat + hLat + gap, yAxis = yHeat + hHeat;

    // GC first, under everything: a band per second with GC, as strong as its share of the second.
    if (s.gc_ms) {
      for (var i = 0; i < n; i++) {
        if (s.gc_ms[i] > 0) {
          g.fillStyle = 'rgba(255,127,14,' + (0.15 + 0.6 * Math.min(1, s.gc_ms[i] / 200)) + ')';
          g.fillRect(X(i), top, Math.max(cw, 2), yAxis - top);
        }
      }
    }

    // Faults of the store, grey from their start to their end, a lighter grey until the window was back.
    (s.faults || []).forEach(function (f) {
      var back = f.back === null ? n : f.back;
      g.fillStyle = 'rgba(110,119,129,0.12)';
      g.fillRect(L + f.to * cw, top, Math.max(0, (back - f.to) * cw), yAxis - top);
      g.fillStyle = 'rgba(110,119,129,0.35)';
      g.fillRect(L + f.from * cw, top, Math.max((f.to - f.from) * cw, 2), yAxis - top);
    });

    // Throughput.
    var maxRps = Math.max.apply(null, s.rps.concat([1])) * 1.1;
    function Yr(v) { return yRps + hRps - v / maxRps * hRps; }
    frame(g, L, yRps, plotW, hRps, 'req/s');
    kit.niceTicks(0, maxRps, 4).forEach(function (t) { tick(g, L, Yr(t), kit.fmt(t)); });
    line(g, s.rps, X, Yr, cw, RPS, 2);

    // Percentiles, log scale.
    var lat = [].concat(s.p50, s.p99, s.max).filter(function (v) { return v !== null && v > 0; });
    var lo = Math.pow(10, Math.floor(Math.log10(Math.min.apply(null, lat.concat([1]))))), hi = Math.pow(10, Math.ceil(Math.log10(Math.max.apply(null, lat.concat([1])))));
    function Yl(v) { return yLat + hLat - (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo) || 1) * hLat; }
    frame(g, L, yLat, plotW, hLat, 'latency, ms');
    logTicks(lo, hi).forEach(function (t) { tick(g, L, Yl(t), kit.fmt(t)); });
    line(g, s.max, X, Yl, cw, MAX, 1);
    line(g, s.p99, X, Yl, cw, P99, 2);
    line(g, s.p50, X, Yl, cw, P50, 2);
    legendText(g, L + 6, yLat + 12, [['p50', P50], ['p99', P99], ['max', MAX]]);

    // Heat map: rows are the buckets from the lowest to the highest seen in the sample.
    var first = edges.length, last = 0, most = 1;
    s.heat.forEach(function (row) {
      if (!row.length) { return; }
      first = Math.min(first, row[0]); last = Math.max(last, row[0] + row.length - 2);
      for (var k = 1; k < row.length; k++) { most = Math.max(most, row[k]); }
    });
    if (first > last) { first = 0; last = 1; }
    var rows = last - first + 1, rh = hHeat / rows;
    frame(g, L, yHeat, plotW, hHeat, 'latency, ms');
    s.heat.forEach(function (row, i) {
      for (var k = 1; k < row.length; k++) {
        if (row[k] > 0) {
          g.fillStyle = heatColour(row[k], most);
          g.fillRect(X(i), yHeat + hHeat - (row[0] + k - 1 - first + 1) * rh, Math.max(cw, 1), Math.max(rh, 1));
        }
      }
    });
    for (var b = first; b <= last + 1 && b < edges.length; b++) {
      // Label the decades' edges (every fifth bucket from 10 µs).
      if ((b - 1) % 5 === 0) { tick(g, L, yHeat + hHeat - (b - first) * rh, kit.fmt(edges[b])); }
    }
    if (s.gc_ms) { legendText(g, L + 6, yRps + 12, [['GC', GC]]); }

    // Seconds.
    g.fillStyle = '#1d232a'; g.textAlign = 'center';
    kit.niceTicks(0, n, Math.min(12, Math.max(n, 1))).forEach(function (t) {
      if (t > n) { return; }
      g.fillRect(L + t * cw, yAxis, 1, 4);
      g.fillText(String(t), L + t * cw, yAxis + 15);
    });
    g.fillText('seconds into the measured window', L + plotW / 2, yAxis + 28);

    canvas.addEventListener('mousemove', function (e) {
      var rect = canvas.getBoundingClientRect();
      var i = Math.floor((e.clientX - rect.left - L) / cw);
      if (i < 0 || i >= n) { readout.textContent = ' '; return; }
      readout.textContent = 'second ' + i + ': ' + kit.fmt(s.n[i]) + ' responses (' + kit.fmt(Math.round(s.rps[i])) + ' req/s), p50 ' + kit.fmt(s.p50[i], 3) +
        ' ms, p99 ' + kit.fmt(s.p99[i], 3) + ' ms, max ' + kit.fmt(s.max[i], 3) + ' ms' +
        (s.gc_ms ? '; GC ' + kit.fmt(s.gc_ms[i], 1) + ' ms in ' + s.gc_n[i] + ' collection(s)' : '');
    });
  }

  function frame(g, x, y, w, h, label) {
    g.strokeStyle = '#8c959f'; g.lineWidth = 1;
    g.strokeRect(x + 0.5, y + 0.5, w, h);
    g.save(); g.fillStyle = '#1d232a'; g.translate(14, y + h / 2); g.rotate(-Math.PI / 2); g.textAlign = 'center';
    g.fillText(label, 0, 0); g.restore();
  }

  function tick(g, x, y, text) {
    g.fillStyle = '#eaeef2'; g.fillRect(x + 1, y, 1e4, 1);
    g.fillStyle = '#1d232a'; g.textAlign = 'right'; g.fillText(text, x - 5, y + 4);
  }

  // A series per second, drawn through the seconds' middles; a second without a value breaks the line.
  function line(g, values, X, Y, cw, colour, width) {
    g.strokeStyle = colour; g.lineWidth = width; g.beginPath();
    var open = false;
    values.forEach(function (v, i) {
      var y = v === null ? NaN : Y(v);
      if (!isFinite(y)) { open = false; return; }
      var x = X(i) + cw / 2;
      if (open) { g.lineTo(x, y); } else { g.moveTo(x, y); open = true; }
    });
    g.stroke();
  }

  function legendText(g, x, y, items) {
    g.textAlign = 'left';
    items.forEach(function (it) {
      g.fillStyle = it[1]; g.fillRect(x, y - 8, 10, 10);
      g.fillStyle = '#1d232a'; g.fillText(it[0], x + 14, y);
      x += 24 + g.measureText(it[0]).width;
    });
  }

  return {operations: operations, install: install};
})();
