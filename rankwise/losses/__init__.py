"""Losses for learning scoring functions: pointwise proper composite losses (S. Agarwal,
"Surrogate regret bounds for bipartite ranking via strongly proper losses", JMLR 15,
2014) and pairwise surrogates summed exactly over all pairs (the convex ranking risks of
S. Clémençon, G. Lugosi and N. Vayatis, "Ranking and empirical minimization of
U-statistics", Annals of Statistics 36(2), 2008; the pairwise squared loss of S. Gultekin
and J. Paisley, "Risk Bounds for Low Cost Bipartite Ranking", UAI 2020). Losses: lower is
better. The losses, how each sum over pairs is computed and the regret bounds:
``docs/learners.md``."""

from ._pairwise import PAIRWISE, PairwiseResult, PairwiseSurrogate, PreparedPairwise, pairwise
from ._proper import LOSSES, ProperCompositeLoss, balanced_regret_bound, get

__all__ = ["ProperCompositeLoss", "LOSSES", "get", "balanced_regret_bound", "PAIRWISE", "PairwiseSurrogate",
           "PairwiseResult", "PreparedPairwise", "pairwise"]

