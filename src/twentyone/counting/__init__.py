"""Card counting: index plays generated from the exact analysis, the countability audit."""
