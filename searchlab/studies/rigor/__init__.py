"""The rigor measurements, each with its report section: ``convergence`` (paired growth per
depth, the extrapolated limit, the exponent's sensitivity), ``exact_counts`` (exact random-order
expectations by DP over the search window) and its verdicts, ``worstcase`` (the most leaves over
all orderings), ``nodetypes`` (PV/CUT/ALL against the minimal tree, via ``instrumented``),
``discrete`` (Pearl's critical case, ties and the cut rule)."""
