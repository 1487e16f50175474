package stackbench.runner.findings

import org.jfree.chart.ChartUtils
import org.jfree.chart.JFreeChart
import org.jfree.chart.annotations.XYBoxAnnotation
import org.jfree.chart.axis.LogAxis
import org.jfree.chart.axis.SymbolAxis
import org.jfree.chart.plot.PlotOrientation
import org.jfree.chart.plot.XYPlot
import org.jfree.chart.renderer.xy.XYErrorRenderer
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer
import org.jfree.chart.title.LegendTitle
import org.jfree.chart.ui.RectangleEdge
import org.jfree.data.xy.XIntervalSeries
import org.jfree.data.xy.XIntervalSeriesCollection
import org.jfree.data.xy.XYSeries
import org.jfree.data.xy.XYSeriesCollection
import stackbench.runner.stats.ClaimVerdict
import java.awt.BasicStroke
import java.awt.Color
import java.awt.Font
import java.awt.geom.Ellipse2D

/**
 * Draws [Forest]'s lines as a forest plot (JFreeChart, to a PNG): one line per claimed row, top to bottom in the
 * document's order, on a logarithmic axis of a ÷ b. The lab's ratio is a dot with its interval (green where the claim
 * holds, red where it differs, grey where it cannot tell), the article's a hollow ring, and the claim's band of
 * "the same" a shaded box behind each line.
 */
object ForestChart {
    private val HOLDS = Color(0x2e7d32)
    private val DIFFERS = Color(0xc62828)
    private val CANNOT_TELL = Color(0x757575)
    private val BAND = Color(0x1565c0)

    /** The chart as PNG bytes, [width] pixels wide and 22 a row high (the caller writes them). */
    fun png(lines: List<Forest.Line>, width: Int = 1100): ByteArray {
        System.setProperty("java.awt.headless", "true")
        require(lines.isNotEmpty()) { "no claimed row has a measured ratio: nothing to plot" }
        val n = lines.size
        // y: the first line on top
        fun y(i: Int) = (n - 1 - i).toDouble()
        val measured = XIntervalSeriesCollection()
        val byVerdict = ClaimVerdict.entries.associateWith { XIntervalSeries(it.text) }
        lines.forEachIndexed { i, l -> byVerdict.getValue(l.verdict).add(l.measured, l.low ?: l.measured, l.high ?: l.measured, y(i)) }
        ClaimVerdict.entries.forEach { measured.addSeries(byVerdict.getValue(it)) }
        val published = XYSeries("the article", false, true)
        lines.forEachIndexed { i, l -> l.published?.let { published.add(it, y(i)) } }

        // the points and bands set the range; an interval wider than that runs off the edge rather than squeeze the rest
        val all = lines.flatMap { listOfNotNull(it.measured, it.published, 1 - it.threshold, 1 + it.threshold) }.filter { it > 0 }
        val x = LogAxis("a ÷ b (logarithmic)").apply {
            setRange(all.min() / 1.5, all.max() * 1.5)
            isAutoTickUnitSelection = true
            setNumberFormatOverride(java.text.DecimalFormat("0.###'×'"))
        }
        val labels = lines.map { it.label }.reversed().toTypedArray()
        val yAxis = SymbolAxis(null, labels).apply {
            tickLabelFont = Font(Font.SANS_SERIF, Font.PLAIN, 11)
            isGridBandsVisible = false
        }
        val dots = XYErrorRenderer().apply {
            drawYError = false
            drawXError = true
            errorStroke = BasicStroke(2f)
            capLength = 6.0
            setDefaultShapesVisible(true)
            setDefaultLinesVisible(false)
            ClaimVerdict.entries.forEachIndexed { k, v ->
                val c = when (v) { ClaimVerdict.HOLDS -> HOLDS; ClaimVerdict.DIFFERS -> DIFFERS; ClaimVerdict.CANNOT_TELL -> CANNOT_TELL }
                setSeriesPaint(k, c)
                setSeriesShape(k, Ellipse2D.Double(-4.0, -4.0, 8.0, 8.0))
            }
        }
        val rings = XYLineAndShapeRenderer(false, true).apply {
            setSeriesShape(0, Ellipse2D.Double(-6.0, -6.0, 12.0, 12.0))
            setSeriesShapesFilled(0, false)
            setSeriesPaint(0, Color.BLACK)
            setSeriesStroke(0, BasicStroke(1.5f))
            useOutlinePaint = false
        }
        val plot = XYPlot(measured, x, yAxis, dots).apply {
            orientation = PlotOrientation.VERTICAL
            setDataset(1, XYSeriesCollection(published))
            setRenderer(1, rings)
            backgroundPaint = Color.WHITE
            domainGridlinePaint = Color(0xdddddd)
            rangeGridlinePaint = Color(0xeeeeee)
        }
        lines.forEachIndexed { i, l ->
            plot.addAnnotation(XYBoxAnnotation(1 - l.threshold, y(i) - 0.42, 1 + l.threshold, y(i) + 0.42, null, null, Color(BAND.red, BAND.green, BAND.blue, 38)))
        }
        val chart = JFreeChart("Published against measured: every claimed row", Font(Font.SANS_SERIF, Font.BOLD, 15), plot, true).apply {
            backgroundPaint = Color.WHITE
            (getLegend() as LegendTitle).position = RectangleEdge.TOP
        }
        val out = java.io.ByteArrayOutputStream()
        ChartUtils.writeChartAsPNG(out, chart, width, 90 + 22 * n)
        return out.toByteArray()
    }
}
