"""Losses for learning scoring functions (issue 4): pointwise proper composite losses
(paper 004, Agarwal 2014) and pairwise surrogates summed exactly over all pairs
(papers 001 and 003). Losses: lower is better."""
