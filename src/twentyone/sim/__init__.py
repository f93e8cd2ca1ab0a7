"""Fast simulation of a chart over real shoes: a numba kernel (:mod:`.kernel`), the encoding of
rules and charts it reads (:mod:`.encode`), seeds, workers and results (:mod:`.runner`) and Ray
(:mod:`.cluster`)."""
