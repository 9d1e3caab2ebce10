// Draws the flame graph of the page's data: frames as SVG rectangles, the root at the bottom,
// width = share of B's samples. One profile: coloured by frame kind (Java, kernel, native).
// Differential: coloured by the change of the frame's share from A (red more, blue less).
(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var data = JSON.parse(document.getElementById('data').textContent);
  var root = data.root, diff = data.diff, totalA = root.a || 0, totalB = root.b;
  var ROW = 17, WIDTH = 1200;

  function el(name, attrs, parent, text) {
    var e = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    parent.appendChild(e);
    return e;
  }
  function pct(x) { return (100 * x).toFixed(2) + '%'; }
  function depth(n) { return 1 + n.c.reduce(function (m, c) { return Math.max(m, depth(c)); }, 0); }
  function delta(n) { return (totalB ? n.b / totalB : 0) - (totalA ? (n.a || 0) / totalA : 0); }
  var maxDelta = 0;
  (function walk(n) { maxDelta = Math.max(maxDelta, Math.abs(delta(n))); n.c.forEach(walk); })(root);

  function kindColour(name) {
    if (/_\[k\]$/.test(name)) { return '#e8a33d'; }          // kernel
    if (/_\[j\]$|_\[i\]$|_\[0\]$|_\[1\]$/.test(name)) { return '#6cbb5a'; } // Java: JIT-compiled, inlined, interpreted, C1
    return '#e0675c';                                          // native (JVM, libc)
  }
  function diffColour(n) {
    var d = delta(n), s = maxDelta > 0 ? Math.min(1, Math.abs(d) / maxDelta) : 0;
    var light = Math.round(235 - 135 * s);
    return d > 0 ? 'rgb(255,' + light + ',' + light + ')' : d < 0 ? 'rgb(' + light + ',' + light + ',255)' : 'rgb(235,235,235)';
  }
  function label(n) { return n.n.replace(/_\[[kji01]\]$/, ''); }
  function tip(n) {
    var t = label(n) + '\nB: ' + n.b + ' samples, ' + pct(totalB ? n.b / totalB : 0) + ' of the time';
    if (diff) { t += '\nA: ' + n.a + ' samples, ' + pct(totalA ? n.a / totalA : 0) + '\nchange of share: ' + (delta(n) >= 0 ? '+' : '') + pct(delta(n)); }
    return t;
  }

  function draw(top) {
    var graph = document.getElementById('graph');
    graph.textContent = '';
    var rows = depth(top);
    var svg = el('svg', {viewBox: '0 0 ' + WIDTH + ' ' + (rows * ROW + 4), preserveAspectRatio: 'none'}, graph);
    svg.style.height = (rows * ROW + 4) + 'px';
    (function place(n, x, w, level) {
      if (w < 0.3) { return; }
      var y = (rows - level - 1) * ROW;
      var r = el('rect', {x: x, y: y, width: Math.max(w, 0.5), height: ROW - 1, fill: diff ? diffColour(n) : kindColour(n.n)}, svg);
      el('title', {}, r, tip(n));
      r.addEventListener('click', function () { draw(n); });
      var chars = Math.floor((w - 6) / 6.6);
      if (chars >= 3) { el('text', {x: x + 3, y: y + ROW - 5}, svg, label(n).length > chars ? label(n).slice(0, chars - 1) + '…' : label(n)); }
      var cx = x;
      n.c.forEach(function (c) {
        var cw = n.b > 0 ? w * c.b / n.b : 0;
        place(c, cx, cw, level + 1);
        cx += cw;
      });
    })(top, 0, WIDTH, 0);
  }

  try {
    document.getElementById('note').textContent = data.note + ' ' + totalB + ' samples' + (diff ? ' in B, ' + totalA + ' in A' : '') +
      '. Width: share of ' + (diff ? 'B\'s ' : 'the ') + 'samples through the frame; click a frame to zoom.' +
      (diff ? ' Colour: red, a larger share of the time than in A; blue, a smaller one; the stronger, the larger the change (strongest: ' + pct(maxDelta) + ').'
        : ' Colour: green Java, orange kernel, red native.');
    var reset = document.createElement('button');
    reset.textContent = 'Reset zoom';
    reset.addEventListener('click', function () { draw(root); });
    document.getElementById('controls').appendChild(reset);
    draw(root);
    var table = document.createElement('table');
    var head = table.insertRow();
    (diff ? ['frame (self time)', 'A', 'B', 'change'] : ['frame (self time)', 'share']).forEach(function (h, i) {
      var th = document.createElement('th'); th.textContent = h; if (i === 0) { th.className = 'l'; } head.appendChild(th);
    });
    data.top.filter(function (t) { return diff || t.b > 0; }).sort(function (x, y) { return diff ? 0 : y.b - x.b; }).forEach(function (t) {
      var row = table.insertRow();
      var cells = diff ? [t.frame.replace(/_\[[kji01]\]$/, ''), pct(t.a), pct(t.b), (t.b - t.a >= 0 ? '+' : '') + pct(t.b - t.a)] : [t.frame.replace(/_\[[kji01]\]$/, ''), pct(t.b)];
      cells.forEach(function (v, i) {
        var td = row.insertCell(); td.textContent = v;
        if (i === 0) { td.className = 'l'; } else if (diff && i === 3) { td.className = t.b > t.a ? 'up' : 'down'; }
      });
    });
    var h = document.createElement('h2'); h.textContent = diff ? 'Frames whose self time changed most' : 'Frames with the most self time';
    document.getElementById('top').appendChild(h);
    document.getElementById('top').appendChild(table);
    document.body.setAttribute('data-render', 'ok');
  } catch (e) {
    var pre = document.getElementById('render-errors');
    pre.hidden = false;
    pre.textContent = String(e && e.stack ? e.stack : e);
    document.body.setAttribute('data-render', 'failed');
  }
})();
