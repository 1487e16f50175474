/* stackbench report: draws the charts described in the JSON of #sb-data with Apache ECharts (inlined above).
   Every string from results reaches the page as text: ECharts draws SVG text, and tooltips escape here. */
(function () {
  'use strict';
  var started = performance.now();
  var data = JSON.parse(document.getElementById('sb-data').textContent);
  var drawn = [];

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function num(v) {
    if (v == null || isNaN(v)) return '–';
    var a = Math.abs(v);
    if (a >= 1000) return Math.round(v).toLocaleString('en-US');
    if (a >= 100) return v.toFixed(0);
    if (a >= 10) return (+v.toFixed(1)).toString();
    return (+v.toFixed(2)).toString();
  }
  /* a percentile axis holds 1/(1-p): back to "p99.9" */
  function pct(x) { return 'p' + (+(100 * (1 - 1 / x)).toFixed(3)).toString(); }

  function fmtX(spec, x) {
    if (spec.x.type === 'percentile') return pct(x);
    if (spec.x.type === 'category') return spec.x.categories[x] == null ? '' : spec.x.categories[x];
    return num(x);
  }

  function axis(a, isX) {
    var o = {
      name: a.name, nameLocation: 'middle', nameGap: isX ? 28 : 46,
      nameTextStyle: { color: '#333', fontSize: 12 },
      axisLine: { show: true, lineStyle: { color: '#777' } },
      axisTick: { show: true },
      splitLine: { show: !isX, lineStyle: { color: '#e6e6e6' } },
      axisLabel: { color: '#333', hideOverlap: true, formatter: num }
    };
    if (a.type === 'category') { o.type = 'category'; o.data = a.categories; o.axisLabel = { color: '#333', interval: 0, overflow: 'truncate', width: 110 }; }
    else if (a.type === 'log') { o.type = 'log'; o.logBase = 10; }
    else if (a.type === 'percentile') { o.type = 'log'; o.logBase = 10; o.min = 2; o.max = 10000; o.axisLabel.formatter = pct; o.splitLine.show = true; }
    else { o.type = 'value'; o.scale = isX; }
    return o;
  }

  function tooltip(spec) {
    return {
      trigger: spec.tooltip, confine: true, axisPointer: { type: 'line' },
      formatter: function (params) {
        var ps = Array.isArray(params) ? params : [params];
        var head = '';
        var rows = ps.filter(function (p) { return p.value && p.value[1] != null; }).map(function (p) {
          if (!head) head = esc(spec.x.name) + ': ' + esc(fmtX(spec, p.value[0]));
          var note = p.data && p.data.note ? ' <span style="color:#666">(' + esc(p.data.note) + ')</span>' : '';
          var s = spec.series[p.seriesIndex] || {};
          var detail = s.detail ? ' ' + esc(s.detail) : '';
          return '<span style="color:' + esc(s.color || p.color) + '">&#9679;</span> ' + esc(p.seriesName) + detail + ': <b>' + esc(num(p.value[1])) + '</b>' + note;
        });
        return head + '<br>' + rows.join('<br>');
      }
    };
  }

  function series(spec, s, i) {
    var line = s.type === 'line';
    var o = {
      name: s.name, type: s.type,
      data: s.data.map(function (p) { return { value: [p.x, p.y == null ? null : p.y], note: p.note }; }),
      itemStyle: { color: s.color, opacity: s.faint ? 0.5 : 1 },
      lineStyle: { color: s.color, width: 2, type: s.dash },
      symbol: s.symbol, symbolSize: s.faint ? 6 : 7,
      showSymbol: !line || s.data.length <= 60,
      connectNulls: false, z: s.faint ? 1 : 2,
      yAxisIndex: s.rightAxis && spec.y2 ? 1 : 0
    };
    if (s.type === 'bar') { o.stack = 'bars'; o.barMaxWidth = 56; o.itemStyle.opacity = 0.85; }
    if (i === 0 && spec.marks && spec.marks.length) {
      o.markLine = {
        silent: true, symbol: 'none', lineStyle: { color: '#222', type: [6, 4], width: 1.5 },
        label: { position: 'insideEndTop', color: '#222', formatter: function (p) { return p.name; } },
        data: spec.marks.map(function (m) { return { yAxis: m.value, name: m.label }; })
      };
    }
    if (i === 0 && spec.xMarks && spec.xMarks.length) {
      o.markLine = o.markLine || { silent: true, symbol: 'none', data: [] };
      o.markLine.silent = true; o.markLine.symbol = 'none';
      o.markLine.lineStyle = { color: '#222', type: [6, 4], width: 1.5 };
      o.markLine.label = { position: 'insideEndTop', color: '#222', formatter: function (p) { return p.name; } };
      o.markLine.data = o.markLine.data.concat(spec.xMarks.map(function (m) { return { xAxis: m.value, name: m.label }; }));
    }
    return o;
  }

  function option(spec) {
    var names = [];
    spec.series.forEach(function (s) { if (!s.faint && names.indexOf(s.name) < 0) names.push(s.name); });
    return {
      animation: false,
      aria: { enabled: true },
      textStyle: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
      legend: { type: 'scroll', top: 0, left: 0, data: names, itemWidth: 22, textStyle: { color: '#222' } },
      grid: { left: 58, right: spec.y2 ? 58 : 18, top: 34, bottom: data.provenance ? 58 : 44, containLabel: false },
      /* where the figures come from, inside the chart: a chart saved or copied out of the page keeps it */
      graphic: data.provenance ? [{ type: 'text', right: 4, bottom: 2, silent: true,
        style: { text: data.provenance, fill: '#888', fontSize: 10 } }] : [],
      tooltip: tooltip(spec),
      xAxis: axis(spec.x, true),
      yAxis: spec.y2 ? [axis(spec.y, false), Object.assign(axis(spec.y2, false), { splitLine: { show: false }, min: 0, max: 100 })] : axis(spec.y, false),
      series: spec.series.map(function (s, i) { return series(spec, s, i); })
    };
  }

  data.charts.forEach(function (spec) {
    var el = document.getElementById(spec.id);
    if (!el) return;
    var chart = echarts.init(el, null, { renderer: 'svg' });
    chart.setOption(option(spec));
    drawn.push(chart);
  });

  function resize() { drawn.forEach(function (c) { c.resize(); }); }
  window.addEventListener('resize', resize);
  /* charts in a closed <details> were drawn at no size: draw them again when it opens */
  Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) { d.addEventListener('toggle', resize); });
  window.addEventListener('beforeprint', resize);
  window.addEventListener('afterprint', resize);

  window.stackbench = { charts: drawn.length, renderMs: performance.now() - started, readyAt: performance.now() };
  document.documentElement.setAttribute('data-charts-drawn', String(drawn.length));
})();
