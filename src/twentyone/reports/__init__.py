"""Reports that combine the exact analysis with a simulation: the PAR sheet."""
