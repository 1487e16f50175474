package stackbench.runner.install

/** One check of `doctor`: what it found, and how to fix it when it is not right. */
data class Check(val name: String, val ok: Boolean, val found: String, val fix: String? = null, val essential: Boolean = true)
