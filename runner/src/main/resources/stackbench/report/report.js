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
        if (spec.forest) {
          return ps.map(function (p) {
            return '<span style="color:' + esc(p.color) + '">&#9679;</span> ' + esc(spec.y.categories[p.value[1]]) +
              '<br>' + esc(p.data && p.data.note ? p.data.note : num(p.value[0]) + '×') + ' <span style="color:#666">(' + esc(p.seriesName) + ')</span>';
          }).join('<br>');
        }
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

  /* an interval series, from the line and scatter series every build of the library has: per row, the band of
     "the same" (1 ± band) as a wide pale stroke, the interval as a bar with end caps, then the ratios as dots */
  function interval(spec, s) {
    var rows = Math.max(1, spec.y.categories ? spec.y.categories.length : 1);
    var bandPx = Math.max(8, Math.round(((spec.height || 300) - 130) / rows * 0.6));
    /* the dots first: the legend draws a name with its first series' symbol */
    var out = [{ name: s.name, type: 'scatter', z: 3, symbol: 'circle', symbolSize: 11,
      itemStyle: { color: s.color, borderColor: '#fff', borderWidth: 1 },
      data: s.data.map(function (p) { return { value: [p.x, p.y], note: p.note }; }) }];
    s.data.forEach(function (p) {
      if (p.band != null && p.band > 0 && p.band < 1) {
        out.push({ type: 'line', silent: true, z: 1, symbol: 'none', tooltip: { show: false },
          data: [[1 - p.band, p.y], [1 + p.band, p.y]], lineStyle: { color: 'rgba(21,101,192,0.13)', width: bandPx, cap: 'butt' } });
      }
      if (p.low != null && p.high != null) {
        out.push({ name: s.name, type: 'line', silent: true, z: 2, tooltip: { show: false },
          data: [[p.low, p.y], [p.high, p.y]], lineStyle: { color: s.color, width: 2 }, itemStyle: { color: s.color },
          symbol: 'path://M0,-10L0,10', symbolSize: [2, Math.min(14, bandPx)], showSymbol: true });
      }
    });
    return out;
  }

  /* a forest's ratio axis: every dot, ring, band edge and 1, with a margin on a log scale; a wider interval runs off the edge rather than squeeze the rest */
  function forestRange(spec) {
    var xs = [1];
    spec.series.forEach(function (s) {
      s.data.forEach(function (p) {
        if (p.x != null && p.x > 0) xs.push(p.x);
        if (p.band != null && p.band < 1) { xs.push(1 - p.band); xs.push(1 + p.band); }
      });
    });
    return { min: Math.min.apply(null, xs) / 1.15, max: Math.max.apply(null, xs) * 1.15 };
  }

  function series(spec, s, i) {
    if (s.type === 'interval') {
      var parts = interval(spec, s), o1 = parts[0];
      if (i === 0 && spec.xMarks && spec.xMarks.length) {
        o1.markLine = { silent: true, symbol: 'none', lineStyle: { color: '#222', type: [6, 4], width: 1.5 },
          label: { position: 'insideEndTop', color: '#222', formatter: function (p) { return p.name; } },
          data: spec.xMarks.map(function (m) { return { xAxis: m.value, name: m.label }; }) };
      }
      return parts;
    }
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
    var x = axis(spec.x, true), y = spec.y2 ? [axis(spec.y, false), Object.assign(axis(spec.y2, false), { splitLine: { show: false }, min: 0, max: 100 })] : axis(spec.y, false);
    var grid = { left: 58, right: spec.y2 ? 58 : 18, top: 34, bottom: 44 + (data.provenance ? 14 * String(data.provenance).split('\n').length : 0), containLabel: false };
    if (spec.forest) {
      var r = forestRange(spec);
      /* ratios on a log axis of base 2: 0.5×, 1×, 2×, 4× between the fitted ends, whose own odd values are not labelled */
      x.min = r.min; x.max = r.max; x.logBase = 2; x.splitLine = { show: true, lineStyle: { color: '#eee' } };
      x.axisLabel.formatter = function (v) { return num(v) + '×'; }; x.axisLabel.showMinLabel = false; x.axisLabel.showMaxLabel = false;
      y.axisLabel = { color: '#333', interval: 0, overflow: 'truncate', width: spec.labelWidth || 260 };
      grid.left = 12; grid.containLabel = true;
    }
    return {
      animation: false,
      aria: { enabled: true },
      textStyle: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
      legend: { type: 'scroll', top: 0, left: 0, data: names, itemWidth: 22, textStyle: { color: '#222' } },
      grid: grid,
      /* where the figures come from, inside the chart: a chart saved or copied out of the page keeps it */
      graphic: data.provenance ? [{ type: 'text', right: 4, bottom: 2, silent: true,
        style: { text: data.provenance, fill: '#888', fontSize: 10, lineHeight: 13 } }] : [],
      tooltip: tooltip(spec),
      xAxis: x,
      yAxis: y,
      /* an interval series is drawn as several (interval above) */
      series: [].concat.apply([], spec.series.map(function (s, i) { return series(spec, s, i); }))
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
