"""Card counting: tag systems and the true count as data (:mod:`.counts`), bet ramps
(:mod:`.ramp`) and index plays (:mod:`.index_set`), index plays generated from the exact
analysis, the countability audit; the counting simulation is
:mod:`twentyone.counting.sim_kernel` and :mod:`twentyone.counting.sim_runner`."""
