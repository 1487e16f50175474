package stackbench.runner.report

/**
 * Colours and marks per app configuration, the same in every chart and table. The colours are Okabe and Ito's
 * palette for colour-blind readers (yellow left out: too pale on white); each configuration also has its own
 * symbol, and each strategy its own line dash, so lines stay apart in grey print too.
 */
object Palette {
    data class Style(val color: String, val symbol: String)

    val colors = listOf("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000")
    val symbols = listOf("circle", "rect", "triangle", "diamond", "roundRect", "pin", "arrow")
    val dashes = listOf("solid", "dashed", "dotted")

    /** Past seven configurations colours repeat, with another symbol. */
    fun style(i: Int) = Style(colors[i % colors.size], symbols[(i + i / colors.size) % symbols.size])

    fun dash(i: Int) = dashes[i % dashes.size]

    /** The HTML mark of a symbol, for legends and tables. */
    fun glyph(symbol: String) = when (symbol) {
        "circle" -> "●"; "rect" -> "■"; "triangle" -> "▲"; "diamond" -> "◆"; "roundRect" -> "▪"; "pin" -> "⬤"; else -> "➤"
    }
}
